"""Movement on the grid: step costs, corners, creatures in the way, pathfinding (PFB-MOVE-12..24).

Everything here is terrain and occupancy *geometry*. Action budgets, the 5-foot step and
minimum movement (PFB-MOVE-01..05, 25..27) are the turn manager's job; it reads the costs
computed here (e.g. a 5-foot step is legal only into a square whose step cost is 5 ft).

The diagonal counter (PFB-MOVE-16a) is threaded through explicitly as
``diagonals_so_far`` so that it can run across both halves of a double move and a
charge, and reset per turn, without this module knowing about turns.

The module gathers the parts, each in its own module: who is in the way (:mod:`.occupancy`), the terrain of one
step (:mod:`.step_terrain`), pathfinding (:mod:`.pathfinding`), checking a chosen path and the illegal end
(:mod:`.path_check`).
"""

from __future__ import annotations

from d20combat.battlefield.occupancy import OCCUPANT_TEXT, Occupancy, Occupant, can_end, can_pass
from d20combat.battlefield.path_check import PathCheck, check_path, fallback_end
from d20combat.battlefield.pathfinding import PathInfo, _fill_moves, _move_table, footprint_occupants, reachable
from d20combat.battlefield.step_terrain import DIRECTIONS, footprint_step_cost, step_cost

_DIRECTIONS = DIRECTIONS
"""The old private name, which the fast path's docs and tests cite (``movement._DIRECTIONS``)."""

__all__ = [
    "DIRECTIONS",
    "OCCUPANT_TEXT",
    "_DIRECTIONS",
    "Occupancy",
    "Occupant",
    "PathCheck",
    "PathInfo",
    "_fill_moves",
    "_move_table",
    "can_end",
    "can_pass",
    "check_path",
    "fallback_end",
    "footprint_occupants",
    "footprint_step_cost",
    "reachable",
    "step_cost",
]
