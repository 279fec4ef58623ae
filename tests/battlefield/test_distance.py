"""Distance and adjacency (PFB-GRID-01..07, PFB-MOVE-16b)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from d20combat.battlefield.distance import (
    distance_ft,
    footprint_distance_ft,
    footprint_gap,
    is_adjacent,
    square_to_footprint_ft,
)
from d20combat.battlefield.grid import Footprint

OGRE = Footprint((0, 0), 2)


def test_pfb_grid_01_02_feet_count_in_squares() -> None:
    """PFB-GRID-02 (text): 30 ft is 6 squares; (derived) 20 ft is 4, 60 ft is 12."""
    assert distance_ft((0, 0), (6, 0)) == 30
    assert distance_ft((0, 0), (0, 4)) == 20
    assert distance_ft((3, 2), (15, 2)) == 60


def test_pfb_move_16b_diagonals_measure_5_10() -> None:
    """PFB-MOVE-16b: distance uses the alternating diagonal count, 5 + 10 + 5 + 10 ..."""
    assert [distance_ft((0, 0), (k, k)) for k in range(6)] == [0, 5, 15, 20, 30, 35]
    # 2 diagonals and 3 straight: 5*3 + 5*2 + 5*1
    assert distance_ft((0, 0), (5, 2)) == 30
    assert distance_ft((5, 2), (0, 0)) == 30
    assert distance_ft((0, 0), (-2, 5)) == 30


def test_pfb_grid_07_footprint_distance_uses_nearest_squares() -> None:
    """PFB-GRID-07: multi-square creatures measure from any square of their space."""
    assert footprint_distance_ft(OGRE, Footprint((3, 1))) == 10
    assert footprint_distance_ft(OGRE, Footprint((3, 3))) == 15
    assert footprint_distance_ft(OGRE, Footprint((2, 2))) == 5
    assert footprint_distance_ft(OGRE, Footprint((1, 1))) == 0  # overlap
    assert footprint_distance_ft(OGRE, Footprint((4, 0), 2)) == 15
    assert footprint_gap(OGRE, Footprint((5, 4))) == (4, 3)
    assert square_to_footprint_ft((5, 4), OGRE) == 25


def test_pfb_grid_06_ogre_adjacency() -> None:
    """PFB-GRID-06 (derived): ogre at (0,0)-(1,1); fighter at (2,2) adjacent, at (3,0) not."""
    assert is_adjacent(OGRE, Footprint((2, 2)))
    assert is_adjacent(Footprint((2, 2)), OGRE)
    assert not is_adjacent(OGRE, Footprint((3, 0)))
    assert is_adjacent(OGRE, Footprint((2, 0)))
    assert is_adjacent(OGRE, Footprint((-1, 1)))
    assert not is_adjacent(OGRE, Footprint((1, 1)))  # overlapping is not "adjacent"


def test_pfb_grid_06_all_eight_neighbours_adjacent() -> None:
    """PFB-GRID-05/06: no facing, all 8 surrounding squares are adjacent."""
    me = Footprint((5, 5))
    near = [(c, r) for c in range(3, 8) for r in range(3, 8) if is_adjacent(me, Footprint((c, r)))]
    assert sorted(near) == sorted((5 + dc, 5 + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0))


def test_pfb_move_16b_not_a_metric_but_near_one() -> None:
    """PFB-MOVE-16b: two single diagonals (5+5) are cheaper than one double diagonal (15)."""
    assert distance_ft((0, 0), (1, 1)) + distance_ft((1, 1), (2, 2)) == 10
    assert distance_ft((0, 0), (2, 2)) == 15


coords = st.tuples(st.integers(-30, 30), st.integers(-30, 30))


@given(coords, coords, coords)
def test_property_distance_symmetric_and_triangle_within_5ft(
    a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]
) -> None:
    """PFB-MOVE-16b: symmetric, zero only on the same square, and d(a,c) <= d(a,b) + d(b,c) + 5."""
    assert distance_ft(a, b) == distance_ft(b, a)
    assert (distance_ft(a, b) == 0) == (a == b)
    assert distance_ft(a, b) % 5 == 0
    assert distance_ft(a, c) <= distance_ft(a, b) + distance_ft(b, c) + 5
    # Chebyshev <= 5/10 <= Manhattan
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    assert 5 * max(dx, dy) <= distance_ft(a, b) <= 5 * (dx + dy)


@given(coords, st.integers(1, 3), coords, st.integers(1, 3))
def test_property_footprint_distance_is_min_over_squares(
    oa: tuple[int, int], na: int, ob: tuple[int, int], nb: int
) -> None:
    """PFB-GRID-07: the footprint distance equals the minimum over all pairs of squares."""
    a, b = Footprint(oa, na), Footprint(ob, nb)
    brute = min(distance_ft(x, y) for x in a.squares() for y in b.squares())
    assert footprint_distance_ft(a, b) == brute
    assert is_adjacent(a, b) == (brute == 5)
