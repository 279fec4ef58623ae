"""WOA-STAT-32..51: Armor Class — armor and natural armor do not stack, touch AC keeps the shield, armor caps Dex,
the crit-confirmation AC, and what an unexpected attack costs (worlds-of-adventure)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules._builders import ac, resolved, stats
from tests.rules.woa._util import declare_all, who, woa

from d20combat.encounter import actions as ax
from d20combat.encounter.engine import Encounter
from d20combat.numbers import Modifier
from d20combat.rules.armor_class import DefenseContext
from d20combat.rulesets.worlds_of_adventure.defense import (
    armor_takes_effect,
    shield_took_touch,
)

ATTACKER = stats("hero", attack_bonus=0, attacks=[{"weapon": "club"}])
TOUCH = {"name": "shock", "damage": "1d6", "touch": True}


def ready(defender: dict[str, Any], dice: list[int] = (), attacker: dict[str, Any] = ATTACKER,
          **kw: Any) -> Encounter:  # type: ignore[assignment]
    """``hero`` (heroes) next to ``target`` (monsters), has won initiative and declared an attack on it."""
    enc = woa([who("hero", attacker, "heroes", (0, 1)), who("target", defender, "monsters", (1, 1))],
              [20, 1, *dice], **kw)
    declare_all(enc, ax.Declare(standard="attack", target="target"))
    return enc


NORMAL = DefenseContext()


def ac_of(enc: Encounter, ctx: DefenseContext = NORMAL, extra: tuple[Modifier, ...] = ()) -> int:
    return enc.ruleset.defense.total(enc.creature("target"), enc.state.get("target"), ctx, list(extra)).value


def block(**kw: Any) -> dict[str, Any]:
    return stats("target", attacks=[{"weapon": "club"}], **kw)


FIGHTER = block(abilities={"dex": 14}, armor={"name": "scale", "armor_bonus": 4},
                shield={"name": "heavy", "shield_bonus": 2})
"""Armor +4, shield +2, Dex +2: AC 18, touch 14."""


def test_woa_stat_32_the_ac_formula_through_an_attack() -> None:
    """WOA-STAT-32: 10 + armor 4 + shield 2 + Dex 2 = 18; an attack totalling 18 hits, 17 misses."""
    enc = ready(FIGHTER, [18, 3])
    assert ac(enc, "hero", "target") == 18
    assert resolved(enc.act(ax.Attack("target"))).hit
    enc = ready(FIGHTER, [17])
    assert not resolved(enc.act(ax.Attack("target"))).hit


def test_woa_stat_32_an_unarmored_peasant_has_ac_10() -> None:
    """WOA-STAT-32 (text, L100): an unarmored peasant → AC 10."""
    assert ac_of(ready(block())) == 10


def test_woa_stat_33_34_unexpected_attack_costs_the_shield_and_the_dex_bonus() -> None:
    """WOA-STAT-33: no shield bonus against an attack not expected; WOA-STAT-34: no Dex bonus either (18 → 14)."""
    enc = ready(FIGHTER)
    assert ac_of(enc, DefenseContext(flat_footed=True)) == 14


def test_woa_stat_35_a_dex_penalty_always_applies() -> None:
    """WOA-STAT-35: Dex 6 (−2) still counts against a surprise attack."""
    enc = ready(block(abilities={"dex": 6}))
    assert ac_of(enc) == 8 and ac_of(enc, DefenseContext(flat_footed=True)) == 8


@pytest.mark.parametrize(("armor", "dex", "expected"), [
    ("chain-shirt", 20, 10 + 4 + 4),                                        # table: max Dex +4
    ({"name": "mail", "armor_bonus": 5, "max_dex": 1}, 16, 10 + 5 + 1),      # the armor's own max_dex
    ({"name": "robe", "armor_bonus": 1}, 16, 10 + 1 + 3),                    # no table entry: no cap
    ("full-plate", 8, 10 + 9 - 1),                                          # a penalty is never capped
])
def test_woa_stat_36_armor_caps_the_dex_bonus(armor: Any, dex: int, expected: int) -> None:
    """WOA-STAT-36: worn armor caps the Dex bonus to AC (data/woa_armor.yaml, else the armor's max_dex)."""
    assert ac_of(ready(block(abilities={"dex": dex}, armor=armor))) == expected


def test_woa_stat_37_superior_armor_and_shields_add_their_enhancement() -> None:
    """WOA-STAT-37: +1 chain shirt (4 + 1) and +2 heavy shield (2 + 2): AC 19."""
    enc = ready(block(armor={"name": "fine-shirt", "armor_bonus": 4, "enhancement": 1},
                      shield={"name": "fine-shield", "shield_bonus": 2, "enhancement": 2}))
    assert ac_of(enc) == 19


def test_woa_stat_38_deflection_adds() -> None:
    """WOA-STAT-38: a ring of protection +2 adds to AC (and to touch AC)."""
    enc = ready(block(deflection_bonus=2))
    assert ac_of(enc) == 12 and ac_of(enc, DefenseContext(touch=True)) == 12


def test_woa_stat_39_40_armor_and_natural_armor_do_not_stack() -> None:
    """WOA-STAT-39: natural armor adds; WOA-STAT-40: with armor only the larger applies — the troll (natural +5)
    in a chain shirt (+6 for a Large creature) has AC 16, not 21."""
    troll = block(size="large", natural_armor=5, armor={"name": "chain-shirt-large", "armor_bonus": 6})
    enc = ready(troll)
    total = enc.ruleset.defense.total(enc.creature("target"), enc.state.get("target"), DefenseContext(), [])
    assert total.value == 16 and "natural armor 5 does not stack" in total.explain_parts()
    assert ac_of(ready(block(natural_armor=5))) == 15
    assert ac_of(ready(block(natural_armor=7, armor={"name": "leather", "armor_bonus": 2}))) == 17


def test_woa_stat_41_the_crit_confirmation_ac() -> None:
    """WOA-STAT-41: against the confirmation roll only, + ½ the smaller of armor and natural armor: the troll's
    AC 16 is 18 to confirm — a natural 20, then a confirmation of 17 fails (it would beat 16)."""
    troll = block(size="large", natural_armor=5, armor={"name": "chain-shirt-large", "armor_bonus": 6})
    hero = stats("hero", attack_bonus=5, attacks=[{"weapon": "club"}])
    enc = ready(troll, [20, 12, 4], attacker=hero)
    r = resolved(enc.act(ax.Attack("target")))
    assert r.hit and not r.critical
    assert "vs AC 18 (+2 ½ the smaller of armor and natural armor (5), vs confirmation, WOA-STAT-41)" in \
        "\n".join(r.lines)
    enc = ready(troll, [20, 13, 4, 4], attacker=hero)
    assert resolved(enc.act(ax.Attack("target"))).critical


def test_woa_stat_42_43_44_dodge_bonuses() -> None:
    """WOA-STAT-42: dodge bonuses are lost against an unexpected attack; WOA-STAT-43: armor does not cap them (full
    plate, max Dex +1: the +3 dodge counts in full); WOA-STAT-44: they stack with each other."""
    enc = ready(block(abilities={"dex": 10}, dodge_bonus=3, armor="full-plate"))
    assert ac_of(enc) == 10 + 9 + 3
    assert ac_of(enc, extra=(Modifier(2, "another dodge", "dodge"),)) == 10 + 9 + 3 + 2
    assert ac_of(enc, DefenseContext(flat_footed=True)) == 10 + 9


def test_woa_stat_45_cover_only_from_the_other_side() -> None:
    """WOA-STAT-45: cover adds to AC only against an attack from the other side of it: the wall between the archer
    and the goblin gives +4; an archer on the goblin's side gets none."""
    archer = stats("hero", attack_bonus=0, attacks=[{"weapon": "shortbow"}])
    rows = ["..#..", ".....", "....."]
    enc = woa([who("hero", archer, "heroes", (0, 0)), who("target", block(), "monsters", (4, 0))], [20, 1],
              rows=rows)
    declare_all(enc)
    assert ac(enc, "hero", "target") == 14
    enc = woa([who("hero", archer, "heroes", (4, 2)), who("target", block(), "monsters", (4, 0))], [20, 1],
              rows=rows)
    declare_all(enc)
    assert ac(enc, "hero", "target") == 10


def test_woa_stat_46_47_48_touch_ac_keeps_the_shield() -> None:
    """WOA-STAT-46: touch AC drops armor and natural armor; WOA-STAT-47: it keeps the shield, Dex, deflection and
    dodge (armor 4 + shield 2 + Dex 2 → touch 14, where 3.5 would say 12); WOA-STAT-48: with neither armor nor
    natural armor touch AC is the normal AC."""
    enc = ready(FIGHTER)
    assert ac_of(enc, DefenseContext(touch=True)) == 14
    enc = ready(block(natural_armor=3, dodge_bonus=1, deflection_bonus=1))
    assert ac_of(enc, DefenseContext(touch=True)) == 12
    bare = ready(block(abilities={"dex": 14}, shield={"name": "heavy", "shield_bonus": 2}, deflection_bonus=1))
    assert ac_of(bare, DefenseContext(touch=True)) == ac_of(bare) == 15


def test_woa_stat_47_a_touch_attack_through_the_engine() -> None:
    """WOA-STAT-47: a touch attack (shock) against the fighter is judged against touch AC 14 — shield kept."""
    hero = stats("hero", attack_bonus=0, attacks=[{"weapon": TOUCH}])
    enc = ready(FIGHTER, attacker=hero)
    assert ac(enc, "hero", "target") == 14


@pytest.mark.parametrize(("drops", "expected"), [(True, 10), (False, 12)])
def test_woa_stat_46_touch_and_the_armor_enhancement(drops: bool, expected: int) -> None:
    """WOA-STAT-46 (AMBIGUOUS, ``woa_touch_drops_armor_enhancement``): a +2 chain shirt's enhancement is part of
    the armor bonus and goes with it against touch (10); the other reading keeps it (12)."""
    enc = ready(block(armor={"name": "fine", "armor_bonus": 4, "enhancement": 2}),
                variants={"woa_touch_drops_armor_enhancement": drops})
    assert ac_of(enc, DefenseContext(touch=True)) == expected


@pytest.mark.parametrize(("result", "took"), [(12, True), (13, True), (11, False), (14, False)])
def test_woa_stat_49_the_shield_takes_a_touch_attack_it_stopped(result: int, took: bool) -> None:
    """WOA-STAT-49: touch AC 14 with a shield +2: a miss of 12 or 13 missed only because of the shield, which
    suffers the attack's effects; 11 misses anyway; 14 hits the wearer."""
    assert shield_took_touch(result, 14, 2) is took


@pytest.mark.parametrize(("result", "flagged", "armor"), [(15, True, True), (18, True, False), (15, False, False),
                                                           (13, True, False)])
def test_woa_stat_50_armor_takes_a_flagged_touch_attack(result: int, flagged: bool, armor: bool) -> None:
    """WOA-STAT-50: a flagged touch attack (an ankheg's acid) that beats touch AC 14 but not the armored AC 18
    leaves the wearer alone and the armor suffers it; not flagged, it is an ordinary touch hit."""
    assert armor_takes_effect(result, 14, 18, armor_blocks_effect=flagged) is armor


def test_woa_stat_51_armor_may_grant_energy_resistance() -> None:
    """WOA-STAT-51: non-metallic armor resists electricity (the armor's ``energy_resistance`` data); other energy,
    or no armor, none."""
    from d20combat.rulesets.worlds_of_adventure.defense import armor_energy_resistance

    enc = ready(block(armor={"name": "hide-coat", "armor_bonus": 3, "energy_resistance": {"electricity": 5}}))
    target = enc.creature("target")
    assert armor_energy_resistance(target, "Electricity") == (5, "hide-coat: resist electricity 5 (WOA-STAT-51)")
    assert armor_energy_resistance(target, "fire") == (0, "")
    assert armor_energy_resistance(ready(block()).creature("target"), "electricity") == (0, "")


@pytest.mark.parametrize(("armor", "field"), [
    ({"name": "bad", "armor_bonus": 4, "max_dex": -1}, "max_dex"),
    ({"name": "bad", "armor_bonus": 4, "enhancement": 6}, "enhancement"),
    ({"name": "bad", "armor_bonus": 4, "energy_resistance": {"fire": -5}}, "energy_resistance"),
])
def test_woa_stat_36_37_51_bad_armor_data_is_refused_by_name(armor: dict[str, Any], field: str) -> None:
    """WOA-STAT-36/37/51: a negative max Dex, an enhancement above +5 or a negative resistance is refused, naming
    the combatant and the field; nothing is built."""
    from d20combat.scenario import ScenarioError, battle_from_data

    data = {"ruleset": "worlds-of-adventure", "map": {"width": 6, "height": 6},
            "combatants": [{"id": "a", "side": "x", "position": [0, 0], "stats": block(armor=armor)},
                           {"id": "b", "side": "y", "position": [3, 3], "stats": block()}]}
    with pytest.raises(ScenarioError) as info:
        battle_from_data(data)
    text = "\n".join(info.value.problems)
    assert "combatants[0]" in text and field in text
