"""What the table shows: an encounter's summary, its state as the GM or the players see it, the decision
now, and the explained log. Pure reads of a :class:`~d20combat.server.live.Live` (the caller holds its lock)."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from d20combat import render
from d20combat.battlefield.grid import Light, Square
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.render import describe_event
from d20combat.rules import health as hp_rules
from d20combat.server.inputs import Json
from d20combat.server.live import Live


def text(enc: Encounter, e: ev.Event) -> str:
    """An event explained in words."""
    return textwrap.dedent(describe_event(enc, e).strip("\n")).strip()


def summary(live: Live) -> Json:
    s = live.enc.state
    return {"id": live.id, "name": live.name, "ruleset": live.enc.ruleset.id, "round": s.round,
            "ended": s.ended, "winner": s.winner, "version": live.version, "players": live.players}


def state(live: Live, view: str) -> Json:
    """The state as the GM (``gm``) or the players (``player``: no hidden enemies, no enemy hit points) see it."""
    enc = live.enc
    s = enc.state
    player = view == "player"
    gm = enc.battle.game_map

    def hidden(cid: str) -> bool:
        cs = s.get(cid)
        return (player and enc.creature(cid).side != live.players
                and ("hidden" in cs.conditions or "invisible" in cs.conditions))

    in_order = set(s.order)
    ids = [*s.order, *(c for c in s.combatants if c not in in_order)]
    combatants = [_combatant(live, cid, player) for cid in ids if not hidden(cid)]
    turn = s.turn
    actor = turn.actor if turn is not None and not hidden(turn.actor) else None
    prompt = enc.pending.prompt if enc.pending is not None else None
    if prompt is not None and hidden(prompt.reactor):
        prompt = None

    def squares(sqs: Iterable[Square]) -> list[list[int]]:
        return [[c, r] for c, r in sorted(sqs)]

    light = gm.light
    return {
        "id": live.id, "version": live.version, "view": view, "name": live.name, "ruleset": enc.ruleset.id,
        "round": s.round, "surprise_round": s.surprise_round, "ended": s.ended, "winner": s.winner,
        "end_reason": s.end_reason,
        "map": {"width": gm.width, "height": gm.height, "walls": squares(gm.walls),
                "low_walls": squares(gm.low_walls), "difficult": squares(gm.difficult),
                "pits": squares(gm.pits), "water": squares(gm.water), "climb": squares(gm.climb),
                "concealing": [[c, r, pct] for (c, r), pct in sorted(gm.concealing.items())],
                "dim": squares(sq for sq, lv in light.items() if lv is Light.DIM),
                "dark": squares(sq for sq, lv in light.items() if lv is Light.DARK)},
        "order": [cid for cid in s.order if not hidden(cid)],
        "active": actor,
        "turn": None if turn is None or actor is None else {
            "actor": turn.actor, "pools": dict(turn.pools), "moved": turn.moved, "stepped": turn.stepped},
        "pending": prompt.to_dict() if prompt is not None else None,
        "combatants": combatants,
    }


def _combatant(live: Live, cid: str, player: bool) -> Json:
    enc = live.enc
    cs = enc.state.get(cid)
    creature = enc.creature(cid)
    secret = player and creature.side != live.players
    if cs.has("fled"):
        status = "fled"
    elif cs.has("surrendered"):
        status = "surrendered"
    else:
        status = str(enc.ruleset.injury.health(creature, cs).value)
        if cs.stable and status == hp_rules.Health.DYING.value:
            status = "stable"
    return {"id": cid, "name": creature.name, "side": creature.side, "position": list(cs.position),
            "size": creature.space, "hp": None if secret else cs.hp,
            "max_hp": None if secret else creature.sheet.hp, "status": status,
            "conditions": sorted(cs.conditions),
            "labels": [render.condition_label(c) for c in sorted(cs.conditions)], "initiative": cs.initiative,
            "effects": [{"name": e.name, "until_round": e.until_round, "anchor": e.anchor} for e in cs.effects],
            "wielding": cs.wielding, "attacks": [o.name for o in creature.attacks]}


def decision(live: Live) -> Json:
    d = live.enc.decision()
    if d is None:
        return {"version": live.version, "actor": None, "round": live.enc.state.round, "prompt": None,
                "options": []}
    return {"version": live.version, "actor": d.actor, "round": d.round,
            "prompt": d.prompt.to_dict() if d.prompt is not None else None,
            "options": [a.to_dict() for a in d.options]}


def log(live: Live, since: int = 0) -> list[Json]:
    enc = live.enc
    return [{"seq": n, "kind": e.kind, "text": text(enc, e), "event": e.to_dict()}
            for n, e in enumerate(enc.log) if n >= since]
