"""The kernel supports policy *components*, chosen by data at compile time (issue 14): a ruleset made of
supported components plays fast whatever ruleset it is. Each non-core component is proven the way the core
is, event by event against the reference engine, under a hybrid ruleset — Pathfinder Beginner's composition
with only that component's area replaced, its options carrying the component's variant fields."""

from __future__ import annotations

import random
from collections.abc import Iterator
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
from d20combat.rulesets.off_guard.concealment import StackingConcealment
from d20combat.rulesets.off_guard.options import OffGuardOptions
from d20combat.rulesets.pathfinder_beginner import PathfinderBeginner, PfbOptions
from d20combat.scenario import battle_from_data
from d20combat.simulation.fast import kernel_base as k
from d20combat.simulation.fast.compile import NotCompilable, compile_battle, unsupported_components
from d20combat.simulation.fast.components import KERNEL_COMPONENTS
from d20combat.simulation.fast.runner import play_fast
from d20combat.simulation.fast.trace import fast_entries, reference_entries

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


class StackingOptions(PfbOptions):
    """PFB's options and off-guard's concealment variants (CMV-CONC-10)."""

    cmv_concealment_stack: Literal["add", "independent"] = "add"
    cmv_terrain_areas_stack: bool = False


class StackingPathfinder(PathfinderBeginner):
    """Pathfinder Beginner with off-guard's concealment: sources stack to 50 %, the d% after a hit."""

    id = "test-pfb-stacking-concealment"
    Options = StackingOptions

    @classmethod
    def compose(cls, options: Any) -> Policies:
        o: StackingOptions = options
        cmv = OffGuardOptions(cmv_concealment_stack=o.cmv_concealment_stack,
                              cmv_terrain_areas_stack=o.cmv_terrain_areas_stack)
        return super().compose(options).replace(concealment=StackingConcealment(cmv))


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    RULESETS[StackingPathfinder.id] = StackingPathfinder
    yield
    del RULESETS[StackingPathfinder.id]


CONCEALING = "ff**dD"


def _hybrid(data: dict[str, Any], rnd: random.Random, dense: bool) -> dict[str, Any]:
    """The battle under the hybrid ruleset, its concealment variants sampled; ``dense``: a third of the plain
    floor turned into fog, bushes, dim light and darkness (concealment on most lines)."""
    data = {**data, "ruleset": StackingPathfinder.id}
    variants = {name: value for name, value in data.get("variants", {}).items() if name in PfbOptions.model_fields}
    variants["cmv_concealment_stack"] = rnd.choice(["add", "independent"])
    variants["cmv_terrain_areas_stack"] = rnd.choice([True, False])
    data["variants"] = variants
    data["combatants"] = [{key: v for key, v in c.items() if key != "conditions"} for c in data["combatants"]]
    rows = data.get("map", {}).get("rows")
    if dense and rows:
        data["map"] = {**data["map"], "rows": ["".join(rnd.choice(CONCEALING) if ch == "." and rnd.random() < 0.35
                                                      else ch for ch in row) for row in rows]}
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


def _battles() -> Iterator[dict[str, Any]]:
    rnd = random.Random(14)
    for path in sorted(EXAMPLES.glob("*.yaml")):
        data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
        data.setdefault("name", path.stem)
        yield _hybrid(data, rnd, dense=False)
        yield _hybrid({**data, "name": f"{path.stem} (dense)"}, rnd, dense=True)
    for n in range(100):
        yield _hybrid(random_battle(n), rnd, dense=n % 2 == 1)


def test_stacking_concealment_replays_the_reference_log() -> None:
    """Off-guard's StackingConcealment on the fast path: every source counting (terrain through the defender's
    squares, in adjacent melee only a target inside it, per area with ``cmv_terrain_areas_stack``, dim light,
    darkness), added or combined to at most 50 %, the defender's d% after a hit."""
    lines: list[str] = []
    played = 0
    for data in _battles():
        for seed in (0, 1):
            for e in _replay(data, seed):
                if isinstance(e, ev.AttackResolved):
                    lines += e.lines
            played += 1
    assert played == 2 * (2 * len(list(EXAMPLES.glob("*.yaml"))) + 100)
    text = "\n".join(lines)
    # the sweep exercised the component: d% after a hit both ways, stacked sources, both ways, and the cap
    for seen in ("the hit misses: concealment d%", "the hit stands", "— added:", "— combined:", "capped at 50%"):
        assert seen in text, seen


def test_the_component_is_chosen_by_data() -> None:
    """Supported: the hybrid plays fast; the off-guard ruleset no longer names its concealment, and a subclass
    that changes a replayed policy of a supported component is refused by name."""
    assert [kc.cls for kc in KERNEL_COMPONENTS["concealment"]][1] is StackingConcealment
    assert unsupported_components(get_ruleset(StackingPathfinder.id)) == []
    assert not any(m.startswith("concealment=") for m in unsupported_components(get_ruleset("off-guard")))

    class Odd(StackingConcealment):
        def combine(self, sources: Any) -> tuple[int, str]:
            return 0, ""

    class OddPathfinder(StackingPathfinder):
        @classmethod
        def compose(cls, options: Any) -> Policies:
            return super().compose(options).replace(concealment=Odd(OffGuardOptions()))

    assert unsupported_components(OddPathfinder()) == ["concealment=Odd (combine)"]


def test_the_refusal_names_every_subclass_that_changes_more_than_static_policies() -> None:
    """A subclass of a supported component plays as it only when all it changes is a policy compile time asks
    (STATIC): Worlds of Adventure's criticals judge a threat by beating the AC by 20 (WOA-STAT-06) and confirm
    against another AC (WOA-STAT-41) — ``threat`` and ``confirmation_target``, which the kernel replays with the
    core's reading — so the refusal names WoaCriticals with them, beside every other WOA component the kernel
    lacks (so are Epic Path's ambush and saves); the rulesets the fast path plays keep playing it (off-guard's
    initiative penalties and fatigued Strength, skill-based's sheets, Dex initiative and no cover
    change static policies only)."""
    woa = dict(m.split(" (")[0].split("=") for m in unsupported_components(get_ruleset("worlds-of-adventure")))
    assert "criticals=WoaCriticals (confirmation_target, threat)" in unsupported_components(
        get_ruleset("worlds-of-adventure"))
    assert woa == {"turn_order": "WoaRoundCycle", "surprise": "Awareness", "conditions": "WoaConditions",
                   "saves": "WoaSaves", "economy": "WoaEconomy", "movement": "WoaMovement", "attack": "WoaAttack",
                   "defense": "WoaArmorClass", "active_defense": "WoaActiveDefense", "criticals": "WoaCriticals",
                   "damage": "WoaDamage", "reactions": "WoaAttacksOfOpportunity", "actions": "ActionGroups",
                   "tactics": "WoaTactics"}
    epic = {m.split("=")[0] for m in unsupported_components(get_ruleset("epic-path"))}
    assert {"surprise", "saves"} <= epic, epic  # Epic Path's ambush and saves: named too, no longer taken as core
    for name in ("pathfinder-beginner", "off-guard", "skill-based"):
        assert unsupported_components(get_ruleset(name)) == [], name

    class Margin(StackingConcealment):
        def precision_allowed(self, *args: Any) -> bool:
            return False

    class MarginPathfinder(StackingPathfinder):
        @classmethod
        def compose(cls, options: Any) -> Policies:
            return super().compose(options).replace(concealment=Margin(OffGuardOptions()))

    assert unsupported_components(MarginPathfinder()) == ["concealment=Margin (precision_allowed)"]


def test_weak_terrain_under_independent_stacking_is_refused() -> None:
    data = _hybrid(random_battle(3), random.Random(0), dense=False)
    data["variants"]["cmv_concealment_stack"] = "independent"
    data["map"] = {**data["map"], "concealment": [[0, 0, 5]]}
    with pytest.raises(NotCompilable, match="concealing terrain of 5 % with cmv_concealment_stack=independent"):
        compile_battle(battle_from_data(data, "scenario", None))
