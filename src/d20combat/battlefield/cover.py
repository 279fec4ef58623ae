"""Cover by corner-to-corner lines (PFB-COV-01..16). Facts only; the ruleset prices them.

Two readings of who picks the corners coexist in PFB (PFB-COV-06):

* ``"any_line"`` (body text, PFB-COV-02/03; adjacent melee): the defender has cover if ANY
  line from any attacker corner to any defender corner is blocked.
* ``"best_corner"`` (captions, PFB-COV-14/15; ranged and reach): the attacker picks the corner
  of its space that suits it best; the defender has cover only if from EVERY attacker corner
  some line to a defender corner is blocked.

Which mode an attack uses, and what cover is worth, is for the ruleset to decide.

What blocks a line (PFB-COV-01/02/05/07/08): entering the interior of a wall square, of a
square holding a creature other than the attacker and the defender, or of a low-wall
square of a low obstacle that the attacker is not strictly closer to than the defender.
A low *obstacle* is a connected run of low-wall squares (squares touching at an edge or a
corner, :func:`low_obstacle`); a creature's distance to it is to its nearest square
(PFB-COV-08, CMV-COV-06), not to the square a line happens to cross. Grazing a corner or
running along an edge does not block, except that squeezing between two walls (along
their shared edge, or through the point where they touch) passes through solid masonry
and does. Only walls can give total cover (PFB-COV-11 proposal).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from types import MappingProxyType
from typing import Literal

from d20combat.battlefield.distance import square_to_footprint_ft
from d20combat.battlefield.grid import Footprint, GameMap, Square
from d20combat.battlefield.lines import Point, crossed, footprint_corners, squeezed


class CoverDegree(Enum):
    NONE = "none"
    PARTIAL = "partial"
    COVER = "cover"
    TOTAL = "total"


@dataclass(frozen=True, slots=True)
class CoverFact:
    """What shelters the defender from this attacker, and why.

    ``via`` is the square that decides the verdict (a blocking square, or for NONE a low
    wall that failed to protect); ``blocked_lines``/``lines`` count blocked and drawn lines
    (all corner pairs in ``any_line`` mode and for TOTAL; the chosen corner's lines in
    ``best_corner`` mode).
    """

    degree: CoverDegree
    via: Square | None
    reason: str
    blocked_lines: int = 0
    lines: int = 0


_NO_CREATURES: Mapping[Square, str] = MappingProxyType({})


def _fmt(sq: Square | Point) -> str:
    return f"({sq[0]},{sq[1]})"


@dataclass(frozen=True, slots=True)
class _Blocker:
    square: Square
    text: str


class _Tracer:
    """Classifies lines for one attacker/defender pair; caches low-wall verdicts."""

    def __init__(
        self,
        game_map: GameMap,
        attacker: Footprint,
        defender: Footprint,
        creature_squares: Mapping[Square, str],
    ) -> None:
        self.map = game_map
        self.attacker = attacker
        self.defender = defender
        self.own = frozenset(attacker.squares()) | frozenset(defender.squares())
        self.creatures = creature_squares
        self.low_wall_ok: dict[Square, bool] = {}
        self.ignored_low_walls: list[Square] = []

    def low_wall_blocks(self, sq: Square) -> bool:
        """PFB-COV-08: a low wall protects unless the attacker is strictly closer to its obstacle."""
        ok = self.low_wall_ok.get(sq)
        if ok is None:
            run = low_obstacle(self.map.low_walls, sq)
            ok = obstacle_distance_ft(run, self.attacker) >= obstacle_distance_ft(run, self.defender)
            self.low_wall_ok[sq] = ok
            if not ok:
                self.ignored_low_walls.append(sq)
        return ok

    def crossed(self, p: Point, q: Point) -> tuple[Square, ...]:
        """Squares line ``p``-``q`` enters (memoized in :func:`lines.crossed`)."""
        return crossed(p, q)

    def first_blocker(self, p: Point, q: Point) -> _Blocker | None:
        """First obstacle on line ``p``-``q`` from the attacker, else a wall pair it squeezes between."""
        walls = self.map.walls
        low_walls = self.map.low_walls
        creatures = self.creatures
        own = self.own
        for sq in self.crossed(p, q):
            if sq in own:
                continue
            if sq in walls:
                return _Blocker(sq, f"{_line(p, q)} crosses the wall at {_fmt(sq)}")
            name = creatures.get(sq)
            if name is not None:
                return _Blocker(sq, f"{_line(p, q)} crosses {name}'s square {_fmt(sq)}")
            if sq in low_walls and self.low_wall_blocks(sq):
                text = f"{_line(p, q)} crosses the low wall at {_fmt(sq)}, which the attacker is not closer to"
                return _Blocker(sq, text)
        return self.squeeze_wall(p, q)

    def squeeze_wall(self, p: Point, q: Point) -> _Blocker | None:
        walls = self.map.walls
        for a, b in squeezed(p, q):
            if a in walls and b in walls:
                text = f"{_line(p, q)} squeezes between the walls at {_fmt(a)} and {_fmt(b)}"
                return _Blocker(a, text)
        return None

    def wall_blocker(self, p: Point, q: Point) -> Square | None:
        walls = self.map.walls
        for sq in self.crossed(p, q):
            if sq in walls:
                return sq
        w = self.squeeze_wall(p, q)
        return None if w is None else w.square


@lru_cache(maxsize=64)
def _low_obstacles(low_walls: frozenset[Square]) -> Mapping[Square, frozenset[Square]]:
    """Each low-wall square's obstacle: the connected runs of ``low_walls`` (8-neighbourhood)."""
    out: dict[Square, frozenset[Square]] = {}
    for start in sorted(low_walls):
        if start in out:
            continue
        run = {start}
        todo = [start]
        while todo:
            c, r = todo.pop()
            for dc in (-1, 0, 1):
                for dr in (-1, 0, 1):
                    n = (c + dc, r + dr)
                    if n in low_walls and n not in run:
                        run.add(n)
                        todo.append(n)
        frozen = frozenset(run)
        for sq in frozen:
            out[sq] = frozen
    return MappingProxyType(out)


def low_obstacle(low_walls: frozenset[Square], square: Square) -> frozenset[Square]:
    """The low obstacle ``square`` belongs to (PFB-COV-08, CMV-COV-06): the connected run of low-wall
    squares holding it, squares touching at an edge or a corner being connected (a wall drawn along a
    diagonal is one wall). Empty if ``square`` is not a low wall."""
    return _low_obstacles(low_walls).get(square, frozenset())


def obstacle_distance_ft(obstacle: Collection[Square], fp: Footprint) -> int:
    """Grid distance (5/10) from ``fp``'s nearest square to the obstacle's nearest square (PFB-COV-08)."""
    return min(square_to_footprint_ft(sq, fp) for sq in obstacle)


def _line(p: Point, q: Point) -> str:
    return f"line from corner {_fmt(p)} to corner {_fmt(q)}"


def _box(a: Footprint, b: Footprint) -> tuple[int, int, int, int]:
    """Columns and rows (inclusive) of the smallest block holding both footprints: every line stays inside."""
    return (
        min(a.origin[0], b.origin[0]),
        max(a.origin[0] + a.size, b.origin[0] + b.size) - 1,
        min(a.origin[1], b.origin[1]),
        max(a.origin[1] + a.size, b.origin[1] + b.size) - 1,
    )


def _any_in_box(squares: Collection[Square], box: tuple[int, int, int, int], own: frozenset[Square]) -> bool:
    """Whether any of ``squares`` (other than ``own``) lies in ``box``; scans whichever is smaller."""
    c0, c1, r0, r1 = box
    if (c1 - c0 + 1) * (r1 - r0 + 1) < len(squares):
        return any(
            (c, r) in squares and (c, r) not in own for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)
        )
    return any(c0 <= c <= c1 and r0 <= r <= r1 and (c, r) not in own for c, r in squares)


def _total(
    game_map: GameMap, attacker: Footprint, defender: Footprint, tracer: _Tracer | None = None
) -> Square | None:
    """The first wall of the first line if EVERY corner-to-corner line hits a wall (PFB-COV-09..11)."""
    if not game_map.walls or not _any_in_box(game_map.walls, _box(attacker, defender), frozenset()):
        return None
    t = tracer or _Tracer(game_map, attacker, defender, _NO_CREATURES)
    first: Square | None = None
    for p in footprint_corners(attacker):
        for q in footprint_corners(defender):
            w = t.wall_blocker(p, q)
            if w is None:
                return None
            if first is None:
                first = w
    return first


def cover(
    game_map: GameMap,
    attacker: Footprint,
    defender: Footprint,
    *,
    mode: Literal["any_line", "best_corner"],
    creature_squares: Mapping[Square, str] = _NO_CREATURES,
    partial_cover: bool = False,
) -> CoverFact:
    """Cover of ``defender`` against ``attacker`` (PFB-COV-02..16), as a fact with its reason.

    ``creature_squares`` maps squares of creatures other than the two (ally or enemy,
    helpless or not, PFB-COV-05) to a display name. ``partial_cover`` (variant
    ``pfb_partial_cover``, PFB-COV-16) only matters in ``best_corner`` mode: if fewer than
    half of the chosen corner's lines are blocked, but at least one is, the fact is PARTIAL.
    """
    tracer = _Tracer(game_map, attacker, defender, creature_squares)
    a_corners = footprint_corners(attacker)
    d_corners = footprint_corners(defender)
    n_all = len(a_corners) * len(d_corners)
    box = _box(attacker, defender)
    if not (
        _any_in_box(game_map.walls, box, tracer.own)
        or _any_in_box(game_map.low_walls, box, tracer.own)
        or _any_in_box(creature_squares, box, tracer.own)
    ):
        # Nothing at all lies where any line could pass: the common open-field case.
        if mode == "any_line":
            return _no_cover(tracer, 0, n_all)
        return _no_cover(tracer, 0, len(d_corners), a_corners[0])

    total_via = _total(game_map, attacker, defender, tracer)
    if total_via is not None:
        return CoverFact(CoverDegree.TOTAL, total_via, "every line is blocked by walls", n_all, n_all)

    # Per attacker corner: the blockers of its lines, in defender-corner order.
    per_corner: list[list[_Blocker]] = []
    for p in a_corners:
        per_corner.append([b for q in d_corners if (b := tracer.first_blocker(p, q)) is not None])

    if mode == "any_line":
        blocked = sum(len(bs) for bs in per_corner)
        for bs in per_corner:
            if bs:
                return CoverFact(CoverDegree.COVER, bs[0].square, bs[0].text, blocked, n_all)
        return _no_cover(tracer, 0, n_all)

    # best_corner: the attacker takes the corner with the fewest blocked lines (first on a tie).
    best_i = min(range(len(per_corner)), key=lambda i: len(per_corner[i]))
    bs = per_corner[best_i]
    n = len(d_corners)
    if not bs:
        return _no_cover(tracer, 0, n, a_corners[best_i])
    degree = CoverDegree.PARTIAL if partial_cover and 2 * len(bs) < n else CoverDegree.COVER
    return CoverFact(degree, bs[0].square, bs[0].text, len(bs), n)


def _no_cover(tracer: _Tracer, blocked: int, n: int, corner: Point | None = None) -> CoverFact:
    if tracer.ignored_low_walls:
        sq = tracer.ignored_low_walls[0]
        return CoverFact(
            CoverDegree.NONE,
            sq,
            f"low wall at {_fmt(sq)}: attacker is closer to it than the defender",
            blocked,
            n,
        )
    where = "" if corner is None else f" from corner {_fmt(corner)}"
    return CoverFact(CoverDegree.NONE, None, f"no line{where} is blocked", blocked, n)


def line_of_effect(game_map: GameMap, a: Footprint, b: Footprint) -> bool:
    """True unless walls give total cover between ``a`` and ``b`` (symmetric, PFB-COV-11)."""
    return _total(game_map, a, b) is None
