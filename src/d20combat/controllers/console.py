"""A person at the terminal: chooses actions from the numbered legal options, answers reaction prompts,
and may type the physical dice. It answers the same decision objects as the AI and the web page."""

from __future__ import annotations

import json
from collections.abc import Callable

from d20combat.encounter import actions as ax
from d20combat.encounter.engine import Encounter
from d20combat.encounter.prompts import ReactionPrompt

Ask = Callable[[str], str]
Say = Callable[[str], None]


class ConsoleController:
    """Lists the legal actions of the decision and reads a number (or an action as JSON)."""

    def __init__(self, ask: Ask, say: Say) -> None:
        self.ask = ask
        self.say = say

    def choose(self, enc: Encounter) -> ax.Action:
        decision = enc.decision()
        assert decision is not None
        options = list(decision.options)
        self.say(f"{decision.actor}'s turn (round {decision.round}) — choose an action:")
        for n, option in enumerate(options, 1):
            self.say(f"  {n:>3}. {option.describe()}")
        while True:
            answer = self.ask("action number, or an action as JSON > ").strip()
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return options[int(answer) - 1]
            try:
                action = ax.action_from_dict(json.loads(answer), enc.ruleset.actions.types())
            except (ValueError, TypeError, AttributeError) as exc:
                self.say(f"  not an option: {exc}")
                continue
            problem = enc.check(action)
            if problem is None:
                return action
            self.say(f"  illegal: {problem}")

    def react(self, enc: Encounter, prompt: ReactionPrompt) -> str:
        self.say(f"{prompt.reactor}: {prompt.trigger}" + (f" ({prompt.detail})" if prompt.detail else ""))
        while True:
            answer = self.ask(f"answer ({' / '.join(prompt.options)}) > ").strip()
            if answer in prompt.options:
                return answer
            self.say(f"  choose one of: {', '.join(prompt.options)}")


def typed_die_asker(ask: Ask, say: Say) -> Callable[[int, str], int]:
    """For :class:`d20combat.dice.TypedDice`: asks for each die; an empty answer lets the computer roll
    (returns 0, which the caller replaces), an impossible face is asked again."""

    def ask_die(sides: int, purpose: str) -> int:
        while True:
            text = ask(f"type the d{sides} for {purpose} (Enter = roll it) > ").strip()
            if not text:
                return 0
            if text.isdigit() and 1 <= int(text) <= sides:
                return int(text)
            say(f"  a d{sides} shows 1–{sides}")

    return ask_die
