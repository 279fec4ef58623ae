"""Exact single-attack odds: hand-checkable cases (PFB-NAT, PFB-CRIT, PFB-CONC, PFB-DMG-07)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool
import pytest

from d20combat.dice import parse_dice
from d20combat.odds import (
    AttackProfile,
    OddsError,
    Policies,
    attack_odds,
    full_attack,
    iteratives,
    parse_crit,
    parse_iteratives,
    profile_from_numbers,
)
from d20combat.rulesets import PathfinderBeginner
from d20combat.rulesets import Policies as Composition
from d20combat.rulesets.components import D20Attack, StrongestConcealment


def test_plus_8_vs_ac_18_hits_on_10_or_more() -> None:
    odds = attack_odds(profile_from_numbers(8, 18, "1d8+5"))
    assert odds.p_hit == Fraction(11, 20)
    assert odds.p_threat == Fraction(1, 20)  # a natural 20 only
    assert odds.p_crit == Fraction(1, 20) * Fraction(11, 20)


def test_19_20_threat_needs_a_hit_and_confirmation_uses_the_same_roll() -> None:
    """PFB-CRIT-06/08: 19 threatens only if it hits; confirmation = the same attack roll again."""
    odds = attack_odds(profile_from_numbers(8, 18, "1d8+5", crit="19-20/x2"))
    assert odds.p_threat == Fraction(2, 20)
    assert odds.p_crit == Fraction(2, 20) * Fraction(11, 20) == Fraction(11, 200)
    # +0 vs AC 20: a 19 misses, so it does not threaten; only the natural 20 threatens and hits.
    low = attack_odds(profile_from_numbers(0, 20, "1d8", crit="19-20/x2"))
    assert low.p_hit == Fraction(1, 20)
    assert low.p_threat == Fraction(1, 20)
    assert low.p_crit == Fraction(1, 20) * Fraction(1, 20)  # confirmation: only a natural 20 again


def test_natural_1_always_misses_and_natural_20_always_hits() -> None:
    """PFB-NAT-01..04, also on the confirmation roll."""
    sure = attack_odds(profile_from_numbers(30, 10, "1d6"))
    assert sure.p_hit == Fraction(19, 20)
    assert sure.p_crit == Fraction(1, 20) * Fraction(19, 20)
    hopeless = attack_odds(profile_from_numbers(-5, 40, "1d6"))
    assert hopeless.p_hit == Fraction(1, 20)
    assert hopeless.p_crit == Fraction(1, 400)


def test_concealment_is_rolled_before_the_attack_roll() -> None:
    """PFB-CONC-09: 20 % miss chance first; a natural 20 doesn't beat it (PFB-CONC-06)."""
    odds = attack_odds(profile_from_numbers(8, 18, "1d8+5", crit="19-20/x2", concealment=20))
    assert odds.p_hit == Fraction(4, 5) * Fraction(11, 20)
    assert odds.p_threat == Fraction(4, 5) * Fraction(2, 20)  # no roll at all on a concealment miss
    assert odds.p_crit == Fraction(4, 5) * Fraction(11, 200)
    hopeless = attack_odds(profile_from_numbers(-5, 40, "1d6", concealment=20))
    assert hopeless.p_hit == Fraction(4, 5) * Fraction(1, 20)


def test_concealment_after_a_hit_where_the_ruleset_says_so() -> None:
    """The other order (CMV-CONC-08 with PFB-CRIT-01, issue 11 item 4): the d% after a hit can cancel it, and a
    cancelled hit — a natural 20 too — is a miss, which never threatens: no confirmation is rolled."""

    class AfterHitConcealment(StrongestConcealment):
        before_roll = False

    class AfterHit(PathfinderBeginner):
        @classmethod
        def compose(cls, options: Any) -> Composition:
            return super().compose(options).replace(concealment=AfterHitConcealment())

    odds = attack_odds(profile_from_numbers(8, 18, "1d8", crit="19-20/x2", concealment=20, ruleset=AfterHit()))
    assert odds.p_hit == Fraction(4, 5) * Fraction(11, 20)
    # A 19 or a 20 whose hit is cancelled no longer threatens.
    assert odds.p_threat == Fraction(4, 5) * Fraction(2, 20)
    assert odds.p_crit == Fraction(4, 5) * Fraction(2, 20) * Fraction(11, 20)


def test_minimum_damage_one_after_multiplication() -> None:
    """PFB-DMG-07: 1d4−5 deals 1 on every hit, also on a critical (2d4−10 → 1)."""
    odds = attack_odds(profile_from_numbers(10, 10, "1d4-5"))
    assert set(odds.hit_damage.outcomes()) == {1}
    assert set(odds.crit_damage.outcomes()) == {1}
    assert odds.mean == odds.p_hit
    raised = attack_odds(profile_from_numbers(10, 10, "1d4-5", minimum_damage=0))
    assert set(raised.hit_damage.outcomes()) == {0}


def test_spell_crits_on_20_at_x2_whatever_is_asked() -> None:
    """PFB-CRIT-15/16: the ruleset's crit_profile decides a spell's critical."""
    profile = profile_from_numbers(5, 15, "1d3", crit="18-20/x3", spell=True)
    assert (profile.threat_min, profile.multiplier) == (20, 2)
    odds = attack_odds(profile)
    assert odds.p_threat == Fraction(1, 20)
    assert set(odds.crit_damage.outcomes()) == set(range(2, 7))


def test_damage_distribution_mean_and_percentiles() -> None:
    odds = attack_odds(profile_from_numbers(8, 18, "1d8+5", crit="19-20/x2"))
    normal, crit = Fraction(11, 20) - Fraction(11, 200), Fraction(11, 200)
    assert odds.mean == normal * Fraction(19, 2) + crit * 19
    assert odds.damage.probability(0) == Fraction(9, 20)
    assert odds.damage.probability(26) == crit / 64  # both d8 show 8 on a critical: 8 + 8 + 10
    assert odds.percentiles == (0, 6, 13)  # 45 % misses; the median is the lowest hit


def test_critical_multiplies_dice_and_static_but_once_dice_stay_single() -> None:
    """PFB-CRIT-10/13/14: 1d8+3 ×3 → 3d8+9; the flaming 1d6 and sneak attack 1d6 are added once."""
    odds = attack_odds(profile_from_numbers(20, 5, "1d8+3", crit="20/x3", once=["1d6", "1d6"]))
    expected = 3 @ icepool.d8 + 9 + 2 @ icepool.d6
    assert odds.crit_damage.equals(expected)
    assert odds.hit_damage.equals(icepool.d8 + 3 + 2 @ icepool.d6)


def test_policies_flow_from_the_ruleset_not_its_name() -> None:
    """A skill-based-style ruleset: a natural 20 counts as 30 (no automatic hit), armor subtracts 2."""

    class SkillLikeAttack(D20Attack):
        def natural(self, face: int) -> tuple[bool, bool]:
            return False, False

        def effective_face(self, face: int) -> int:
            return 30 if face == 20 else face

    class SkillLike(PathfinderBeginner):
        @classmethod
        def compose(cls, options: Any) -> Composition:
            return super().compose(options).replace(attack=SkillLikeAttack())

    odds = attack_odds(profile_from_numbers(0, 25, "1d6", ruleset=SkillLike(), mitigate=lambda x: max(x - 2, 0)))
    assert odds.p_hit == Fraction(1, 20)  # only the 20, counted as 30
    assert set(odds.hit_damage.outcomes()) == {0, 1, 2, 3, 4}
    assert attack_odds(profile_from_numbers(0, 31, "1d6", ruleset=SkillLike())).p_hit == 0
    assert attack_odds(profile_from_numbers(0, 31, "1d6")).p_hit == Fraction(1, 20)  # PFB: natural 20 hits


def test_profile_from_raw_numbers_without_a_ruleset() -> None:
    profile = AttackProfile(bonus=3, target=13, damage=parse_dice("2d6"), threat_min=19, multiplier=3,
                            policies=Policies())
    odds = attack_odds(profile)
    assert odds.p_hit == Fraction(11, 20)
    assert odds.p_crit == Fraction(2, 20) * Fraction(11, 20)
    assert odds.crit_damage.equals(6 @ icepool.d6)


def test_full_attack_sums_independent_attacks() -> None:
    base = profile_from_numbers(8, 18, "1d8+5", crit="19-20/x2")
    rnd = full_attack(iteratives(base, parse_iteratives("+8/+3")))
    first, second = rnd.attacks
    assert (first.p_hit, second.p_hit) == (Fraction(11, 20), Fraction(6, 20))
    assert rnd.mean == first.mean + second.mean
    assert rnd.damage.probability(0) == Fraction(9, 20) * Fraction(14, 20)
    assert rnd.damage.max_outcome() == 52


@pytest.mark.parametrize(("text", "expected"), [("19-20/x2", (19, 2)), ("20/x3", (20, 3)), ("18-20", (18, 2)),
                                                ("x3", (20, 3)), ("19-20/×2", (19, 2))])
def test_parse_crit(text: str, expected: tuple[int, int]) -> None:
    assert parse_crit(text) == expected


@pytest.mark.parametrize("text", ["", "banana", "1-20/x2", "19-20/x9", "19/20/x2"])
def test_parse_crit_rejects_nonsense(text: str) -> None:
    with pytest.raises(OddsError, match="crit"):
        parse_crit(text)


def test_bad_inputs_name_the_problem() -> None:
    with pytest.raises(OddsError, match="damage"):
        profile_from_numbers(1, 10, "2d6+1d8")
    with pytest.raises(OddsError, match="concealment"):
        profile_from_numbers(1, 10, "1d6", concealment=120)
    with pytest.raises(OddsError, match="iteratives"):
        parse_iteratives("+8/x")
