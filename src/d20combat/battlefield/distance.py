"""Grid distance: the 5/10 alternating-diagonal measure (PFB-MOVE-16, reading b).

PFB only states the alternation for *movement*; the inventory proposes (PFB-MOVE-16b)
that range, reach, charge length and the 10-ft ranged limits use the same measure, as
PF1 does. Measuring with the movement rule keeps "how far away is it" and "how far can I
walk" consistent: on an open map ``distance_ft`` equals the cheapest walk from a fresh
diagonal counter.

Note that this measure is *not* a true metric: two single diagonals cost 5 + 5 ft but one
double diagonal costs 15 ft, so the triangle inequality can fail by 5 ft. Callers must
not assume ``d(a, c) <= d(a, b) + d(b, c)``; only ``<= ... + 5`` holds.
"""

from __future__ import annotations

from d20combat.battlefield.squares import SQUARE_FT, Footprint, Square


def _ft(dx: int, dy: int) -> int:
    """5/10 measure of a non-negative offset: straight part 5 each, diagonals 5 then 10."""
    if dx < dy:
        dx, dy = dy, dx
    # dy diagonals (every second one costs an extra 5 ft) plus dx - dy straight squares.
    return SQUARE_FT * (dx + dy // 2)


def distance_ft(a: Square, b: Square) -> int:
    """Distance between two squares in feet (PFB-GRID-01, PFB-MOVE-16b).

    With ``d = min(dx, dy)`` diagonals and ``s = max - min`` straight squares this is
    ``5*s + 5*d + 5*(d // 2)``: the 2nd, 4th, ... diagonal counts double.
    """
    return _ft(abs(a[0] - b[0]), abs(a[1] - b[1]))


def footprint_gap(a: Footprint, b: Footprint) -> tuple[int, int]:
    """Column and row offset between the nearest squares of two footprints (0 if they overlap)."""
    a0, a1 = a.origin
    b0, b1 = b.origin
    dx = max(0, b0 - (a0 + a.size - 1), a0 - (b0 + b.size - 1))
    dy = max(0, b1 - (a1 + a.size - 1), a1 - (b1 + b.size - 1))
    return dx, dy


def footprint_distance_ft(a: Footprint, b: Footprint) -> int:
    """Distance between the nearest squares of two footprints (PFB-GRID-06/07).

    Multi-square creatures measure from whichever of their squares is best (PFB-GRID-07);
    because the 5/10 measure grows with each axis separately, the nearest pair is found
    by taking the smallest gap on each axis independently. Overlapping footprints are 0 ft
    apart; touching ones (side or corner) are 5 ft apart.
    """
    return _ft(*footprint_gap(a, b))


def square_to_footprint_ft(square: Square, fp: Footprint) -> int:
    """Distance from one square to the nearest square of a footprint."""
    return footprint_distance_ft(Footprint(square, 1), fp)


def is_adjacent(a: Footprint, b: Footprint) -> bool:
    """True if some square of ``a`` touches some square of ``b`` by side or corner (PFB-GRID-06).

    Facing is not tracked (PFB-GRID-05), so all 8 neighbours count. Overlapping footprints
    are not "adjacent" (they cannot legally happen; refusing them surfaces the bug).
    """
    dx, dy = footprint_gap(a, b)
    return dx <= 1 and dy <= 1 and (dx, dy) != (0, 0)
