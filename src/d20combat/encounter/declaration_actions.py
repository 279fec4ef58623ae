"""The declaration phase's one action (rules-diff §4.1, WOA-CYCLE-14..16): a creature declares its round.

The ruleset's turn order opens the phase (``DeclarationsOpened``), says which declarations are legal
(``check_declaration``) and, once everyone has declared, rolls initiative (``after_declarations``); the core
records each declaration as an event and holds the turn loop until the last one.
"""

from __future__ import annotations

from dataclasses import asdict

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.core import EncounterCore
from d20combat.encounter.resolution import IllegalAction, Tx


def declare(enc: EncounterCore, tx: Tx, actor: str, action: ax.Action, dry: bool) -> None:
    """Record ``actor``'s declaration; after the last one the turn order rolls initiative and the turns begin."""
    s = tx.state
    if not s.declaring:
        raise IllegalAction("nothing is declared now: a declaration comes at the start of a round, before "
                            "initiative (WOA-CYCLE-14)")
    if not isinstance(action, ax.Declare):
        raise IllegalAction(f"{actor} declares its round's actions first (WOA-CYCLE-14): a 'declare' action, "
                            f"not {action.kind}")
    reason = enc.ruleset.turn_order.check_declaration(tx, actor, action)
    if reason:
        raise IllegalAction(f"{actor} cannot declare {action.text()}: {reason}")
    if dry:
        return
    fields = {k: v for k, v in asdict(action).items() if v not in ("", None)}
    tx.emit(ev.Declared(actor, fields, action.text(lambda cid: enc.creature(cid).name)))
    if not tx.state.declaring:
        enc.ruleset.turn_order.after_declarations(tx, s.round)
        enc._advance(tx)
