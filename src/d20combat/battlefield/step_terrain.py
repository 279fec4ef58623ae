"""The terrain of one step: walls, pits, wall corners and difficult terrain, and what a step costs
(PFB-MOVE-16..23). Creatures are not looked at here (see :mod:`.occupancy`)."""

from __future__ import annotations

from d20combat.battlefield.grid import SQUARE_FT, Footprint, GameMap, Square

DIRECTIONS: tuple[tuple[int, int], ...] = (
    (0, -1),
    (-1, 0),
    (1, 0),
    (0, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
    (1, 1),
)

"""The eight neighbouring origins, in the order the move tables list them (the fast path keeps the same order)."""


def blocked_square(game_map: GameMap, c0: int, r0: int, size: int) -> Square | None:
    """First square of the block at ``(c0, r0)`` that is off the map, a wall or a pit."""
    passable = game_map.is_passable
    for c in range(c0, c0 + size):
        for r in range(r0, r0 + size):
            if not passable((c, r)):
                return (c, r)
    return None


def corner_cut(game_map: GameMap, c0: int, r0: int, size: int, dc: int, dr: int) -> Square | None:
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


def difficult_entered(game_map: GameMap, c0: int, r0: int, size: int, dc: int, dr: int) -> Square | None:
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


def step_cost_ft(diagonal: bool, difficult: bool, diagonals: int, counts: bool) -> tuple[int, int]:
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
    if blocked_square(game_map, c0 + dc, r0 + dr, size) is not None:
        return None
    diagonal = dc != 0 and dr != 0
    if diagonal and corner_cut(game_map, c0, r0, size, dc, dr) is not None:
        return None
    difficult = not flying and difficult_entered(game_map, c0, r0, size, dc, dr) is not None
    return step_cost_ft(diagonal, difficult, diagonals_so_far, difficult_diagonal_counts)


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
