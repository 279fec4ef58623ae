"""An encounter as a file and back: export (scenario, seed, the event log in batches) and import."""

from __future__ import annotations

import json
import secrets

from pydantic import TypeAdapter

from d20combat.encounter import events as ev
from d20combat.encounter.apply import apply
from d20combat.encounter.engine import Encounter
from d20combat.encounter.state import EncounterState
from d20combat.server import models, views
from d20combat.server.inputs import Json, Rejected, event_from_json
from d20combat.server.live import Live, build_battle, idle_dice, now, players_side


def export(live: Live) -> Json:
    active = live.batches[:live.head]
    return {"scenario": live.scenario, "seed": live.seed, "name": live.name, "players": live.players,
            "events": [e.to_dict() for b in active for e in b], "batches": [len(b) for b in active]}


def import_live(data: Json) -> Live:
    """A new :class:`Live` from an export; the caller stores it."""
    scenario, raw = data["scenario"], data["events"]
    try:
        json.dumps(raw, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise Rejected(f"events: only JSON values are allowed ({exc})") from None
    battle = build_battle(scenario, "scenario")
    players = players_side(battle, data["players"], "players")
    events = [event_from_json(e, f"events[{i}]") for i, e in enumerate(raw)]
    if not isinstance(events[0], ev.EncounterStarted):
        raise Rejected("events[0].kind: an event log starts with encounter_started")
    sizes = data.get("batches") or [len(events)]
    if sum(sizes) != len(events):
        raise Rejected(f"batches: the sizes add up to {sum(sizes)}, but there are {len(events)} events")
    enc = Encounter(battle, idle_dice())
    batches: list[list[ev.Event]] = []
    states: list[EncounterState] = []
    state, n = enc.initial, 0
    for size in sizes:
        batch = events[n:n + size]
        for i, e in enumerate(batch, n):
            try:
                state = apply(state, e)
            except Exception as exc:
                raise Rejected(f"events[{i}] ({e.kind}): cannot be applied here: "
                               f"{type(exc).__name__}: {exc}") from None
        n += size
        batches.append(batch)
        states.append(state)
    live = Live(secrets.token_hex(5), data["name"], scenario, data["seed"], players, now(), enc, batches, states,
                len(batches), 1)
    live.set_head(len(batches))
    try:  # the log must give an encounter the table can show and play on
        for view in ("gm", "player"):
            models.StateView.model_validate(views.state(live, view))
        decision = enc.decision()
        if decision is not None:
            for option in decision.options:
                TypeAdapter(models.Action).validate_python(option.to_dict())
    except Exception as exc:
        raise Rejected(f"events: the log does not give a playable encounter ({type(exc).__name__}: {exc})") \
            from None
    return live
