"""The reference engine's log as the plain tuples :mod:`.trace` compares with the kernel's rows (every event and
field that records what happened; the attack's die and total, and a block or dodge, read from its explanation)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from d20combat.encounter import events as ev

Entry = tuple[Any, ...]


_ROLL = re.compile(r"(?:hits|misses)(?: \(natural \d+\))?: (-?\d+) = (?:d20 |natural )(\d+)")
"""The total and the die: "d20 17", or a face that counts as another number ("natural 20 counts as 30", SKL-ATK-05)."""


def _roll_of(lines: list[str]) -> tuple[int | None, int | None]:
    """(die face, attack total) read from an attack's explanation, or (None, None) when no d20 was rolled."""
    for line in lines:
        found = _ROLL.search(line)
        if found:
            return int(found.group(2)), int(found.group(1))
    return None, None


_DEFENSE = re.compile(r" (?:blocks|dodges): (-?\d+) = d20 (\d+).* vs attack -?\d+: (negates|fails)")
"""A block or dodge after the roll (BlockAndDodge.resolve_active_defense): its total, die and outcome."""


def _defense_of(target: str, lines: list[str]) -> list[Entry]:
    """The block or dodge an attack's explanation shows, as the kernel's ``E_SKL_SPENT`` row reads."""
    for line in lines:
        found = _DEFENSE.search(line)
        if found:
            return [("defense", target, int(found.group(2)), int(found.group(1)), found.group(3) == "negates")]
    return []


def reference_entries(events: Iterable[ev.Event]) -> list[Entry]:
    """The reference log as comparable tuples."""
    out: list[Entry] = []
    for e in events:
        if isinstance(e, ev.EncounterStarted):
            continue
        if isinstance(e, ev.SurpriseDetermined):
            out.append(("surprise", tuple(e.surprised)))
        elif isinstance(e, ev.InitiativeRolled):
            out.append(("initiative", e.combatant, e.total))
        elif isinstance(e, ev.OrderSet):
            out.append(("order", tuple(e.order)))
        elif isinstance(e, ev.RoundStarted):
            out.append(("round", e.round, e.surprise))
        elif isinstance(e, ev.TurnStarted):
            out.append(("turn", e.combatant, e.index, tuple(sorted(e.pools.items()))))
        elif isinstance(e, ev.TurnEnded):
            out.append(("turn_ended", e.combatant, e.reason))
        elif isinstance(e, ev.TurnPoolsSet):
            out.append(("pools", e.combatant, tuple(sorted(e.pools.items()))))
        elif isinstance(e, ev.BudgetSpent):
            out.append(("budget", e.combatant, e.action, e.cost, tuple(sorted(e.spend.items()))))
        elif isinstance(e, ev.Moved):
            out.append(("moved", e.combatant, tuple(tuple(p) for p in e.path), e.cost_ft, e.diagonals, e.mode))
        elif isinstance(e, ev.AttackResolved):
            out += _defense_of(e.target, e.lines)
            out.append(("attack", e.attacker, e.target, e.attack, e.hit, e.critical, *_roll_of(e.lines)))
        elif isinstance(e, ev.Damaged):
            out.append(("damaged", e.target, e.amount, e.source))
        elif isinstance(e, ev.Note):
            out.append(("note", e.text))
        elif isinstance(e, ev.Stabilized):
            out.append(("stabilized", e.target))
        elif isinstance(e, ev.EffectAdded):
            out.append(("effect_added", e.target, e.name, e.anchor, e.until_round, e.ac, e.attack))
        elif isinstance(e, ev.EffectEnded):
            out.append(("effect_ended", e.target, e.name))
        elif isinstance(e, ev.EquipmentChanged):
            out.append(("equipment", e.combatant, e.wielding, e.shield_state, tuple(e.loaded), e.note))
        elif isinstance(e, ev.EncounterEnded):
            out.append(("ended", e.winner, e.reason))
        elif isinstance(e, ev.ConditionSet):
            out.append(("condition", e.target, e.condition, e.present, e.reason))
        elif isinstance(e, ev.Healed):
            out.append(("healed", e.target, e.amount, e.source))
        elif isinstance(e, ev.ReactionsSet):
            out.append(("reactions_set", e.combatant, tuple(sorted(e.pools.items()))))
        elif isinstance(e, ev.ReactionSpent):
            out.append(("reaction_spent", e.combatant, e.pool, e.reaction))
        else:
            out.append((e.kind,))  # an event the fast path never produces: the comparison will show it
    return out
