"""PFB critical threats, confirmation and critical damage (PFB CRIT 01–16) and damage, Strength and
minimum damage (PFB DMG 01–07).

Forced dice are consumed in order: d20 attack, [d20 confirmation if threat], damage dice
(× multiplier), energy dice, sneak attack d6s. ScriptedDice raises if a test forgets a die, and
``remaining`` shows a die that was *not* rolled.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from d20combat.dice import ScriptedDice
from d20combat.encounter import events as ev
from d20combat.encounter.actions import Attack, Charge, Move
from d20combat.encounter.engine import Encounter
from d20combat.model.catalog import default_catalog
from d20combat.model.creature import AttackOption, compile_creature
from d20combat.model.statblock import StatBlock
from d20combat.rules.critical import crit_profile, is_threat
from d20combat.rules.damage import roll_damage, strength_damage

Make = Callable[..., Encounter]


# ---------------------------------------------------------------------------- helpers
def stats(name: str = "x", **kw: Any) -> dict[str, Any]:
    block: dict[str, Any] = {"name": name, "hp": 60}
    block.update(kw)
    return block


def armored(ac: int, **kw: Any) -> dict[str, Any]:
    """A target with AC exactly ``ac`` (10 + inline armor, Dex 10), 60 hp."""
    return stats("target", armor={"name": f"armor{ac}", "armor_bonus": ac - 10}, **kw)


def wielder(weapon: str | dict[str, Any], *, str_score: int = 10, attack_bonus: int = 0,
            two_handed: bool = False, **kw: Any) -> dict[str, Any]:
    name = weapon if isinstance(weapon, str) else weapon["name"]
    return stats("wielder", abilities={"str": str_score}, attack_bonus=attack_bonus,
                 attacks=[{"weapon": weapon, "two_handed": two_handed}], wielding=name, **kw)


def duel(make: Make, attacker: dict[str, Any], target: dict[str, Any], dice: list[int], *,
         distance: int = 1, **kw: Any) -> Encounter:
    return make([
        {"id": "a", "side": "heroes", "stats": attacker, "position": [0, 0]},
        {"id": "t", "side": "foes", "stats": target, "position": [distance, 0]},
    ], width=max(distance + 2, 4), height=2, dice=dice, **kw)


def resolve(enc: Encounter, action: Attack | Charge) -> tuple[ev.AttackResolved, list[ev.Damaged]]:
    events = enc.act(action)
    resolved = [e for e in events if isinstance(e, ev.AttackResolved)]
    assert len(resolved) == 1
    return resolved[0], [e for e in events if isinstance(e, ev.Damaged) and e.source != "bleeding"]


def remaining(enc: Encounter) -> int:
    assert isinstance(enc.dice, ScriptedDice)
    return enc.dice.remaining


def option(weapon: str | dict[str, Any], two_handed: bool = False) -> AttackOption:
    block = StatBlock.model_validate({"name": "x", "hp": 1,
                                      "attacks": [{"weapon": weapon, "two_handed": two_handed}]})
    return compile_creature("x", "x", "a", block, default_catalog()).attacks[0]


def creature_with(str_score: int, weapon: str | dict[str, Any], two_handed: bool = False) -> Any:
    block = StatBlock.model_validate({"name": "x", "hp": 1, "abilities": {"str": str_score},
                                      "attacks": [{"weapon": weapon, "two_handed": two_handed}]})
    return compile_creature("x", "x", "a", block, default_catalog())


# ---------------------------------------------------------------------------- CRIT-01..05
def test_pfb_crit_01_natural_20_hits_and_threatens(encounter_factory: Make) -> None:
    """PFB-CRIT-01 (worked example): +0 against AC 30, natural 20 → a hit and a threat: a confirmation
    die is rolled (15 → miss → a normal hit)."""
    enc = duel(encounter_factory, wielder("club"), armored(30), [20, 15, 4])
    resolved, damage = resolve(enc, Attack("t"))
    assert resolved.hit and not resolved.critical
    assert any("critical threat" in line and "not confirmed" in line for line in resolved.lines)
    assert [d.amount for d in damage] == [4]
    assert remaining(enc) == 0


def test_pfb_crit_02_confirmation_uses_the_same_bonuses(encounter_factory: Make) -> None:
    """PFB-CRIT-02 (worked example): a charge attack threatens at +7 (BAB 1 + Str 3 + WF 1 + charge 2);
    the confirmation roll also gets the charge +2: d20 8 → 15 confirms against AC 15 (13 would not)."""
    enc = encounter_factory([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "g", "side": "goblins", "stats": stats("g", armor={"name": "a15", "armor_bonus": 5}),
         "position": [5, 1]},
    ], dice=[20, 8, 3, 4])
    resolved, damage = resolve(enc, Charge("g"))
    assert resolved.critical
    confirm = next(line for line in resolved.lines if "confirmation" in line)
    assert "15 = d20 8 + BAB 1 + Str 3 + Weapon Focus 1 + charge 2 vs AC 15" in confirm
    assert [d.amount for d in damage] == [3 + 4 + 6]


def test_pfb_crit_02_confirmation_against_the_same_touch_ac(encounter_factory: Make) -> None:
    """PFB-CRIT-02(a): a ranged touch spell confirms against touch AC: the ogre's touch AC is 9
    (10 − 1 Dex; hide and natural armor ignored); the wizard's d20 7 + Dex 2 = 9 confirms, though
    it would miss the ogre's normal AC 18."""
    enc = encounter_factory([
        {"id": "w", "side": "heroes", "stats": "wizard", "position": [0, 0]},
        {"id": "o", "side": "giants", "stats": "ogre", "position": [3, 0]},
    ], width=6, height=3, dice=[20, 7, 2, 3])
    resolved, damage = resolve(enc, Attack("o", "ray-of-frost"))
    assert resolved.critical
    assert "9 = d20 7 + Dex 2 vs AC 9" in next(line for line in resolved.lines if "confirmation" in line)
    assert [d.amount for d in damage] == [5]


@pytest.mark.parametrize(("confirm_face", "critical"), [(20, True), (1, False)])
def test_pfb_crit_02_natural_results_on_confirmation(encounter_factory: Make, confirm_face: int,
                                                     critical: bool) -> None:
    """PFB-CRIT-02(b): the confirmation is an attack roll: +0 vs AC 30, a natural 20 confirms; +15 vs
    AC 15, a natural 1 (16 ≥ 15) does not confirm."""
    bonus, ac = (0, 30) if confirm_face == 20 else (15, 15)
    enc = duel(encounter_factory, wielder("club", attack_bonus=bonus), armored(ac),
               [20, confirm_face, 2] + ([3] if critical else []))
    resolved, damage = resolve(enc, Attack("t"))
    assert resolved.hit and resolved.critical is critical
    assert [d.amount for d in damage] == [5 if critical else 2]


def test_pfb_crit_02_concealment_not_rolled_again(encounter_factory: Make) -> None:
    """PFB-CRIT-02(c): the d% was rolled before the attack; the confirmation rolls only a d20."""
    enc = encounter_factory([
        {"id": "a", "side": "heroes", "stats": wielder("club"), "position": [0, 0]},
        {"id": "t", "side": "foes", "stats": armored(12), "position": [1, 0]},
    ], rows=[".f..", "...."], dice=[60, 20, 15, 2, 3])
    resolved, _ = resolve(enc, Attack("t"))
    assert resolved.critical
    assert [r.sides for r in enc.dice.rolls] == [100, 20, 20, 6, 6]


@pytest.mark.parametrize(("confirm_face", "critical", "amount"), [(11, True, 4 + 5 + 6), (9, False, 4 + 3)])
def test_pfb_crit_03_04_longsword_confirmation_worked_example(encounter_factory: Make, confirm_face: int,
                                                             critical: bool, amount: int) -> None:
    """PFB-CRIT-03, PFB-CRIT-04 (worked example): longsword 19–20, total +4 vs AC 15: natural 19 → 23 → threat;
    confirmation 11 → 15 → critical hit (2d8 + 6); confirmation 9 → 13 → just a normal hit (1d8 + 3)."""
    fighter = wielder("longsword", str_score=16, attack_bonus=1)
    enc = duel(encounter_factory, fighter, armored(15), [19, confirm_face, 4] + ([5] if critical else []))
    resolved, damage = resolve(enc, Attack("t"))
    assert resolved.hit and resolved.critical is critical
    assert [d.amount for d in damage] == [amount]
    assert enc.state.get("t").hp == 60 - amount
    assert remaining(enc) == 0


def test_pfb_crit_05_confirming_takes_no_time(encounter_factory: Make) -> None:
    """PFB-CRIT-05: a threat and its confirmation cost only the attack's standard action: one
    BudgetSpent, the move and the free action are untouched and a move is still legal afterwards."""
    enc = duel(encounter_factory, wielder("longsword", str_score=16, attack_bonus=1), armored(15),
               [20, 15, 4, 5], distance=1)
    events = enc.act(Attack("t"))
    assert [(e.action, e.cost) for e in events if isinstance(e, ev.BudgetSpent)] == [("attack t", "standard")]
    resolved = next(e for e in events if isinstance(e, ev.AttackResolved))
    assert resolved.critical
    turn = enc.state.turn
    assert turn is not None and turn.actor == "a" and turn.move and turn.free_used == 0
    assert enc.check(Move(to=(0, 1))) is None


# ---------------------------------------------------------------------------- CRIT-06..09: threat ranges
@pytest.mark.parametrize(("weapon", "threat_min"), [("longsword", 19), ("light-crossbow", 19),
                                                    ("heavy-crossbow", 19), ("dagger", 19), ("greatsword", 19),
                                                    ("rapier", 18), ("scimitar", 18),
                                                    ("club", 20), ("battleaxe", 20), ("shortbow", 20)])
def test_pfb_crit_06_07_09_threat_ranges_from_the_crit_box(weapon: str, threat_min: int) -> None:
    """PFB-CRIT-06, PFB-CRIT-07, PFB-CRIT-09: crossbows and longswords threaten on 19–20, rapier and
    scimitar on 18–20, others on 20; the range comes from the weapon data (``threat_min``)."""
    assert crit_profile(option(weapon))[0] == threat_min
    assert is_threat(threat_min, threat_min, True)
    assert not is_threat(threat_min - 1, threat_min, True)


def test_pfb_crit_06_light_crossbow_threatens_on_19(encounter_factory: Make) -> None:
    """PFB-CRIT-06: the wizard's light crossbow (19–20/×2) threatens on a natural 19 that hits."""
    enc = encounter_factory([
        {"id": "w", "side": "heroes", "stats": "wizard", "position": [0, 0], "wielding": "light-crossbow"},
        {"id": "t", "side": "foes", "stats": armored(12), "position": [4, 0]},
    ], width=6, height=2, dice=[19, 10, 3, 4])
    resolved, damage = resolve(enc, Attack("t", "light-crossbow"))
    assert resolved.critical
    assert [d.amount for d in damage] == [7]  # 2d8, no Str (Str −1 never applies to crossbows)


@pytest.mark.parametrize(("ac", "hit"), [(20, True), (21, False)])
def test_pfb_crit_07_rapier_threatens_on_18(encounter_factory: Make, ac: int, hit: bool) -> None:
    """PFB-CRIT-07, PFB-CRIT-08 (worked example): rapier 18–20, +2 vs AC 20: natural 18 → 20 → hit and threat;
    against AC 21 → a miss and no threat (no confirmation die rolled)."""
    enc = duel(encounter_factory, wielder("rapier", attack_bonus=2), armored(ac),
               [18, 1, 3] if hit else [18, 1])
    resolved, damage = resolve(enc, Attack("t"))
    assert resolved.hit is hit
    assert any("critical threat" in line for line in resolved.lines) is hit
    assert not resolved.critical
    if hit:
        assert [d.amount for d in damage] == [3]
    else:
        assert remaining(enc) == 1  # the second die was never rolled


def test_pfb_crit_08_extra_threat_numbers_are_not_automatic_hits(encounter_factory: Make) -> None:
    """PFB-CRIT-08 (worked example): longsword, +1 vs AC 21: natural 19 → 20 < 21 → a miss, so no threat."""
    enc = duel(encounter_factory, wielder("longsword", attack_bonus=1), armored(21), [19, 20])
    resolved, damage = resolve(enc, Attack("t"))
    assert not resolved.hit and not resolved.critical and not damage
    assert remaining(enc) == 1
    assert is_threat(19, 19, False) is False
    assert is_threat(20, 19, False) is True  # only a natural 20 threatens without a hit by total


def test_pfb_crit_09_threat_range_is_data(encounter_factory: Make) -> None:
    """PFB-CRIT-09: an inline weapon with ``threat_min: 17`` threatens on a hitting 17."""
    blade = {"name": "keen-blade", "damage": "1d4", "threat_min": 17}
    enc = duel(encounter_factory, wielder(blade), armored(10), [17, 10, 1, 1])
    resolved, damage = resolve(enc, Attack("t"))
    assert resolved.critical and [d.amount for d in damage] == [2]


# ---------------------------------------------------------------------------- CRIT-10..14: critical damage
def test_pfb_crit_10_x2_doubles_dice_and_static_bonus(encounter_factory: Make) -> None:
    """PFB-CRIT-10 (worked example): longsword 1d8, Str +3, one hand, critical → 2d8 + 6."""
    enc = duel(encounter_factory, wielder("longsword", str_score=16, attack_bonus=1), armored(10),
               [20, 10, 5, 7])
    resolved, damage = resolve(enc, Attack("t"))
    assert resolved.critical and [d.amount for d in damage] == [5 + 7 + 6]
    assert "(×2 critical)" in damage[0].explanation


def test_pfb_crit_10_greatsword_two_handed_critical(encounter_factory: Make) -> None:
    """PFB-CRIT-10 (worked example): greatsword 2d6 (19–20/×2) two-handed with Str +3 (1½ × 3 = 4)
    → critical 4d6 + 8."""
    enc = duel(encounter_factory, wielder("greatsword", str_score=16), armored(10), [19, 10, 1, 2, 3, 4])
    resolved, damage = resolve(enc, Attack("t"))
    assert resolved.critical and [d.amount for d in damage] == [10 + 8]


@pytest.mark.parametrize(("mult", "expected"), [(1, 4 + 1 - 2), (2, 8 + 2 - 4), (3, 12 + 3 - 6)])
def test_pfb_crit_10_every_static_modifier_is_multiplied(mult: int, expected: int) -> None:
    """PFB-CRIT-10 (proposed reading): the enhancement and a *negative* Str are multiplied too: a +1
    weapon 1d6 with Str −2, every die 4: normal 4 + 1 − 2 = 3; ×2 → 8 + 2 − 4 = 6; ×3 → 12 + 3 − 6 = 9."""
    weapon = {"name": "plus-one", "damage": "1d6", "enhancement": 1}
    creature = creature_with(6, weapon)
    dmg = roll_damage(creature, creature.attacks[0], ScriptedDice([4] * mult), multiplier=mult)
    assert dmg.total == expected


def test_pfb_crit_11_x3_battleaxe(encounter_factory: Make) -> None:
    """PFB-CRIT-11 (worked example): battleaxe 1d8 ×3, Str +2 → critical 3d8 + 6."""
    enc = duel(encounter_factory, wielder("battleaxe", str_score=14), armored(10), [20, 10, 1, 2, 3])
    resolved, damage = resolve(enc, Attack("t"))
    assert resolved.critical and [d.amount for d in damage] == [6 + 6]
    assert remaining(enc) == 0


@pytest.mark.parametrize(("weapon", "mult"), [("battleaxe", 3), ("shortbow", 3), ("longsword", 2),
                                              ({"name": "pick", "damage": "1d4", "crit_mult": 4}, 4)])
def test_pfb_crit_12_multiplier_is_data(weapon: str | dict[str, Any], mult: int) -> None:
    """PFB-CRIT-12: the multiplier comes from the weapon's "Crit" box (``crit_mult``)."""
    opt = option(weapon)
    assert crit_profile(opt)[1] == mult
    dmg = roll_damage(creature_with(10, weapon), opt, ScriptedDice([1] * 8), multiplier=crit_profile(opt)[1])
    assert dmg.total == mult


def test_pfb_crit_13_sneak_attack_added_once(encounter_factory: Make) -> None:
    """PFB-CRIT-13 (worked example): a rogue (short sword 1d6, Str +1, sneak attack 1d6) scores a ×2
    critical on a helpless target → 2d6 + 2 + 1d6, with one sneak die only."""
    rogue = wielder("short-sword", str_score=12, sneak_attack_dice=1)
    enc = encounter_factory([
        {"id": "r", "side": "heroes", "stats": rogue, "position": [0, 0]},
        {"id": "t", "side": "foes", "stats": armored(14), "position": [1, 0], "conditions": ["asleep"]},
        {"id": "u", "side": "foes", "stats": armored(14), "position": [8, 8]},
    ], dice=[19, 4, 3, 4, 6])
    resolved, damage = resolve(enc, Attack("t"))
    assert resolved.critical
    assert [d.amount for d in damage] == [3 + 4 + 2 + 6]
    assert "sneak attack 1d6 6" in damage[0].explanation
    assert remaining(enc) == 0


def test_pfb_crit_14_energy_damage_added_once(encounter_factory: Make) -> None:
    """PFB-CRIT-14 (worked example): +1 flaming longsword (1d8 + 1 + Str 3, plus 1d6 fire): a normal hit
    is 1d8 + 4 + 1d6; a critical is 2d8 + 8 + 1d6 (one fire die)."""
    sword = {"name": "flaming-longsword", "damage": "1d8", "threat_min": 19, "enhancement": 1,
             "energy_damage": "1d6"}
    enc = duel(encounter_factory, wielder(sword, str_score=16), armored(30), [20, 20, 5, 4, 3])
    resolved, damage = resolve(enc, Attack("t"))
    assert resolved.critical and [d.amount for d in damage] == [5 + 4 + 8 + 3]
    assert remaining(enc) == 0
    enc = duel(encounter_factory, wielder(sword, str_score=16), armored(10), [12, 5, 3])
    resolved, damage = resolve(enc, Attack("t"))
    assert resolved.hit and not resolved.critical and [d.amount for d in damage] == [5 + 4 + 3]


# ---------------------------------------------------------------------------- CRIT-15/16: spells
def test_pfb_crit_15_spell_attack_can_crit(encounter_factory: Make) -> None:
    """PFB-CRIT-15 (worked example): ray of frost (1d3, ranged touch): natural 20 and a confirmation
    that hits touch AC → 2d3."""
    enc = encounter_factory([
        {"id": "w", "side": "heroes", "stats": "wizard", "position": [0, 0]},
        {"id": "t", "side": "foes", "stats": armored(18), "position": [3, 0]},
    ], width=6, height=2, dice=[20, 10, 2, 3])
    resolved, damage = resolve(enc, Attack("t", "ray-of-frost"))
    assert resolved.critical and [d.amount for d in damage] == [5]
    assert "vs AC 10" in resolved.lines[1]


def test_pfb_crit_15_spell_without_a_hit_has_no_crit(encounter_factory: Make) -> None:
    """PFB-CRIT-15: the spell crit goes through the attack roll: a natural 20 whose confirmation misses
    is a normal hit (1d3), and a plain miss is nothing."""
    enc = encounter_factory([
        {"id": "w", "side": "heroes", "stats": "wizard", "position": [0, 0]},
        {"id": "t", "side": "foes", "stats": stats("t", abilities={"dex": 30}), "position": [3, 0]},
    ], width=6, height=2, dice=[20, 5, 3])
    resolved, damage = resolve(enc, Attack("t", "ray-of-frost"))
    assert resolved.hit and not resolved.critical and [d.amount for d in damage] == [3]


def test_pfb_crit_16_spells_threaten_on_20_only_at_x2(encounter_factory: Make) -> None:
    """PFB-CRIT-16: a spell's threat range is 20 and its multiplier ×2 whatever its data says: a ray with
    ``threat_min: 18, crit_mult: 3`` does not threaten on a hitting 19 and crits for 2 dice."""
    ray = {"name": "odd-ray", "damage": "1d3", "kind": "spell", "touch": True, "range_increment_ft": 25,
           "threat_min": 18, "crit_mult": 3}
    assert crit_profile(option(ray)) == (20, 2)
    assert crit_profile(option("ray-of-frost")) == (20, 2)
    caster = stats("caster", abilities={"dex": 14}, attacks=[{"weapon": ray}])
    enc = duel(encounter_factory, caster, armored(18), [19, 2], distance=3)
    resolved, damage = resolve(enc, Attack("t"))
    assert resolved.hit and not resolved.critical and [d.amount for d in damage] == [2]
    assert remaining(enc) == 0
    enc = duel(encounter_factory, caster, armored(18), [20, 10, 1, 2], distance=3)
    resolved, damage = resolve(enc, Attack("t"))
    assert resolved.critical and [d.amount for d in damage] == [3]
    assert remaining(enc) == 0


# ---------------------------------------------------------------------------- DMG-01..07
def test_pfb_dmg_01_damage_reduces_hit_points(encounter_factory: Make) -> None:
    """PFB-DMG-01: a hit's damage is subtracted from the target's hit points."""
    enc = encounter_factory([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [2, 1]},
        {"id": "h", "side": "goblins", "stats": "goblin", "position": [8, 8]},
    ], dice=[15, 1])
    resolved, damage = resolve(enc, Attack("g"))
    assert resolved.hit and [d.amount for d in damage] == [4]
    assert enc.state.get("g").hp == 6 - 4


def test_pfb_dmg_02_damage_dice_come_from_the_weapon_table(encounter_factory: Make) -> None:
    """PFB-DMG-02: the ogre's greatclub is 2d8 (weapon data): two d8 faces, + 1½ × Str 5 = 7."""
    enc = encounter_factory([
        {"id": "o", "side": "giants", "stats": "ogre", "position": [0, 0]},
        {"id": "t", "side": "foes", "stats": armored(10), "position": [2, 0]},
    ], dice=[15, 8, 8])
    resolved, damage = resolve(enc, Attack("t"))
    assert resolved.hit and [d.amount for d in damage] == [8 + 8 + 7]
    assert [r.sides for r in enc.dice.rolls] == [20, 8, 8]


@pytest.mark.parametrize(("weapon", "expected"), [("club", 2), ("dagger-thrown", 2), ("sling", 2),
                                                  ("shortbow", 0), ("light-crossbow", 0), ("heavy-crossbow", 0)])
def test_pfb_dmg_03_strength_to_melee_thrown_and_sling(weapon: str, expected: int) -> None:
    """PFB-DMG-03 (worked example): Str +2 adds to melee, thrown and sling damage, not to bows or crossbows."""
    assert strength_damage(2, option(weapon)) == expected


@pytest.mark.parametrize(("weapon", "expected"), [("shortbow", -1), ("sling", -1), ("dagger-thrown", -1),
                                                  ("club", -1), ("light-crossbow", 0), ("heavy-crossbow", 0)])
def test_pfb_dmg_04_negative_strength_everywhere_but_crossbows(weapon: str, expected: int) -> None:
    """PFB-DMG-04 (worked example): Str −1: shortbow 1d6 − 1, sling 1d4 − 1, thrown dagger 1d4 − 1;
    light and heavy crossbows take no penalty."""
    assert strength_damage(-1, option(weapon)) == expected


@pytest.mark.parametrize(("weapon", "amount"), [("shortbow", 4 - 1), ("light-crossbow", 4)])
def test_pfb_dmg_04_in_the_engine(encounter_factory: Make, weapon: str, amount: int) -> None:
    """PFB-DMG-04: a Str 8 shooter deals d6 − 1 with a shortbow but a plain d8 with a light crossbow."""
    enc = duel(encounter_factory, wielder(weapon, str_score=8), armored(10), [15, 4], distance=3)
    resolved, damage = resolve(enc, Attack("t"))
    assert resolved.hit and [d.amount for d in damage] == [amount]


@pytest.mark.parametrize(("weapon", "two_handed", "str_mod", "expected"), [
    ("longsword", False, 3, 3), ("longsword", True, 3, 4), ("greatsword", False, 2, 3),
    ("greatsword", False, 3, 4), ("quarterstaff", False, 1, 1), ("dagger", True, 3, 3),
    ("club", True, 5, 7),
])
def test_pfb_dmg_05_one_and_a_half_strength_rounded_down(weapon: str, two_handed: bool, str_mod: int,
                                                         expected: int) -> None:
    """PFB-DMG-05 (worked examples): longsword Str +3: one hand +3, both hands +4 (4.5 rounded down);
    greatsword (always two-handed) Str +2 → +3; a light weapon in two hands gets only 1 × Str."""
    assert strength_damage(str_mod, option(weapon, two_handed)) == expected


def test_pfb_dmg_05_two_handed_longsword_in_the_engine(encounter_factory: Make) -> None:
    """PFB-DMG-05: a fighter (Str 17) wielding the longsword in both hands deals 1d8 + 4."""
    enc = duel(encounter_factory, wielder("longsword", str_score=17, two_handed=True), armored(10), [15, 5])
    resolved, damage = resolve(enc, Attack("t"))
    assert resolved.hit and [d.amount for d in damage] == [9]


@pytest.mark.parametrize(("weapon", "two_handed"), [("quarterstaff", False), ("longsword", True),
                                                    ("greatsword", False)])
def test_pfb_dmg_06_negative_strength_not_multiplied(weapon: str, two_handed: bool) -> None:
    """PFB-DMG-06 (worked example): Str −2 with a quarterstaff in both hands → −2, not −3."""
    assert strength_damage(-2, option(weapon, two_handed)) == -2
    assert strength_damage(-1, option(weapon, two_handed)) == -1


def test_pfb_dmg_06_wizard_quarterstaff_in_the_engine(encounter_factory: Make) -> None:
    """PFB-DMG-06: the wizard (Str 8, −1) hits with the two-handed quarterstaff: 1d6 − 1, not − 2."""
    enc = encounter_factory([
        {"id": "w", "side": "heroes", "stats": "wizard", "position": [0, 0], "wielding": "quarterstaff"},
        {"id": "t", "side": "foes", "stats": armored(10), "position": [1, 0]},
    ], dice=[15, 4])
    resolved, damage = resolve(enc, Attack("t", "quarterstaff"))
    assert resolved.hit and [d.amount for d in damage] == [3]


def test_pfb_dmg_07_minimum_one_damage(encounter_factory: Make) -> None:
    """PFB-DMG-07 (worked example): dagger 1d4 with Str −2 rolls 1 → −1 → the hit still deals 1."""
    enc = duel(encounter_factory, wielder("dagger", str_score=6), armored(10), [15, 1])
    resolved, damage = resolve(enc, Attack("t"))
    assert resolved.hit and [d.amount for d in damage] == [1]
    assert enc.state.get("t").hp == 59
    assert "raised from -1 to the minimum 1" in damage[0].explanation


def test_pfb_dmg_07_minimum_applies_to_the_critical_total(encounter_factory: Make) -> None:
    """PFB-DMG-07 (worked example, proposed reading): a ×2 critical with 1d4 − 2 rolls 1 and 2 →
    (1 − 2) + (2 − 2) = −1 → 1 damage (the minimum applies once, to the total)."""
    enc = duel(encounter_factory, wielder("dagger", str_score=6), armored(10), [20, 20, 1, 2])
    resolved, damage = resolve(enc, Attack("t"))
    assert resolved.critical and [d.amount for d in damage] == [1]
    creature = creature_with(6, "dagger")
    assert roll_damage(creature, creature.attacks[0], ScriptedDice([1, 2]), multiplier=2).raw == -1
    assert roll_damage(creature, creature.attacks[0], ScriptedDice([4, 4]), multiplier=2).total == 4
