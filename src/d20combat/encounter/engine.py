"""The encounter state machine.

State changes only by events (:func:`apply`); an action is validated against the state, then
resolved through the rules into events on a working copy, and committed only when it resolved
whole — an illegal action or a wrongly typed die leaves the encounter exactly as it was.
"""

from __future__ import annotations

from collections.abc import Iterator

from d20combat.battlefield import movement as mv
from d20combat.battlefield.grid import Footprint, Square
from d20combat.dice import DiceSource
from d20combat.encounter import actions as ax
from d20combat.encounter import attack_actions, equipment_actions, movement_actions
from d20combat.encounter import events as ev
from d20combat.encounter.battle import Battle
from d20combat.encounter.resolution import (
    AttackPlan,
    Cost,
    Decision,
    IllegalAction,
    Pending,
    ReadView,
    Tx,
    _NeedsAnswer,
    _ReplayDice,
    action_catalogue,
)
from d20combat.encounter.state import CombatantState, EncounterState, TurnState
from d20combat.model.creature import AttackOption, Creature
from d20combat.numbers import total
from d20combat.rules import health as hp_rules
from d20combat.rules.initiative import order_by_initiative
from d20combat.rules.surprise import determine_surprise
from d20combat.rulesets.base import BudgetError, RuleError, TurnAllowance

__all__ = ["AttackPlan", "Cost", "Decision", "Encounter", "IllegalAction", "Pending", "ReadView", "Tx",
           "action_catalogue", "initial_state"]

_STRICTNESS = {mv.Occupant.HELPLESS: 0, mv.Occupant.ALLY: 1, mv.Occupant.ENEMY: 2}


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


    # The action handlers and the attack pipeline live in their own modules (one concept, one place).
    _movement_common = movement_actions._movement_common
    _do_move = movement_actions._do_move
    _free_while_moving = movement_actions._free_while_moving
    _do_step = movement_actions._do_step
    _do_climb_or_swim = movement_actions._do_climb_or_swim
    _do_minimum_move = movement_actions._do_minimum_move
    _walk = movement_actions._walk
    _threatened_by_new_enemy = movement_actions._threatened_by_new_enemy
    _do_charge = movement_actions._do_charge
    _option = equipment_actions._option
    _change_wielding = equipment_actions._change_wielding
    _change_shield = equipment_actions._change_shield
    _do_draw = equipment_actions._do_draw
    _do_sheathe = equipment_actions._do_sheathe
    _do_shield = equipment_actions._do_shield
    _do_drop_item = equipment_actions._do_drop_item
    _do_drop_prone = equipment_actions._do_drop_prone
    _do_stand_up = equipment_actions._do_stand_up
    _do_reload = equipment_actions._do_reload
    _do_activity = equipment_actions._do_activity
    _strenuous = equipment_actions._strenuous
    plan_attack = attack_actions.plan_attack
    _plan_attack = attack_actions._plan_attack
    _do_attack = attack_actions._do_attack
    defense = attack_actions.defense
    target_ac = attack_actions.target_ac
    _roll_attack = attack_actions._roll_attack
    aoo_plan = attack_actions.aoo_plan
    provocations = attack_actions.provocations
    _provoke = attack_actions._provoke

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

