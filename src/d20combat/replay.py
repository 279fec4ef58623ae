"""Rebuild an encounter from its event log: the log is the encounter."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from d20combat.dice import TypedDice
from d20combat.encounter import events as ev
from d20combat.encounter.apply import apply
from d20combat.encounter.engine import Encounter
from d20combat.scenario import battle_from_data


def read_log(path: str | Path) -> list[ev.Event]:
    events = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            events.append(ev.event_from_dict(json.loads(line)))
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise ValueError(f"line {n}: not an event ({exc})") from None
    return events


def encounter_from_log(events: Sequence[ev.Event]) -> Encounter:
    if not events or not isinstance(events[0], ev.EncounterStarted):
        raise ValueError("an event log starts with encounter_started")
    battle = battle_from_data(events[0].scenario, "log")
    enc = Encounter(battle, TypedDice())
    state = enc.initial
    for e in events:
        state = apply(state, e)
    enc.state = state
    enc.log = list(events)
    return enc


def log_text(enc: Encounter) -> str:
    """The encounter's log as the text ``run --log`` writes (JSON lines)."""
    return "".join(e.to_json() + "\n" for e in enc.log)
