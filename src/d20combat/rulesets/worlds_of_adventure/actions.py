"""Worlds of Adventure's action types and Table: Actions in Combat (WOA-ACT).

The table the text cites but lacks (WOA-ACT-05/06/32) is ``data/woa_actions.yaml`` (the inventory's reading): each
action kind and named activity with its type (standard, move, full-round, free, swift, immediate, or none — part
of another action), whether it provokes (:func:`provokes`, read by the reactions component) and whether it is
movement (:func:`is_movement`). The actions here:

- ``activity`` (the core's kind, WOA's table): a named activity at the cost the table gives (WOA-ACT-05/06/13/21/32);
- ``swift_action`` on the creature's own turn, between its other actions (WOA-ACT-16..18), and
  ``immediate_action`` at any time, even off-turn (WOA-ACT-19/20): each uses up a combat reaction (WOA-ACT-14/15);
- ``speak``: a free action, even off-turn, never while flat-footed; more than a sentence or two is a full-round
  action (WOA-ACT-28..30);
- ``start_full_round``: under restricted activity, a standard action starts a full-round action that a standard
  action completes next round (WOA-ACT-25), never a full attack nor one that moves (WOA-ACT-26).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import yaml
from pydantic import BaseModel, ConfigDict

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.rulesets.components import ActionSet, RuleError, View
from d20combat.rulesets.components.actions import ActionSpec
from d20combat.rulesets.worlds_of_adventure.cycle import FLAT_FOOTED
from d20combat.rulesets.worlds_of_adventure.economy import STARTED, restricted, started_full_round, use_combat_reaction

if TYPE_CHECKING:
    from d20combat.encounter.engine import Encounter, Tx

ActionType = Literal["standard", "move", "full-round", "free", "swift", "immediate", "none"]


class ActionRow(BaseModel):
    """One row of Table: Actions in Combat (``data/woa_actions.yaml``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: ActionType
    provokes: bool = False
    movement: bool = False
    rules: tuple[str, ...] = ()


class ActionsTable(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kinds: dict[str, ActionRow]
    activities: dict[str, ActionRow]


@lru_cache(maxsize=1)
def actions_table() -> ActionsTable:
    """WOA-ACT-05/06/32: Table: Actions in Combat, as ``data/woa_actions.yaml`` reads it."""
    text = resources.files("d20combat.data").joinpath("woa_actions.yaml").read_text(encoding="utf-8")
    return ActionsTable.model_validate(yaml.safe_load(text))


def row_of(action: Any) -> ActionRow | None:
    """The table's row for an action: a named activity's, else its kind's (None: not in the table)."""
    table = actions_table()
    if getattr(action, "kind", "") == "activity":
        return table.activities.get(getattr(action, "name", ""))
    return table.kinds.get(getattr(action, "kind", ""))


def provokes(action: Any) -> bool:
    """Whether the table marks this action as provoking an attack of opportunity when taken in a threatened area
    (the reactions component decides whether and from whom)."""
    row = row_of(action)
    return row is not None and row.provokes


def is_movement(action: Any) -> bool:
    """Whether the table marks this action as movement (WOA-MOVE-15/38, WOA-ACT-26)."""
    row = row_of(action)
    return row is not None and row.movement


# --------------------------------------------------------------------------------------------- the actions
@dataclass(frozen=True, slots=True)
class SwiftAction(ax.Action):
    """A swift action on the creature's own turn (WOA-ACT-14..18): ``name`` says what it does."""

    kind: ClassVar[str] = "swift_action"
    name: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Swift action: {self.name}"


@dataclass(frozen=True, slots=True)
class ImmediateAction(ax.Action):
    """An immediate action (WOA-ACT-19/20): a swift action taken at any time, by ``by`` (default the creature
    whose turn it is) — off-turn too."""

    kind: ClassVar[str] = "immediate_action"
    name: str = ""
    by: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Immediate action: {self.name}" + (f" by {name(self.by)}" if self.by else "")


@dataclass(frozen=True, slots=True)
class Speak(ax.Action):
    """Speak (WOA-ACT-28..30): a free action, even by another creature than the one whose turn it is (``by``);
    ``long``: more than a sentence or two, a full-round action of the speaker's own turn."""

    kind: ClassVar[str] = "speak"
    words: str = ""
    by: str = ""
    long: bool = False

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Speak: {self.words}" + (f" ({name(self.by)})" if self.by else "")


@dataclass(frozen=True, slots=True)
class StartFullRound(ax.Action):
    """Under restricted activity, start a full-round action with a standard action (WOA-ACT-25): ``what`` is the
    action kind (``reload``, ``minimum_move``…) or the activity name (``cast-spell-full-round``) it completes next
    round."""

    kind: ClassVar[str] = "start_full_round"
    what: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Start a full-round action: {self.what}"


NO_START = frozenset({"full_attack"})
"""WOA-ACT-26: full-round actions never started and completed: the full attack (and every action that moves)."""


def _actor_or(enc: Encounter, tx: Tx, actor: str, by: str, what: str) -> str:
    who = by or actor
    if who not in tx.state.combatants or not enc.on_map(who, tx.state):
        raise RuleError(f"{what}.by: no creature {by!r} in the fight")
    if not enc.ruleset.injury.can_act(enc.creature(who), tx.state.get(who)):
        raise RuleError(f"{what}: {who} cannot act")
    return who


def do_activity(enc: Encounter, tx: Tx, actor: str, a: ax.Activity, dry: bool) -> None:
    """WOA-ACT-05/06/13/21/32: a named activity costs what Table: Actions in Combat gives."""
    if not a.name:
        raise RuleError("activity: give a name (one of Table: Actions in Combat's activities)")
    row = actions_table().activities.get(a.name)
    if row is None:
        raise RuleError(f"activity {a.name!r}: not in Table: Actions in Combat (data/woa_actions.yaml); known: "
                        f"{', '.join(sorted(actions_table().activities))}")
    if row.type == "immediate":
        use_combat_reaction(enc.ruleset, tx, actor, f"immediate action: {a.name}", dry)
        return
    if row.type == "none":  # WOA-ACT-21: part of another action, no action of its own
        if not dry:
            tx.emit(ev.Note(f"{actor}: {a.name} takes no action of its own: it is part of another action "
                            "(WOA-ACT-21)"))
        return
    enc.pay(tx, actor, a.name, row.type, dry)


def do_swift(enc: Encounter, tx: Tx, actor: str, a: SwiftAction, dry: bool) -> None:
    """WOA-ACT-14..18: on the creature's own turn (the only creature a swift action is ever taken by, WOA-ACT-18),
    between its other actions (an action resolves whole, so a swift action never interrupts one, WOA-ACT-17); not
    declared (WOA-ACT-16); uses up one combat reaction (WOA-ACT-14/15)."""
    if not a.name:
        raise RuleError("swift_action: give a name (what the swift action does)")
    enc.pay(tx, actor, f"swift action: {a.name}", "swift", dry)


def do_immediate(enc: Encounter, tx: Tx, actor: str, a: ImmediateAction, dry: bool) -> None:
    """WOA-ACT-19/20: any time, even off-turn; uses a combat reaction; never while flat-footed without Combat
    Reflexes."""
    if not a.name:
        raise RuleError("immediate_action: give a name (what the immediate action does)")
    who = _actor_or(enc, tx, actor, a.by, "immediate_action")
    if tx.state.get(who).has(FLAT_FOOTED) and not enc.creature(who).sheet.has_feat("Combat Reflexes"):
        raise RuleError(f"immediate action: {who} is flat-footed and has no Combat Reflexes (WOA-ACT-20)")
    use_combat_reaction(enc.ruleset, tx, who, f"immediate action: {a.name}", dry)


def do_speak(enc: Encounter, tx: Tx, actor: str, a: Speak, dry: bool) -> None:
    """WOA-ACT-28..30."""
    who = _actor_or(enc, tx, actor, a.by, "speak")
    if tx.state.get(who).has(FLAT_FOOTED):
        raise RuleError(f"speak: {who} is flat-footed and cannot speak yet (WOA-ACT-29)")
    if a.long:
        if who != actor:
            raise RuleError("speak: more than a sentence or two takes the speaker's own round (WOA-ACT-30)")
        enc.pay(tx, actor, "speak at length (WOA-ACT-30)", "full-round", dry)
    elif who == actor:
        enc.pay(tx, actor, "speak (WOA-ACT-28)", "free", dry)
    if not dry:
        tx.emit(ev.Note(f"{who} says: {a.words or '…'}" + (" (off-turn, a free action, WOA-ACT-28)"
                                                            if who != actor else "")))


def do_start_full_round(enc: Encounter, tx: Tx, actor: str, a: StartFullRound, dry: bool) -> None:
    """WOA-ACT-25/26: a standard action starts a full-round action under restricted activity."""
    cs = tx.state.get(actor)
    why = restricted(cs)
    if why is None:
        raise RuleError("start a full-round action: only under restricted activity (WOA-ACT-25); take the "
                        "full-round action itself")
    table = actions_table()
    row = table.kinds.get(a.what) or table.activities.get(a.what)
    if row is None or row.type != "full-round":
        raise RuleError(f"start a full-round action: {a.what!r} is not a full-round action of Table: Actions in "
                        "Combat")
    if a.what in NO_START or row.movement:
        raise RuleError(f"start a full-round action: not for a full attack nor an action involving movement such "
                        f"as {a.what.replace('_', ' ')} (WOA-ACT-26)")
    enc.pay(tx, actor, f"start {a.what.replace('_', ' ')} (WOA-ACT-25)", "standard", dry)
    if not dry:
        tx.emit(ev.EffectAdded(actor, f"{STARTED}: {a.what}", actor, tx.state.round + 2))


class WoaActions(ActionSet):
    """WOA-ACT's own actions, and the check that a full-round action completed under restricted activity is the one
    that was started (WOA-ACT-25)."""

    def __init__(self) -> None:
        super().__init__([ActionSpec(ax.Activity, do_activity), ActionSpec(SwiftAction, do_swift),
                          ActionSpec(ImmediateAction, do_immediate), ActionSpec(Speak, do_speak),
                          ActionSpec(StartFullRound, do_start_full_round)])

    def forbidden(self, view: View, actor: str, action: Any) -> str | None:

        cs = view.state.get(actor)
        if restricted(cs) is None:
            return None
        row = row_of(action)
        if row is None or row.type != "full-round":
            return None
        what = getattr(action, "name", "") if action.kind == "activity" else action.kind
        started = started_full_round(cs)
        if started is not None and started != what:
            return f"restricted activity: the full-round action begun last round was {started.replace('_', ' ')}, " \
                   f"not {what.replace('_', ' ')} (WOA-ACT-25)"
        return None
