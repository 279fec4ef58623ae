"""The vectorized attack fast path agrees with the reference engine (distributions within 4 standard
errors) — for PFB and for a ruleset whose per-face policies differ."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from tests.conftest import make_encounter

from d20combat.dice import SeededDice
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.rulesets.base import Policies
from d20combat.rulesets.components import D20Attack
from d20combat.rulesets.pathfinder_beginner import PathfinderBeginner
from d20combat.simulation.vectorized import compile_attack, resolve_batch


def _reference(enc: Encounter, target: str, n: int) -> tuple[list[bool], list[bool], list[int]]:
    hits, crits, damage = [], [], []
    for _ in range(n):
        events = enc.act(ax.Attack(target))
        attack = next(e for e in events if isinstance(e, ev.AttackResolved))
        hits.append(attack.hit)
        crits.append(attack.critical)
        damage.append(sum(e.amount for e in events if isinstance(e, ev.Damaged) and e.target == target))
        enc.undo()
    return hits, crits, damage


def _within(ref: list[float] | list[bool] | list[int], fast: np.ndarray, sigmas: float = 4.0) -> None:
    values = np.asarray(ref, dtype=float)
    se = values.std(ddof=1) / math.sqrt(len(values)) + fast.std() / math.sqrt(len(fast))
    assert abs(values.mean() - fast.mean()) <= sigmas * se, (values.mean(), fast.mean(), se)


def _compile(enc: Encounter, attacker: str, target: str):  # type: ignore[no-untyped-def]
    plan = enc.plan_attack(attacker, target)
    ac, _ = enc.target_ac(plan, enc.state)
    creature = enc.creature(attacker)
    return compile_attack(enc.ruleset, creature, plan.option, sum(m.value for m in plan.modifiers), ac,
                          concealment=plan.concealment)


def test_fast_attacks_match_the_reference_engine_pfb() -> None:
    enc = make_encounter([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "o", "side": "monsters", "stats": "ogre", "position": [2, 1], "hp": 30},
    ])
    enc.dice = SeededDice(11)
    hits, crits, damage = _reference(enc, "o", 4000)
    batch = resolve_batch(_compile(enc, "f", "o"), 200_000, np.random.default_rng(5))
    _within(hits, batch.hit)
    _within(crits, batch.critical)
    _within(damage, batch.damage)
    assert batch.damage[batch.hit].min() >= 1  # PFB-DMG-07


class _TwentyThirtyOneMinusTen(D20Attack):
    def natural(self, face: int) -> tuple[bool, bool]:
        return False, False

    def effective_face(self, face: int) -> int:
        return {20: 30, 1: -10}.get(face, face)


class _NaturalTwentyCountsThirty(PathfinderBeginner):
    """A ruleset with different per-face policies: no automatic results, 20 counts as 30, 1 as −10."""

    @classmethod
    def compose(cls, options: Any) -> Policies:
        return super().compose(options).replace(attack=_TwentyThirtyOneMinusTen())


def test_compiled_tables_follow_the_ruleset_policies() -> None:
    enc = make_encounter([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "o", "side": "monsters", "stats": "ogre", "position": [2, 1]},
    ])
    plan = enc.plan_attack("f", "o")
    c = compile_attack(_NaturalTwentyCountsThirty(), enc.creature("f"), plan.option, 5, 40)
    assert c.counted[20] == 30 and c.counted[1] == -10 and not c.auto_hit.any()
    batch = resolve_batch(c, 10_000, np.random.default_rng(1))
    assert not batch.hit.any()  # 30 + 5 < 40 and no automatic hit: nothing lands
    pfb = compile_attack(PathfinderBeginner(), enc.creature("f"), plan.option, 5, 40)
    hit_rate = resolve_batch(pfb, 40_000, np.random.default_rng(1)).hit.mean()
    assert abs(hit_rate - 0.05) < 0.005  # PFB: only the natural 20 hits


def test_memoized_geometry_leaves_the_event_log_byte_identical() -> None:
    """The simulation's speed-ups are memoized pure functions (line tracing, attack plans, move options):
    a battle played with cold caches and again with warm ones gives the same log, byte for byte."""
    from d20combat.battlefield import lines
    from d20combat.controllers import TacticalAI, play
    from d20combat.scenario import load_battle

    battle = load_battle("examples/goblin-ambush.yaml")
    lines.crossed.cache_clear()
    lines.squeezed.cache_clear()
    cold = play(Encounter(battle, SeededDice(21)), TacticalAI())
    assert lines.crossed.cache_info().hits > 0
    warm = play(Encounter(battle, SeededDice(21)), TacticalAI())
    assert [e.to_json() for e in cold.log] == [e.to_json() for e in warm.log]
