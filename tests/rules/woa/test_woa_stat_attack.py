"""WOA-STAT-01..31: the attack roll, the attack bonus, range, and damage (worlds-of-adventure)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules._builders import bonus, resolved, stats, texts
from tests.rules.woa._util import declare_all, who, woa

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.rulesets.components.component import RuleError
from d20combat.rulesets.worlds_of_adventure.criticals import combined_multiplier
from d20combat.rulesets.worlds_of_adventure.damage import woa_strength_damage

SHORTBOW = {"name": "shortbow-40", "damage": "1d6", "kind": "bow", "crit_mult": 3, "range_increment_ft": 40}
DAGGER = {"name": "dagger-10", "damage": "1d4", "kind": "thrown", "range_increment_ft": 10}
CROSSBOW = {"name": "xbow", "damage": "1d8", "kind": "crossbow-light", "range_increment_ft": 80}


def target(ac_armor: int = 0, **kw: Any) -> dict[str, Any]:
    block = stats("target", hp=kw.pop("hp", 60), attacks=[{"weapon": "club"}], **kw)
    if ac_armor:
        block["armor"] = {"name": f"armor{ac_armor}", "armor_bonus": ac_armor}
    return block


def duel(attacker: dict[str, Any], defender: dict[str, Any], dice: list[int], *, gap: int = 1,
         variants: dict[str, Any] | None = None, width: int = 12) -> Encounter:
    """The attacker (heroes) wins initiative (d20 20 against 1) and has declared an attack on the target (monsters)
    ``gap`` squares east of it; ``dice`` follow the initiative dice."""
    enc = woa([who("hero", attacker, "heroes", (0, 1)), who("target", defender, "monsters", (gap, 1))],
              [20, 1, *dice], variants=variants, width=width)
    declare_all(enc, ax.Declare(standard="attack", target="target"))
    assert enc.state.actor == "hero"
    return enc


def attack(enc: Encounter, weapon: str | None = None) -> ev.AttackResolved:
    return resolved(enc.act(ax.Attack("target", weapon)))


def damage(events: list[ev.Event]) -> int:
    return sum(e.amount for e in events if isinstance(e, ev.Damaged))


# --- the attack roll ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("face", "hit"), [(9, False), (10, True), (11, True)])
def test_woa_stat_01_02_d20_plus_bonus_a_tie_hits(face: int, hit: bool) -> None:
    """WOA-STAT-01: d20 + attack bonus; WOA-STAT-02: equal to or above the AC hits (AC 15, bonus +5)."""
    enc = duel(stats("hero", attack_bonus=5, attacks=[{"weapon": "club"}]), target(5), [face, 3])
    r = attack(enc)
    assert r.hit is hit
    assert f"d20 {face}" in texts(enc.log)


def test_woa_stat_03_a_natural_1_misses_even_by_20() -> None:
    """WOA-STAT-03: a natural 1 always misses — even a total that beats the AC by 20 (WOA-STAT-06 overridden)."""
    enc = duel(stats("hero", attack_bonus=40, attacks=[{"weapon": "club"}]), target(), [1])
    assert attack(enc).hit is False


def test_woa_stat_04_05_a_natural_20_hits_and_threatens() -> None:
    """WOA-STAT-04: a natural 20 hits AC 40; WOA-STAT-05: it is also a threat (a confirmation is rolled)."""
    enc = duel(stats("hero", attack_bonus=0, attacks=[{"weapon": "club"}]), target(30), [20, 5, 3])
    r = attack(enc)
    assert r.hit and not r.critical
    assert "critical threat (natural 20); confirmation" in "\n".join(r.lines)


def test_woa_stat_06_beating_ac_by_20_threatens() -> None:
    """WOA-STAT-06: a result ≥ AC + 20 threatens without a natural 20 (club: no threat range); one point short
    does not."""
    hero = stats("hero", attack_bonus=24, attacks=[{"weapon": "club"}])  # d20 11 + 24 = 35 vs AC 15
    enc = duel(hero, target(5), [11, 11, 3, 4])
    r = attack(enc)
    assert r.critical
    assert "beats 15 by 20" in "\n".join(r.lines) and "WOA-STAT-06" in "\n".join(r.lines)
    assert damage(enc.log) == 7  # ×2: the club rolled twice
    enc = duel(hero, target(5), [10, 3])  # 34: no threat, no confirmation die
    r = attack(enc)
    assert r.hit and "critical threat" not in "\n".join(r.lines)


def test_woa_stat_07_a_missed_shot_hits_no_one_else_by_default() -> None:
    """WOA-STAT-07 (MISSING sidebar): the Missing With Ranged Attacks sidebar is absent; the reading in
    data/woa_ranged_misses.yaml is that a miss only misses — no other creature is struck."""
    from d20combat.rulesets.worlds_of_adventure.attack import missed_ranged_attack_rule

    assert missed_ranged_attack_rule()["stray_hits"] is False
    archer = stats("hero", attack_bonus=0, attacks=[{"weapon": SHORTBOW}])
    enc = woa([who("hero", archer, "heroes", (0, 1)), who("target", target(10), "monsters", (4, 1)),
               who("other", target(abilities={"dex": 12}), "monsters", (4, 2))], [20, 1, 2])
    declare_all(enc, ax.Declare(standard="attack", target="target"))
    events = enc.act(ax.Attack("target"))
    assert not resolved(events).hit and not [e for e in events if isinstance(e, ev.Damaged)]


def test_woa_stat_08_taking_10_on_an_attack() -> None:
    """WOA-STAT-08: taking 10 is allowed out of combat and unthreatened, costs a full round, and counts as a 10."""
    from d20combat.rulesets.worlds_of_adventure.attack import take_10_on_attack

    assert take_10_on_attack(in_combat=False, threatened=False) == 10
    with pytest.raises(RuleError, match="WOA-STAT-08"):
        take_10_on_attack(in_combat=True, threatened=False)
    with pytest.raises(RuleError, match="threatened"):
        take_10_on_attack(in_combat=False, threatened=True)


# --- the attack bonus ---------------------------------------------------------------------------------------------
def test_woa_stat_09_11_18_19_melee_bonus() -> None:
    """WOA-STAT-09: BAB (WOA-STAT-11: the sheet's) + Str; WOA-STAT-18: other bonuses (Weapon Focus +1);
    WOA-STAT-19: a superior weapon's enhancement, to attack and to damage."""
    sword = {"name": "fine-sword", "damage": "1d8", "enhancement": 2}
    hero = stats("hero", attack_bonus=4, abilities={"str": 16}, attacks=[{"weapon": sword, "bonus": 1}])
    enc = duel(hero, target(), [10, 5])
    assert bonus(enc, "hero", "target") == 4 + 3 + 1 + 2
    events = enc.act(ax.Attack("target"))
    assert damage(events) == 5 + 3 + 2


@pytest.mark.parametrize(("size", "expected"), [("large", 2), ("medium", 0), ("small", -2)])
def test_woa_stat_10_12_ranged_bonus_with_the_relative_size(size: str, expected: int) -> None:
    """WOA-STAT-10: BAB + Dex + size + range; WOA-STAT-12: +2 per category the target is larger, −2 per category
    smaller (Medium archer); WOA-STAT-13: 30 ft is inside the first 40-ft increment."""
    archer = stats("hero", attack_bonus=3, abilities={"dex": 14}, attacks=[{"weapon": SHORTBOW}])
    enc = duel(archer, target(size=size), [], gap=6)
    assert bonus(enc, "hero", "target") == 3 + 2 + expected


def test_woa_stat_12_a_small_archer_against_a_medium_target_and_no_size_in_melee() -> None:
    """WOA-STAT-12: Small archer vs Medium target +2; the melee formula has no size term."""
    archer = stats("hero", size="small", attack_bonus=0, attacks=[{"weapon": SHORTBOW}])
    enc = duel(archer, target(), [], gap=6)
    assert bonus(enc, "hero", "target") == 2
    enc = duel(archer, target(size="large"), [], gap=6)
    assert bonus(enc, "hero", "target") == 4
    fighter = stats("hero", size="small", attack_bonus=0, attacks=[{"weapon": "club"}])
    enc = duel(fighter, target(size="large"), [])
    assert bonus(enc, "hero", "target") == 0


@pytest.mark.parametrize(("squares", "penalty"), [(7, 0), (8, -2), (16, -4), (30, -6), (80, -20)])
def test_woa_stat_13_14_16_range_penalty_per_full_increment(squares: int, penalty: int) -> None:
    """WOA-STAT-13: under one increment no penalty (35 ft); WOA-STAT-14: −2 per *full* increment (40 ft → −2,
    150 ft → −6); WOA-STAT-16: a bow reaches 10 increments (400 ft → −20)."""
    archer = stats("hero", attack_bonus=0, attacks=[{"weapon": SHORTBOW}])
    enc = duel(archer, target(), [], gap=squares, width=90)
    assert bonus(enc, "hero", "target") == penalty


def test_woa_stat_16_beyond_ten_increments_is_out_of_range() -> None:
    """WOA-STAT-16: 405 ft with a 40-ft bow is beyond 10 increments."""
    archer = stats("hero", attack_bonus=0, attacks=[{"weapon": SHORTBOW}])
    enc = duel(archer, target(), [], gap=81, width=90)
    with pytest.raises(IllegalAction, match="beyond the projectile weapon's 10 × 40 ft"):
        enc.plan_attack("hero", "target")


@pytest.mark.parametrize(("last", "squares", "ok"), [(True, 10, True), (True, 11, False), (False, 10, False),
                                                     (False, 9, True)])
def test_woa_stat_15_thrown_weapons_reach_five_increments(last: bool, squares: int, ok: bool) -> None:
    """WOA-STAT-15 (AMBIGUOUS, ``woa_range_last_increment``): a thrown dagger (10 ft) reaches 50 ft (−10), not
    55 ft; the other reading stops short of the fifth increment."""
    thrower = stats("hero", attack_bonus=0, attacks=[{"weapon": DAGGER}])
    enc = duel(thrower, target(), [], gap=squares, variants={"woa_range_last_increment": last})
    if ok:
        assert bonus(enc, "hero", "target") == -2 * (squares * 5 // 10)
    else:
        with pytest.raises(IllegalAction, match="thrown weapon's 5 × 10 ft"):
            enc.plan_attack("hero", "target")


def test_woa_stat_17_range_increments_apply_to_direct_shots_only() -> None:
    """WOA-STAT-17: an arc at a spot uses the siege indirect-fire rules, which are not in the seed: refused,
    naming them."""
    from d20combat.rulesets.worlds_of_adventure.attack import indirect_fire

    with pytest.raises(RuleError, match="indirect-fire rules for siege weapons"):
        indirect_fire()


def test_woa_atk_06_no_minimum_distance_and_no_into_melee_penalty() -> None:
    """WOA-ATK-06: a target within the maximum range and in sight may be shot — even adjacent, with no "10 ft from
    every enemy" rule (PFB-ATK-09) and no −4 into melee (not in WOA-STAT-10's formula)."""
    archer = stats("hero", attack_bonus=2, attacks=[{"weapon": SHORTBOW}])
    enc = woa([who("hero", archer, "heroes", (0, 1)), who("ally", stats("ally", attacks=[{"weapon": "club"}]),
                                                          "heroes", (2, 2)),
               who("target", target(), "monsters", (1, 1))], [20, 5, 1])
    declare_all(enc, ax.Declare(standard="attack", target="target"))
    assert bonus(enc, "hero", "target") == 2


# --- damage --------------------------------------------------------------------------------------------------------
def test_woa_stat_20_21_damage_is_dice_plus_modifiers_off_current_hp() -> None:
    """WOA-STAT-20: damage reduces current hit points; WOA-STAT-21: weapon dice + modifiers (club 1d6 4 + Str 2)."""
    hero = stats("hero", attack_bonus=5, abilities={"str": 14}, attacks=[{"weapon": "club"}])
    enc = duel(hero, target(hp=30), [15, 4])
    before = enc.state.get("target").hp
    events = enc.act(ax.Attack("target"))
    assert damage(events) == 6 and enc.state.get("target").hp == before - 6


KRUSK = {"str": 16}  # Str +3


@pytest.mark.parametrize(("profile", "expected"), [
    ({"weapon": "longsword"}, 3),                          # WOA-STAT-22: melee, full Str
    ({"weapon": "greataxe"}, 4),                           # WOA-STAT-24: two-handed, 1½ × 3 = 4 (rounded down)
    ({"weapon": "longsword", "off_hand": True}, 1),        # WOA-STAT-23: off hand ½ × 3 = 1
    ({"weapon": "dagger", "two_handed": True}, 3),         # WOA-STAT-25: a light weapon in two hands: 1 ×
    ({"weapon": "claw"}, 3),                               # WOA-STAT-30: natural attack, full Str
    ({"weapon": "unarmed-strike"}, 3),                     # WOA-STAT-30: unarmed, full Str
    ({"weapon": "dagger-thrown"}, 3),                      # WOA-STAT-22: thrown weapons
    ({"weapon": "shortbow"}, 3),                           # WOA-STAT-22: bows (the literal reading)
    ({"weapon": "light-crossbow"}, 0),                     # WOA-STAT-22: not crossbows
])
def test_woa_stat_22_25_30_strength_to_damage(profile: dict[str, Any], expected: int) -> None:
    """WOA-STAT-22..25/30: Krusk (Str +3): sword +3, greataxe +4, off hand +1, light two-handed +3, natural and
    unarmed +3, thrown and bows +3, crossbow 0 — through the engine's damage roll (every die a 1)."""
    hero = stats("hero", attack_bonus=5, abilities=KRUSK, attacks=[profile])
    enc = duel(hero, target(), [15, 1])
    events = enc.act(ax.Attack("target"))
    decision = enc.decision()
    if decision is not None and decision.prompt is not None:  # WOA-AOO-16: unarmed against armed provokes
        events += enc.respond("decline")
    assert damage(events) == max(1 + expected, 1)


@pytest.mark.parametrize(("reading", "str_score", "expected"), [("modifier", 16, 3), ("penalty", 16, 0),
                                                                 ("modifier", 6, -2), ("penalty", 6, -2)])
def test_woa_stat_22_bows_and_strength_both_readings(reading: str, str_score: int, expected: int) -> None:
    """WOA-STAT-22 (AMBIGUOUS, ``woa_bow_strength``): by default a bow adds the Str modifier, bonus and penalty;
    'penalty' gives a bow only a Str penalty."""
    from d20combat.rulesets import get_ruleset

    rs = get_ruleset("worlds-of-adventure", {"woa_bow_strength": reading})
    hero = duel(stats("hero", abilities={"str": str_score}, attacks=[{"weapon": "shortbow"}]), target(), [])
    assert rs.damage.damage_strength(hero.creature("hero"), hero.creature("hero").attacks[0]) == expected


@pytest.mark.parametrize(("halved", "expected"), [(False, -3), (True, -1)])
def test_woa_stat_23_an_off_hand_strength_penalty(halved: bool, expected: int) -> None:
    """WOA-STAT-23 (AMBIGUOUS, ``woa_off_hand_penalty_halved``): ½ the Str *bonus* off hand; a penalty (Str 4,
    −3) applies in full by default, halved (rounded toward zero) in the other reading."""
    enc = duel(stats("hero", abilities={"str": 4}, attacks=[{"weapon": "longsword", "off_hand": True}]), target(),
               [], variants={"woa_off_hand_penalty_halved": halved})
    creature = enc.creature("hero")
    assert enc.ruleset.damage.damage_strength(creature, creature.attacks[0]) == expected
    assert woa_strength_damage(3, creature.attacks[0]) == 1


def test_woa_stat_26_damage_modifiers_from_feats_and_abilities() -> None:
    """WOA-STAT-26: feats and class abilities add damage as generic modifiers — the weapon's own static bonus
    (1d6+2 for Weapon Specialization) adds to every hit."""
    spec = {"name": "spec-club", "damage": "1d6+2"}
    enc = duel(stats("hero", attack_bonus=10, attacks=[{"weapon": spec}]), target(), [15, 3])
    assert damage(enc.act(ax.Attack("target"))) == 5


def test_woa_stat_27_a_hit_deals_at_least_1() -> None:
    """WOA-STAT-27: 1d4 rolling 2 with Str −3 still deals 1."""
    enc = duel(stats("hero", attack_bonus=5, abilities={"str": 4}, attacks=[{"weapon": "dagger"}]), target(),
               [15, 2])
    events = enc.act(ax.Attack("target"))
    assert damage(events) == 1 and "minimum 1" in texts(events)


def test_woa_stat_28_a_critical_rolls_the_damage_again() -> None:
    """WOA-STAT-28: Krusk's greataxe crit (×3) rolls 1d12+4 three times (3d12+12): 5 + 7 + 2 + 12 = 26."""
    hero = stats("hero", attack_bonus=10, abilities=KRUSK, attacks=[{"weapon": "greataxe"}])
    enc = duel(hero, target(), [20, 15, 5, 7, 2])
    events = enc.act(ax.Attack("target"))
    assert resolved(events).critical and damage(events) == 26


@pytest.mark.parametrize(("mults", "expected"), [((2, 2), 3), ((3, 2), 4), ((2,), 2), ((1, 1), 1)])
def test_woa_stat_29_multipliers_work_off_the_original(mults: tuple[int, ...], expected: int) -> None:
    """WOA-STAT-29: doubling twice is ×3; a ×3 crit and a ×2 effect is ×4."""
    assert combined_multiplier(*mults) == expected


def test_woa_stat_29_a_bad_multiplier_is_refused() -> None:
    """WOA-STAT-29: a multiplier below 1 is refused, naming it."""
    with pytest.raises(RuleError, match="at least 1, got 0"):
        combined_multiplier(2, 0)


def test_woa_stat_31_damage_reduction_comes_after_the_multipliers() -> None:
    """WOA-STAT-31: DR is taken from the fully determined damage — a ×2 crit of 1d6+0 (3 + 4 = 7) less DR 5
    deals 2, where DR on each roll would deal 0."""
    from d20combat.rulesets.worlds_of_adventure.damage import WoaDamage

    class Dr5(WoaDamage):
        def reduction(self, view: Any, attack: Any) -> int:
            return 5

    hero = stats("hero", attack_bonus=10, attacks=[{"weapon": "club"}])
    enc = duel(hero, target(), [20, 15, 3, 4])
    dr = Dr5()
    dr.bind(enc.ruleset)
    enc.ruleset.damage = dr
    events = enc.act(ax.Attack("target"))
    assert resolved(events).critical
    assert damage(events) == 2 and "− DR 5 (WOA-STAT-31)" in texts(events)
