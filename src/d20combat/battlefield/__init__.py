"""Pure battlefield geometry: distances, reach, movement, lines, cover, concealment, charges.

Everything here is a pure function of immutable inputs and returns *facts* (what blocks,
where, why); rulesets turn facts into numbers.
"""

from d20combat.battlefield.charge import centre_line_squares, charge_path_problem, closest_attack_origins
from d20combat.battlefield.concealment import ConcealmentSource, Vision, concealment_sources
from d20combat.battlefield.cover import CoverDegree, CoverFact, cover, line_of_effect
from d20combat.battlefield.distance import (
    distance_ft,
    footprint_distance_ft,
    footprint_gap,
    is_adjacent,
    square_to_footprint_ft,
)
from d20combat.battlefield.grid import SQUARE_FT, Footprint, GameMap, Light, Square
from d20combat.battlefield.lines import (
    Point,
    footprint_corners,
    segment_crosses_square,
    squares_crossed,
    squares_crossed_scaled,
    squeezes,
)
from d20combat.battlefield.movement import (
    Occupancy,
    Occupant,
    PathCheck,
    PathInfo,
    can_end,
    can_pass,
    check_path,
    fallback_end,
    footprint_step_cost,
    reachable,
    step_cost,
)
from d20combat.battlefield.reach import threatened_squares, within_reach

__all__ = [
    "SQUARE_FT",
    "ConcealmentSource",
    "CoverDegree",
    "CoverFact",
    "Footprint",
    "GameMap",
    "Light",
    "Occupancy",
    "Occupant",
    "PathCheck",
    "PathInfo",
    "Point",
    "Square",
    "Vision",
    "can_end",
    "can_pass",
    "centre_line_squares",
    "charge_path_problem",
    "check_path",
    "closest_attack_origins",
    "concealment_sources",
    "cover",
    "distance_ft",
    "fallback_end",
    "footprint_corners",
    "footprint_distance_ft",
    "footprint_gap",
    "footprint_step_cost",
    "is_adjacent",
    "line_of_effect",
    "reachable",
    "segment_crosses_square",
    "square_to_footprint_ft",
    "squares_crossed",
    "squares_crossed_scaled",
    "squeezes",
    "step_cost",
    "threatened_squares",
    "within_reach",
]
