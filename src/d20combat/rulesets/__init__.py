"""Rulesets: named policy bundles. ``get_ruleset(id, options)`` is the only lookup."""

from __future__ import annotations

from typing import Any

from d20combat.rulesets.base import Ruleset, TurnAllowance
from d20combat.rulesets.off_guard import OffGuard
from d20combat.rulesets.pathfinder_beginner import PathfinderBeginner, PfbOptions
from d20combat.rulesets.skill_based import SkillBased

RULESETS: dict[str, type[Ruleset]] = {cls.id: cls for cls in (PathfinderBeginner, SkillBased, OffGuard)}


def get_ruleset(ruleset_id: str, options: dict[str, Any] | None = None) -> Ruleset:
    try:
        cls = RULESETS[ruleset_id]
    except KeyError:
        raise ValueError(f"unknown ruleset {ruleset_id!r}; known: {', '.join(sorted(RULESETS))}") from None
    return cls(options)


__all__ = ["RULESETS", "PathfinderBeginner", "PfbOptions", "Ruleset", "TurnAllowance", "get_ruleset"]
