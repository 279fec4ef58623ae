"""Which die an action rolls next, in the engine's order (issue 13, item 1: dice in the engine's order).

A game master rolling physical dice types them in the order the engine will use them. That order depends on
the dice themselves (a miss rolls no damage; a threat rolls a confirmation; off-guard's concealment d% comes
after a hit), so no list can be known up front: :func:`probe_dice` resolves the action on a throwaway copy
with the faces typed so far and stops at the first die beyond them, reporting its sides and purpose
("attack valeros->goblin", "confirm …", "concealment …", "damage longsword", "dying check …"). Asked again
with that face added, it names the next one, until the action resolves, pauses for a reaction, or is refused.

Nothing changes and nothing random happens: the encounter's state, log, pending prompt and dice are as before.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from d20combat.dice import DiceError, DiceSource
from d20combat.encounter import actions as ax
from d20combat.encounter.engine import Encounter, IllegalAction, Tx
from d20combat.encounter.prompts import ReactionPrompt
from d20combat.encounter.resolution import _NeedsAnswer
from d20combat.rulesets.base import RuleError

__all__ = ["DiceProbe", "DieAsk", "probe_answer", "probe_dice"]


@dataclass(frozen=True, slots=True)
class DieAsk:
    """One die the engine rolls: its sides and what it decides; ``face`` once typed."""

    sides: int
    purpose: str
    face: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"sides": self.sides, "purpose": self.purpose, "face": self.face}


@dataclass(frozen=True, slots=True)
class DiceProbe:
    """Where the typed faces take the action: ``typed`` are the dice they went to, in order; ``next`` is the next
    die to roll (None when the action resolves with them, pauses for a reaction or is refused); ``prompt`` is
    the reaction it pauses for; ``error`` says why it is refused (an illegal action, or a typed face that is not
    the die the engine rolls there — naming the expected die)."""

    typed: tuple[DieAsk, ...]
    next: DieAsk | None
    prompt: ReactionPrompt | None = None
    error: str | None = None

    @property
    def complete(self) -> bool:
        return self.next is None and self.prompt is None and self.error is None

    def to_dict(self) -> dict[str, Any]:
        return {"typed": [d.to_dict() for d in self.typed], "next": self.next.to_dict() if self.next else None,
                "prompt": self.prompt.to_dict() if self.prompt else None, "error": self.error,
                "complete": self.complete}


class _NeedDie(Exception):  # a signal, like _NeedsAnswer, not an error
    def __init__(self, sides: int, purpose: str) -> None:
        super().__init__(purpose)
        self.ask = DieAsk(sides, purpose)


class _Probe(DiceSource):
    """Replays the faces already committed to (a pending action's), then the typed ones (checking each is the
    die asked for), then stops the resolution at the first die beyond them."""

    def __init__(self, replayed: tuple[tuple[int, int], ...], typed: tuple[tuple[int | None, int], ...]) -> None:
        super().__init__()
        self.record = False
        self._replayed = deque(replayed)
        self._typed = deque(typed)
        self.went_to: list[DieAsk] = []

    def _face(self, sides: int, purpose: str) -> int:
        if self._replayed:
            return self._replayed.popleft()[1]
        if not self._typed:
            raise _NeedDie(sides, purpose)
        want, face = self._typed.popleft()
        if want is not None and want != sides:
            raise DiceError(f"dice[{len(self.went_to)}]: the engine rolls a d{sides} here ({purpose}), "
                            f"but a d{want} was typed")
        if not 1 <= face <= sides:
            raise DiceError(f"dice[{len(self.went_to)}]: a d{sides} ({purpose}) cannot show {face} "
                            f"(expected 1–{sides})")
        self.went_to.append(DieAsk(sides, purpose, face))
        return face

    @property
    def unused(self) -> int:
        return len(self._typed)


def probe_dice(enc: Encounter, action: ax.Action, typed: list[tuple[int | None, int]] | tuple[
        tuple[int | None, int], ...] = ()) -> DiceProbe:
    """The dice ``action`` would roll now with ``typed`` faces (``(sides or None, face)``, in order) and the next
    one it needs. ``enc`` must be waiting for an action (no reaction prompt open)."""
    if enc.pending is not None:
        return DiceProbe((), None, error=f"waiting for {enc.pending.prompt.reactor}'s reaction")
    return _run(enc, action, (), (), tuple(typed))


def probe_answer(enc: Encounter, answer: str, typed: list[tuple[int | None, int]] | tuple[
        tuple[int | None, int], ...] = ()) -> DiceProbe:
    """The dice the open reaction prompt's action rolls after ``answer``, and the next one it needs."""
    pending = enc.pending
    if pending is None:
        return DiceProbe((), None, error="no reaction is being asked for")
    if answer not in pending.prompt.options:
        return DiceProbe((), None, error=f"{pending.prompt.reactor}: {answer!r} is not one of "
                                         f"{', '.join(pending.prompt.options)}")
    return _run(enc, pending.action, (*pending.answers, answer), pending.faces, tuple(typed))


def _run(enc: Encounter, action: ax.Action, answers: tuple[str, ...], replayed: tuple[tuple[int, int], ...],
         typed: tuple[tuple[int | None, int], ...]) -> DiceProbe:
    probe = _Probe(replayed, typed)
    real = enc.dice
    enc.dice = probe
    try:
        enc._resolve(Tx(enc.state, enc, answers), action, dry=False)
    except _NeedDie as need:
        return DiceProbe(tuple(probe.went_to), need.ask)
    except _NeedsAnswer as need:
        return DiceProbe(tuple(probe.went_to), None, prompt=need.prompt, error=_left_over(probe))
    except (IllegalAction, RuleError, DiceError) as exc:
        return DiceProbe(tuple(probe.went_to), None, error=str(exc))
    finally:
        enc.dice = real
    return DiceProbe(tuple(probe.went_to), None, error=_left_over(probe))


def _left_over(probe: _Probe) -> str | None:
    if not probe.unused:
        return None
    return (f"dice[{len(probe.went_to)}]: {probe.unused} typed {'die is' if probe.unused == 1 else 'dice are'} "
            "more than this action rolls here")
