"""Attacks of opportunity from threatened squares (off-guard's reaction attacks, CMV-COV-08; EP-AOO-01..17) on the
fast path, proven against the reference under hybrids of Pathfinder Beginner with off-guard's reactions, economy
(which refreshes them each round) and condition table (who may react), alone or with its other areas: a move or
a charge leaving a threatened square provokes, once per enemy and action, from one a round; never by an off-guard
or helpless creature, never against total concealment, nor against cover (or, variant, against cover too); the AI
weighs each path by the attacks it would offer. The epic-path scaffold (the same attacks of opportunity through
PFB's standard economy) is proven in ``test_equivalence.py``; here, what of it the kernel refuses."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from itertools import pairwise
from typing import Any

import pytest
from tests.simulation.fast.hybrids import (
    HybridPathfinder,
    PfbWithAttacksOfOpportunity,
    battles,
    hybrid,
    register,
    replay,
)

from d20combat.encounter import events as ev
from d20combat.rulesets import get_ruleset
from d20combat.rulesets.base import Policies, Ruleset
from d20combat.rulesets.components import StandardMoveEconomy
from d20combat.rulesets.components.component import Component
from d20combat.rulesets.components.reactions import ThreatenedSquareAoO
from d20combat.rulesets.off_guard.conditions import ConditionTable
from d20combat.scenario import battle_from_data
from d20combat.simulation.fast.compile import NotCompilable, compile_battle, unsupported_components
from d20combat.simulation.fast.layout import K_AOO_PER_ROUND

BASE = ("reactions", "economy", "conditions")
OTHERS = ("injury", "defense", "movement", "attack", "cover", "concealment")


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    yield from register()


def test_reaction_attacks_replay_the_reference_log() -> None:
    seen: set[str] = set()
    for data, rnd in battles(80, 17):
        areas = [*BASE, *(area for area in OTHERS if rnd.random() < 0.4)]
        game = hybrid(data, areas, {"cmv_reaction_attack_rules": "ep",
                                    "cmv_charge_ac_from_start": rnd.random() < 0.7})
        for seed in (0, 1):
            log = replay(game, seed)
            for before, after in pairwise(log):
                if isinstance(before, ev.ReactionSpent) and isinstance(after, ev.AttackResolved):
                    seen.add("spent")
                if isinstance(before, ev.Moved) and isinstance(after, ev.ReactionSpent):
                    seen.add(f"split {before.mode}")
            seen |= {"set" for e in log if isinstance(e, ev.ReactionsSet)}
    assert {"set", "spent", "split move", "split charge"} <= seen, seen


def _odd(make: Callable[[ConditionTable], ThreatenedSquareAoO]) -> Ruleset:
    """The hybrid with its reactions replaced by ``make(the table)`` (the economy refreshing those)."""

    class Odd(HybridPathfinder):
        @classmethod
        def compose(cls, options: Any) -> Policies:
            policies = super().compose(options)
            odd = make(policies.conditions)  # type: ignore[arg-type]
            policies.economy.reactions = odd  # type: ignore[attr-defined]
            return policies.replace(reactions=odd)

    return Odd({"hybrid_areas": list(BASE), "cmv_reaction_attack_rules": "ep"})


def test_reaction_attacks_are_chosen_by_data_and_other_readings_refused() -> None:
    assert unsupported_components(get_ruleset(HybridPathfinder.id, {"hybrid_areas": list(BASE),
                                                                     "cmv_reaction_attack_rules": "ep"})) == []
    data, _ = next(battles(0, 0))
    battle = battle_from_data(hybrid(data, BASE, {"cmv_reaction_attack_rules": "ep"}), "scenario", None)
    compile_battle(battle)
    for make, why in ((lambda table: ThreatenedSquareAoO(may_react=lambda creature, state: True), "may_react"),
                      (lambda table: ThreatenedSquareAoO(may_react=table.can_react, provoking_moves=("move",)),
                       "other moves"),
                      (lambda table: ThreatenedSquareAoO(may_react=table.can_react, only_while_able=True),
                       "only_while_able")):
        with pytest.raises(NotCompilable, match=why):
            compile_battle(replace(battle, ruleset=_odd(make)))


def _epic(**areas: Callable[[Policies], Any]) -> Ruleset:
    """PFB with Epic Path's attacks of opportunity (the epic-path ruleset's first composition) with some areas
    replaced by ``make(its policies)``."""

    class Epic(PfbWithAttacksOfOpportunity):
        @classmethod
        def compose(cls, options: Any) -> Policies:
            policies = super().compose(options)
            return policies.replace(**{area: make(policies) for area, make in areas.items()})

    return Epic({})


def test_epic_paths_attacks_of_opportunity_are_played_and_what_grows_is_refused_by_name() -> None:
    """EP-AOO-12: the standard economy refreshes the ruleset's own attacks of opportunity (``aoo``), which anyone
    able to act may make (``may_react`` None); an economy refreshing another component's is refused, and a
    component class the kernel does not know — a new Epic Path one, or a subclass changing a replayed policy —
    is named by ``unsupported_components``."""
    assert unsupported_components(PfbWithAttacksOfOpportunity()) == []
    data, _ = next(battles(0, 0))
    battle = replace(battle_from_data({**data, "ruleset": "pathfinder-beginner", "variants": {},
                                       "combatants": [{k: v for k, v in c.items() if k != "conditions"}
                                                      for c in data["combatants"]]}, "scenario", None),
                     ruleset=PfbWithAttacksOfOpportunity())
    assert compile_battle(battle).kn[K_AOO_PER_ROUND] == 1
    other = _epic(economy=lambda p: StandardMoveEconomy(aoo=ThreatenedSquareAoO()))
    with pytest.raises(NotCompilable, match="another component than the ruleset's reactions"):
        compile_battle(replace(battle, ruleset=other))

    class Wider(ThreatenedSquareAoO):
        def threatened(self, creature: Any, state: Any, here: Any, square: Any) -> bool:
            return True

    class EpAttack(Component):
        pass

    grown = _epic(reactions=lambda p: Wider(), attack=lambda p: EpAttack())
    assert unsupported_components(grown) == ["attack=EpAttack", "reactions=Wider (threatened)"]
