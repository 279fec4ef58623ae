"""Builders for the skill-based (SKL) rule tests: inline stat blocks with exact skill ratings and ability
modifiers, duels with forced dice, and a helper that answers reaction prompts.

Forced dice are consumed in order: d20 attack roll, [d20 block/dodge if the defender takes one], damage dice.
Every creature holds its complex action in reserve until its turn (SKL-RES-04), so the first hit of a round
usually opens the active-defense prompt: :func:`resolve` answers it.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable
from typing import Any

import pytest
from tests.conftest import make_encounter

from d20combat.encounter import events as ev
from d20combat.encounter.actions import Action
from d20combat.encounter.engine import Encounter, IllegalAction

SKL = "skill-based"


def abilities(str: int = 0, dex: int = 0, con: int = 0, int: int = 0, wis: int = 0) -> dict[str, Any]:
    """Ability scores with exactly these modifiers (score 10 + 2 × modifier)."""
    return {"str": 10 + 2 * str, "dex": 10 + 2 * dex, "con": 10 + 2 * con, "int": 10 + 2 * int, "wis": 10 + 2 * wis}


def sheet(name: str = "x", *, skills: dict[str, int] | None = None, weapon: str | dict[str, Any] | None = "longsword",
          attacks: list[dict[str, Any]] | None = None, hp: int = 40, armor_rating: int = 0,
          str: int = 0, dex: int = 0, con: int = 0, int: int = 0, wis: int = 0,
          **kw: Any) -> dict[str, Any]:
    """An inline stat block: ``weapon`` wielded; ``skills`` default to 0 in every skill its weapons use."""
    block: dict[str, Any] = {"name": name, "hp": hp, "abilities": abilities(str, dex, con, int, wis),
                             "armor_rating": armor_rating}
    if attacks is None:
        attacks = [{"weapon": weapon}] if weapon is not None else []
    block["attacks"] = attacks
    if weapon is not None and "wielding" not in kw:
        block["wielding"] = weapon if isinstance(weapon, builtins.str) else weapon["name"]
    base = {"defense": 0, "sword": 0, "bow": 0, "dagger": 0}
    base.update(skills or {})
    block["skills"] = base
    block.update(kw)
    return block


def fighter(name: str = "fighter", **kw: Any) -> dict[str, Any]:
    """Sword skill 4, Str +2: a melee attack bonus of +6 (the text's running example)."""
    kw.setdefault("skills", {"sword": 4})
    kw.setdefault("str", 2)
    return sheet(name, **kw)


def duel(a: dict[str, Any], b: dict[str, Any], *, dice: Iterable[int] = (), a_at: tuple[int, int] = (1, 1),
         b_at: tuple[int, int] = (2, 1), variants: dict[str, Any] | None = None, width: int = 12,
         height: int = 12, **extra: Any) -> Encounter:
    """``a`` (heroes) acts first, then ``b`` (foes)."""
    return make_encounter([
        {"id": "a", "side": "heroes", "stats": a, "position": list(a_at)},
        {"id": "b", "side": "foes", "stats": b, "position": list(b_at)},
    ], dice=list(dice), ruleset=SKL, variants=variants, width=width, height=height, **extra)


def encounter(combatants: list[dict[str, Any]], *, dice: Iterable[int] = (), variants: dict[str, Any] | None = None,
              **extra: Any) -> Encounter:
    return make_encounter(combatants, dice=list(dice), ruleset=SKL, variants=variants, **extra)


def resolve(enc: Encounter, action: Action, *answers: str) -> list[ev.Event]:
    """Act, answer each prompt in turn (then "none"/"decline" for any left), and return every event."""
    events = list(enc.act(action))
    queue = list(answers)
    while enc.pending is not None:
        prompt = enc.pending.prompt
        answer = queue.pop(0) if queue else ("decline" if "decline" in prompt.options else "none")
        events += enc.respond(answer)
    assert not queue, f"unused answers {queue}"
    return events


def illegal(enc: Encounter, action: Action) -> str:
    """The action is refused and nothing changes: state, log and pending prompt are untouched."""
    before, length, pending = enc.state, len(enc.log), enc.pending
    assert enc.check(action) is not None
    with pytest.raises(IllegalAction) as info:
        enc.act(action)
    assert enc.state is before and len(enc.log) == length and enc.pending is pending
    return str(info.value)


def attacks(events: Iterable[ev.Event]) -> list[ev.AttackResolved]:
    return [e for e in events if isinstance(e, ev.AttackResolved)]


def damage(events: Iterable[ev.Event]) -> list[ev.Damaged]:
    return [e for e in events if isinstance(e, ev.Damaged)]


def notes(events: Iterable[ev.Event]) -> list[str]:
    return [e.text for e in events if isinstance(e, ev.Note)]


def text(events: Iterable[ev.Event]) -> str:
    return "\n".join(e.explain() for e in events)


def end_turns(enc: Encounter, n: int = 1) -> list[ev.Event]:
    from d20combat.encounter.actions import EndTurn

    out: list[ev.Event] = []
    for _ in range(n):
        out += resolve(enc, EndTurn())
    return out
