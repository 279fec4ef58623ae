"""Epic Path attack rolls (EP-ATK): reach and range, the roll and its naturals, the bonus formulas, touch attacks,
attacks that include movement, weapon qualities next to blocked terrain, proficiency."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.ep._util import FIGHTER, ac, armored, assert_illegal, bonus, ep, resolved, ruleset, stats, texts

from d20combat.battlefield.cover import line_of_effect
from d20combat.battlefield.grid import Footprint
from d20combat.encounter import actions as ax
from d20combat.encounter.engine import IllegalAction
from d20combat.rulesets.epic_path.attack import iterative_bonuses
from d20combat.rulesets.epic_path.strikes import ChargeSquare


def weapon(name: str, damage: str = "1d6", **kw: Any) -> dict[str, Any]:
    return {"weapon": {"name": name, "damage": damage, **kw}}


def pair(a_stats: dict[str, Any], t_stats: dict[str, Any], a_pos: tuple[int, int] = (2, 2),
         t_pos: tuple[int, int] = (3, 2), wield: str | None = None, **kw: Any) -> Any:
    a: dict[str, Any] = {"id": "a", "side": "x", "stats": a_stats, "position": list(a_pos)}
    if wield is not None:
        a["wielding"] = wield
    return ep([a, {"id": "t", "side": "y", "stats": t_stats, "position": list(t_pos)}], **kw)


def wielding(enc: Any, attack: str) -> Any:
    """The attacker holds ``attack`` (a copy of the state, for planning only)."""
    from dataclasses import replace
    s = enc.state
    return s.with_combatant(replace(s.get("a"), wielding=attack))


def bonus_with(enc: Any, attack: str) -> int:
    return sum(m.value for m in enc.plan_attack("a", "t", attack, state=wielding(enc, attack)).modifiers)


def plan_with(enc: Any, attack: str) -> Any:
    return enc.plan_attack("a", "t", attack, state=wielding(enc, attack))


def texts_of(enc: Any, action: ax.Action) -> str:
    return "\n".join(e.explain() for e in enc.act(action))


def test_ep_atk_01_only_targets_within_reach_or_range() -> None:
    """EP-ATK-01: a melee weapon reaches only within reach; beyond it the attack is refused and nothing changes."""
    enc = pair(FIGHTER, stats("t"), t_pos=(5, 2))
    assert_illegal(enc, ax.Attack(target="t", attack="club"), "beyond")
    thrower = pair(FIGHTER, stats("t"), t_pos=(5, 2), wield="dagger-thrown", dice=[10, 3])
    assert resolved(thrower.act(ax.Attack(target="t", attack="dagger-thrown"))).hit  # 15 ft: within range


def test_ep_atk_02_reach_weapons_hit_two_squares_away_not_adjacent_unless_inclusive() -> None:
    """EP-ATK-02: a reach weapon hits targets 2 squares away but not adjacent ones, unless it has inclusive
    reach."""
    pike = stats("a", attack_bonus=5, attacks=[weapon("pike", "1d8", reach=True),
                                               weapon("glaive", "1d10", reach=True, qualities=["inclusive-reach"])])
    far = pair(pike, stats("t"), t_pos=(4, 2))
    plan_with(far, "pike")
    near = pair(pike, stats("t"))
    with pytest.raises(IllegalAction, match="too close"):
        plan_with(near, "pike")
    plan_with(near, "glaive")
    rs, a, cs = ruleset(near), near.creature("a"), near.state.get("a")
    assert rs.reactions.threatened(a, cs, Footprint((2, 2), 1), Footprint((4, 2), 1))      # the pike in hand
    assert not rs.reactions.threatened(a, cs, Footprint((2, 2), 1), Footprint((3, 2), 1))


def test_ep_atk_03_melee_never_takes_a_range_penalty() -> None:
    """EP-ATK-03: a reach attack 10 ft away has no range penalty (a ranged one would at the same distance)."""
    pike = stats("a", attack_bonus=5, attacks=[weapon("pike", "1d8", reach=True),
                                               weapon("dart", "1d4", kind="thrown", range_increment_ft=5)])
    enc = pair(pike, stats("t"), t_pos=(4, 2))
    assert bonus_with(enc, "pike") == 5
    assert bonus_with(enc, "dart") == 3


def test_ep_atk_04_a_single_attack_is_a_standard_action() -> None:
    """EP-ATK-04: one attack is a standard action; the move action is left."""
    enc = pair(FIGHTER, stats("t"), dice=[2])
    enc.act(ax.Attack(target="t", attack="club"))
    turn = enc.state.turn
    assert turn is not None and not turn.standard and turn.move


def test_ep_atk_05_06_a_large_foe_is_attacked_at_a_square_in_reach_and_threat_is_the_attackers() -> None:
    """EP-ATK-05: against a Large foe the attacker strikes a square of its space within reach (here its nearest,
    5 ft); EP-ATK-06: which square never changes what the attacker threatens — its weapon and reach alone."""
    enc = pair(FIGHTER, stats("t", size="large"), t_pos=(3, 1))
    assert plan_with(enc, "club").distance_ft == 5
    rs = ruleset(enc)
    cs = enc.state.get("a")
    around = [Footprint((c, r), 1) for c in range(0, 6) for r in range(0, 6)]
    threatened = {f.origin for f in around if rs.reactions.threatened(enc.creature("a"), cs, Footprint((2, 2), 1), f)}
    assert threatened == {(c, r) for c in (1, 2, 3) for r in (1, 2, 3)} - {(2, 2)}


@pytest.mark.parametrize(("face", "hit"), [(15, True), (14, False)])
def test_ep_atk_07_hits_when_the_total_equals_or_beats_ac(face: int, hit: bool) -> None:
    """EP-ATK-07: d20 + bonus ≥ AC hits: 15 + 5 = 20 vs AC 20 hits; 19 misses."""
    enc = pair(FIGHTER, armored("t", 10), dice=[face, 3])
    assert ac(enc, "a", "t", "club") == 20
    assert resolved(enc.act(ax.Attack(target="t", attack="club"))).hit is hit


def test_ep_atk_08_a_natural_1_always_misses() -> None:
    """EP-ATK-08: a natural 1 misses, whatever the bonus (+40 vs AC 10)."""
    enc = pair(stats("a", attack_bonus=40, attacks=[{"weapon": "club"}]), stats("t"), dice=[1])
    r = resolved(enc.act(ax.Attack(target="t", attack="club")))
    assert not r.hit and "natural 1" in "\n".join(r.lines)


def test_ep_atk_09_crit_01_a_natural_20_always_hits_and_threatens() -> None:
    """EP-ATK-09, EP-CRIT-01: a natural 20 hits (+0 vs AC 45) and is a threat: a confirmation roll follows."""
    enc = pair(stats("a", attacks=[{"weapon": "club"}]), armored("t", 35), dice=[20, 5, 4])
    r = resolved(enc.act(ax.Attack(target="t", attack="club")))
    assert r.hit and not r.critical
    assert "critical threat; confirmation" in "\n".join(r.lines)


def test_ep_atk_10_melee_bonus_is_bab_str_and_size() -> None:
    """EP-ATK-10: melee = BAB + Str + size: BAB +6, Str 16 (+3), Small (+1) → +10; Medium → +9."""
    small = stats("a", attack_bonus=6, size="small", abilities={"str": 16}, attacks=[{"weapon": "club"}])
    assert bonus(pair(small, stats("t")), "a", "t", "club") == 10
    medium = stats("a", attack_bonus=6, abilities={"str": 16}, attacks=[{"weapon": "club"}])
    assert bonus(pair(medium, stats("t")), "a", "t", "club") == 9


def test_ep_atk_11_ranged_bonus_is_bab_dex_size_and_range() -> None:
    """EP-ATK-11: ranged = BAB + Dex + size + range penalty: BAB +6, Dex 18 (+4), Large (−1), 2nd increment
    (−2) → +7; and Epic Path has no penalty for shooting into melee nor a 10-ft minimum."""
    archer = stats("a", attack_bonus=6, size="large", abilities={"dex": 18},
                   attacks=[weapon("bow", "1d8", kind="bow", range_increment_ft=20)])
    enc = ep([{"id": "a", "side": "x", "stats": archer, "position": [0, 0]},
              {"id": "t", "side": "y", "stats": stats("t"), "position": [7, 0]},
              {"id": "friend", "side": "x", "stats": stats("f"), "position": [8, 0]}])
    assert plan_with(enc, "bow").distance_ft == 30
    assert bonus_with(enc, "bow") == 7


def test_ep_atk_12_13_iterative_attacks_from_bab() -> None:
    """EP-ATK-12: a second attack at −5 from BAB +6, a third at −10 from +11, a fourth at −15 from +16;
    EP-ATK-13: BAB from different sources stacks before the iteratives are counted."""
    assert iterative_bonuses(5) == (5,)
    assert iterative_bonuses(6) == (6, 1)
    assert iterative_bonuses(11) == (11, 6, 1)
    assert iterative_bonuses(16) == (16, 11, 6, 1)
    assert iterative_bonuses(20) == (20, 15, 10, 5)
    assert iterative_bonuses(4, 2) == (6, 1)
    with pytest.raises(ValueError, match="BAB"):
        iterative_bonuses(-1)


def test_ep_atk_14_ranged_targets_anything_in_range_and_sight_even_adjacent() -> None:
    """EP-ATK-14: a ranged attack reaches any target within maximum range and in line of sight — adjacent too
    (no 10-ft rule) — but not one behind a wall (no line of sight)."""
    enc = pair(FIGHTER, stats("t"))
    assert plan_with(enc, "light-crossbow").distance_ft == 5
    walled = pair(FIGHTER, stats("t"), t_pos=(4, 2), rows=["......", "...#..", "...#..", "...#..", "......"])
    with pytest.raises(IllegalAction, match="total cover"):
        plan_with(walled, "light-crossbow")


@pytest.mark.parametrize(("squares", "penalty"), [(1, 0), (2, 0), (3, -2), (4, -2), (5, -4), (10, -8)])
def test_ep_atk_15_17_thrown_range_penalty(squares: int, penalty: int) -> None:
    """EP-ATK-17: −2 for each full or partial increment beyond the first (dagger, 10 ft: 25 ft → −4);
    EP-ATK-15: a thrown weapon reaches 5 increments (50 ft → −8)."""
    enc = pair(FIGHTER, stats("t"), a_pos=(0, 0), t_pos=(squares, 0), width=14)
    assert bonus_with(enc, "dagger-thrown") == 5 + penalty


def test_ep_atk_15_thrown_maximum_is_five_increments() -> None:
    """EP-ATK-15: 55 ft with a 10-ft dagger is beyond 5 increments: refused."""
    enc = pair(FIGHTER, stats("t"), a_pos=(0, 0), t_pos=(11, 0), width=14)
    with pytest.raises(IllegalAction, match="beyond 5 × 10 ft"):
        plan_with(enc, "dagger-thrown")


def test_ep_atk_16_projectile_maximum_is_ten_increments_or_the_weapons_own() -> None:
    """EP-ATK-16: a projectile weapon reaches 10 increments (5-ft increment: 50 ft at −18, 55 ft refused); a
    weapon with a shorter stated maximum stops there."""
    sling = stats("a", attack_bonus=5, attacks=[weapon("pea", "1d2", kind="sling", range_increment_ft=5),
                                                weapon("toy", "1d2", kind="sling", range_increment_ft=5,
                                                       max_range_ft=20)])
    enc = pair(sling, stats("t"), a_pos=(0, 0), t_pos=(10, 0), width=14)
    assert bonus_with(enc, "pea") == 5 - 18
    with pytest.raises(IllegalAction, match="maximum range 20 ft"):
        plan_with(enc, "toy")
    far = pair(sling, stats("t"), a_pos=(0, 0), t_pos=(11, 0), width=14)
    with pytest.raises(IllegalAction, match="beyond 10 × 5 ft"):
        plan_with(far, "pea")


def test_ep_atk_18_melee_touch_attack_is_a_melee_attack_against_touch_ac() -> None:
    """EP-ATK-18: a melee touch attack adds what a melee attack adds (Str) and targets touch AC."""
    toucher = stats("a", attack_bonus=2, abilities={"str": 14, "dex": 18},
                    attacks=[weapon("shocking-grasp", "1d6", touch=True)])
    target = armored("t", 6, dex=12, natural_armor=2, deflection_bonus=1, feats=["uncanny_dodge"])
    enc = pair(toucher, target)  # uncanny dodge: not flat-footed before its first turn (EP-COND-01/03)
    assert bonus_with(enc, "shocking-grasp") == 4
    assert ac(enc, "a", "t", "shocking-grasp") == 12  # 10 + Dex 1 + deflection 1


def test_ep_atk_19_ranged_touch_attack_is_a_ranged_attack_with_range_penalty() -> None:
    """EP-ATK-19: a ranged touch attack adds Dex and the range penalty, and targets touch AC."""
    caster = stats("a", attack_bonus=2, abilities={"str": 14, "dex": 18},
                   attacks=[weapon("ray", "1d6", kind="thrown", touch=True, range_increment_ft=10)])
    enc = pair(caster, armored("t", 6), a_pos=(0, 0), t_pos=(3, 0))
    assert bonus_with(enc, "ray") == 2 + 4 - 2
    assert ac(enc, "a", "t", "ray") == 10


def charge_setup(rows: list[str], t_pos: tuple[int, int], a_pos: tuple[int, int] = (0, 0), **kw: Any) -> Any:
    return ep([{"id": "a", "side": "x", "stats": FIGHTER, "position": list(a_pos)},
               {"id": "t", "side": "y", "stats": stats("t"), "position": list(t_pos), **kw}], rows=rows)


def test_ep_atk_20_22_a_charge_needs_the_target_in_sight_from_the_start() -> None:
    """EP-ATK-20, EP-ATK-22: an attack that includes movement (a charge) needs line of sight to the target from the
    starting square: around a corner it is refused, in the open it is allowed."""
    rows = [".......", ".#####.", ".......", "......."]
    enc = charge_setup(rows, (3, 3), a_pos=(3, 0))
    assert_illegal(enc, ax.Charge(target="t", attack="club"), "EP-ATK-20")
    open_field = charge_setup(["......"] * 5, (0, 3))
    assert open_field.check(ax.Charge(target="t", attack="club")) is None


def test_ep_atk_22_23_no_charge_at_a_totally_concealed_target_nor_a_guessed_square() -> None:
    """EP-ATK-22, EP-ATK-23: a target with total concealment (invisible) cannot be charged, not even at a guessed
    square."""
    enc = charge_setup(["......"] * 5, (0, 3), conditions=["invisible"])
    assert_illegal(enc, ax.Charge(target="t", attack="club"), "total concealment")


@pytest.mark.parametrize("reading", ["cannot", "can"])
def test_ep_atk_23_option_charge_at_a_guessed_square(reading: str) -> None:
    """EP-ATK-23 (AMBIGUOUS, option ep_movement_attack_at_guess): a charge at the square (0, 3) where the invisible t
    is guessed to be is refused (default: "you [cannot] even attempt it"); under the literal 'can' the charge runs to
    (0, 2) and attacks the square: d20 15 + 5 + charge 2 hits, d% 60 > 50 lets the hit stand, club 3."""
    enc = ep([{"id": "a", "side": "x", "stats": FIGHTER, "position": [0, 0]},
              {"id": "t", "side": "y", "stats": stats("t"), "position": [0, 3], "conditions": ["invisible"]}],
             rows=["......"] * 5, dice=[15, 60, 3], variants={"ep_movement_attack_at_guess": reading})
    guess = ChargeSquare(target="t", square=(0, 3), attack="club")
    if reading == "cannot":
        assert_illegal(enc, guess, r"guessed to be in \(EP-ATK-23")
        return
    assert_illegal(enc, ChargeSquare(target="t", attack="club"), "name the square")
    hp = enc.state.get("t").hp
    events = enc.act(guess)
    assert enc.state.get("a").position == (0, 2)
    assert resolved(events).hit and "charge 2" in texts(events)
    assert enc.state.get("t").hp == hp - 3


def test_ep_atk_21_22_an_aoo_needs_sight_only_while_the_target_is_in_the_square() -> None:
    """EP-ATK-21: an attack of opportunity triggered by the target's movement needs line of sight only to the
    square it leaves: a troll that walks round a corner into a threatened square and out again provokes.
    EP-ATK-22: one with total concealment (invisible) provokes nothing."""
    rows = ["#.####", "#.####", "......", "......"]
    guard = stats("guard", attack_bonus=5, attacks=[{"weapon": "club"}])
    path = ((1, 1), (1, 2), (2, 2), (3, 2), (3, 3))  # round the corner, through (3,2), which the guard threatens
    enc = ep([{"id": "troll", "side": "x", "stats": FIGHTER, "position": [1, 0]},
              {"id": "guard", "side": "y", "stats": guard, "position": [4, 2]}], rows=rows, dice=[1])
    assert not line_of_effect(enc.battle.game_map, Footprint((4, 2), 1), Footprint((1, 0), 1))
    enc.act(ax.Move(path=path))
    assert enc.pending is not None and enc.pending.prompt.reactor == "guard"
    hidden = ep([{"id": "troll", "side": "x", "stats": FIGHTER, "position": [1, 0], "conditions": ["invisible"]},
                 {"id": "guard", "side": "y", "stats": guard, "position": [4, 2]}], rows=rows)
    hidden.act(ax.Move(path=path))
    assert hidden.pending is None and hidden.state.get("troll").position == (3, 3)


WHIPS = stats("a", attack_bonus=5, attacks=[weapon("long-whip", "1d6", qualities=["unwieldy"]),
                                            weapon("great-whip", "1d8", qualities=["cumbersome"])])


def test_ep_atk_25_unwieldy_weapon_cannot_be_used_next_to_blocked_terrain() -> None:
    """EP-ATK-25: a long whip (unwieldy) cannot attack while its wielder is next to blocked terrain (a wall);
    away from it, it can."""
    walled = pair(WHIPS, stats("t"), rows=["......", "..#...", "......", "......"], dice=[10, 3])
    assert_illegal(walled, ax.Attack(target="t", attack="long-whip"), "unwieldy.*EP-ATK-25")
    clear = pair(WHIPS, stats("t"), a_pos=(2, 3), t_pos=(3, 3), rows=["......", "#.....", "......", "......"])
    plan_with(clear, "long-whip")


def test_ep_atk_26_cumbersome_weapon_takes_minus_4_next_to_blocked_terrain() -> None:
    """EP-ATK-26: a great whip (cumbersome) takes −4 next to blocked terrain, nothing in the open."""
    walled = pair(WHIPS, stats("t"), rows=["......", "..#...", "......", "......"])
    assert bonus_with(walled, "great-whip") == 1
    clear = pair(WHIPS, stats("t"))
    assert bonus_with(clear, "great-whip") == 5


def test_ep_atk_27_non_proficiency_costs_4() -> None:
    """EP-ATK-27: attacking with a weapon one is not proficient with takes −4, explained."""
    clumsy = stats("a", attack_bonus=5, attacks=[{"weapon": "club", "proficient": False}])
    enc = pair(clumsy, stats("t"), dice=[10, 3])
    assert bonus_with(enc, "club") == 1
    assert "not proficient 4" in "\n".join(resolved(enc.act(ax.Attack(target="t", attack="club"))).lines)
