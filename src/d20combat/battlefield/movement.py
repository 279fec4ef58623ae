"""Movement on the grid: step costs, corners, creatures in the way, pathfinding (PFB-MOVE-12..24).

Everything here is terrain and occupancy *geometry*. Action budgets, the 5-foot step and
minimum movement (PFB-MOVE-01..05, 25..27) are the turn manager's job; it reads the costs
computed here (e.g. a 5-foot step is legal only into a square whose step cost is 5 ft).

The diagonal counter (PFB-MOVE-16a) is threaded through explicitly as
``diagonals_so_far`` so that it can run across both halves of a double move and a
charge, and reset per turn, without this module knowing about turns.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from d20combat.battlefield.distance import distance_ft
from d20combat.battlefield.grid import SQUARE_FT, Footprint, GameMap, Square


class Occupant(Enum):
    """Who stands in a square, from the mover's point of view (PFB-MOVE-12..14)."""

    ALLY = "ally"
    ENEMY = "enemy"
    HELPLESS = "helpless"
    """Any helpless creature, ally or enemy: it can be passed and ended on (PFB-MOVE-14)."""


Occupancy = Mapping[Square, Occupant]
"""Squares of creatures other than the mover; the mover's own squares never appear."""

_DIRECTIONS: tuple[tuple[int, int], ...] = (
    (0, -1),
    (-1, 0),
    (1, 0),
    (0, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
    (1, 1),
)

_OCCUPANT_TEXT = {
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


# --------------------------------------------------------------------------- terrain of one step


def _blocked_square(game_map: GameMap, c0: int, r0: int, size: int) -> Square | None:
    """First square of the block at ``(c0, r0)`` that is off the map, a wall or a pit."""
    passable = game_map.is_passable
    for c in range(c0, c0 + size):
        for r in range(r0, r0 + size):
            if not passable((c, r)):
                return (c, r)
    return None


def _corner_cut(game_map: GameMap, c0: int, r0: int, size: int, dc: int, dr: int) -> Square | None:
    """The wall whose corner a diagonal move of the block cuts, if any (PFB-MOVE-17..19).

    Each covered square moving diagonally slips past the two squares beside its diagonal;
    if either is solid the move goes "around a corner". Creatures and pits never count:
    only walls are solid (GameMap.walls).
    """
    walls = game_map.walls
    if size == 1:
        for sq in ((c0 + dc, r0), (c0, r0 + dr)):
            if sq in walls:
                return sq
        return None
    for c in range(c0, c0 + size):
        for r in range(r0, r0 + size):
            for sq in ((c + dc, r), (c, r + dr)):
                if sq in walls:
                    return sq
    return None


def _difficult_entered(game_map: GameMap, c0: int, r0: int, size: int, dc: int, dr: int) -> Square | None:
    """First newly entered square of the moved block that is difficult (PFB-MOVE-21/22)."""
    is_difficult = game_map.is_difficult
    nc, nr = c0 + dc, r0 + dr
    if size == 1:
        return (nc, nr) if is_difficult((nc, nr)) else None
    for c in range(nc, nc + size):
        for r in range(nr, nr + size):
            if c0 <= c < c0 + size and r0 <= r < r0 + size:
                continue  # already occupied before the step: not entered
            if is_difficult((c, r)):
                return (c, r)
    return None


def _cost(diagonal: bool, difficult: bool, diagonals: int, counts: bool) -> tuple[int, int]:
    """Cost in ft and the new diagonal counter for one step (PFB-MOVE-16, 21, 22)."""
    if not diagonal:
        return (2 * SQUARE_FT if difficult else SQUARE_FT), diagonals
    if difficult:
        # Flat 15 ft (PFB-MOVE-22); whether it advances the 5/10 counter is a variant.
        return 3 * SQUARE_FT, diagonals + (1 if counts else 0)
    return (SQUARE_FT if diagonals % 2 == 0 else 2 * SQUARE_FT), diagonals + 1


def footprint_step_cost(
    game_map: GameMap,
    fp: Footprint,
    to_origin: Square,
    diagonals_so_far: int,
    *,
    flying: bool = False,
    difficult_diagonal_counts: bool = True,
) -> tuple[int, int] | None:
    """Cost of moving a whole footprint one square (to a neighbouring origin), ignoring creatures.

    Returns ``(cost_ft, new_diagonal_count)`` or ``None`` if the move is illegal: not a
    neighbouring origin, any new square off the map / a wall / a pit, or a diagonal move
    cutting a wall corner (PFB-MOVE-17). The move is difficult (PFB-MOVE-21/22) if ANY
    newly entered square is difficult, unless flying (PFB-MOVE-23).
    """
    c0, r0 = fp.origin
    dc, dr = to_origin[0] - c0, to_origin[1] - r0
    if (dc, dr) == (0, 0) or abs(dc) > 1 or abs(dr) > 1:
        return None
    size = fp.size
    if _blocked_square(game_map, c0 + dc, r0 + dr, size) is not None:
        return None
    diagonal = dc != 0 and dr != 0
    if diagonal and _corner_cut(game_map, c0, r0, size, dc, dr) is not None:
        return None
    difficult = not flying and _difficult_entered(game_map, c0, r0, size, dc, dr) is not None
    return _cost(diagonal, difficult, diagonals_so_far, difficult_diagonal_counts)


def step_cost(
    game_map: GameMap,
    frm: Square,
    to: Square,
    diagonals_so_far: int,
    *,
    flying: bool = False,
    difficult_diagonal_counts: bool = True,
) -> tuple[int, int] | None:
    """Cost of a one-square step for a 1-square creature; see ``footprint_step_cost``.

    Orthogonal: 5 ft, 10 ft into difficult terrain. Diagonal: 5 ft if the counter is even
    else 10 ft; into difficult terrain a flat 15 ft (PFB-MOVE-16, 21, 22).
    """
    return footprint_step_cost(
        game_map,
        Footprint(frm, 1),
        to,
        diagonals_so_far,
        flying=flying,
        difficult_diagonal_counts=difficult_diagonal_counts,
    )


# --------------------------------------------------------------------------- pathfinding


@dataclass(frozen=True, slots=True)
class PathInfo:
    """The cheapest way to reach an end origin.

    ``diagonals`` is the diagonal counter after the move (``diagonals_so_far`` plus the
    diagonals taken); ``path`` lists successive footprint origins, excluding the start and
    including the end.
    """

    cost_ft: int
    diagonals: int
    path: tuple[Square, ...]


def _footprint_occupants(
    occupancy: Occupancy, c0: int, r0: int, size: int
) -> Iterable[tuple[Square, Occupant]]:
    if size == 1:
        occ = occupancy.get((c0, r0))
        if occ is not None:
            yield (c0, r0), occ
        return
    for c in range(c0, c0 + size):
        for r in range(r0, r0 + size):
            occ = occupancy.get((c, r))
            if occ is not None:
                yield (c, r), occ


_Move = tuple[Square, int, int, int]
"""A legal move of a footprint: (next origin, cost if the counter is even, cost if odd, counter increment)."""


@lru_cache(maxsize=64)
def _move_table(game_map: GameMap, size: int, flying: bool, counts: bool) -> dict[Square, list[_Move]]:
    """Per-map memo of terrain-only moves, filled lazily by ``_fill_moves``.

    Terrain never changes during an encounter while ``reachable`` runs thousands of times
    (AI search inside Monte Carlo), so the terrain part of every step is worked out once
    per map, size and movement mode. This is memoisation of a pure function: results do
    not depend on what is cached.
    """
    return {}


def _fill_moves(
    table: dict[Square, list[_Move]],
    game_map: GameMap,
    size: int,
    flying: bool,
    difficult_diagonal_counts: bool,
    origin: Square,
) -> list[_Move]:
    """Terrain-legal moves of a ``size`` footprint from ``origin``, stored in ``table``."""
    ortho = (SQUARE_FT, SQUARE_FT, 0)
    ortho_difficult = (2 * SQUARE_FT, 2 * SQUARE_FT, 0)
    diag = (SQUARE_FT, 2 * SQUARE_FT, 1)
    diag_difficult = (3 * SQUARE_FT, 3 * SQUARE_FT, 1 if difficult_diagonal_counts else 0)
    c0, r0 = origin
    walls = game_map.walls
    moves: list[_Move] = []
    for dc, dr in _DIRECTIONS:
        nc, nr = c0 + dc, r0 + dr
        if _blocked_square(game_map, nc, nr, size) is not None:
            continue
        diagonal = dc != 0 and dr != 0
        if diagonal:
            if size == 1:
                if (nc, r0) in walls or (c0, nr) in walls:
                    continue
            elif _corner_cut(game_map, c0, r0, size, dc, dr) is not None:
                continue
        difficult = not flying and _difficult_entered(game_map, c0, r0, size, dc, dr) is not None
        if diagonal:
            moves.append(((nc, nr), *(diag_difficult if difficult else diag)))
        else:
            moves.append(((nc, nr), *(ortho_difficult if difficult else ortho)))
    table[origin] = moves
    return moves


def reachable(
    game_map: GameMap,
    start: Footprint,
    budget_ft: int,
    occupancy: Occupancy,
    *,
    diagonals_so_far: int = 0,
    flying: bool = False,
    difficult_diagonal_counts: bool = True,
) -> dict[Square, PathInfo]:
    """Every origin where ``start``'s creature may end a move costing at most ``budget_ft``.

    Dijkstra over states ``(origin, diagonal parity)``: the parity is all that matters for
    future costs, and two states per square keep the search exact where a plain
    per-square search would wrongly discard a slightly dearer path with a cheaper next
    diagonal. Creatures: allies and helpless creatures may be passed, enemies never, for
    every square of the footprint; the end must be empty or helpless (PFB-MOVE-12..14).

    Ties, so that results are reproducible: smaller cost, then an even counter after the
    move (the next diagonal is cheaper), then the lexicographically smallest path. The heap
    is keyed on ``(cost, path)`` and only improvements of a state's best known
    ``(cost, path)`` are queued; since every step costs > 0, all equal-cost candidates of a
    state are seen before it is popped, so it settles on the lexicographic minimum. The
    start origin itself is never returned.
    """
    size = start.size
    start_origin = start.origin
    try:
        table = _move_table(game_map, size, flying, difficult_diagonal_counts)
    except TypeError:  # a map built with unhashable (mutable) sets: just don't memoise
        table = {}
    # Origins whose footprint would overlap an enemy: never entered (PFB-MOVE-13).
    enemy_blocked: set[Square] = set()
    for (ec, er), occ in occupancy.items():
        if occ is Occupant.ENEMY:
            enemy_blocked.update((ec - dc, er - dr) for dc in range(size) for dr in range(size))

    # Per parity, per origin: best known (cost, path), and the final (cost, diagonals, path).
    tentative: tuple[dict[Square, tuple[int, tuple[Square, ...]]], ...] = ({}, {})
    settled: tuple[dict[Square, tuple[int, int, tuple[Square, ...]]], ...] = ({}, {})
    heap: list[tuple[int, tuple[Square, ...], Square, int]] = [(0, (), start_origin, diagonals_so_far)]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        cost, path, origin, diags = pop(heap)
        done = settled[diags & 1]
        if origin in done:
            continue
        done[origin] = (cost, diags, path)
        odd = diags & 1
        moves = table.get(origin)
        if moves is None:
            moves = _fill_moves(table, game_map, size, flying, difficult_diagonal_counts, origin)
        for nxt, even_cost, odd_cost, inc in moves:
            if nxt in enemy_blocked:
                continue
            ncost = cost + (odd_cost if odd else even_cost)
            if ncost > budget_ft:
                continue
            ndiags = diags + inc
            parity = ndiags & 1
            if nxt in settled[parity]:
                continue
            tent = tentative[parity]
            known = tent.get(nxt)
            if known is not None and known[0] < ncost:
                continue
            npath = (*path, nxt)
            if known is not None and known[0] == ncost and known[1] <= npath:
                continue
            tent[nxt] = (ncost, npath)
            push(heap, (ncost, npath, nxt, ndiags))

    best: dict[Square, tuple[int, int, tuple[Square, ...]]] = {}
    for origin, (cost, diags, path) in (*settled[0].items(), *settled[1].items()):
        if origin == start_origin:
            continue
        prev = best.get(origin)
        if prev is None or (cost, diags & 1, path) < (prev[0], prev[1] & 1, prev[2]):
            best[origin] = (cost, diags, path)
    result: dict[Square, PathInfo] = {}
    for origin in sorted(best):
        if all(can_end(occ) for _, occ in _footprint_occupants(occupancy, origin[0], origin[1], size)):
            cost, diags, path = best[origin]
            result[origin] = PathInfo(cost, diags, path)
    return result


# --------------------------------------------------------------------------- checking a chosen path


@dataclass(frozen=True, slots=True)
class PathCheck:
    """Verdict on a proposed path.

    ``failed_at`` is the 0-based index into the checked ``path`` of the offending step
    (messages number steps from 1 for humans); ``cost_ft`` and ``diagonals`` cover the
    steps checked before the failure, or the whole path when only the budget or the end
    square is the problem.
    """

    ok: bool
    cost_ft: int
    diagonals: int
    error: str | None = None
    failed_at: int | None = None


def _fmt(sq: Square) -> str:
    return f"({sq[0]},{sq[1]})"


def check_path(
    game_map: GameMap,
    start: Footprint,
    path: Sequence[Square],
    budget_ft: int,
    occupancy: Occupancy,
    *,
    diagonals_so_far: int = 0,
    flying: bool = False,
    difficult_diagonal_counts: bool = True,
) -> PathCheck:
    """Validate a path of successive footprint origins (start excluded) and price it.

    Checks, in this order: every step is legal (neighbouring origin, on the map, no wall or
    pit, no wall corner cut, no enemy in any square of the footprint); then the total cost
    against ``budget_ft``; then that the end squares may be ended in (PFB-MOVE-12..14).
    An empty path is trivially valid at 0 ft.
    """
    size = start.size
    c0, r0 = start.origin
    cost = 0
    diags = diagonals_so_far
    first_over: int | None = None
    for i, to in enumerate(path):
        label = f"step {i + 1} to {_fmt(to)}"
        dc, dr = to[0] - c0, to[1] - r0
        if (dc, dr) == (0, 0) or abs(dc) > 1 or abs(dr) > 1:
            return PathCheck(False, cost, diags, f"{label} is not next to {_fmt((c0, r0))}", i)
        bad = _blocked_square(game_map, to[0], to[1], size)
        if bad is not None:
            if not game_map.in_bounds(bad):
                what = f"{_fmt(bad)} is off the map"
            elif game_map.is_solid(bad):
                what = f"a wall blocks {_fmt(bad)}"
            else:
                what = f"a pit blocks {_fmt(bad)}"
            return PathCheck(False, cost, diags, f"{label}: {what}", i)
        diagonal = dc != 0 and dr != 0
        if diagonal:
            wall = _corner_cut(game_map, c0, r0, size, dc, dr)
            if wall is not None:
                msg = f"{label} cuts the corner of the wall at {_fmt(wall)}"
                return PathCheck(False, cost, diags, msg, i)
        for sq, occ in _footprint_occupants(occupancy, to[0], to[1], size):
            if not can_pass(occ):
                return PathCheck(False, cost, diags, f"{label}: {_OCCUPANT_TEXT[occ]} occupies {_fmt(sq)}", i)
        difficult = not flying and _difficult_entered(game_map, c0, r0, size, dc, dr) is not None
        step, diags = _cost(diagonal, difficult, diags, difficult_diagonal_counts)
        cost += step
        if cost > budget_ft and first_over is None:
            first_over = i
        c0, r0 = to
    if first_over is not None:
        return PathCheck(
            False,
            cost,
            diags,
            f"path costs {cost} ft but only {budget_ft} ft of movement remain",
            first_over,
        )
    if path:
        for sq, occ in _footprint_occupants(occupancy, c0, r0, size):
            if not can_end(occ):
                msg = f"cannot end in {_fmt(sq)}: {_OCCUPANT_TEXT[occ]} is there"
                return PathCheck(False, cost, diags, msg, len(path) - 1)
    return PathCheck(True, cost, diags)


# --------------------------------------------------------------------------- illegal end (PFB-MOVE-24)


def fallback_end(
    path_with_start: Sequence[Square],
    can_end_at: Callable[[Square], bool],
    candidates: Iterable[Square],
) -> list[Square]:
    """Where a creature that stopped somewhere illegal actually ends (PFB-MOVE-24).

    The intended end is the last entry of ``path_with_start``. The default is the most
    recent allowed square on the path; an allowed square among ``candidates`` replaces it
    only if it is STRICTLY closer (5/10 distance) to the intended end (PFB-MOVE-24c).
    Returns every equally good choice, sorted; more than one means a tie the engine breaks
    with a die roll (or the controller, if the GM allows). Returns ``[end]`` if the end is
    itself allowed and ``[]`` if nothing is allowed.
    """
    if not path_with_start:
        return []
    target = path_with_start[-1]
    if can_end_at(target):
        return [target]
    recent: Square | None = None
    for sq in reversed(path_with_start[:-1]):
        if can_end_at(sq):
            recent = sq
            break
    best_d: int | None = None
    best: set[Square] = set()
    for sq in candidates:
        if sq == target or not can_end_at(sq):
            continue
        d = distance_ft(sq, target)
        if best_d is None or d < best_d:
            best_d, best = d, {sq}
        elif d == best_d:
            best.add(sq)
    if recent is not None and (best_d is None or best_d >= distance_ft(recent, target)):
        return [recent]
    return sorted(best)
