"""Controllers answer the engine's decisions: an AI, a script, the CLI, the web page."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Protocol

from d20combat.controllers.ai import TacticalAI
from d20combat.encounter.actions import Action
from d20combat.encounter.engine import Encounter
from d20combat.encounter.events import Event
from d20combat.encounter.prompts import ReactionPrompt


class Controller(Protocol):
    def choose(self, enc: Encounter) -> Action: ...

    def react(self, enc: Encounter, prompt: ReactionPrompt) -> str: ...


class Scripted:
    """Plays a fixed list of actions, then ends turns; answers prompts from a list, then declines
    (tests and replays of decisions)."""

    def __init__(self, actions: Iterable[Action], answers: Iterable[str] = ()) -> None:
        self._actions = list(actions)
        self._answers = list(answers)

    def react(self, enc: Encounter, prompt: ReactionPrompt) -> str:
        if self._answers:
            return self._answers.pop(0)
        return "decline" if "decline" in prompt.options else prompt.options[-1]

    def choose(self, enc: Encounter) -> Action:
        from d20combat.encounter.actions import EndTurn

        return self._actions.pop(0) if self._actions else EndTurn()


def play(
    enc: Encounter,
    controllers: Mapping[str, Controller] | Controller,
    on_events: Callable[[list[Event]], None] | None = None,
    max_actions: int = 100_000,
    halt: Callable[[], bool] | None = None,
) -> Encounter:
    """Run the encounter to its end. ``controllers`` maps a side to its controller (or one for all).

    ``halt`` is asked before every action and answer; once it says True play stops there, the encounter
    unfinished (a deadline or a cancelled simulation)."""
    if not enc.log:
        events = enc.start()
        if on_events:
            on_events(events)
    def controller_of(cid: str) -> Controller:
        return controllers[enc.creature(cid).side] if isinstance(controllers, Mapping) else controllers

    for _ in range(max_actions):
        if halt is not None and halt():
            break
        if enc.pending is not None:
            prompt = enc.pending.prompt
            events = enc.respond(controller_of(prompt.reactor).react(enc, prompt))
            if on_events:
                on_events(events)
            continue
        actor = enc.state.actor  # the creature declaring (a declaration phase) or whose turn it is
        if enc.state.ended or actor is None:
            break
        events = enc.act(controller_of(actor).choose(enc))
        if on_events:
            on_events(events)
    return enc


__all__ = ["Controller", "Scripted", "TacticalAI", "play"]
