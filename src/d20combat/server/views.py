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
from d20combat.server import declarations, offers, playerview, reaction_budget, stats
from d20combat.server.inputs import Json
from d20combat.server.live import Live

ACTION_POINTS = "action_points"
"""The off-turn pool holding a creature's unspent action points, in a ruleset that has them (epic-path,
EP-MISC-22); ``action_points`` is null for a creature without the pool."""


def text(enc: Encounter, e: ev.Event) -> str:
    """An event explained in words."""
    return textwrap.dedent(describe_event(enc, e).strip("\n")).strip()


def summary(live: Live) -> Json:
    s = live.enc.state
    return {"id": live.id, "name": live.name, "ruleset": live.enc.ruleset.id, "round": s.round,
            "ended": s.ended, "winner": s.winner, "version": live.version, "players": live.players,
            "player_id": live.player_id}


def player_summary(live: Live) -> Json:
    """The summary the players' page reads: its own id, never the encounter's (the GM's)."""
    out = summary(live)
    del out["id"]
    return out


def player_log(live: Live, since: int = 0) -> list[Json]:
    return playerview.log(live, since, lambda e: text(live.enc, e))


def state(live: Live, view: str) -> Json:
    """The state as the GM (``gm``) or the players (``player``: only the creatures they see, no other side's hit
    points: :mod:`d20combat.server.playerview`) see it."""
    enc = live.enc
    s = enc.state
    gm = enc.battle.game_map
    in_order = set(s.order)
    ids = [*s.order, *(c for c in s.combatants if c not in in_order and not s.get(c).has("removed"))]
    turn = s.turn
    prompt = enc.pending.prompt.to_dict() if enc.pending is not None else None

    def squares(sqs: Iterable[Square]) -> list[list[int]]:
        return [[c, r] for c, r in sorted(sqs)]

    light = gm.light
    budgets = reaction_budget.budgets(enc)
    base = {
        "id": live.id, "version": live.version, "view": "gm", "name": live.name, "ruleset": enc.ruleset.id,
        "round": s.round, "combat_round": max(1, s.round - s.first_round + 1),
        "surprise_round": s.surprise_round, "surprise_phase": enc.ruleset.turn_order.surprise_phase_name,
        "ended": s.ended, "winner": s.winner,
        "end_reason": s.end_reason,
        "map": {"width": gm.width, "height": gm.height, "walls": squares(gm.walls),
                "low_walls": squares(gm.low_walls), "difficult": squares(gm.difficult),
                "pits": squares(gm.pits), "water": squares(gm.water), "climb": squares(gm.climb),
                "concealing": [[c, r, pct] for (c, r), pct in sorted(gm.concealing.items())],
                "dim": squares(sq for sq, lv in light.items() if lv is Light.DIM),
                "dark": squares(sq for sq, lv in light.items() if lv is Light.DARK),
                "elevation": [[c, r, ft] for (c, r), ft in sorted(gm.elevation.items())],
                "lights": [[c, r, bright, dim] for (c, r), bright, dim in gm.lights],
                "impeded": squares(gm.impeded), "blocked": squares(gm.blocked),
                "splash_soft": squares(gm.splash_soft)},
        "order": list(s.order),
        "active": s.actor,
        "declaring": list(s.declaring),
        "declarations": declarations.declarations(enc),
        "initiative_rolls": declarations.initiative(enc),
        "turn": None if turn is None else {
            "actor": turn.actor, "pools": dict(turn.pools), "moved": turn.moved, "stepped": turn.stepped,
            "pool_labels": enc.ruleset.economy.pool_labels(turn.pools)},
        "pending": prompt,
        "combatants": [],
    }
    if view == "player":  # effective stats only for the players' own characters (never a monster's numbers)
        return playerview.state(live, base, lambda cid: {**_combatant(live, cid), "reactions": budgets.get(cid),
                                                         "stats": stats.for_players(live, cid)}, prompt)
    return {**base, "combatants": [{**_combatant(live, cid), "reactions": budgets.get(cid),
                                    "stats": stats.effective_stats(enc, cid)} for cid in ids],
            "revealed": sorted(live.revealed), "history": history(live)}


def history(live: Live) -> Json:
    """What undo and redo would do now, in words: the open reaction's half-asked action, or a committed step
    (its first explained event: "valeros moves to (4,5) — 15 ft", "GM: 2 damage to goblin")."""
    enc = live.enc
    undo: str | None = None
    if enc.pending is not None:
        undo = f"the half-asked {enc.pending.action.label(str)} (waiting for {enc.pending.prompt.reactor})"
    elif live.head > 1:
        undo = step_label(live, live.head - 1)
    redo = step_label(live, live.head) if live.head < len(live.batches) else None
    return {"undo": undo, "redo": redo}


def step_label(live: Live, index: int) -> str:
    for e in live.batches[index]:
        words = text(live.enc, e).split("\n", 1)[0].strip()
        if words:
            return words if len(words) <= 90 else words[:89] + "…"
    return f"step {index}"


def _combatant(live: Live, cid: str) -> Json:
    enc = live.enc
    cs = enc.state.get(cid)
    creature = enc.creature(cid)
    if cs.has("fled"):
        status = "fled"
    elif cs.has("surrendered"):
        status = "surrendered"
    else:
        status = str(enc.ruleset.injury.health(creature, cs).value)
        if cs.stable and status == hp_rules.Health.DYING.value:
            status = "stable"
    return {"id": cid, "name": creature.name, "side": creature.side, "position": list(cs.position),
            "size": creature.space, "hp": cs.hp,
            "max_hp": creature.sheet.hp, "status": status,
            "conditions": sorted(cs.conditions),
            "labels": [render.condition_label(c) for c in sorted(cs.conditions)], "initiative": cs.initiative,
            "effects": [{"name": e.name, "until_round": e.until_round, "anchor": e.anchor, "ac": e.ac,
                         "attack": e.attack, "condition": e.condition} for e in cs.effects],
            "wielding": cs.wielding, "attacks": [o.name for o in creature.attacks],
            "action_points": cs.reactions.get(ACTION_POINTS)}


def decision(live: Live) -> Json:
    d = live.enc.decision()
    if d is None:
        return {"version": live.version, "actor": None, "round": live.enc.state.round, "phase": "turn",
                "prompt": None, "options": [], "labels": [], "offers": []}
    enc = live.enc

    def name(cid: str) -> str:
        return enc.creature(cid).name if cid in enc.state.combatants else cid

    return {"version": live.version, "actor": d.actor, "round": d.round, "phase": d.phase,
            "prompt": d.prompt.to_dict() if d.prompt is not None else None,
            "options": [a.to_dict() for a in d.options], "labels": [a.label(name) for a in d.options],
            "offers": offers.offers(enc, lambda e: text(enc, e), name)}


def log(live: Live, since: int = 0) -> list[Json]:
    enc = live.enc
    return [{"seq": n, "kind": e.kind, "text": text(enc, e), "event": e.to_dict()}
            for n, e in enumerate(enc.log) if n >= since]
