"""A log verified, not trusted (issue 12): an encounter is rebuilt by replaying its *actions* with their *dice*
through the engine, and every event the log claims is compared with the one the engine produces.

A verifiable log is

- the start: the seed whose :class:`SeededDice` rolled it (the server's encounters, ``run --seed``), or the
  faces it rolled, ``[[sides, face], …]`` (:attr:`Encounter.start_faces`, what ``run --log`` records);
- one *write* per committed action, ``{"action": {…}, "answers": […], "dice": [[20, 14], …]}``
  (:meth:`d20combat.encounter.resolution.Write.to_dict`): the action, the reaction answers it was given and
  every die it rolled, in order;
- the events (JSON objects), flat, optionally cut into batches: the start's, then one per write.

The first event the engine would not have produced — another event, one too many, one missing — and a write it
refuses (:class:`IllegalAction`), a die that does not fit (:class:`DiceError`), dice or answers missing or left
over, a malformed write: each is a :class:`LogError` naming the index of the first bad event (``.index``) and
the write (``.write``). What is accepted is the engine's own: the encounter, batches and states returned never
hold an event of the log, only the equal ones the engine made. Sizes are bounded (:mod:`d20combat.limits`)
before anything is replayed.
"""

from __future__ import annotations

import json
import logging
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from d20combat.dice import DiceError, DiceSource, SeededDice, TypedDice
from d20combat.encounter import events as ev
from d20combat.encounter.battle import Battle
from d20combat.encounter.engine import Encounter, Write
from d20combat.encounter.state import EncounterState
from d20combat.errors import D20CombatError
from d20combat.limits import (
    MAX_DICE_SIDES,
    MAX_LOG_EVENTS,
    MAX_LOG_WRITES,
    MAX_NAME_CHARS,
    MAX_WRITE_ANSWERS,
    MAX_WRITE_DICE,
    MAX_WRITE_VALUES,
)

__all__ = ["LogError", "Start", "parse_faces", "parse_write", "verify_batches"]

log = logging.getLogger(__name__)

Start = int | Sequence[tuple[int, int]]
"""How the start was rolled: a seed (``SeededDice(seed)``) or its faces ``(sides, face)`` in order."""


class LogError(D20CombatError):
    """A log the engine would not have produced: ``index`` is its first bad event, ``write`` the write being
    replayed there (None for the start)."""

    def __init__(self, message: str, index: int, write: int | None = None) -> None:
        super().__init__(message)
        self.index = index
        self.write = write


def verify_batches(battle: Battle, start: Start, writes: Sequence[Any], events: Sequence[Any],
                   sizes: Sequence[Any] | None = None
                   ) -> tuple[Encounter, list[list[ev.Event]], list[EncounterState]]:
    """Replay ``start`` and ``writes`` on ``battle``, checking each produced event against ``events``.

    Returns the encounter (its log, :attr:`~Encounter.writes` and undo history the engine's own, its dice idle),
    the batches (the start's events, then one per write) and the state after each. ``sizes``, if given, are the
    batches' lengths the log claims. Raises :class:`LogError` at the first difference."""
    if len(events) > MAX_LOG_EVENTS:
        raise LogError(f"events: {len(events):,} events; a log has at most {MAX_LOG_EVENTS:,}", MAX_LOG_EVENTS)
    if len(writes) > MAX_LOG_WRITES:
        raise LogError(f"writes: {len(writes):,} writes; a log has at most {MAX_LOG_WRITES:,}", 0)
    check = _Checker(events, sizes)
    dice = _start_dice(start)
    enc = Encounter(battle, dice)
    try:
        produced = enc.start()
    except Exception as exc:
        raise LogError(f"events[0]: the encounter cannot start: {exc}", 0) from None
    if isinstance(dice, TypedDice) and dice.remaining:
        raise LogError(f"start_dice: {dice.remaining} of its dice were never rolled", 0)
    check.take(produced, None)
    batches, states = [produced], [enc.state]
    for k, raw in enumerate(writes):
        first = check.pos
        write = parse_write(raw, enc, f"writes[{k}]", first, k)
        produced = _replay(enc, write, k, first)
        check.take(produced, k)
        batches.append(produced)
        states.append(enc.state)
    check.finish(len(writes))
    enc.dice = TypedDice()
    return enc, batches, states


def parse_faces(data: Any, where: str, index: int, write: int | None = None) -> tuple[tuple[int, int], ...]:
    """``[[20, 14], [8, 5]]`` → ``((20, 14), (8, 5))``: bounded, every die a real die with a face it can show."""
    if not isinstance(data, list):
        raise LogError(f"{where}: a list of [sides, face] pairs", index, write)
    if len(data) > MAX_WRITE_DICE:
        raise LogError(f"{where}: {len(data):,} dice; at most {MAX_WRITE_DICE:,}", index, write)
    faces = []
    for j, die in enumerate(data):
        if not (isinstance(die, list) and len(die) == 2 and all(type(n) is int for n in die)):
            raise LogError(f"{where}[{j}]: {_short(die)} is not a [sides, face] pair of integers", index, write)
        sides, face = die
        if not 1 <= sides <= MAX_DICE_SIDES:
            raise LogError(f"{where}[{j}]: there is no d{sides}", index, write)
        if not 1 <= face <= sides:
            raise LogError(f"{where}[{j}]: a d{sides} cannot show {face} (expected 1–{sides})", index, write)
        faces.append((sides, face))
    return tuple(faces)


def parse_write(data: Any, enc: Encounter, where: str, index: int, write: int | None = None) -> Write:
    """One write record as a :class:`Write` of ``enc``'s ruleset; :class:`LogError` names the bad field."""
    if data is None:
        raise LogError(f"{where}: missing: this write records no action, so the events from events[{index}] "
                       "cannot be verified", index, write)
    if not isinstance(data, Mapping):
        raise LogError(f"{where}: a write is an object with action, answers and dice", index, write)
    extra = sorted(str(k) for k in set(data) - {"action", "answers", "dice"})
    if extra:
        raise LogError(f"{where}.{extra[0][:100]}: not a field of a write (action, answers, dice)", index, write)
    action = data.get("action")
    if _values(action, MAX_WRITE_VALUES) > MAX_WRITE_VALUES:
        raise LogError(f"{where}.action: more than {MAX_WRITE_VALUES:,} values", index, write)
    try:
        parsed = enc.actions.from_dict(action)  # type: ignore[arg-type]  # anything: it checks
    except (ValueError, TypeError) as exc:
        raise LogError(f"{where}.action: {exc}", index, write) from None
    answers = data.get("answers", [])
    if not isinstance(answers, list) or len(answers) > MAX_WRITE_ANSWERS:
        raise LogError(f"{where}.answers: a list of at most {MAX_WRITE_ANSWERS} answers", index, write)
    for j, answer in enumerate(answers):
        if not isinstance(answer, str) or len(answer) > MAX_NAME_CHARS:
            raise LogError(f"{where}.answers[{j}]: {_short(answer)} is not an answer", index, write)
    return Write(parsed, tuple(answers), parse_faces(data.get("dice", []), f"{where}.dice", index, write))


# ------------------------------------------------------------------------------------------ replay
def _start_dice(start: Start) -> DiceSource:
    if isinstance(start, int):
        return SeededDice(start)
    typed = TypedDice()
    for sides, face in start:
        typed.enter(face, sides)
    return typed


def _replay(enc: Encounter, write: Write, k: int, first: int) -> list[ev.Event]:
    """The events ``write`` makes on ``enc`` now, fed exactly its dice and answers."""
    typed = TypedDice()
    for sides, face in write.faces:
        typed.enter(face, sides)
    enc.dice = typed
    answers = deque(write.answers)
    what = f"events[{first}]: writes[{k}] ({write.action.kind})"
    try:
        produced = enc.perform(write.action)
        while enc.pending is not None and answers:
            produced = enc.respond(answers.popleft())
    except DiceError as exc:
        if typed.remaining:
            raise LogError(f"{what}: its dice[{typed.typed_used}] does not fit: {exc}", first, k) from None
        raise LogError(f"{what}: its dice ran out after {len(write.faces)}: {exc}", first, k) from None
    except D20CombatError as exc:  # IllegalAction and every other refusal
        raise LogError(f"{what}: the engine refuses it here: {exc}", first, k) from None
    except Exception as exc:  # the engine failed on a write it accepted: still this write's fault here
        log.warning("writes[%d] could not be replayed", k, exc_info=True)
        raise LogError(f"{what}: the engine could not resolve it ({type(exc).__name__}: {exc})", first,
                       k) from None
    finally:
        enc.dice = TypedDice()
    if enc.pending is not None:
        prompt = enc.pending.prompt
        enc.pending = None
        raise LogError(f"{what}: {prompt.reactor} is asked to react ({prompt.trigger}), but the write records no "
                       "answer", first, k)
    if answers:
        raise LogError(f"{what}: its answers[{len(write.answers) - len(answers)}] {answers[0]!r} answers no "
                       "reaction the engine asked for", first, k)
    if typed.remaining:
        raise LogError(f"{what}: {typed.remaining} of its {len(write.faces)} dice were never rolled", first, k)
    return produced


class _Checker:
    """Walks the log's events along the engine's, one batch at a time."""

    def __init__(self, events: Sequence[Any], sizes: Sequence[Any] | None) -> None:
        self.events = events
        self.sizes = sizes
        self.pos = 0
        self.batch = 0

    def take(self, produced: list[ev.Event], k: int | None) -> None:
        for j, e in enumerate(produced):
            i = self.pos + j
            if i >= len(self.events):
                raise LogError(f"events[{i}]: missing: the engine would have produced {_brief(e.to_dict())} here, "
                               "but the log ends", i, k)
            raw = self.events[i]
            if _canonical(raw) != e.to_json():
                want = e.to_dict()
                raise LogError(f"events[{i}] ({_kind(raw)}): the engine would have produced {_brief(want, raw)} "
                               f"here, not {_brief(raw, want)}", i, k)
        if self.sizes is not None:
            if self.batch >= len(self.sizes):
                raise LogError(f"events[{self.pos}]: batches has {len(self.sizes)} sizes, but writes[{k}] makes one "
                               "more step", self.pos, k)
            size = self.sizes[self.batch]
            if size != len(produced):
                i = self.pos + min(size, len(produced)) if type(size) is int and size >= 0 else self.pos
                who = "the start" if k is None else f"writes[{k}]"
                extra = "an extra event: " if type(size) is int and size > len(produced) else ""
                kind = f" ({_kind(self.events[i])})" if i < len(self.events) else ""
                raise LogError(f"events[{i}]{kind}: {extra}batches[{self.batch}] says {who} made {_short(size)} "
                               f"events, but the engine made {len(produced)}", i, k)
        self.pos += len(produced)
        self.batch += 1

    def finish(self, writes: int) -> None:
        if self.pos < len(self.events):
            raise LogError(f"events[{self.pos}] ({_kind(self.events[self.pos])}): an extra event: the start and the "
                           f"{writes} writes made {self.pos} events", self.pos, None)
        if self.sizes is not None and len(self.sizes) != self.batch:
            raise LogError(f"batches: {len(self.sizes)} sizes for {writes} writes (one for the start, then one per "
                           "write)", self.pos, None)


# ------------------------------------------------------------------------------------------ messages
def _canonical(raw: Any) -> str | None:
    try:
        return json.dumps(raw, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return None


def _kind(raw: Any) -> str:
    kind = raw.get("kind") if isinstance(raw, Mapping) else None
    return kind[:60] if isinstance(kind, str) else "not an event"


def _brief(data: Any, other: Any = None) -> str:
    """``moved(combatant="goblin-1", path=[[4, 5]])``: an event by its kind, who, and the fields that differ."""
    if not isinstance(data, Mapping):
        return _short(data)
    keys = [k for k in data if k != "kind"]
    if isinstance(other, Mapping) and other.get("kind") == data.get("kind"):
        differ = [k for k in keys if data.get(k) != other.get(k)]
        keys = [k for k in keys if k in ("combatant", "attacker", "target") and k not in differ] + differ
    shown = ", ".join(_field(data, other, str(k)) for k in keys[:6])
    text = f"{_kind(data)}({shown}{', …' if len(keys) > 6 else ''})"
    return text if len(text) <= 400 else text[:399] + "…"


def _field(data: Mapping[str, Any], other: Any, key: str) -> str:
    """``path=[[4, 5]]``; of two lists that differ, the first item that does: ``lines[2]="…"``."""
    value = data[key]
    theirs = other.get(key) if isinstance(other, Mapping) else None
    if isinstance(value, list) and isinstance(theirs, list) and value != theirs:
        j = next((j for j, (a, b) in enumerate(zip(value, theirs, strict=False)) if a != b), None)
        if j is not None and len(_short(value, 1000)) > 80:
            return f"{key[:40]}[{j}]={_short(value[j], 120)}"
    return f"{key[:40]}={_short(value, 80)}"


def _short(value: Any, limit: int = 100) -> str:
    try:
        text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = f"a {type(value).__name__}"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _values(data: Any, budget: int) -> int:
    """How many JSON values ``data`` holds, counting stops once over ``budget`` (cheap on a huge value)."""
    count, stack = 0, [data]
    while stack and count <= budget:
        item = stack.pop()
        count += 1
        if isinstance(item, Mapping):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return count
