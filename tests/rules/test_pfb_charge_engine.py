"""PFB charge at the engine level (PFB-CHG-01..12): the budget, the distance limits, the straight
clear line, the closest square, the +2 attack and the −2 AC.

Squares are ``(column, row)``. Forced dice: the charge attack's d20, [the confirmation d20], then
damage dice. The fighter charges with a longsword: BAB 1 + Str 3 + Weapon Focus 1; AC 17.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tests.conftest import illegal, who

from d20combat.encounter import events as ev
from d20combat.encounter.actions import (
    Action,
    Activity,
    Attack,
    Charge,
    Draw,
    EndTurn,
    MinimumMove,
    Move,
    Step,
)
from d20combat.encounter.engine import Encounter

Make = Callable[..., Encounter]
Square = tuple[int, int]

MISS = 2
"""A d20 face that misses every target here (and is no natural 1)."""


def block(name: str = "x", **kw: Any) -> dict[str, Any]:
    b: dict[str, Any] = {"name": name, "race": "human", "hp": 30, "attacks": [{"weapon": "longsword"}],
                         "wielding": "longsword"}
    b.update(kw)
    return b


def charge_row(enc_factory: Make, goblin_col: int, *, charger: Any = "fighter", dice: tuple[int, ...] = (MISS,),
               **kw: Any) -> Encounter:
    """Charger at (0,0) on a one-row strip, goblin further east on the same row."""
    return enc_factory([who("f", "heroes", charger, (0, 0)), who("g", "goblins", "goblin", (goblin_col, 0))],
                       rows=["." * 20], dice=list(dice), **kw)


def attacks(events: list[ev.Event]) -> list[ev.AttackResolved]:
    return [e for e in events if isinstance(e, ev.AttackResolved)]


def moved(events: list[ev.Event]) -> ev.Moved:
    found = [e for e in events if isinstance(e, ev.Moved)]
    assert len(found) == 1
    return found[0]


def turn(enc: Encounter) -> Any:
    assert enc.state.turn is not None
    return enc.state.turn


# ---------------------------------------------------------------------------- budget: CHG-01
def test_pfb_chg_01_charge_spends_move_and_standard_but_not_the_free_action(encounter_factory: Make) -> None:
    """PFB-CHG-01: a charge uses the move and the standard action (like a full-round action); the free
    action stays available, before or after it."""
    enc = charge_row(encounter_factory, 7)
    events = enc.act(Charge("g"))
    assert [e.cost for e in events if isinstance(e, ev.BudgetSpent)] == ["full-round"]
    t = turn(enc)
    assert (t.standard, t.move, t.free_used) == (False, False, 0)
    enc.act(Activity("speak"))  # free
    assert "standard action is already used" in illegal(enc, Attack("g"))

    enc = charge_row(encounter_factory, 7)
    enc.act(Activity("speak"))
    enc.act(Charge("g"))
    assert enc.state.get("f").position == (6, 0)


def test_pfb_chg_01_no_charge_after_spending_an_action(encounter_factory: Make) -> None:
    """PFB-CHG-01: both actions are needed; after a move action (drawing) or the standard action
    (an attack) there is no charge."""
    enc = charge_row(encounter_factory, 7)
    enc.act(Draw("shortbow"))
    assert "both the standard and the move action" in illegal(enc, Charge("g", attack="longsword"))

    enc = encounter_factory([who("f", "heroes", "fighter", (0, 0)), who("g", "goblins", "goblin", (1, 1)),
                             who("h", "goblins", "goblin", (7, 0))], rows=["." * 10] * 3, dice=[MISS])
    enc.act(Attack("g"))
    assert "both the standard and the move action" in illegal(enc, Charge("h"))


def test_pfb_chg_01_draw_during_the_charge_uses_the_free_action(encounter_factory: Make) -> None:
    """PFB-CHG-01 worked example: with attack bonus +1, the weapon may be drawn as a free action during
    the charge's movement; the charger then has no free action left."""
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 0), wielding="shortbow"),
                             who("g", "goblins", "goblin", (7, 0))], rows=["." * 20], dice=[MISS])
    events = enc.act(Charge("g", draw="longsword"))
    assert attacks(events)[0].attack == "longsword"
    assert turn(enc).free_used == 1
    assert "no free action left" in illegal(enc, Activity("speak"))


def test_pfb_chg_01_no_charge_in_the_surprise_round(encounter_factory: Make) -> None:
    """PFB-CHG-01 with PFB-SURP-05: a charge needs both actions, so it is impossible in the surprise
    round, where only one action is allowed."""
    enc = charge_row(encounter_factory, 7, surprise={"surprised": ["g"]})
    assert enc.state.surprise_round
    assert "only one" in illegal(enc, Charge("g"))
    enc.act(Move(to=(6, 0)))  # a single move action is fine


# ---------------------------------------------------------------------------- movement: CHG-02..09
def test_pfb_chg_02_move_up_to_twice_speed_then_one_attack(encounter_factory: Make) -> None:
    """PFB-CHG-02 worked example: speed 30, goblin at column 13 → end square column 12, 60 ft away:
    legal; the charger moves there and then attacks once."""
    enc = charge_row(encounter_factory, 13)
    events = enc.act(Charge("g"))
    m = moved(events)
    assert (m.path, m.cost_ft, m.mode) == ([[12, 0]], 60, "charge")
    assert enc.state.get("f").position == (12, 0)
    assert len(attacks(events)) == 1


def test_pfb_chg_03_all_movement_before_the_attack(encounter_factory: Make) -> None:
    """PFB-CHG-03: the movement comes before the attack (the events say so), and none may follow it:
    no move, no 5-foot step, no minimum move after the charge."""
    enc = charge_row(encounter_factory, 7)
    events = enc.act(Charge("g"))
    kinds = [type(e) for e in events]
    assert kinds.index(ev.Moved) < kinds.index(ev.AttackResolved)
    assert "no move action left" in illegal(enc, Move(to=(5, 0)))
    assert "PFB-MOVE-02" in illegal(enc, Step((5, 0)))
    illegal(enc, MinimumMove((5, 0)))


@pytest.mark.parametrize("before", [Step((1, 0)), Move(to=(1, 0))])
def test_pfb_chg_03_no_movement_before_the_charge(encounter_factory: Make, before: Action) -> None:
    """PFB-CHG-03: all the movement must be part of the charge; a step or a move first forbids it."""
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 0)), who("g", "goblins", "goblin", (9, 0))],
                            rows=["." * 20], dice=[MISS])
    enc.act(before)
    assert turn(enc).standard
    reason = illegal(enc, Charge("g"))
    assert "PFB-CHG-03" in reason or "PFB-MOVE-03" in reason


@pytest.mark.parametrize(("goblin_col", "legal", "feet"), [(1, False, 0), (2, False, 5), (3, True, 10),
                                                            (4, True, 15)])
def test_pfb_chg_04_at_least_10ft(encounter_factory: Make, goblin_col: int, legal: bool, feet: int) -> None:
    """PFB-CHG-04 worked example: goblin at column 2 → the end square would be column 1, 5 ft < 10:
    illegal. Column 3 → end column 2, 10 ft: legal. An adjacent goblin cannot be charged."""
    enc = charge_row(encounter_factory, goblin_col)
    if legal:
        assert moved(enc.act(Charge("g"))).cost_ft == feet
    else:
        assert "PFB-CHG-04" in illegal(enc, Charge("g"))


@pytest.mark.parametrize(("charger", "goblin_col", "legal"), [
    ("fighter", 13, True), ("fighter", 14, False),     # speed 30: 60 ft is the most
    ("cleric", 9, True), ("cleric", 10, False),        # dwarf, speed 20: 40 ft
    ("wolf", 19, True),                                # speed 50: 90 ft is well inside 100
])
def test_pfb_chg_05_not_more_than_double_speed(encounter_factory: Make, charger: str, goblin_col: int,
                                               legal: bool) -> None:
    """PFB-CHG-05 worked example: goblin at column 14 → 65 ft > 60 → illegal for speed 30; a dwarf
    (speed 20) charges at most 40 ft."""
    enc = charge_row(encounter_factory, goblin_col, charger=charger)
    if legal:
        enc.act(Charge("g"))
        assert enc.state.get("f").position == (goblin_col - 1, 0)
    else:
        assert "PFB-CHG-05" in illegal(enc, Charge("g"))


def test_pfb_chg_06_straight_line_no_detour(encounter_factory: Make) -> None:
    """PFB-CHG-06: the charger moves in a straight line toward the enemy and can't turn: a wall on
    every straight line forbids the charge although an ordinary move could walk around it."""
    rows = [".........", "....#....", "....#....", "....#....", "........."]
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 2)), who("g", "goblins", "goblin", (8, 2))],
                            rows=rows, dice=[MISS])
    assert (5, 0) in enc.move_options("f")  # walking around the wall is possible
    for end in [(7, 1), (7, 2), (7, 3)]:
        reason = illegal(enc, Charge("g", to=end))
        assert "wall" in reason and "PFB-CHG-06" in reason
    open_rows = [r.replace("#", ".") for r in rows]
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 2)), who("g", "goblins", "goblin", (8, 2))],
                            rows=open_rows, dice=[MISS])
    m = moved(enc.act(Charge("g", to=(7, 2))))
    assert m.path == [[7, 2]] and m.cost_ft == 35


def test_pfb_chg_07_line_need_not_follow_the_grid(encounter_factory: Make) -> None:
    """PFB-CHG-07: the straight line runs centre to centre at any angle; its length is counted with
    the 5/10 diagonal rule. From (0,0) to a goblin at (7,3) the closest squares are (6,2) and (6,3),
    35 ft away; the charge reaches either in one straight line."""
    for end in [(6, 2), (6, 3)]:
        enc = encounter_factory([who("f", "heroes", "fighter", (0, 0)), who("g", "goblins", "goblin", (7, 3))],
                                width=10, height=6, dice=[MISS])
        m = moved(enc.act(Charge("g", to=end)))
        assert (tuple(m.path[-1]), m.cost_ft) == (end, 35)


@pytest.mark.parametrize(("rows", "extra", "what"), [
    (["...~....."], [], "difficult terrain"),                               # a bush/rubble square
    (["........."], [("a", "heroes", "rogue", (3, 0))], "creature"),       # an ally (proposed)
    (["........."], [("h", "goblins", "goblin", (3, 0))], "creature"),     # another enemy
    (["....o...."], [], "pit"),
])
def test_pfb_chg_08_path_must_be_clear(encounter_factory: Make, rows: list[str],
                                       extra: list[tuple[str, str, str, Square]], what: str) -> None:
    """PFB-CHG-08 worked example: a difficult-terrain square on the straight line → no charge; an ally
    standing on the line → no charge (proposed: not even an ally); nor a creature or a pit."""
    combatants = [who("f", "heroes", "fighter", (0, 0)), who("g", "goblins", "goblin", (7, 0))]
    combatants += [who(*e) for e in extra]
    enc = encounter_factory(combatants, rows=rows, dice=[MISS])
    reason = illegal(enc, Charge("g"))
    assert what in reason and "PFB-CHG-06..08" in reason


def test_pfb_chg_08_flying_charger_ignores_difficult_terrain(encounter_factory: Make) -> None:
    """PFB-CHG-08 with PFB-MOVE-23: a flying charger over difficult terrain may charge."""
    flier = block("hawkrider", fly_speed_ft=30)
    enc = encounter_factory([who("f", "heroes", flier, (0, 0)), who("g", "goblins", "goblin", (7, 0))],
                            rows=[".~~~~~~.."], dice=[MISS])
    assert moved(enc.act(Charge("g"))).path == [[6, 0]]
    walker = encounter_factory([who("f", "heroes", block("walker"), (0, 0)),
                                who("g", "goblins", "goblin", (7, 0))], rows=[".~~~~~~.."], dice=[MISS])
    assert "difficult terrain" in illegal(walker, Charge("g"))


def test_pfb_chg_09_closest_square_only(encounter_factory: Make) -> None:
    """PFB-CHG-09: the charger ends in the closest square from which it can attack; equally close
    squares are its choice; a farther one is refused."""
    def fresh() -> Encounter:
        return encounter_factory([who("f", "heroes", "fighter", (0, 0)), who("g", "goblins", "goblin", (7, 0))],
                                 width=10, height=3, dice=[MISS])
    assert "PFB-CHG-09" in illegal(fresh(), Charge("g", to=(8, 0)))
    assert "PFB-CHG-09" in illegal(fresh(), Charge("g", to=(7, 1)))   # 35 ft, farther than 30
    assert moved(fresh().act(Charge("g", to=(6, 1)))).cost_ft == 30   # ties with (6,0)
    assert moved(fresh().act(Charge("g"))).path == [[6, 0]]


def test_pfb_chg_09_occupied_closest_square_forbids_the_charge(encounter_factory: Make) -> None:
    """PFB-CHG-09(b): if the closest square is occupied the charge is impossible, even though a farther
    square would do."""
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 1)), who("a", "heroes", "rogue", (6, 1)),
                             who("g", "goblins", "goblin", (7, 1))],
                            rows=["##########", "..........", "##########"], dice=[MISS])
    assert "occupied" in illegal(enc, Charge("g"))


# ---------------------------------------------------------------------------- the attack: CHG-10..12
def test_pfb_chg_10_one_melee_attack_against_that_enemy(encounter_factory: Make) -> None:
    """PFB-CHG-10: the charge ends in a single melee attack on the charged enemy — not a ranged one."""
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 0)), who("g", "goblins", "goblin", (7, 0)),
                             who("h", "goblins", "goblin", (7, 2))], width=10, height=4, dice=[MISS])
    events = enc.act(Charge("g"))
    assert [(a.attacker, a.target, a.attack) for a in attacks(events)] == [("f", "g", "longsword")]
    assert "standard action is already used" in illegal(enc, Attack("g"))

    enc = encounter_factory([who("f", "heroes", "fighter", (0, 0), wielding="shortbow"),
                             who("g", "goblins", "goblin", (7, 0))], rows=["." * 10], dice=[MISS])
    assert "melee" in illegal(enc, Charge("g", attack="shortbow"))
    assert "melee" in illegal(enc, Charge("g"))


def test_pfb_chg_11_plus_2_on_the_attack_roll(encounter_factory: Make) -> None:
    """PFB-CHG-11 worked example: attack bonus +1, Str +3, charge +2 against AC 14; d20 8 → 14 → hit
    (without the +2 it would be 12, a miss)."""
    charger = block("brute", abilities={"str": 17}, attack_bonus=1)
    target = block("target", armor={"name": "a14", "armor_bonus": 4})
    enc = encounter_factory([who("f", "heroes", charger, (0, 0)), who("t", "foes", target, (7, 0))],
                            rows=["." * 10], dice=[8, 3])
    res = attacks(enc.act(Charge("t")))[0]
    assert res.hit
    assert "14 = d20 8 + BAB 1 + Str 3 + charge 2 vs AC 14" in "\n".join(res.lines)

    # The same swing without a charge misses.
    enc = encounter_factory([who("f", "heroes", charger, (0, 0)), who("t", "foes", target, (1, 0))],
                            rows=["." * 10], dice=[8])
    res = attacks(enc.act(Attack("t")))[0]
    assert not res.hit and "12 = d20 8 + BAB 1 + Str 3 vs AC 14" in "\n".join(res.lines)


def test_pfb_chg_11_charge_bonus_applies_to_confirmation(encounter_factory: Make) -> None:
    """PFB-CHG-11: the +2 is one of the "same bonuses" of the confirmation roll: d20 19 threatens with
    a longsword, confirmation d20 10 + 6 = 16 confirms against AC 16 only thanks to the charge."""
    charger = block("brute", abilities={"str": 17}, attack_bonus=1)
    target = block("target", armor={"name": "a16", "armor_bonus": 6})
    enc = encounter_factory([who("f", "heroes", charger, (0, 0)), who("t", "foes", target, (7, 0))],
                            rows=["." * 10], dice=[19, 10, 3, 3])
    res = attacks(enc.act(Charge("t")))[0]
    assert res.hit and res.critical
    assert "16 = d20 10 + BAB 1 + Str 3 + charge 2 vs AC 16" in "\n".join(res.lines)


def test_pfb_chg_12_minus_2_ac_until_the_start_of_the_chargers_next_turn(encounter_factory: Make) -> None:
    """PFB-CHG-12 worked example: the charger's AC 17 becomes 15 for every attacker until the start of
    its next turn, then 17 again."""
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 0)), who("g", "goblins", "goblin", (7, 0)),
                             who("h", "goblins", "goblin", (6, 1))], width=10, height=3, dice=[MISS])

    def ac_vs(attacker: str) -> int:
        return enc.target_ac(enc.plan_attack(attacker, "f"), enc.state)[0]

    enc.act(Charge("g"))
    assert [e.name for e in enc.state.get("f").effects] == ["charging"]
    enc.act(EndTurn())
    assert turn(enc).actor == "g"
    assert ac_vs("g") == 15
    assert "charging" in enc.target_ac(enc.plan_attack("g", "f"), enc.state)[1]
    enc.act(EndTurn())
    assert turn(enc).actor == "h" and ac_vs("h") == 15
    enc.act(EndTurn())
    assert turn(enc).actor == "f" and enc.state.round == 2
    assert enc.state.get("f").effects == ()
    assert ac_vs("g") == 17


def test_pfb_chg_12_penalty_applies_even_when_the_attack_misses(encounter_factory: Make) -> None:
    """PFB-CHG-12 (reading): the −2 comes from the charge itself, whatever its attack does."""
    enc = charge_row(encounter_factory, 7, dice=(1,))  # a natural 1
    events = enc.act(Charge("g"))
    assert not attacks(events)[0].hit
    assert [(e.name, e.ac) for e in enc.state.get("f").effects] == [("charging", -2)]
