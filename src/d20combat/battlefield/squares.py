"""Squares and footprints (PFB-GRID-01/03/04): the words every part of the battlefield shares.

Squares are written ``(column, row)``; column grows east, row grows south.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

Square = tuple[int, int]

SQUARE_FT = 5


@dataclass(frozen=True, slots=True)
class Footprint:
    """The squares a creature occupies: an ``size`` x ``size`` block from ``origin`` (PFB-GRID-03/04)."""

    origin: Square
    size: int = 1

    def squares(self) -> Iterator[Square]:
        c0, r0 = self.origin
        for dc in range(self.size):
            for dr in range(self.size):
                yield (c0 + dc, r0 + dr)

    def moved_to(self, origin: Square) -> Footprint:
        return Footprint(origin, self.size)

    @property
    def max_corner(self) -> Square:
        return (self.origin[0] + self.size - 1, self.origin[1] + self.size - 1)
