"""A move the GM plans on the map: the cheapest legal path through waypoints in order, and, when a square
cannot be reached, the reason in words ("a wall", "occupied by the ogre", "25 ft away: a move covers 30 ft
but the way there costs 40 ft through difficult terrain"). Reads only (PFB-MOVE-06..27 are the engine's:
the path found here is checked by the same ``check_path`` the engine runs for ``Move(path=...)``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from d20combat.battlefield import movement as mv
from d20combat.battlefield.distance import distance_ft
from d20combat.battlefield.grid import Square
from d20combat.encounter.engine import Encounter

MAX_WAYPOINTS = 20
SEARCH_MOVES = 4
SEARCH_MAX_FT = 160
"""How far the way to a square out of reach is searched: four moves (4 × 30 ft: 120 ft), at most 160 ft."""


@dataclass(frozen=True, slots=True)
class Plan:
    """The path through the waypoints to the destination (start excluded), its cost and diagonal counter,
    or why there is none."""

    path: tuple[Square, ...]
    cost_ft: int
    reason: str | None


def _fmt(sq: Square) -> str:
    return f"({sq[0]},{sq[1]})"


def budget_ft(enc: Encounter, cid: str) -> int:
    return max(enc.speed_ft(cid), 5)  # PFB-MOVE-27: a move action always allows at least 5 ft


def _diagonals(enc: Encounter, cid: str) -> int:
    turn = enc.state.turn
    return turn.diagonals if turn is not None and turn.actor == cid else 0


def square_problem(enc: Encounter, cid: str, to: Square, *, passing: bool = False) -> str | None:
    """What makes ``to`` a square the mover can never end on (or, ``passing``, pass), whatever its path: off
    the map, a wall, a pit, deep water or a cliff, another creature standing there (an ally may be passed,
    a helpless creature passed and ended on, PFB-MOVE-12..14)."""
    gm = enc.battle.game_map
    if not gm.in_bounds(to):
        return f"{_fmt(to)} is off the {gm.width}×{gm.height} map"
    if to in gm.walls:
        return f"{_fmt(to)} is a wall"
    if to in gm.pits:
        return f"{_fmt(to)} is a pit"
    if to in gm.blocked:
        return f"{_fmt(to)} is blocked terrain: impassable (EP-MOVE-11)"
    if gm.is_impeded(to):
        return (f"{_fmt(to)} is impeded terrain: a move never enters it; a full-round action moves 5 ft into it "
                "(wade, EP-MOVE-05)")
    if not gm.is_passable(to):
        return f"{_fmt(to)} cannot be walked into (deep water or a surface to climb: swim or climb instead)"
    s = enc.state
    for other in s.combatants:
        if other == cid or not enc.on_map(other, s):
            continue
        if to not in enc.footprint(other, s).squares() or enc.is_helpless(other, s):
            continue
        if not (passing and enc.creature(other).side == enc.creature(cid).side):
            return f"{_fmt(to)} is occupied by {enc.creature(other).name}"
    return None


def _occupancy(enc: Encounter, cid: str, *, ending: bool) -> dict[Square, mv.Occupant]:
    occ = enc.occupancy(cid)
    if ending:
        return occ
    # a waypoint is passed, not ended on: an ally's square (passable, PFB-MOVE-12) may be one
    return {sq: o for sq, o in occ.items() if o is not mv.Occupant.ALLY}


def _out_of_reach(enc: Encounter, cid: str, start: Square, to: Square, budget: int, spent: int,
                  diagonals: int, occ: dict[Square, mv.Occupant], what: str) -> str:
    """Why ``to`` is not reachable from ``start`` with ``budget - spent`` ft left, in words. The way there is
    searched only so far (a few moves' worth: a click across a 200×200 map must stay quick)."""
    gm = enc.battle.game_map
    creature = enc.creature(cid)
    left = budget - spent
    away = distance_ft(enc.footprint(cid).origin, to)
    movement = f"a move covers {budget} ft" if spent == 0 else f"{left} ft of the move's {budget} ft are left"
    horizon = min(SEARCH_MOVES * budget, SEARCH_MAX_FT)
    if distance_ft(start, to) > horizon:
        return f"{what} {_fmt(to)} is {away} ft away, no legal path within this move: {movement}"
    fp = enc.footprint(cid).moved_to(start)
    info = mv.reachable(gm, fp, horizon, occ, diagonals_so_far=diagonals, flying=creature.fly_speed_ft > 0,
                        difficult_diagonal_counts=enc.ruleset.movement.difficult_diagonal_counts).get(to)
    if info is None:
        terrain = "walls, pits, impeded or blocked terrain" if gm.impeded or gm.blocked else "walls, pits"
        return (f"{what} {_fmt(to)} is {away} ft away, no legal path within this move and no way there within "
                f"{horizon} ft — {terrain} or enemies block the way")
    difficult = any(gm.is_difficult(p) for p in info.path) and creature.fly_speed_ft == 0
    through = " through difficult terrain" if difficult else ""
    return (f"{what} {_fmt(to)} is {away} ft away, no legal path within this move: {movement} but the way "
            f"there costs {info.cost_ft} ft{through}")


def plan(enc: Encounter, cid: str, to: Square, via: Sequence[Square] = ()) -> Plan:
    """The cheapest legal path from ``cid``'s square through ``via`` in order to ``to`` within one move
    action's budget. Each leg is the cheapest from the end of the one before (the diagonal counter carried
    over, PFB-MOVE-16a); the whole path is then checked as the engine checks ``Move(path=...)``."""
    if len(via) > MAX_WAYPOINTS:
        return Plan((), 0, f"at most {MAX_WAYPOINTS} waypoints")
    gm = enc.battle.game_map
    creature = enc.creature(cid)
    counts = enc.ruleset.movement.difficult_diagonal_counts
    flying = creature.fly_speed_ft > 0
    budget = budget_ft(enc, cid)
    start = enc.footprint(cid)
    here = start.origin
    diagonals = _diagonals(enc, cid)
    spent = 0
    path: list[Square] = []
    stuck = [q for q in start.squares() if gm.is_impeded(q)]
    if stuck:  # EP-MOVE-05: no ordinary movement out of impeded terrain either
        return Plan((), 0, f"{creature.name} stands in impeded terrain at {_fmt(stuck[0])}: a move cannot leave it; "
                           "a full-round action moves 5 ft (wade, EP-MOVE-05)")
    stops = [*via, to]
    for n, stop in enumerate(stops):
        last = n == len(stops) - 1
        what = "the destination" if last else f"waypoint {n + 1}"
        if stop == here:
            if last and not path:
                return Plan((), 0, f"the path ends where it starts, {_fmt(stop)}")
            continue  # a waypoint on the square before it (the destination itself as the last waypoint)
        problem = square_problem(enc, cid, stop, passing=not last)
        if problem is not None:
            return Plan((), 0, f"{what}: {problem}")
        occ = _occupancy(enc, cid, ending=last)
        leg = mv.reachable(gm, start.moved_to(here), budget - spent, occ, diagonals_so_far=diagonals,
                           flying=flying, difficult_diagonal_counts=counts).get(stop)
        if leg is None:
            return Plan((), 0, _out_of_reach(enc, cid, here, stop, budget, spent, diagonals, occ, what))
        path.extend(leg.path)
        spent += leg.cost_ft
        diagonals = leg.diagonals
        here = stop
    check = mv.check_path(gm, start, path, budget, enc.occupancy(cid), diagonals_so_far=_diagonals(enc, cid),
                          flying=flying, difficult_diagonal_counts=counts)
    if not check.ok:
        return Plan(tuple(path), check.cost_ft, check.error)
    return Plan(tuple(path), check.cost_ft, None)
