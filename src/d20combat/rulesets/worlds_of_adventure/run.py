"""Running (WOA-MOVE-17..24): a full-round action up to four times the creature's speed in a straight line, at −2 AC
and with no combat reactions, no short step; Constitution-score rounds in a row, then Endurance checks; a rest
after running to the limit.

- WOA-MOVE-17: ``run`` to ``to``, along the straight centre-to-centre line (the charge's line), at most 4 × speed,
  measured on the grid (5/10 diagonals); walls, corners, pits and foes block the line, allies may be passed.
- WOA-MOVE-18/19: the runner is ``running`` until its next turn: an effect of −2 AC that brings the condition
  ``running`` (the reactions component bars every combat reaction while it is in force).
- WOA-MOVE-20, WOA-ACT-12: the run is movement, so no short step that round, before or after.
- WOA-MOVE-21/22: a creature may run as many rounds in a row as its Constitution score; each further round needs an
  Endurance check, DC 10 and 1 more each round after; a failure stops it (the run is not taken, the rest begins).
- WOA-MOVE-23: after running to its limit it rests 10 rounds: no run, and no more than one move action's movement
  a round (no double move).
- WOA-MOVE-24: never across difficult terrain, never with a movement form it has no listed speed for (a flyer runs
  on the ground).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from d20combat.battlefield import movement as mv
from d20combat.battlefield.charge import charge_path_problem
from d20combat.battlefield.distance import distance_ft
from d20combat.battlefield.grid import Square
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState
from d20combat.numbers import total
from d20combat.rulesets.components import RuleError, View
from d20combat.rulesets.worlds_of_adventure.movement import GroundMoveRules, ground_move_start

if TYPE_CHECKING:
    from d20combat.encounter.engine import Encounter, Tx

RUNNING = "running"
"""The condition of a creature that ran this round, until its next turn (WOA-MOVE-18/19)."""

RAN = "ran rounds in a row: "
"""The effect prefix counting a creature's consecutive running rounds (WOA-MOVE-21): ``"ran rounds in a row: 3"``,
lasting through its next round's turn."""

RESTING = "resting after running to its limit"
"""WOA-MOVE-23: 10 rounds without running and with at most one move action's movement a round."""


@dataclass(frozen=True, slots=True)
class Run(ax.Action):
    """Run to ``to`` in a straight line (WOA-MOVE-17)."""

    kind: ClassVar[str] = "run"
    to: Square = (0, 0)

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Run to ({self.to[0]}, {self.to[1]})"


def rounds_run(state: CombatantState) -> int:
    """How many rounds in a row the creature has run so far (WOA-MOVE-21)."""
    for e in state.effects:
        if e.name.startswith(RAN):
            return int(e.name[len(RAN):])
    return 0


def resting(state: CombatantState) -> bool:
    return any(e.name == RESTING for e in state.effects)


def endurance_dc(con_score: int, round_in_a_row: int) -> int | None:
    """WOA-MOVE-21: no check for the first Con-score rounds; then DC 10, 11, 12… (round Con + k → DC 9 + k)."""
    extra = round_in_a_row - con_score
    return None if extra <= 0 else 9 + extra


RUN = GroundMoveRules("run", when_prone="get up first (a prone creature only crawls, WOA-MOVE-46)",
                      after_short_step="no run after a short step (WOA-MOVE-20, WOA-ACT-12)",
                      no_land_speed="no listed land speed to run with (WOA-MOVE-24)")


def do_run(enc: Encounter, tx: Tx, actor: str, a: Run, dry: bool) -> None:
    """WOA-MOVE-17..24 (see the module)."""
    from d20combat.encounter.movement_actions import charge_line  # the encounter imports the rulesets

    if resting(tx.state.get(actor)):
        raise RuleError(f"run: {actor} ran to its limit and rests 10 rounds before running again (WOA-MOVE-23)")
    go = ground_move_start(enc, tx, actor, a.to, RUN)
    s, turn, cs, creature, speed, start, end = tx.state, go.turn, go.state, go.creature, go.speed_ft, go.start, go.to
    gm = enc.battle.game_map
    dist = distance_ft(start.origin, end)
    if dist > 4 * speed:
        raise RuleError(f"run: {dist} ft is more than four times the speed, {4 * speed} ft (WOA-MOVE-17)")
    foes = {sq for cid in enc.enemies(actor, s) for sq in enc.footprint(cid, s).squares()}
    problem = charge_path_problem(gm, start, end, foes)
    if problem:
        raise RuleError(f"run: {problem} (a straight line, WOA-MOVE-17; no difficult terrain, WOA-MOVE-24)")
    occ = enc.occupancy(actor, s)
    if not all(mv.can_end(occ.get(sq)) for sq in start.moved_to(end).squares()):
        raise RuleError(f"run: cannot end in {end}: it is occupied")
    n = rounds_run(cs) + 1
    dc = endurance_dc(creature.con_score, n)
    enc.pay(tx, actor, f"run to {end}", "full-round", dry)
    if dry:
        return
    if dc is not None:
        # The Endurance skill where the sheet lists it, else a Constitution check (the skill's key ability).
        skill = "endurance" if any(k.lower() == "endurance" for k in creature.sheet.skills) else "con"
        face = tx.dice.d20(f"Endurance check {actor}")
        check = total(face, enc.ruleset.saves.check_modifiers(creature, cs, skill), base_label="d20",
                      stacking=enc.ruleset.stacking)
        if check.value < dc:
            tx.emit(ev.Note(f"{actor} Endurance check {check.explain()} vs DC {dc} (round {n} of running, Con "
                            f"{creature.con_score}): fails — stops running and must rest 10 rounds "
                            "(WOA-MOVE-21..23)"))
            _end_count(tx, actor)
            tx.emit(ev.EffectAdded(actor, RESTING, actor, s.round + 10))
            return
        tx.emit(ev.Note(f"{actor} Endurance check {check.explain()} vs DC {dc} (round {n} of running, Con "
                        f"{creature.con_score}): keeps running (WOA-MOVE-21)"))
    _end_count(tx, actor)
    tx.emit(ev.EffectAdded(actor, f"{RAN}{n}", actor, s.round + 2))
    tx.emit(ev.EffectAdded(actor, RUNNING, actor, s.round + 1, ac=-2, condition=RUNNING))
    tx.emit(ev.ConditionSet(actor, RUNNING, True, "runs: −2 AC and no combat reactions until its next turn "
                                                  "(WOA-MOVE-18/19)"))
    line = charge_line(start, end)
    enc.walk(tx, actor, line, dist, turn.diagonals, "run")


def _end_count(tx: Tx, actor: str) -> None:
    n = rounds_run(tx.state.get(actor))
    if n:
        tx.emit(ev.EffectEnded(actor, f"{RAN}{n}"))


def resting_problem(view: View, actor: str, action: Any) -> str | None:
    """WOA-MOVE-23: while resting, no run and no more than one move action's movement a round."""
    cs = view.state.get(actor)
    turn = view.state.turn
    if resting(cs) and action.kind == "run":
        return f"run: {actor} ran to its limit and rests 10 rounds before running again (WOA-MOVE-23)"
    if not resting(cs) or turn is None or action.kind not in ("move", "minimum_move", "climb_or_swim", "crawl"):
        return None
    if turn.moved:
        return f"{actor} rests after running to its limit: no faster than a normal move action, no double move " \
               "(WOA-MOVE-23)"
    return None
