"""Controllers answer the engine's decisions: an AI, a script, the CLI, the web page."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Protocol

from d20combat.controllers.ai import TacticalAI
from d20combat.encounter.actions import Action
from d20combat.encounter.engine import Encounter
from d20combat.encounter.events import Event


class Controller(Protocol):
    def choose(self, enc: Encounter) -> Action: ...


class Scripted:
    """Plays a fixed list of actions, then ends turns (tests and replays of decisions)."""

    def __init__(self, actions: Iterable[Action]) -> None:
        self._actions = list(actions)

    def choose(self, enc: Encounter) -> Action:
        from d20combat.encounter.actions import EndTurn

        return self._actions.pop(0) if self._actions else EndTurn()


def play(
    enc: Encounter,
    controllers: Mapping[str, Controller] | Controller,
    on_events: Callable[[list[Event]], None] | None = None,
    max_actions: int = 100_000,
) -> Encounter:
    """Run the encounter to its end. ``controllers`` maps a side to its controller (or one for all)."""
    if not enc.log:
        events = enc.start()
        if on_events:
            on_events(events)
    for _ in range(max_actions):
        if enc.state.ended or enc.state.turn is None:
            break
        actor = enc.state.turn.actor
        ctl = controllers[enc.creature(actor).side] if isinstance(controllers, Mapping) else controllers
        events = enc.act(ctl.choose(enc))
        if on_events:
            on_events(events)
    return enc


__all__ = ["Controller", "Scripted", "TacticalAI", "play"]
