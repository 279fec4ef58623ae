"""The machinery of one resolving action: errors, the working copy (Tx), read-only views, plans,
prompts that pause an action and the dice that replay it."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Literal, Protocol

import yaml

from d20combat.battlefield.cover import CoverFact
from d20combat.battlefield.grid import GameMap
from d20combat.dice import DiceSource
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.apply import apply
from d20combat.encounter.battle import Battle
from d20combat.encounter.prompts import ReactionPrompt
from d20combat.encounter.state import EncounterState
from d20combat.errors import D20CombatError
from d20combat.model.creature import AttackOption, Creature
from d20combat.numbers import Modifier


class _Engine(Protocol):
    """What a working copy needs of the encounter: its dice, its battle and its compiled creatures."""

    dice: DiceSource
    added: dict[str, Creature]
    """Every creature added during the fight this engine has seen, by id (see :meth:`Tx.emit`)."""

    @property
    def battle(self) -> Battle: ...

    def creature(self, cid: str) -> Creature: ...


class IllegalAction(D20CombatError):
    """An action the rules forbid now; the message names the rule or the square."""


Cost = Literal["standard", "move", "full-round", "free", "none", "swift"]



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
    phase: str = "turn"
    """``turn``: the actor's turn (or a reaction prompt); ``declare``: the actor declares its round's actions before
    initiative (a declaration phase, WOA-CYCLE-14), the options being ``declare`` actions."""


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


@dataclass(frozen=True, slots=True)
class Write:
    """What one committed write was: the action, the reaction answers it was given, and every die it
    rolled (sides, face) in order. Re-running it on the state before reproduces its events exactly:
    this is what a log carries so that an import can be verified, not trusted."""

    action: ax.Action
    answers: tuple[str, ...]
    faces: tuple[tuple[int, int], ...]

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action.to_dict(), "answers": list(self.answers),
                "dice": [[sides, face] for sides, face in self.faces]}


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

    def __init__(self, state: EncounterState, engine: _Engine | None = None,
                 answers: tuple[str, ...] = ()) -> None:
        self.state = state
        self.events: list[ev.Event] = []
        self._engine = engine
        self._answers: deque[str] = deque(answers)
        self.scratch: dict[str, Any] = {}
        """Memory for this one action (policies' bookkeeping); dropped with the working copy."""
        self.dice: DiceSource = engine.dice if engine is not None else _ReplayDice(DiceSource(), ())

    def emit(self, event: ev.Event) -> None:
        self.state = apply(self.state, event)
        self.events.append(event)
        if isinstance(event, ev.CreatureAdded) and self._engine is not None:
            # The engine answers ``creature(id)`` for it from now on, before this write commits.
            self._engine.added[event.combatant] = self.state.sheets[event.combatant]

    def creature(self, cid: str) -> Creature:
        assert self._engine is not None
        return self._engine.creature(cid)

    @property
    def engine(self) -> Any:
        """The encounter this working copy belongs to (a round-procedure hook that resolves an attack, EP-ACT-57)."""
        return self._engine

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

    def __init__(self, engine: _Engine, state: EncounterState) -> None:
        self._engine = engine
        self.state = state
        self.dice = engine.dice
        self.scratch: dict[str, Any] = {}

    def creature(self, cid: str) -> Creature:
        return self._engine.creature(cid)

    @property
    def game_map(self) -> GameMap:
        return self._engine.battle.game_map

    def emit(self, event: ev.Event) -> None:
        raise RuntimeError("planning cannot change the encounter")

    def ask(self, prompt: ReactionPrompt) -> str:
        raise RuntimeError("planning cannot ask for reactions")


