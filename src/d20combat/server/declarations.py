"""What the table shows of a declaration phase (worlds-of-adventure, WOA-CYCLE-14/25): who has declared this round
and what, each ruling on a declaration that could no longer be carried out, and the re-rolled initiative.

The GM sees every declaration; the players see only their own side's (declarations are simultaneous: the foes'
are not shown before they act, and a foe's declaration or ruling never reaches the players' log either). Pure reads
of an encounter (the caller holds its lock).
"""

from __future__ import annotations

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.server.inputs import Json

HIDDEN_FROM_PLAYERS = (ev.Declared, ev.DeclarationRuled)
"""The events of a declaration that only the declaring creature's side sees."""


def this_round(enc: Encounter) -> list[ev.Event]:
    """The events of the current round since its declarations opened (empty outside a declaration phase)."""
    out: list[ev.Event] = []
    for e in reversed(enc.log):
        if isinstance(e, ev.DeclarationsOpened):
            return [*reversed(out)]
        if isinstance(e, ev.RoundStarted):
            return []
        out.append(e)
    return []


def declarations(enc: Encounter, side: str | None = None) -> list[Json]:
    """This round's declarations in the order they were made: ``{"combatant", "declaration", "text", "declared",
    "ruled", "by_gm"}`` — ``declaration``/``text`` what the creature is held to now (after any ruling),
    ``declared`` what it declared, ``ruled`` the reason of the last ruling (the ruleset's default or the GM's) or
    null, ``by_gm`` true when the GM made it. ``side``: only that side's (the players' view)."""
    s = enc.state

    names = [enc.creature(c).name for c in s.combatants]

    def name(cid: str) -> str:  # several creatures of one name ("orc" ×2): their ids tell them apart
        if cid not in s.combatants or names.count(enc.creature(cid).name) > 1:
            return cid
        return enc.creature(cid).name

    out: dict[str, Json] = {}
    for e in this_round(enc):
        if isinstance(e, ev.Declared):
            out[e.combatant] = {"combatant": e.combatant, "declaration": dict(e.declaration),
                                "declared": ax.Declare(**e.declaration).text(name),
                                "ruled": None, "by_gm": False}
        elif isinstance(e, ev.DeclarationRuled) and e.combatant in out:
            out[e.combatant].update(ruled=e.reason, by_gm="GM's ruling" in e.reason)
    rows = []
    for cid, row in out.items():
        if side is not None and (cid not in s.combatants or enc.creature(cid).side != side):
            continue
        held = s.declarations.get(cid, row["declaration"])
        rows.append({**row, "declaration": dict(held), "text": ax.Declare(**held).text(name)})
    return rows


def initiative(enc: Encounter) -> list[Json]:
    """This round's re-rolled initiative, highest first: ``{"combatant", "total", "explanation"}`` (empty before the
    last declaration, and in a ruleset that rolls once)."""
    rolled = {e.combatant: e for e in this_round(enc) if isinstance(e, ev.InitiativeRolled)}
    order = [c for c in enc.state.order if c in rolled]
    return [{"combatant": c, "total": rolled[c].total, "explanation": rolled[c].explanation} for c in order]


def hidden_from_players(e: ev.Event, others: frozenset[str]) -> bool:
    """Whether ``e`` tells the players what a creature not on their side (``others``) declared or was ruled to do:
    its declaration, the ruling on it, or the GM's ruling write."""
    if isinstance(e, HIDDEN_FROM_PLAYERS):
        return e.combatant in others
    return isinstance(e, ev.GmEdited) and e.target in others and e.text.startswith(GM_RULING)


GM_RULING = "rules "
"""How the GM's ruling on a declaration begins in the log (``gm_rules._rule_declaration``)."""
