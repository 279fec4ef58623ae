"""The encounter's core: the battle, the state, the questions everyone asks of them (who stands where,
who can reach what), the turn flow and the action budget. Action handlers (``movement_actions``,
``equipment_actions``, ``attack_actions``) are functions over an :class:`EncounterCore`; the engine
(:mod:`d20combat.encounter.engine`) adds the lifecycle and dispatches actions through the registry.
"""

from __future__ import annotations

from d20combat.battlefield import movement as mv
from d20combat.battlefield.grid import Footprint, Square
from d20combat.dice import DiceSource
from d20combat.encounter import events as ev
from d20combat.encounter.battle import Battle
from d20combat.encounter.resolution import (
    AttackPlan,
    Cost,
    IllegalAction,
    Pending,
    ReadView,
    Tx,
)
from d20combat.encounter.state import CombatantState, EncounterState
from d20combat.model.creature import Creature
from d20combat.numbers import total
from d20combat.rules import health as hp_rules
from d20combat.rulesets.base import BudgetError, TurnAllowance

_STRICTNESS = {mv.Occupant.HELPLESS: 0, mv.Occupant.ALLY: 1, mv.Occupant.ENEMY: 2}


class EncounterCore:
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
        self.added: dict[str, Creature] = {}
        """Creatures added during the fight (the GM's reinforcements), by id, as last added: their sheets live in
        the state (:attr:`EncounterState.sheets`); this remembers them for the write that adds them."""


    # ------------------------------------------------------------------ queries
    def creature(self, cid: str) -> Creature:
        found = self.battle.creatures.get(cid)
        if found is not None:
            return found
        return self.state.sheets.get(cid) or self.added[cid]

    def sides(self, state: EncounterState | None = None) -> tuple[str, ...]:
        """The sides in the fight, in the order they first appear (a creature added later may bring a new one)."""
        s = state or self.state
        seen: dict[str, None] = {side: None for side in self.battle.sides}
        for cid in s.combatants:
            seen.setdefault(self.creature(cid).side, None)
        return tuple(seen)

    def footprint(self, cid: str, state: EncounterState | None = None) -> Footprint:
        s = state or self.state
        return Footprint(s.get(cid).position, self.creature(cid).space)

    def on_map(self, cid: str, state: EncounterState | None = None) -> bool:
        s = state or self.state
        conditions = s.get(cid).conditions
        return "fled" not in conditions and "removed" not in conditions

    def is_helpless(self, cid: str, state: EncounterState | None = None) -> bool:
        s = state or self.state
        return self.ruleset.injury.is_helpless(self.creature(cid), s.get(cid))

    def is_dead(self, cid: str, state: EncounterState | None = None) -> bool:
        s = state or self.state
        return self.ruleset.injury.health(self.creature(cid), s.get(cid)) is hp_rules.Health.DEAD

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
        return self.ruleset.economy.allowance(self.creature(cid), s.get(cid), surprise_round=s.surprise_round)

    def speed_ft(self, cid: str, state: EncounterState | None = None) -> int:
        s = state or self.state
        creature = self.creature(cid)
        speed = creature.fly_speed_ft or self.ruleset.movement.speed_ft(creature, s.get(cid))
        return self.ruleset.conditions.speed_ft(creature, s.get(cid), speed)

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
                              difficult_diagonal_counts=self.ruleset.movement.difficult_diagonal_counts)
        self._reach_cache[key] = (s, result)
        return result

    def view(self, state: EncounterState | None = None) -> ReadView:
        """A read-only view for policies and controllers asking questions (no events, no prompts)."""
        return ReadView(self, state or self.state)

    # ------------------------------------------------------------------ set-up
    def _determine_surprise(self, tx: Tx) -> bool:
        """PFB-SURP-01..07 and PFB-RND-08: surprise is settled before initiative (P4, the ruleset's policy).
        Whether there is a surprise round: when someone is surprised, or when the policy says so although nobody
        is (EP-SURP-17)."""
        settled = self.ruleset.surprise.settle(self.battle, self.dice)
        tx.emit(ev.SurpriseDetermined(settled.surprised, settled.notes, round=settled.round and not settled.surprised,
                                      verdict=settled.verdict))
        return settled.round  # the surprised without a surprise round: WOA-CYCLE-07

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
            mods = [*self.ruleset.turn_order.initiative_modifiers(creature),
                    *self.ruleset.turn_order.initiative_state_modifiers(creature, tx.state.get(cid))]
            t = total(face, mods, base_label="d20",
                      stacking=self.ruleset.stacking)
            tx.emit(ev.InitiativeRolled(cid, t.value, t.explain()))
            totals.append((cid, t.value))
        order, notes = self.ruleset.turn_order.order(totals, self.battle.creatures, self.dice)
        tx.emit(ev.OrderSet(order, notes))

    def _starting_effects(self, tx: Tx) -> None:
        """The scenario's timed effects (issue 13), in place before round 1: each ends just before its anchor's
        turn in round ``rounds + 1`` — it covers ``rounds`` of the anchor's turns (PFB-TIME-03..05)."""
        for cid, p in self.battle.placements.items():
            for e in p.effects:
                tx.emit(ev.EffectAdded(cid, e.name, e.anchor, e.rounds + 1, e.ac, e.attack, e.condition))
                if e.condition and not tx.state.get(cid).has(e.condition):
                    tx.emit(ev.ConditionSet(cid, e.condition, True, e.name))

    # ------------------------------------------------------------------ turn flow
    def _advance(self, tx: Tx) -> None:
        """Move to the next creature able to act; run start-of-turn steps; end the combat when due."""
        while not tx.state.ended:
            if self._check_end(tx):
                return
            s = tx.state
            if s.declaring:
                return  # the round's declarations come first (WOA-CYCLE-14): each is a decision of its own
            index = s.turn_index + 1
            if index >= len(s.order):
                if s.round >= self.battle.max_rounds:
                    tx.emit(ev.EncounterEnded(None, f"no side won within {self.battle.max_rounds} rounds"))
                    return
                self.ruleset.end_of_round(tx, s.round)
                self._new_round(tx, s.round + 1, False)  # PFB-RND-12: no new initiative, no new surprise
                continue
            actor = s.order[index]
            at_start = s.get(actor)
            pools = self.ruleset.economy.turn_pools(self.creature(actor), at_start, surprise_round=s.surprise_round)
            tx.emit(ev.TurnStarted(actor, index, pools))
            self._start_of_turn(tx, actor)
            if tx.state.ended:
                return
            reason = self._cannot_act(tx.state, actor)
            if reason is None:
                self._settle_pools(tx, actor, at_start)
                return
            tx.emit(ev.TurnEnded(actor, reason))

    def _cannot_act(self, s: EncounterState, actor: str) -> str | None:
        if not self.on_map(actor, s):
            return "has left the battle"
        if s.surprise_round and actor in s.surprised:
            return self.ruleset.turn_order.surprised_idle  # PFB-SURP-04, WOA-CYCLE-07
        if not self.ruleset.injury.can_act(self.creature(actor), s.get(actor)):
            return self.ruleset.injury.cannot_act_reason(self.creature(actor), s.get(actor))
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
                    end_effect(tx, cid, effect.name, effect.condition)
                    if effect.name.startswith("activating "):
                        done = self.on_map(actor, s) and self.ruleset.injury.can_act(self.creature(actor), s.get(actor))
                        outcome = "takes effect" if done else "fails: the creature cannot act"
                        tx.emit(ev.Note(f"{actor}'s {effect.name[11:]} {outcome} (PFB-TIME-08)"))
        self.ruleset.start_of_turn(tx, actor)

    def _settle_pools(self, tx: Tx, actor: str, at_start: CombatantState) -> None:
        """Start-of-turn changes settle before the turn is spent (CMV-COND-28/29: a coward that stops cowering
        flees): the pools become what the economy gives the creature as it now is. Emitted only when they
        differ, so a turn whose start changed nothing logs exactly as before."""
        s = tx.state
        turn = s.turn
        if turn is None or turn.actor != actor:
            return
        now = self.ruleset.economy.settled_turn_pools(self.creature(actor), at_start, s.get(actor),
                                                      surprise_round=s.surprise_round)
        if now != dict(turn.pools):
            tx.emit(ev.TurnPoolsSet(actor, now, "after the start-of-turn changes"))

    def _check_end(self, tx: Tx) -> bool:
        """PFB-RND-07 (proposed): the combat ends when every creature of a side is out of the fight."""
        s = tx.state
        sides = self.sides(s) if s.sheets else self.battle.sides
        standing = [side for side in sides
                    if any(self.on_map(cid, s) and not self.ruleset.injury.out_of_fight(self.creature(cid), cs)
                           for cid, cs in s.combatants.items() if self.creature(cid).side == side)]
        if len(standing) <= 1 and len(sides) > 1:
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
            label, spend = self.ruleset.economy.pay(cost, turn, self.allowance(actor, tx.state),
                                            surprise_round=tx.state.surprise_round)
        except BudgetError as exc:
            raise IllegalAction(f"{name}: {exc}") from None
        if not dry:
            tx.emit(ev.BudgetSpent(actor, name, label, spend))
            self.ruleset.economy.after_paid(tx, actor, label)
            self.ruleset.injury.owe_strain(tx, cost)  # settled after the action (engine, P14)
        return label

    def can_afford(self, cost: Cost, state: EncounterState | None = None) -> bool:
        """Whether the creature whose turn it is could pay ``cost`` now (for controllers)."""
        s = state or self.state
        if s.turn is None:
            return False
        try:
            self.ruleset.economy.pay(cost, s.turn, self.allowance(s.turn.actor, s), surprise_round=s.surprise_round)
        except BudgetError:
            return False
        return True



def end_effect(tx: Tx, cid: str, name: str, condition: str) -> None:
    """An effect ends, and the condition it brought with it unless another effect still brings it."""
    tx.emit(ev.EffectEnded(cid, name))
    c = tx.state.get(cid)
    if condition and c.has(condition) and not any(e.condition == condition for e in c.effects):
        tx.emit(ev.ConditionSet(cid, condition, False, f"{name} ended"))


def initial_state(battle: Battle) -> EncounterState:
    combatants: dict[str, CombatantState] = {}
    for cid, p in battle.placements.items():
        creature = battle.creatures[cid]
        loaded = frozenset(o.name for o in creature.attacks if o.weapon.reload != "none")
        combatants[cid] = CombatantState(cid, p.position, p.hp, p.wielding, p.shield_state, loaded=loaded,
                                         conditions=p.conditions)
    return EncounterState(combatants=combatants)
