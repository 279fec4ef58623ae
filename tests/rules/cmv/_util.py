"""Builders for the off-guard ruleset tests: the shared ones (``tests/rules/_builders.py``) and an off-guard
encounter."""

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
from d20combat.rulesets.off_guard import OffGuard


def cmv(combatants: list[dict[str, Any]], dice: Iterable[int] = (), **kw: Any) -> Encounter:
    """An off-guard encounter (``encounter``'s keywords: rows, width, height, variants, start, map_extra…)."""
    return encounter("off-guard", combatants, dice, **kw)


def ruleset(enc: Encounter) -> OffGuard:
    assert isinstance(enc.ruleset, OffGuard)
    return enc.ruleset


__all__ = ["FIGHTER", "ac", "armored", "assert_illegal", "bonus", "cmv", "conditions", "remaining", "resolved",
           "ruleset", "stats", "texts"]
