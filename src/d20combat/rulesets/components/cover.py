"""P17 cover: which corner-to-corner lines count, what blocks them, and what cover is worth."""

from __future__ import annotations

from typing import Literal

from d20combat.battlefield.cover import CoverDegree, CoverFact, cover
from d20combat.battlefield.grid import Footprint, GameMap, Square
from d20combat.numbers import Modifier
from d20combat.rulesets.components.component import Component


class CornerCover(Component):
    """PFB-COV: +4 AC when a line from the attacker to the target is blocked; adjacent melee uses any line,
    ranged and reach attacks pick their best corner; creatures on the line give cover."""

    def __init__(self, *, any_line_everywhere: bool = False, reach_ranged_only_nonadjacent: bool = False,
                 partial_cover: bool = False, adjacent_melee_ignores_creatures: bool = False) -> None:
        self.any_line_everywhere = any_line_everywhere
        """PFB-COV-06: the any-line rule for every attack."""
        self.reach_ranged_only_nonadjacent = reach_ranged_only_nonadjacent
        """PFB-COV-14: reach uses the ranged method only against non-adjacent targets."""
        self.partial_cover = partial_cover
        """PFB-COV-16: partial cover +2 AC."""
        self.adjacent_melee_ignores_creatures = adjacent_melee_ignores_creatures
        """PFB-COV-05 variant: creatures give no cover against an adjacent melee attack. The default reading (they
        do, e.g. an ally at the corner of a diagonal attack) is the literal one: 'a solid object or a creature',
        with no PF1-style soft-cover restriction to ranged attacks."""

    def creatures_give_cover(self, ranged: bool) -> bool:
        """PFB-COV-05: a creature on a line gives cover against melee and ranged attacks alike."""
        return True

    def cover_mode(self, *, ranged: bool, reach_attack: bool, adjacent: bool) -> Literal["any_line", "best_corner"]:
        """PFB-COV-06/14: adjacent melee uses any line; ranged and reach attacks pick their best corner."""
        if self.any_line_everywhere:
            return "any_line"
        if ranged:
            return "best_corner"
        if reach_attack and not (adjacent and self.reach_ranged_only_nonadjacent):
            return "best_corner"
        return "any_line"

    def find_cover(self, game_map: GameMap, attacker: Footprint, target: Footprint, *, ranged: bool,
                   reach_attack: bool, adjacent: bool, creature_squares: dict[Square, str]) -> CoverFact:
        """The cover fact for this attack (the lines are the core's, :meth:`cover_mode` picks them)."""
        mode = self.cover_mode(ranged=ranged, reach_attack=reach_attack, adjacent=adjacent)
        if self.adjacent_melee_ignores_creatures and adjacent and not ranged:
            creature_squares = {}  # PFB-COV-05 variant: no creature cover against adjacent melee
        return cover(game_map, attacker, target, mode=mode, creature_squares=creature_squares,
                     partial_cover=self.partial_cover)

    def cover_modifier(self, fact: CoverFact) -> Modifier | None:
        """PFB-COV-04: +4 AC; partial cover +2 when that variant is on (PFB-COV-16)."""
        if fact.degree is CoverDegree.COVER:
            return Modifier(4, "cover", "cover")
        if fact.degree is CoverDegree.PARTIAL:
            return Modifier(2, "partial cover", "cover")
        return None
