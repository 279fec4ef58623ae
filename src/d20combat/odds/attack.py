"""Exact attack odds with ``icepool``: hit, threat and critical chances, the damage distribution of
one attack and of a full attack, and the chance to bring a target down within 1..N rounds.

The model reproduces the engine's attack pipeline (:meth:`Encounter._roll_attack`) stage by stage,
asking the same ruleset policies instead of rolling:

1. concealment d% before the roll (``concealment_before_roll``, PFB-CONC-09) — a miss means no roll;
2. d20 → ``effective_face`` + attack bonus vs the target number; ``natural(face)`` gives the
   automatic hit and miss (PFB-NAT);
3. concealment d% after a hit instead, where the ruleset says so;
4. ``threatens(face, option, hit)``, then a confirmation roll with the same bonus against the same
   number, natural 20/1 again (PFB-CRIT-01..08);
5. damage: the dice rolled ``multiplier`` times and the static bonus multiplied, once-only dice
   (energy, precision) added once (PFB-CRIT-10..14); the total raised to the minimum (PFB-DMG-07);
   then ``mitigate`` (P13).

Policies are evaluated once per profile into plain data (a table per face, a mitigation table), so
the distributions are cached on data and a ruleset never needs to be named here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

import icepool  # type: ignore[import-untyped]

from d20combat.dice.expression import DiceExpr
from d20combat.errors import D20CombatError
from d20combat.model.creature import AttackOption
from d20combat.rules import attack as attack_rules
from d20combat.rules import critical
from d20combat.rules.damage import DamageDistribution
from d20combat.rulesets.base import Ruleset

Die = Any
"""An ``icepool.Die`` (icepool ships no type information)."""

FACES = range(1, 21)
_PERCENT = 100
_UNITS = _PERCENT * 20 * 20
"""Every outcome weight is counted in units of 1/40 000: d% × attack d20 × confirmation d20."""


class OddsError(D20CombatError):
    """Input the odds cannot be computed for; the message names the problem."""


def _identity(amount: int) -> int:
    return amount


def _core_threatens(threat_min: int) -> Callable[[int, bool], bool]:
    def threatens(face: int, hit: bool) -> bool:
        return critical.is_threat(face, threat_min, hit)

    return threatens


@dataclass(frozen=True, slots=True)
class Policies:
    """The ruleset hooks the exact model asks (the same ones the engine asks while rolling)."""

    natural: Callable[[int], tuple[bool, bool]] = attack_rules.natural_result
    """(automatic hit, automatic miss) for a face."""
    effective_face: Callable[[int], int] = _identity
    """What the face counts as in the total (a skill-based ruleset may count a natural 20 as 30)."""
    threatens: Callable[[int, bool], bool] | None = None
    """(face, hit) → critical threat; None = the core rule with the profile's threat range."""
    mitigate: Callable[[int], int] = _identity
    """Damage after the target's resistances or armor (P13)."""
    concealment_before_roll: bool = True
    minimum_damage: int = 1

    @classmethod
    def from_ruleset(cls, ruleset: Ruleset, option: AttackOption,
                     mitigate: Callable[[int], int] | None = None) -> Policies:
        def threatens(face: int, hit: bool) -> bool:
            return ruleset.criticals.threatens(face, option, hit)

        return cls(natural=ruleset.attack.natural, effective_face=ruleset.attack.effective_face, threatens=threatens,
                   mitigate=mitigate or _identity, concealment_before_roll=ruleset.concealment.before_roll,
                   minimum_damage=ruleset.damage.minimum_damage)


@dataclass(frozen=True, slots=True)
class AttackProfile:
    """One attack, everything decided before any die is rolled."""

    bonus: int
    """Attack bonus: added to the (effective) d20 face, also on the confirmation roll."""
    target: int
    """The number the total must reach (AC with cover folded in)."""
    damage: DiceExpr
    """The part a critical multiplies: its dice are rolled ``multiplier`` times, its bonus multiplied."""
    threat_min: int = 20
    multiplier: int = 2
    concealment: int = 0
    """Miss chance in percent (0–100)."""
    once: tuple[DiceExpr, ...] = ()
    """Dice added once on every hit, never multiplied (energy, precision)."""
    policies: Policies = field(default_factory=Policies)
    label: str = ""
    details: tuple[str, ...] = ()
    """Where the numbers came from (attack and defense breakdowns), for display."""
    notes: tuple[str, ...] = ()
    """What the model leaves out for this pair."""
    distributions: tuple[DamageDistribution, DamageDistribution] | None = None
    """(normal hit, critical hit) damage where the ruleset's damage area gives its own arithmetic (Epic Path's
    averaged and brutal dice, :meth:`HitPointDamage.distribution`); None: ``damage`` × ``multiplier`` + ``once``."""

    def __post_init__(self) -> None:
        if not 0 <= self.concealment <= 100:
            raise OddsError(f"concealment must be 0–100 %, got {self.concealment}")
        if self.multiplier < 1:
            raise OddsError(f"critical multiplier must be at least 1, got ×{self.multiplier}")
        if not 1 <= self.threat_min <= 20:
            raise OddsError(f"threat range must start at 1–20, got {self.threat_min}")

    @property
    def crit_text(self) -> str:
        return _crit_text(self.threat_min, self.multiplier)

    @property
    def damage_text(self) -> str:
        return " + ".join([str(self.damage), *(f"{e} (once)" for e in self.once)])


class _DamageSummary:
    """Mean and percentiles of a ``damage`` distribution (one attack or a round)."""

    __slots__ = ()
    damage: Die

    @property
    def mean(self) -> Fraction:
        return Fraction(self.damage.mean())

    @property
    def percentiles(self) -> tuple[int, int, int]:
        return percentiles(self.damage)


@dataclass(frozen=True, slots=True)
class AttackOdds(_DamageSummary):
    """The exact outcome of one attack."""

    profile: AttackProfile
    p_hit: Fraction
    """The attack hits and deals damage (after concealment)."""
    p_threat: Fraction
    """A critical threat: a confirmation roll is made."""
    p_crit: Fraction
    """A confirmed critical hit that deals (multiplied) damage."""
    damage: Die
    """Damage of the attack, misses counted as 0."""
    hit_damage: Die
    """Damage of a normal hit."""
    crit_damage: Die
    """Damage of a confirmed critical hit."""

    @property
    def p_normal_hit(self) -> Fraction:
        return self.p_hit - self.p_crit


@dataclass(frozen=True, slots=True)
class RoundOdds(_DamageSummary):
    """A full attack: independent attacks, their damage summed."""

    attacks: tuple[AttackOdds, ...]
    damage: Die


@dataclass(frozen=True, slots=True)
class KillOdds:
    """Bringing a target of ``hp`` hit points to 0 or fewer with one attacker's rounds."""

    hp: int
    within: tuple[Fraction, ...]
    """``within[n - 1]`` = P(down within n rounds)."""
    expected_rounds: Fraction | None
    """Mean rounds to bring it down (absorbing chain); None when a round can never deal damage."""
    note: str = ""


def percentiles(die: Die, points: Sequence[int] = (10, 50, 90)) -> tuple[int, int, int]:
    """The 10th, 50th and 90th percentiles: the least outcome whose CDF reaches the point."""
    a, b, c = (int(die.quantile_low(p, 100)) for p in points)
    return a, b, c


def _crit_text(threat_min: int, mult: int) -> str:
    return f"{'20' if threat_min >= 20 else f'{threat_min}-20'}/x{mult}"


# ---------------------------------------------------------------------------------- the exact model
@dataclass(frozen=True, slots=True)
class _Weights:
    miss: int
    normal: int
    crit: int
    threat: int


def _weights(p: AttackProfile) -> _Weights:
    """Outcome weights in units of 1/40 000 (d% × d20 × confirmation d20), from the policies."""
    pol = p.policies
    threatens = pol.threatens or _core_threatens(p.threat_min)

    def hits(face: int) -> bool:
        auto_hit, auto_miss = pol.natural(face)
        return auto_hit or (not auto_miss and pol.effective_face(face) + p.bonus >= p.target)

    table = [(f, hits(f)) for f in FACES]
    confirms = sum(h for _, h in table)  # the confirmation roll: same bonus, same number, same naturals
    c = p.concealment
    miss = normal = crit = threat = 0
    if pol.concealment_before_roll:
        miss += c * 20 * 20  # the d% misses: no attack roll at all (PFB-CONC-09)
    for face, hit in table:
        if pol.concealment_before_roll:
            branches = [(_PERCENT - c, hit)]
        elif hit:
            branches = [(_PERCENT - c, True), (c, False)]  # the hit stands, or the d% turns it into a miss
        else:
            branches = [(_PERCENT, False)]
        for w, h in branches:
            if not w:
                continue
            is_threat = h and threatens(face, h)  # a miss never threatens (PFB-CRIT-01, issue 11)
            if is_threat:
                threat += w * 20
            if not h:
                miss += w * 20
            elif is_threat:
                crit += w * confirms
                normal += w * (20 - confirms)
            else:
                normal += w * 20
    assert miss + normal + crit == _UNITS
    return _Weights(miss, normal, crit, threat)


def _sum_die(count: int, sides: int, bonus: int) -> Die:
    if count == 0 or sides == 0:
        return icepool.Die([bonus])
    return (count @ icepool.d(sides)) + bonus


@lru_cache(maxsize=512)
def _raw_dice(damage: DiceExpr, mult: int, once: tuple[DiceExpr, ...], minimum: int) -> tuple[Die, Die]:
    extra = icepool.Die([0])
    for e in once:
        extra = extra + _sum_die(e.count, e.sides, e.bonus)
    normal = (_sum_die(damage.count, damage.sides, damage.bonus) + extra).clip(minimum, None)
    crit = (_sum_die(damage.count * mult, damage.sides, damage.bonus * mult) + extra).clip(minimum, None)
    return normal, crit


@lru_cache(maxsize=512)
def _outcome_dice(w: _Weights, damage: DiceExpr, mult: int, once: tuple[DiceExpr, ...], minimum: int,
                  mitigation: tuple[tuple[int, int], ...] | None) -> tuple[Die, Die, Die]:
    normal, crit = _raw_dice(damage, mult, once, minimum)
    if mitigation is not None:
        table = dict(mitigation)
        normal, crit = normal.map(table), crit.map(table)
    parts, times = [], []
    for die, weight in ((icepool.Die([0]), w.miss), (normal, w.normal), (crit, w.crit)):
        if weight:
            parts.append(die)
            times.append(weight)
    return icepool.Die(parts, times=times), normal, crit


def _mitigation(p: AttackProfile, normal: Die, crit: Die) -> tuple[tuple[int, int], ...] | None:
    """The mitigation policy as a table over every damage the attack can deal (None: no change)."""
    mitigate = p.policies.mitigate
    if mitigate is _identity:
        return None
    lo = min(normal.min_outcome(), crit.min_outcome())
    hi = max(normal.max_outcome(), crit.max_outcome())
    table = tuple((x, mitigate(x)) for x in range(lo, hi + 1))
    return None if all(x == y for x, y in table) else table


def clear_caches() -> None:
    """Forget the cached distributions (benchmarks measure the computation itself with this)."""
    _raw_dice.cache_clear()
    _outcome_dice.cache_clear()
    _distribution_die.cache_clear()


@lru_cache(maxsize=512)
def _distribution_die(dist: DamageDistribution, minimum: int) -> Die:
    """A ruleset's own damage distribution: its constant plus each die's equally likely outcomes, at least
    ``minimum``."""
    die = icepool.Die([dist.constant])
    for outcomes in dist.dice:
        die = die + icepool.Die(list(outcomes))
    return die.clip(minimum, None)


def _own_damage_odds(profile: AttackProfile, w: _Weights, minimum: int) -> AttackOdds:
    assert profile.distributions is not None
    normal = _distribution_die(profile.distributions[0], minimum)
    crit = _distribution_die(profile.distributions[1], minimum)
    table = _mitigation(profile, normal, crit)
    if table is not None:
        normal, crit = normal.map(dict(table)), crit.map(dict(table))
    parts, times = [], []
    for die, weight in ((icepool.Die([0]), w.miss), (normal, w.normal), (crit, w.crit)):
        if weight:
            parts.append(die)
            times.append(weight)
    return AttackOdds(profile, Fraction(w.normal + w.crit, _UNITS), Fraction(w.threat, _UNITS),
                      Fraction(w.crit, _UNITS), icepool.Die(parts, times=times), normal, crit)


def attack_odds(profile: AttackProfile) -> AttackOdds:
    """The exact outcome of one attack: probabilities and damage distributions (cached on data)."""
    w = _weights(profile)
    minimum = profile.policies.minimum_damage
    if profile.distributions is not None:
        return _own_damage_odds(profile, w, minimum)
    normal, crit = _raw_dice(profile.damage, profile.multiplier, profile.once, minimum)
    table = _mitigation(profile, normal, crit)
    damage, normal, crit = _outcome_dice(w, profile.damage, profile.multiplier, profile.once, minimum, table)
    return AttackOdds(profile, Fraction(w.normal + w.crit, _UNITS), Fraction(w.threat, _UNITS),
                      Fraction(w.crit, _UNITS), damage, normal, crit)


def full_attack(profiles: Sequence[AttackProfile]) -> RoundOdds:
    """A round of independent attacks (iteratives): the damage distributions summed."""
    if not profiles:
        raise OddsError("a full attack needs at least one attack")
    odds = tuple(attack_odds(p) for p in profiles)
    damage = odds[0].damage
    for o in odds[1:]:
        damage = damage + o.damage
    return RoundOdds(odds, damage)


def iteratives(profile: AttackProfile, bonuses: Sequence[int]) -> tuple[AttackProfile, ...]:
    """The same attack at each of ``bonuses`` (``+8/+3``)."""
    from dataclasses import replace

    return tuple(replace(profile, bonus=b, label=f"{b:+d} vs {profile.target}") for b in bonuses)


def kill_odds(round_damage: Die, hp: int, rounds: int) -> KillOdds:
    """P(a target of ``hp`` hit points is at 0 or fewer within 1..``rounds`` rounds) and the mean
    rounds to get there, by the absorbing Markov chain over remaining hit points.

    States: remaining hp ``hp`` … 1 (transient) and 0 (absorbing); a round's damage distribution is
    the transition (``h → max(h − k, 0)``). The within-n chances evolve the state distribution with
    icepool; the expected time is ``t = N·1`` with the fundamental matrix ``N = (I − Q)⁻¹``, solved
    exactly by back-substitution because ``Q`` is triangular (damage never heals)."""
    if hp < 1:
        raise OddsError(f"hp must be at least 1, got {hp}")
    if rounds < 1:
        raise OddsError(f"rounds must be at least 1, got {rounds}")
    step = round_damage.clip(0, hp)
    if step.max_outcome() <= 0:
        return KillOdds(hp, tuple(Fraction(0) for _ in range(rounds)), None,
                        "no round can deal damage: the target is never brought down (expected rounds: infinite)")
    state = icepool.Die([hp])
    within: list[Fraction] = []
    for _ in range(rounds):
        state = (state - step).clip(0, None)
        within.append(Fraction(state.probability(0)))
    # (I − Q) t = 1: t(h) = (D + Σ_{1≤k<h} q_k t(h − k)) / (D − q_0), q in the die's integer quantities.
    denom = int(step.denominator())
    q = {int(k): int(v) for k, v in step.items()}
    stay = denom - q.get(0, 0)
    t: list[Fraction] = [Fraction(0)]
    moves = sorted((k, v) for k, v in q.items() if k > 0)
    for h in range(1, hp + 1):
        acc = Fraction(denom)
        for k, v in moves:
            if k >= h:
                break
            acc += v * t[h - k]
        t.append(acc / stay)
    return KillOdds(hp, tuple(within), t[hp])
