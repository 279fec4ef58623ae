"""The fast path for attacks: many attacks resolved at once with numpy.

The ruleset is *compiled*, not re-implemented: its per-face policies (what a face counts as,
automatic hits and misses, which faces threaten, when a threat needs a hit) are evaluated once for
the twenty faces into lookup tables, so a ruleset change flows here without a line of code. The
result is a distribution, not an event log; tests hold it to the reference engine within a stated
statistical bound.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from d20combat.model.creature import AttackOption, Creature
from d20combat.rules.damage import strength_damage
from d20combat.rulesets.base import Ruleset

FACES = np.arange(1, 21)


@dataclass(frozen=True)
class CompiledAttack:
    """Everything a batch needs, as plain numbers and 21-entry tables indexed by the d20 face."""

    bonus: int
    target: int
    counted: NDArray[np.int64]
    auto_hit: NDArray[np.bool_]
    auto_miss: NDArray[np.bool_]
    threat_if_hit: NDArray[np.bool_]
    threat_if_miss: NDArray[np.bool_]
    dice_count: int
    dice_sides: int
    static: int
    multiplier: int
    extra_count: int
    extra_sides: int
    minimum: int
    concealment: int
    concealment_before_roll: bool
    mitigation: NDArray[np.int64] | None = None
    """Damage after mitigation, indexed by damage before it (None = no mitigation)."""


def compile_attack(ruleset: Ruleset, attacker: Creature, option: AttackOption, bonus: int, target: int, *,
                   concealment: int = 0, precision_d6: int = 0,
                   mitigation_table: NDArray[np.int64] | None = None) -> CompiledAttack:
    faces = [0, *range(1, 21)]
    naturals = [ruleset.attack.natural(f) if f else (False, False) for f in faces]
    _, mult = ruleset.criticals.crit_profile(option)
    extra_count, extra_sides = 0, 6
    if option.energy is not None:
        extra_count, extra_sides = option.energy.count, option.energy.sides
    if precision_d6:
        if extra_count and extra_sides != 6:
            raise ValueError("a batch carries one extra die size")
        extra_count, extra_sides = extra_count + precision_d6, 6
    return CompiledAttack(
        bonus=bonus,
        target=target,
        counted=np.array([ruleset.attack.effective_face(f) if f else 0 for f in faces], dtype=np.int64),
        auto_hit=np.array([n[0] for n in naturals]),
        auto_miss=np.array([n[1] for n in naturals]),
        threat_if_hit=np.array([bool(f) and ruleset.criticals.threatens(f, option, True) for f in faces]),
        threat_if_miss=np.array([bool(f) and ruleset.criticals.threatens(f, option, False) for f in faces]),
        dice_count=option.dice.count,
        dice_sides=option.dice.sides,
        static=option.dice.bonus + strength_damage(attacker.str_mod, option) + option.weapon.enhancement,
        multiplier=mult,
        extra_count=extra_count,
        extra_sides=extra_sides,
        minimum=ruleset.damage.minimum_damage,
        concealment=concealment,
        concealment_before_roll=ruleset.concealment.before_roll,
        mitigation=mitigation_table,
    )


@dataclass(frozen=True)
class Batch:
    hit: NDArray[np.bool_]
    threat: NDArray[np.bool_]
    critical: NDArray[np.bool_]
    damage: NDArray[np.int64]


def _sum_dice(rng: np.random.Generator, rows: int, count: int, sides: int) -> NDArray[np.int64]:
    if count == 0 or rows == 0:
        return np.zeros(rows, dtype=np.int64)
    if count == 1:
        return rng.integers(1, sides + 1, size=rows, dtype=np.int64)
    summed: NDArray[np.int64] = rng.integers(1, sides + 1, size=(rows, count), dtype=np.int16).sum(axis=1,
                                                                                                  dtype=np.int64)
    return summed


def resolve_batch(c: CompiledAttack, n: int, rng: np.random.Generator) -> Batch:
    """``n`` independent attacks: concealment, d20, natural results, threat and confirmation, damage.

    Only the rows that need them roll the confirmation and the extra critical dice."""
    face = rng.integers(1, 21, size=n, dtype=np.int8)
    hit = c.auto_hit[face] | (~c.auto_miss[face] & (c.counted[face] >= c.target - c.bonus))
    if c.concealment:
        hit &= rng.integers(1, 101, size=n, dtype=np.int8) > c.concealment
    threat = hit & c.threat_if_hit[face]
    critical = np.zeros(n, dtype=bool)
    rows = np.flatnonzero(threat)
    if rows.size:
        cf = rng.integers(1, 21, size=rows.size, dtype=np.int8)
        confirmed = c.auto_hit[cf] | (~c.auto_miss[cf] & (c.counted[cf] >= c.target - c.bonus))
        critical[rows[confirmed]] = True
    raw = _sum_dice(rng, n, c.dice_count, c.dice_sides) + c.static
    crit_rows = np.flatnonzero(critical)
    if crit_rows.size and c.multiplier > 1:
        extra = _sum_dice(rng, crit_rows.size, c.dice_count * (c.multiplier - 1), c.dice_sides)
        raw[crit_rows] += extra + c.static * (c.multiplier - 1)
    if c.extra_count:
        raw += _sum_dice(rng, n, c.extra_count, c.extra_sides)
    amount = np.maximum(raw, c.minimum)
    if c.mitigation is not None:
        amount = c.mitigation[np.clip(amount, 0, len(c.mitigation) - 1)]
    return Batch(hit, threat, critical, np.where(hit, amount, 0))
