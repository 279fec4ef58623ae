"""Epic Path's movement (EP-MOVE): terrain that is difficult, impeded or blocked, and the charge up to speed that
ends the turn.

Difficult terrain (×2, no run or charge through it, no 5-foot step into it) is the core's (PFB-MOVE-20..22,
PFB-CHG-06, PFB-MOVE-05); blocked terrain is the map's walls and ``blocked`` squares, which ordinary movement never
enters (EP-MOVE-10/11). What Epic Path adds is *impeded* terrain: ordinary movement does not enter it; a full-round
action moves the creature 5 ft into, within or out of it, and that movement provokes (EP-MOVE-05/06) and ends any
stance (EP-MOVE-08)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from d20combat.battlefield import movement as mv
from d20combat.battlefield.charge import centre_line_squares, closest_attack_origins
from d20combat.battlefield.grid import Footprint, Square
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.numbers import total
from d20combat.rulesets.components import GridMovement, RuleError, View
from d20combat.rulesets.epic_path.stances import end_stances

if TYPE_CHECKING:
    from d20combat.encounter.engine import Encounter, Tx


class EpMovement(GridMovement):
    """EP-MOVE-14..25: the charge moves up to the creature's speed, not double (EP-MOVE-16), and ends its turn — no
    further actions, not even free ones (EP-MOVE-23/25); the rest is the core's grid movement."""

    def __init__(self) -> None:
        super().__init__(charge_speed_multiple=1, charge_ends_turn=True)


@dataclass(frozen=True, slots=True)
class ImpededMove(ax.Action):
    """Move 5 ft into, within or out of impeded terrain: a full-round action that provokes (EP-MOVE-05/06)."""

    kind: ClassVar[str] = "impeded_move"
    to: Square = (0, 0)
    further: tuple[Square, ...] = ()
    """EP-MOVE-09: squares beyond ``to``, where the GM allows a skill check to move farther (option
    ep_impeded_skill); a failed check moves the creature only to ``to``."""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Wade 5 ft through impeded terrain to ({self.to[0]}, {self.to[1]})"


IMPEDED_MODE = "wade"
"""The movement mode of a 5-ft move through impeded terrain ("x wades to …"; a provoking move, EP-MOVE-06)."""

MOVING_KINDS = frozenset({"move", "step", "charge", "minimum_move", "climb_or_swim"})
"""The core's kinds of movement, which impeded terrain refuses (EP-MOVE-05/07)."""


def impeded_squares(view: View, actor: str, to: Square | None = None) -> list[Square]:
    """The impeded squares of ``actor``'s space now, or (with ``to``) of the space it would have at ``to``."""
    fp = Footprint(view.state.get(actor).position, view.creature(actor).space)
    if to is not None:
        fp = fp.moved_to(to)
    return [sq for sq in fp.squares() if view.game_map.is_impeded(sq)]


def charge_line_terrain(view: View, actor: str, action: Any) -> str | None:
    """EP-MOVE-07/11/19: the charge line may cross no impeded or blocked square (the core's charge line checks walls,
    pits, creatures and difficult terrain). The line is the one to the charge's end square: ``to``, or the first
    closest square from which it could attack (the one the core's charge takes)."""
    target = getattr(action, "target", "")
    if target not in view.state.combatants:
        return None
    creature = view.creature(actor)
    start = Footprint(view.state.get(actor).position, creature.space)
    t_fp = Footprint(view.state.get(target).position, view.creature(target).space)
    gm = view.game_map
    ends = [(int(action.to[0]), int(action.to[1]))] if action.to is not None else \
        closest_attack_origins(gm, start, t_fp, creature.reach_ft)[:1]
    for end in ends:
        if end == start.origin:
            return None
        bad = [sq for sq in centre_line_squares(start, start.moved_to(end))
               if sq not in set(start.squares()) and (gm.is_impeded(sq) or sq in gm.blocked)]
        if bad:
            what = "impeded terrain (EP-MOVE-07)" if gm.is_impeded(bad[0]) else "blocked terrain (EP-MOVE-11)"
            return f"charge: the charge line crosses {what} at {bad[0]} (EP-MOVE-19)"
    return None


def refuse_in_impeded(view: View, actor: str, action: Any) -> str | None:
    """Why a core movement cannot start in, enter or charge through impeded terrain (EP-MOVE-05/07), or None."""
    kind = getattr(action, "kind", "")
    if kind not in MOVING_KINDS:
        return None
    here = impeded_squares(view, actor)
    name = kind.replace("_", " ")
    if kind == "charge" and not here:
        crossed = charge_line_terrain(view, actor, action)
        if crossed:
            return crossed
    if here:
        return (f"{name}: {actor} stands in impeded terrain at {here[0]}: leaving it takes a full-round impeded "
                f"move of 5 ft (EP-MOVE-05" + (", EP-MOVE-07: no charge through it)" if kind == "charge" else ")"))
    targets: list[Square] = []
    to = getattr(action, "to", None)
    if to is not None and kind != "charge":
        targets.append((int(to[0]), int(to[1])))
    targets.extend((int(p[0]), int(p[1])) for p in getattr(action, "path", None) or ())
    for sq in targets:
        if view.game_map.in_bounds(sq) and any(view.game_map.is_impeded(q) for q in
                                               Footprint(sq, view.creature(actor).space).squares()):
            return f"{name}: {sq} is impeded terrain, entered only by a full-round impeded move of 5 ft (EP-MOVE-05)"
    return None


class ImpededMovement:
    """The impeded move's handler, with the GM's skill allowance (EP-MOVE-09)."""

    def __init__(self, skill: str, dc: int, feet: int) -> None:
        self.skill, self.dc, self.feet = skill.strip().lower(), dc, feet

    def move(self, engine: Encounter, tx: Tx, actor: str, a: ImpededMove, dry: bool) -> None:
        """EP-MOVE-05/06/08: a full round buys 5 ft into, within or out of impeded terrain, whatever the creature's
        speed; it is no 5-foot step, so leaving a threatened square provokes; it ends the creature's stance.
        EP-MOVE-09: where the GM allows it, a skill check moves it farther (``further``)."""
        s = tx.state
        turn = s.turn
        assert turn is not None
        cs = s.get(actor)
        if cs.has("prone"):
            raise RuleError(f"impeded move: {actor} is prone; stand up first")
        if turn.stepped:
            raise RuleError("impeded move: after a 5-foot step no other movement this round (EP-ACT-43)")
        if engine.speed_ft(actor, s) <= 0:
            raise RuleError(f"impeded move: {actor} cannot move (speed 0)")
        start = engine.footprint(actor, s)
        path = [(int(a.to[0]), int(a.to[1])), *((int(p[0]), int(p[1])) for p in a.further)]
        if a.further and not self.skill:
            raise RuleError("impeded move: only 5 ft a full round; moving farther needs the GM's skill allowance "
                            "(option ep_impeded_skill, EP-MOVE-09)")
        if a.further and len(path) * 5 > self.feet:
            raise RuleError(f"impeded move: {len(path) * 5} ft is more than the {self.feet} ft a {self.skill} check "
                            f"allows (EP-MOVE-09)")
        prev = start.origin
        for n, to in enumerate(path):
            if max(abs(to[0] - prev[0]), abs(to[1] - prev[1])) != 1:
                raise RuleError(f"impeded move: {to} is not one square away (5 ft, EP-MOVE-05)")
            self._check_square(engine, tx, actor, start.moved_to(prev), to, last=n == len(path) - 1)
            prev = to
        if not impeded_squares(tx, actor) and not impeded_squares(tx, actor, path[0]):
            raise RuleError(f"impeded move: neither {start.origin} nor {path[0]} is impeded terrain; move normally")
        engine.pay(tx, actor, "impeded move", "full-round", dry)
        if dry:
            return
        end_stances(tx, actor, "moving through impeded terrain (EP-MOVE-08)")
        if a.further:
            creature = engine.creature(actor)
            saves = engine.ruleset.saves
            face = tx.dice.d20(f"{self.skill} check {actor}")
            roll = total(face, saves.check_modifiers(creature, cs, self.skill), base_label="d20",
                         stacking=engine.ruleset.stacking)
            ok = saves.succeeds(self.skill, face, roll.value, self.dc)
            tx.emit(ev.Note(f"{actor} {self.skill} check {roll.explain()} vs DC {self.dc}: "
                            + (f"moves {len(path) * 5} ft through impeded terrain (EP-MOVE-09)" if ok else
                               "only 5 ft (EP-MOVE-09)")))
            if not ok:
                path = path[:1]
        engine.walk(tx, actor, path, 5 * len(path), turn.diagonals, IMPEDED_MODE)

    @staticmethod
    def _check_square(engine: Encounter, tx: Tx, actor: str, here: Footprint, to: Square, *, last: bool) -> None:
        gm = tx.game_map
        occ = engine.occupancy(actor, tx.state)
        for sq in here.moved_to(to).squares():
            if not gm.in_bounds(sq):
                raise RuleError(f"impeded move: {to} leaves the map")
            if gm.is_blocked(sq) or not (gm.is_passable(sq) or gm.is_impeded(sq)):
                raise RuleError(f"impeded move: {sq} is blocked terrain (EP-MOVE-10, EP-MOVE-11)")
            if not mv.can_pass(occ.get(sq)) or (last and not mv.can_end(occ.get(sq))):
                raise RuleError(f"impeded move: cannot {'end in' if last else 'pass'} {to}: it is occupied")


def teleport_problem(view: View, actor: str, to: Square, range_ft: int) -> str | None:
    """EP-MOVE-12: teleportation passes through blocked terrain — the squares between do not matter, as long as
    there are line of sight and line of effect to the destination (no wall between, the teleporter not blinded).
    The pathing hook a teleporting spell or ability uses: None when ``actor`` may teleport to ``to`` within
    ``range_ft``, else why not. (No spell of the engine teleports yet; the ability's own action and cost are the
    ability's.)"""
    from d20combat.battlefield.cover import line_of_effect
    from d20combat.battlefield.distance import footprint_distance_ft

    s = view.state
    gm = view.game_map
    space = view.creature(actor).space
    here = Footprint(s.get(actor).position, space)
    there = Footprint((int(to[0]), int(to[1])), space)
    others = {sq for cid, cs in s.combatants.items() if cid != actor and cs.position is not None
              for sq in Footprint(cs.position, view.creature(cid).space).squares()}
    for sq in there.squares():
        if not gm.in_bounds(sq):
            return f"teleport: ({sq[0]}, {sq[1]}) is off the map"
        if gm.is_blocked(sq) or not gm.is_passable(sq):
            return f"teleport: ({sq[0]}, {sq[1]}) cannot be occupied (blocked terrain or a wall, EP-MOVE-11)"
        if sq in others:
            return f"teleport: ({sq[0]}, {sq[1]}) is occupied"
    distance = footprint_distance_ft(here, there)
    if distance > range_ft:
        return f"teleport: {distance} ft is beyond the range of {range_ft} ft"
    if s.get(actor).has("blinded"):
        return "teleport: no line of sight — the creature is blinded (EP-MOVE-12)"
    if not line_of_effect(gm, here, there):
        return "teleport: no line of sight or effect to the destination — a wall is in the way (EP-MOVE-12)"
    return None


def charge(engine: Encounter, tx: Tx, actor: str, a: ax.Charge, dry: bool) -> None:
    """The core's charge (EP-MOVE-14..25), and in the surprise round a charge made with the single standard action
    (seed L76: "Charge actions are the most common tactic"; EP-SURP-21): that action is set aside for the charge
    (the hidden pool ``surprise_charge``), which the economy then accepts in place of a full-round action. Any other
    full-round action stays refused there (EP-SURP-18)."""
    from d20combat.encounter.movement_actions import do_charge  # the encounter imports the rulesets
    from d20combat.rulesets.epic_path.economy import SURPRISE_CHARGE

    turn = tx.state.turn
    if tx.state.surprise_round and turn is not None and turn.actor == actor and turn.pools.get("standard", 0) > 0 \
            and not turn.pools.get(SURPRISE_CHARGE, 0):
        tx.emit(ev.BudgetSpent(actor, "the surprise round's standard action, for a charge", "none",
                               {"standard": 1, SURPRISE_CHARGE: -1}))
    do_charge(engine, tx, actor, a, dry)
