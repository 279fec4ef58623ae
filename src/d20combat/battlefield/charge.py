"""Charge geometry: the straight line, the closest attack space and a clear path (PFB-CHG-04..09).

The legality of the charge as an action (speed limits, 10-ft minimum, surprise round) is
the ruleset's; it uses ``distance_ft`` from the start origin to the end origin for
PFB-CHG-04/05 (PFB-CHG-07 proposal: the 5/10 measure).

Straight line (PFB-CHG-07 proposal): from the centre of the start square to the centre
of the end square. Centres are half-integers, so all arithmetic is done on doubled
coordinates (``scale=2``), where centres are odd integers and corners even ones.
"""

from __future__ import annotations

from collections.abc import Collection
from math import gcd

from d20combat.battlefield.cover import line_of_effect
from d20combat.battlefield.distance import distance_ft
from d20combat.battlefield.grid import SQUARE_FT, Footprint, GameMap, Square
from d20combat.battlefield.lines import squares_crossed_scaled
from d20combat.battlefield.reach import within_reach


def _swept(start: Footprint, end_origin: Square) -> list[tuple[int, Square]]:
    """Squares entered by the centre lines of every square of ``start``, keyed by progress.

    Each square of the footprint travels from its own centre to the matching centre of the
    end footprint (for one square: the centre line itself). The key is the projection of
    the square's centre on the direction of travel (doubled coordinates), so sorting by it
    lists squares in the order the charger meets them.
    """
    n = start.size
    c0, r0 = start.origin
    dx, dy = 2 * (end_origin[0] - c0), 2 * (end_origin[1] - r0)
    keyed: dict[Square, int] = {}
    for oc in range(n):
        for orr in range(n):
            p = (2 * (c0 + oc) + 1, 2 * (r0 + orr) + 1)
            q = (p[0] + dx, p[1] + dy)
            for sq in squares_crossed_scaled(p, q, 2):
                keyed[sq] = (2 * sq[0] + 1) * dx + (2 * sq[1] + 1) * dy
    for sq in Footprint(end_origin, n).squares():
        keyed[sq] = (2 * sq[0] + 1) * dx + (2 * sq[1] + 1) * dy
    return sorted((k, sq) for sq, k in keyed.items())


def centre_line_squares(start: Footprint, end: Footprint) -> list[Square]:
    """Squares the charger's centre line enters, in the order met, including the end squares.

    For a 1-square creature this is the line from the centre ``(c+1/2, r+1/2)`` of the start
    square to the centre of the end square (PFB-CHG-07 proposal). A larger creature's own
    centre sits on a grid point, so its single centre line could run along grid lines and
    enter nothing; instead each of its squares follows its own parallel centre line, which
    sweeps the space it actually moves through. The start squares are included (callers
    testing for obstacles skip them: a creature does not obstruct itself).
    """
    return [sq for _, sq in _swept(start, end.origin)]


def closest_attack_origins(
    game_map: GameMap, charger: Footprint, target: Footprint, reach_ft: int
) -> list[Square]:
    """Origins nearest the charger's start from which it could attack the target (PFB-CHG-09a).

    Candidates: every origin whose footprint lies on the map on passable squares, has the
    target within ``reach_ft`` (PFB-GRID-07) and is not cut off from it by total cover
    (PFB-COV-09: it could not attack from there). Creatures are ignored here; an occupied
    closest space makes the charge impossible (PFB-CHG-09b), which ``charge_path_problem``
    reports. Several equally near origins are all returned, sorted: the charger picks.
    If the charger can already attack, the answer is its own origin (a 0-ft charge).
    """
    n = charger.size
    span = reach_ft // SQUARE_FT
    t0, t1 = target.origin
    m = target.size
    best_d: int | None = None
    best: list[Square] = []
    for c in range(max(0, t0 - span - n + 1), min(game_map.width - n, t0 + m - 1 + span) + 1):
        for r in range(max(0, t1 - span - n + 1), min(game_map.height - n, t1 + m - 1 + span) + 1):
            fp = Footprint((c, r), n)
            if not within_reach(fp, reach_ft, target):
                continue
            if not all(game_map.is_passable(sq) for sq in fp.squares()):
                continue
            d = distance_ft(charger.origin, (c, r))
            if best_d is not None and d > best_d:
                continue
            if not line_of_effect(game_map, fp, target):
                continue
            if best_d is None or d < best_d:
                best_d, best = d, [(c, r)]
            else:
                best.append((c, r))
    return sorted(best)


def _fmt(sq: Square) -> str:
    return f"({sq[0]},{sq[1]})"


def charge_path_problem(
    game_map: GameMap,
    charger: Footprint,
    end_origin: Square,
    occupied: Collection[Square],
    *,
    flying: bool = False,
) -> str | None:
    """Why the straight charge from ``charger`` to ``end_origin`` is not clear, or None (PFB-CHG-06..08).

    Each square of the footprint travels along its own centre-to-centre line (for a
    1-square charger, the centre line itself); the squares those lines enter, plus the end
    squares, must be on the map and free of walls, pits, creatures (``occupied``, which
    includes allies, PFB-CHG-08 proposal) and, unless flying, difficult terrain. A line
    passing exactly through a grid corner next to a wall cuts that corner, which no
    movement may do (PFB-MOVE-17). The obstacle nearest the start is named.
    """
    n = charger.size
    c0, r0 = charger.origin
    if (c0, r0) == end_origin:
        return "the charge does not move"
    dx, dy = 2 * (end_origin[0] - c0), 2 * (end_origin[1] - r0)
    own = set(charger.squares())
    # (progress along the line, kind, square): kind 0 = square entered, 1 = wall corner cut.
    events = [(k, 0, sq) for k, sq in _swept(charger, end_origin) if sq not in own]
    if dx != 0 and dy != 0:
        g = gcd(dx, dy)
        ux, uy = dx // g, dy // g
        sx = 1 if dx > 0 else 0
        sy = 1 if dy > 0 else 0
        for oc in range(n):
            for orr in range(n):
                px, py = 2 * (c0 + oc) + 1, 2 * (r0 + orr) + 1
                for k in range(1, g):
                    x, y = px + k * ux, py + k * uy
                    if x % 2 or y % 2:
                        continue
                    # The line passes exactly through grid point (x/2, y/2): it slips
                    # diagonally past the two squares there that it does not enter.
                    gx, gy = x // 2, y // 2
                    for sq in ((gx - sx, gy - 1 + sy), (gx - 1 + sx, gy - sy)):
                        if sq in game_map.walls:
                            events.append((x * dx + y * dy, 1, sq))
    events.sort()

    for _proj, kind, sq in events:
        if kind == 1:
            return f"the charge line cuts the corner of the wall at {_fmt(sq)}"
        if not game_map.in_bounds(sq):
            return f"the charge line leaves the map at {_fmt(sq)}"
        if game_map.is_solid(sq):
            return f"the charge line crosses the wall at {_fmt(sq)}"
        if sq in game_map.pits:
            return f"the charge line crosses the pit at {_fmt(sq)}"
        if sq in occupied:
            return f"the charge line crosses a creature's square {_fmt(sq)}"
        if not flying and game_map.is_difficult(sq):
            return f"the charge line crosses difficult terrain at {_fmt(sq)}"
    return None
