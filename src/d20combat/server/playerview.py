"""What the players may see (issue 13, item 4): the state and the log filtered for the players' side.

The creatures shown are those the players' side sees now (:func:`d20combat.encounter.visibility.visible_to`:
their own, the GM's revealed ones, and those not hidden, invisible or in darkness to every one of them). Every
other creature is left out everywhere — no name, id, position or hit points, no turn, no prompt, no initiative —
and so is any text that mentions it (by id, or by a name no seen creature shares). Of the creatures not on the
players' side nothing computed from hit points is shown: no hp, no "hp 6 → 1" in damage texts, no dying-check
arithmetic. The first event (the whole scenario) never leaves the GM. Pure reads (the caller holds the lock).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from d20combat.encounter import events as ev
from d20combat.encounter.visibility import visible_to
from d20combat.server import declarations
from d20combat.server.inputs import Json
from d20combat.server.live import Live

UNSEEN = "something the players cannot see"
"""What a redacted reaction prompt's trigger says."""


class Redactor:
    """The players' side's sight of one encounter now, and how texts are cut down to it."""

    def __init__(self, live: Live) -> None:
        enc = live.enc
        s = enc.state
        self.live = live
        self.seen = visible_to(enc, live.players, revealed=live.revealed)
        self.unseen = frozenset(s.combatants) - self.seen
        self.others = frozenset(c for c in s.combatants if enc.creature(c).side != live.players)
        """Creatures not on the players' side: their hit points are the GM's."""
        seen_names = {enc.creature(c).name.lower() for c in self.seen} | {c.lower() for c in self.seen}
        words = set(self.unseen) | {enc.creature(c).name for c in self.unseen}
        words = {w for w in words if w and (w in self.unseen or w.lower() not in seen_names)}
        self._unseen_re = _words(words)
        self._hp_re = [re.compile(rf"\s*→\s*{re.escape(c)} hp -?\d+\s*→\s*-?\d+|(?<={re.escape(c)}'s hp) to -?\d+")
                       for c in sorted(self.others)]

    def shows(self, cid: str) -> bool:
        return cid in self.seen

    def mentions_unseen(self, text: str) -> bool:
        return self._unseen_re is not None and self._unseen_re.search(text) is not None

    def scrub(self, text: str) -> str:
        """``text`` without its lines that mention an unseen creature, and without other creatures' hp."""
        for pattern in self._hp_re:
            text = pattern.sub("", text)
        return "\n".join(line for line in text.splitlines() if not self.mentions_unseen(line))

    def names_unseen(self, data: Any) -> bool:
        """Whether an event's fields name an unseen creature (any string, however deep, equal to its id)."""
        if isinstance(data, str):
            return data in self.unseen or self.mentions_unseen(data)
        if isinstance(data, dict):
            return any(self.names_unseen(v) for k, v in data.items() if k != "kind")
        if isinstance(data, list | tuple):
            return any(self.names_unseen(v) for v in data)
        return False


def _words(words: Iterable[str]) -> re.Pattern[str] | None:
    listed = sorted(words, key=len, reverse=True)
    if not listed:
        return None
    return re.compile(r"(?<![\w])(?:" + "|".join(re.escape(w) for w in listed) + r")(?![\w])", re.IGNORECASE)


# ------------------------------------------------------------------------------------------ state
def state(live: Live, base: Json, combatant: Any, prompt: Json | None) -> Json:
    """The players' state from the pieces :func:`d20combat.server.views.state` builds (``combatant(cid)`` makes
    one creature's view): only seen creatures, their texts cut down, no other side's hit points."""
    r = Redactor(live)
    s = live.enc.state
    in_order = set(s.order)
    ids = [*s.order, *(c for c in s.combatants if c not in in_order and not s.get(c).has("removed"))]
    combatants = [_combatant(r, combatant(cid)) for cid in ids if r.shows(cid)]
    turn = base["turn"]
    actor = base["active"] if base["active"] is not None and r.shows(base["active"]) else None
    return {**base, "id": live.player_id, "view": "player", "order": [c for c in base["order"] if r.shows(c)],
            "active": actor, "turn": turn if actor is not None else None,
            "declaring": [c for c in base["declaring"] if r.shows(c)],
            "declarations": [d for d in declarations.declarations(live.enc, side=live.players)
                             if r.shows(d["combatant"])],
            "initiative_rolls": [i for i in base["initiative_rolls"] if r.shows(i["combatant"])],
            "pending": _prompt(r, prompt), "combatants": combatants,
            "end_reason": r.scrub(base["end_reason"]) if base["end_reason"] else base["end_reason"]}


def _combatant(r: Redactor, c: Json) -> Json:
    other = c["id"] in r.others
    conditions, labels = [], []
    for cond, label in zip(c["conditions"], c["labels"], strict=True):
        if r.mentions_unseen(cond) or r.mentions_unseen(label) or (other and cond.startswith("wound")):
            continue
        conditions.append(cond)
        labels.append(label)
    effects = [e for e in c["effects"] if not (r.names_unseen(e["name"]) or e["anchor"] in r.unseen)]
    out = {**c, "conditions": conditions, "labels": labels, "effects": effects}
    if other:
        out.update(hp=None, max_hp=None, action_points=None, reactions=None)  # a foe's reactions left are the GM's
    return out


def _prompt(r: Redactor, prompt: Json | None) -> Json | None:
    if prompt is None or not r.shows(str(prompt["reactor"])):
        return None
    if r.mentions_unseen(str(prompt["trigger"])) or r.mentions_unseen(str(prompt["detail"])):
        return {**prompt, "trigger": UNSEEN, "detail": ""}
    if str(prompt["reactor"]) in r.others:  # a monster's own roll against a hero is the GM's until it resolves
        return {**prompt, "detail": ""}
    return prompt


# ------------------------------------------------------------------------------------------ log
def log(live: Live, since: int, explain: Any) -> list[Json]:
    """The players' log: never the start's scenario event, no event naming an unseen creature, and the texts
    cut down (``explain(event)`` is the GM's text of one event)."""
    r = Redactor(live)
    out = []
    for n, e in enumerate(live.enc.log):
        if n < since or isinstance(e, ev.EncounterStarted) or r.names_unseen(_fields(r, e)):
            continue
        if declarations.hidden_from_players(e, r.others):  # the foes' declarations are theirs (WOA-CYCLE-14)
            continue
        text = r.scrub(_text(r, e, explain))
        if text.strip():
            out.append({"seq": n, "kind": e.kind, "text": text})
    return out


def _fields(r: Redactor, e: ev.Event) -> Json:
    """The fields of ``e`` that decide whether the players may see it at all (lists of many creatures are
    filtered when the text is made instead)."""
    data = e.to_dict()
    if isinstance(e, ev.OrderSet | ev.SurpriseDetermined):
        return {}
    if isinstance(e, ev.AttackResolved | ev.Damaged | ev.Stabilized):  # texts: cut line by line
        data.pop("lines", None), data.pop("explanation", None)
    return data


def _text(r: Redactor, e: ev.Event, explain: Any) -> str:
    other = isinstance(e, ev.Damaged | ev.Healed | ev.Stabilized | ev.TurnStarted) and (
        (e.combatant if isinstance(e, ev.TurnStarted) else e.target) in r.others)
    if isinstance(e, ev.OrderSet):
        order = [c for c in e.order if r.shows(c)]
        return ("Initiative order: " + ", ".join(order)) if order else ""
    if isinstance(e, ev.SurpriseDetermined):
        if not e.surprised:
            return str(explain(e))
        seen = [c for c in e.surprised if r.shows(c)]
        return ("Surprised: " + ", ".join(seen) + ".") if seen else ""
    if other and isinstance(e, ev.TurnStarted):
        return f"-- {e.combatant}'s turn"
    if other and isinstance(e, ev.Stabilized):
        return f"{e.target} is stable"
    if other and isinstance(e, ev.Healed):
        return f"{e.target} recovers"
    if other and isinstance(e, ev.Damaged):
        text = str(explain(e))
        if "(hp)" in text or "damage is raised to" in text or " hp " in re.sub(rf"→\s*{re.escape(e.target)} hp", "",
                                                                                   text):
            return f"{e.target} takes {e.amount} damage"
        return text
    return str(explain(e))
