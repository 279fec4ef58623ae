"""Actions the decision cannot list one by one, offered with their choices (issue 15, item 2: the GM's page).

The engine's decision lists every legal action that has a few concrete forms (move to a square, attack a foe).
Some registered actions take a free choice instead — whom to act after (``hold``), which creature's turn fires a
readied attack (``ready``), which square a flask is thrown at (``throw_splash`` with a ``square``) — or buy
something that depends on the moment (``action_point``). For each such kind the encounter's ruleset registers,
:func:`offers` says whether the engine takes it now (``Encounter.check`` on a representative form; the reason
when not), the choices the page may offer, and for an action that rolls no die the engine's own words for what
it would do ("action point in combat round 2: an extra standard action …"), found by resolving it on a throwaway
working copy. Nothing changes and no die is rolled.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from d20combat.dice import DiceSource
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.encounter.resolution import Tx, _NeedsAnswer
from d20combat.errors import D20CombatError
from d20combat.rulesets.components import RuleError
from d20combat.server.inputs import Json


class _NoDie(Exception):
    """A signal: the action rolls a die, so what it would do is not known before the roll."""


class _NoDice(DiceSource):
    def _face(self, sides: int, purpose: str) -> int:
        raise _NoDie(purpose)


def would(enc: Encounter, action: ax.Action) -> list[ev.Event] | None:
    """The events ``action`` would make now if it rolls no die (None if it rolls one, is refused or waits for a
    reaction); the encounter is left as it was."""
    tx = Tx(enc.state, enc)
    tx.dice = _NoDice()
    try:
        enc._resolve(tx, action, dry=False)
    except (_NoDie, _NeedsAnswer, RuleError, D20CombatError):  # a die, a reaction, a refusal: nothing to tell
        return None
    return tx.events


def _build(enc: Encounter, data: Json) -> ax.Action | None:
    kinds = {t.kind: t for t in enc.ruleset.actions.types()}
    if data["kind"] not in kinds:
        return None
    return ax.action_from_dict(dict(data), tuple(kinds.values()))


def offers(enc: Encounter, explain: Callable[[ev.Event], str], name: Callable[[str], str]) -> list[Json]:
    """The parametric actions of the acting creature, each ``{kind, action, legal, reason, label, detail,
    choices}`` (``choices``: the values the page may put in the action's fields; none for a name typed freely,
    a stance's)."""
    d = enc.decision()
    if d is None or d.prompt is not None:
        return []
    actor = d.actor
    s = enc.state
    out: list[Json] = []

    def offer(data: Json, choices: Json, *, tell: bool = False) -> None:
        action = _build(enc, data)
        if action is None or not set(choices) <= {f.name for f in dataclasses.fields(action)}:
            return  # another ruleset's action of that name, without these fields: not this offer
        reason = enc.check(action)
        detail = ""
        if reason is None and tell:
            events = would(enc, action)
            detail = "; ".join(t for t in (explain(e) for e in events or []) if t.strip())
        out.append({"kind": data["kind"], "action": action.to_dict(), "legal": reason is None, "reason": reason,
                    "label": action.label(name), "detail": detail, "choices": choices})

    others = [c for c in s.order if c != actor and enc.on_map(c, s)]
    creature = enc.creature(actor)
    offer({"kind": "action_point"}, {}, tell=True)
    offer({"kind": "hold"}, {"after": others})
    weapons = [o.name for o in creature.attacks if o.weapon.splash is None]
    wielding = s.get(actor).wielding
    ready_attack = wielding if wielding in weapons else (weapons[0] if weapons else None)
    if ready_attack is not None:
        offer({"kind": "ready", "trigger": "any", "attack": ready_attack},
              {"trigger": ["any", *others], "target": ["", *others], "attack": weapons})
    offer({"kind": "start_stance", "stance": "stance"}, {"stance": []})  # the stance's name is the GM's to type
    offer({"kind": "drop_stance"}, {})
    splash = [o.name for o in creature.attacks if o.weapon.splash is not None]
    if wielding in splash:
        offer({"kind": "throw_splash", "attack": wielding, "square": list(s.get(actor).position)},
              {"attack": [wielding]})
    return out
