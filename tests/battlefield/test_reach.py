"""Melee reach (PFB-GRID-06, PFB-GRID-07)."""

from __future__ import annotations

from d20combat.battlefield.grid import Footprint, GameMap
from d20combat.battlefield.reach import threatened_squares, within_reach

OGRE = Footprint((0, 0), 2)


def test_pfb_grid_07_ogre_10ft_reach_examples() -> None:
    """PFB-GRID-07 (derived): reach 10 ogre at (0,0)-(1,1): (3,1) yes, (2,2) yes, (3,3) no (15 ft)."""
    assert within_reach(OGRE, 10, Footprint((3, 1)))
    assert within_reach(OGRE, 10, Footprint((2, 2)))
    assert not within_reach(OGRE, 10, Footprint((3, 3)))


def test_pfb_grid_06_normal_reach_is_adjacent_only() -> None:
    """PFB-GRID-06: a 5-ft creature attacks the 8 adjacent squares, nothing further."""
    me = Footprint((4, 4))
    assert within_reach(me, 5, Footprint((5, 5)))
    assert within_reach(me, 5, Footprint((4, 3)))
    assert not within_reach(me, 5, Footprint((6, 4)))
    assert not within_reach(me, 5, Footprint((4, 4)))  # own square: distance 0


def test_pfb_grid_07_threatened_squares_reach_5_and_10() -> None:
    """PFB-GRID-07: reach 10 covers a 5x5 block minus its four 15-ft corners and the own square."""
    gm = GameMap(20, 20)
    five = threatened_squares(Footprint((10, 10)), 5, gm)
    assert len(five) == 8
    ten = threatened_squares(Footprint((10, 10)), 10, gm)
    assert len(ten) == 20
    assert (12, 12) not in ten and (12, 11) in ten and (10, 10) not in ten


def test_pfb_grid_07_threatened_squares_clipped_to_map_and_large_creature() -> None:
    """PFB-GRID-04/07: a 2x2 ogre in a corner threatens only on-map squares."""
    gm = GameMap(10, 10)
    sq = threatened_squares(OGRE, 10, gm)
    assert (3, 1) in sq and (2, 2) in sq and (3, 3) not in sq
    assert all(gm.in_bounds(s) for s in sq)
    assert not any(s in sq for s in OGRE.squares())
    # columns/rows 0-3, minus the ogre's own 4 squares, minus (3,3) at 15 ft
    assert len(sq) == 16 - 4 - 1
