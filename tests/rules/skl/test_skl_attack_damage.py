"""SKL attack rolls (SKL-ATK-01..09), damage (SKL-DMG-01..04) and critical attacks (SKL-CRIT-01..05)."""

from __future__ import annotations

import pytest
from tests.rules.skl.helpers import attacks, damage, duel, encounter, fighter, illegal, resolve, sheet

from d20combat.encounter import events as ev
from d20combat.encounter.actions import Attack, EndTurn
from d20combat.rulesets import get_ruleset

DEX2 = sheet("b", dex=2)  # Passive Defense 12


def _line(events: list[ev.Event]) -> str:
    return attacks(events)[0].lines[1]


# ---------------------------------------------------------------------------- ATK
def test_skl_atk_01_an_attack_roll_is_made_on_the_attackers_turn() -> None:
    """SKL-ATK-01: the attacker strikes during its own turn (the attack of opportunity is the exception,
    SKL-AOO-01); another creature's turn gives it no attack action."""
    enc = duel(fighter(), DEX2, dice=[2])
    events = resolve(enc, Attack("b"))
    assert attacks(events)[0].attacker == "a"
    resolve(enc, EndTurn())
    assert enc.state.turn is not None and enc.state.turn.actor == "b"
    assert "cannot attack itself" in illegal(enc, Attack("b"))


def test_skl_atk_02_attack_roll_is_d20_plus_attack_bonus_and_declared_modifiers() -> None:
    """SKL-ATK-02: d20 + attack bonus, plus a declared critical attack."""
    enc = duel(fighter(), DEX2, dice=[8])
    assert "misses: 11 = d20 8 + sword skill 4 + Str 2 − critical attack 3" in _line(
        resolve(enc, Attack("b", critical=-3)))


@pytest.mark.parametrize(("face", "hit"), [(9, True), (5, False), (6, True)])
def test_skl_atk_03_total_equal_or_above_passive_defense_hits(face: int, hit: bool) -> None:
    """SKL-ATK-03 (worked example): +6 against Passive Defense 12: 9 → 15 hit, 5 → 11 miss, 6 → 12 hit."""
    enc = duel(fighter(), DEX2, dice=[face, 4])
    events = resolve(enc, Attack("b"), *(["none"] if hit else []))
    assert attacks(events)[0].hit is hit
    assert "vs Passive Defense 12 (10 + Dex 2)" in _line(events)
    assert bool(damage(events)) is hit


def test_skl_atk_04_natural_means_the_face_before_bonuses() -> None:
    """SKL-ATK-04: the natural result is the die's face: a 20 with −2 total bonus is still a natural 20."""
    rs = get_ruleset("skill-based")
    assert [rs.attack.effective_face(f) for f in (1, 2, 19, 20)] == [-10, 2, 19, 30]
    enc = duel(sheet(str=-2), DEX2, dice=[20, 1])
    assert "natural 20 counts as 30 − Str 2" in _line(resolve(enc, Attack("b"), "none"))


def test_skl_atk_05_natural_20_counts_as_30() -> None:
    """SKL-ATK-05 (worked example): a natural 20 with +6 → 36."""
    enc = duel(fighter(), DEX2, dice=[20, 3])
    assert "hits: 36 = natural 20 counts as 30 + sword skill 4 + Str 2" in _line(resolve(enc, Attack("b"), "none"))


def test_skl_atk_06_natural_1_counts_as_minus_10() -> None:
    """SKL-ATK-06 (worked example): a natural 1 with +6 → −4, a miss against any TN above −4."""
    enc = duel(fighter(), DEX2, dice=[1])
    assert "misses: -4 = natural 1 counts as -10 + sword skill 4 + Str 2" in _line(resolve(enc, Attack("b")))


def test_skl_atk_07_no_automatic_hit_miss_or_threat() -> None:
    """SKL-ATK-07 (worked examples): a natural 1 with +25 → 15 hits Passive Defense 12; a natural 20 with −2
    → 28 misses Passive Defense 29; no confirmation roll ever; block and dodge rolls are plain d20s."""
    enc = duel(fighter(skills={"sword": 23}), DEX2, dice=[1, 4])
    events = resolve(enc, Attack("b"), "none")
    assert attacks(events)[0].hit and not attacks(events)[0].critical
    enc = duel(sheet(str=-2), sheet("b", dex=19), dice=[20])
    events = resolve(enc, Attack("b"))
    assert not attacks(events)[0].hit and "28 = natural 20 counts as 30" in _line(events)
    assert [r.purpose for r in enc.dice.rolls] == ["attack a->b"]  # no confirmation die
    # A dodge's 20 is a 20: 20 + Defense 0 + Dex 0 = 20 < 25 (a 30 would have negated the attack).
    enc = duel(fighter(skills={"sword": 7}, str=3), sheet("b"), dice=[15, 20, 2])
    events = resolve(enc, Attack("b"), "dodge")
    assert attacks(events)[0].hit and "20 = d20 20 vs attack 25: fails" in attacks(events)[0].lines[-1]


def test_skl_atk_08_melee_bonus_is_weapon_skill_plus_strength() -> None:
    """SKL-ATK-08 (worked example): sword skill 4, Str +2 → +6; the stat block's BAB and Weapon Focus count
    for nothing; the weapon data names the skill (longsword → sword)."""
    block = fighter(attack_bonus=5)
    block["attacks"] = [{"weapon": "longsword", "bonus": 1}]
    enc = duel(block, DEX2, dice=[5])
    assert "11 = d20 5 + sword skill 4 + Str 2 vs" in _line(resolve(enc, Attack("b")))


def test_skl_atk_09_ranged_bonus_is_weapon_skill_plus_dexterity() -> None:
    """SKL-ATK-09 (worked examples): bow skill 3, Dex +3 → +6; a thrown javelin with skill 2, Dex +1 and
    Str +3 → +3 (a thrown weapon is a ranged attack, so Dex)."""
    archer = sheet("a", skills={"bow": 3}, weapon="shortbow", dex=3)
    enc = duel(archer, sheet("b"), b_at=(6, 1), dice=[2])
    assert "8 = d20 2 + bow skill 3 + Dex 3 vs" in _line(resolve(enc, Attack("b")))
    thrower = sheet("a", skills={"javelin": 2}, weapon="javelin", dex=1, str=3)
    enc = duel(thrower, sheet("b"), b_at=(6, 1), dice=[5])
    assert "8 = d20 5 + javelin skill 2 + Dex 1 vs" in _line(resolve(enc, Attack("b")))


# ---------------------------------------------------------------------------- DMG
def test_skl_dmg_01_damage_dice_come_from_the_weapon() -> None:
    """SKL-DMG-01: after a hit the weapon's dice are rolled (longsword 1d8; greatclub 2d8)."""
    enc = duel(fighter(), sheet("b"), dice=[15, 6])
    resolve(enc, Attack("b"), "none")
    assert [(r.purpose, r.sides) for r in enc.dice.rolls][-1] == ("damage longsword", 8)
    enc = duel(sheet(skills={"club": 0}, weapon="greatclub-large"), sheet("b"), dice=[15, 6, 7])
    resolve(enc, Attack("b"), "none")
    assert [(r.purpose, r.sides) for r in enc.dice.rolls][-2:] == [("damage greatclub-large", 8)] * 2


def test_skl_dmg_02_strength_is_added_to_every_weapon() -> None:
    """SKL-DMG-02 (worked examples): shortbow 1d6 rolls 4, Str +1 → 5, armor 2 → 3 (under
    ``skl_ranged_no_str`` → 2); club 1d6 rolls 3 with Str −1 → 2, no armor → 2. Two hands add no more."""
    archer = sheet("a", skills={"bow": 0}, weapon="shortbow", str=1)
    enc = duel(archer, sheet("b", armor_rating=2), b_at=(6, 1), dice=[15, 4])
    assert damage(resolve(enc, Attack("b"), "none"))[0].amount == 3
    enc = duel(archer, sheet("b", armor_rating=2), b_at=(6, 1), dice=[15, 4], variants={"skl_ranged_no_str": True})
    assert damage(resolve(enc, Attack("b"), "none"))[0].amount == 2
    thrower = sheet("a", skills={"javelin": 0}, weapon="javelin", str=1)
    enc = duel(thrower, sheet("b"), b_at=(6, 1), dice=[15, 4], variants={"skl_ranged_no_str": True})
    assert damage(resolve(enc, Attack("b"), "none"))[0].amount == 5  # thrown keeps Str
    enc = duel(sheet(skills={"club": 0}, weapon="club", str=-1), sheet("b"), dice=[15, 3])
    assert damage(resolve(enc, Attack("b"), "none"))[0].amount == 2
    enc = duel(sheet(skills={"club": 0}, weapon="greatclub-large", str=2), sheet("b"), dice=[15, 3, 3])
    assert damage(resolve(enc, Attack("b"), "none"))[0].amount == 8  # 6 + Str 2, not 1½ × Str


def test_skl_dmg_03_armor_rating_is_subtracted() -> None:
    """SKL-DMG-03 (worked example): longsword 1d8 rolls 6, Str +2 → 8; armor rating 3 → 5. Without a rating
    on the sheet, half the worn armor's bonus (rounded up); no armor → 0."""
    enc = duel(fighter(), sheet("b", armor_rating=3), dice=[15, 6])
    hit = damage(resolve(enc, Attack("b"), "none"))[0]
    assert hit.amount == 5 and "5 = 1d8 6 + bonus 2 − armor rating 3" in hit.explanation
    rs = get_ruleset("skill-based")
    from d20combat.model.catalog import default_catalog
    from d20combat.model.creature import compile_creature
    from d20combat.model.statblock import StatBlock
    from d20combat.rulesets.skill_based.damage import ArmorRatingDamage

    def rating(**kw: object) -> int:
        block = StatBlock.model_validate({"name": "t", "hp": 5, **kw})
        assert isinstance(rs.damage, ArmorRatingDamage)
        return rs.damage.armor_rating(compile_creature("t", "t", "s", block, default_catalog()))

    assert rating(armor="chain-shirt") == 2 and rating(armor="full-plate") == 5 and rating() == 0
    assert rating(armor="full-plate", armor_rating=1) == 1


def test_skl_dmg_04_damage_floor_is_zero_or_one() -> None:
    """SKL-DMG-04 (worked example): dagger 1d4 rolls 1, Str 0 → 1; armor 4 → 0 (proposed floor); 1 under
    ``skl_min_damage_1``. The damage comes off PFB-style hit points."""
    dagger = sheet(weapon="dagger")
    enc = duel(dagger, sheet("b", armor_rating=4, hp=10), dice=[15, 1])
    hit = damage(resolve(enc, Attack("b"), "none"))[0]
    assert hit.amount == 0 and "floored at 0" in hit.explanation and enc.state.get("b").hp == 10
    enc = duel(dagger, sheet("b", armor_rating=4, hp=10), dice=[15, 1], variants={"skl_min_damage_1": True})
    assert damage(resolve(enc, Attack("b"), "none"))[0].amount == 1 and enc.state.get("b").hp == 9


def test_skl_dmg_04_health_variant_picks_the_dying_procedure() -> None:
    """SKL-DMG-04 (``skl_health``): PFB hit points; the PF1 dying checks by default, none with "static"."""
    def trio(variants: dict[str, str] | None, dice: list[int]) -> list[ev.Event]:
        enc = encounter([{"id": "a", "side": "x", "stats": fighter(), "position": [1, 1]},
                         {"id": "b", "side": "y", "stats": sheet("b", hp=5, con=1), "position": [2, 1]},
                         {"id": "c", "side": "y", "stats": sheet("c"), "position": [9, 9]}],
                        dice=dice, variants=variants)
        resolve(enc, Attack("b"), "none")  # 8 + 2 = 10 → hp −5: dying
        return resolve(enc, EndTurn())

    assert any("dying check" in e.explain() for e in trio(None, [15, 8, 10]))
    assert not any("dying check" in e.explain() for e in trio({"skl_health": "static"}, [15, 8]))


# ---------------------------------------------------------------------------- CRIT
def test_skl_crit_01_a_critical_attack_trades_accuracy_for_damage() -> None:
    """SKL-CRIT-01: −3 to hit buys +3 damage."""
    enc = duel(fighter(), DEX2, dice=[15, 5])
    events = resolve(enc, Attack("b", critical=-3), "none")
    assert "− critical attack 3" in _line(events) and "+ critical attack 3" in damage(events)[0].explanation


def test_skl_crit_02_declared_before_the_roll() -> None:
    """SKL-CRIT-02 (worked example): the penalty is part of the attack action; once the d20 is rolled (the
    defender's window is open) nothing can be declared."""
    enc = duel(fighter(), DEX2, dice=[15, 5])
    enc.act(Attack("b"))
    assert enc.pending is not None
    assert "waiting for b's reaction" in illegal(enc, Attack("b", critical=-3))


@pytest.mark.parametrize("penalty", [-6, 1, -10])
def test_skl_crit_03_penalty_is_minus_1_to_minus_5(penalty: int) -> None:
    """SKL-CRIT-03 (worked example): −6 (or a bonus) is refused; −1..−5 are legal."""
    enc = duel(fighter(), DEX2, dice=[])
    assert "−1 to −5" in illegal(enc, Attack("b", critical=penalty))
    for ok in range(-5, 0):
        assert enc.check(Attack("b", critical=ok)) is None


def test_skl_crit_04_bonus_is_the_penalty_times_a_weapon_factor() -> None:
    """SKL-CRIT-04 (MISSING table): factor 1 by default (−3 → +3); ``skl_crit_damage_table`` sets it per weapon."""
    enc = duel(fighter(), DEX2, dice=[15, 5], variants={"skl_crit_damage_table": {"longsword": 2}})
    assert damage(resolve(enc, Attack("b", critical=-3), "none"))[0].amount == 5 + 2 + 6
    rs = get_ruleset("skill-based")
    assert rs.criticals.critical_attack(-4, rs_option("dagger"))[1] == 4


def rs_option(weapon: str):  # type: ignore[no-untyped-def]
    from d20combat.model.catalog import default_catalog
    from d20combat.model.creature import compile_creature
    from d20combat.model.statblock import StatBlock

    block = StatBlock.model_validate({"name": "x", "hp": 1, "attacks": [{"weapon": weapon}]})
    return compile_creature("x", "x", "s", block, default_catalog()).attack(weapon)


def test_skl_crit_05_the_bonus_needs_a_hit_that_is_not_negated() -> None:
    """SKL-CRIT-05 (worked examples): +6 declared −3 → +3: d20 12 → 15 ≥ 12 hits; longsword 5 + Str 2 + 3 = 10,
    armor 3 → 7. d20 8 → 11 misses (14 without the critical attack). A dodged hit at −4 deals nothing.
    A natural 20 with +6 and −5 → 31."""
    target = sheet("b", dex=2, armor_rating=3, skills={"defense": 10})
    enc = duel(fighter(), target, dice=[12, 5])
    events = resolve(enc, Attack("b", critical=-3), "none")
    assert damage(events)[0].amount == 7
    assert "7 = 1d8 5 + bonus 2 + critical attack 3 − armor rating 3" in damage(events)[0].explanation
    enc = duel(fighter(), target, dice=[8])
    events = resolve(enc, Attack("b", critical=-3))
    assert not attacks(events)[0].hit and "11 = d20 8" in _line(events)
    enc = duel(fighter(), target, dice=[15, 10])
    events = resolve(enc, Attack("b", critical=-4), "dodge")  # 17 vs dodge 10 + 10 + 2 = 22
    assert not attacks(events)[0].hit and not damage(events)
    enc = duel(fighter(), target, dice=[20, 1])
    assert "31 = natural 20 counts as 30" in _line(resolve(enc, Attack("b", critical=-5), "none"))
    # The bonus is added before armor: club 1 with Str −3 = −2, +3 critical → 1 (a floor before armor gives 3).
    enc = duel(sheet(skills={"club": 9}, weapon="club", str=-3), sheet("b"), dice=[15, 1])
    assert damage(resolve(enc, Attack("b", critical=-3), "none"))[0].amount == 1


def test_skl_crit_no_threat_or_multiplier_whatever_the_weapon() -> None:
    """SKL-ATK-07: a rapier's 18–20 threat range means nothing; damage is never multiplied."""
    enc = duel(sheet(skills={"sword": 0}, weapon="rapier"), sheet("b"), dice=[19, 4])
    events = resolve(enc, Attack("b"), "none")
    assert not attacks(events)[0].critical and damage(events)[0].amount == 4
