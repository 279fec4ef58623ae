"""The encounter state machine.

State changes only by events (:func:`apply`); an action is validated against the state, then
resolved through the rules into events on a working copy, and committed only when it resolved
whole — an illegal action or a wrongly typed die leaves the encounter exactly as it was.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from typing import Literal

import yaml

from d20combat.battlefield import movement as mv
from d20combat.battlefield.charge import charge_path_problem, closest_attack_origins
from d20combat.battlefield.concealment import Vision
from d20combat.battlefield.cover import CoverDegree, CoverFact
from d20combat.battlefield.distance import distance_ft, footprint_distance_ft
from d20combat.battlefield.grid import Footprint, GameMap, Square
from d20combat.battlefield.reach import within_reach
from d20combat.dice import DiceSource
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.apply import apply
from d20combat.encounter.battle import Battle
from d20combat.encounter.prompts import ReactionPrompt
from d20combat.encounter.state import CombatantState, EncounterState, TurnState
from d20combat.model.creature import AttackOption, Creature
from d20combat.numbers import Modifier, total
from d20combat.rules import health as hp_rules
from d20combat.rules.armor_class import DefenseContext
from d20combat.rules.damage import roll_damage
from d20combat.rules.initiative import order_by_initiative
from d20combat.rules.surprise import determine_surprise
from d20combat.rulesets.base import BudgetError, RuleError, TurnAllowance


class IllegalAction(ValueError):
    """An action the rules forbid now; the message names the rule or the square."""


Cost = Literal["standard", "move", "full-round", "free", "none"]

_STRICTNESS = {mv.Occupant.HELPLESS: 0, mv.Occupant.ALLY: 1, mv.Occupant.ENEMY: 2}


@lru_cache(maxsize=1)
def action_catalogue() -> dict[str, str]:
    text = resources.files("d20combat.data").joinpath("actions.yaml").read_text(encoding="utf-8")
    data: dict[str, str] = yaml.safe_load(text)
    return data


@dataclass(frozen=True, slots=True)
class AttackPlan:
    attacker: str
    target: str
    option: AttackOption
    ranged: bool
    distance_ft: int
    modifiers: tuple[Modifier, ...]
    cover: CoverFact
    concealment: int
    concealment_reason: str
    guessed_wrong: bool


@dataclass(frozen=True, slots=True)
class Decision:
    """What the engine waits for: whose turn and which actions are legal now — or, while an action
    waits in a reaction window, the prompt to one creature and the answers it may give."""

    actor: str
    round: int
    options: tuple[ax.Action, ...]
    prompt: ReactionPrompt | None = None


class _NeedsAnswer(Exception):
    def __init__(self, prompt: ReactionPrompt) -> None:
        super().__init__(prompt.trigger)
        self.prompt = prompt


@dataclass(frozen=True, slots=True)
class Pending:
    """An action waiting in a reaction window: re-run with the answers given so far and the dice
    already rolled, it resolves exactly as far as the open prompt."""

    action: ax.Action
    answers: tuple[str, ...]
    faces: tuple[tuple[int, int], ...]
    prompt: ReactionPrompt


class _ReplayDice(DiceSource):
    """Feeds back the faces an interrupted action already rolled, then rolls on with the real source."""

    def __init__(self, inner: DiceSource, faces: tuple[tuple[int, int], ...]) -> None:
        super().__init__()
        self.record = False
        self.inner = inner
        self._prefix: deque[tuple[int, int]] = deque(faces)
        self.used: list[tuple[int, int]] = []

    def _face(self, sides: int, purpose: str) -> int:
        if self._prefix:
            want, face = self._prefix.popleft()
            if want != sides:
                raise RuntimeError(f"replay diverged at {purpose}: d{sides} asked, d{want} recorded")
        else:
            face = self.inner.roll(sides, purpose)
        self.used.append((sides, face))
        return face


class Tx:
    """A working copy: events are applied as they are emitted and kept only if the whole action resolves.

    It is also the view a ruleset hook gets (:class:`d20combat.rulesets.base.View`)."""

    def __init__(self, state: EncounterState, engine: Encounter | None = None,
                 answers: tuple[str, ...] = ()) -> None:
        self.state = state
        self.events: list[ev.Event] = []
        self._engine = engine
        self._answers: deque[str] = deque(answers)
        self.dice: DiceSource = engine.dice if engine is not None else _ReplayDice(DiceSource(), ())

    def emit(self, event: ev.Event) -> None:
        self.state = apply(self.state, event)
        self.events.append(event)

    def creature(self, cid: str) -> Creature:
        assert self._engine is not None
        return self._engine.creature(cid)

    @property
    def game_map(self) -> GameMap:
        assert self._engine is not None
        return self._engine.battle.game_map

    def ask(self, prompt: ReactionPrompt) -> str:
        """The answer to ``prompt``: the next one given, or the action pauses until it is given."""
        if not self._answers:
            raise _NeedsAnswer(prompt)
        answer = self._answers.popleft()
        if answer not in prompt.options:
            raise IllegalAction(f"{prompt.reactor}: {answer!r} is not one of {', '.join(prompt.options)}")
        return answer


class ReadView:
    """A view for policies asked during planning: it reads, but may not emit or ask."""

    def __init__(self, engine: Encounter, state: EncounterState) -> None:
        self._engine = engine
        self.state = state
        self.dice = engine.dice

    def creature(self, cid: str) -> Creature:
        return self._engine.creature(cid)

    @property
    def game_map(self) -> GameMap:
        return self._engine.battle.game_map

    def emit(self, event: ev.Event) -> None:
        raise RuntimeError("planning cannot change the encounter")

    def ask(self, prompt: ReactionPrompt) -> str:
        raise RuntimeError("planning cannot ask for reactions")


class Encounter:
    def __init__(self, battle: Battle, dice: DiceSource, initial: EncounterState | None = None) -> None:
        self.battle = battle
        self.ruleset = battle.ruleset
        self.dice = dice
        self.initial = initial or initial_state(battle)
        self.state = self.initial
        self.log: list[ev.Event] = []
        self._checkpoints: list[tuple[int, EncounterState]] = []
        self._redo: list[list[ev.Event]] = []
        self._reach_cache: dict[tuple[str, int], tuple[EncounterState, dict[Square, mv.PathInfo]]] = {}
        self.pending: Pending | None = None
        self._plan_state: EncounterState | None = None
        self._plans: dict[tuple[object, ...], AttackPlan | IllegalAction] = {}

    # ------------------------------------------------------------------ queries
    def creature(self, cid: str) -> Creature:
        return self.battle.creatures[cid]

    def footprint(self, cid: str, state: EncounterState | None = None) -> Footprint:
        s = state or self.state
        return Footprint(s.get(cid).position, self.creature(cid).space)

    def on_map(self, cid: str, state: EncounterState | None = None) -> bool:
        s = state or self.state
        return not s.get(cid).has("fled")

    def is_helpless(self, cid: str, state: EncounterState | None = None) -> bool:
        s = state or self.state
        return self.ruleset.is_helpless(self.creature(cid), s.get(cid))

    def is_dead(self, cid: str, state: EncounterState | None = None) -> bool:
        s = state or self.state
        return self.ruleset.health(self.creature(cid), s.get(cid)) is hp_rules.Health.DEAD

    def enemies(self, cid: str, state: EncounterState | None = None) -> list[str]:
        s = state or self.state
        side = self.creature(cid).side
        return [o for o in s.order or s.combatants if self.creature(o).side != side and self.on_map(o, s)]

    def allies(self, cid: str, state: EncounterState | None = None) -> list[str]:
        s = state or self.state
        side = self.creature(cid).side
        return [o for o in s.order or s.combatants if o != cid and self.creature(o).side == side and self.on_map(o, s)]

    def occupancy(self, cid: str, state: EncounterState | None = None) -> dict[Square, mv.Occupant]:
        s = state or self.state
        side = self.creature(cid).side
        occ: dict[Square, mv.Occupant] = {}
        for other in s.combatants:
            if other == cid or not self.on_map(other, s):
                continue
            if self.is_helpless(other, s):
                kind = mv.Occupant.HELPLESS
            elif self.creature(other).side == side:
                kind = mv.Occupant.ALLY
            else:
                kind = mv.Occupant.ENEMY
            for sq in self.footprint(other, s).squares():
                # A helpless creature may lie under a standing one: the square is as strict as its strictest.
                if _STRICTNESS[kind] > _STRICTNESS.get(occ.get(sq), -1):  # type: ignore[arg-type]
                    occ[sq] = kind
        return occ

    def creature_squares(self, exclude: tuple[str, ...], state: EncounterState | None = None) -> dict[Square, str]:
        s = state or self.state
        out: dict[Square, str] = {}
        for other in s.combatants:
            if other in exclude or not self.on_map(other, s):
                continue
            for sq in self.footprint(other, s).squares():
                out[sq] = self.creature(other).name
        return out

    def allowance(self, cid: str, state: EncounterState | None = None) -> TurnAllowance:
        s = state or self.state
        return self.ruleset.allowance(self.creature(cid), s.get(cid), surprise_round=s.surprise_round)

    def speed_ft(self, cid: str, state: EncounterState | None = None) -> int:
        s = state or self.state
        creature = self.creature(cid)
        if creature.fly_speed_ft:
            return creature.fly_speed_ft
        return self.ruleset.speed_ft(creature, s.get(cid))

    def move_options(self, cid: str, state: EncounterState | None = None) -> dict[Square, mv.PathInfo]:
        """Every square one move action can reach now, with its cheapest legal path (PFB-MOVE-06..27).

        Cached for the state object it was computed on: the AI, ``check`` and ``act`` ask the same
        question of the same immutable state several times per decision.
        """
        s = state or self.state
        turn = s.turn
        diagonals = turn.diagonals if turn is not None and turn.actor == cid else 0
        key = (cid, diagonals)
        cached = self._reach_cache.get(key)
        if cached is not None and cached[0] is s:
            return cached[1]
        creature = self.creature(cid)
        result = mv.reachable(self.battle.game_map, self.footprint(cid, s), max(self.speed_ft(cid, s), 5),
                              self.occupancy(cid, s), diagonals_so_far=diagonals, flying=creature.fly_speed_ft > 0,
                              difficult_diagonal_counts=self.ruleset.difficult_diagonal_counts)
        self._reach_cache[key] = (s, result)
        return result

    def view(self, state: EncounterState | None = None) -> ReadView:
        """A read-only view for policies and controllers asking questions (no events, no prompts)."""
        return ReadView(self, state or self.state)

    def decision(self) -> Decision | None:
        if self.pending is not None:
            return Decision(self.pending.prompt.reactor, self.state.round, (), self.pending.prompt)
        if self.state.ended or self.state.turn is None:
            return None
        return Decision(self.state.turn.actor, self.state.round, tuple(self.legal_actions()))

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> list[ev.Event]:
        if self.log:
            raise IllegalAction("the encounter has already started")
        tx = Tx(self.state, self)
        tx.emit(ev.EncounterStarted(self.battle.scenario))
        self._determine_surprise(tx)
        self._roll_initiative(tx)
        self._new_round(tx, 1, bool(tx.state.surprised))
        self._advance(tx)
        return self._commit(tx, checkpoint=False)

    def act(self, action: ax.Action) -> list[ev.Event]:
        """Validate and resolve ``action`` for the creature whose turn it is; returns the events.

        If the action opens a reaction window, nothing is committed yet: :attr:`pending` holds the
        prompt, :meth:`decision` shows it, and :meth:`respond` resumes the action."""
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
        return self._commit(tx)

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
        self._redo.append(self.log[length:])
        del self.log[length:]
        self.state = state
        return True

    def redo(self) -> bool:
        if not self._redo:
            return False
        events = self._redo.pop()
        tx = Tx(self.state, self)
        for e in events:
            tx.emit(e)
        self._checkpoints.append((len(self.log), self.state))
        self.log.extend(tx.events)
        self.state = tx.state
        return True

    def _commit(self, tx: Tx, checkpoint: bool = True) -> list[ev.Event]:
        if checkpoint:
            self._checkpoints.append((len(self.log), self.state))
            self._redo.clear()
        self.log.extend(tx.events)
        self.state = tx.state
        return tx.events

    # ------------------------------------------------------------------ set-up
    def _determine_surprise(self, tx: Tx) -> None:
        """PFB-SURP-01..07 and PFB-RND-08: surprise is settled before initiative."""
        if self.battle.surprised is not None:
            surprised, notes = list(self.battle.surprised), ["(set by the scenario)"]
        else:
            sneakers = [c for c in self.battle.creatures.values() if c.sneaky]
            sneaky_sides = {c.side for c in sneakers}
            perceivers = [c for c in self.battle.creatures.values() if c.side not in sneaky_sides]
            surprised, notes = determine_surprise(sneakers, perceivers, self.dice)
        tx.emit(ev.SurpriseDetermined(surprised, notes))

    def _roll_initiative(self, tx: Tx) -> None:
        """PFB-INIT-01..05, PFB-RND-09/10: everyone rolls, surprised creatures included."""
        totals: list[tuple[str, int]] = []
        for cid, creature in self.battle.creatures.items():
            fixed = self.battle.initiative.get(cid)
            if fixed is not None:
                tx.emit(ev.InitiativeRolled(cid, fixed, f"{fixed} (given)"))
                totals.append((cid, fixed))
                continue
            face = self.dice.roll(20, f"initiative {cid}")
            mods = [*self.ruleset.initiative_modifiers(creature),
                    *self.ruleset.initiative_state_modifiers(creature, tx.state.get(cid))]
            t = total(face, mods, base_label="d20",
                      stacking=self.ruleset.stacking)
            tx.emit(ev.InitiativeRolled(cid, t.value, t.explain()))
            totals.append((cid, t.value))
        order, notes = order_by_initiative(totals, self.dice)
        tx.emit(ev.OrderSet(order, notes))

    # ------------------------------------------------------------------ turn flow
    def _advance(self, tx: Tx) -> None:
        """Move to the next creature able to act; run start-of-turn steps; end the combat when due."""
        while not tx.state.ended:
            if self._check_end(tx):
                return
            s = tx.state
            index = s.turn_index + 1
            if index >= len(s.order):
                if s.round >= self.battle.max_rounds:
                    tx.emit(ev.EncounterEnded(None, f"no side won within {self.battle.max_rounds} rounds"))
                    return
                self.ruleset.end_of_round(tx, s.round)
                self._new_round(tx, s.round + 1, False)  # PFB-RND-12: no new initiative, no new surprise
                continue
            actor = s.order[index]
            pools = self.ruleset.turn_pools(self.creature(actor), s.get(actor), surprise_round=s.surprise_round)
            tx.emit(ev.TurnStarted(actor, index, pools))
            self._start_of_turn(tx, actor)
            if tx.state.ended:
                return
            reason = self._cannot_act(tx.state, actor)
            if reason is None:
                return
            tx.emit(ev.TurnEnded(actor, reason))

    def _cannot_act(self, s: EncounterState, actor: str) -> str | None:
        if not self.on_map(actor, s):
            return "has left the battle"
        if s.surprise_round and actor in s.surprised:
            return "surprised: no actions in the surprise round"  # PFB-SURP-04
        if not self.ruleset.can_act(self.creature(actor), s.get(actor)):
            return self.ruleset.cannot_act_reason(self.creature(actor), s.get(actor))
        return None

    def _new_round(self, tx: Tx, round_no: int, surprise: bool) -> None:
        tx.emit(ev.RoundStarted(round_no, surprise))
        self.ruleset.start_of_round(tx, round_no)

    def _start_of_turn(self, tx: Tx, actor: str) -> None:
        s = tx.state
        # PFB-TIME-03..05: effects end just before the initiative slot they started on.
        for cid, c in s.combatants.items():
            for effect in c.effects:
                if effect.anchor == actor and s.round >= effect.until_round:
                    tx.emit(ev.EffectEnded(cid, effect.name))
                    if effect.name.startswith("activating "):
                        done = self.on_map(actor, s) and self.ruleset.can_act(self.creature(actor), s.get(actor))
                        outcome = "takes effect" if done else "fails: the creature cannot act"
                        tx.emit(ev.Note(f"{actor}'s {effect.name[11:]} {outcome} (PFB-TIME-08)"))
        self.ruleset.start_of_turn(tx, actor)

    def _check_end(self, tx: Tx) -> bool:
        """PFB-RND-07 (proposed): the combat ends when every creature of a side is out of the fight."""
        s = tx.state
        standing = [side for side in self.battle.sides
                    if any(not self.ruleset.out_of_fight(c, s.get(c.id))
                           for c in self.battle.creatures.values() if c.side == side)]
        if len(standing) <= 1 and len(self.battle.sides) > 1:
            winner = standing[0] if standing else None
            reason = f"{winner} win — every foe is down, fled or surrendered" if winner else "no side stands"
            tx.emit(ev.EncounterEnded(winner, reason))
            return True
        return False

    def _announce_health(self, tx: Tx, cid: str, before: int) -> None:
        self.ruleset.after_damage(tx, cid, before - tx.state.get(cid).hp, before)

    # ------------------------------------------------------------------ budget
    def _pay(self, tx: Tx, actor: str, name: str, cost: Cost, dry: bool) -> str:
        """Ask the ruleset how the turn pays ``cost`` (P5 action_budget) and spend it."""
        turn = tx.state.turn
        assert turn is not None
        try:
            label, spend = self.ruleset.pay(cost, turn, self.allowance(actor, tx.state),
                                            surprise_round=tx.state.surprise_round)
        except BudgetError as exc:
            raise IllegalAction(f"{name}: {exc}") from None
        if not dry:
            tx.emit(ev.BudgetSpent(actor, name, label, spend))
        return label

    # Public names for rulesets' own actions (do_<kind>(engine, tx, actor, action, dry)).
    def pay(self, tx: Tx, actor: str, name: str, cost: Cost, dry: bool) -> str:
        return self._pay(tx, actor, name, cost, dry)

    def roll_attack(self, tx: Tx, plan: AttackPlan, *, damage_bonus: int = 0) -> None:
        self._roll_attack(tx, plan, damage_bonus=damage_bonus)

    def provoke(self, tx: Tx, mover: str, reason: str) -> bool:
        return self._provoke(tx, mover, reason, set())

    def announce_health(self, tx: Tx, cid: str, hp_before: int) -> None:
        self._announce_health(tx, cid, hp_before)

    def can_afford(self, cost: Cost, state: EncounterState | None = None) -> bool:
        """Whether the creature whose turn it is could pay ``cost`` now (for controllers)."""
        s = state or self.state
        if s.turn is None:
            return False
        try:
            self.ruleset.pay(cost, s.turn, self.allowance(s.turn.actor, s), surprise_round=s.surprise_round)
        except BudgetError:
            return False
        return True

    # ------------------------------------------------------------------ dispatch
    def _resolve(self, tx: Tx, action: ax.Action, dry: bool) -> None:
        s = tx.state
        if s.ended:
            raise IllegalAction("the encounter is over")
        if s.turn is None:
            raise IllegalAction("the encounter has not started")
        actor = s.turn.actor
        forbidden = self.ruleset.action_forbidden(self.view(s), actor, action)
        if forbidden:
            raise IllegalAction(forbidden)
        handler = getattr(self, f"_do_{action.kind}", None)
        if handler is None:
            # A ruleset's own actions (coup de grace, feint, reserve…): do_<kind>(engine, tx, actor, action, dry).
            ruleset_handler = getattr(self.ruleset, f"do_{action.kind}", None)
            if ruleset_handler is None:
                raise IllegalAction(f"{action.kind}: no such action in {self.ruleset.id}")

            def handler(tx: Tx, actor: str, action: ax.Action, dry: bool) -> None:
                ruleset_handler(self, tx, actor, action, dry)

        if not dry:
            reason = self.ruleset.provoking_act(self.view(s), actor, action,
                                                self._action_option(actor, action, s))
            if reason:
                # P19: a distracting act provokes before it happens — if it is legal at all.
                handler(Tx(s, self), actor, action, True)
                if not self._provoke(tx, actor, reason, set()):
                    tx.emit(ev.TurnEnded(actor, "can no longer act"))
                    self._advance(tx)
                    return
        handler(tx, actor, action, dry)
        if dry:
            return
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

    def _do_end_turn(self, tx: Tx, actor: str, a: ax.EndTurn, dry: bool) -> None:
        if dry:
            return
        self.ruleset.end_of_turn(tx, actor)
        tx.emit(ev.TurnEnded(actor))  # PFB-ACT-09: what is left is lost
        self._advance(tx)

    # ------------------------------------------------------------------ movement
    def _movement_common(self, tx: Tx, actor: str, what: str) -> None:
        cs = tx.state.get(actor)
        if cs.has("prone"):
            raise IllegalAction(f"{what}: {actor} is prone; stand up first (a move action, PFB-ACT-21)")
        assert tx.state.turn is not None
        if tx.state.turn.stepped:
            raise IllegalAction(f"{what}: after a 5-foot step no other movement this round (PFB-MOVE-03)")
        if self.speed_ft(actor, tx.state) <= 0:
            raise IllegalAction(f"{what}: {actor} cannot move (speed 0, PFB-MOVE-27)")

    def _do_move(self, tx: Tx, actor: str, a: ax.Move, dry: bool) -> None:
        self._movement_common(tx, actor, "move")
        turn = tx.state.turn
        assert turn is not None
        creature = self.creature(actor)
        speed = self.speed_ft(actor, tx.state)
        if speed <= 0:
            raise IllegalAction(f"move: {actor} cannot move (speed 0)")
        budget = max(speed, 5)  # PFB-MOVE-27: a move action always allows at least 5 ft
        if a.path is not None:
            path = tuple((int(p[0]), int(p[1])) for p in a.path)
            check = mv.check_path(self.battle.game_map, self.footprint(actor, tx.state), path, budget,
                                  self.occupancy(actor, tx.state), diagonals_so_far=turn.diagonals,
                                  flying=creature.fly_speed_ft > 0,
                                  difficult_diagonal_counts=self.ruleset.difficult_diagonal_counts)
            if not check.ok:
                raise IllegalAction(f"move: {check.error}")
            cost, diagonals, squares = check.cost_ft, check.diagonals, list(path)
        elif a.to is not None:
            to = (int(a.to[0]), int(a.to[1]))
            if not self.battle.game_map.in_bounds(to):
                raise IllegalAction(f"move: {to} is outside the {self.battle.game_map.width}×"
                                    f"{self.battle.game_map.height} map")
            info = self.move_options(actor, tx.state).get(to)
            if info is None:
                raise IllegalAction(f"move: no legal path to {to} within {budget} ft")
            cost, diagonals, squares = info.cost_ft, info.diagonals, list(info.path)
        else:
            raise IllegalAction("move: give 'to' or 'path'")
        if not squares:
            raise IllegalAction("move: the path is empty")
        paid = self._pay(tx, actor, "move", "move", dry)
        if a.draw is not None or a.shield is not None:
            self._free_while_moving(tx, actor, a.draw, a.shield, paid, dry)
        if dry:
            return
        self._walk(tx, actor, squares, cost, diagonals, "move")

    def _free_while_moving(self, tx: Tx, actor: str, draw: str | None, shield: str | None, paid: str,
                           dry: bool) -> None:
        """PFB-ITEM-05/11: attack bonus +1 or more and moving with the move action → draw a weapon or
        ready/remove a shield as a free action."""
        creature = self.creature(actor)
        if creature.attack_bonus < 1:
            raise IllegalAction("drawing while moving needs an attack bonus of +1 or higher (PFB-ITEM-05)")
        if paid != "move":
            raise IllegalAction("a free draw comes only with the move action spent moving (PFB-ITEM-05)")
        if self.ruleset.move_draw_uses_free_action:
            self._pay(tx, actor, "draw while moving" if draw else "shield while moving", "free", dry)
        if draw is not None:
            self._change_wielding(tx, actor, draw, dry)
        if shield is not None:
            self._change_shield(tx, actor, shield, dry)

    def _do_step(self, tx: Tx, actor: str, a: ax.Step, dry: bool) -> None:
        """PFB-MOVE-01..05."""
        self._movement_common(tx, actor, "5-foot step")
        turn = tx.state.turn
        assert turn is not None
        if turn.moved:
            raise IllegalAction("5-foot step: not in a turn with other movement (PFB-MOVE-02)")
        cs = tx.state.get(actor)
        if cs.has("movement_hampered"):
            raise IllegalAction("5-foot step: not while your movement is slowed (PFB-MOVE-04)")
        to = (int(a.to[0]), int(a.to[1]))
        start = self.footprint(actor, tx.state)
        if max(abs(to[0] - start.origin[0]), abs(to[1] - start.origin[1])) != 1:
            raise IllegalAction(f"5-foot step: {to} is not one square away")
        new_fp = start.moved_to(to)
        if any(self.battle.game_map.is_difficult(sq) for sq in new_fp.squares() if sq not in set(start.squares())):
            raise IllegalAction(f"5-foot step: not into terrain that slows you, such as {to} (PFB-MOVE-05)")
        step = mv.footprint_step_cost(self.battle.game_map, start, to, turn.diagonals)
        if step is None:
            raise IllegalAction(f"5-foot step: {to} cannot be entered (wall, edge or corner, PFB-MOVE-17)")
        occ = self.occupancy(actor, tx.state)
        if not all(mv.can_end(occ.get(sq)) for sq in new_fp.squares()):
            raise IllegalAction(f"5-foot step: cannot end in {to}: it is occupied (PFB-MOVE-12/13)")
        self._pay(tx, actor, "5-foot step", "free" if self.ruleset.step_uses_free_action else "none", dry)
        if dry:
            return
        tx.emit(ev.Moved(actor, [list(to)], 5, step[1], "step"))

    def _do_climb_or_swim(self, tx: Tx, actor: str, a: ax.ClimbOrSwim, dry: bool) -> None:
        """PFB-MOVE-07 (MISSING in the text; PF1 CRB default): a successful Climb or Swim check moves
        the creature a quarter of its speed (at least 5 ft) as a move action; a failed one, not at all.
        A skill check has no automatic result on a natural 1 or 20 (PFB-NAT-05)."""
        self._movement_common(tx, actor, "climb or swim")
        gm = self.battle.game_map
        path = [(int(p[0]), int(p[1])) for p in a.path]
        if not path:
            raise IllegalAction("climb or swim: the path is empty")
        limit = max(self.speed_ft(actor, tx.state) // 4 // 5, 1)
        if len(path) > limit:
            raise IllegalAction(f"climb or swim: {len(path)} squares, but a quarter of the speed allows {limit}")
        occ = self.occupancy(actor, tx.state)
        prev = tx.state.get(actor).position
        needs: list[tuple[str, int]] = []
        for n, sq in enumerate(path, 1):
            if max(abs(sq[0] - prev[0]), abs(sq[1] - prev[1])) != 1:
                raise IllegalAction(f"climb or swim: step {n} to {sq} is not to a neighbouring square")
            need = gm.skill_for(sq)
            if need is None and not gm.is_passable(sq):
                raise IllegalAction(f"climb or swim: step {n} to {sq} enters a wall, a pit or leaves the map")
            if not mv.can_pass(occ.get(sq)):
                raise IllegalAction(f"climb or swim: step {n} to {sq}: an enemy is there (PFB-MOVE-13)")
            if need is not None:
                needs.append(need)
            prev = sq
        if not needs:
            raise IllegalAction("climb or swim: no square on the path needs climbing or swimming; move instead")
        if not mv.can_end(occ.get(path[-1])):
            raise IllegalAction(f"climb or swim: cannot end in {path[-1]}: it is occupied (PFB-MOVE-12)")
        skill, dc = max(needs, key=lambda k: k[1])
        self._pay(tx, actor, skill, "move", dry)
        if dry:
            return
        bonus = self.creature(actor).sheet.skills.get(skill, 0)
        face = self.dice.d20(f"{skill} check {actor}")
        result = face + bonus
        text = f"{actor} {skill} check {result} = d20 {face} {bonus:+d} vs DC {dc}"
        if result >= dc:
            tx.emit(ev.Note(text + ": success"))
            tx.emit(ev.Moved(actor, [list(p) for p in path], 5 * len(path), tx.state.turn.diagonals
                             if tx.state.turn else 0, skill))
        else:
            tx.emit(ev.Note(text + ": no progress"))

    def _do_minimum_move(self, tx: Tx, actor: str, a: ax.MinimumMove, dry: bool) -> None:
        """PFB-MOVE-25/26: a full round buys one square whatever it costs, never through walls or corners."""
        self._movement_common(tx, actor, "minimum move")
        to = (int(a.to[0]), int(a.to[1]))
        start = self.footprint(actor, tx.state)
        if max(abs(to[0] - start.origin[0]), abs(to[1] - start.origin[1])) != 1:
            raise IllegalAction(f"minimum move: {to} is not one square away")
        turn = tx.state.turn
        assert turn is not None
        step = mv.footprint_step_cost(self.battle.game_map, start, to, turn.diagonals)
        if step is None:
            raise IllegalAction(f"minimum move: {to} cannot be entered (wall, edge or corner, PFB-MOVE-26)")
        occ = self.occupancy(actor, tx.state)
        if not all(mv.can_end(occ.get(sq)) for sq in start.moved_to(to).squares()):
            raise IllegalAction(f"minimum move: cannot end in {to}: it is occupied")
        self._pay(tx, actor, "minimum move", "full-round", dry)
        if dry:
            return
        tx.emit(ev.Moved(actor, [list(to)], step[0], step[1], "minimum move"))

    # ------------------------------------------------------------------ equipment
    def _option(self, actor: str, name: str | None, state: EncounterState) -> AttackOption:
        creature = self.creature(actor)
        name = name or state.get(actor).wielding
        if name is None:
            raise IllegalAction(f"{actor} holds no weapon; draw one first (a move action, PFB-ITEM-01)")
        try:
            return creature.attack(name)
        except KeyError as exc:
            raise IllegalAction(str(exc.args[0])) from None

    def _change_wielding(self, tx: Tx, actor: str, name: str | None, dry: bool) -> None:
        if name is not None:
            self._option(actor, name, tx.state)
        if dry:
            return
        cs = tx.state.get(actor)
        note = f"draws {name}" if name else f"puts away {cs.wielding}"
        tx.emit(ev.EquipmentChanged(actor, name, cs.shield_state, sorted(cs.loaded), note))

    def _change_shield(self, tx: Tx, actor: str, op: str, dry: bool) -> None:
        cs = tx.state.get(actor)
        if not self.creature(actor).shield_bonus and self.creature(actor).sheet.shield is None:
            raise IllegalAction(f"{actor} has no shield")
        new = {"strap": "strapped", "remove": "held", "drop": "dropped"}[op]
        if op == "strap" and cs.shield_state == "strapped":
            raise IllegalAction("the shield is already strapped on")
        if cs.shield_state == "dropped":
            raise IllegalAction("the shield was dropped and lies on the ground")
        if op == "remove" and cs.shield_state != "strapped":
            raise IllegalAction("the shield is not strapped on")
        if op == "drop" and cs.shield_state != "held":
            raise IllegalAction("only a shield carried in the hand can be dropped as a free action (PFB-ITEM-12)")
        if dry:
            return
        tx.emit(ev.EquipmentChanged(actor, cs.wielding, new, sorted(cs.loaded), f"shield: {op}"))

    def _do_draw(self, tx: Tx, actor: str, a: ax.Draw, dry: bool) -> None:
        """PFB-ITEM-01: drawing a weapon is a move action."""
        if tx.state.get(actor).wielding == a.attack:
            raise IllegalAction(f"draw: {actor} already holds {a.attack}")
        self._option(actor, a.attack, tx.state)
        self._pay(tx, actor, f"draw {a.attack}", "move", dry)
        self._change_wielding(tx, actor, a.attack, dry)

    def _do_sheathe(self, tx: Tx, actor: str, a: ax.Sheathe, dry: bool) -> None:
        """PFB-ITEM-02: putting a weapon away is a move action."""
        if tx.state.get(actor).wielding is None:
            raise IllegalAction("sheathe: nothing in hand")
        self._pay(tx, actor, "sheathe", "move", dry)
        self._change_wielding(tx, actor, None, dry)

    def _do_shield(self, tx: Tx, actor: str, a: ax.ShieldAction, dry: bool) -> None:
        """PFB-ITEM-09/10/12."""
        cost: Cost = "free" if a.op == "drop" else "move"
        self._change_shield(tx, actor, a.op, True)
        self._pay(tx, actor, f"shield {a.op}", cost, dry)
        self._change_shield(tx, actor, a.op, dry)

    def _do_drop_item(self, tx: Tx, actor: str, a: ax.DropItem, dry: bool) -> None:
        """PFB-ACT-15: drop a held item (free)."""
        cs = tx.state.get(actor)
        if a.item != cs.wielding:
            raise IllegalAction(f"drop: {actor} is not holding {a.item!r}")
        self._pay(tx, actor, f"drop {a.item}", "free", dry)
        if not dry:
            tx.emit(ev.EquipmentChanged(actor, None, cs.shield_state, sorted(cs.loaded), f"drops {a.item}"))

    def _do_drop_prone(self, tx: Tx, actor: str, a: ax.DropProne, dry: bool) -> None:
        """PFB-ACT-16: drop prone in your square (free)."""
        if tx.state.get(actor).has("prone"):
            raise IllegalAction("drop prone: already prone")
        self._pay(tx, actor, "drop prone", "free", dry)
        if not dry:
            tx.emit(ev.ConditionSet(actor, "prone", True, "drops prone"))

    def _do_stand_up(self, tx: Tx, actor: str, a: ax.StandUp, dry: bool) -> None:
        """PFB-ACT-21: standing up is a move action."""
        if not tx.state.get(actor).has("prone"):
            raise IllegalAction("stand up: not prone")
        self._pay(tx, actor, "stand up", "move", dry)
        if not dry:
            tx.emit(ev.ConditionSet(actor, "prone", False, "stands up"))

    def _do_reload(self, tx: Tx, actor: str, a: ax.Reload, dry: bool) -> None:
        """PFB-ITEM-08: a light crossbow reloads as a move action, a heavy one as a full round."""
        option = self._option(actor, a.attack or None, tx.state)
        if option.weapon.reload == "none":
            raise IllegalAction(f"reload: {option.name} needs no reloading (PFB-ITEM-06)")
        cs = tx.state.get(actor)
        if option.name in cs.loaded:
            raise IllegalAction(f"reload: {option.name} is already loaded")
        self._pay(tx, actor, f"reload {option.name}", "move" if option.weapon.reload == "move" else "full-round",
                  dry)
        if not dry:
            tx.emit(ev.EquipmentChanged(actor, cs.wielding, cs.shield_state, sorted(cs.loaded | {option.name}),
                                        f"reloads {option.name}"))

    def _do_activity(self, tx: Tx, actor: str, a: ax.Activity, dry: bool) -> None:
        """PFB-ACT-11/17/20/22..27, PFB-TIME-06..08: the catalogue gives the cost; unknown → standard."""
        if not a.name:
            raise IllegalAction("activity: give a name")
        kind = action_catalogue().get(a.name, "standard")
        if kind == "full-round-activation":
            self._pay(tx, actor, a.name, "full-round", dry)
            if not dry:
                tx.emit(ev.EffectAdded(actor, f"activating {a.name}", actor, tx.state.round + 1))
            return
        if kind not in ("standard", "move", "full-round", "free"):
            raise IllegalAction(f"activity {a.name}: bad catalogue cost {kind!r}")
        self._pay(tx, actor, a.name, kind, dry)  # type: ignore[arg-type]
        if not dry and tx.state.turn is not None:
            self._strenuous(tx, actor, kind)

    def _strenuous(self, tx: Tx, actor: str, cost: str) -> None:
        """P14 after a strenuous action (a disabled creature's standard action costs 1 hp in PFB)."""
        self.ruleset.strenuous(tx, actor, cost)

    # ------------------------------------------------------------------ attacks
    def plan_attack(self, attacker: str, target: str, attack: str | None = None, *, square: Square | None = None,
                    extra: tuple[Modifier, ...] = (), state: EncounterState | None = None,
                    from_square: Square | None = None) -> AttackPlan:
        """Everything decided before any die: legality (reach, range, the 10-ft rules, total cover,
        total concealment) and the attack modifiers. Raises :class:`IllegalAction`.

        Memoized per state object: a plan is a pure function of the (immutable) state and the
        arguments, and the AI, ``check`` and ``act`` ask for the same plan in turn."""
        s = state or self.state
        if self._plan_state is not s:
            self._plan_state, self._plans = s, {}
        key = (attacker, target, attack, square, extra, from_square)
        cached = self._plans.get(key)
        if cached is None:
            try:
                cached = self._plan_attack(attacker, target, attack, square, extra, s, from_square)
            except IllegalAction as exc:
                cached = exc
            self._plans[key] = cached
        if isinstance(cached, IllegalAction):
            raise IllegalAction(str(cached))
        return cached

    def _plan_attack(self, attacker: str, target: str, attack: str | None, square: Square | None,
                     extra: tuple[Modifier, ...], s: EncounterState, from_square: Square | None) -> AttackPlan:
        if target not in s.combatants:
            raise IllegalAction(f"attack: no combatant {target!r}")
        if target == attacker:
            raise IllegalAction("attack: a creature cannot attack itself")
        if not self.on_map(target, s):
            raise IllegalAction(f"attack: {target} is not on the battlefield")
        if self.is_dead(target, s):
            raise IllegalAction(f"attack: {target} is already dead")
        creature = self.creature(attacker)
        option = self._option(attacker, attack, s)
        cs = s.get(attacker)
        if option.kind.value != "spell" and not self.ruleset.holds(creature, cs, option):
            raise IllegalAction(f"attack: {attacker} must draw {option.name} first (a move action, PFB-ITEM-01)")
        if option.weapon.reload != "none" and option.name not in cs.loaded:
            raise IllegalAction(f"attack: {option.name} is not loaded (reload, PFB-ITEM-08)")
        a_fp = Footprint(from_square or cs.position, creature.space)
        t_fp = self.footprint(target, s)
        gm = self.battle.game_map
        vision = Vision(low_light=creature.sheet.low_light_vision, darkvision_ft=creature.sheet.darkvision_ft,
                             blinded=cs.has("blinded"), sees_invisible=cs.has("sees_invisible"))
        sources = self.ruleset.concealment_sources(
            gm, a_fp, vision, t_fp, s.get(target),
            adjacent_melee=not option.is_ranged and footprint_distance_ft(a_fp, t_fp) == 5)
        percent, reason = self.ruleset.concealment(sources)
        guessed_wrong = False
        if any(src.total for src in sources):
            if square is None:
                raise IllegalAction(f"attack: {target} has total concealment ({reason}); attack a square you "
                                    f"guess instead (PFB-CONC-12)")
            guessed_wrong = tuple(square) not in set(t_fp.squares())
            if guessed_wrong:
                # PFB-CONC-12: the attack goes into the guessed square; reach, range and cover are judged
                # there, so a wrong guess is only ever a plain miss and never reveals the target's square.
                if not gm.in_bounds(square) or gm.is_solid(square):
                    raise IllegalAction(f"attack: {square} is not a square a creature can be in")
                t_fp = Footprint((int(square[0]), int(square[1])), 1)
        dist = footprint_distance_ft(a_fp, t_fp)
        mods: list[Modifier] = list(self.ruleset.attack_modifiers(creature, option))
        ranged = option.is_ranged
        if ranged:
            rc = self.ruleset.ranged_limits(dist, option)
            if rc.problem:
                raise IllegalAction(f"attack: {rc.problem} (PFB-ATK-04..06)")
            if rc.penalty:
                mods.append(Modifier(rc.penalty, "range"))
            if option.kind.value != "spell" and self.ruleset.ranged_needs_clearance():
                for enemy in self.enemies(attacker, s):
                    if self.is_dead(enemy, s) or (
                            self.ruleset.ranged_min_range_ignores_helpless and self.is_helpless(enemy, s)):
                        continue
                    d = footprint_distance_ft(a_fp, self.footprint(enemy, s))
                    if d < 10:
                        raise IllegalAction(f"attack: {enemy} is {d} ft away; ranged weapons need 10 ft from "
                                            f"every enemy (PFB-ATK-09)")
            penalty = self.ruleset.into_melee_penalty(creature)
            if penalty is not None:
                for ally in self.allies(attacker, s):
                    if self.ruleset.into_melee_ignores_helpless_allies and self.is_helpless(ally, s):
                        continue
                    if footprint_distance_ft(self.footprint(ally, s), t_fp) == 5:
                        mods.append(penalty)
                        break
        elif not self.ruleset.in_melee_reach(creature, option, a_fp, t_fp):
            raise IllegalAction(f"attack: {target} is {dist} ft away, beyond {attacker}'s reach of "
                                f"{creature.reach_ft} ft (PFB-ATK-02)")
        for effect in cs.effects:
            if effect.attack:
                mods.append(Modifier(effect.attack, effect.name))
        mods.extend(extra)
        info = AttackPlan(attacker, target, option, ranged, dist, (), CoverFact(CoverDegree.NONE, None, ""), 0, "",
                          False)
        view = self.view(s)
        problem = self.ruleset.attack_problem(view, info)
        if problem:
            raise IllegalAction(f"attack: {problem}")
        mods.extend(self.ruleset.situational_attack_modifiers(view, info))
        blockers = self.creature_squares((attacker, target), s) if self.ruleset.creatures_give_cover(ranged) else {}
        fact = self.ruleset.find_cover(gm, a_fp, t_fp, ranged=ranged, reach_attack=creature.reach_ft > 5,
                                       adjacent=dist == 5, creature_squares=blockers)
        if fact.degree is CoverDegree.TOTAL:
            raise IllegalAction(f"attack: {target} has total cover — {fact.reason} (PFB-COV-09..11)")
        return AttackPlan(attacker, target, option, ranged, dist, tuple(mods), fact, percent, reason, guessed_wrong)

    def _do_attack(self, tx: Tx, actor: str, a: ax.Attack, dry: bool) -> None:
        option = self._option(actor, a.attack, tx.state)
        try:
            declared, bonus = self.ruleset.critical_attack(a.critical, option)
        except RuleError as exc:
            raise IllegalAction(f"attack: {exc}") from None
        plan = self.plan_attack(actor, a.target, a.attack, square=a.square, state=tx.state,
                                extra=(declared,) if declared is not None else ())
        self._pay(tx, actor, f"attack {a.target}", "standard", dry)
        if dry:
            return
        if plan.option.weapon.reload != "none":  # PFB-ITEM-08: the shot empties the crossbow
            cs = tx.state.get(actor)
            tx.emit(ev.EquipmentChanged(actor, cs.wielding, cs.shield_state, sorted(cs.loaded - {plan.option.name}),
                                        f"fires {plan.option.name}"))
        self._roll_attack(tx, plan, damage_bonus=bonus)
        self._strenuous(tx, actor, "standard")

    def defense(self, plan: AttackPlan, state: EncounterState) -> DefenseContext:
        target = self.creature(plan.target)
        ts = state.get(plan.target)
        surprised = state.surprise_round and plan.target in state.surprised
        return DefenseContext(
            touch=plan.option.weapon.touch,
            vs_melee=not plan.ranged,
            flat_footed=self.ruleset.is_flat_footed(target, ts, surprised=surprised),
            helpless=self.ruleset.is_helpless(target, ts),
        )

    def target_ac(self, plan: AttackPlan, state: EncounterState, view: Tx | None = None) -> tuple[int, str]:
        """The number the attack must reach (P9) with cover (P17) folded in, and its explanation."""
        target = self.creature(plan.target)
        extra = [m for m in [self.ruleset.cover_modifier(plan.cover)] if m is not None]
        ac = self.ruleset.defense(target, state.get(plan.target), self.defense(plan, state), extra,
                                  view if view is not None else self.view(state), plan)
        return ac.value, ac.explain_parts()

    def _roll_attack(self, tx: Tx, plan: AttackPlan, *, damage_bonus: int = 0) -> None:
        """The pipeline (rules-diff §3), stages in a fixed order; each asks the ruleset: miss chance
        before the roll (P18), roll (P8), hit test (P9, P17), active defense window (P10), miss chance
        after a hit (P18), threat and confirmation (P11), damage (P12), mitigation (P13), health (P14)."""
        s = tx.state
        rs = self.ruleset
        attacker, target = plan.attacker, plan.target
        lines = [f"{attacker} attacks {target} with {plan.option.name}"]
        cover_mod = rs.cover_modifier(plan.cover) if plan.cover.degree is not CoverDegree.NONE else None
        if cover_mod is not None:  # a ruleset without cover (SKL) says nothing about the lines
            lines.append(f"  cover: +{cover_mod.value} {rs.defense_name}, {plan.cover.reason}")
        if plan.concealment and rs.concealment_before_roll:
            pct = self.dice.percentile(f"concealment {attacker}->{target}")
            if pct <= plan.concealment or plan.guessed_wrong:
                lines.append(f"  misses: concealment d% {pct} ≤ {plan.concealment} ({plan.concealment_reason}); "
                             f"no attack roll (PFB-CONC-09)" if not plan.guessed_wrong else "  misses")
                tx.emit(ev.AttackResolved(attacker, target, plan.option.name, False, False, lines))
                return
            lines.append(f"  concealment d% {pct} > {plan.concealment} ({plan.concealment_reason}): attack roll")
        committed = rs.before_attack_roll(tx, plan)  # P10: a defense committed before the roll
        face = self.dice.d20(f"attack {attacker}->{target}")
        counted = rs.effective_face(face)
        label = "d20" if counted == face else f"natural {face} counts as"
        roll = total(counted, plan.modifiers, base_label=label, stacking=rs.stacking)
        ac, ac_text = self.target_ac(plan, s, tx)
        auto_hit, auto_miss = rs.natural(face)
        hit = auto_hit or (not auto_miss and roll.value >= ac)
        why = " (natural 20)" if auto_hit else " (natural 1)" if auto_miss else ""
        lines.append(f"  {'hits' if hit else 'misses'}{why}: {roll.explain()} vs {rs.defense_name} {ac} ({ac_text})")
        if hit and not plan.guessed_wrong and committed is not None:
            negated, text = rs.resolve_active_defense(tx, plan, committed, roll.value)
            lines.append(f"  {text}")
            hit = not negated
        elif hit and not plan.guessed_wrong:
            options = rs.active_defense_options(tx, plan, roll.value)
            if options:
                choice = tx.ask(ReactionPrompt(
                    target, "active_defense", f"{attacker}'s attack ({roll.value}) would hit {target}",
                    (*options, "none"), detail=roll.explain()))
                if choice != "none":
                    negated, text = rs.resolve_active_defense(tx, plan, choice, roll.value)
                    lines.append(f"  {text}")
                    hit = hit and not negated
        rs.attack_rolled(tx, plan, roll.value, hit)
        if hit and plan.concealment and not rs.concealment_before_roll:
            pct = self.dice.percentile(f"concealment {attacker}->{target}")
            if plan.guessed_wrong:
                hit = False  # an attack into an empty guessed square: a plain miss, the square is not revealed
                lines.append("  misses")
            elif pct <= plan.concealment:
                hit = False
                lines.append(f"  the hit misses: concealment d% {pct} ≤ {plan.concealment} ({plan.concealment_reason})")
            else:
                lines.append(f"  concealment d% {pct} > {plan.concealment} ({plan.concealment_reason}): the hit stands")
        _, mult = rs.crit_profile(plan.option)
        critical = False
        if rs.threatens(face, plan.option, hit):
            c_face = self.dice.d20(f"confirm {attacker}->{target}")
            c_roll = total(rs.effective_face(c_face), plan.modifiers, base_label="d20", stacking=rs.stacking)
            c_hit, c_miss = rs.natural(c_face)
            critical = c_hit or (not c_miss and c_roll.value >= ac)
            lines.append(f"  critical threat; confirmation {c_roll.explain()} vs {rs.defense_name} {ac}: "
                         f"{'confirmed' if critical else 'not confirmed — a normal hit'}")
        if plan.guessed_wrong and hit:
            hit = False  # an attack into an empty guessed square is only ever a plain miss
            lines.append("  misses")
        tx.emit(ev.AttackResolved(attacker, target, plan.option.name, hit, critical, lines))
        if not hit:
            return
        helpless = rs.is_helpless(self.creature(target), s.get(target))
        dmg = roll_damage(self.creature(attacker), plan.option, self.dice, multiplier=mult if critical else 1,
                          precision_d6=rs.precision_dice(self.creature(attacker), helpless),
                          minimum=rs.minimum_damage, strength=rs.damage_strength(self.creature(attacker), plan.option))
        amount, text = dmg.total, dmg.explanation
        if damage_bonus:
            amount += damage_bonus
            text = f"{amount} = {text.partition(' = ')[2]} + critical attack {damage_bonus}"
        mitigated, why_less = rs.mitigate(self.creature(target), tx.state.get(target), amount)
        if why_less:
            text = f"{mitigated} = {text.partition(' = ')[2]} {why_less}"
        before = tx.state.get(target).hp
        tx.emit(ev.Damaged(target, mitigated, attacker, f"  damage {text} → {target} hp "
                                                          f"{before} → {before - mitigated}"))
        self._announce_health(tx, target, before)

    # ------------------------------------------------------------------ reactions
    def _provoke(self, tx: Tx, mover: str, reason: str, offered: set[str]) -> bool:
        """Offer an attack of opportunity to every enemy that threatens ``mover`` where it stands now
        (P19). Returns False if the mover can no longer act afterwards."""
        rs = self.ruleset
        here = self.footprint(mover, tx.state)
        for enemy in self.enemies(mover, tx.state):
            if enemy in offered:
                continue
            es = tx.state.get(enemy)
            creature = self.creature(enemy)
            if es.reactions.get(rs.aoo_pool, 0) <= 0 or not rs.can_act(creature, es):
                continue
            if not rs.threatened(creature, es, self.footprint(enemy, tx.state), here) \
                    or not rs.can_make_aoo(tx, enemy, mover):
                continue
            try:
                plan = self.plan_attack(enemy, mover, rs.aoo_attack(creature, es), state=tx.state)
            except IllegalAction:
                continue
            if plan.ranged:
                continue
            offered.add(enemy)
            choices = rs.aoo_choices(creature, plan.option)
            answer = tx.ask(ReactionPrompt(enemy, "attack_of_opportunity", f"{mover} {reason}", (*choices, "decline")))
            if answer != "decline":
                declared, bonus = rs.aoo_declaration(answer, plan.option)  # e.g. SKL's critical attack
                if declared is not None:
                    plan = replace(plan, modifiers=(*plan.modifiers, declared))
                tx.emit(ev.ReactionSpent(enemy, rs.aoo_pool, f"attack of opportunity against {mover} ({reason})"))
                self._roll_attack(tx, plan, damage_bonus=bonus)
                if self._cannot_act(tx.state, mover) is not None:
                    return False
        return True

    def _walk(self, tx: Tx, actor: str, squares: list[Square], cost: int, diagonals: int, mode: str) -> None:
        """Move along ``squares``; where the ruleset says leaving a threatened square provokes, the
        move pauses for attacks of opportunity and stops if the mover drops."""
        if not self.ruleset.movement_provokes(mode):
            tx.emit(ev.Moved(actor, [list(p) for p in squares], cost, diagonals, mode))
            return
        turn = tx.state.turn
        diag = turn.diagonals if turn is not None and turn.actor == actor else 0
        offered: set[str] = set()
        segment: list[Square] = []
        seg_cost = 0
        flying = self.creature(actor).fly_speed_ft > 0
        for sq in squares:
            here = Footprint(segment[-1] if segment else tx.state.get(actor).position, self.creature(actor).space)
            if self._threatened_by_new_enemy(tx, actor, here, offered):
                if segment:
                    tx.emit(ev.Moved(actor, [list(p) for p in segment], seg_cost, diag, mode))
                    segment, seg_cost = [], 0
                if not self._provoke(tx, actor, f"leaves {here.origin}, a threatened square", offered):
                    return
            step = mv.footprint_step_cost(self.battle.game_map, here, sq, diag, flying=flying,
                                          difficult_diagonal_counts=self.ruleset.difficult_diagonal_counts)
            # A charge walks straight to its end square in one jump: count the whole distance.
            step_ft, diag = step if step is not None else (distance_ft(here.origin, sq), diag)
            segment.append(sq)
            seg_cost += step_ft
        if segment:
            tx.emit(ev.Moved(actor, [list(p) for p in segment], seg_cost, diag, mode))

    def _threatened_by_new_enemy(self, tx: Tx, actor: str, here: Footprint, offered: set[str]) -> bool:
        rs = self.ruleset
        for enemy in self.enemies(actor, tx.state):
            if enemy in offered:
                continue
            if rs.threatened(self.creature(enemy), tx.state.get(enemy), self.footprint(enemy, tx.state), here):
                return True
        return False

    def _do_charge(self, tx: Tx, actor: str, a: ax.Charge, dry: bool) -> None:
        """PFB-CHG-01..12."""
        self._movement_common(tx, actor, "charge")
        turn = tx.state.turn
        assert turn is not None
        if turn.moved:
            raise IllegalAction("charge: all the movement must be part of the charge (PFB-CHG-03)")
        if a.target not in tx.state.combatants or a.target == actor:
            raise IllegalAction(f"charge: no target {a.target!r}")
        creature = self.creature(actor)
        start = self.footprint(actor, tx.state)
        t_fp = self.footprint(a.target, tx.state)
        if within_reach(start, creature.reach_ft, t_fp):
            raise IllegalAction(f"charge: {a.target} is already within reach (PFB-CHG-04)")
        option = self._option(actor, a.draw or a.attack, tx.state)
        if option.is_ranged:
            raise IllegalAction("charge: the charge attack is a melee attack (PFB-CHG-10)")
        gm = self.battle.game_map
        origins = closest_attack_origins(gm, start, t_fp, creature.reach_ft)
        if not origins:
            raise IllegalAction(f"charge: no square from which to attack {a.target}")
        if a.to is not None:
            end = (int(a.to[0]), int(a.to[1]))
            if end not in origins:
                raise IllegalAction(f"charge: {end} is not a closest square from which to attack (PFB-CHG-09)")
        else:
            end = origins[0]
        dist = distance_ft(start.origin, end)
        speed = self.speed_ft(actor, tx.state)
        if dist < 10:
            raise IllegalAction(f"charge: only {dist} ft to move; a charge needs at least 10 ft (PFB-CHG-04)")
        if dist > 2 * speed:
            raise IllegalAction(f"charge: {dist} ft is more than double speed {2 * speed} ft (PFB-CHG-05)")
        occupied = set(self.creature_squares((actor,), tx.state))
        end_fp = start.moved_to(end)
        if any(sq in occupied for sq in end_fp.squares()):
            raise IllegalAction(f"charge: the closest square {end} is occupied (PFB-CHG-09)")
        problem = charge_path_problem(gm, start, end, occupied - set(t_fp.squares()),
                                      flying=creature.fly_speed_ft > 0)
        if problem:
            raise IllegalAction(f"charge: {problem} (PFB-CHG-06..08)")
        self._pay(tx, actor, f"charge {a.target}", "full-round", dry)
        if a.draw is not None:
            self._free_while_moving(tx, actor, a.draw, None, "move", dry)
        if dry:
            # The attack's own legality (loaded, reach from the end square, total cover) is checked too.
            self.plan_attack(actor, a.target, option.name, state=replace(tx.state), from_square=end)
            return
        self._walk(tx, actor, [end], dist, turn.diagonals, "charge")
        if self._cannot_act(tx.state, actor) is not None:
            return
        # PFB-CHG-12: −2 AC until the start of the charger's next turn.
        tx.emit(ev.EffectAdded(actor, "charging", actor, tx.state.round + 1, ac=-2))
        plan = self.plan_attack(actor, a.target, option.name, state=tx.state, extra=(Modifier(2, "charge"),))
        self._roll_attack(tx, plan)

    # ------------------------------------------------------------------ enumeration
    def legal_actions(self) -> Iterator[ax.Action]:
        """Every concrete legal action for the creature whose turn it is (moves: one per reachable square)."""
        s = self.state
        if s.turn is None or s.ended:
            return
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
        candidates += self.ruleset.candidate_actions(self, actor)  # the ruleset's own actions (reserve, feint…)
        for action in candidates:
            if self.check(action) is None:
                yield action
        yield ax.EndTurn()


def initial_state(battle: Battle) -> EncounterState:
    from d20combat.encounter.state import CombatantState

    combatants: dict[str, CombatantState] = {}
    for cid, p in battle.placements.items():
        creature = battle.creatures[cid]
        loaded = frozenset(o.name for o in creature.attacks if o.weapon.reload != "none")
        combatants[cid] = CombatantState(cid, p.position, p.hp, p.wielding, p.shield_state, loaded=loaded,
                                         conditions=p.conditions)
    return EncounterState(combatants=combatants)
