"""Flanking geometry: are two creatures on opposite sides of a third? Facts only.

The rule texts that have flanking (CMV-COND-34) leave "opposite side" undefined; the proposed
default is PF1 CRB's: draw a line between the centres of the attacker's square and the ally's
square. If it passes through opposite borders (north and south, or west and east) or opposite
corners of the defender's space, the two flank it. A creature larger than one square flanks if any
square it occupies does. Whether the ally *threatens* the defender, and what flanking is worth,
is the ruleset's business.

All arithmetic is exact: coordinates are doubled, so square centres are odd integers and the
defender's borders even ones, and the crossing points are fractions.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from d20combat.battlefield.grid import Footprint, Square

_OPPOSITE = (("N", "S"), ("S", "N"), ("W", "E"), ("E", "W"))


@dataclass(frozen=True, slots=True)
class FlankFact:
    """Which two squares flank the defender, and the borders the centre line crosses."""

    attacker_square: Square
    ally_square: Square
    enters: frozenset[str]
    leaves: frozenset[str]

    def describe(self) -> str:
        a, b = self.attacker_square, self.ally_square
        return (f"the line between the centres of ({a[0]},{a[1]}) and ({b[0]},{b[1]}) crosses the "
                f"{'/'.join(sorted(self.enters))} and {'/'.join(sorted(self.leaves))} sides")


def _sides(x: Fraction, y: Fraction, box: tuple[int, int, int, int]) -> frozenset[str]:
    x0, x1, y0, y1 = box
    out = set()
    if x == x0:
        out.add("W")
    if x == x1:
        out.add("E")
    if y == y0:
        out.add("N")
    if y == y1:
        out.add("S")
    return frozenset(out)


def crossing(p: tuple[int, int], q: tuple[int, int], box: tuple[int, int, int, int]
             ) -> tuple[frozenset[str], frozenset[str]] | None:
    """The sides of ``box`` (x0, x1, y0, y1) where segment ``p``-``q`` enters and leaves it, or None
    if the segment does not pass through the box's open interior (grazing a corner or running
    along a border is not passing through)."""
    x0, x1, y0, y1 = box
    t0, t1 = Fraction(0), Fraction(1)
    dx, dy = q[0] - p[0], q[1] - p[1]
    for delta, lo, hi, start in ((dx, x0, x1, p[0]), (dy, y0, y1, p[1])):
        if delta == 0:
            if not lo < start < hi:
                return None
            continue
        ta, tb = Fraction(lo - start, delta), Fraction(hi - start, delta)
        if ta > tb:
            ta, tb = tb, ta
        t0, t1 = max(t0, ta), min(t1, tb)
        if t0 >= t1:
            return None
    enter = _sides(p[0] + t0 * dx, p[1] + t0 * dy, box)
    leave = _sides(p[0] + t1 * dx, p[1] + t1 * dy, box)
    return enter, leave


def flanking_fact(attacker: Footprint, ally: Footprint, defender: Footprint) -> FlankFact | None:
    """How ``attacker`` and ``ally`` flank ``defender`` (CMV-COND-34 proposal), or None if they don't."""
    n = defender.size
    c0, r0 = defender.origin
    box = (2 * c0, 2 * (c0 + n), 2 * r0, 2 * (r0 + n))
    for a in sorted(attacker.squares()):
        for b in sorted(ally.squares()):
            p = (2 * a[0] + 1, 2 * a[1] + 1)
            q = (2 * b[0] + 1, 2 * b[1] + 1)
            sides = crossing(p, q, box)
            if sides is None:
                continue
            enters, leaves = sides
            if any(s in enters and t in leaves for s, t in _OPPOSITE):
                return FlankFact(a, b, enters, leaves)
    return None


def flanks(attacker: Footprint, ally: Footprint, defender: Footprint) -> bool:
    """True if ``attacker`` and ``ally`` are on opposite sides of ``defender``."""
    return flanking_fact(attacker, ally, defender) is not None
