"""Dice sources. Randomness enters the engine only here, so a seed (or a script) fixes a battle.

Three sources share one contract: ``roll(sides, purpose) -> face``. Each records every roll with
its purpose, so an explanation or a test can say which die decided what.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from d20combat.errors import D20CombatError


class DiceError(D20CombatError):
    """A die could not be rolled: a scripted list ran out, or a typed face is impossible."""


@dataclass(frozen=True, slots=True)
class Roll:
    purpose: str
    sides: int
    face: int


class DiceSource:
    """Base class: validates faces and keeps the record. Subclasses supply ``_face``."""

    def __init__(self) -> None:
        self.rolls: list[Roll] = []
        self.record = True

    def _face(self, sides: int, purpose: str) -> int:
        raise NotImplementedError

    def roll(self, sides: int, purpose: str = "") -> int:
        face = self._face(sides, purpose)
        if not 1 <= face <= sides:
            raise DiceError(f"{purpose or 'roll'}: a d{sides} cannot show {face} (expected 1–{sides})")
        if self.record:
            self.rolls.append(Roll(purpose, sides, face))
        return face

    def d20(self, purpose: str = "d20") -> int:
        return self.roll(20, purpose)

    def percentile(self, purpose: str = "d%") -> int:
        """A d% roll, 1–100 ("00" reads as 100)."""
        return self.roll(100, purpose)


class SeededDice(DiceSource):
    """Pseudo-random faces from a seed: same seed, same faces, same battle."""

    def __init__(self, seed: int | None = 0) -> None:
        super().__init__()
        self.seed = seed
        self._rng = random.Random(seed)

    def _face(self, sides: int, purpose: str) -> int:
        return self._rng.randint(1, sides)


class ScriptedDice(DiceSource):
    """Forced faces for tests: faces are used in order; running out is an error, never a silent roll."""

    def __init__(self, faces: Iterable[int], fallback: DiceSource | None = None) -> None:
        super().__init__()
        self._faces: deque[int] = deque(faces)
        self._fallback = fallback

    def _face(self, sides: int, purpose: str) -> int:
        if self._faces:
            return self._faces.popleft()
        if self._fallback is not None:
            return self._fallback.roll(sides, purpose)
        raise DiceError(f"scripted dice ran out at {purpose or 'a roll'} (d{sides})")

    def push(self, *faces: int) -> None:
        self._faces.extend(faces)

    @property
    def remaining(self) -> int:
        return len(self._faces)


class TypedDice(DiceSource):
    """Physical dice typed in by the game master.

    ``ask(sides, purpose)`` returns the face the GM typed; an impossible face raises
    :class:`DiceError` before anything is recorded, so the encounter is untouched. Faces can
    also be queued ahead (``"d20 = 17"``) with :meth:`enter`. With a ``fallback`` source, a die
    asked for once the typed faces run out (and with no ``ask``) is rolled by that source instead.
    """

    def __init__(self, ask: Callable[[int, str], int] | None = None, fallback: DiceSource | None = None) -> None:
        super().__init__()
        self._ask = ask
        self._fallback = fallback
        self._queue: deque[tuple[int | None, int]] = deque()
        self.typed_used = 0
        """How many queued faces have been used (the index of the next one)."""

    @property
    def remaining(self) -> int:
        return len(self._queue)

    def enter(self, face: int, sides: int | None = None) -> None:
        if sides is not None and not 1 <= face <= sides:
            raise DiceError(f"a d{sides} cannot show {face} (expected 1–{sides})")
        self._queue.append((sides, face))

    def _face(self, sides: int, purpose: str) -> int:
        if self._queue:
            typed_sides, face = self._queue[0]
            if typed_sides is not None and typed_sides != sides:
                raise DiceError(f"{purpose}: a d{sides} is needed, but a d{typed_sides} was typed")
            self._queue.popleft()
            self.typed_used += 1
            return face
        if self._ask is None:
            if self._fallback is not None:
                return self._fallback.roll(sides, purpose)
            raise DiceError(f"{purpose}: type the d{sides} you rolled")
        face = self._ask(sides, purpose)
        if face == 0 and self._fallback is not None:  # the GM let the computer roll this one
            return self._fallback.roll(sides, purpose)
        return face
