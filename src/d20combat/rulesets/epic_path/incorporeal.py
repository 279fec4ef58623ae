"""Incorporeal and ethereal movement (EP-COND-16..22, EP-COND-24..27, EP-COND-38): through solid objects,
water and over pits, and what an incorporeal creature inside an object perceives and risks.

The map's solid objects are its walls and its ``blocked`` squares (a statue, a portcullis). The move is the action
``phase_move`` (``path``: successive squares, as the core's ``move``): a move action of the creature's speed, whose
steps cost what open ground costs, for an ``incorporeal`` or ``ethereal`` creature only.

Readings (documented in docs/epic-path/seeing-and-states.md):

- EP-COND-16: an incorporeal creature inside an object must touch the object's exterior — some square of its space
  or next to its space is open — and it "cannot pass entirely through an object whose space is larger than its
  own": a stretch of the path inside an object may come out on open ground farther than one square from where it
  went in only if that stretch is no longer than the creature's space is wide.
- EP-COND-38: an ethereal creature moves through solid objects and living creatures without that limit (it is
  not on the Material Plane), but ends its move in no creature's space.
- EP-COND-20: force effects are the squares the GM lists in ``ep_force_squares`` (a wall of force): never entered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from d20combat.battlefield import movement as mv
from d20combat.battlefield.grid import SQUARE_FT, Footprint, GameMap, Square
from d20combat.encounter import actions as ax
from d20combat.encounter.state import CombatantState
from d20combat.numbers import Modifier
from d20combat.rulesets.components import RuleError, View
from d20combat.rulesets.epic_path.options import EpOptions
from d20combat.rulesets.epic_path.senses import sense_table

if TYPE_CHECKING:
    from d20combat.encounter.engine import Encounter, Tx

PHASE_MODE = "phase"
"""The mode of the Moved event ("ghost phases to (3,1)")."""


@dataclass(frozen=True, slots=True)
class PhaseMove(ax.Action):
    """Move through solid objects, water and pits: an incorporeal or ethereal creature's move action
    (EP-COND-16, EP-COND-21, EP-COND-22, EP-COND-38)."""

    kind: ClassVar[str] = "phase_move"
    path: tuple[Square, ...] = field(default=())

    def label(self, name: Callable[[str], str] = str) -> str:
        end = self.path[-1] if self.path else None
        return f"Phase through objects to ({end[0]}, {end[1]})" if end else "Phase through objects"


def solid_squares(game_map: GameMap) -> frozenset[Square]:
    """The squares of solid objects: walls and blocked terrain (EP-MOVE-11)."""
    return frozenset(game_map.walls) | frozenset(game_map.blocked)


def inside_object(game_map: GameMap, fp: Footprint) -> bool:
    """Some square of the creature's space is inside a solid object."""
    solid = solid_squares(game_map)
    return any(sq in solid for sq in fp.squares())


def creature_inside_object(view: View, cid: str) -> bool:
    """``cid`` stands (partly) inside a solid object (only an incorporeal creature can)."""
    cs = view.state.get(cid)
    return cs.position is not None and inside_object(view.game_map, Footprint(cs.position, view.creature(cid).space))


def touches_exterior(game_map: GameMap, fp: Footprint) -> bool:
    """EP-COND-16: some square of the space, or next to it, is open ground (on the map and no solid object)."""
    solid = solid_squares(game_map)
    own = set(fp.squares())
    for c, r in own:
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                sq = (c + dc, r + dr)
                if game_map.in_bounds(sq) and sq not in solid:
                    return True
    return False


def phase_path(game_map: GameMap, start: Footprint, path: Iterable[Square], occupancy: mv.Occupancy, *,
               ethereal: bool, force: frozenset[Square] = frozenset(),
               diagonals_so_far: int = 0) -> tuple[int, int]:
    """The cost in feet and the diagonal count of an incorporeal (or ethereal) creature's path through objects,
    water and pits; a RuleError naming the step and the rule when a step is not allowed."""
    solid = solid_squares(game_map)
    size = start.size
    here = start.origin
    cost, diags = 0, diagonals_so_far
    entry: Square | None = None  # the open origin the creature left to go into an object
    run = 0
    steps = list(path)
    if not steps:
        raise RuleError("phase move: the path is empty")
    if inside_object(game_map, start):
        entry = start.origin
    for n, to in enumerate(steps, 1):
        label = f"phase move: step {n} to ({to[0]},{to[1]})"
        if max(abs(to[0] - here[0]), abs(to[1] - here[1])) != 1:
            raise RuleError(f"{label} is not next to ({here[0]},{here[1]})")
        fp = Footprint(to, size)
        squares = list(fp.squares())
        off = [sq for sq in squares if not game_map.in_bounds(sq)]
        if off:
            raise RuleError(f"{label}: {off[0]} is off the map")
        forced = [sq for sq in squares if sq in force]
        if forced:
            raise RuleError(f"{label}: {forced[0]} is a force effect, which an incorporeal creature cannot pass "
                            f"through (EP-COND-20)")
        for sq in squares:
            occ = occupancy.get(sq)
            if not ethereal and not mv.can_pass(occ):
                raise RuleError(f"{label}: an enemy occupies {sq}; only an ethereal creature moves through living "
                                f"creatures (EP-COND-38)")
            if n == len(steps) and not mv.can_end(occ):
                raise RuleError(f"{label}: cannot end in {sq}, a creature is there")
        inside = any(sq in solid for sq in squares)
        if inside and not ethereal and not touches_exterior(game_map, fp):
            raise RuleError(f"{label}: inside the object an incorporeal creature must stay next to its exterior "
                            f"(EP-COND-16)")
        if inside:
            if entry is None:
                entry = here
            run += 1
        elif entry is not None:
            far = max(abs(to[0] - entry[0]), abs(to[1] - entry[1])) > 1
            if far and run > size and not ethereal:
                raise RuleError(f"{label}: that passes entirely through an object larger than the creature's space "
                                f"({run} squares inside, space {size}) (EP-COND-16)")
            entry, run = None, 0
        diagonal = to[0] != here[0] and to[1] != here[1]
        difficult = not inside and any(game_map.is_difficult(sq) for sq in squares
                                       if sq not in set(Footprint(here, size).squares()))
        if diagonal:
            cost += 3 * SQUARE_FT if difficult else (SQUARE_FT if diags % 2 == 0 else 2 * SQUARE_FT)
            diags += 1
        else:
            cost += 2 * SQUARE_FT if difficult else SQUARE_FT
        here = to
    return cost, diags


def force_squares(opts: EpOptions) -> frozenset[Square]:
    return frozenset((int(c), int(r)) for c, r in opts.ep_force_squares)


class IncorporealMovement:
    """The phase move's handler (EP-COND-16, EP-COND-20..22, EP-COND-38)."""

    def __init__(self, opts: EpOptions) -> None:
        self.force = force_squares(opts)

    def move(self, engine: Encounter, tx: Tx, actor: str, a: PhaseMove, dry: bool) -> None:
        s = tx.state
        cs = s.get(actor)
        ethereal = cs.has("ethereal")
        if not (ethereal or cs.has("incorporeal")):
            raise RuleError(f"phase move: {actor} is neither incorporeal nor ethereal; only they pass through "
                            f"solid objects (EP-COND-16, EP-COND-38)")
        turn = s.turn
        assert turn is not None
        if cs.has("prone"):
            raise RuleError(f"phase move: {actor} is prone; stand up first")
        if turn.stepped:
            raise RuleError("phase move: after a 5-foot step no other movement this round (EP-ACT-43)")
        speed = engine.speed_ft(actor, s)
        if speed <= 0:
            raise RuleError(f"phase move: {actor} cannot move (speed 0)")
        path = tuple((int(p[0]), int(p[1])) for p in a.path)
        cost, diags = phase_path(tx.game_map, engine.footprint(actor, s), path, engine.occupancy(actor, s),
                                 ethereal=ethereal, force=self.force, diagonals_so_far=turn.diagonals)
        if cost > max(speed, SQUARE_FT):
            raise RuleError(f"phase move: the path costs {cost} ft but {actor}'s speed is {speed} ft")
        engine.pay(tx, actor, "phase move", "move", dry)
        if dry:
            return
        engine.walk(tx, actor, list(path), cost, diags, PHASE_MODE)


# --- facts of the incorporeal state (the GM page and the engine ask them) ------------------------------------

def falls(state: CombatantState) -> bool:
    """EP-COND-22: an incorporeal creature cannot fall and takes no falling damage (it crosses pits, ends its move
    over one)."""
    return not state.has("incorporeal") and not state.has("ethereal")


def sets_off_weight_trap(state: CombatantState) -> bool:
    """EP-COND-24: an incorporeal creature has no weight and does not set off traps triggered by weight."""
    return not state.has("incorporeal") and not state.has("ethereal")


def heard_by_perception(state: CombatantState, *, wants_to_be_heard: bool = False) -> bool:
    """EP-COND-25: an incorporeal creature moves silently and cannot be heard with Perception unless it wishes."""
    return wants_to_be_heard or not state.has("incorporeal")


def moves_full_speed_unseeing(state: CombatantState) -> bool:
    """EP-COND-27: an incorporeal creature's innate sense of direction: full speed even when it cannot see."""
    return state.has("incorporeal")


def sense_penalty(sense: str, target: CombatantState) -> Modifier | None:
    """EP-COND-26: a non-visual sense (one that needs no line of sight in ``data/ep_senses.yaml``: scent,
    blindsense, tremorsense…) takes −10 when it tries to perceive an incorporeal creature."""
    table = sense_table()
    key = sense.strip().lower().replace(" ", "_").replace("-", "_")
    if key not in table:
        raise RuleError(f"sense {sense!r}: not a sense Epic Path knows; known: {', '.join(sorted(table))}")
    if target.has("incorporeal") and not table[key].requires_los:
        return Modifier(-10, f"{key} perceiving an incorporeal creature (EP-COND-26)")
    return None
