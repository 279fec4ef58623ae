"""Text views of an encounter: the map, the initiative order, explained events, the summary."""

from __future__ import annotations

from d20combat.battlefield.grid import Light
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.encounter.events import condition_label
from d20combat.encounter.state import EncounterState

__all__ = ["condition_label", "describe_event", "draw_map", "summary"]

_TERRAIN = {"wall": "#", "low": "=", "pit": "o", "bush": "*", "difficult": "~", "fog": "f", "dark": "D", "dim": ":"}


def draw_map(enc: Encounter, state: EncounterState | None = None) -> str:
    s = state or enc.state
    gm = enc.battle.game_map
    marks: dict[tuple[int, int], str] = {}
    for cid in s.combatants:
        if not enc.on_map(cid, s):
            continue
        creature = enc.creature(cid)
        letter = creature.name[0]
        letter = letter.upper() if creature.side == enc.battle.sides[0] else letter.lower()
        if enc.is_dead(cid, s) or enc.is_helpless(cid, s):
            letter = "x"
        for sq in enc.footprint(cid, s).squares():
            marks[sq] = letter
    lines = ["   " + "".join(str(c % 10) for c in range(gm.width))]
    for r in range(gm.height):
        row = []
        for c in range(gm.width):
            sq = (c, r)
            if sq in marks:
                row.append(marks[sq])
            elif sq in gm.walls:
                row.append(_TERRAIN["wall"])
            elif sq in gm.low_walls:
                row.append(_TERRAIN["low"])
            elif sq in gm.pits:
                row.append(_TERRAIN["pit"])
            elif sq in gm.water:
                row.append("w")
            elif sq in gm.climb:
                row.append("^")
            elif sq in gm.blocked:
                row.append("B")
            elif sq in gm.impeded:
                row.append("%")
            elif sq in gm.concealing and sq in gm.difficult:
                row.append(_TERRAIN["bush"])
            elif sq in gm.difficult:
                row.append(_TERRAIN["difficult"])
            elif sq in gm.concealing:
                row.append(_TERRAIN["fog"])
            elif gm.light_at(sq) is Light.DARK:
                row.append(_TERRAIN["dark"])
            elif gm.light_at(sq) is Light.DIM:
                row.append(_TERRAIN["dim"])
            else:
                row.append(".")
        lines.append(f"{r:>2} " + "".join(row))
    return "\n".join(lines)


def describe_event(enc: Encounter, e: ev.Event) -> str:
    """One explained line (or a few) per event; bookkeeping events say nothing."""
    if isinstance(e, ev.RoundStarted):
        first = enc.state.first_round  # EP: the round that is round 1 of the current combat (a reset, a surprise)
        own = f" (round {e.round - first + 1} of this combat)" if 1 < first <= e.round else ""
        phase = f" ({enc.ruleset.turn_order.surprise_phase_name})" if e.surprise else ""
        return f"\n=== Round {e.round}{phase}{own} ==="
    if isinstance(e, ev.TurnStarted):
        cs = enc.state.get(e.combatant) if e.combatant in enc.state.combatants else None
        return f"-- {e.combatant}'s turn" + (f" (hp {cs.hp})" if cs else "")
    if isinstance(e, ev.TurnEnded):
        # The event names why (a stable creature's reason is "stable", PFB-HP-02): a replayed log reads as it was.
        return f"   ({e.combatant} {e.reason}, turn passes)" if e.reason else ""
    if isinstance(e, ev.OrderSet):
        text = "Initiative order: " + ", ".join(e.order)
        if e.tie_breaks:
            text += "  [" + "; ".join(e.tie_breaks) + "]"
        return text
    if isinstance(e, ev.BudgetSpent | ev.EncounterStarted | ev.EquipmentChanged | ev.Moved):
        text = e.explain()
        return f"   {text}" if text and not isinstance(e, ev.BudgetSpent) else ""
    text = e.explain()
    return "\n".join(f"   {line.strip()}" if i == 0 else f"     {line.strip()}"
                     for i, line in enumerate(text.splitlines())) if text else ""


def summary(enc: Encounter) -> str:
    s = enc.state
    lines = [f"Result after {s.round} round(s): {s.end_reason or 'not finished'}"]
    for cid in s.order or s.combatants:
        c = s.get(cid)
        creature = enc.creature(cid)
        status = enc.ruleset.injury.health(creature, c).value
        if c.stable and status == "dying":
            status = "stable"
        lines.append(f"  {cid:<14} {creature.side:<8} hp {c.hp:>3}/{creature.sheet.hp:<3} {status:<9} "
                     f"dealt {c.damage_dealt:>3}  taken {c.damage_taken:>3}")
    return "\n".join(lines)
