"""A person at the terminal: chooses actions from the numbered legal options, answers reaction prompts,
and may type the physical dice. It answers the same decision objects as the AI and the web page.

The ``ask`` callable adds its own prompt marker (``typer.prompt`` adds ``": "``), so the questions here end
without one. The numbering of the options is stable: ``0`` always ends the turn, and the other options are
listed by kind in one fixed order (attacks, charges, moves, steps, then equipment and the rest), whichever
creature is acting."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence

from d20combat.encounter import actions as ax
from d20combat.encounter.engine import Encounter
from d20combat.encounter.prompts import ReactionPrompt

Ask = Callable[[str], str]
Say = Callable[[str], None]

KIND_ORDER = ("attack", "charge", "move", "step", "minimum_move", "climb_or_swim", "draw", "reload", "sheathe",
              "shield", "drop_item", "stand_up", "get_up", "drop_prone",
              "activity")
"""The order of the numbered options by kind; a ruleset's own kinds follow, alphabetically."""


def numbered(options: Sequence[ax.Action]) -> dict[int, ax.Action]:
    """The options by number: ``0`` ends the turn; the others 1, 2, … in :data:`KIND_ORDER`, each kind in the
    engine's order."""
    rank = {kind: i for i, kind in enumerate(KIND_ORDER)}
    declaring = any(isinstance(o, ax.Declare) for o in options)
    nothing: ax.Action = ax.Declare() if declaring else ax.EndTurn()  # 0: declare nothing / end the turn
    others = [o for o in options if o != nothing]
    if not declaring:
        others.sort(key=lambda o: (rank.get(o.kind, len(rank)), "" if o.kind in rank else o.kind))
    menu: dict[int, ax.Action] = {0: nothing}
    menu.update(enumerate(others, 1))
    return menu


class ConsoleController:
    """Lists the legal actions of the decision and reads a number (or an action as JSON)."""

    def __init__(self, ask: Ask, say: Say) -> None:
        self.ask = ask
        self.say = say

    def choose(self, enc: Encounter) -> ax.Action:
        decision = enc.decision()
        assert decision is not None
        menu = numbered(decision.options)
        last = len(menu) - 1
        declaring = decision.phase == "declare"
        zero = "declares nothing" if declaring else "ends the turn"
        if declaring:
            self.say(f"{decision.actor} declares its actions for round {decision.round} (before initiative):")
        else:
            self.say(f"{decision.actor}'s turn (round {decision.round}) — choose an action:")
        for n, option in menu.items():
            if n:
                self.say(f"  {n:>3}. {option.label() if declaring else option.describe()}")
        self.say("    0. declare nothing" if declaring else "    0. end the turn")
        while True:
            answer = self.ask(f"{decision.actor}'s {'declaration' if declaring else 'action'}: a number 0–{last} "
                              f"(0 {zero}), or an action as JSON").strip()
            if not answer:
                self.say(f"  type a number from 0 to {last} (0 {zero}), or an action as JSON")
                continue
            if answer.isascii() and answer.isdigit():
                if int(answer) in menu:
                    return menu[int(answer)]
                self.say(f"  no option {answer}: choose 0–{last}")
                continue
            if not answer.startswith("{"):
                self.say(f"  {answer[:40]!r} is not an option: type a number from 0 to {last}, or an action as "
                         'JSON like {"kind": "end_turn"}')
                continue
            try:
                action = ax.action_from_dict(json.loads(answer), enc.ruleset.actions.types())
            except json.JSONDecodeError as exc:
                self.say(f"  not an option: not valid JSON ({exc.msg} at character {exc.pos + 1})")
                continue
            except (ValueError, TypeError, AttributeError, RecursionError) as exc:
                self.say(f"  not an option: {exc}")
                continue
            problem = enc.check(action)
            if problem is None:
                return action
            self.say(f"  illegal: {problem}")

    def react(self, enc: Encounter, prompt: ReactionPrompt) -> str:
        self.say(f"{prompt.reactor}: {prompt.trigger}" + (f" ({prompt.detail})" if prompt.detail else ""))
        while True:
            answer = self.ask(f"{prompt.reactor}'s answer ({' / '.join(prompt.options)})").strip()
            if answer in prompt.options:
                return answer
            self.say(f"  choose one of: {', '.join(prompt.options)}")


_TYPED_DIE = re.compile(r"(?:d\s*(\d{1,4}|%)\s*=\s*)?(\d{1,6})", re.IGNORECASE | re.ASCII)


def read_typed_die(text: str, sides: int) -> int | str:
    """The face typed for a d``sides``: ``14`` or ``d20=14`` (as the HTTP API takes it; ``d%=00`` is 100), or
    the reason it is refused (a message). An empty answer is 0: the computer rolls it."""
    text = text.strip()
    if not text:
        return 0
    m = _TYPED_DIE.fullmatch(text)
    if m is None:
        return f"type the face the d{sides} shows, like 14 or d{sides}=14 (Enter: the computer rolls it)"
    typed_sides = None if m[1] is None else 100 if m[1] == "%" else int(m[1])
    if typed_sides is not None and typed_sides != sides:
        return f"a d{sides} is asked for, not a d{typed_sides}: type the d{sides}'s face, like d{sides}=14"
    face = int(m[2])
    if face == 0 and m[1] == "%":
        face = 100  # "00" on a d% reads as 100
    if not 1 <= face <= sides:
        return f"a d{sides} shows 1–{sides}"
    return face


def typed_die_asker(ask: Ask, say: Say) -> Callable[[int, str], int]:
    """For :class:`d20combat.dice.TypedDice`: asks for each die; an empty answer lets the computer roll
    (returns 0, which the caller replaces), an impossible or wrong die is asked again."""

    def ask_die(sides: int, purpose: str) -> int:
        while True:
            face = read_typed_die(ask(f"the d{sides} for {purpose} (14 or d{sides}=14; Enter rolls it)"), sides)
            if isinstance(face, int):
                return face
            say(f"  {face}")

    return ask_die
