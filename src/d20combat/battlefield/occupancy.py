"""Who stands in the way of a move, from the mover's point of view (PFB-MOVE-12..14)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum

from d20combat.battlefield.grid import Square


class Occupant(Enum):
    """Who stands in a square, from the mover's point of view (PFB-MOVE-12..14)."""

    ALLY = "ally"
    ENEMY = "enemy"
    HELPLESS = "helpless"
    """Any helpless creature, ally or enemy: it can be passed and ended on (PFB-MOVE-14)."""


Occupancy = Mapping[Square, Occupant]
"""Squares of creatures other than the mover; the mover's own squares never appear."""

OCCUPANT_TEXT = {
    Occupant.ALLY: "an ally",
    Occupant.ENEMY: "an enemy",
    Occupant.HELPLESS: "a helpless creature",
}


def can_pass(occupant: Occupant | None) -> bool:
    """Allies and helpless creatures can be moved through, enemies cannot (PFB-MOVE-12..14)."""
    return occupant is not Occupant.ENEMY


def can_end(occupant: Occupant | None) -> bool:
    """Movement may end only in an empty square or a helpless creature's (PFB-MOVE-12..14)."""
    return occupant is None or occupant is Occupant.HELPLESS
