"""The base of every policy component, and the views a component may use while an action resolves.

A component implements one policy area of ``rules-diff.md`` §3 (turn order, action economy, cover…). It is
built from the ruleset's options and then *bound* to the composed ruleset, through which it may ask its
sibling policies (``self.rules.injury.health(...)``). A component keeps no per-action memory: what one
action needs to remember goes on the action's working copy (``view.scratch``) or into events, so one
ruleset object may serve many encounters and threads.

Components may also take part in the round procedure (P3): the composed ruleset calls the hooks below on
every component that overrides them, in the order of its areas.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from d20combat.battlefield.grid import GameMap
from d20combat.dice import DiceSource
from d20combat.encounter import events as ev
from d20combat.encounter.prompts import ReactionPrompt
from d20combat.encounter.state import EncounterState
from d20combat.model.creature import AttackOption, Creature

if TYPE_CHECKING:
    from d20combat.rulesets.base import Ruleset


class BudgetError(ValueError):
    """The turn cannot afford an action; the message names what is missing."""


class RuleError(ValueError):
    """The ruleset forbids something (a declared option it does not have, an illegal choice)."""


class View(Protocol):
    """What a ruleset hook may use while an action resolves: the working state, the dice, the
    compiled creatures, the right to emit events and to ask a reaction, and an action-scoped scratchpad."""

    @property
    def state(self) -> EncounterState: ...

    @property
    def dice(self) -> DiceSource: ...

    def creature(self, cid: str) -> Creature: ...

    @property
    def game_map(self) -> GameMap: ...

    @property
    def scratch(self) -> dict[str, Any]:
        """Memory for the one action being resolved (dropped with it; empty on a read-only view)."""
        ...

    def emit(self, event: ev.Event) -> None: ...

    def ask(self, prompt: ReactionPrompt) -> str: ...


class AttackInfo(Protocol):
    """The parts of a planned attack a ruleset may read."""

    @property
    def attacker(self) -> str: ...

    @property
    def target(self) -> str: ...

    @property
    def option(self) -> AttackOption: ...

    @property
    def ranged(self) -> bool: ...

    @property
    def distance_ft(self) -> int: ...


class Component:
    """One policy area's implementation. Subclasses are small; their names come from the rule texts."""

    rules: Ruleset

    def bind(self, rules: Ruleset) -> None:
        """Called once by the composed ruleset: siblings are reached through ``self.rules``."""
        self.rules = rules

    # --- P3 round procedure: hooks the composed ruleset calls on the components that override them ----------
    def start_of_round(self, view: View, round_no: int) -> None:
        """At the start of every round, after ``RoundStarted``."""

    def start_of_turn(self, view: View, actor: str) -> None:
        """At the start of ``actor``'s turn, after its expired effects ended."""

    def end_of_turn(self, view: View, actor: str) -> None:
        """When ``actor`` ends its turn, before ``TurnEnded``."""

    def end_of_round(self, view: View, round_no: int) -> None:
        """After the last creature of a round acted."""

    def after_damage(self, view: View, target: str, amount: int, hp_before: int) -> None:
        """After ``target``'s hp changed by ``amount`` (damage positive) from ``hp_before``."""

    def after_attack(self, view: View, attack: AttackInfo, hit: bool) -> None:
        """After an attack roll was resolved (before its damage): e.g. a one-use bonus on it is spent."""

    def after_action(self, view: View, actor: str) -> None:
        """After each creature's action or game master's write resolved (``actor`` "gm" for a write), before the
        engine asks whether the turn or the encounter ends: a state that changed in it takes effect at once."""


HOOKS: tuple[str, ...] = ("start_of_round", "start_of_turn", "end_of_turn", "end_of_round", "after_damage",
                          "after_attack", "after_action")
