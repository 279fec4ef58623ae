"""``apply(state, event) -> state``: the single place where the encounter changes."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from typing import Any

from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState, Effect, EncounterState, TurnState
from d20combat.model.catalog import default_catalog
from d20combat.model.creature import Creature, compile_creature
from d20combat.model.statblock import StatBlock


def _combatant(state: EncounterState, cid: str, **changes: Any) -> EncounterState:
    return state.with_combatant(replace(state.get(cid), **changes))


def _surprise(state: EncounterState, e: ev.SurpriseDetermined) -> EncounterState:
    return replace(state, surprised=frozenset(e.surprised))


def _initiative(state: EncounterState, e: ev.InitiativeRolled) -> EncounterState:
    return _combatant(state, e.combatant, initiative=e.total)


def _order(state: EncounterState, e: ev.OrderSet) -> EncounterState:
    if e.turn_index_shift:
        return replace(state, order=tuple(e.order), turn_index=state.turn_index + e.turn_index_shift)
    return replace(state, order=tuple(e.order))


def _clock(state: EncounterState, e: ev.EncounterClockSet) -> EncounterState:
    return replace(state, first_round=e.first_round)


def _round(state: EncounterState, e: ev.RoundStarted) -> EncounterState:
    return replace(state, round=e.round, surprise_round=e.surprise, turn_index=-1, turn=None)


def _declarations_opened(state: EncounterState, e: ev.DeclarationsOpened) -> EncounterState:
    return replace(state, declaring=tuple(e.declarers), declarations={})


def _declared(state: EncounterState, e: ev.Declared) -> EncounterState:
    assert state.declaring and state.declaring[0] == e.combatant, "a declaration out of turn"
    return replace(state, declaring=state.declaring[1:],
                   declarations={**state.declarations, e.combatant: dict(e.declaration)})


def _declaration_ruled(state: EncounterState, e: ev.DeclarationRuled) -> EncounterState:
    return replace(state, declarations={**state.declarations, e.combatant: dict(e.declaration)})


def _turn_started(state: EncounterState, e: ev.TurnStarted) -> EncounterState:
    turn = TurnState(actor=e.combatant, pools=dict(e.pools)) if e.pools else TurnState(actor=e.combatant)
    return replace(state, turn_index=e.index, turn=turn)


def _turn_pools_set(state: EncounterState, e: ev.TurnPoolsSet) -> EncounterState:
    turn = state.turn
    assert turn is not None and turn.actor == e.combatant, "turn pools set outside the actor's turn"
    return replace(state, turn=replace(turn, pools=dict(e.pools)))


def _turn_ended(state: EncounterState, e: ev.TurnEnded) -> EncounterState:
    return replace(state, turn=None)


def _budget(state: EncounterState, e: ev.BudgetSpent) -> EncounterState:
    turn = state.turn
    assert turn is not None and turn.actor == e.combatant, "budget spent outside the actor's turn"
    pools = dict(turn.pools)
    for pool, n in e.spend.items():
        pools[pool] = pools.get(pool, 0) - n
    turn = replace(
        turn,
        pools=pools,
        free_used=turn.free_used + (1 if e.cost == "free" else 0),
        actions_taken=turn.actions_taken + (0 if e.cost in ("free", "none") else 1),
    )
    return replace(state, turn=turn)


def _reactions_set(state: EncounterState, e: ev.ReactionsSet) -> EncounterState:
    return _combatant(state, e.combatant, reactions=dict(e.pools))


def _reaction_spent(state: EncounterState, e: ev.ReactionSpent) -> EncounterState:
    c = state.get(e.combatant)
    pools = dict(c.reactions)
    pools[e.pool] = pools.get(e.pool, 0) - 1
    return _combatant(state, e.combatant, reactions=pools)


def _moved(state: EncounterState, e: ev.Moved) -> EncounterState:
    end = e.path[-1]
    state = _combatant(state, e.combatant, position=(int(end[0]), int(end[1])))
    turn = state.turn
    if turn is not None and turn.actor == e.combatant:
        turn = replace(
            turn,
            diagonals=e.diagonals,
            stepped=turn.stepped or e.mode == "step",
            moved=turn.moved or e.mode != "step",
        )
        state = replace(state, turn=turn)
    return state


def _attack(state: EncounterState, e: ev.AttackResolved) -> EncounterState:
    return replace(state, attacks_made=state.attacks_made + 1)


def _damaged(state: EncounterState, e: ev.Damaged) -> EncounterState:
    target = state.get(e.target)
    state = _combatant(state, e.target, hp=target.hp - e.amount, damage_taken=target.damage_taken + e.amount,
                       stable=False)
    if e.source in state.combatants and e.source != e.target:
        src = state.get(e.source)
        state = _combatant(state, e.source, damage_dealt=src.damage_dealt + e.amount)
    return state


def _healed(state: EncounterState, e: ev.Healed) -> EncounterState:
    target = state.get(e.target)
    return _combatant(state, e.target, hp=target.hp + e.amount, healed=target.healed + e.amount)


def _condition(state: EncounterState, e: ev.ConditionSet) -> EncounterState:
    c = state.get(e.target)
    conditions = c.conditions | {e.condition} if e.present else c.conditions - {e.condition}
    return _combatant(state, e.target, conditions=frozenset(conditions))


def _stabilized(state: EncounterState, e: ev.Stabilized) -> EncounterState:
    return _combatant(state, e.target, stable=True)


def _effect_added(state: EncounterState, e: ev.EffectAdded) -> EncounterState:
    c = state.get(e.target)
    effect = Effect(e.name, e.anchor, e.until_round, e.ac, e.attack, e.condition)
    return _combatant(state, e.target, effects=(*c.effects, effect))


def _effect_ended(state: EncounterState, e: ev.EffectEnded) -> EncounterState:
    c = state.get(e.target)
    return _combatant(state, e.target, effects=tuple(x for x in c.effects if x.name != e.name))


def _equipment(state: EncounterState, e: ev.EquipmentChanged) -> EncounterState:
    return _combatant(state, e.combatant, wielding=e.wielding, shield_state=e.shield_state,
                      loaded=frozenset(e.loaded))


def sheet_key(sheet: dict[str, Any]) -> str:
    return json.dumps(sheet, sort_keys=True, separators=(",", ":"))


@lru_cache(maxsize=256)
def _compiled(cid: str, name: str, side: str, sheet_json: str, sneaky: bool) -> Creature:
    """An added creature's sheet compiled once (redo, replay and verification apply the same event again)."""
    return compile_creature(cid, name, side, StatBlock.model_validate_json(sheet_json), default_catalog(), sneaky)


def added_creature(e: ev.CreatureAdded) -> Creature:
    return _compiled(e.combatant, e.name, e.side, sheet_key(e.sheet), e.sneaky)


def _creature_added(state: EncounterState, e: ev.CreatureAdded) -> EncounterState:
    creature = added_creature(e)
    loaded = frozenset(o.name for o in creature.attacks if o.weapon.reload != "none")
    c = CombatantState(e.combatant, (int(e.position[0]), int(e.position[1])), e.hp, e.wielding,
                       creature.sheet.shield_state, loaded=loaded, initiative=e.initiative)
    combatants = {**state.combatants, e.combatant: c}
    order = tuple(e.order)
    index = state.turn_index
    if state.turn is not None and state.turn.actor in order:
        index = order.index(state.turn.actor)  # the actor keeps its turn whoever joins before it
    elif index >= 0:
        index += sum(1 for cid in order[: index + 1] if cid == e.combatant)
    return replace(state, combatants=combatants, order=order, turn_index=index,
                   sheets={**state.sheets, e.combatant: creature})


def _creature_removed(state: EncounterState, e: ev.CreatureRemoved) -> EncounterState:
    """Off the table: out of the order (the turn index stays on the slot before the next creature) and marked
    ``removed`` — not on the map, out of the fight; undo restores the state before."""
    order = state.order
    index = state.turn_index
    if e.combatant in order:
        at = order.index(e.combatant)
        if at <= index:
            index -= 1
        order = tuple(c for c in order if c != e.combatant)
    c = state.get(e.combatant)
    state = replace(state, order=order, turn_index=index)
    return _combatant(state, e.combatant, conditions=c.conditions | {"removed"})


def _ended(state: EncounterState, e: ev.EncounterEnded) -> EncounterState:
    return replace(state, ended=True, winner=e.winner, end_reason=e.reason, turn=None)


def _nothing(state: EncounterState, e: ev.Event) -> EncounterState:
    return state


_HANDLERS: dict[type[ev.Event], Callable[[EncounterState, Any], EncounterState]] = {
    ev.EncounterStarted: _nothing,
    ev.SurpriseDetermined: _surprise,
    ev.InitiativeRolled: _initiative,
    ev.OrderSet: _order,
    ev.EncounterClockSet: _clock,
    ev.RoundStarted: _round,
    ev.TurnStarted: _turn_started,
    ev.DeclarationsOpened: _declarations_opened,
    ev.Declared: _declared,
    ev.DeclarationRuled: _declaration_ruled,
    ev.TurnPoolsSet: _turn_pools_set,
    ev.TurnEnded: _turn_ended,
    ev.BudgetSpent: _budget,
    ev.ReactionsSet: _reactions_set,
    ev.ReactionSpent: _reaction_spent,
    ev.Moved: _moved,
    ev.AttackResolved: _attack,
    ev.Damaged: _damaged,
    ev.Healed: _healed,
    ev.ConditionSet: _condition,
    ev.Stabilized: _stabilized,
    ev.EffectAdded: _effect_added,
    ev.EffectEnded: _effect_ended,
    ev.EquipmentChanged: _equipment,
    ev.Note: _nothing,
    ev.EncounterEnded: _ended,
    ev.GmEdited: _nothing,
    ev.CreatureAdded: _creature_added,
    ev.CreatureRemoved: _creature_removed,
    ev.SaveRolled: _nothing,
}


def apply(state: EncounterState, event: ev.Event) -> EncounterState:
    new = _HANDLERS[type(event)](state, event)
    return replace(new, version=state.version + 1)


def initial_combatant(cid: str, position: tuple[int, int], hp: int, wielding: str | None, shield_state: str,
                      loaded: frozenset[str]) -> CombatantState:
    return CombatantState(id=cid, position=position, hp=hp, wielding=wielding, shield_state=shield_state,
                          loaded=loaded)
