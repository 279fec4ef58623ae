"""PFB attack rules: melee and ranged attacks, range, attack rolls (PFB ATK 01–16) and the
natural 1 and 20 (PFB NAT 01–06).

Dice are forced (``dice=[...]``) and consumed in order: d20 attack, [d20 confirmation], damage.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tests.conftest import illegal

from d20combat.dice import ScriptedDice
from d20combat.encounter import events as ev
from d20combat.encounter.actions import Attack, EndTurn, Move, Step
from d20combat.encounter.engine import Encounter
from d20combat.model.catalog import default_catalog
from d20combat.model.creature import AttackOption, compile_creature
from d20combat.model.statblock import StatBlock
from d20combat.rules.attack import RangeCheck, natural_result, range_check
from d20combat.rules.initiative import order_by_initiative
from d20combat.rules.surprise import beats, determine_surprise

Make = Callable[..., Encounter]


# ---------------------------------------------------------------------------- helpers
def option(weapon: str) -> AttackOption:
    creature = compile_creature("x", "x", "a", StatBlock(name="x", hp=1, attacks=({"weapon": weapon},)),  # type: ignore[arg-type]
                                default_catalog())
    return creature.attack(weapon)


def resolve(enc: Encounter, action: Attack) -> tuple[ev.AttackResolved, list[ev.Damaged]]:
    events = enc.act(action)
    resolved = [e for e in events if isinstance(e, ev.AttackResolved)]
    assert len(resolved) == 1
    return resolved[0], [e for e in events if isinstance(e, ev.Damaged)]


def stats(name: str = "x", **kw: Any) -> dict[str, Any]:
    """An inline stat block: Medium, hp 30, all abilities 10 unless given."""
    block: dict[str, Any] = {"name": name, "hp": 30}
    block.update(kw)
    return block


def armored(ac: int, **kw: Any) -> dict[str, Any]:
    """A target with AC exactly ``ac`` (10 + inline armor, Dex 10)."""
    return stats("target", armor={"name": f"armor{ac}", "armor_bonus": ac - 10}, **kw)


# ---------------------------------------------------------------------------- melee: ATK-01/02
def test_pfb_atk_01_one_melee_attack_per_standard_action(encounter_factory: Make) -> None:
    """PFB-ATK-01: a melee attack is a standard action; no second attack in the same turn."""
    enc = encounter_factory([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [2, 1]},
    ], dice=[2])  # a miss: no damage dice
    events = enc.act(Attack("g"))
    spent = [e for e in events if isinstance(e, ev.BudgetSpent)]
    assert [(e.action, e.cost) for e in spent] == [("attack g", "standard")]
    assert enc.state.turn is not None and not enc.state.turn.standard and enc.state.turn.move
    assert "standard action is already used" in illegal(enc, Attack("g"))


@pytest.mark.parametrize(("pos", "legal"), [((2, 1), True), ((2, 2), True), ((0, 0), True),
                                            ((3, 1), False), ((3, 3), False)])
def test_pfb_atk_02_melee_target_must_be_adjacent(encounter_factory: Make, pos: tuple[int, int],
                                                  legal: bool) -> None:
    """PFB-ATK-02: melee needs the target within 5 ft (diagonals included, PFB-GRID-06)."""
    enc = encounter_factory([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": list(pos)},
    ], dice=[2])
    if legal:
        resolved, _ = resolve(enc, Attack("g"))
        assert not resolved.hit
    else:
        assert "reach" in illegal(enc, Attack("g"))


@pytest.mark.parametrize(("pos", "legal"), [((3, 1), True), ((2, 2), True), ((3, 3), False), ((4, 0), False)])
def test_pfb_atk_02_longer_reach_monster(encounter_factory: Make, pos: tuple[int, int], legal: bool) -> None:
    """PFB-ATK-02 with PFB-GRID-07: an ogre (Large, reach 10 ft) at (0,0)–(1,1) reaches (3,1) and the
    adjacent (2,2), but not (3,3) (two diagonals = 15 ft) nor (4,0) (15 ft)."""
    enc = encounter_factory([
        {"id": "o", "side": "giants", "stats": "ogre", "position": [0, 0]},
        {"id": "f", "side": "heroes", "stats": "fighter", "position": list(pos)},
    ], dice=[2])
    if legal:
        resolved, _ = resolve(enc, Attack("f"))
        assert not resolved.hit
    else:
        assert "reach" in illegal(enc, Attack("f"))


# ---------------------------------------------------------------------------- ranged: ATK-03..09
def test_pfb_atk_03_ranged_attack_is_a_standard_action(encounter_factory: Make) -> None:
    """PFB-ATK-03: a ranged attack spends the standard action (and only that)."""
    enc = encounter_factory([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1], "wielding": "shortbow"},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [6, 1]},
    ], dice=[2])
    events = enc.act(Attack("g", "shortbow"))
    assert [(e.cost) for e in events if isinstance(e, ev.BudgetSpent)] == ["standard"]
    assert "standard action is already used" in illegal(enc, Attack("g", "shortbow"))


@pytest.mark.parametrize("weapon", ["dagger-thrown", "shortbow", "light-crossbow", "sling"])
def test_pfb_atk_04_ranged_target_at_least_10_ft(weapon: str) -> None:
    """PFB-ATK-04: 5 ft is too close for any ranged weapon, thrown ones included; 10 ft is fine."""
    assert range_check(5, option(weapon)).problem is not None
    assert range_check(10, option(weapon)) == RangeCheck(0, None)


def test_pfb_atk_04_adjacent_target_illegal_in_the_engine(encounter_factory: Make) -> None:
    """PFB-ATK-04: throwing a dagger at an adjacent goblin is refused, and nothing changes."""
    enc = encounter_factory([
        {"id": "r", "side": "heroes", "stats": "rogue", "position": [1, 1], "wielding": "dagger-thrown"},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [2, 2]},
    ])
    assert "10 ft" in illegal(enc, Attack("g", "dagger-thrown"))


@pytest.mark.parametrize(("distance", "penalty"), [(10, 0), (15, -2), (20, -2), (25, -4), (50, -8), (55, None),
                                                   (5, None)])
def test_pfb_atk_05_dagger_thrown_range_table(distance: int, penalty: int | None) -> None:
    """PFB-ATK-05 (worked example): dagger increment 10 ft, thrown at most 5 increments = 50 ft;
    5 ft illegal (ATK-04), 55 ft illegal; −2 per increment after the first (ATK-11)."""
    rc = range_check(distance, option("dagger-thrown"))
    if penalty is None:
        assert rc.problem is not None
    else:
        assert rc.problem is None
        assert rc.penalty == penalty


@pytest.mark.parametrize(("weapon", "distance", "penalty"), [
    ("shortbow", 600, -18), ("shortbow", 605, None),
    ("light-crossbow", 85, -2), ("light-crossbow", 160, -2), ("light-crossbow", 165, -4),
    ("light-crossbow", 800, -18), ("light-crossbow", 805, None),
    ("heavy-crossbow", 1200, -18), ("heavy-crossbow", 1205, None),
    ("sling", 500, -18), ("sling", 505, None),
    ("javelin", 150, -8), ("javelin", 155, None),
])
def test_pfb_atk_06_projectiles_reach_10_increments(weapon: str, distance: int, penalty: int | None) -> None:
    """PFB-ATK-06: bows, crossbows and slings (slings too, per L132) shoot up to 10 increments;
    thrown weapons (javelin, 30 ft) only 5 (ATK-05)."""
    rc = range_check(distance, option(weapon))
    if penalty is None:
        assert rc.problem is not None
    else:
        assert (rc.problem, rc.penalty) == (None, penalty)


def test_pfb_atk_06_beyond_max_range_illegal_in_the_engine(encounter_factory: Make) -> None:
    """PFB-ATK-05, PFB-ATK-06 in the engine: a thrown dagger at 55 ft is refused; at 50 ft it is −8."""
    enc = encounter_factory([
        {"id": "r", "side": "heroes", "stats": "rogue", "position": [0, 0], "wielding": "dagger-thrown"},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [11, 0]},
        {"id": "h", "side": "goblins", "stats": "goblin", "position": [10, 1]},
    ], width=12, height=3)
    assert "beyond 5 × 10 ft" in illegal(enc, Attack("g", "dagger-thrown"))
    plan = enc.plan_attack("r", "h", "dagger-thrown")
    assert plan.distance_ft == 50
    assert [m.value for m in plan.modifiers if m.source == "range"] == [-8]


def _archer(precise: bool) -> dict[str, Any]:
    return stats("archer", abilities={"dex": 16}, attack_bonus=1, attacks=[{"weapon": "shortbow"}],
                 wielding="shortbow", feats=["precise_shot"] if precise else [])


@pytest.mark.parametrize(("precise", "hit"), [(False, False), (True, True)])
def test_pfb_atk_07_08_shooting_into_melee_worked_example(encounter_factory: Make, precise: bool,
                                                          hit: bool) -> None:
    """PFB-ATK-07, PFB-ATK-08 (worked example): +1 BAB, Dex +3, shortbow at 70 ft (−2), the target adjacent to
    the party's fighter (−4), AC 13, d20 14 → 12 → miss; with Precise Shot no −4 → 16 → hit."""
    enc = encounter_factory([
        {"id": "a", "side": "heroes", "stats": _archer(precise), "position": [0, 0]},
        {"id": "t", "side": "goblins", "stats": armored(13), "position": [14, 0]},
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [15, 0]},
    ], width=17, height=2, dice=[14, 3])
    plan = enc.plan_attack("a", "t")
    assert plan.distance_ft == 70
    assert enc.target_ac(plan, enc.state)[0] == 13  # the fighter beyond the target gives it no cover
    into_melee = [m.value for m in plan.modifiers if m.source == "into melee"]
    assert into_melee == ([] if precise else [-4])
    resolved, _ = resolve(enc, Attack("t"))
    assert resolved.hit is hit
    assert ("12 = d20 14" if not precise else "16 = d20 14") in resolved.lines[-1]


def test_pfb_atk_07_no_penalty_without_an_adjacent_ally(encounter_factory: Make) -> None:
    """PFB-ATK-07: an ally 10 ft from the target does not cause the −4; an enemy next to it neither."""
    enc = encounter_factory([
        {"id": "a", "side": "heroes", "stats": _archer(False), "position": [0, 0]},
        {"id": "t", "side": "goblins", "stats": armored(13), "position": [8, 0]},
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [10, 0]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [8, 1]},
    ], width=12, height=2)
    assert not [m for m in enc.plan_attack("a", "t").modifiers if m.source == "into melee"]


@pytest.mark.parametrize(("ignore_helpless", "penalty"), [(False, [-4]), (True, [])])
def test_pfb_atk_07_helpless_ally_variant(encounter_factory: Make, ignore_helpless: bool,
                                          penalty: list[int]) -> None:
    """PFB-ATK-07(a): a sleeping ally next to the target counts (literal default); with
    ``pfb_into_melee_ignores_helpless_allies`` it does not."""
    enc = encounter_factory([
        {"id": "a", "side": "heroes", "stats": _archer(False), "position": [0, 0]},
        {"id": "t", "side": "goblins", "stats": armored(13), "position": [8, 0]},
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [9, 0], "conditions": ["asleep"]},
    ], width=12, height=2, variants={"pfb_into_melee_ignores_helpless_allies": ignore_helpless})
    assert [m.value for m in enc.plan_attack("a", "t").modifiers if m.source == "into melee"] == penalty


def test_pfb_atk_07_ranged_touch_spell_into_melee(encounter_factory: Make) -> None:
    """PFB-ATK-07(b): the −4 applies to ranged touch spells too (a caster without Precise Shot)."""
    caster = stats("caster", abilities={"dex": 14}, attacks=[{"weapon": "ray-of-frost"}])
    enc = encounter_factory([
        {"id": "w", "side": "heroes", "stats": caster, "position": [0, 0]},
        {"id": "t", "side": "goblins", "stats": armored(13), "position": [4, 0]},
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [5, 0]},
    ], width=8, height=2)
    assert [m.value for m in enc.plan_attack("w", "t").modifiers if m.source == "into melee"] == [-4]


def test_pfb_atk_09_no_ranged_attack_with_any_enemy_within_10_ft(encounter_factory: Make) -> None:
    """PFB-ATK-09 (worked example): a goblin 5 ft away forbids shooting at a target 40 ft away; after a
    5-foot step the goblin is 10 ft away and the shot is allowed."""
    enc = encounter_factory([
        {"id": "a", "side": "heroes", "stats": _archer(False), "position": [2, 0]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [1, 0]},
        {"id": "t", "side": "goblins", "stats": armored(13), "position": [10, 0]},
    ], width=14, height=3, dice=[2])
    message = illegal(enc, Attack("t"))
    assert "PFB-ATK-09" in message and "g is 5 ft away" in message
    enc.act(Step((3, 0)))
    plan = enc.plan_attack("a", "t")
    assert plan.distance_ft == 35
    resolved, _ = resolve(enc, Attack("t"))
    assert not resolved.hit


@pytest.mark.parametrize(("pos", "legal"), [((1, 1), False), ((0, 2), True), ((2, 2), True)])
def test_pfb_atk_09_diagonal_measure(encounter_factory: Make, pos: tuple[int, int], legal: bool) -> None:
    """PFB-ATK-09 (worked example): an enemy one diagonal away is 5 ft → no shooting; two diagonals
    away it is 15 ft → allowed (and two squares straight = 10 ft → allowed)."""
    enc = encounter_factory([
        {"id": "a", "side": "heroes", "stats": _archer(False), "position": [0, 0]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": list(pos)},
        {"id": "t", "side": "goblins", "stats": armored(13), "position": [8, 0]},
    ], width=10, height=4)
    if legal:
        enc.plan_attack("a", "t")
    else:
        assert "PFB-ATK-09" in illegal(enc, Attack("t"))


@pytest.mark.parametrize(("ignore_helpless", "legal"), [(False, False), (True, True)])
def test_pfb_atk_09_helpless_enemy_variant(encounter_factory: Make, ignore_helpless: bool, legal: bool) -> None:
    """PFB-ATK-09(a): a paralyzed enemy next to the archer still forbids ranged attacks (literal
    default); ``pfb_ranged_min_range_ignores_helpless`` leaves it out."""
    enc = encounter_factory([
        {"id": "a", "side": "heroes", "stats": _archer(False), "position": [0, 0]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [1, 0], "conditions": ["paralyzed"]},
        {"id": "t", "side": "goblins", "stats": armored(13), "position": [8, 0]},
    ], width=10, height=2, variants={"pfb_ranged_min_range_ignores_helpless": ignore_helpless})
    if legal:
        enc.plan_attack("a", "t")
    else:
        assert "PFB-ATK-09" in illegal(enc, Attack("t"))


def test_pfb_atk_09_dead_enemies_do_not_count(encounter_factory: Make) -> None:
    """PFB-ATK-09(a): only creatures that are not dead count ("every enemy … that is not dead")."""
    enc = encounter_factory([
        {"id": "a", "side": "heroes", "stats": _archer(False), "position": [0, 0]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [1, 0], "hp": -12, "starts_down": True},
        {"id": "t", "side": "goblins", "stats": armored(13), "position": [8, 0]},
    ], width=10, height=2)
    assert enc.is_dead("g")
    enc.plan_attack("a", "t")


def test_pfb_atk_09_spells_are_not_restricted(encounter_factory: Make) -> None:
    """PFB-ATK-09(b): the rule covers ranged weapons only: the wizard's ray may target a goblin 20 ft
    away although another goblin stands next to him; his crossbow may not."""
    enc = encounter_factory([
        {"id": "w", "side": "heroes", "stats": "wizard", "position": [0, 0]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [1, 0]},
        {"id": "t", "side": "goblins", "stats": "goblin", "position": [4, 0]},
    ], width=6, height=2)
    enc.plan_attack("w", "t", "ray-of-frost")
    enc2 = encounter_factory([
        {"id": "w", "side": "heroes", "stats": "wizard", "position": [0, 0], "wielding": "light-crossbow"},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [1, 0]},
        {"id": "t", "side": "goblins", "stats": "goblin", "position": [4, 0]},
    ], width=6, height=2)
    assert "PFB-ATK-09" in illegal(enc2, Attack("t", "light-crossbow"))


# ---------------------------------------------------------------------------- increments: ATK-10/11
@pytest.mark.parametrize(("distance", "penalty"), [(10, 0), (60, 0), (65, -2), (120, -2), (125, -4),
                                                   (180, -4), (185, -6)])
def test_pfb_atk_10_11_shortbow_increments(distance: int, penalty: int) -> None:
    """PFB-ATK-10, PFB-ATK-11 (text, L164): shortbow 60 ft: normal up to 60, −2 from 65–120, −4 from 125–180."""
    rc = range_check(distance, option("shortbow"))
    assert (rc.problem, rc.penalty) == (None, penalty)


@pytest.mark.parametrize(("col", "row", "distance", "penalty"), [
    (12, 0, 60, 0), (13, 0, 65, -2), (8, 8, 60, 0), (9, 9, 65, -2),
])
def test_pfb_atk_11_range_penalty_in_the_engine(encounter_factory: Make, col: int, row: int, distance: int,
                                                penalty: int) -> None:
    """PFB-ATK-10, PFB-ATK-11: the engine measures range with the 5/10 diagonal rule and applies −2 per started
    increment: 8 diagonals = 60 ft → no penalty, 9 diagonals = 65 ft → −2; the roll shows it."""
    enc = encounter_factory([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [0, 0], "wielding": "shortbow"},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [col, row]},
    ], width=14, height=10, dice=[10])
    plan = enc.plan_attack("f", "g", "shortbow")
    assert plan.distance_ft == distance
    assert sum(m.value for m in plan.modifiers if m.source == "range") == penalty
    resolved, _ = resolve(enc, Attack("g", "shortbow"))
    expected_total = 10 + 1 + 1 + penalty  # d20 + BAB + Dex (13 → +1) + range
    assert f"{expected_total} = d20 10" in resolved.lines[-1]


# ---------------------------------------------------------------------------- attack rolls: ATK-12..16
@pytest.mark.parametrize(("face", "hit"), [(11, True), (10, False)])
def test_pfb_atk_12_15_melee_roll_worked_example(encounter_factory: Make, face: int, hit: bool) -> None:
    """PFB-ATK-12, PFB-ATK-15 (worked example): BAB +1, Str +3, Weapon Focus +1 vs AC 16: d20 11 → 16 → hit
    (equal counts), d20 10 → 15 → miss."""
    enc = encounter_factory([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "t", "side": "goblins", "stats": armored(16), "position": [2, 1]},
    ], dice=[face, 4])
    plan = enc.plan_attack("f", "t")
    assert [(m.source, m.value) for m in plan.modifiers] == [("BAB", 1), ("Str", 3), ("Weapon Focus", 1)]
    resolved, damage = resolve(enc, Attack("t"))
    assert resolved.hit is hit
    assert f"{face + 5} = d20 {face} + BAB 1 + Str 3 + Weapon Focus 1 vs AC 16" in resolved.lines[-1]
    assert len(damage) == (1 if hit else 0)


def test_pfb_atk_12_attack_bonus_excludes_ability_mods(encounter_factory: Make) -> None:
    """PFB-ATK-12: "attack bonus" is the sheet's base value; Str is added once, not folded in."""
    brute = stats("brute", abilities={"str": 18, "dex": 6}, attack_bonus=2, attacks=[{"weapon": "club"}])
    enc = encounter_factory([
        {"id": "b", "side": "heroes", "stats": brute, "position": [1, 1]},
        {"id": "t", "side": "goblins", "stats": armored(20), "position": [2, 1]},
    ])
    plan = enc.plan_attack("b", "t")
    assert sum(m.value for m in plan.modifiers) == 2 + 4


def test_pfb_atk_13_other_modifiers_and_totals_above_20(encounter_factory: Make) -> None:
    """PFB-ATK-13: other modifiers (Weapon Focus +1, an enhancement +1) add to the roll, and a total
    above 20 is kept as is (no cap): d20 18 + BAB 8 + Str 4 + WF 1 + enh 1 = 32 hits AC 32."""
    hero = stats("hero", abilities={"str": 18}, attack_bonus=8,
                 attacks=[{"weapon": {"name": "blade", "damage": "1d8", "enhancement": 1}, "bonus": 1}])
    enc = encounter_factory([
        {"id": "h", "side": "heroes", "stats": hero, "position": [1, 1]},
        {"id": "t", "side": "goblins", "stats": armored(32), "position": [2, 1]},
    ], dice=[18, 1])
    resolved, _ = resolve(enc, Attack("t"))
    assert resolved.hit
    assert "32 = d20 18 + BAB 8 + Str 4 + Weapon Focus 1 + enhancement 1 vs AC 32" in resolved.lines[-1]


def test_pfb_atk_13_penalties_are_other_modifiers_too(encounter_factory: Make) -> None:
    """PFB-ATK-13: the −4 of PFB-ATK-07 enters the roll like any other modifier."""
    enc = encounter_factory([
        {"id": "a", "side": "heroes", "stats": _archer(False), "position": [0, 0]},
        {"id": "t", "side": "goblins", "stats": armored(13), "position": [4, 0]},
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [5, 0]},
    ], width=8, height=2, dice=[16, 2])
    resolved, _ = resolve(enc, Attack("t"))
    assert "16 = d20 16 + BAB 1 + Dex 3 − into melee 4 vs AC 13" in resolved.lines[-1]
    assert resolved.hit


@pytest.mark.parametrize("weapon", ["shortbow", "dagger-thrown"])
def test_pfb_atk_14_ranged_and_thrown_use_dex(encounter_factory: Make, weapon: str) -> None:
    """PFB-ATK-14: ranged roll = d20 + attack bonus + Dex; a thrown weapon uses Dex, not Str."""
    thrower = stats("thrower", abilities={"str": 6, "dex": 16}, attack_bonus=1,
                    attacks=[{"weapon": weapon}], wielding=weapon)
    enc = encounter_factory([
        {"id": "a", "side": "heroes", "stats": thrower, "position": [0, 0]},
        {"id": "t", "side": "goblins", "stats": armored(14), "position": [2, 0]},
    ], width=5, height=2, dice=[10, 3])
    plan = enc.plan_attack("a", "t")
    assert [(m.source, m.value) for m in plan.modifiers] == [("BAB", 1), ("Dex", 3)]
    resolved, _ = resolve(enc, Attack("t"))
    assert resolved.hit and "14 = d20 10 + BAB 1 + Dex 3 vs AC 14" in resolved.lines[-1]


def test_pfb_atk_15_a_miss_rolls_no_damage(encounter_factory: Make) -> None:
    """PFB-ATK-15: only a hit (total ≥ AC) rolls damage: a miss consumes no damage die and deals none."""
    enc = encounter_factory([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "t", "side": "goblins", "stats": armored(16), "position": [2, 1]},
    ], dice=[10, 8])
    resolved, damage = resolve(enc, Attack("t"))
    assert not resolved.hit and not damage
    assert isinstance(enc.dice, ScriptedDice) and enc.dice.remaining == 1
    assert enc.state.get("t").hp == 30


def test_pfb_atk_16_ranged_touch_adds_dex_like_a_ranged_attack(encounter_factory: Make) -> None:
    """PFB-ATK-16 (worked example): a ranged touch attack with Dex +3 → d20 + 3 against touch AC."""
    caster = stats("caster", abilities={"dex": 16, "str": 8}, attacks=[{"weapon": "ray-of-frost"}])
    target = stats("target", abilities={"dex": 12}, armor="chain-shirt", shield="heavy-wooden-shield")
    enc = encounter_factory([
        {"id": "w", "side": "heroes", "stats": caster, "position": [0, 0]},
        {"id": "t", "side": "goblins", "stats": target, "position": [3, 0]},
    ], width=5, height=2, dice=[8, 2])
    plan = enc.plan_attack("w", "t")
    assert {(m.source, m.value) for m in plan.modifiers if m.value} == {("Dex", 3)}
    resolved, _ = resolve(enc, Attack("t"))
    assert resolved.hit
    assert "11 = d20 8 + Dex 3 vs AC 11 (10 + Dex 1)" in resolved.lines[-1]


def test_pfb_atk_16_melee_touch_adds_str_like_a_melee_attack(encounter_factory: Make) -> None:
    """PFB-ATK-16 (worked example): a melee touch attack by a caster with attack bonus +0 and Str −1
    → d20 − 1 against the target's touch AC (armor and shield ignored, PFB-AC-06)."""
    toucher = stats("toucher", abilities={"str": 8, "dex": 16},
                    attacks=[{"weapon": {"name": "shocking-touch", "damage": "1d6", "kind": "melee",
                                         "touch": True}}])
    target = stats("target", abilities={"dex": 12}, armor="chain-shirt", shield="heavy-wooden-shield")
    enc = encounter_factory([
        {"id": "w", "side": "heroes", "stats": toucher, "position": [0, 0]},
        {"id": "t", "side": "goblins", "stats": target, "position": [1, 0]},
    ], width=4, height=2, dice=[12, 3])
    plan = enc.plan_attack("w", "t")
    assert sum(m.value for m in plan.modifiers) == -1
    assert enc.target_ac(plan, enc.state)[0] == 11
    resolved, _ = resolve(enc, Attack("t"))
    assert resolved.hit and "11 = d20 12 − Str 1 vs AC 11" in resolved.lines[-1]


# ---------------------------------------------------------------------------- NAT-01..06
def test_pfb_nat_01_natural_faces() -> None:
    """PFB-NAT-01: only a 1 on the die is a natural 1 and only a 20 a natural 20."""
    assert natural_result(20) == (True, False)
    assert natural_result(1) == (False, True)
    for face in range(2, 20):
        assert natural_result(face) == (False, False)


def test_pfb_nat_02_19_plus_1_is_not_a_natural_20(encounter_factory: Make) -> None:
    """PFB-NAT-02 (worked example): d20 19 + 1 = 20 is no natural 20: against AC 21 it misses, and with a
    20-only weapon (club) a hit on 19 is no threat (no confirmation die is rolled)."""
    hitter = stats("hitter", attack_bonus=1, attacks=[{"weapon": "club"}])
    enc = encounter_factory([
        {"id": "h", "side": "heroes", "stats": hitter, "position": [1, 1]},
        {"id": "t", "side": "goblins", "stats": armored(21), "position": [2, 1]},
    ], dice=[19])
    resolved, _ = resolve(enc, Attack("t"))
    assert not resolved.hit and not resolved.critical
    enc = encounter_factory([
        {"id": "h", "side": "heroes", "stats": hitter, "position": [1, 1]},
        {"id": "t", "side": "goblins", "stats": armored(20), "position": [2, 1]},
    ], dice=[19, 4])  # d20, then straight to damage: no confirmation roll
    resolved, damage = resolve(enc, Attack("t"))
    assert resolved.hit and not resolved.critical
    assert not any("critical threat" in line for line in resolved.lines)
    assert [d.amount for d in damage] == [4]


def test_pfb_nat_03_natural_20_always_hits(encounter_factory: Make) -> None:
    """PFB-NAT-03 (worked example): attack +0 against AC 25, natural 20 → hit (and a threat, CRIT-01)."""
    enc = encounter_factory([
        {"id": "h", "side": "heroes", "stats": stats("h", attacks=[{"weapon": "club"}]), "position": [1, 1]},
        {"id": "t", "side": "goblins", "stats": armored(25), "position": [2, 1]},
    ], dice=[20, 2, 5])
    resolved, damage = resolve(enc, Attack("t"))
    assert resolved.hit and not resolved.critical
    assert "(natural 20)" in resolved.lines[1]
    assert [d.amount for d in damage] == [5]


def test_pfb_nat_04_natural_1_always_misses(encounter_factory: Make) -> None:
    """PFB-NAT-04 (worked example): attack +12 against AC 13, natural 1 → 13 ≥ 13 but a miss."""
    hero = stats("hero", attack_bonus=12, attacks=[{"weapon": "club"}])
    enc = encounter_factory([
        {"id": "h", "side": "heroes", "stats": hero, "position": [1, 1]},
        {"id": "t", "side": "goblins", "stats": armored(13), "position": [2, 1]},
    ], dice=[1])
    resolved, damage = resolve(enc, Attack("t"))
    assert not resolved.hit and not damage
    assert "(natural 1)" in resolved.lines[-1]


@pytest.mark.parametrize(("face", "expected"), [(20, (True, False)), (1, (False, True)), (19, (False, False))])
def test_pfb_nat_03_04_saving_throws_share_the_natural_rule(face: int, expected: tuple[bool, bool]) -> None:
    """PFB-NAT-03, PFB-NAT-04 (worked example): Reflex +1 vs DC 25 with a natural 20 succeeds; Will +10 vs DC 5 with a
    natural 1 fails. The engine has no saves yet; ``natural_result`` is the shared rule for attacks and saves."""
    auto_success, auto_fail = natural_result(face)
    assert (auto_success, auto_fail) == expected
    reflex = auto_success or (not auto_fail and face + 1 >= 25)
    will = auto_success or (not auto_fail and face + 10 >= 5)
    if face == 20:
        assert reflex
    if face == 1:
        assert not will


def test_pfb_nat_05_opposed_skill_checks_have_no_automatic_results() -> None:
    """PFB-NAT-05, PFB-NAT-06 (worked example): Perception +10 with a natural 1 (11) still beats Stealth 5; a
    natural 20 Stealth with +0 (20) still loses to Perception 25. Only totals are compared."""
    assert beats(1 + 10, 10, 5, 0) is True
    assert beats(15 + 10, 10, 20 + 0, 0) is True


def _sneak_scenario(encounter_factory: Make, faces: list[int]) -> Encounter:
    watcher = stats("watcher", skills={"perception": 10}, attacks=[{"weapon": "club"}])
    sneak = stats("sneak", skills={"stealth": 0}, attacks=[{"weapon": "club"}])
    return encounter_factory([
        {"id": "w", "side": "heroes", "stats": watcher, "position": [0, 0]},
        {"id": "s", "side": "goblins", "stats": sneak, "position": [5, 5], "sneaky": True},
    ], dice=faces, surprise=None)


def test_pfb_nat_05_surprise_checks_in_the_engine(encounter_factory: Make) -> None:
    """PFB-NAT-05: in the engine's surprise check a natural 1 on Perception (+10 → 11) beats Stealth 5,
    and a natural 20 on Stealth (+0 → 20) does not beat Perception 25: nobody is surprised either way."""
    enc = _sneak_scenario(encounter_factory, [5, 1])  # Stealth d20 5, Perception d20 1
    assert enc.state.surprised == frozenset()
    enc = _sneak_scenario(encounter_factory, [20, 15])  # Stealth natural 20, Perception 15 + 10
    assert enc.state.surprised == frozenset()
    enc = _sneak_scenario(encounter_factory, [20, 9])  # 20 vs 19: the sneak wins on the total
    assert enc.state.surprised == frozenset({"w"})


def test_pfb_nat_05_initiative_natural_20_is_just_a_number(encounter_factory: Make) -> None:
    """PFB-NAT-05: initiative is an ability check: Dex −1 rolling a natural 20 (19) acts after +10 rolling
    10 (20); a +12 rolling a natural 1 (13) still acts before +0 rolling 12."""
    order, _ = order_by_initiative([("slow", 20 - 1), ("quick", 10 + 10)], ScriptedDice([]))
    assert order == ["quick", "slow"]
    slow = stats("slow", abilities={"dex": 8}, attacks=[{"weapon": "club"}])
    quick = stats("quick", init_modifier=10, attacks=[{"weapon": "club"}])
    enc = encounter_factory([
        {"id": "slow", "side": "a", "stats": slow, "position": [0, 0], "initiative": None},
        {"id": "quick", "side": "b", "stats": quick, "position": [5, 5], "initiative": None},
    ], dice=[20, 10])
    assert enc.state.order == ("quick", "slow")


def test_pfb_nat_06_no_automatic_success_at_an_impossible_check() -> None:
    """PFB-NAT-06: a natural 20 cannot win an impossible opposed check (Perception +0 → 20 vs Stealth 30)
    and a natural 1 cannot lose a trivially easy one (Perception +30 → 31 vs Stealth 2)."""
    assert beats(20 + 0, 0, 30, 10) is False
    assert beats(1 + 30, 30, 2, 0) is True
    sneak = compile_creature("s", "s", "b", StatBlock(name="s", hp=1, skills={"stealth": 30}), default_catalog())
    watcher = compile_creature("w", "w", "a", StatBlock(name="w", hp=1, skills={"perception": 0}),
                               default_catalog())
    surprised, _ = determine_surprise([sneak], [watcher], ScriptedDice([1, 20]))
    assert surprised == ["w"]  # Stealth 31 vs Perception 20 (natural 20): no automatic success


def test_pfb_atk_01_move_then_attack_any_order(encounter_factory: Make) -> None:
    """PFB-ATK-01: the attack uses only the standard action: moving first and attacking after is legal,
    and the turn can then only end."""
    enc = encounter_factory([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [0, 1]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [4, 1]},
    ], dice=[2])
    enc.act(Move(to=(3, 1)))
    resolved, _ = resolve(enc, Attack("g"))
    assert not resolved.hit
    assert enc.check(Attack("g")) is not None
    enc.act(EndTurn())
