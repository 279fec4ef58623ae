"""Epic Path's stances (EP-MISC-15..21, EP-MOVE-08): class abilities started with a swift action and kept up for
free, one at a time, for at most 1 minute (10 rounds); knocked prone, an action-reducing condition or movement
through impeded terrain breaks them, and they may be restarted once that has cleared.

A stance is an effect on the creature named ``stance: <name>``; what the stance itself does is its class's (the
text lists none), so the engine tracks only its life."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState
from d20combat.rulesets.components import RuleError, View

if TYPE_CHECKING:
    from d20combat.encounter.engine import Encounter, Tx

PREFIX = "stance: "
STANCE_ROUNDS = 10
"""EP-MISC-20: a stance is kept up at most 1 minute, 10 rounds, in a row."""


@dataclass(frozen=True, slots=True)
class StartStance(ax.Action):
    """Start a stance (EP-MISC-15): a swift action (the free action where the turn has no swift action)."""

    kind: ClassVar[str] = "start_stance"
    stance: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Start the stance {self.stance}"


@dataclass(frozen=True, slots=True)
class DropStance(ax.Action):
    """Drop the active stance voluntarily (EP-MISC-21): usually a swift action."""

    kind: ClassVar[str] = "drop_stance"

    def label(self, name: Callable[[str], str] = str) -> str:
        return "Drop the stance"


def active_stances(state: CombatantState) -> list[str]:
    return [e.name.removeprefix(PREFIX) for e in state.effects if e.name.startswith(PREFIX)]


def end_stances(tx: View, cid: str, why: str) -> None:
    """End every stance ``cid`` keeps up, saying why."""
    for name in active_stances(tx.state.get(cid)):
        tx.emit(ev.EffectEnded(cid, PREFIX + name))
        tx.emit(ev.Note(f"{cid}'s stance {name} ends: {why}"))


def swift_cost(tx: Tx) -> str:
    """A swift action where the economy has one, else the free action (EP-MISC-15)."""
    turn = tx.state.turn
    return "swift" if turn is not None and "swift" in turn.pools else "free"


class Stances:
    """The stance handlers and the rules that break stances (EP-MISC-16/17, EP-MOVE-08)."""

    def __init__(self, breaking_conditions: Iterable[str], one_for_every_creature: bool) -> None:
        self.breaking_conditions = frozenset(breaking_conditions)
        """EP-MISC-17: conditions that reduce the actions available (rattled, staggered, dazed…)."""
        self.one_for_every_creature = one_for_every_creature
        """EP-MISC-19 (AMBIGUOUS): the one-stance limit applies to monsters too."""

    def start(self, engine: Encounter, tx: Tx, actor: str, a: StartStance, dry: bool) -> None:
        name = a.stance.strip()
        if not name:
            raise RuleError("start stance: name the stance")
        cs = tx.state.get(actor)
        broken = self.breaker(cs)
        if broken:
            raise RuleError(f"start stance: {actor} is {broken}; a stance can start once that has cleared "
                            "(EP-MISC-18)")
        active = active_stances(cs)
        if name in active:
            raise RuleError(f"start stance: {name} is already active")
        player = engine.creature(actor).sheet.race != "monster"  # a character of a race, not a monster's block
        if active and (self.one_for_every_creature or player):
            raise RuleError(f"start stance: {actor} already keeps up {active[0]}; one stance at a time (EP-MISC-19)")
        engine.pay(tx, actor, f"start stance {name}", swift_cost(tx), dry)  # type: ignore[arg-type]
        if dry:
            return
        tx.emit(ev.EffectAdded(actor, PREFIX + name, actor, tx.state.round + STANCE_ROUNDS))
        tx.emit(ev.Note(f"{actor} starts the stance {name}: it lasts at most 1 minute, {STANCE_ROUNDS} rounds "
                        f"(EP-MISC-20)"))

    def drop(self, engine: Encounter, tx: Tx, actor: str, a: DropStance, dry: bool) -> None:
        if not active_stances(tx.state.get(actor)):
            raise RuleError(f"drop stance: {actor} keeps up no stance")
        engine.pay(tx, actor, "drop the stance", swift_cost(tx), dry)  # type: ignore[arg-type]
        if dry:
            return
        end_stances(tx, actor, "dropped voluntarily (EP-MISC-21)")

    def breaker(self, cs: CombatantState) -> str | None:
        """What breaks a stance now: prone (EP-MISC-16) or an action-reducing condition (EP-MISC-17)."""
        if cs.has("prone"):
            return "prone"
        for cond in sorted(self.breaking_conditions):
            if cs.has(cond):
                return cond
        return None

    def check(self, view: View) -> None:
        """Break the stances of every creature knocked prone or under an action-reducing condition."""
        for cid, cs in view.state.combatants.items():
            if not active_stances(cs):
                continue
            broken = self.breaker(cs)
            if broken:
                rule = "EP-MISC-16" if broken == "prone" else "EP-MISC-17"
                end_stances(view, cid, f"{broken} ({rule})")
