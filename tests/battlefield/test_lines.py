"""Exact line tracing (PFB-COV-02 grazing reading, PFB-CHG-07 centre lines)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from d20combat.battlefield.grid import Footprint, Square
from d20combat.battlefield.lines import (
    Point,
    footprint_corners,
    segment_crosses_square,
    squares_crossed,
    squares_crossed_scaled,
    squeezes,
)


def test_pfb_cov_02_touching_a_corner_point_does_not_cross() -> None:
    """PFB-COV-02 (derived, pillar): (1,0)->(3,4) only touches the pillar (1,2) at its corner (2,2)."""
    assert not segment_crosses_square((1, 0), (3, 4), (1, 2))
    assert segment_crosses_square((0, 1), (3, 4), (1, 2))
    assert (1, 2) not in squares_crossed((1, 0), (3, 4))
    assert (1, 2) in squares_crossed((0, 1), (3, 4))


def test_pfb_cov_02_running_along_an_edge_does_not_cross() -> None:
    """PFB-COV-02: a line along a grid line enters no square."""
    assert squares_crossed((0, 0), (5, 0)) == []
    assert squares_crossed((2, 5), (2, 0)) == []
    assert not segment_crosses_square((0, 0), (5, 0), (2, 0))
    assert not segment_crosses_square((0, 1), (5, 1), (2, 0))


def test_squares_crossed_are_ordered_from_start() -> None:
    """PFB-COV-02: crossed squares come in the order the line meets them, either direction."""
    assert squares_crossed((0, 0), (3, 1)) == [(0, 0), (1, 0), (2, 0)]
    assert squares_crossed((3, 1), (0, 0)) == [(2, 0), (1, 0), (0, 0)]
    assert squares_crossed((0, 0), (2, 2)) == [(0, 0), (1, 1)]
    assert squares_crossed((0, 3), (2, 0)) == [(0, 2), (0, 1), (1, 1), (1, 0)]
    assert squares_crossed((1, 1), (1, 1)) == []


def test_pfb_chg_07_centre_lines_in_doubled_coordinates() -> None:
    """PFB-CHG-07: centre (c+1/2, r+1/2) is (2c+1, 2r+1) at scale 2."""
    assert squares_crossed_scaled((1, 1), (7, 1), 2) == [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert squares_crossed_scaled((1, 1), (1, 7), 2) == [(0, 0), (0, 1), (0, 2), (0, 3)]
    # (0,0) -> (3,1): centre line (0.5,0.5)->(3.5,1.5) passes the grid point (2,1) exactly.
    assert squares_crossed_scaled((1, 1), (7, 3), 2) == [(0, 0), (1, 0), (2, 1), (3, 1)]
    assert squares_crossed_scaled((7, 7), (1, 1), 2) == [(3, 3), (2, 2), (1, 1), (0, 0)]


def test_footprint_corners_are_the_block_corners() -> None:
    """PFB-COV-02/GRID-04: lines start at the corners of a creature's whole space."""
    assert footprint_corners(Footprint((2, 3))) == ((2, 3), (3, 3), (2, 4), (3, 4))
    assert footprint_corners(Footprint((0, 0), 2)) == ((0, 0), (2, 0), (0, 2), (2, 2))


def test_squeezes_along_edges_and_through_points() -> None:
    """PFB-COV-02/10: pairs of squares a line passes between (for walls that touch)."""
    assert squeezes((0, 2), (2, 2)) == [((0, 1), (0, 2)), ((1, 1), (1, 2))]
    assert squeezes((2, 2), (0, 2)) == [((1, 1), (1, 2)), ((0, 1), (0, 2))]
    assert squeezes((3, 0), (3, 2)) == [((2, 0), (3, 0)), ((2, 1), (3, 1))]
    assert squeezes((0, 0), (2, 2)) == [((0, 1), (1, 0))]
    assert squeezes((0, 2), (2, 0)) == [((0, 0), (1, 1))]
    assert squeezes((0, 0), (3, 1)) == []


def _crosses_exact(p: Point, q: Point, sq: Square, scale: int = 1) -> bool:
    """Reference: clip the segment to the open square with Fractions (Liang-Barsky)."""
    lo, hi = Fraction(0), Fraction(1)
    fp = (Fraction(p[0], scale), Fraction(p[1], scale))
    fq = (Fraction(q[0], scale), Fraction(q[1], scale))
    for a0, d, b0 in ((fp[0], fq[0] - fp[0], sq[0]), (fp[1], fq[1] - fp[1], sq[1])):
        if d == 0:
            if not (b0 < a0 < b0 + 1):
                return False
            continue
        t1, t2 = (b0 - a0) / d, (b0 + 1 - a0) / d
        lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
    return lo < hi


pts = st.tuples(st.integers(-6, 6), st.integers(-6, 6))


@given(pts, pts)
def test_property_squares_crossed_matches_exact_clipping(p: Point, q: Point) -> None:
    """PFB-COV-02: the fast tracer, the sign test and Fraction clipping agree on every square."""
    fast = squares_crossed(p, q)
    assert len(fast) == len(set(fast))
    box = [(c, r) for c in range(-7, 7) for r in range(-7, 7)]
    expected = {sq for sq in box if _crosses_exact(p, q, sq)}
    assert set(fast) == expected
    assert {sq for sq in box if segment_crosses_square(p, q, sq)} == expected
    assert squares_crossed(q, p) == fast[::-1]


@given(pts, pts)
def test_property_scaled_tracer_matches_exact_clipping(p: Point, q: Point) -> None:
    """PFB-CHG-07: at scale 2 (centres are odd) the tracer still matches Fraction clipping."""
    fast = squares_crossed_scaled(p, q, 2)
    box = [(c, r) for c in range(-4, 4) for r in range(-4, 4)]
    assert set(fast) == {sq for sq in box if _crosses_exact(p, q, sq, 2)}
    assert len(fast) == len(set(fast))
