"""EP-TIME-12: "Treasure and XP should not be distributed until" all combat is resolved, and only for defeated
enemies, each once however many 10-round resets happen. Handing out XP and treasure is outside the combat engine
(EP.md's "Not mechanizable" table); what the engine does is record *who defeated whom*, once per creature: the
first time a creature is defeated (EP-DMG-04: at 0 hp or fewer) it gets a marker condition that no reset ends
(``defeated_by:<id>``, :data:`DEFEATED_BY`; no rule reads it), with a note, and :func:`defeated_by` reads the
ledger from the state at any time — a creature healed and defeated again, or a reset between, never adds a second
entry."""

from __future__ import annotations

from d20combat.encounter import events as ev
from d20combat.encounter.state import EncounterState
from d20combat.rulesets.components import View

DEFEATED_BY = "defeated_by:"
"""The marker condition: ``defeated_by:<id>`` (shown "defeated-by (<id>)"); conditions outlast every reset."""


def _last_source(view: View, target: str) -> str:
    for e in reversed(getattr(view, "events", [])):
        if isinstance(e, ev.Damaged) and e.target == target:
            return e.source or "unknown"
    return "unknown"


def record_defeat(view: View, target: str, hp_before: int) -> None:
    """After damage: the first time ``target`` drops to 0 hp or fewer, record who defeated it (the source of the
    damage that dropped it) — once, for the whole fight."""
    cs = view.state.get(target)
    if hp_before <= 0 or cs.hp > 0 or any(c.startswith(DEFEATED_BY) for c in cs.conditions):
        return
    source = _last_source(view, target)
    view.emit(ev.ConditionSet(target, DEFEATED_BY + source, True, "its reward is counted once (EP-TIME-12)"))
    view.emit(ev.Note(f"{target} is defeated by {source}: its XP and treasure are counted once, and handed out only "
                      "when all combat is over (EP-TIME-12)"))


def defeated_by(state: EncounterState) -> dict[str, str]:
    """The ledger of EP-TIME-12: each defeated creature → the creature that defeated it, one entry each."""
    out: dict[str, str] = {}
    for cid, cs in state.combatants.items():
        for c in sorted(cs.conditions):
            if c.startswith(DEFEATED_BY):
                out[cid] = c.removeprefix(DEFEATED_BY)
    return out


__all__ = ["DEFEATED_BY", "defeated_by", "record_defeat"]
