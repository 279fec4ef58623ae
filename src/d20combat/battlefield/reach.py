"""Who can be hit in melee: adjacency and reach (PFB-GRID-06, PFB-GRID-07).

Reach is MISSING from PFB; the proposed default (PF1 CRB) measures from any square of the
attacker's space with the 5/10 rule, so 10-ft reach covers two squares straight out but
not two diagonals (15 ft), and natural reach above 5 ft still hits adjacent squares.
"""

from __future__ import annotations

from d20combat.battlefield.distance import footprint_distance_ft, square_to_footprint_ft
from d20combat.battlefield.grid import SQUARE_FT, Footprint, GameMap, Square


def within_reach(attacker: Footprint, reach_ft: int, target: Footprint) -> bool:
    """True if ``target`` is more than 0 ft and at most ``reach_ft`` from ``attacker`` (PFB-GRID-07)."""
    d = footprint_distance_ft(attacker, target)
    return 0 < d <= reach_ft


def threatened_squares(fp: Footprint, reach_ft: int, game_map: GameMap) -> frozenset[Square]:
    """Every in-bounds square a creature occupying ``fp`` can reach with a ``reach_ft`` attack.

    PFB has no attacks of opportunity; this exists for rulesets that do. The creature's own
    squares are excluded (distance 0). Walls are not considered: whether an attack through
    them is possible is a cover question (see ``cover``), not a reach question.
    """
    span = reach_ft // SQUARE_FT
    c0, r0 = fp.origin
    cols = range(max(0, c0 - span), min(game_map.width, c0 + fp.size + span))
    rows = range(max(0, r0 - span), min(game_map.height, r0 + fp.size + span))
    out: set[Square] = set()
    for c in cols:
        for r in rows:
            d = square_to_footprint_ft((c, r), fp)
            if 0 < d <= reach_ft:
                out.add((c, r))
    return frozenset(out)
