"""The map: 5-ft squares, terrain and light (PFB-GRID-01).

Squares are written ``(column, row)``; column grows east, row grows south. A square's
corners sit at multiples of one square: square ``(c, r)`` spans ``[c, c+1] x [r, r+1]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from d20combat.battlefield.distance import distance_ft
from d20combat.battlefield.squares import SQUARE_FT, Footprint, Square

__all__ = ["SQUARE_FT", "Footprint", "GameMap", "Light", "Square"]

class Light(str, Enum):  # noqa: UP042 - str() stays "Light.DIM" for existing callers
    BRIGHT = "bright"
    DIM = "dim"
    DARK = "dark"


@dataclass(frozen=True)
class GameMap:
    """Static terrain. Everything here is immutable; creatures live in the encounter state."""

    width: int
    height: int
    walls: frozenset[Square] = frozenset()
    """Solid, full-height obstacles: block movement, sight and attacks; they make corners."""
    low_walls: frozenset[Square] = frozenset()
    """Obstacles no higher than half a Medium creature (PFB-COV-07): cover by the low-obstacle rule."""
    difficult: frozenset[Square] = frozenset()
    """Squares that slow movement: undergrowth, rubble, steep stairs (PFB-MOVE-20)."""
    pits: frozenset[Square] = frozenset()
    """Impassable but not solid: no cover, no corner (PFB-MOVE-19)."""
    concealing: Mapping[Square, int] = field(default_factory=dict)
    """Squares that conceal (bushes, fog): miss chance in percent, usually 20 (PFB-CONC-02/03)."""
    light: Mapping[Square, Light] = field(default_factory=dict)
    """Light level per square; unlisted squares are bright (PFB-CONC-04)."""
    water: frozenset[Square] = frozenset()
    """Deep water: entered only by swimming (PFB-MOVE-07)."""
    climb: frozenset[Square] = frozenset()
    """Surfaces entered only by climbing: cliffs, steep rubble (PFB-MOVE-07)."""
    skill_dc: Mapping[Square, int] = field(default_factory=dict)
    """Climb or Swim DC of a square where it differs from the default (Climb 15, Swim 10)."""
    lights: tuple[tuple[Square, int, int], ...] = ()
    """Light sources: (square, bright radius ft, further dim radius ft); a torch is 20/20 (PFB-CONC-16)."""
    elevation: Mapping[Square, int] = field(default_factory=dict)
    """Height of the ground in feet where it is not 0, for higher ground (CMV-SIT-04)."""
    narrow: frozenset[Square] = frozenset()
    """Squares narrower than a creature's space but at least half as wide: a creature there squeezes (CMV-SIT-10)."""
    narrow_openings: frozenset[Square] = frozenset()
    """Openings in a wall such as arrow slits: lines and long piercing weapons pass, creatures don't (CMV-COV-23)."""
    improved_cover: frozenset[Square] = frozenset()
    """Squares and openings the GM grades as improved cover, e.g. an arrow slit (CMV-COV-18)."""
    impeded: frozenset[Square] = frozenset()
    """Impeded terrain (EP-MOVE-05..10): junk-strewn rooms, vine-choked jungle, waist-deep bog — ordinary movement
    does not enter it; a ruleset that has impeded movement moves 5 ft into or within it with a full round."""
    blocked: frozenset[Square] = frozenset()
    """Blocked terrain that does not block sight (EP-MOVE-11/13): a portcullis, a statue — impassable, but neither
    solid for lines nor a corner (walls are blocked terrain that also blocks sight)."""
    splash_soft: frozenset[Square] = frozenset()
    """Squares too soft to break a thrown splash weapon (EP-SPLASH-14/15: webs, flesh, rubber), by the GM's word."""

    def __hash__(self) -> int:
        return hash((self.width, self.height, self.walls, self.low_walls, self.difficult, self.pits, self.water,
                     self.climb))

    def in_bounds(self, square: Square) -> bool:
        return 0 <= square[0] < self.width and 0 <= square[1] < self.height

    def is_solid(self, square: Square) -> bool:
        return square in self.walls

    def is_passable(self, square: Square) -> bool:
        """Enterable by ordinary movement: on the map and not a wall, pit, water or climbing surface."""
        return (self.in_bounds(square) and square not in self.walls and square not in self.pits
                and square not in self.water and square not in self.climb and square not in self.narrow_openings
                and square not in self.impeded and square not in self.blocked)

    def is_impeded(self, square: Square) -> bool:
        """Impeded terrain (EP-MOVE-05)."""
        return square in self.impeded

    def is_blocked(self, square: Square) -> bool:
        """Blocked terrain (EP-MOVE-11): a wall, or a blocked square that lets sight through."""
        return square in self.walls or square in self.blocked

    def skill_for(self, square: Square) -> tuple[str, int] | None:
        """("climb"|"swim", DC) for a square that needs a skill to enter, else None (PFB-MOVE-07)."""
        if square in self.water:
            return "swim", self.skill_dc.get(square, 10)
        if square in self.climb:
            return "climb", self.skill_dc.get(square, 15)
        return None

    def is_difficult(self, square: Square) -> bool:
        # A low wall is climbed over, which costs like difficult terrain (PF1 CRB "low obstacle").
        return square in self.difficult or square in self.low_walls

    def light_at(self, square: Square) -> Light:
        return self.light.get(square, Light.BRIGHT)

    def light_for(self, square: Square, low_light: bool = False) -> Light:
        """The light a viewer sees on ``square``: the area's own level, raised by light sources.
        Low-light vision doubles both radii of every source (PFB-CONC-16, PF1 default)."""
        level = self.light_at(square)
        if level is Light.BRIGHT or not self.lights:
            return level
        factor = 2 if low_light else 1
        for source, bright, dim in self.lights:
            d = distance_ft(source, square)
            if d <= bright * factor:
                return Light.BRIGHT
            if d <= (bright + dim) * factor:
                level = Light.DIM
        return level
