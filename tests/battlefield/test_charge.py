"""Charge geometry (PFB-CHG-04..09)."""

from __future__ import annotations

from d20combat.battlefield.charge import centre_line_squares, charge_path_problem, closest_attack_origins
from d20combat.battlefield.distance import distance_ft
from d20combat.battlefield.grid import Footprint, GameMap

ROW = GameMap(20, 1)
CHARGER = Footprint((0, 0))


def _end_and_distance(goblin_col: int) -> tuple[list[tuple[int, int]], int]:
    ends = closest_attack_origins(ROW, CHARGER, Footprint((goblin_col, 0)), 5)
    return ends, distance_ft((0, 0), ends[0])


def test_pfb_chg_05_09_straight_row_lengths() -> None:
    """PFB-CHG-05/09 (derived): speed 30: goblin at column 7 -> end column 6, 30 ft (legal);
    column 13 -> 12, 60 ft (legal); column 14 -> 13, 65 ft > 60 (illegal)."""
    assert _end_and_distance(7) == ([(6, 0)], 30)
    assert _end_and_distance(13) == ([(12, 0)], 60)
    assert _end_and_distance(14) == ([(13, 0)], 65)
    assert charge_path_problem(ROW, CHARGER, (12, 0), occupied={(13, 0)}) is None


def test_pfb_chg_04_minimum_10ft_and_adjacent_goblin() -> None:
    """PFB-CHG-04 (derived): goblin at column 2 -> end 1, 5 ft (too short); column 3 -> end 2, 10 ft (legal);
    an adjacent goblin -> the charger is already there (0 ft), so it cannot be charged."""
    assert _end_and_distance(2) == ([(1, 0)], 5)
    assert _end_and_distance(3) == ([(2, 0)], 10)
    assert _end_and_distance(1) == ([(0, 0)], 0)
    assert charge_path_problem(ROW, CHARGER, (0, 0), occupied=set()) == "the charge does not move"


def test_pfb_chg_09a_equally_close_spaces_are_all_offered() -> None:
    """PFB-CHG-09a (proposal): on an open map three squares are 30 ft away; the charger picks."""
    gm = GameMap(20, 3)
    ends = closest_attack_origins(gm, Footprint((0, 1)), Footprint((7, 1)), 5)
    assert ends == [(6, 0), (6, 1), (6, 2)]
    assert {distance_ft((0, 1), e) for e in ends} == {30}


def test_pfb_chg_09_reach_and_walls_shape_the_closest_space() -> None:
    """PFB-CHG-09/GRID-07: with 10-ft reach the charge stops 2 squares short; walls and total cover exclude spaces."""
    assert closest_attack_origins(ROW, CHARGER, Footprint((7, 0)), 10) == [(5, 0)]
    gm = GameMap(20, 1, walls=frozenset({(6, 0)}))
    # (6,0) is a wall: the closest space is beyond the goblin, and the line there is not clear.
    assert closest_attack_origins(gm, CHARGER, Footprint((7, 0)), 5) == [(8, 0)]
    assert charge_path_problem(gm, CHARGER, (8, 0), occupied={(7, 0)}) == (
        "the charge line crosses the wall at (6,0)"
    )
    # A space cut off from the goblin by total cover does not count.
    # Reach 10 over a full-height wall: the near-side spaces are within 10 ft but behind total cover.
    gm = GameMap(20, 3, walls=frozenset({(6, 0), (6, 1), (6, 2)}))
    assert closest_attack_origins(gm, Footprint((0, 1)), Footprint((7, 1)), 10) == [(7, 0), (7, 2)]
    # An ogre charging: its 2x2 space must fit.
    gm = GameMap(20, 4)
    assert closest_attack_origins(gm, Footprint((0, 1), 2), Footprint((8, 1)), 5) == [(6, 0), (6, 1), (6, 2)]


def test_pfb_chg_08_difficult_square_on_the_line() -> None:
    """PFB-CHG-08 (derived): difficult terrain on the line -> no charge; a flyer is not hindered."""
    gm = GameMap(20, 1, difficult=frozenset({(3, 0)}))
    assert charge_path_problem(gm, CHARGER, (6, 0), occupied={(7, 0)}) == (
        "the charge line crosses difficult terrain at (3,0)"
    )
    assert charge_path_problem(gm, CHARGER, (6, 0), occupied={(7, 0)}, flying=True) is None
    # Difficult terrain on the end square also hinders; on the start square it does not.
    gm = GameMap(20, 1, difficult=frozenset({(0, 0), (6, 0)}))
    assert charge_path_problem(gm, CHARGER, (6, 0), occupied=set()) == (
        "the charge line crosses difficult terrain at (6,0)"
    )


def test_pfb_chg_08_ally_on_the_line_blocks() -> None:
    """PFB-CHG-08 (proposal): an ally standing on the line -> no charge."""
    assert charge_path_problem(ROW, CHARGER, (6, 0), occupied={(3, 0), (7, 0)}) == (
        "the charge line crosses a creature's square (3,0)"
    )
    assert charge_path_problem(ROW, CHARGER, (6, 0), occupied={(6, 0)}) == (
        "the charge line crosses a creature's square (6,0)"
    )


def test_pfb_chg_08_walls_and_pits_block_the_line() -> None:
    """PFB-CHG-08: walls and pits on the line block; the first obstacle is named."""
    gm = GameMap(20, 1, walls=frozenset({(4, 0)}), pits=frozenset({(2, 0)}))
    assert charge_path_problem(gm, CHARGER, (6, 0), occupied=set()) == "the charge line crosses the pit at (2,0)"
    gm = GameMap(20, 1, walls=frozenset({(4, 0)}), difficult=frozenset({(5, 0)}))
    assert charge_path_problem(gm, CHARGER, (6, 0), occupied=set()) == "the charge line crosses the wall at (4,0)"


def test_pfb_chg_07_line_need_not_follow_the_grid() -> None:
    """PFB-CHG-07: the centre-to-centre line may run at any angle; only the squares it enters matter."""
    assert centre_line_squares(CHARGER, Footprint((3, 1))) == [(0, 0), (1, 0), (2, 1), (3, 1)]
    gm = GameMap(10, 10, difficult=frozenset({(1, 1), (2, 0)}))  # beside the line, not on it
    assert charge_path_problem(gm, CHARGER, (3, 1), occupied=set()) is None
    gm = GameMap(10, 10, difficult=frozenset({(1, 0)}))
    assert charge_path_problem(gm, CHARGER, (3, 1), occupied=set()) == (
        "the charge line crosses difficult terrain at (1,0)"
    )


def test_pfb_chg_07_diagonal_line_through_corners() -> None:
    """PFB-CHG-07/PFB-MOVE-17/19: a diagonal charge cuts no wall corner; pits and creatures beside it are fine."""
    assert centre_line_squares(CHARGER, Footprint((3, 3))) == [(0, 0), (1, 1), (2, 2), (3, 3)]
    beside = GameMap(10, 10, pits=frozenset({(1, 0), (2, 1)}))
    assert charge_path_problem(beside, CHARGER, (3, 3), occupied={(0, 1)}) is None
    walled = GameMap(10, 10, walls=frozenset({(2, 1)}))
    assert charge_path_problem(walled, CHARGER, (3, 3), occupied=set()) == (
        "the charge line cuts the corner of the wall at (2,1)"
    )


def test_pfb_chg_07_large_charger_sweeps_its_whole_space() -> None:
    """PFB-CHG-07/08/GRID-04: every square of a 2x2 charger follows its own parallel line."""
    ogre = Footprint((0, 0), 2)
    assert centre_line_squares(ogre, Footprint((4, 0), 2)) == [(c, r) for c in range(6) for r in range(2)]
    gm = GameMap(10, 4, difficult=frozenset({(3, 1)}))
    assert charge_path_problem(gm, ogre, (4, 0), occupied=set()) == (
        "the charge line crosses difficult terrain at (3,1)"
    )
    gm = GameMap(10, 4, difficult=frozenset({(3, 2)}))
    assert charge_path_problem(gm, ogre, (4, 0), occupied=set()) is None
