"""Builders for the epic-path ruleset tests: the shared ones (``tests/rules/_builders.py``) and an epic-path
encounter. Area-specific builders belong in the area's own test module, so that this file stays small."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tests.rules._builders import (
    FIGHTER,
    ac,
    armored,
    assert_illegal,
    bonus,
    conditions,
    encounter,
    remaining,
    resolved,
    stats,
    texts,
)

from d20combat.encounter.engine import Encounter
from d20combat.encounter.gm_actions import GmCondition
from d20combat.rulesets.epic_path import EpicPath


def ep(combatants: list[dict[str, Any]], dice: Iterable[int] = (), *, alert: bool = True, **kw: Any) -> Encounter:
    """An epic-path encounter (``encounter``'s keywords: rows, width, height, variants, start, map_extra…).
    ``alert``: a fight already under way — the GM lifts the Flat-Footed every creature starts with (EP-SURP-20)
    from all of them, so that a test of another rule is not also a test of the first round."""
    enc = encounter("epic-path", combatants, dice, **kw)
    if alert and kw.get("start", True):
        for cid, c in enc.state.combatants.items():
            if c.has("flat_footed"):
                enc.gm(GmCondition(cid, "flat_footed", present=False))
    return enc


def ruleset(enc: Encounter) -> EpicPath:
    assert isinstance(enc.ruleset, EpicPath)
    return enc.ruleset


__all__ = ["FIGHTER", "ac", "armored", "assert_illegal", "bonus", "conditions", "ep", "remaining", "resolved",
           "ruleset", "stats", "texts"]
