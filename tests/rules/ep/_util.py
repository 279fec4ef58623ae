"""Builders shared by the epic-path ruleset tests (scenario format, forced dice). Area-specific builders belong in
the area's own test module (or ``_<area>_util.py``), so that this file stays shared and small."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest
from tests.conftest import make_encounter

from d20combat.dice import ScriptedDice
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.encounter.gm_actions import GmCondition
from d20combat.rulesets.epic_path import EpicPath
from d20combat.scenario import battle_from_data


def stats(name: str = "x", **kw: Any) -> dict[str, Any]:
    block: dict[str, Any] = {"name": name, "hp": 20}
    block.update(kw)
    return block


def armored(name: str, armor: int, dex: int = 10, **kw: Any) -> dict[str, Any]:
    """AC = 10 + armor + Dex modifier."""
    return stats(name, abilities={"dex": dex, **kw.pop("abilities", {})},
                 armor={"name": f"armor{armor}", "armor_bonus": armor}, attacks=kw.pop("attacks", [{"weapon": "club"}]),
                 **kw)


FIGHTER = stats("fighter", attack_bonus=5, attacks=[{"weapon": "club"}, {"weapon": "dagger-thrown"},
                                                    {"weapon": "longbow"}, {"weapon": "light-crossbow"}])
"""Melee +5 (Str 10), ranged +5 (Dex 10); club 1d6."""


def ep(combatants: list[dict[str, Any]], dice: Iterable[int] = (), *, rows: list[str] | None = None,
        width: int = 12, height: int = 12, variants: dict[str, Any] | None = None, start: bool = True,
        map_extra: dict[str, Any] | None = None, alert: bool = True, **extra: Any) -> Encounter:
    """An epic-path encounter; ``map_extra`` adds map fields (elevation, narrow, concealment…). ``alert``: a fight
    already under way — the GM lifts the Flat-Footed every creature starts with (EP-SURP-20) from all of them, so
    that a test of another rule is not also a test of the first round."""
    enc = _ep(combatants, dice, rows=rows, width=width, height=height, variants=variants, start=start,
              map_extra=map_extra, **extra)
    if alert and start:
        for cid, c in enc.state.combatants.items():
            if c.has("flat_footed"):
                enc.gm(GmCondition(cid, "flat_footed", present=False))
    return enc


def _ep(combatants: list[dict[str, Any]], dice: Iterable[int], *, rows: list[str] | None, width: int, height: int,
        variants: dict[str, Any] | None, start: bool, map_extra: dict[str, Any] | None, **extra: Any) -> Encounter:
    if not map_extra:
        return make_encounter(combatants, ruleset="epic-path", dice=dice, rows=rows, width=width, height=height,
                              variants=variants, start=start, **extra)
    for i, c in enumerate(combatants):
        c.setdefault("initiative", 100 - i)
    map_spec: dict[str, Any] = {"rows": rows} if rows is not None else {"width": width, "height": height}
    map_spec.update(map_extra)
    data = {"ruleset": "epic-path", "variants": variants or {}, "map": map_spec, "combatants": combatants, **extra}
    data.setdefault("surprise", {"surprised": []})
    enc = Encounter(battle_from_data(data), ScriptedDice(dice))
    if start:
        enc.start()
    return enc


def ruleset(enc: Encounter) -> EpicPath:
    assert isinstance(enc.ruleset, EpicPath)
    return enc.ruleset


def bonus(enc: Encounter, attacker: str, target: str, attack: str | None = None, **kw: Any) -> int:
    plan = enc.plan_attack(attacker, target, attack, **kw)
    return sum(m.value for m in plan.modifiers)


def ac(enc: Encounter, attacker: str, target: str, attack: str | None = None, **kw: Any) -> int:
    plan = enc.plan_attack(attacker, target, attack, **kw)
    return enc.target_ac(plan, enc.state)[0]


def resolved(events: list[ev.Event]) -> ev.AttackResolved:
    found = [e for e in events if isinstance(e, ev.AttackResolved)]
    assert len(found) == 1, found
    return found[0]


def texts(events: list[ev.Event]) -> str:
    return "\n".join(e.explain() for e in events)


def remaining(enc: Encounter) -> int:
    assert isinstance(enc.dice, ScriptedDice)
    return enc.dice.remaining


def conditions(enc: Encounter, cid: str) -> frozenset[str]:
    return ruleset(enc).conditions.active(enc.creature(cid), enc.state.get(cid))


def assert_illegal(enc: Encounter, action: ax.Action, match: str) -> None:
    """The action is refused with a message matching ``match`` and nothing changes."""
    before, log_len = enc.state, len(enc.log)
    assert enc.check(action) is not None
    with pytest.raises(IllegalAction, match=match):
        enc.act(action)
    assert enc.state is before and len(enc.log) == log_len
