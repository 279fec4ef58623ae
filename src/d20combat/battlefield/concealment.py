"""Concealment sources (PFB-CONC-02..05, 11, 15..17). Facts only; the ruleset combines them.

Every applicable source is listed, because rulesets differ on combining them: PFB takes
the strongest only (PFB-CONC-07), another ruleset may stack. Whether a 50% source is
*total* concealment (the attacker must guess the square, PFB-CONC-12) is part of the fact.
"""

from __future__ import annotations

from dataclasses import dataclass

from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint, GameMap, Light, Square
from d20combat.battlefield.lines import crossed, footprint_corners

TOTAL_CONCEALMENT_PERCENT = 50
DIM_LIGHT_PERCENT = 20


@dataclass(frozen=True, slots=True)
class Vision:
    """How the attacker sees (PFB-CONC-04, 15..17)."""

    low_light: bool = False
    darkvision_ft: int = 0
    blinded: bool = False
    sees_invisible: bool = False


@dataclass(frozen=True, slots=True)
class ConcealmentSource:
    percent: int
    reason: str
    total: bool


def _fmt(sq: Square | tuple[int, int]) -> str:
    return f"({sq[0]},{sq[1]})"


def _between(
    game_map: GameMap, attacker: Footprint, defender: Footprint, *, through_defender: bool = False
) -> ConcealmentSource | None:
    """Concealing terrain between the two by the best-corner line test (PFB-CONC-03 proposal).

    The attacker picks the corner of its space that suits it best (as for ranged cover,
    PFB-COV-06): the defender is concealed only if from EVERY attacker corner some line to
    a defender corner crosses a concealing square. The strength is that of the strongest
    square seen from the chosen corner. Squares of either creature are not "between" them
    (a defender standing in the bush is handled by the "entirely inside" rule), unless
    ``through_defender``: then a line through the defender's own concealing squares counts too
    (CMV-CONC-03: "passes through a square ... that provides concealment", its worked example
    of a 2×2 ogre with three squares in smoke).
    """
    concealing = game_map.concealing
    if not concealing:
        return None
    own = frozenset(attacker.squares())
    if not through_defender:
        own |= frozenset(defender.squares())
    best: tuple[int, str, str] | None = None  # (percent, corner, square) at the attacker's best corner
    for p in footprint_corners(attacker):
        worst: tuple[int, str, str] | None = None
        for q in footprint_corners(defender):
            for sq in crossed(p, q):
                pct = concealing.get(sq)
                if pct is None or pct <= 0 or sq in own:
                    continue
                if worst is None or pct > worst[0]:
                    worst = (pct, _fmt(p), _fmt(sq))
        if worst is None:
            return None  # this corner sees the defender clear
        if best is None or worst[0] < best[0]:
            best = worst
    if best is None:
        return None
    pct, corner, where = best
    reason = f"concealing terrain at {where} lies between them (seen from corner {corner})"
    return ConcealmentSource(pct, reason, False)


def concealment_sources(
    game_map: GameMap,
    attacker: Footprint,
    vision: Vision,
    defender: Footprint,
    *,
    defender_invisible: bool = False,
    magic_percent: int = 0,
    through_defender: bool = False,
    dim_whole_space: bool = False,
) -> tuple[ConcealmentSource, ...]:
    """Every concealment source the defender has against this attacker, in a fixed order.

    1. Entirely inside concealing squares (PFB-CONC-02); the weakest square's percentage
       applies, since the whole creature is at least that well hidden.
    2. Concealing squares between them, best-corner line test (PFB-CONC-03).
    3. Dim light on any defender square when the attacker has neither low-light vision nor
       darkvision reaching it: 20% (PFB-CONC-04/15). A creature only partly in darkness is
       seen by its lit part, so partial darkness alone conceals nothing.
    4. Darkness on every defender square, no darkvision reaching it: total, 50% (PFB-CONC-11/15).
    5. Blinded attacker: total, 50% (PFB-CONC-11).
    6. Invisible defender, attacker without see invisibility: total, 50% (PFB-CONC-11/17).
    7. ``magic_percent`` > 0: a magical source of that strength (PFB-CONC-05); not total,
       since the attacker can still see where the defender is.

    ``through_defender`` lets the line test of 2. count the defender's own concealing squares
    (CMV-CONC-03); ``dim_whole_space`` makes dim light in 3. conceal only a defender none of whose
    squares is brightly lit (CMV-CONC-04, adjacent melee: "entirely within an effect").
    """
    out: list[ConcealmentSource] = []
    squares = sorted(defender.squares())

    concealing = game_map.concealing
    if concealing and all(sq in concealing for sq in squares):
        sq = min(squares, key=lambda s: (concealing[s], s))
        if concealing[sq] > 0:
            out.append(ConcealmentSource(concealing[sq], f"inside concealing terrain at {_fmt(sq)}", False))

    between = _between(game_map, attacker, defender, through_defender=through_defender)
    if between is not None:
        out.append(between)

    lights = [(sq, game_map.light_for(sq, vision.low_light)) for sq in squares]
    darkvision_reaches = (
        vision.darkvision_ft > 0 and footprint_distance_ft(attacker, defender) <= vision.darkvision_ft
    )
    dark = [sq for sq, light in lights if light is Light.DARK]
    dim = [sq for sq, light in lights if light is Light.DIM]
    if not darkvision_reaches:
        lit = any(light is Light.BRIGHT for _, light in lights)
        if dim and not vision.low_light and not (dim_whole_space and lit):
            reason = f"in dim light at {_fmt(dim[0])} and the attacker cannot see well in it"
            out.append(ConcealmentSource(DIM_LIGHT_PERCENT, reason, False))
        if len(dark) == len(squares):
            why = "and the attacker has no darkvision"
            if vision.darkvision_ft:
                why = "beyond the attacker's darkvision"
            reason = f"in darkness at {_fmt(dark[0])} {why}"
            out.append(ConcealmentSource(TOTAL_CONCEALMENT_PERCENT, reason, True))
    if vision.blinded:
        out.append(ConcealmentSource(TOTAL_CONCEALMENT_PERCENT, "the attacker is blinded", True))
    if defender_invisible and not vision.sees_invisible:
        out.append(ConcealmentSource(TOTAL_CONCEALMENT_PERCENT, "the defender is invisible", True))
    if magic_percent > 0:
        out.append(ConcealmentSource(magic_percent, f"magical concealment ({magic_percent}%)", False))
    return tuple(out)
