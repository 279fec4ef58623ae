"""Pathfinding: every origin a creature may reach within a movement budget, with its cheapest legal path
(PFB-MOVE-12..23), memoising the terrain part of every step per map."""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from d20combat.battlefield.grid import SQUARE_FT, Footprint, GameMap, Square
from d20combat.battlefield.occupancy import Occupancy, Occupant, can_end
from d20combat.battlefield.step_terrain import DIRECTIONS, blocked_square, corner_cut, difficult_entered


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


def footprint_occupants(
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
    for dc, dr in DIRECTIONS:
        nc, nr = c0 + dc, r0 + dr
        if blocked_square(game_map, nc, nr, size) is not None:
            continue
        diagonal = dc != 0 and dr != 0
        if diagonal:
            if size == 1:
                if (nc, r0) in walls or (c0, nr) in walls:
                    continue
            elif corner_cut(game_map, c0, r0, size, dc, dr) is not None:
                continue
        difficult = not flying and difficult_entered(game_map, c0, r0, size, dc, dr) is not None
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
        if all(can_end(occ) for _, occ in footprint_occupants(occupancy, origin[0], origin[1], size)):
            cost, diags, path = best[origin]
            result[origin] = PathInfo(cost, diags, path)
    return result
