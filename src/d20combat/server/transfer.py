"""An encounter as a file and back: export (scenario, the start's dice, the event log in batches, the write that
made each batch) and import — verified, not trusted (issue 12).

The dice seed never leaves the server (issue 13): an export carries the faces the start rolled
(``start_dice``), and an import draws a fresh seed for the rolls still to come, so that no file predicts them.

An import rebuilds the encounter by replaying the start with those faces (or ``SeededDice(seed)`` for an export
written before issue 13) and then every write (the
action, its reaction answers and its dice) through the engine
(:func:`d20combat.encounter.verify.verify_batches`); the first event the engine would not have produced, an
action it refuses, a die that does not fit, dice missing or left over, an extra event — each is a 422 naming
``events[i]`` (or ``writes[k]`` when the write itself is malformed). What is stored is the engine's own events.
An export without ``writes`` (or from an encounter stored before writes were kept) cannot be verified and is
refused.
"""

from __future__ import annotations

import json
import secrets

from d20combat.encounter.verify import LogError, Start, parse_faces, verify_batches
from d20combat.limits import MAX_LOG_EVENTS, MAX_LOG_WRITES
from d20combat.server.inputs import Json, Rejected
from d20combat.server.live import Live, build_battle, idle_dice, new_player_id, new_seed, now, players_side

UNVERIFIABLE = ("writes: missing: this export records no actions, so its events cannot be verified; export the "
                "encounter again from a server that records them")


def export(live: Live) -> Json:
    active = live.batches[:live.head]
    return {"scenario": live.scenario, "start_dice": live.start_dice, "name": live.name, "players": live.players,
            "events": [e.to_dict() for b in active for e in b], "batches": [len(b) for b in active],
            "writes": live.writes[1:live.head]}


def _start(data: Json) -> Start:
    """How the export's start was rolled: its faces, or the seed of an export from before issue 13."""
    faces, seed = data.get("start_dice"), data.get("seed")
    if (faces is None) == (seed is None):
        raise Rejected("start_dice: give the start's dice (or, from an older export, its seed), not "
                       + ("both" if faces is not None else "neither"))
    if seed is not None:
        return int(seed)
    try:
        return parse_faces(faces, "start_dice", 0)
    except LogError as exc:
        raise Rejected(str(exc)) from None


def import_live(data: Json) -> Live:
    """A new :class:`Live` from an export, every event verified by replaying its writes; the caller stores it."""
    scenario, raw, writes, sizes = data["scenario"], data["events"], data.get("writes"), data.get("batches")
    if writes is None:
        raise Rejected(UNVERIFIABLE)
    if len(raw) > MAX_LOG_EVENTS or len(writes) > MAX_LOG_WRITES:
        raise Rejected(f"events: {len(raw):,} events and {len(writes):,} writes; an import has at most "
                       f"{MAX_LOG_EVENTS:,} events and {MAX_LOG_WRITES:,} writes")
    try:
        json.dumps([raw, writes], allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise Rejected(f"events: only JSON values are allowed ({exc})") from None
    battle = build_battle(scenario, "scenario")
    players = players_side(battle, data["players"], "players")
    start = _start(data)
    try:
        enc, batches, states = verify_batches(battle, start, writes, raw, sizes)
    except LogError as exc:
        raise Rejected(str(exc)) from None
    enc.dice = idle_dice()
    live = Live(secrets.token_hex(5), data["name"], scenario, new_seed(), players, now(), enc, batches, states,
                len(batches), 1, writes=[None, *(w.to_dict() for w in enc.writes)], player_id=new_player_id(),
                start_dice=[list(f) for f in enc.start_faces])
    live.set_head(len(batches))
    return live
