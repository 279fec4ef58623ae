"""Off-guard's damage-taken injury (CMV-INJ) and minor/major economy on the fast path, each proven event by event
against the reference engine under a hybrid ruleset: Pathfinder Beginner's composition with off-guard's economy
(its condition table held by it), or with off-guard's condition table, injury and economy (the components the
injury depends on and the one that reads it), the injury's variants sampled."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

import pytest
import yaml
from tests.simulation.fast.random_battles import random_battle

from d20combat.controllers import TacticalAI, play
from d20combat.dice import SeededDice
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.rulesets import RULESETS, get_ruleset
from d20combat.rulesets.base import Policies
from d20combat.rulesets.off_guard.conditions import ConditionTable
from d20combat.rulesets.off_guard.economy import MinorMajorEconomy
from d20combat.rulesets.off_guard.fear import Fear
from d20combat.rulesets.off_guard.injury import DamageTaken
from d20combat.rulesets.off_guard.options import OffGuardOptions
from d20combat.rulesets.off_guard.saves import TableSaves
from d20combat.rulesets.pathfinder_beginner import PathfinderBeginner, PfbOptions
from d20combat.scenario import battle_from_data
from d20combat.simulation import play_one
from d20combat.simulation.fast import kernel_base as k
from d20combat.simulation.fast.compile import NotCompilable, compile_battle, unsupported_components
from d20combat.simulation.fast.runner import play_fast
from d20combat.simulation.fast.trace import fast_entries, reference_entries
from d20combat.simulation.runner import play_one_fast

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


class InjuryOptions(PfbOptions):
    """PFB's options and off-guard's injury variants (CMV-INJ, CMV-CDG-07); ``hybrid_economy``: off-guard's
    minor/major economy, or PFB's (a staggered creature may then charge, and strains)."""

    cmv_death_save_bonus: Literal["con", "none"] = "con"
    cmv_death_save_pass: Literal["staggered", "stable"] = "staggered"
    cmv_dying: Literal["save", "gm"] = "save"
    cmv_bloodied_rounding: Literal["up", "down"] = "up"
    cmv_staggered_strenuous_damage: bool = True
    hybrid_economy: Literal["cmv", "core"] = "cmv"


def _cmv(o: InjuryOptions) -> OffGuardOptions:
    return OffGuardOptions(cmv_death_save_bonus=o.cmv_death_save_bonus, cmv_death_save_pass=o.cmv_death_save_pass,
                           cmv_dying=o.cmv_dying, cmv_bloodied_rounding=o.cmv_bloodied_rounding,
                           cmv_staggered_strenuous_damage=o.cmv_staggered_strenuous_damage,
                           max_free_actions=o.max_free_actions)


class EconomyPathfinder(PathfinderBeginner):
    """Pathfinder Beginner with off-guard's minor/major economy (no reaction attacks to refresh)."""

    id = "test-pfb-minor-major"
    Options = InjuryOptions

    @classmethod
    def compose(cls, options: Any) -> Policies:
        cmv = _cmv(options)
        return super().compose(options).replace(economy=MinorMajorEconomy(ConditionTable(cmv), None, cmv))


class InjuryPathfinder(PathfinderBeginner):
    """Pathfinder Beginner with off-guard's condition table, damage-taken injury and (by default) economy."""

    id = "test-pfb-damage-taken"
    Options = InjuryOptions

    @classmethod
    def compose(cls, options: Any) -> Policies:
        o: InjuryOptions = options
        cmv = _cmv(o)
        table = ConditionTable(cmv)
        policies = super().compose(options).replace(conditions=table, saves=TableSaves(table, cmv),
                                                    injury=DamageTaken(table, Fear(table, cmv), cmv))
        if o.hybrid_economy == "cmv":
            policies = policies.replace(economy=MinorMajorEconomy(table, None, cmv))
        return policies


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    for rs in (EconomyPathfinder, InjuryPathfinder):
        RULESETS[rs.id] = rs
    yield
    for rs in (EconomyPathfinder, InjuryPathfinder):
        del RULESETS[rs.id]


def _hybrid(data: dict[str, Any], rnd: random.Random, ruleset: str) -> dict[str, Any]:
    """The battle under a hybrid ruleset, the injury's variants sampled (defaults half the time)."""
    data = {**data, "ruleset": ruleset}
    variants = {name: value for name, value in data.get("variants", {}).items() if name in PfbOptions.model_fields}
    if rnd.random() < 0.5:
        variants["cmv_death_save_bonus"] = rnd.choice(["con", "none"])
        variants["cmv_death_save_pass"] = rnd.choice(["staggered", "stable"])
        variants["cmv_dying"] = rnd.choice(["save", "save", "gm"])
        variants["cmv_bloodied_rounding"] = rnd.choice(["up", "down"])
        variants["cmv_staggered_strenuous_damage"] = rnd.choice([True, False])
    variants["hybrid_economy"] = rnd.choice(["cmv", "cmv", "core"])
    data["variants"] = variants
    data["combatants"] = [{key: v for key, v in c.items() if key != "conditions"} for c in data["combatants"]]
    return data


def _replay(data: dict[str, Any], seed: int) -> list[ev.Event]:
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


def _battles(ruleset: str, n: int) -> Iterator[dict[str, Any]]:
    rnd = random.Random(8)
    for path in sorted(EXAMPLES.glob("*.yaml")):
        data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
        data.setdefault("name", path.stem)
        yield _hybrid(data, rnd, ruleset)
    for i in range(n):
        yield _hybrid(random_battle(i), rnd, ruleset)


def test_minor_major_economy_replays_the_reference_log() -> None:
    """Off-guard's economy under PFB's hit points: a creature at 0 hp or below has taken its hp in damage —
    staggered, a single action (CMV-INJ-06) — and its standard action costs nothing (the economy's allowance
    never asks for PFB-HP-01's strain)."""
    texts: list[str] = []
    for data in _battles(EconomyPathfinder.id, 40):
        for seed in (0, 1):
            texts += [e.text for e in _replay(data, seed) if isinstance(e, ev.Note)]
    assert any("is disabled at 0 hp" in text for text in texts)


def test_damage_taken_replays_the_reference_log() -> None:
    """CMV-INJ-03/09 bloodied and staggered mirrored into the log; CMV-INJ-12/13 the death save past hp (dying,
    or staggered at damage = hp, or stable); CMV-INJ-11/16 a dying creature's save each turn; CMV-INJ-15/17 a
    save on damage while dying or stable, failed: dead; CMV-INJ-08 a staggered creature's strain."""
    seen: set[str] = set()
    for data in _battles(InjuryPathfinder.id, 100):
        for seed in (0, 1):
            for e in _replay(data, seed):
                if isinstance(e, ev.ConditionSet):
                    seen.add(f"{e.condition} {e.present}")
                elif isinstance(e, ev.Healed):
                    seen.add("healed")
                elif isinstance(e, ev.Stabilized):
                    seen.add("stabilized")
                elif isinstance(e, ev.Damaged) and e.source == "strenuous":
                    seen.add("strain")
                elif isinstance(e, ev.Note) and "death save" in e.text:
                    seen.add("death save " + e.text.rsplit(" ", 1)[-1])
    expected = {"bloodied True", "staggered True", "staggered False", "dying True", "dying False", "stable True",
                "dead True", "healed", "stabilized", "strain", "death save succeeds", "death save fails"}
    assert expected <= seen, expected - seen


def test_outcomes_count_the_injury_components_down_and_dead() -> None:
    """Out of the fight and killed are the injury component's (dying and stable are down, only dead is killed),
    the same on either engine."""
    data = _hybrid(yaml.safe_load((EXAMPLES / "goblin-ambush.yaml").read_text(encoding="utf-8")),
                   random.Random(3), InjuryPathfinder.id)
    battle = battle_from_data(data, "scenario", None)
    cb = compile_battle(battle)
    for seed in range(6):
        assert play_one_fast(cb, seed) == play_one(battle, seed)


def test_the_components_are_chosen_by_data() -> None:
    """The off-guard ruleset no longer names its economy, injury or condition table; an economy that refreshes
    the attacks of opportunity of another component than the ruleset's reactions is refused, and so is a subclass
    that changes a policy."""
    assert unsupported_components(get_ruleset(InjuryPathfinder.id)) == []
    missing = unsupported_components(get_ruleset("off-guard"))
    assert not any(m.split("=")[0] in ("economy", "injury", "conditions") for m in missing), missing

    class Odd(DamageTaken):
        def strain(self, view: Any, actor: str, cost: str) -> None:
            return None

    class OddPathfinder(InjuryPathfinder):
        @classmethod
        def compose(cls, options: Any) -> Policies:
            table = ConditionTable(OffGuardOptions())
            return super().compose(options).replace(injury=Odd(table, Fear(table, OffGuardOptions()),
                                                               OffGuardOptions()))

    assert unsupported_components(OddPathfinder()) == ["injury=Odd (strain)"]

    class Reacting(InjuryPathfinder):
        @classmethod
        def compose(cls, options: Any) -> Policies:
            policies = get_ruleset("off-guard").policies
            return super().compose(options).replace(economy=policies.economy)

    data = _hybrid(random_battle(2), random.Random(0), InjuryPathfinder.id)
    battle = replace(battle_from_data(data, "scenario", None), ruleset=Reacting())
    with pytest.raises(NotCompilable, match=r"refreshes the attacks of opportunity .* of another component"):
        compile_battle(battle)
