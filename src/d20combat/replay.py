"""An encounter rebuilt from its log — verified, not trusted (issue 12).

``run --log`` and ``play --log`` write JSON lines (format 2)::

    {"d20combat_log": 2, "start_dice": [[20, 14], [20, 3], ...]}      the header: every die the start rolled
    {"kind": "encounter_started", "scenario": {...}}                    the start's events, one per line
    ...
    {"write": {"action": {"kind": "move", "to": [4, 5]}, "answers": [], "dice": []}}
    {"kind": "budget_spent", ...}                                       the events that write made
    ...

A write record (an action, the reaction answers it was given and every die it rolled) comes before the events
it made. ``replay`` rebuilds the encounter by replaying the start's dice and every write through the engine
(:func:`d20combat.encounter.verify.verify_batches`) and refuses a log whose events the engine would not have
produced, with the index of its first bad event and its line (:class:`LogError`, a ``ValueError``). The
header records the start's faces rather than the seed, so a log of dice typed at the table verifies too. A log
of events alone (format 1, before issue 12) has nothing to verify and is refused.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from d20combat.dice import TypedDice
from d20combat.encounter import events as ev
from d20combat.encounter.apply import apply
from d20combat.encounter.engine import Encounter
from d20combat.encounter.verify import LogError, parse_faces, verify_batches
from d20combat.limits import MAX_LOG_EVENTS, MAX_LOG_WRITES
from d20combat.scenario import battle_from_data

__all__ = ["FORMAT", "Log", "LogError", "encounter_from_log", "log_text", "read_log"]

FORMAT = 2
"""The log format ``log_text`` writes: a header, then events with a write record before each action's."""

OLD_FORMAT = "this log has no actions to verify; record it again with run --log"


@dataclass
class Log:
    """A log as read, nothing of it trusted yet: raw JSON values, verified by :func:`encounter_from_log`."""

    version: int | None
    """The format of the header; None for a log of events alone (format 1), which cannot be verified."""
    start_dice: Any = None
    writes: list[Any] = field(default_factory=list)
    batches: list[list[Any]] = field(default_factory=lambda: [[]])
    """The events: the start's, then one list per write."""
    lines: list[int] = field(default_factory=list)
    """The line of each event, in order (for messages)."""


def read_log(path: str | Path) -> Log:
    """A log file read line by line; a line that is no header, write or event is a :class:`LogError`."""
    log: Log | None = None
    events = 0
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LogError(f"line {n}: not JSON ({exc})", events) from None
        if not isinstance(data, dict):
            raise LogError(f"line {n}: not a header, write or event (an object)", events)
        if log is None:
            if "d20combat_log" in data:
                if data["d20combat_log"] != FORMAT or set(data) != {"d20combat_log", "start_dice"}:
                    raise LogError(f"line {n}: not a format {FORMAT} log header", 0)
                log = Log(FORMAT, data["start_dice"])
                continue
            log = Log(None)
        if "write" in data and "kind" not in data:
            if set(data) != {"write"} or log.version is None:
                raise LogError(f"line {n}: a write record is {{\"write\": {{...}}}} after a header", events)
            if len(log.writes) >= MAX_LOG_WRITES:
                raise LogError(f"line {n}: more than {MAX_LOG_WRITES:,} writes", events)
            log.writes.append(data["write"])
            log.batches.append([])
        elif "kind" in data:
            if events >= MAX_LOG_EVENTS:
                raise LogError(f"line {n}: more than {MAX_LOG_EVENTS:,} events", events)
            log.batches[-1].append(data)
            log.lines.append(n)
            events += 1
        else:
            raise LogError(f"line {n}: events[{events}]: not a header, write or event (no 'kind')", events)
    return log if log is not None else Log(FORMAT, [])


def encounter_from_log(log: Log | Sequence[ev.Event]) -> Encounter:
    """The encounter a log records, rebuilt by the engine from its start dice and writes; :class:`LogError` at
    the first event it would not have produced.

    Given events as objects (a library caller's own ``enc.log``), they are applied as they are: nothing there
    is verified, so anything read from outside goes through :func:`read_log`."""
    if not isinstance(log, Log):
        return _applied(log)
    if log.version is None:
        raise LogError(OLD_FORMAT, 0)
    faces = parse_faces(log.start_dice, "start_dice", 0)
    events = [e for batch in log.batches for e in batch]
    first = events[0] if events else None
    if not isinstance(first, dict) or first.get("kind") != "encounter_started" or \
            not isinstance(first.get("scenario"), dict):
        raise LogError("events[0]: an event log starts with encounter_started and its scenario", 0)
    try:
        battle = battle_from_data(first["scenario"], "log")
    except (ValueError, TypeError) as exc:
        raise LogError(f"events[0] (encounter_started): its scenario cannot be played: {exc}", 0) from None
    try:
        enc, _, _ = verify_batches(battle, faces, log.writes, events, [len(b) for b in log.batches])
    except LogError as exc:
        line = log.lines[exc.index] if exc.index < len(log.lines) else None
        raise LogError(f"{exc} (line {line})" if line else str(exc), exc.index, exc.write) from None
    return enc


def _applied(events: Sequence[ev.Event]) -> Encounter:
    if not events or not isinstance(events[0], ev.EncounterStarted):
        raise LogError("an event log starts with encounter_started", 0)
    battle = battle_from_data(events[0].scenario, "log")
    enc = Encounter(battle, TypedDice())
    state = enc.initial
    for e in events:
        state = apply(state, e)
    enc.state = state
    enc.log = list(events)
    return enc


def log_text(enc: Encounter) -> str:
    """The encounter's log as ``run --log`` writes it (format 2: a header, events, a write before each action's
    events), which :func:`encounter_from_log` verifies."""
    batches = enc.batches()
    if len(batches) != len(enc.writes) + 1:
        raise ValueError(f"{len(batches) - 1} committed actions but {len(enc.writes)} recorded writes: this "
                         "encounter's log cannot be written verifiably")
    lines = [_dumps({"d20combat_log": FORMAT, "start_dice": [list(f) for f in enc.start_faces]})]
    lines += [e.to_json() for e in batches[0]]
    for write, batch in zip(enc.writes, batches[1:], strict=True):
        lines.append(_dumps({"write": write.to_dict()}))
        lines += [e.to_json() for e in batch]
    return "".join(line + "\n" for line in lines)


def _dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
