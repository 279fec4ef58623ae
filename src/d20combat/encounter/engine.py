"""The encounter state machine.

State changes only by events (:func:`apply`); an action is validated against the state, then
resolved through the rules into events on a working copy, and committed only when it resolved
whole — an illegal action or a wrongly typed die leaves the encounter exactly as it was.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from itertools import pairwise

from d20combat.battlefield.grid import Square
from d20combat.dice import DiceSource
from d20combat.encounter import actions as ax
from d20combat.encounter import attack_actions, gm_rules, movement_actions
from d20combat.encounter import events as ev
from d20combat.encounter.battle import Battle
from d20combat.encounter.core import EncounterCore, initial_state
from d20combat.encounter.declaration_actions import declare
from d20combat.encounter.gm_actions import GmAction
from d20combat.encounter.registry import ActionRegistry
from d20combat.encounter.resolution import (
    AttackPlan,
    Cost,
    Decision,
    IllegalAction,
    Pending,
    ReadView,
    Tx,
    Write,
    _NeedsAnswer,
    _ReplayDice,
    action_catalogue,
)
from d20combat.encounter.state import EncounterState, TurnState
from d20combat.model.creature import AttackOption
from d20combat.numbers import Modifier
from d20combat.rules.armor_class import DefenseContext
from d20combat.rulesets.base import RuleError, View

__all__ = ["AttackPlan", "Cost", "Decision", "Encounter", "IllegalAction", "Pending", "ReadView", "Tx", "Write",
           "action_catalogue", "initial_state"]

NOT_STARTED = "the encounter has not started: call start() first"


class Encounter(EncounterCore):
    """An encounter you can play: the lifecycle (start, act, respond to a reaction prompt, undo, redo), the
    dispatch of every action through the ruleset's :class:`ActionRegistry`, and the legal actions now."""

    def __init__(self, battle: Battle, dice: DiceSource, initial: EncounterState | None = None) -> None:
        super().__init__(battle, dice, initial)
        self.actions = ActionRegistry(battle.ruleset)
        self.last_write: Write | None = None
        """The last committed action with its answers and dice (what a verifiable log records)."""
        self.writes: list[Write] = []
        """One :class:`Write` per committed action in effect, aligned with :meth:`batches` after the start
        (undo pops one, redo puts it back): with :attr:`start_faces`, what :mod:`d20combat.encounter.verify`
        replays to rebuild this encounter from a log it does not trust."""
        self.start_faces: tuple[tuple[int, int], ...] = ()
        """Every die :meth:`start` rolled (sides, face), in order (surprise and initiative)."""
        self._redo_writes: list[Write] = []

    # ------------------------------------------------------------------ lifecycle
    def decision(self) -> Decision | None:
        if self.pending is not None:
            return Decision(self.pending.prompt.reactor, self.state.round, (), self.pending.prompt)
        if self.state.ended:
            return None
        actor = self.state.actor
        if actor is None:
            raise IllegalAction(NOT_STARTED)
        return Decision(actor, self.state.round, tuple(self.legal_actions()),
                        phase="declare" if self.state.declaring else "turn")

    def start(self) -> list[ev.Event]:
        if self.log:
            raise IllegalAction("the encounter has already started")
        real = self.dice
        replay = _ReplayDice(real, ())  # records the start's dice for a verifiable log
        self.dice = replay
        try:
            tx = Tx(self.state, self)
            tx.emit(ev.EncounterStarted(self.battle.scenario))
            surprise_round = self._determine_surprise(tx)
            if self.ruleset.turn_order.initiative_at_start:
                self._roll_initiative(tx)  # else rolled every round after the declarations (WOA-CYCLE-02)
            self._starting_effects(tx)
            self._new_round(tx, 1, surprise_round)
            self._advance(tx)
        finally:
            self.dice = real
        self.start_faces = tuple(replay.used)
        return self._commit(tx, checkpoint=False)

    def act(self, action: ax.Action) -> list[ev.Event]:
        """Validate and resolve ``action`` for the creature whose turn it is; returns the events.

        If the action opens a reaction window, nothing is committed yet: :attr:`pending` holds the
        prompt, :meth:`decision` shows it, and :meth:`respond` resumes the action."""
        if isinstance(action, GmAction):
            raise IllegalAction(f"{action.kind} is a game master's write, not a creature's action: use gm() "
                                "(POST /api/encounters/{id}/gm)")
        if self.pending is not None:
            raise IllegalAction(f"waiting for {self.pending.prompt.reactor}'s reaction: "
                                f"{self.pending.prompt.trigger}")
        return self._attempt(action, (), ())

    def respond(self, answer: str) -> list[ev.Event]:
        """Answer the open reaction prompt; the waiting action resumes (and may ask again)."""
        pending = self.pending
        if pending is None:
            raise IllegalAction("no reaction is being asked for")
        if answer not in pending.prompt.options:
            raise IllegalAction(f"{pending.prompt.reactor}: {answer!r} is not one of "
                                f"{', '.join(pending.prompt.options)}")
        return self._attempt(pending.action, (*pending.answers, answer), pending.faces)

    def _attempt(self, action: ax.Action, answers: tuple[str, ...], faces: tuple[tuple[int, int], ...]
                 ) -> list[ev.Event]:
        real = self.dice
        replay = _ReplayDice(real, faces)
        self.dice = replay
        tx = Tx(self.state, self, answers)
        try:
            self._resolve(tx, action, dry=False)
        except _NeedsAnswer as need:
            self.pending = Pending(action, answers, tuple(replay.used), need.prompt)
            return []
        except RuleError as exc:
            raise IllegalAction(str(exc)) from None
        finally:
            self.dice = real
        self.pending = None
        self.last_write = Write(action, answers, tuple(replay.used))
        events = self._commit(tx)
        self.writes.append(self.last_write)
        return events

    def gm(self, edit: GmAction) -> list[ev.Event]:
        """A game master's write (:mod:`d20combat.encounter.gm_actions`): damage or healing, a condition, a timed
        effect, a creature added or removed, a saving throw called for. Legal on anyone's turn while the
        encounter runs and no reaction is asked for; committed whole and undoable like an action, recorded with
        its dice; refused with :class:`IllegalAction` (nothing changes) when it cannot be done."""
        if not isinstance(edit, GmAction):
            raise IllegalAction(f"{getattr(edit, 'kind', type(edit).__name__)} is not a game master's write")
        if self.pending is not None:
            raise IllegalAction(f"waiting for {self.pending.prompt.reactor}'s reaction: "
                                f"{self.pending.prompt.trigger} (answer it or undo first)")
        real = self.dice
        replay = _ReplayDice(real, ())
        self.dice = replay
        tx = Tx(self.state, self)
        try:
            gm_rules.resolve(self, tx, edit)
        except RuleError as exc:
            raise IllegalAction(str(exc)) from None
        finally:
            self.dice = real
        self.last_write = Write(edit, (), tuple(replay.used))
        events = self._commit(tx)
        self.writes.append(self.last_write)
        return events

    def perform(self, action: ax.Action) -> list[ev.Event]:
        """:meth:`gm` for a game master's write, :meth:`act` for a creature's action."""
        return self.gm(action) if isinstance(action, GmAction) else self.act(action)

    def check(self, action: ax.Action) -> str | None:
        """Why ``action`` is illegal now, or None. Rolls no dice and changes nothing."""
        if self.pending is not None:
            return f"waiting for {self.pending.prompt.reactor}'s reaction"
        try:
            self._resolve(Tx(self.state, self), action, dry=True)
        except (IllegalAction, RuleError) as exc:
            return str(exc)
        return None

    def undo(self) -> bool:
        if self.pending is not None:
            self.pending = None  # drop the half-asked action: nothing of it was committed
            return True
        if not self._checkpoints:
            return False
        length, state = self._checkpoints.pop()
        if self.writes:
            self._redo_writes.append(self.writes.pop())
        self._redo.append(self.log[length:])
        del self.log[length:]
        self.state = state
        return True

    def redo(self) -> bool:
        if not self._redo:
            return False
        events = self._redo.pop()
        if self._redo_writes:
            self.writes.append(self._redo_writes.pop())
        tx = Tx(self.state, self)
        for e in events:
            tx.emit(e)
        self._checkpoints.append((len(self.log), self.state))
        self.log.extend(tx.events)
        self.state = tx.state
        return True

    def batches(self) -> list[list[ev.Event]]:
        """The log cut into committed writes: the start's events, then one list per entry of :attr:`writes`."""
        cuts = [0, *(length for length, _ in self._checkpoints), len(self.log)]
        return [self.log[a:b] for a, b in pairwise(cuts)]

    def _commit(self, tx: Tx, checkpoint: bool = True) -> list[ev.Event]:
        if checkpoint:
            self._checkpoints.append((len(self.log), self.state))
            self._redo.clear()
            self._redo_writes.clear()
        self.log.extend(tx.events)
        self.state = tx.state
        return tx.events

    # ------------------------------------------------------------------ attacks, for controllers and rulesets
    def plan_attack(self, attacker: str, target: str, attack: str | None = None, *,
                    square: Square | None = None, extra: tuple[Modifier, ...] = (),
                    state: EncounterState | None = None, from_square: Square | None = None) -> AttackPlan:
        """Everything decided before any die (legality and modifiers); raises :class:`IllegalAction`."""
        return attack_actions.plan_attack(self, attacker, target, attack, square=square, extra=extra, state=state,
                                          from_square=from_square)

    def defense(self, plan: AttackPlan, state: EncounterState) -> DefenseContext:
        return attack_actions.defense(self, plan, state)

    def target_ac(self, plan: AttackPlan, state: EncounterState, view: Tx | None = None) -> tuple[int, str]:
        """The number the attack must reach with cover folded in, and its explanation."""
        return attack_actions.target_ac(self, plan, state, view)

    def aoo_plan(self, state: EncounterState, enemy: str, mover: str, view: View | None = None) -> AttackPlan | None:
        """The attack of opportunity ``enemy`` would be offered against ``mover`` in ``state``, or None."""
        return attack_actions.aoo_plan(self, state, enemy, mover, view)

    def provocations(self, mover: str, paths: Iterable[Sequence[Square]], state: EncounterState | None = None
                     ) -> list[list[tuple[str, Square]]]:
        """For each path: who would be offered an attack of opportunity, and on leaving which square."""
        return attack_actions.provocations(self, mover, paths, state)

    # Public names for rulesets' own actions (handler(engine, tx, actor, action, dry)).
    def pay(self, tx: Tx, actor: str, name: str, cost: Cost, dry: bool) -> str:
        return self._pay(tx, actor, name, cost, dry)

    def roll_attack(self, tx: Tx, plan: AttackPlan, *, damage_bonus: int = 0) -> None:
        attack_actions.roll_attack(self, tx, plan, damage_bonus=damage_bonus)

    def provoke(self, tx: Tx, mover: str, reason: str) -> bool:
        return attack_actions.provoke(self, tx, mover, reason, set())

    def walk(self, tx: Tx, actor: str, squares: list[Square], cost: int, diagonals: int, mode: str) -> None:
        movement_actions.walk(self, tx, actor, squares, cost, diagonals, mode)



    def announce_health(self, tx: Tx, cid: str, hp_before: int) -> None:
        self._announce_health(tx, cid, hp_before)

    # ------------------------------------------------------------------ dispatch
    def _resolve(self, tx: Tx, action: ax.Action, dry: bool) -> None:
        s = tx.state
        if s.ended:
            raise IllegalAction("the encounter is over")
        actor = s.actor
        if actor is None:
            raise IllegalAction(NOT_STARTED)
        if s.declaring or isinstance(action, ax.Declare):
            declare(self, tx, actor, action, dry)  # the declaration phase (WOA-CYCLE-14)
            return
        handler = self.actions.handler(action)  # first: a kind this ruleset lacks, or another ruleset's action
        forbidden = (self.ruleset.actions.forbidden(self.view(s), actor, action)
                     or self.ruleset.turn_order.undeclared(self.view(s), actor, action))
        if forbidden:
            raise IllegalAction(forbidden)
        if not dry:
            reason = self.ruleset.reactions.provoking_act(self.view(s), actor, action,
                                                self._action_option(actor, action, s))
            if reason:
                # P19: a distracting act provokes before it happens — if it is legal at all.
                handler(self, Tx(s, self), actor, action, True)
                if not attack_actions.provoke(self, tx, actor, reason, set()):
                    tx.emit(ev.TurnEnded(actor, "can no longer act"))
                    self._advance(tx)
                    return
        handler(self, tx, actor, action, dry)
        if dry:
            return
        self.ruleset.after_action(tx, actor)
        # P14: every strenuous action of every ruleset strains here, once (PFB-HP-01, CMV-INJ-08, SKL-DMG-04).
        self.ruleset.injury.settle_strain(tx, actor)
        if not isinstance(action, ax.EndTurn):
            if tx.state.turn is not None and self._cannot_act(tx.state, actor) is not None:
                tx.emit(ev.TurnEnded(actor, "can no longer act"))
                self._advance(tx)
            elif self._check_end(tx):
                return

    def _action_option(self, actor: str, action: ax.Action, s: EncounterState) -> AttackOption | None:
        name = getattr(action, "attack", None) or (s.get(actor).wielding if isinstance(action, ax.Attack) else None)
        if not isinstance(name, str):
            return None
        try:
            return self.creature(actor).attack(name)
        except KeyError:
            return None

    # ------------------------------------------------------------------ enumeration
    def legal_actions(self) -> Iterator[ax.Action]:
        """Every concrete legal action for the creature whose turn it is (moves: one per reachable square)."""
        s = self.state
        if s.ended:
            return
        if s.declaring:
            yield from self._legal_declarations(s.declaring[0])
            return
        if s.turn is None:
            raise IllegalAction(NOT_STARTED)
        actor = s.turn.actor
        creature = self.creature(actor)
        candidates: list[ax.Action] = []
        for enemy in self.enemies(actor):
            for option in creature.attacks:
                candidates.append(ax.Attack(enemy, option.name, square=s.get(enemy).position))
            candidates.append(ax.Charge(enemy))
        turn: TurnState = s.turn
        if not turn.stepped and self.can_afford("move"):
            candidates.extend(ax.Move(to=sq) for sq in sorted(self.move_options(actor)))
        c0, r0 = s.get(actor).position
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                if dc or dr:
                    candidates.append(ax.Step((c0 + dc, r0 + dr)))
        for option in creature.attacks:
            candidates.append(ax.Draw(option.name))
            candidates.append(ax.Reload(option.name))
        candidates += [ax.Sheathe(), ax.StandUp(), ax.DropProne(), ax.Activity("speak"),
                       ax.ShieldAction("strap"), ax.ShieldAction("remove"), ax.ShieldAction("drop")]
        candidates += self.ruleset.actions.candidates(self, actor)  # the ruleset's own actions (reserve, feint…)
        for action in candidates:
            if self.check(action) is None:
                yield action
        yield ax.EndTurn()

    def _legal_declarations(self, actor: str) -> Iterator[ax.Action]:
        view = self.view()
        for option in self.ruleset.turn_order.declaration_options(view, actor):
            if self.ruleset.turn_order.check_declaration(view, actor, option) is None:
                yield option

    def planning_copy(self, actor: str) -> Encounter:
        """A copy to plan with, as if ``actor``'s turn began now (its pools as the economy gives them): what the AI
        asks when it declares its round before initiative (WOA-CYCLE-14). Only questions, never acts: it shares the
        log with this encounter."""
        s = self.state
        pools = self.ruleset.economy.turn_pools(self.creature(actor), s.get(actor), surprise_round=s.surprise_round)
        other = copy.copy(self)
        other.state = replace(s, declaring=(), turn=TurnState(actor, pools=pools) if pools else TurnState(actor))
        other._reach_cache = {}
        other._plans = {}
        other._plan_state = None
        other.pending = None
        return other
