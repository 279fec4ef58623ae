"""Exact line tracing between grid points (PFB-COV-02, PFB-CONC-03, PFB-CHG-07).

Cover and concealment draw imaginary lines between square *corners*; charges follow the
line between square *centres*. Both are done with integer arithmetic only: corner points
are integers, and centres are integers once every coordinate is doubled (``scale=2``).
A floating-point tracer would misjudge exactly the cases the rules care about, lines that
graze a corner or run along an edge.

Reading of PFB-COV-02: a line "passes through" a square only if it enters the square's
open interior. Touching a corner point or running along an edge does not count. The one
exception, which is the caller's business, is a line that squeezes between two solid
squares (along their shared edge or through the point where they touch diagonally): see
``squeezes``.
"""

from __future__ import annotations

from functools import lru_cache
from math import gcd

from d20combat.battlefield.grid import Footprint, Square

Point = tuple[int, int]
"""A grid point ``(x, y)``; square ``(c, r)`` spans ``[c, c+1] x [r, r+1]``."""


def footprint_corners(fp: Footprint) -> tuple[Point, Point, Point, Point]:
    """The four outer corners of a footprint's block, in a fixed order (NW, NE, SW, SE).

    A multi-square creature's "square" (PFB-COV-02) is read as its whole space, so lines
    start at the corners of the block, not at the inner grid points between its squares.
    """
    c, r = fp.origin
    n = fp.size
    return ((c, r), (c + n, r), (c, r + n), (c + n, r + n))


def segment_crosses_square(p: Point, q: Point, square: Square) -> bool:
    """True if the segment between grid points ``p`` and ``q`` enters the open interior of ``square``.

    The infinite line meets the open unit square iff the square's four corners lie strictly
    on both sides of it; because ``p`` and ``q`` are grid points (never inside a square),
    the segment then meets it iff the square lies within the segment's bounding box.
    """
    c, r = square
    px, py = p
    qx, qy = q
    if not (min(px, qx) <= c and c + 1 <= max(px, qx) and min(py, qy) <= r and r + 1 <= max(py, qy)):
        return False
    dx = qx - px
    dy = qy - py
    # Sign of the cross product (q - p) x (corner - p) at the four corners.
    base = dx * (r - py) - dy * (c - px)
    s00 = base
    s10 = base - dy
    s01 = base + dx
    s11 = base + dx - dy
    lo = min(s00, s10, s01, s11)
    hi = max(s00, s10, s01, s11)
    return lo < 0 < hi


def _ceil_div(a: int, b: int) -> int:
    return -((-a) // b)


def squares_crossed_scaled(p: Point, q: Point, scale: int) -> list[Square]:
    """Squares whose open interior the segment ``p``-``q`` enters, in order from ``p`` to ``q``.

    Coordinates are in units of ``1/scale`` square, so ``scale=2`` lets the endpoints sit at
    square centres (odd coordinates). The scan visits one column at a time and computes the
    exact range of rows the segment spans inside that column, so only crossed squares are
    ever produced (no bounding-box sweep).
    """
    px, py = p
    qx, qy = q
    if (px, py) == (qx, qy):
        # A single point is "in" a square only if it lies strictly inside it.
        if px % scale and py % scale:
            return [(px // scale, py // scale)]
        return []
    if qx < px:
        out = squares_crossed_scaled(q, p, scale)
        out.reverse()
        return out
    dx = qx - px
    dy = qy - py
    step = 1 if dy >= 0 else -1
    if dx == 0:
        if px % scale == 0:
            return []  # runs along a grid line
        c = px // scale
        ylo, yhi = min(py, qy), max(py, qy)
        rows = range(ylo // scale, _ceil_div(yhi, scale))
        return [(c, r) for r in (rows if step > 0 else reversed(rows))]
    result: list[Square] = []
    denom = dx * scale
    for c in range(px // scale, _ceil_div(qx, scale)):
        xa = max(px, c * scale)
        xb = min(qx, (c + 1) * scale)
        if xa >= xb:
            continue
        if dy == 0:
            if py % scale == 0:
                return []  # runs along a grid line
            result.append((c, py // scale))
            continue
        # y(x) * dx = py * dx + (x - px) * dy, exactly.
        na = py * dx + (xa - px) * dy
        nb = py * dx + (xb - px) * dy
        nlo, nhi = (na, nb) if na < nb else (nb, na)
        rows = range(nlo // denom, _ceil_div(nhi, denom))
        result.extend((c, r) for r in (rows if step > 0 else reversed(rows)))
    return result


def squares_crossed(p: Point, q: Point) -> list[Square]:
    """Squares whose open interior the segment between grid points ``p`` and ``q`` enters, in order."""
    return list(crossed(p, q))


@lru_cache(maxsize=1 << 17)
def crossed(p: Point, q: Point) -> tuple[Square, ...]:
    """:func:`squares_crossed`, memoized: a map has few corner pairs and the AI asks about the same lines
    thousands of times per battle (cover and concealment for every candidate target)."""
    return tuple(squares_crossed_scaled(p, q, 1))


@lru_cache(maxsize=1 << 17)
def squeezed(p: Point, q: Point) -> tuple[tuple[Square, Square], ...]:
    """:func:`squeezes`, memoized."""
    return tuple(squeezes(p, q))


def squeezes(p: Point, q: Point) -> list[tuple[Square, Square]]:
    """Pairs of squares the segment passes *between* without entering either, in order from ``p``.

    * A segment along a grid line passes between the two squares sharing each unit edge
      it covers.
    * A slanted segment through a grid point strictly between ``p`` and ``q`` passes
      between the two squares at that point that it does not enter.

    Grazing one obstacle does not block a line (PFB-COV-02 reading), but squeezing between
    two walls means going through solid masonry; cover uses these pairs for that.
    """
    px, py = p
    qx, qy = q
    dx = qx - px
    dy = qy - py
    out: list[tuple[Square, Square]] = []
    if dx == 0 and dy == 0:
        return out
    if dy == 0:
        s = 1 if dx > 0 else -1
        for x in range(px, qx, s):
            c = x if s > 0 else x - 1
            out.append(((c, py - 1), (c, py)))
        return out
    if dx == 0:
        s = 1 if dy > 0 else -1
        for y in range(py, qy, s):
            r = y if s > 0 else y - 1
            out.append(((px - 1, r), (px, r)))
        return out
    g = gcd(dx, dy)
    ux, uy = dx // g, dy // g
    sx = 1 if dx > 0 else 0
    sy = 1 if dy > 0 else 0
    for k in range(1, g):
        x = px + k * ux
        y = py + k * uy
        # Entered squares are on the (-dx,-dy) and (+dx,+dy) sides; the other two are touched.
        out.append(((x - sx, y - 1 + sy), (x - 1 + sx, y - sy)))
    return out
