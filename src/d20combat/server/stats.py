"""A creature's effective numbers under its conditions, each with its explanation (issue 13, item 6): ability
modifiers, the target number(s), speed and saves — what the tracker shows beside a token.

Every number comes from the ruleset's own policies (the saves area for abilities and saves, the defense area for the
target numbers and its variants, the movement area for speed), so it is true for every ruleset with no per-ruleset
test. Pure reads of an encounter.
"""

from __future__ import annotations

from typing import Any

from d20combat.encounter.engine import Encounter
from d20combat.rules.armor_class import DefenseContext
from d20combat.rulesets.components.saves import ABILITIES
from d20combat.server.live import Live
from d20combat.server.playerview import Redactor

Stat = dict[str, Any]
"""``{"value": int, "explain": str}``."""


def effective_stats(encounter: Encounter, cid: str) -> dict[str, Any]:
    """``{"abilities": {str: Stat}, "ac": Stat, "defenses": {name: Stat}, "speed": Stat, "saves": {kind: Stat}}``
    for the creature ``cid`` now. ``ac`` is the target number of an ordinary melee attack now (flat-footed while
    surprised, helpless while helpless); ``defenses`` are the ruleset's other ones (flat-footed or off-guard, touch)."""
    rs = encounter.ruleset
    s = encounter.state
    creature, cs = encounter.creature(cid), s.get(cid)
    saves = rs.saves
    abilities = {a: _stat(e.value, e.explain) for a in ABILITIES
                 for e in [saves.describe_ability(creature, cs, a)]}
    flat_footed = rs.defense.is_flat_footed(creature, cs, surprised=s.surprise_round and cid in s.surprised)
    helpless = rs.injury.is_helpless(creature, cs)
    view = encounter.view()
    name = rs.defense.name

    def target(label: str, ctx: DefenseContext) -> Stat:
        ctx = DefenseContext(touch=ctx.touch, flat_footed=flat_footed or ctx.flat_footed, helpless=helpless)
        t = rs.defense.total(creature, cs, ctx, [], view)
        return _stat(t.value, f"{label} {t.value} = {t.explain_parts()}")

    defenses = {label: target(f"{label} {name}", ctx) for label, ctx in rs.defense.variants}
    speed = encounter.speed_ft(cid)
    speed_text = f"fly {speed} ft" if creature.fly_speed_ft else rs.movement.describe_speed(creature, cs)
    return {"abilities": abilities, "ac": target(name, DefenseContext()), "defenses": defenses,
            "speed": _stat(speed, speed_text),
            "saves": {k: _stat(e.value, e.explain) for k in saves.kinds
                      for e in [saves.describe_save(creature, cs, k)]}}


def _stat(value: int, explain: str) -> Stat:
    return {"value": value, "explain": explain}


def for_players(live: Live, cid: str) -> dict[str, Any] | None:
    """What the players' view shows of ``cid``'s numbers: its effective stats if it is one of the players' own
    characters, else None (a monster's numbers are the GM's). An explanation that names a creature the players cannot
    see (a GM's effect "hexed by …") is cut to its number."""
    enc = live.enc
    if enc.creature(cid).side != live.players:
        return None
    out = effective_stats(enc, cid)
    stats = [out["ac"], out["speed"], *(st for group in ("abilities", "defenses", "saves")
                                        for st in out[group].values())]
    redactor = Redactor(live)
    for st in stats:
        if redactor.mentions_unseen(st["explain"]):
            st["explain"] = st["explain"].split(" = ", 1)[0].split(" (", 1)[0]
    return out
