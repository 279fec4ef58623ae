"""PFB movement at the engine level: the 5-foot step, speeds, move actions and the double move,
creatures in the way, diagonals, difficult terrain, minimum movement (PFB-MOVE-01..27) and the
grid, space and reach of creatures (PFB-GRID-01..07).

Squares are ``(column, row)``. The first listed combatant acts first; an awake enemy is always
kept on the map so the encounter does not end at once.
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
    StandUp,
    Step,
)
from d20combat.encounter.engine import Encounter

Make = Callable[..., Encounter]
Square = tuple[int, int]


# ---------------------------------------------------------------------------- helpers
def block(name: str = "x", **kw: Any) -> dict[str, Any]:
    """An inline Medium human with a longsword in hand, hp 20, abilities 10."""
    b: dict[str, Any] = {"name": name, "race": "human", "hp": 20, "attacks": [{"weapon": "longsword"}],
                         "wielding": "longsword"}
    b.update(kw)
    return b


def far_goblin() -> dict[str, Any]:
    """An awake enemy out of the way on a 16×16 map."""
    return who("g", "goblins", "goblin", (15, 15))


def moved(events: list[ev.Event]) -> ev.Moved:
    found = [e for e in events if isinstance(e, ev.Moved)]
    assert len(found) == 1
    return found[0]


def spent(events: list[ev.Event]) -> list[str]:
    return [e.cost for e in events if isinstance(e, ev.BudgetSpent)]


def pos(enc: Encounter, cid: str) -> Square:
    return enc.state.get(cid).position


def turn(enc: Encounter) -> Any:
    assert enc.state.turn is not None
    return enc.state.turn


def farthest_in_row(enc: Encounter, cid: str) -> int:
    """How many squares east along its row one move action takes ``cid`` (open map)."""
    c0, r0 = pos(enc, cid)
    return max(c for (c, r) in enc.move_options(cid) if r == r0) - c0


# ---------------------------------------------------------------------------- 5-foot step: MOVE-01..05
@pytest.mark.parametrize("delta", [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)])
def test_pfb_move_01_step_one_square_in_any_direction_costs_no_action(encounter_factory: Make,
                                                                      delta: Square) -> None:
    """PFB-MOVE-01: a 5-foot step moves one square in any of the 8 directions. Default reading: it
    spends neither the move, the standard nor the free action."""
    enc = encounter_factory([who("f", "heroes", "fighter", (5, 5)), far_goblin()], width=16, height=16)
    to = (5 + delta[0], 5 + delta[1])
    events = enc.act(Step(to))
    assert pos(enc, "f") == to
    assert moved(events).cost_ft == 5 and moved(events).mode == "step"
    assert spent(events) == ["none"]
    t = turn(enc)
    assert (t.standard, t.move, t.free_used, t.stepped) == (True, True, 0, True)
    assert enc.check(Activity("speak")) is None  # the free action is still there


def test_pfb_move_01_step_not_two_squares(encounter_factory: Make) -> None:
    """PFB-MOVE-01: exactly one square (5 ft), never two."""
    enc = encounter_factory([who("f", "heroes", "fighter", (5, 5)), far_goblin()], width=16, height=16)
    assert "not one square away" in illegal(enc, Step((7, 5)))
    assert "not one square away" in illegal(enc, Step((5, 5)))


def test_pfb_move_01_variant_step_uses_free_action(encounter_factory: Make) -> None:
    """PFB-MOVE-01, variant ``pfb_step_uses_free_action``: the step spends the turn's free action,
    so it can't follow another free action and no free action follows it."""
    combatants = [who("f", "heroes", "fighter", (5, 5)), far_goblin()]
    enc = encounter_factory(combatants, width=16, height=16, variants={"pfb_step_uses_free_action": True})
    events = enc.act(Step((6, 5)))
    assert spent(events) == ["free"] and turn(enc).free_used == 1
    assert "no free action left" in illegal(enc, Activity("speak"))

    enc = encounter_factory([who("f", "heroes", "fighter", (5, 5)), who("g", "goblins", "goblin", (15, 15))],
                            width=16, height=16, variants={"pfb_step_uses_free_action": True})
    enc.act(Activity("speak"))
    assert "no free action left" in illegal(enc, Step((6, 5)))

    # Default: speaking and stepping go together in either order.
    enc = encounter_factory([who("f", "heroes", "fighter", (5, 5)), who("g", "goblins", "goblin", (15, 15))],
                            width=16, height=16)
    enc.act(Activity("speak"))
    enc.act(Step((6, 5)))
    assert pos(enc, "f") == (6, 5)


@pytest.mark.parametrize("moves", [
    [Move(to=(7, 5))],                      # the move action spent moving
    [Attack("g"), Move(to=(7, 5))],         # a move action after the standard action
    [Draw("shortbow"), Move(to=(7, 5))],    # the standard action spent as a move
])
def test_pfb_move_02_no_step_after_moving(encounter_factory: Make, moves: list[Action]) -> None:
    """PFB-MOVE-02: no 5-foot step in a turn in which the move action or the standard action was used
    to move — it cannot add 5 ft to other movement."""
    enc = encounter_factory([who("f", "heroes", "fighter", (5, 5)), who("g", "goblins", "goblin", (4, 5))],
                            width=16, height=16, dice=[2])
    for m in moves:
        enc.act(m)
    assert turn(enc).moved
    assert "PFB-MOVE-02" in illegal(enc, Step((8, 5)))


def test_pfb_move_02_stand_up_then_step_then_attack_is_legal(encounter_factory: Make) -> None:
    """PFB-MOVE-02 (worked example): a move action spent on something other than moving — standing up
    from prone — does not forbid the step: stand up + 5-foot step + attack is legal."""
    enc = encounter_factory([who("f", "heroes", "fighter", (1, 1), conditions=["prone"]),
                             who("g", "goblins", "goblin", (3, 1))], dice=[2])
    assert "prone" in illegal(enc, Step((2, 1)))  # still lying down
    assert spent(enc.act(StandUp())) == ["move"]
    enc.act(Step((2, 1)))
    events = enc.act(Attack("g"))
    assert any(isinstance(e, ev.AttackResolved) for e in events)
    assert pos(enc, "f") == (2, 1)


def test_pfb_move_02_draw_then_step(encounter_factory: Make) -> None:
    """PFB-MOVE-02: drawing a weapon (a move action that is not movement) still allows the step."""
    enc = encounter_factory([who("f", "heroes", "fighter", (5, 5)), far_goblin()], width=16, height=16)
    enc.act(Draw("shortbow"))
    enc.act(Step((6, 6)))
    assert pos(enc, "f") == (6, 6)


@pytest.mark.parametrize("after", [Move(to=(8, 5)), MinimumMove((7, 6)), Step((7, 6)), Charge("g")])
def test_pfb_move_03_step_is_the_only_movement_that_round(encounter_factory: Make, after: Action) -> None:
    """PFB-MOVE-03: after a 5-foot step no other movement that round: no move, no minimum move, no
    second step, no charge — though the move and standard actions are still unspent."""
    enc = encounter_factory([who("f", "heroes", "fighter", (5, 5)), who("g", "goblins", "goblin", (6, 10))],
                            width=16, height=16)
    enc.act(Step((6, 5)))
    assert turn(enc).move and turn(enc).standard
    assert "PFB-MOVE-03" in illegal(enc, after)
    # The unspent actions still serve for everything else.
    assert enc.check(Draw("shortbow")) is None


def test_pfb_move_03_move_options_offer_no_movement_after_a_step(encounter_factory: Make) -> None:
    """PFB-MOVE-03: the engine's list of legal actions offers no Move after a step."""
    enc = encounter_factory([who("f", "heroes", "fighter", (5, 5)), far_goblin()], width=16, height=16)
    assert any(isinstance(a, Move) for a in enc.legal_actions())
    enc.act(Step((6, 5)))
    legal = list(enc.legal_actions())
    assert not any(isinstance(a, Move | Step | MinimumMove) for a in legal)


def test_pfb_move_04_no_step_while_movement_hampered(encounter_factory: Make) -> None:
    """PFB-MOVE-04: no 5-foot step while movement is slowed (flag ``movement_hampered``); an ordinary
    move is still allowed."""
    enc = encounter_factory([who("f", "heroes", "fighter", (5, 5), conditions=["movement_hampered"]),
                             far_goblin()], width=16, height=16)
    assert "PFB-MOVE-04" in illegal(enc, Step((6, 5)))
    enc.act(Move(to=(7, 5)))
    assert pos(enc, "f") == (7, 5)


def test_pfb_move_04_armor_speed_is_not_slowed(encounter_factory: Make) -> None:
    """PFB-MOVE-04 (reading): a speed lowered by medium armor (PFB-MOVE-09) is not "slowed"."""
    enc = encounter_factory([who("f", "heroes", block("plated", armor="breastplate"), (5, 5)), far_goblin()],
                            width=16, height=16)
    assert enc.speed_ft("f") == 20
    enc.act(Step((6, 6)))
    assert pos(enc, "f") == (6, 6)


@pytest.mark.parametrize("terrain", ["~", "*"])
def test_pfb_move_05_no_step_into_slowing_terrain(encounter_factory: Make, terrain: str) -> None:
    """PFB-MOVE-05: no 5-foot step into terrain that slows movement (difficult ground, bushes)."""
    rows = ["....", "." + terrain + "..", "....", "...."]
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 0)), who("g", "goblins", "goblin", (3, 3))],
                            rows=rows)
    assert "PFB-MOVE-05" in illegal(enc, Step((1, 1)))
    assert "PFB-MOVE-05" in illegal(enc, Step((1, 1)))
    enc.act(Step((1, 0)))  # a clear square next to it is fine


def test_pfb_move_05_step_out_of_difficult_terrain_is_fine(encounter_factory: Make) -> None:
    """PFB-MOVE-05: only the square entered matters; stepping out of a bush is allowed."""
    enc = encounter_factory([who("f", "heroes", "fighter", (1, 1)), who("g", "goblins", "goblin", (3, 3))],
                            rows=["....", ".*..", "....", "...."])
    enc.act(Step((2, 1)))
    assert pos(enc, "f") == (2, 1)


def test_pfb_move_05_diagonal_step_past_wall_corner_or_enemy(encounter_factory: Make) -> None:
    """PFB-MOVE-05 worked example with PFB-MOVE-17/18: a diagonal 5-foot step past the corner of a
    wall is illegal; a diagonal step past an enemy is legal."""
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 0)), who("g", "goblins", "goblin", (0, 1))],
                            rows=[".#..", "....", "....", "...."], dice=[2])
    assert "PFB-MOVE-17" in illegal(enc, Step((1, 1)))
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 0)), who("g", "goblins", "goblin", (1, 0))],
                            rows=["....", "....", "....", "...."])
    enc.act(Step((1, 1)))
    assert pos(enc, "f") == (1, 1)


# ---------------------------------------------------------------------------- move and speed: MOVE-06..11
def test_pfb_move_06_move_action_moves_up_to_speed(encounter_factory: Make) -> None:
    """PFB-MOVE-06: a move action moves the creature up to its speed (30 ft = 6 squares) and spends
    the move action; 7 squares is too far for one move action."""
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 0)), far_goblin()], width=16, height=16)
    assert "within 30 ft" in illegal(enc, Move(to=(7, 0)))
    events = enc.act(Move(to=(6, 0)))
    assert moved(events).cost_ft == 30 and moved(events).path[-1] == [6, 0]
    assert spent(events) == ["move"]
    assert not turn(enc).move and turn(enc).standard and turn(enc).moved


def test_pfb_move_06_explicit_path_is_priced_and_checked(encounter_factory: Make) -> None:
    """PFB-MOVE-06: an explicit path is followed square by square and must fit the speed."""
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 0)), far_goblin()], width=16, height=16)
    too_long = tuple((c, 0) for c in range(1, 8))
    assert "only 30 ft" in illegal(enc, Move(path=too_long))
    assert "not next to" in illegal(enc, Move(path=((2, 0),)))
    events = enc.act(Move(path=((1, 0), (2, 1), (3, 1))))
    assert moved(events).cost_ft == 15 and pos(enc, "f") == (3, 1)


def test_pfb_move_07_no_climbing_walls_are_never_entered(encounter_factory: Make) -> None:
    """PFB-MOVE-07: climbing and swimming happen only on map squares marked for them (water, climbing
    surfaces; see test_pfb_climb_swim.py). A wall is never climbable: it is never entered, by a move, an
    explicit path, a step or a minimum move, and never offered as a destination."""
    rows = [".#..", ".#..", ".#..", ".#.."]
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 0)), who("g", "goblins", "goblin", (3, 3))],
                            rows=rows)
    assert all(sq[0] != 1 for sq in enc.move_options("f"))
    assert not any(sq[0] > 1 for sq in enc.move_options("f"))  # nothing beyond the wall either
    illegal(enc, Move(to=(1, 0)))
    assert "wall" in illegal(enc, Move(path=((1, 0), (2, 0))))
    assert "wall" in illegal(enc, Step((1, 0)))
    assert "wall" in illegal(enc, MinimumMove((1, 1)))


@pytest.mark.parametrize(("stats", "speed"), [
    ("fighter", 30),                              # human, chain shirt (light)
    ("wizard", 30),                               # human, no armor
    ("rogue", 30),                                # elf, leather
    (block("h", armor="studded-leather"), 30),    # human, light armor
    (block("e", race="elf"), 30),                 # elf, no armor
])
def test_pfb_move_08_humans_and_elves_speed_30(encounter_factory: Make, stats: Any, speed: int) -> None:
    """PFB-MOVE-08: humans and elves move 30 ft (6 squares) with one move action."""
    enc = encounter_factory([who("f", "heroes", stats, (0, 0)), far_goblin()], width=16, height=16)
    assert enc.speed_ft("f") == speed
    assert farthest_in_row(enc, "f") == 6


@pytest.mark.parametrize(("race", "armor"), [("human", "breastplate"), ("human", "hide"),
                                             ("human", "full-plate"), ("elf", "scale-mail"),
                                             ("elf", "banded-mail")])
def test_pfb_move_09_medium_or_heavy_armor_slows_humans_and_elves(encounter_factory: Make, race: str,
                                                                  armor: str) -> None:
    """PFB-MOVE-09: medium or heavy armor lowers a human's or elf's speed to 20 ft (4 squares)."""
    enc = encounter_factory([who("f", "heroes", block("x", race=race, armor=armor), (0, 0)), far_goblin()],
                            width=16, height=16)
    assert enc.speed_ft("f") == 20
    assert farthest_in_row(enc, "f") == 4
    illegal(enc, Move(to=(5, 0)))
    enc.act(Move(to=(4, 0)))


@pytest.mark.parametrize("armor", [None, "leather", "scale-mail", "full-plate"])
def test_pfb_move_10_dwarves_always_speed_20(encounter_factory: Make, armor: str | None) -> None:
    """PFB-MOVE-10: dwarves move 20 ft whatever they wear, even medium or heavy armor."""
    enc = encounter_factory([who("d", "heroes", block("dw", race="dwarf", armor=armor), (0, 0)), far_goblin()],
                            width=16, height=16)
    assert enc.speed_ft("d") == 20
    assert farthest_in_row(enc, "d") == 4


def test_pfb_move_10_bestiary_dwarf_cleric_and_stat_block_speeds(encounter_factory: Make) -> None:
    """PFB-MOVE-10: the dwarf cleric in scale mail moves 20 ft; other creatures' speeds come from their
    stat blocks (wolf 50 ft, ogre 30 ft)."""
    enc = encounter_factory([who("c", "heroes", "cleric", (0, 0)), who("w", "heroes", "wolf", (0, 2)),
                             who("o", "heroes", "ogre", (0, 5)), far_goblin()], width=16, height=16)
    assert (enc.speed_ft("c"), enc.speed_ft("w"), enc.speed_ft("o")) == (20, 50, 30)
    assert farthest_in_row(enc, "c") == 4
    assert farthest_in_row(enc, "w") == 10


def test_pfb_move_11_double_move_uses_the_standard_action(encounter_factory: Make) -> None:
    """PFB-MOVE-11: the standard action moves again (a "double move", up to twice the speed): the elf
    wizard… here the human wizard, unarmored, covers 60 ft; a third move is impossible."""
    enc = encounter_factory([who("w", "heroes", "wizard", (0, 0)), far_goblin()], width=16, height=16)
    assert spent(enc.act(Move(to=(6, 0)))) == ["move"]
    events = enc.act(Move(to=(12, 0)))
    assert spent(events) == ["standard-as-move"]
    assert pos(enc, "w") == (12, 0)
    t = turn(enc)
    assert not t.move and not t.standard
    assert "no move action left" in illegal(enc, Move(to=(13, 0)))


def test_pfb_move_11_elf_double_move_60ft(encounter_factory: Make) -> None:
    """PFB-MOVE-11 worked example: an unarmored elf double-moves 60 ft (12 squares)."""
    enc = encounter_factory([who("e", "heroes", block("elf", race="elf", attacks=[{"weapon": "quarterstaff"}],
                                                      wielding="quarterstaff"), (0, 0)), far_goblin()],
                            width=16, height=16)
    a = moved(enc.act(Move(to=(6, 0))))
    b = moved(enc.act(Move(to=(12, 0))))
    assert a.cost_ft + b.cost_ft == 60


def test_pfb_move_11_double_move_continues_the_diagonal_count(encounter_factory: Make) -> None:
    """PFB-MOVE-11 / PFB-MOVE-16a worked example: speed 20, all diagonal. The first move takes 3
    diagonals (5 + 10 + 5). The second continues the count (10 + 5) and a 6th diagonal (10 ft) would
    make 25 > 20, so it ends with one orthogonal square: 5 diagonals + 1 orthogonal in all. The count
    restarts at the creature's next turn."""
    enc = encounter_factory([who("f", "heroes", block("plated", armor="breastplate"), (0, 0)),
                             who("g", "goblins", "goblin", (15, 0))], width=16, height=16)
    first = moved(enc.act(Move(to=(3, 3))))
    assert (first.cost_ft, first.diagonals) == (20, 3)
    assert turn(enc).diagonals == 3
    options = enc.move_options("f")
    assert options[(5, 5)].cost_ft == 15
    assert (6, 6) not in options  # would be 6 diagonal squares in all
    assert options[(6, 5)].cost_ft == 20
    assert "no legal path" in illegal(enc, Move(to=(6, 6)))
    second = moved(enc.act(Move(to=(6, 5))))
    assert (second.cost_ft, second.diagonals) == (20, 5)
    # Next turn: the counter starts again at 0, so 3 diagonals fit one move action again.
    enc.act(EndTurn())
    enc.act(EndTurn())
    assert turn(enc).actor == "f" and turn(enc).diagonals == 0
    assert enc.move_options("f")[(9, 8)].cost_ft == 20


# ---------------------------------------------------------------------------- creatures: MOVE-12..14
CORRIDOR = ["#######", ".......", "#######"]


def test_pfb_move_12_through_an_ally_but_not_ending_there(encounter_factory: Make) -> None:
    """PFB-MOVE-12: moving through an ally's square is legal; ending there is not."""
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 1)), who("a", "heroes", "rogue", (1, 1)),
                             who("g", "goblins", "goblin", (6, 1))], rows=CORRIDOR)
    assert (1, 1) not in enc.move_options("f")
    assert "ally" in illegal(enc, Move(path=((1, 1),)))
    illegal(enc, Move(to=(1, 1)))
    assert "occupied" in illegal(enc, Step((1, 1)))
    events = enc.act(Move(to=(2, 1)))
    assert moved(events).path == [[1, 1], [2, 1]] and moved(events).cost_ft == 10


def test_pfb_move_13_never_through_or_into_an_enemy(encounter_factory: Make) -> None:
    """PFB-MOVE-13: an enemy's square can be neither passed nor ended in."""
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 1)), who("g", "goblins", "goblin", (1, 1))],
                            rows=CORRIDOR)
    assert enc.move_options("f") == {}
    assert "enemy" in illegal(enc, Move(path=((1, 1), (2, 1))))
    assert "no legal path" in illegal(enc, Move(to=(2, 1)))
    illegal(enc, Move(to=(1, 1)))


def test_pfb_move_13_every_square_of_a_large_enemy_blocks(encounter_factory: Make) -> None:
    """PFB-MOVE-13 / PFB-GRID-04: all four squares of an ogre block a mover."""
    rows = ["#####", ".....", ".....", "#####"]
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 1)), who("o", "ogres", "ogre", (2, 1))],
                            rows=rows)
    for sq in [(2, 1), (3, 1), (2, 2), (3, 2)]:
        assert sq not in enc.move_options("f")
        illegal(enc, Move(path=((1, 1), sq)))
    assert not any(c >= 4 for c, _ in enc.move_options("f"))


@pytest.mark.parametrize("side", ["goblins", "heroes"])
def test_pfb_move_14_helpless_squares_can_be_passed_and_ended_in(encounter_factory: Make, side: str) -> None:
    """PFB-MOVE-14: a helpless (sleeping) creature's square, ally or enemy, can be moved through and
    ended in, at no extra cost."""
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 1)),
                             who("s", side, "goblin", (1, 1), conditions=["asleep"]),
                             who("g", "goblins", "goblin", (6, 1))], rows=CORRIDOR)
    assert enc.move_options("f")[(1, 1)].cost_ft == 5
    assert enc.move_options("f")[(3, 1)].cost_ft == 15
    events = enc.act(Move(to=(1, 1)))
    assert pos(enc, "f") == (1, 1) == pos(enc, "s")
    assert moved(events).cost_ft == 5


# ---------------------------------------------------------------------------- diagonals: MOVE-15..19
def test_pfb_move_15_16_diagonal_costs_alternate(encounter_factory: Make) -> None:
    """PFB-MOVE-15/16 worked example: speed 30 all diagonal is 5 + 10 + 5 + 10 = 30 ft, 4 squares;
    all orthogonal is 6 squares."""
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 0)), far_goblin()], width=16, height=16)
    options = enc.move_options("f")
    assert [options[(i, i)].cost_ft for i in range(1, 5)] == [5, 15, 20, 30]
    assert (5, 5) not in options
    assert options[(6, 0)].cost_ft == 30
    m = moved(enc.act(Move(path=((1, 1), (2, 2), (3, 3), (4, 4)))))
    assert (m.cost_ft, m.diagonals) == (30, 4)


def test_pfb_move_17_no_diagonal_around_a_wall_corner(encounter_factory: Make) -> None:
    """PFB-MOVE-17: a diagonal move around a wall's corner is illegal; the mover goes straight one
    square, then to the side (10 ft instead of 5)."""
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 0)), who("g", "goblins", "goblin", (3, 3))],
                            rows=[".#..", "....", "....", "...."])
    assert "corner" in illegal(enc, Move(path=((1, 1),)))
    m = moved(enc.act(Move(to=(1, 1))))
    assert m.path == [[0, 1], [1, 1]] and m.cost_ft == 10


def test_pfb_move_18_diagonal_past_a_creature(encounter_factory: Make) -> None:
    """PFB-MOVE-18: moving diagonally past a creature, even an enemy, is legal (no corner)."""
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 0)), who("g", "goblins", "goblin", (1, 0)),
                             who("h", "goblins", "goblin", (0, 1))], width=4, height=4)
    m = moved(enc.act(Move(path=((1, 1),))))
    assert m.cost_ft == 5


def test_pfb_move_19_diagonal_past_a_pit_but_not_into_it(encounter_factory: Make) -> None:
    """PFB-MOVE-19: a pit is an obstacle one may move diagonally past; it cannot be entered."""
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 0)), who("g", "goblins", "goblin", (3, 3))],
                            rows=[".o..", "o...", "....", "...."])
    assert (1, 0) not in enc.move_options("f")
    assert "pit" in illegal(enc, Move(path=((1, 0),)))
    assert "cannot be entered" in illegal(enc, Step((0, 1)))
    m = moved(enc.act(Move(path=((1, 1),))))
    assert m.cost_ft == 5


# ---------------------------------------------------------------------------- difficult terrain: MOVE-20..23
def test_pfb_move_20_21_difficult_squares_cost_10ft(encounter_factory: Make) -> None:
    """PFB-MOVE-20/21 worked example: speed 30 through difficult terrain is 3 orthogonal squares."""
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 1)), who("g", "goblins", "goblin", (9, 3))],
                            rows=["~~~~~~~~~~", ".~~~~~~~~~", "~~~~~~~~~~", "~~~~~~~~~."])
    assert enc.move_options("f")[(3, 1)].cost_ft == 30
    assert "only 30 ft" in illegal(enc, Move(path=((1, 1), (2, 1), (3, 1), (4, 1))))
    assert (4, 1) not in enc.move_options("f")
    assert moved(enc.act(Move(to=(3, 1)))).cost_ft == 30


def test_pfb_move_22_difficult_diagonal_costs_15ft(encounter_factory: Make) -> None:
    """PFB-MOVE-22 worked example: diagonally into difficult squares, speed 30 covers 2 squares."""
    rows = ["......", ".~~~~~", ".~~~~~", ".~~~~~", ".~~~~~", "......"]
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 0)), who("g", "goblins", "goblin", (5, 5))],
                            rows=rows)
    m = moved(enc.act(Move(path=((1, 1), (2, 2)))))
    assert (m.cost_ft, m.diagonals) == (30, 2)
    enc2 = encounter_factory([who("f", "heroes", "fighter", (0, 0)), who("g", "goblins", "goblin", (5, 5))],
                             rows=rows)
    illegal(enc2, Move(path=((1, 1), (2, 2), (3, 3))))


@pytest.mark.parametrize(("variant", "cost"), [(False, 25), (True, 30)])
def test_pfb_move_22_difficult_diagonal_and_the_counter(encounter_factory: Make, variant: bool,
                                                        cost: int) -> None:
    """PFB-MOVE-22 worked example: normal diagonal (5), difficult diagonal (15, counted as the 2nd),
    normal diagonal (3rd → 5) = 25 ft. Under ``pfb_difficult_diagonal_skips_count`` the last diagonal
    is the 2nd → 10, total 30 ft."""
    rows = ["....", "....", "..~.", "...."]
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 0)), who("g", "goblins", "goblin", (0, 3))],
                            rows=rows, variants={"pfb_difficult_diagonal_skips_count": variant})
    m = moved(enc.act(Move(path=((1, 1), (2, 2), (3, 3)))))
    assert m.cost_ft == cost


def test_pfb_move_22_mixed_example_uses_whole_speed(encounter_factory: Make) -> None:
    """PFB-MOVE-22 worked example: normal diagonal (5) + difficult orthogonal (10) + difficult diagonal
    (15, the 2nd diagonal) = 30; nothing is left for a further (3rd, 5-ft) diagonal."""
    rows = [".....", ".....", ".~...", "..~..", "....."]
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 0)), who("g", "goblins", "goblin", (4, 0))],
                            rows=rows)
    assert "only 30 ft" in illegal(enc, Move(path=((1, 1), (1, 2), (2, 3), (3, 4))))
    m = moved(enc.act(Move(path=((1, 1), (1, 2), (2, 3)))))
    assert (m.cost_ft, m.diagonals) == (30, 2)


def test_pfb_move_23_flying_ignores_difficult_terrain(encounter_factory: Make) -> None:
    """PFB-MOVE-23: a flying creature is not slowed by difficult terrain: 6 squares of it at 30 ft."""
    rows = ["~~~~~~~~~", "~~~~~~~~~", "~~~~~~~~."]
    flier = block("bird", fly_speed_ft=30)
    enc = encounter_factory([who("b", "heroes", flier, (0, 0)), who("g", "goblins", "goblin", (8, 2))],
                            rows=rows)
    assert enc.move_options("b")[(6, 0)].cost_ft == 30
    assert moved(enc.act(Move(to=(6, 0)))).cost_ft == 30
    walker = encounter_factory([who("b", "heroes", block("walker"), (0, 0)),
                                who("g", "goblins", "goblin", (8, 2))], rows=rows)
    assert (6, 0) not in walker.move_options("b")


# ---------------------------------------------------------------------------- illegal end: MOVE-24
def test_pfb_move_24_engine_never_lets_a_chosen_move_end_illegally(encounter_factory: Make) -> None:
    """PFB-MOVE-24 (reading a): the engine forbids *choosing* an illegal end square — a path that would
    end in an ally's square is refused whole and the creature stays put."""
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 1)), who("a", "heroes", "rogue", (2, 1)),
                             who("g", "goblins", "goblin", (6, 1))], rows=CORRIDOR)
    assert "cannot end" in illegal(enc, Move(path=((1, 1), (2, 1))))
    assert pos(enc, "f") == (0, 1)
    assert all(sq != (2, 1) for sq in enc.move_options("f"))


# ---------------------------------------------------------------------------- minimum movement: MOVE-25..27
SLOW = block("slowpoke", speed_ft=5)


def test_pfb_move_25_full_round_enters_a_difficult_square(encounter_factory: Make) -> None:
    """PFB-MOVE-25 worked example: speed 5 facing a difficult square (10 ft): a move action cannot pay
    for it, a full round (move + standard) enters it; the free action remains."""
    enc = encounter_factory([who("s", "heroes", SLOW, (0, 0)), who("g", "goblins", "goblin", (3, 3))],
                            rows=[".~..", "....", "....", "...."])
    assert (1, 0) not in enc.move_options("s")
    assert "no legal path" in illegal(enc, Move(to=(1, 0)))
    events = enc.act(MinimumMove((1, 0)))
    assert spent(events) == ["full-round"]
    assert pos(enc, "s") == (1, 0)
    t = turn(enc)
    assert not t.move and not t.standard
    assert enc.check(Activity("speak")) is None
    assert "no move action left" in illegal(enc, Move(to=(2, 0)))


def test_pfb_move_25_full_round_enters_a_difficult_square_diagonally(encounter_factory: Make) -> None:
    """PFB-MOVE-25 worked example: a full round also enters a difficult square diagonally (15 ft)."""
    enc = encounter_factory([who("s", "heroes", SLOW, (0, 0)), who("g", "goblins", "goblin", (3, 3))],
                            rows=["....", ".~..", "....", "...."])
    illegal(enc, Move(to=(1, 1)))
    enc.act(MinimumMove((1, 1)))
    assert pos(enc, "s") == (1, 1)


def test_pfb_move_25_minimum_move_needs_both_actions(encounter_factory: Make) -> None:
    """PFB-MOVE-25: minimum movement is a full round: not after the move action (or the standard) is
    spent, and only one square."""
    enc = encounter_factory([who("s", "heroes", SLOW, (0, 0)), who("g", "goblins", "goblin", (3, 3))],
                            rows=[".~..", "....", "....", "...."])
    assert "not one square away" in illegal(enc, MinimumMove((2, 0)))
    enc.act(Activity("open-door"))  # a move action
    assert "both the standard and the move action" in illegal(enc, MinimumMove((1, 0)))


def test_pfb_move_26_minimum_move_not_through_walls_or_corners(encounter_factory: Make) -> None:
    """PFB-MOVE-26: minimum movement never passes a wall nor goes diagonally around a corner, nor ends
    in an occupied square."""
    enc = encounter_factory([who("s", "heroes", SLOW, (0, 0)), who("a", "heroes", "rogue", (0, 1)),
                             who("g", "goblins", "goblin", (3, 3))], rows=[".#..", "....", "....", "...."])
    assert "PFB-MOVE-26" in illegal(enc, MinimumMove((1, 0)))
    assert "PFB-MOVE-26" in illegal(enc, MinimumMove((1, 1)))
    assert "occupied" in illegal(enc, MinimumMove((0, 1)))


def test_pfb_move_27_move_action_always_gives_5ft(encounter_factory: Make) -> None:
    """PFB-MOVE-27: a creature with speed 5 moves one square with a move action, even a diagonal."""
    enc = encounter_factory([who("s", "heroes", SLOW, (0, 0)), who("g", "goblins", "goblin", (5, 5))],
                            width=8, height=8)
    assert sorted(enc.move_options("s")) == [(0, 1), (1, 0), (1, 1)]
    assert moved(enc.act(Move(to=(1, 1)))).cost_ft == 5
    assert moved(enc.act(Move(to=(2, 1)))).cost_ft == 5  # the standard as a second move


def test_pfb_move_27_speed_below_5_still_moves_5ft(encounter_factory: Make, monkeypatch: pytest.MonkeyPatch) -> None:
    """PFB-MOVE-27 worked example: a creature whose speed is reduced below 5 ft (half of 5 → 2 ft) still
    moves 5 ft with one move action (budget = max(speed, 5)), but not 10 ft."""
    enc = encounter_factory([who("s", "heroes", SLOW, (0, 0)), who("g", "goblins", "goblin", (5, 5))],
                            width=8, height=8)
    base = enc.ruleset.movement.speed_ft
    monkeypatch.setattr(enc.ruleset.movement, "speed_ft",
                        lambda c, st: base(c, st) // 2 if c.id == "s" else base(c, st))
    assert enc.speed_ft("s") == 2
    illegal(enc, Move(to=(2, 0)))
    assert moved(enc.act(Move(to=(1, 0)))).cost_ft == 5


def test_pfb_move_27_speed_0_cannot_move_at_all(encounter_factory: Make) -> None:
    """PFB-MOVE-27: "unless you're completely unable to move" — speed 0 moves nothing: no move action,
    no 5-foot step, no minimum movement."""
    enc = encounter_factory([who("s", "heroes", block("rooted", speed_ft=0), (0, 0)),
                             who("g", "goblins", "goblin", (5, 5))], width=8, height=8)
    assert "speed 0" in illegal(enc, Move(to=(1, 0)))
    assert "speed 0" in illegal(enc, Step((1, 0)))
    assert "speed 0" in illegal(enc, MinimumMove((1, 0)))
    assert not any(isinstance(a, Move | Step | MinimumMove) for a in enc.legal_actions())


# ---------------------------------------------------------------------------- grid, space and reach: GRID
def test_pfb_grid_01_02_distance_in_5ft_squares(encounter_factory: Make) -> None:
    """PFB-GRID-01/02: the grid is in 5-ft squares: 30 ft is 6 squares, 20 ft is 4 squares."""
    enc = encounter_factory([who("f", "heroes", "fighter", (0, 0)), who("c", "heroes", "cleric", (0, 2)),
                             far_goblin()], width=16, height=16)
    assert enc.move_options("f")[(6, 0)].cost_ft == 30
    assert enc.move_options("c")[(4, 2)].cost_ft == 20


@pytest.mark.parametrize("stats", ["fighter", "rogue", "cleric", "wizard"])
def test_pfb_grid_03_dwarf_elf_human_occupy_one_square(encounter_factory: Make, stats: str) -> None:
    """PFB-GRID-03: a dwarf, elf or human takes up exactly 1 square: an enemy cannot enter that square
    but can end in every square around it."""
    enc = encounter_factory([who("g", "goblins", "goblin", (0, 0)), who("h", "heroes", stats, (3, 3))],
                            width=8, height=8)
    assert enc.creature("h").space == 1
    assert enc.occupancy("g").keys() == {(3, 3)}
    options = enc.move_options("g")
    assert (3, 3) not in options
    around = {(3 + dc, 3 + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1)} - {(3, 3)}
    assert around <= options.keys()


def test_pfb_grid_04_ogre_occupies_four_squares_and_moves_as_a_block(encounter_factory: Make) -> None:
    """PFB-GRID-04: an ogre takes up 4 squares (10 ft × 10 ft). Its space moves whole: it needs 2
    columns of room, and every square of its space is a creature's square for others."""
    enc = encounter_factory([who("o", "ogres", "ogre", (0, 0)), who("f", "heroes", "fighter", (5, 5))],
                            rows=["......", "......", "......", "..#...", "......", "......"])
    assert enc.creature("o").space == 2
    assert set(enc.footprint("o").squares()) == {(0, 0), (1, 0), (0, 1), (1, 1)}
    assert set(enc.occupancy("f")) == {(0, 0), (1, 0), (0, 1), (1, 1)}
    # The 2×2 block cannot overlap the wall at (2,3) nor leave the 6×6 map.
    assert (1, 2) not in enc.move_options("o") and (2, 2) not in enc.move_options("o")
    assert (5, 0) not in enc.move_options("o")
    enc.act(Move(to=(0, 2)))
    assert set(enc.footprint("o").squares()) == {(0, 2), (1, 2), (0, 3), (1, 3)}


def test_pfb_grid_05_facing_is_not_tracked(encounter_factory: Make) -> None:
    """PFB-GRID-05: no facing: an attack from behind, the side or the front meets the same AC."""
    enc = encounter_factory([who("f", "heroes", "fighter", (5, 5)), who("g", "goblins", "goblin", (6, 5))],
                            width=12, height=12)
    acs = set()
    for sq in [(5, 5), (7, 5), (6, 4), (6, 6), (7, 6)]:
        plan = enc.plan_attack("f", "g", from_square=sq)
        acs.add(enc.target_ac(plan, enc.state)[0])
    assert acs == {15}


def test_pfb_grid_06_adjacent_to_a_large_creature(encounter_factory: Make) -> None:
    """PFB-GRID-06 worked example: an ogre on (0,0)–(1,1); a fighter at (2,2) is adjacent (diagonal to
    (1,1)) and can attack it; a fighter at (3,0) is not adjacent and cannot."""
    enc = encounter_factory([who("f", "heroes", "fighter", (2, 2)), who("k", "heroes", "fighter", (3, 0)),
                             who("o", "ogres", "ogre", (0, 0))], width=8, height=8, dice=[2])
    assert enc.check(Attack("o")) is None
    enc.act(Attack("o"))
    enc.act(EndTurn())
    assert turn(enc).actor == "k"
    assert "beyond k's reach" in illegal(enc, Attack("o"))


@pytest.mark.parametrize(("target", "legal"), [((3, 1), True), ((2, 2), True), ((1, 2), True),
                                               ((3, 3), False), ((4, 1), False)])
def test_pfb_grid_07_ogre_reach_10ft(encounter_factory: Make, target: Square, legal: bool) -> None:
    """PFB-GRID-07 worked example (proposed data): an ogre on (0,0)–(1,1) with 10-ft reach attacks a
    creature at (3,1) (10 ft from (1,1)) or adjacent at (2,2), but not at (3,3) — two diagonals,
    15 ft — nor at (4,1), 15 ft."""
    enc = encounter_factory([who("o", "ogres", "ogre", (0, 0)), who("f", "heroes", "fighter", target)],
                            width=8, height=8, dice=[2])
    assert enc.creature("o").reach_ft == 10
    if legal:
        assert enc.check(Attack("f")) is None
        enc.act(Attack("f"))
    else:
        assert "reach" in illegal(enc, Attack("f"))
