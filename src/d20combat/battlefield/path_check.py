"""Checking a path a creature chose (PFB-MOVE-12..23) and where a creature that stopped somewhere illegal
actually ends (PFB-MOVE-24)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from d20combat.battlefield.distance import distance_ft
from d20combat.battlefield.grid import Footprint, GameMap, Square
from d20combat.battlefield.occupancy import OCCUPANT_TEXT, Occupancy, can_end, can_pass
from d20combat.battlefield.pathfinding import footprint_occupants
from d20combat.battlefield.step_terrain import blocked_square, corner_cut, difficult_entered, step_cost_ft


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
        bad = blocked_square(game_map, to[0], to[1], size)
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
            wall = corner_cut(game_map, c0, r0, size, dc, dr)
            if wall is not None:
                msg = f"{label} cuts the corner of the wall at {_fmt(wall)}"
                return PathCheck(False, cost, diags, msg, i)
        for sq, occ in footprint_occupants(occupancy, to[0], to[1], size):
            if not can_pass(occ):
                return PathCheck(False, cost, diags, f"{label}: {OCCUPANT_TEXT[occ]} occupies {_fmt(sq)}", i)
        difficult = not flying and difficult_entered(game_map, c0, r0, size, dc, dr) is not None
        step, diags = step_cost_ft(diagonal, difficult, diags, difficult_diagonal_counts)
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
        for sq, occ in footprint_occupants(occupancy, c0, r0, size):
            if not can_end(occ):
                msg = f"cannot end in {_fmt(sq)}: {OCCUPANT_TEXT[occ]} is there"
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
