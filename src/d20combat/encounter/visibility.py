"""What one side can see (issue 13, item 4): the creatures the players' screen may show.

A creature of the side itself is always seen. Another creature is seen by the side when it is on the map,
not ``hidden`` (no ruleset here gives the other side a way to find a hidden creature during play: the GM reveals
it), and at least one *observer* of the side has no *total* concealment against it by the encounter's own
ruleset: the concealment component's sources between the two (darkness the observer cannot see in — light
sources, low-light vision and darkvision counted as for an attack — invisibility without ``sees_invisible``, a
blinded observer). An observer is a creature of the side on the map that is neither dead, dying, unconscious
nor asleep. Concealing terrain (bushes, fog) is partial concealment: a creature in the bushes is seen.

Pure reads of an encounter's state; the GM's ``revealed`` creatures are seen whatever the rules say.
"""

from __future__ import annotations

from collections.abc import Iterable

from d20combat.battlefield.grid import Footprint
from d20combat.encounter.core import EncounterCore
from d20combat.encounter.state import EncounterState
from d20combat.rulesets.components.reactions import vision_of

__all__ = ["can_see", "observers", "visible_to"]

_ASLEEP = frozenset({"unconscious", "asleep"})
_OUT = frozenset({"dead", "dying"})


def observers(enc: EncounterCore, side: str, state: EncounterState | None = None) -> list[str]:
    """The creatures of ``side`` that can look around now: on the map, not dead, dying, unconscious or asleep."""
    s = state or enc.state
    out = []
    for cid in s.combatants:
        creature, cs = enc.creature(cid), s.get(cid)
        if creature.side != side or not enc.on_map(cid, s) or cs.conditions & _ASLEEP:
            continue
        if str(enc.ruleset.injury.health(creature, cs).value) in _OUT:
            continue
        out.append(cid)
    return out


def can_see(enc: EncounterCore, observer: str, target: str, state: EncounterState | None = None) -> bool:
    """Whether ``observer`` sees ``target`` now: the target is on the map, not hidden, and has no total
    concealment from the observer by the ruleset's concealment sources."""
    s = state or enc.state
    if observer == target:
        return True
    if not enc.on_map(target, s) or not enc.on_map(observer, s):
        return False
    ts, os_ = s.get(target), s.get(observer)
    if ts.has("hidden"):
        return False
    oc, tc = enc.creature(observer), enc.creature(target)
    sources = enc.ruleset.concealment.concealment_sources(
        enc.battle.game_map, Footprint(os_.position, oc.space), vision_of(oc, os_), Footprint(ts.position, tc.space),
        ts, adjacent_melee=False)
    return not any(src.total for src in sources)


def visible_to(enc: EncounterCore, side: str, state: EncounterState | None = None,
               revealed: Iterable[str] = ()) -> frozenset[str]:
    """Every creature ``side`` sees now: its own, the ``revealed`` ones, and those some observer of it sees."""
    s = state or enc.state
    shown = set(revealed) & set(s.combatants)
    shown.update(cid for cid in s.combatants if enc.creature(cid).side == side)
    eyes = observers(enc, side, s)
    for cid in s.combatants:
        if cid not in shown and any(can_see(enc, o, cid, s) for o in eyes):
            shown.add(cid)
    return frozenset(shown)
