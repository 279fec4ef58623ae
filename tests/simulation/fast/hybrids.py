"""Hybrid rulesets for the kernel's component tests: Pathfinder Beginner's composition with some areas taken
from the off-guard ruleset's own composition (its components, sharing its condition table), every option of
both rulesets a variant, and the shared replay that compares the two engines event by event."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import yaml
from tests.simulation.fast.random_battles import random_battle

from d20combat.controllers import TacticalAI, play
from d20combat.dice import SeededDice
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.rulesets import RULESETS
from d20combat.rulesets.base import Policies
from d20combat.rulesets.components import StandardMoveEconomy
from d20combat.rulesets.components.reactions import ThreatenedSquareAoO
from d20combat.rulesets.off_guard import OffGuard, OffGuardOptions
from d20combat.rulesets.pathfinder_beginner import PathfinderBeginner, PfbOptions
from d20combat.scenario import battle_from_data
from d20combat.simulation.fast import kernel_base as k
from d20combat.simulation.fast.compile import compile_battle
from d20combat.simulation.fast.runner import play_fast
from d20combat.simulation.fast.trace import fast_entries, reference_entries

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


class HybridOptions(PfbOptions, OffGuardOptions):
    """Both rulesets' options; ``hybrid_areas``: the areas off-guard's composition supplies."""

    hybrid_areas: tuple[str, ...] = ()


class HybridPathfinder(PathfinderBeginner):
    """Pathfinder Beginner with the ``hybrid_areas`` of off-guard (reaction attacks off by default: the economy
    of off-guard refreshes them only when its reactions area plays them)."""

    id = "test-pfb-off-guard-hybrid"
    Options = HybridOptions

    @classmethod
    def compose(cls, options: Any) -> Policies:
        o: HybridOptions = options
        cmv = OffGuardOptions(**{name: getattr(o, name) for name in OffGuardOptions.model_fields})
        theirs = OffGuard.compose(cmv)
        return super().compose(options).replace(**{area: getattr(theirs, area) for area in o.hybrid_areas})


class PfbWithAttacksOfOpportunity(PathfinderBeginner):
    """Pathfinder Beginner with Epic Path's attacks of opportunity as the epic-path ruleset first composed them:
    ``ThreatenedSquareAoO`` (anyone able to act) with the standard economy refreshing one a round."""

    id = "test-pfb-with-ep-aoo"

    @classmethod
    def compose(cls, options: Any) -> Policies:
        o: PfbOptions = options
        aoo = ThreatenedSquareAoO(per_round=1, provoking_moves=("move", "charge"))
        economy = StandardMoveEconomy(max_free_actions=o.max_free_actions,
                                      surprise_free_actions=o.pfb_surprise_free_actions, aoo=aoo)
        return super().compose(options).replace(economy=economy, reactions=aoo)


def register() -> Iterator[None]:
    """A fixture body: the hybrid is a registered ruleset while a test runs."""
    RULESETS[HybridPathfinder.id] = HybridPathfinder
    yield
    del RULESETS[HybridPathfinder.id]


def hybrid(data: dict[str, Any], areas: Sequence[str], variants: dict[str, Any]) -> dict[str, Any]:
    """``data`` under the hybrid with these areas and variants (starting conditions dropped: the kernel has
    none)."""
    if "injury" in areas and "conditions" not in areas:
        areas = [*areas, "conditions"]  # the injury's saves ask the table, which asks the ruleset it is bound to
    if "conditions" in areas and "saves" not in areas:
        areas = [*areas, "saves"]  # the table rolls its saves (death saves too) through off-guard's saves area
    keep = {name: value for name, value in data.get("variants", {}).items() if name in PfbOptions.model_fields}
    return {**data, "ruleset": HybridPathfinder.id,
            "variants": {**keep, "cmv_reaction_attack_rules": "none", **variants, "hybrid_areas": list(areas)},
            "combatants": [{key: v for key, v in c.items() if key != "conditions"} for c in data["combatants"]]}


KERNEL_EXAMPLE_RULESETS = frozenset({"pathfinder-beginner", "off-guard", "skill-based"})
"""The rulesets whose examples the kernel tests replay (under the ruleset each test plays). An example of a ruleset
whose components the kernel does not have yet (epic-path: impeded and blocked terrain, splash weapons) joins when
they do; until then it would only reshuffle every later sample of the shared random source."""


def battles(n: int, seed: int, *, rulesets: frozenset[str] = KERNEL_EXAMPLE_RULESETS
            ) -> Iterator[tuple[dict[str, Any], random.Random]]:
    """The examples (of ``rulesets``) and ``n`` random battles of the shared generator, each with a random source
    for sampling."""
    rnd = random.Random(seed)
    for path in sorted(EXAMPLES.glob("*.yaml")):
        data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
        if data.get("ruleset", "pathfinder-beginner") not in rulesets:
            continue
        data.setdefault("name", path.stem)
        yield data, rnd
    for i in range(n):
        yield random_battle(i), rnd


def replay(data: dict[str, Any], seed: int) -> list[ev.Event]:
    """Play ``data`` on both engines with dice ``seed``: the same events, every field, and the same dice."""
    battle = battle_from_data(data, "scenario", None)
    enc = play(Encounter(battle, SeededDice(seed)), TacticalAI())
    cb = compile_battle(battle)
    result = play_fast(cb, seed, log=True)
    ref, fast = reference_entries(enc.log), fast_entries(cb, result)
    for i, (r, f) in enumerate(zip(ref, fast, strict=False)):
        assert r == f, f"{data['name']} seed {seed}: event {i} differs\n reference {r}\n fast      {f}"
    assert len(ref) == len(fast)
    assert len(enc.dice.rolls) == result.setup.rolls + int(result.scalars[k.T_ROLLS])
    return list(enc.log)
