"""Builders for the combat-reaction and attack-of-opportunity tests (WOA-REACT, WOA-AOO)."""

from __future__ import annotations

from typing import Any

from tests.rules._builders import stats
from tests.rules.woa._util import declare_all, who, woa

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.encounter.prompts import ReactionPrompt


def fighter(name: str, *, warrior: int = 0, rogue: int = 0, bab: int = 0, weapon: str | None = "longsword",
            hp: int = 30, **kw: Any) -> dict[str, Any]:
    """Initiative +0; ``warrior``/``rogue`` levels as the stat block's attributes."""
    attrs = {k: v for k, v in (("warrior_level", warrior), ("rogue_level", rogue)) if v} | kw.pop("attributes", {})
    block = stats(name, hp=hp, attack_bonus=bab, saves={"ref": 0}, attributes=attrs,
                  attacks=[{"weapon": weapon}] if weapon else [{"weapon": "longsword"}], **kw)
    if weapon:
        block["wielding"] = weapon
    return block


def orc(name: str = "orc", **kw: Any) -> dict[str, Any]:
    """Club 1d6 at +3, initiative +0, 10 hp."""
    kw.setdefault("bab", 3)
    kw.setdefault("weapon", "club")
    kw.setdefault("hp", 10)
    return fighter(name, **kw)


def fight(combatants: list[dict[str, Any]], dice: list[int], **kw: Any) -> Encounter:
    return woa(combatants, dice, **kw)


def hero_vs_orc(hero: dict[str, Any], dice: list[int], *, orc_block: dict[str, Any] | None = None,
                extra: list[dict[str, Any]] | None = None, hero_extra: dict[str, Any] | None = None,
                **kw: Any) -> Encounter:
    """hero at (2,2), orc at (3,2); ``dice`` start with the initiative (hero's, then the monsters')."""
    return fight([who("hero", hero, "heroes", (2, 2), **(hero_extra or {})),
                  who("orc", orc_block or orc(), "monsters", (3, 2)),
                  *(extra or [])], dice, **kw)


def orc_first(enc: Encounter, *declarations: ax.Declare) -> None:
    """Everyone declares (the orc an attack on hero unless given); the dice make the orc act first."""
    given = list(declarations)
    if not given:
        given = [ax.Declare(), ax.Declare(standard="attack", target="hero")]
    declare_all(enc, *given)


def prompt(enc: Encounter) -> ReactionPrompt:
    assert enc.pending is not None, "no reaction asked"
    return enc.pending.prompt


def spent(events: list[ev.Event], who_: str | None = None) -> list[ev.ReactionSpent]:
    return [e for e in events if isinstance(e, ev.ReactionSpent) and (who_ is None or e.combatant == who_)]


def attack_line(events: list[ev.Event]) -> str:
    found = [e for e in events if isinstance(e, ev.AttackResolved)]
    assert found
    return "\n".join(found[-1].lines)


def left(enc: Encounter, cid: str) -> int:
    return enc.state.get(cid).reactions.get("reactions", 0)


def answer(enc: Encounter, **by_reactor: str) -> list[ev.Event]:
    """Answer every open prompt: ``by_reactor[reactor]`` (or "none"/"decline"), then the action's events."""
    events: list[ev.Event] = []
    while enc.pending is not None:
        p = enc.pending.prompt
        default = "decline" if "decline" in p.options else "none"
        events = enc.respond(by_reactor.get(p.reactor, default))
    return events
