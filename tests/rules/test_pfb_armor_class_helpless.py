"""PFB Armor Class: the formula, other modifiers, flat-footed, touch (PFB AC 01–06) and helpless
defenders (PFB HELP 01–05)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from d20combat.dice import ScriptedDice
from d20combat.encounter import events as ev
from d20combat.encounter.actions import Attack, Charge, EndTurn
from d20combat.encounter.engine import Encounter
from d20combat.encounter.state import CombatantState
from d20combat.model.catalog import default_catalog
from d20combat.model.creature import Creature, compile_creature
from d20combat.model.statblock import StatBlock
from d20combat.numbers import Modifier
from d20combat.rules.armor_class import DefenseContext, armor_class

Make = Callable[..., Encounter]


# ---------------------------------------------------------------------------- helpers
def creature(**kw: Any) -> Creature:
    block = StatBlock.model_validate({"name": "c", "hp": 10, **kw})
    return compile_creature("c", "c", "a", block, default_catalog())


def state(shield_state: str = "strapped") -> CombatantState:
    return CombatantState("c", (0, 0), 10, None, shield_state)


def ac(c: Creature, **ctx: Any) -> int:
    opts = {k: ctx.pop(k) for k in ("flat_footed_loses_dodge", "touch_keeps_natural_armor", "extra") if k in ctx}
    return armor_class(c, state(), DefenseContext(**ctx), **opts).value


def dex(mod: int) -> int:
    """The ability score giving ``mod``."""
    return 10 + 2 * mod


def stats(name: str = "x", **kw: Any) -> dict[str, Any]:
    block: dict[str, Any] = {"name": name, "hp": 30}
    block.update(kw)
    return block


def target_ac(enc: Encounter, attacker: str, target: str, attack: str | None = None) -> int:
    plan = enc.plan_attack(attacker, target, attack)
    return enc.target_ac(plan, enc.state)[0]


ARCHER = stats("archer", abilities={"dex": 14}, attacks=[{"weapon": "shortbow"}, {"weapon": "club"}],
               wielding="shortbow")
CASTER = stats("caster", abilities={"dex": 14}, attacks=[{"weapon": "ray-of-frost"}])
SWORD = stats("sword", abilities={"str": 12}, attacks=[{"weapon": "longsword"}])


# ---------------------------------------------------------------------------- AC-01/02
def test_pfb_ac_01_formula(encounter_factory: Make) -> None:
    """PFB-AC-01: AC = 10 + armor + shield + Dex: the fighter (chain shirt 4, heavy shield 2, Dex 13 → +1)
    has AC 17, and the engine explains it."""
    enc = encounter_factory([
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [2, 1]},
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1]},
    ])
    plan = enc.plan_attack("g", "f")
    assert enc.target_ac(plan, enc.state) == (17, "10 + armor 4 + shield 2 + Dex 1")
    assert ac(creature(armor="leather", shield="buckler", abilities={"dex": dex(3)})) == 10 + 2 + 1 + 3
    assert ac(creature()) == 10


def test_pfb_ac_01_an_unstrapped_shield_gives_no_bonus() -> None:
    """PFB-AC-01 (with PFB-ITEM-09): the shield term counts only while the shield is strapped on."""
    c = creature(armor="leather", shield="heavy-wooden-shield")
    assert armor_class(c, state("strapped"), DefenseContext()).value == 14
    assert armor_class(c, state("held"), DefenseContext()).value == 12


def test_pfb_ac_02_other_modifiers() -> None:
    """PFB-AC-02 (worked example): chain shirt +4, heavy wooden shield +2, Dex +1, Dodge +1 → 18; natural
    armor and deflection are "other modifiers" too."""
    c = creature(armor="chain-shirt", shield="heavy-wooden-shield", abilities={"dex": dex(1)}, dodge_bonus=1)
    assert ac(c) == 18
    assert ac(creature(natural_armor=3, deflection_bonus=1)) == 14


def test_pfb_ac_02_stacking_of_same_typed_bonuses() -> None:
    """PFB-AC-02 (proposed stacking default): two deflection bonuses don't stack (the higher counts);
    dodge bonuses, untyped bonuses and penalties add up."""
    c = creature(deflection_bonus=1, dodge_bonus=1)
    assert ac(c, extra=[Modifier(2, "ring", "deflection")]) == 10 + 2 + 1
    assert ac(c, extra=[Modifier(1, "haste", "dodge")]) == 10 + 1 + 2
    assert ac(c, extra=[Modifier(1, "bless-ish"), Modifier(1, "other")]) == 10 + 1 + 1 + 2
    assert ac(c, extra=[Modifier(-2, "charge"), Modifier(-2, "other penalty")]) == 10 + 2 - 4


def test_pfb_ac_02_timed_effects_enter_ac(encounter_factory: Make) -> None:
    """PFB-AC-02 with PFB-CHG-12: the charger's −2 AC is an "other modifier" on its AC."""
    enc = encounter_factory([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [5, 1]},
    ], dice=[2])
    enc.act(Charge("g"))
    enc.act(EndTurn())
    assert target_ac(enc, "g", "f") == 17 - 2


# ---------------------------------------------------------------------------- AC-03..05: flat-footed
def _surprised_rogue(make: Make, **kw: Any) -> Encounter:
    return make([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "r", "side": "rogues", "stats": "rogue", "position": [2, 1]},
    ], surprise={"surprised": ["r"]}, dice=[2], **kw)


def test_pfb_ac_03_surprised_creature_is_flat_footed(encounter_factory: Make) -> None:
    """PFB-AC-03 (worked example): a surprised rogue (Dex +3, leather +2) has AC 15 normally and 12 during
    the surprise round; once the surprise round is over it is 15 again."""
    enc = _surprised_rogue(encounter_factory)
    assert enc.state.surprise_round
    plan = enc.plan_attack("f", "r")
    assert enc.defense(plan, enc.state).flat_footed
    assert enc.target_ac(plan, enc.state)[0] == 12
    enc.act(Attack("r"))  # d20 2: a miss
    enc.act(EndTurn())
    assert enc.state.round == 2 and enc.state.actor == "f" and not enc.state.surprise_round
    plan = enc.plan_attack("f", "r")
    assert not enc.defense(plan, enc.state).flat_footed
    assert enc.target_ac(plan, enc.state)[0] == 15


def test_pfb_ac_03_paralyzed_creature_is_flat_footed(encounter_factory: Make) -> None:
    """PFB-AC-03: a paralyzed creature can't react: it is flat-footed (and helpless, PFB-HELP-01)."""
    enc = encounter_factory([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "r", "side": "rogues", "stats": "rogue", "position": [2, 1], "conditions": ["paralyzed"]},
        {"id": "s", "side": "rogues", "stats": "rogue", "position": [9, 9]},
    ])
    defense = enc.defense(enc.plan_attack("f", "r"), enc.state)
    assert defense.flat_footed and defense.helpless
    plain = encounter_factory([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "r", "side": "rogues", "stats": "rogue", "position": [2, 1], "conditions": ["blinded"]},
    ])
    assert not plain.defense(plain.plan_attack("f", "r"), plain.state).flat_footed


@pytest.mark.parametrize(("loses_dodge", "expected"), [(False, 17), (True, 16)])
def test_pfb_ac_04_flat_footed_keeps_dodge_unless_variant(loses_dodge: bool, expected: int) -> None:
    """PFB-AC-04 (worked example): AC 18 (chain shirt 4, heavy shield 2, Dex 1, Dodge 1) → flat-footed 17
    (literal: only Dex is lost); 16 under ``pfb_flat_footed_loses_dodge``. Touch 12; flat-footed touch 11."""
    c = creature(armor="chain-shirt", shield="heavy-wooden-shield", abilities={"dex": dex(1)}, dodge_bonus=1)
    assert ac(c, flat_footed=True, flat_footed_loses_dodge=loses_dodge) == expected
    assert ac(c, touch=True, flat_footed_loses_dodge=loses_dodge) == 12
    assert ac(c, touch=True, flat_footed=True, flat_footed_loses_dodge=loses_dodge) == expected - 6


@pytest.mark.parametrize(("loses_dodge", "expected"), [(False, 13), (True, 12)])
def test_pfb_ac_04_variant_in_the_engine(encounter_factory: Make, loses_dodge: bool, expected: int) -> None:
    """PFB-AC-04: a surprised dodger (leather 2, Dex +3, Dodge +1: AC 16) is 13 flat-footed by default and
    12 with ``pfb_flat_footed_loses_dodge``."""
    dodger = stats("dodger", abilities={"dex": 16}, armor="leather", dodge_bonus=1, attacks=[{"weapon": "club"}])
    enc = encounter_factory([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "d", "side": "rogues", "stats": dodger, "position": [2, 1]},
    ], surprise={"surprised": ["d"]}, variants={"pfb_flat_footed_loses_dodge": loses_dodge})
    assert target_ac(enc, "f", "d") == expected


def test_pfb_ac_05_negative_dex_kept_when_flat_footed(encounter_factory: Make) -> None:
    """PFB-AC-05 (worked example): Dex −1 and leather +2 → AC 11, flat-footed still 11."""
    c = creature(armor="leather", abilities={"dex": 8})
    assert ac(c) == 11 and ac(c, flat_footed=True) == 11
    clumsy = stats("clumsy", abilities={"dex": 8}, armor="leather", attacks=[{"weapon": "club"}])
    enc = encounter_factory([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "c", "side": "rogues", "stats": clumsy, "position": [2, 1]},
    ], surprise={"surprised": ["c"]})
    plan = enc.plan_attack("f", "c")
    assert enc.defense(plan, enc.state).flat_footed
    assert enc.target_ac(plan, enc.state) == (11, "10 + armor 2 − Dex 1")


# ---------------------------------------------------------------------------- AC-06: touch
def test_pfb_ac_06_touch_ignores_armor_and_shield() -> None:
    """PFB-AC-06: touch AC drops armor and shield but keeps Dex and other modifiers (dodge, deflection)."""
    c = creature(armor="full-plate", shield="heavy-steel-shield", abilities={"dex": dex(2)}, dodge_bonus=1,
                 deflection_bonus=1)
    assert ac(c) == 10 + 9 + 2 + 2 + 1 + 1
    assert ac(c, touch=True) == 10 + 2 + 1 + 1


@pytest.mark.parametrize(("keeps", "expected"), [(False, 10), (True, 13)])
def test_pfb_ac_06_natural_armor_variant(keeps: bool, expected: int) -> None:
    """PFB-AC-06 (worked example): AC 17 = 10 + armor 4 + natural 3 → touch AC 10 (proposed), or 13 under
    ``pfb_touch_keeps_natural_armor``."""
    c = creature(armor="hide", natural_armor=3)
    assert ac(c) == 17
    assert ac(c, touch=True, touch_keeps_natural_armor=keeps) == expected


@pytest.mark.parametrize(("keeps", "expected"), [(False, 9), (True, 14)])
def test_pfb_ac_06_ray_against_the_ogre(encounter_factory: Make, keeps: bool, expected: int) -> None:
    """PFB-AC-06 in the engine: the ogre (hide 4, natural 5, Dex −1: AC 18) has touch AC 9 against the
    wizard's ray, 14 with ``pfb_touch_keeps_natural_armor``; a d20 7 + Dex 2 = 9 hits only at 9."""
    enc = encounter_factory([
        {"id": "w", "side": "heroes", "stats": "wizard", "position": [0, 0]},
        {"id": "o", "side": "giants", "stats": "ogre", "position": [3, 0]},
    ], width=6, height=3, dice=[7, 2], variants={"pfb_touch_keeps_natural_armor": keeps})
    assert target_ac(enc, "w", "o", "ray-of-frost") == expected
    events = enc.act(Attack("o", "ray-of-frost"))
    resolved = next(e for e in events if isinstance(e, ev.AttackResolved))
    assert resolved.hit is (expected == 9)
    enc2 = encounter_factory([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [2, 2]},
        {"id": "o", "side": "giants", "stats": "ogre", "position": [3, 0]},
    ], width=6, height=4, variants={"pfb_touch_keeps_natural_armor": keeps})
    assert target_ac(enc2, "f", "o") == 18  # a normal attack keeps everything


# ---------------------------------------------------------------------------- HELP
@pytest.mark.parametrize(("conditions", "hp", "helpless"), [
    (["asleep"], 10, True), (["paralyzed"], 10, True), (["bound"], 10, True), (["unconscious"], 10, True),
    (["helpless"], 10, True), ([], -1, True), ([], -9, True),
    ([], 0, False), ([], 10, False), (["blinded"], 10, False), (["prone"], 10, False), (["invisible"], 10, False),
])
def test_pfb_help_01_who_is_helpless(encounter_factory: Make, conditions: list[str], hp: int,
                                     helpless: bool) -> None:
    """PFB-HELP-01: bound, sleeping, paralyzed, unconscious (dying, −1 hp or lower) or otherwise at one's
    mercy is helpless; disabled (0 hp), blinded, prone or invisible is not."""
    enc = encounter_factory([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "t", "side": "foes", "stats": stats("t", abilities={"con": 10}), "position": [2, 1],
         "conditions": conditions, "hp": hp, "starts_down": hp <= 0},
    ], start=False)
    assert enc.is_helpless("t") is helpless


def _guard(dex_mod: int) -> dict[str, Any]:
    return stats("guard", abilities={"dex": dex(dex_mod)}, armor="chain-shirt", attacks=[{"weapon": "club"}])


@pytest.mark.parametrize(("dex_mod", "normal", "ranged", "melee"), [(1, 15, 9, 5), (0, 14, 9, 5), (-2, 12, 9, 5),
                                                                    (4, 18, 9, 5)])
def test_pfb_help_02_03_04_helpless_ac_worked_examples(encounter_factory: Make, dex_mod: int, normal: int,
                                                       ranged: int, melee: int) -> None:
    """PFB-HELP-02, PFB-HELP-03, PFB-HELP-04 (worked examples): a sleeping guard with AC 10 + armor 4 +
    Dex → helpless AC 10 + 4 − 5 = 9 against ranged and 5 against melee, whatever its Dex (the Dex term
    becomes −5, then −4 vs melee); subtracting the flat −5/−9 would wrongly give e.g. 10 and 6 for Dex +1."""
    enc = encounter_factory([
        {"id": "a", "side": "heroes", "stats": ARCHER, "position": [0, 0]},
        {"id": "s", "side": "heroes", "stats": SWORD, "position": [5, 1]},
        {"id": "g", "side": "foes", "stats": _guard(dex_mod), "position": [4, 0], "conditions": ["asleep"]},
        {"id": "h", "side": "foes", "stats": _guard(dex_mod), "position": [9, 9]},
    ])
    assert target_ac(enc, "a", "h") == normal
    assert target_ac(enc, "a", "g") == ranged
    assert target_ac(enc, "s", "g") == melee
    assert ranged != normal - 5 or dex_mod == 0
    plan = enc.plan_attack("s", "g")
    assert "Dex 0 (helpless)" in enc.target_ac(plan, enc.state)[1]
    assert "helpless vs melee" in enc.target_ac(plan, enc.state)[1]


def test_pfb_help_02_melee_penalty_only_against_melee() -> None:
    """PFB-HELP-02: the −4 is against melee attacks only (a touch ranged attack on a helpless Dex +0
    creature: 10 − 5 = 5; the same in melee: 1)."""
    c = creature()
    assert ac(c, helpless=True, vs_melee=False) == 5
    assert ac(c, helpless=True, vs_melee=True) == 1
    assert ac(c, helpless=True, vs_melee=True, touch=True) == 1


def test_pfb_help_03_dex_zero_against_all_attacks() -> None:
    """PFB-HELP-03: Dex treated as 0 (mod −5) against every attack: a Dex +3 creature loses its +3 and takes
    −5; a Dex −3 creature is set to −5 too (the term is replaced, not added)."""
    assert ac(creature(abilities={"dex": 16}), helpless=True, vs_melee=False) == 5
    assert ac(creature(abilities={"dex": 4}), helpless=True, vs_melee=False) == 5
    assert ac(creature(abilities={"dex": 16}), helpless=True, flat_footed=True, vs_melee=False) == 5


def test_pfb_help_04_hit_numbers_follow_the_replaced_dex(encounter_factory: Make) -> None:
    """PFB-HELP-04: against the Dex +1 sleeping guard (AC 15), a melee total of 5 hits (helpless AC 5), and
    a total of 5 would miss under the flat-total misreading (AC 6)."""
    enc = encounter_factory([
        {"id": "s", "side": "heroes", "stats": SWORD, "position": [3, 0]},
        {"id": "g", "side": "foes", "stats": _guard(1), "position": [4, 0], "conditions": ["asleep"]},
        {"id": "h", "side": "foes", "stats": _guard(1), "position": [9, 9]},
    ], dice=[4, 3])
    events = enc.act(Attack("g"))
    resolved = next(e for e in events if isinstance(e, ev.AttackResolved))
    assert resolved.hit
    assert "5 = d20 4 + Str 1 vs AC 5" in resolved.lines[-1]


def _dagger_rogue() -> dict[str, Any]:
    return stats("rogue", abilities={"str": 12, "dex": 17}, sneak_attack_dice=1, attacks=[{"weapon": "dagger"}])


@pytest.mark.parametrize("condition", ["asleep", "paralyzed", "bound"])
def test_pfb_help_05_sneak_attack_against_helpless(encounter_factory: Make, condition: str) -> None:
    """PFB-HELP-05 (worked example): a level-1 rogue stabs a sleeping (paralyzed, bound) goblin with a dagger
    (1d4, Str +1) → 1d4 + 1 + 1d6 sneak attack."""
    enc = encounter_factory([
        {"id": "r", "side": "heroes", "stats": _dagger_rogue(), "position": [1, 1]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [2, 1], "conditions": [condition]},
        {"id": "h", "side": "goblins", "stats": "goblin", "position": [9, 9]},
    ], dice=[10, 3, 5])
    events = enc.act(Attack("g"))
    damage = [e for e in events if isinstance(e, ev.Damaged)]
    assert [d.amount for d in damage] == [3 + 1 + 5]
    assert "sneak attack 1d6 5" in damage[0].explanation


def test_pfb_help_05_no_sneak_attack_against_an_alert_target(encounter_factory: Make) -> None:
    """PFB-HELP-05: helplessness is the only trigger this text gives: no sneak die against an awake goblin."""
    enc = encounter_factory([
        {"id": "r", "side": "heroes", "stats": _dagger_rogue(), "position": [1, 1]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [2, 1]},
    ], dice=[15, 3, 5])
    events = enc.act(Attack("g"))
    assert [e.amount for e in events if isinstance(e, ev.Damaged)] == [4]
    assert isinstance(enc.dice, ScriptedDice) and enc.dice.remaining == 1


def test_pfb_help_05_sneak_attack_against_a_dying_target(encounter_factory: Make) -> None:
    """PFB-HELP-05 with PFB-HELP-01: a dying creature (−1 hp, unconscious) is helpless: sneak attack applies."""
    enc = encounter_factory([
        {"id": "r", "side": "heroes", "stats": _dagger_rogue(), "position": [1, 1]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [2, 1], "hp": -1, "starts_down": True},
        {"id": "h", "side": "goblins", "stats": "goblin", "position": [9, 9]},
    ], dice=[10, 1, 1])
    events = enc.act(Attack("g"))
    assert [e.amount for e in events if isinstance(e, ev.Damaged) and e.source == "r"] == [3]
