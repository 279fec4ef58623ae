"""The encounter's changing part as immutable snapshots. Only :func:`apply` makes a new one."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from d20combat.battlefield.grid import Square
from d20combat.model.creature import Creature


@dataclass(frozen=True, slots=True)
class Effect:
    """A timed effect on a creature.

    It ends just before ``anchor``'s turn in round ``until_round`` (PFB-TIME-03..05: "N rounds" end
    just before the initiative slot they started on). ``ac`` and ``attack`` are flat modifiers while
    it lasts (the charge's −2 AC, PFB-CHG-12).
    """

    name: str
    anchor: str
    until_round: int
    ac: int = 0
    attack: int = 0
    condition: str = ""
    """A condition the effect brings while it lasts, lifted when it ends."""


@dataclass(frozen=True, slots=True)
class CombatantState:
    id: str
    position: Square
    hp: int
    wielding: str | None
    shield_state: str
    loaded: frozenset[str] = frozenset()
    conditions: frozenset[str] = frozenset()
    effects: tuple[Effect, ...] = ()
    initiative: int | None = None
    stable: bool = False
    reactions: Mapping[str, int] = field(default_factory=dict)
    """Off-turn resources by pool name, refreshed each round: attacks of opportunity, reserved actions…"""
    damage_dealt: int = 0
    damage_taken: int = 0
    healed: int = 0

    def has(self, condition: str) -> bool:
        return condition in self.conditions


@dataclass(frozen=True, slots=True)
class TurnState:
    """What the creature whose turn it is has left (PFB-ACT-06) and how it has moved (PFB-MOVE-02/03)."""

    actor: str
    pools: Mapping[str, int] = field(default_factory=lambda: {"standard": 1, "move": 1, "free": 1})
    """What is left of this turn's actions, by the ruleset's own pool names (P5 action_budget)."""
    free_used: int = 0
    moved: bool = False
    """Used a move action (or the standard as a move) to move: no 5-foot step (PFB-MOVE-02)."""
    stepped: bool = False
    """Took a 5-foot step: no other movement this turn (PFB-MOVE-03)."""
    diagonals: int = 0
    """Diagonals moved this turn, for the 5/10 alternation (PFB-MOVE-16a)."""
    actions_taken: int = 0
    """Non-free actions taken this turn (the one-action limit of the surprise round and of disabled creatures)."""

    @property
    def standard(self) -> bool:
        return self.pools.get("standard", 0) > 0

    @property
    def move(self) -> bool:
        return self.pools.get("move", 0) > 0


@dataclass(frozen=True, slots=True)
class EncounterState:
    combatants: Mapping[str, CombatantState]
    order: tuple[str, ...] = ()
    round: int = 0
    turn_index: int = -1
    turn: TurnState | None = None
    surprise_round: bool = False
    surprised: frozenset[str] = frozenset()
    ended: bool = False
    winner: str | None = None
    end_reason: str = ""
    version: int = 0
    attacks_made: int = field(default=0)
    first_round: int = 1
    """The round that is "round 1" of the current combat (EP: after a surprise round, after a 10-round reset)."""
    sheets: Mapping[str, Creature] = field(default_factory=dict)
    """The creatures added during the fight (the GM's reinforcements), by id: those of the scenario are the
    battle's. Kept in the state so undo takes an added creature away with its sheet."""

    declaring: tuple[str, ...] = ()
    """The creatures still to declare this round's actions, the first declaring now (a declaration phase, WOA-CYCLE-14;
    empty in the rulesets that declare nothing)."""
    declarations: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """This round's declarations by creature: the fields of a ``declare`` action (:class:`Declare`)."""

    def get(self, cid: str) -> CombatantState:
        return self.combatants[cid]

    def with_combatant(self, c: CombatantState) -> EncounterState:
        combatants = dict(self.combatants)
        combatants[c.id] = c
        return replace(self, combatants=combatants)

    @property
    def actor(self) -> str | None:
        """Who the encounter waits for: the creature declaring now, else the creature whose turn it is."""
        if self.declaring:
            return self.declaring[0]
        return self.turn.actor if self.turn else None
