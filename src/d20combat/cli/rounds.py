"""The round's declarations and re-rolled initiative in one place (worlds-of-adventure, WOA-CYCLE-02/14/17): after
the events of a declaration phase, ``run`` and ``play`` print two summary lines —

    Round 2 — declarations: Valeros attack and move — at orc-1; Merisiel nothing; orc-1 charge — at Merisiel
    Round 2 — initiative: Merisiel 19 = d20 16 + Dex 3, Valeros 5 = d20 4 + Dex 1, …

— the initiative in the order of play. Rulesets that roll initiative once never open the phase: nothing printed.
"""

from __future__ import annotations

import re

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter

_ROUND_SUFFIX = re.compile(r" \(round \d+\)$")


class RoundSummary:
    """Follows the events as they are printed; :meth:`see` answers the summary lines once the order is set."""

    def __init__(self, enc: Encounter) -> None:
        self.enc = enc
        self.round = 0
        self.declared: list[tuple[str, dict[str, object]]] = []
        self.rolled: dict[str, str] = {}

    def name(self, cid: str) -> str:
        """A creature's name, or its id where several share the name ("orc" ×2)."""
        enc = self.enc
        if cid not in enc.state.combatants:
            return cid
        own = enc.creature(cid).name
        same = sum(1 for c in enc.state.combatants if enc.creature(c).name == own)
        return cid if same > 1 else own

    def see(self, e: ev.Event) -> list[str]:
        if isinstance(e, ev.DeclarationsOpened):
            self.round, self.declared, self.rolled = e.round, [], {}
        elif isinstance(e, ev.Declared) and self.round:
            self.declared.append((e.combatant, dict(e.declaration)))
        elif isinstance(e, ev.InitiativeRolled) and self.round:
            self.rolled[e.combatant] = _ROUND_SUFFIX.sub("", e.explanation)
        elif isinstance(e, ev.OrderSet) and self.round and self.rolled:
            said = "; ".join(f"{self.name(c)} {ax.Declare(**d).text(self.name)}"  # type: ignore[arg-type]
                             for c, d in self.declared) or "nobody could declare"
            order = ", ".join(f"{self.name(c)} {self.rolled[c]}" for c in e.order if c in self.rolled)
            lines = [f"   Round {self.round} — declarations: {said}", f"   Round {self.round} — initiative: {order}"]
            self.round, self.declared, self.rolled = 0, [], {}
            return lines
        return []
