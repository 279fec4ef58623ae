"""The exact model against the real engine: many attacks resolved by ``Encounter.act`` (then undone)
with seeded dice; hit, threat and critical rates and the mean damage must lie within 4 standard
errors of the exact answer."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest
from tests.conftest import make_encounter

from d20combat.dice import SeededDice
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.odds import attack_odds, profile_from_encounter
from d20combat.rulesets import PathfinderBeginner, Policies
from d20combat.rulesets.components import D20Attack, HitPointDamage, StrongestConcealment

N = 12_000
FOG = ["........", "..ff....", "..ff....", "........"]


class _TwentyIsThirty(D20Attack):
    def natural(self, face: int) -> tuple[bool, bool]:
        return False, False

    def effective_face(self, face: int) -> int:
        return 30 if face == 20 else face


class _ArmorTwo(HitPointDamage):
    minimum_damage = 0

    def mitigate(self, creature: Creature, state: CombatantState, amount: int) -> tuple[int, str]:
        return max(amount - 2, 0), "− armor 2"


class _AfterHit(StrongestConcealment):
    before_roll = False


class SkillLike(PathfinderBeginner):
    """Another ruleset's policies: a natural 20 counts as 30 (no automatic hit or miss), concealment is
    rolled after a hit, armor subtracts 2 damage, no minimum damage."""

    @classmethod
    def compose(cls, options: Any) -> Policies:
        return super().compose(options).replace(attack=_TwentyIsThirty(), damage=_ArmorTwo(),
                                                concealment=_AfterHit())


def _simulate(enc: Encounter, attacker: str, target: str, attack: str, seed: int) -> tuple[list[int], int, int, int]:
    enc.dice = SeededDice(seed)
    damages: list[int] = []
    hits = crits = 0
    action = ax.Attack(target, attack)
    for _ in range(N):
        events = enc.act(action)
        enc.undo()
        resolved = next(e for e in events if isinstance(e, ev.AttackResolved))
        hits += resolved.hit
        crits += resolved.hit and resolved.critical
        damages.append(sum(e.amount for e in events if isinstance(e, ev.Damaged) and e.target == target))
    threats = sum(1 for r in enc.dice.rolls if r.purpose.startswith("confirm"))
    return damages, hits, crits, threats


def _within(observed: float, p: Fraction | float, sd: float, n: int = N) -> None:
    se = sd / math.sqrt(n)
    assert abs(observed - float(p)) <= 4 * se, f"observed {observed:.5f}, exact {float(p):.5f}, 4 SE {4 * se:.5f}"


def _rate(count: int, p: Fraction) -> None:
    _within(count / N, p, math.sqrt(float(p) * (1 - float(p))) or 1e-12)


def _check(enc: Encounter, attacker: str, target: str, attack: str, seed: int) -> None:
    odds = attack_odds(profile_from_encounter(enc, attacker, target, attack))
    damages, hits, crits, threats = _simulate(enc, attacker, target, attack, seed)
    _rate(hits, odds.p_hit)
    _rate(crits, odds.p_crit)
    _rate(threats, odds.p_threat)
    _within(sum(damages) / N, odds.mean, float(odds.damage.sd()))
    # The whole distribution: P(damage = 0) and P(damage ≥ the median hit) too.
    _rate(sum(d == 0 for d in damages), Fraction(odds.damage.probability(0)))
    cut = odds.percentiles[2]
    _rate(sum(d >= cut for d in damages), Fraction(odds.damage.probability(">=", cut)))


def test_pfb_fighter_against_an_ogre_in_fog() -> None:
    """Longsword 19–20/×2, concealment 20 % before the roll, +5 vs AC 18."""
    enc = make_encounter([
        {"id": "fighter", "side": "a", "stats": "fighter", "position": [1, 1]},
        {"id": "ogre", "side": "b", "stats": "ogre", "position": [2, 1]},
    ], rows=FOG)
    profile = profile_from_encounter(enc, "fighter", "ogre")
    assert (profile.bonus, profile.target, profile.concealment, profile.threat_min) == (5, 18, 20, 19)
    _check(enc, "fighter", "ogre", "longsword", seed=11)


def test_pfb_rogue_sneak_attacks_a_sleeping_ogre() -> None:
    """Rapier 18–20, helpless target (lower AC) and sneak attack dice added once on a critical."""
    enc = make_encounter([
        {"id": "rogue", "side": "a", "stats": "rogue", "position": [1, 1]},
        {"id": "ogre", "side": "b", "stats": "ogre", "position": [2, 1], "conditions": ["asleep"]},
        {"id": "goblin", "side": "b", "stats": "goblin", "position": [7, 4]},  # keeps the fight going
    ], width=8, height=5)
    profile = profile_from_encounter(enc, "rogue", "ogre")
    assert profile.once and profile.threat_min == 18
    _check(enc, "rogue", "ogre", "rapier", seed=12)


@pytest.mark.parametrize("attacker", ["ogre", "fighter"])
def test_another_rulesets_policies_through_the_engine(attacker: str) -> None:
    enc0 = make_encounter([
        {"id": "fighter", "side": "a", "stats": "fighter", "position": [1, 1]},
        {"id": "ogre", "side": "b", "stats": "ogre", "position": [2, 1]},
    ], rows=FOG, start=False)
    battle = replace(enc0.battle, ruleset=SkillLike())
    enc = Encounter(battle, SeededDice(0))
    enc.start()
    if enc.state.turn is not None and enc.state.turn.actor != attacker:
        enc.act(ax.EndTurn())
    profile = profile_from_encounter(enc, attacker, "ogre" if attacker == "fighter" else "fighter")
    assert not profile.policies.concealment_before_roll and profile.policies.minimum_damage == 0
    attack = enc.state.get(attacker).wielding
    assert attack is not None
    _check(enc, attacker, "ogre" if attacker == "fighter" else "fighter", attack, seed=13)
