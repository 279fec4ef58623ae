"""SKL two-weapon fighting, shields, double and thrown weapons (SKL-TWF-01..24)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.skl.helpers import attacks, encounter, fighter, illegal, resolve, sheet

from d20combat.encounter import events as ev
from d20combat.encounter.actions import Attack, EndTurn, Move
from d20combat.model.catalog import default_catalog
from d20combat.model.creature import compile_creature
from d20combat.model.statblock import StatBlock
from d20combat.rulesets import get_ruleset
from d20combat.rulesets.skill_based import TWO_WEAPON, BonusAttack, OffHand, SkillBased, TwoWeaponFighting
from d20combat.rulesets.skill_based.attack import WeaponSkillAttack

TWF = [TWO_WEAPON]


def pair(off: str | dict[str, Any], main: str = "longsword", *, feats: tuple[str, ...] = (), **kw: Any
         ) -> dict[str, Any]:
    """Sword and dagger skill 6, Str +2: +8 before two-weapon penalties (the text's example)."""
    skills = {"sword": 6, "dagger": 6, "unarmed": 6, "staff": 6, "dart": 6, "javelin": 6, "shield": 6}
    return sheet("a", skills=skills, str=2, attacks=[{"weapon": main}, {"weapon": off, "off_hand": True}],
                 wielding=main, weapon=None, feats=list(feats), **kw)


def fight(a: dict[str, Any], *, mode: bool = True, b: dict[str, Any] | None = None, dice: list[int] | None = None,
          b_at: tuple[int, int] = (2, 1), **kw: Any) -> Any:
    return encounter([{"id": "a", "side": "x", "stats": a, "position": [1, 1], "conditions": TWF if mode else []},
                      {"id": "b", "side": "y", "stats": b or sheet("b", hp=80, dex=5), "position": list(b_at)}],
                     dice=dice or [], **kw)


def bonus_line(events: list[ev.Event]) -> str:
    return attacks(events)[0].lines[1]


def primary_and_off(a: dict[str, Any], **kw: Any) -> tuple[str, str]:
    """The primary attack's and the off-hand bonus attack's roll lines (both miss Passive Defense 15 with a 2)."""
    enc = fight(a, dice=[2, 2], **kw)
    first = bonus_line(resolve(enc, Attack("b")))
    second = bonus_line(resolve(enc, BonusAttack("b")))
    return first, second


DAGGER_DART = {"name": "dart-2", "damage": "1d4", "kind": "thrown", "hands": "light", "range_increment_ft": 20,
               "skill": "dart"}
JAVELIN_2 = {"name": "javelin-2", "damage": "1d6", "kind": "thrown", "range_increment_ft": 30, "skill": "javelin"}


# ---------------------------------------------------------------------------- the bonus action
def test_skl_twf_01_two_weapons_give_one_bonus_complex_action() -> None:
    """SKL-TWF-01: with a weapon in each hand (the mode on) the round has one bonus complex action; with the
    mode off, none."""
    enc = fight(pair("dagger"), dice=[2, 2])
    resolve(enc, Attack("b"))
    events = resolve(enc, BonusAttack("b"))
    assert [(e.cost, e.spend) for e in events if isinstance(e, ev.BudgetSpent)] == [("bonus complex",
                                                                                      {"offhand": 1})]
    assert "no bonus complex action" in illegal(enc, BonusAttack("b"))
    enc = fight(pair("dagger"), mode=False)
    assert "no bonus complex action" in illegal(enc, BonusAttack("b"))


def test_skl_twf_02_the_bonus_action_is_an_off_hand_attack_or_block_only() -> None:
    """SKL-TWF-02: not a primary-hand attack, not a move, not a dodge: after attacking, a's held bonus action
    offers only the off-hand block."""
    enc = fight(pair("dagger"), dice=[2, 15])
    assert "no bonus complex action" in illegal(enc, BonusAttack("b", "longsword"))
    resolve(enc, Attack("b"))
    resolve(enc, Move(to=(1, 2)))
    assert "no basic action left" in illegal(enc, Move(to=(1, 3)))
    resolve(enc, EndTurn())  # the unused bonus action stays held (SKL-RES-04)
    enc.act(Attack("a"))
    assert enc.pending is not None and enc.pending.prompt.options == ("block-off-hand", "none")


@pytest.mark.parametrize(("off", "pen_primary", "pen_off"), [
    ("dagger", 4, 8),            # SKL-TWF-05: a light off-hand weapon, −4/−8 → +4 and +0
    ("longsword-small", 6, 10),  # SKL-TWF-03/04: not light, −6/−10 → +2 and −2
])
def test_skl_twf_03_04_05_penalties_by_hand(off: str, pen_primary: int, pen_off: int) -> None:
    """SKL-TWF-03 (−6 primary), SKL-TWF-04 (−10 off hand), SKL-TWF-05 (light off hand: 2 less each); worked
    examples: longsword + dagger (light), no talent: +4 and +0; two longswords: +2 and −2."""
    first, second = primary_and_off(pair(off))
    assert f"misses: {10 - pen_primary} = d20 2 + sword skill 6 + Str 2 − two-weapon primary hand {pen_primary}" \
        in first
    assert f"misses: {10 - pen_off} = d20 2 + " in second and f"two-weapon off hand {pen_off} vs" in second


def test_skl_twf_06_an_unarmed_off_hand_is_light() -> None:
    """SKL-TWF-06 (worked example): sword in the main hand and an unarmed strike in the off hand → −4/−8."""
    first, second = primary_and_off(pair("unarmed-strike"))
    assert "two-weapon primary hand 4" in first and "two-weapon off hand 8" in second


@pytest.mark.parametrize(("feat", "bonus"), [("dual_weapon_training", 6), ("dual_weapon_mastery", 8)])
def test_skl_twf_07_talents_reduce_the_penalties(feat: str, bonus: int) -> None:
    """SKL-TWF-07 (worked examples): with a dagger, Dual Weapon Training → +6/+6; Mastery → +8/+8."""
    first, second = primary_and_off(pair("dagger", feats=(feat,)))
    assert first.startswith(f"  misses: {2 + bonus} =") and second.startswith(f"  misses: {2 + bonus} =")


def test_skl_twf_08_the_mode_is_switched_at_the_start_of_the_turn() -> None:
    """SKL-TWF-08 (AMBIGUOUS; worked example): the mode is a free switch at the start of the turn; off → no
    bonus action and the sword attacks at +8 without penalty; on → the bonus action comes at once."""
    enc = fight(pair("dagger"), mode=False, dice=[2])
    assert "already off" in illegal(enc, TwoWeaponFighting(on=False))
    assert "+ Str 2 vs" in bonus_line(resolve(enc, Attack("b")))  # 10 = d20 2 + 6 + 2, no penalty
    assert "start of the turn" in illegal(enc, TwoWeaponFighting(on=True))
    enc = fight(pair("dagger"), mode=False, dice=[2, 2])
    events = resolve(enc, TwoWeaponFighting(on=True))
    assert enc.state.get("a").has(TWO_WEAPON) and "penalties -4 primary / -8 off hand" in "\n".join(
        e.explain() for e in events)
    assert next(e.cost for e in events if isinstance(e, ev.BudgetSpent)) == "free"
    assert "once, at the start" in illegal(enc, TwoWeaponFighting(on=False))
    resolve(enc, Attack("b"))
    resolve(enc, BonusAttack("b"))
    enc = fight(pair("dagger"), dice=[])
    resolve(enc, TwoWeaponFighting(on=False))
    assert not enc.state.get("a").has(TWO_WEAPON) and "no bonus complex action" in illegal(enc, BonusAttack("b"))
    assert "needs a one-handed weapon" in illegal(fight(sheet("a"), mode=False), TwoWeaponFighting(on=True))


def test_skl_twf_09_weapon_and_shield_fight_as_two_weapons() -> None:
    """SKL-TWF-09 (worked example): sword + heavy shield, no talent −6/−10; the bonus action blocks with the
    shield (its skill: the sword's, the shield naming none)."""
    block = fighter("a", skills={"sword": 6}, str=2, shield="heavy-wooden-shield")
    enc = encounter([{"id": "b", "side": "y", "stats": fighter("b"), "position": [2, 1]},
                     {"id": "a", "side": "x", "stats": block, "position": [1, 1], "conditions": TWF}],
                    dice=[15, 10, 3])
    enc.act(Attack("a"))
    assert enc.pending is not None and enc.pending.prompt.options[0] == "block"
    events = enc.respond("block-off-hand")
    assert ("8 = d20 10 + sword skill (heavy-wooden-shield) 6 + Str 2 − two-weapon off hand 10"
            in attacks(events)[0].lines[-1])


def test_skl_twf_10_overlapping_rows_give_the_smallest_penalty_per_hand() -> None:
    """SKL-TWF-10 (AMBIGUOUS): every row met counts and each hand takes its smallest penalty; Mastery with Shield
    Specialist (no row of its own) → Mastery's −2 and the specialist's −2 → −2/−2."""
    rs = get_ruleset("skill-based")
    assert isinstance(rs, SkillBased) and isinstance(rs.attack, WeaponSkillAttack)
    p, o, rows = rs.attack.hands.twf_penalties(_creature("dual_weapon_mastery", "shield_specialist"), _off(shield=True))
    assert (p, o) == (-2, -2) and "SKL-TWF-15" in rows and "SKL-TWF-17" in rows


def _creature(*feats: str) -> Any:
    block = StatBlock.model_validate({"name": "x", "hp": 1, "feats": list(feats)})
    return compile_creature("x", "x", "s", block, default_catalog())


def _off(*, light: bool = False, shield: bool = False) -> OffHand:
    return OffHand("off", "sword", light, shield, None)


@pytest.mark.parametrize(("rule", "feats", "light", "shield", "expected"), [
    ("SKL-TWF-11", (), False, False, (-6, -10)),
    ("SKL-TWF-12", (), True, False, (-4, -8)),
    ("SKL-TWF-13", ("dual_weapon_training",), False, False, (-4, -4)),
    ("SKL-TWF-14", ("dual_weapon_training",), True, False, (-2, -2)),
    ("SKL-TWF-15", ("dual_weapon_mastery",), False, False, (-2, -2)),
    ("SKL-TWF-16", ("dual_weapon_mastery",), True, False, (0, 0)),
    ("SKL-TWF-17", ("shield_specialist",), False, True, (-2, -6)),
    ("SKL-TWF-18", ("shield_specialist",), True, True, (0, -4)),
    ("SKL-TWF-19", ("dual_weapon_training", "shield_specialist"), False, True, (0, 0)),
])
def test_skl_twf_11_to_19_the_table_rows(rule: str, feats: tuple[str, ...], light: bool, shield: bool,
                                         expected: tuple[int, int]) -> None:
    """SKL-TWF-11..19 (text, L95–L103): the nine rows, primary / off hand. SKL-TWF-11 normal −6/−10;
    SKL-TWF-12 light −4/−8; SKL-TWF-13 Training −4/−4; SKL-TWF-14 light + Training −2/−2; SKL-TWF-15 Mastery
    −2/−2; SKL-TWF-16 light + Mastery 0/0; SKL-TWF-17 Shield Specialist −2/−6; SKL-TWF-18 Shield Specialist +
    light 0/−4; SKL-TWF-19 Training + Shield Specialist 0/0."""
    rs = get_ruleset("skill-based")
    assert isinstance(rs, SkillBased) and isinstance(rs.attack, WeaponSkillAttack)
    p, o, rows = rs.attack.hands.twf_penalties(_creature(*feats), _off(light=light, shield=shield))
    assert (p, o) == expected and rule in rows


def test_skl_twf_17_shield_specialist_rows_need_a_shield() -> None:
    """SKL-TWF-17 (reading of TWF-10): with two weapons, Shield Specialist alone changes nothing."""
    rs = get_ruleset("skill-based")
    assert isinstance(rs, SkillBased) and isinstance(rs.attack, WeaponSkillAttack)
    assert rs.attack.hands.twf_penalties(_creature("shield_specialist"), _off())[:2] == (-6, -10)


# ---------------------------------------------------------------------------- double and thrown weapons
def test_skl_twf_20_a_double_weapon_attacks_and_blocks_with_its_other_end() -> None:
    """SKL-TWF-20 (AMBIGUOUS; worked example): a quarterstaff's off-hand end makes the extra attack and may block;
    ``skl_double_weapon_blocks`` off → no off-hand block."""
    staff = sheet("a", skills={"staff": 6}, str=2, weapon="quarterstaff")
    enc = fight(staff, dice=[2, 2])
    resolve(enc, Attack("b"))
    events = resolve(enc, BonusAttack("b"))
    assert attacks(events)[0].attack == "quarterstaff" and "two-weapon off hand 8" in bonus_line(events)
    enc = encounter([{"id": "b", "side": "y", "stats": fighter("b"), "position": [2, 1]},
                     {"id": "a", "side": "x", "stats": staff, "position": [1, 1], "conditions": TWF}], dice=[15])
    enc.act(Attack("a"))
    assert enc.pending is not None and "block-off-hand" in enc.pending.prompt.options
    enc = encounter([{"id": "b", "side": "y", "stats": fighter("b"), "position": [2, 1]},
                     {"id": "a", "side": "x", "stats": staff, "position": [1, 1], "conditions": TWF}], dice=[15],
                    variants={"skl_double_weapon_blocks": False})
    enc.act(Attack("a"))
    assert enc.pending is not None and "block-off-hand" not in enc.pending.prompt.options


def test_skl_twf_21_the_double_weapons_other_end_counts_as_light() -> None:
    """SKL-TWF-21 (worked example): a quarterstaff, no talent → −4/−8."""
    staff = sheet("a", skills={"staff": 6}, str=2, weapon="quarterstaff")
    first, second = primary_and_off(staff)
    assert "two-weapon primary hand 4" in first and "two-weapon off hand 8" in second


def test_skl_twf_22_throwing_a_weapon_from_each_hand() -> None:
    """SKL-TWF-22: the same rules for a thrown weapon in each hand: a bonus off-hand throw."""
    enc = fight(pair(DAGGER_DART, main="dart"), b_at=(6, 1), dice=[2, 2])
    resolve(enc, Attack("b"))
    events = resolve(enc, BonusAttack("b"))
    assert attacks(events)[0].attack == "dart-2"


def test_skl_twf_23_darts_and_shuriken_are_light() -> None:
    """SKL-TWF-23 (text, L111; worked example): two darts → −4/−8."""
    first, second = primary_and_off(pair(DAGGER_DART, main="dart"), b_at=(6, 1))
    assert "two-weapon primary hand 4" in first and "two-weapon off hand 8" in second
    assert default_catalog().weapons["shuriken"].hands == "light"


def test_skl_twf_24_javelins_and_slings_are_one_handed() -> None:
    """SKL-TWF-24 (worked example): two javelins → −6/−10; a sling is not light either."""
    first, second = primary_and_off(pair(JAVELIN_2, main="javelin"), b_at=(6, 1))
    assert "two-weapon primary hand 6" in first and "two-weapon off hand 10" in second
    assert default_catalog().weapons["sling"].hands == "one"


# ---------------------------------------------------------------------------- blocks with the off hand
def test_skl_twf_02_two_blocks_before_its_turn_with_sword_and_dagger() -> None:
    """SKL-RES-04 / SKL-TWF-02 (worked example): a sword-and-dagger fighter attacked twice before its turn blocks
    the first with its normal complex action and the second with the off-hand bonus action (dagger: d20 + 6 +
    Str 2 − 8), and then has no complex action on its turn."""
    enc = encounter([{"id": "x", "side": "y", "stats": fighter("x"), "position": [2, 1]},
                     {"id": "z", "side": "y", "stats": fighter("z"), "position": [0, 1]},
                     {"id": "a", "side": "x", "stats": pair("dagger"), "position": [1, 1], "conditions": TWF}],
                    dice=[12, 20, 12, 15, 3])
    enc.act(Attack("a"))
    assert enc.pending is not None and set(enc.pending.prompt.options) == {"block", "block-off-hand", "dodge", "none"}
    assert not attacks(enc.respond("block"))[0].hit  # 18 vs 20 + 6 + 2 − 4
    resolve(enc, EndTurn())
    enc.act(Attack("a"))
    assert enc.pending is not None and enc.pending.prompt.options == ("block-off-hand", "none")
    events = enc.respond("block-off-hand")
    assert "15 = d20 15 + dagger skill (dagger) 6 + Str 2 − two-weapon off hand 8 vs attack 18" in \
        attacks(events)[0].lines[-1]
    resolve(enc, EndTurn())
    assert enc.state.turn is not None and enc.state.turn.actor == "a" and not enc.can_afford("standard")
