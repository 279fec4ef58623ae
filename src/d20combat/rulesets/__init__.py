"""Rulesets: named compositions of policy components. ``get_ruleset(id, options)`` is the only lookup;
``register_ruleset`` adds one (see ``docs/design-notes.md``, "How to add a ruleset")."""

from __future__ import annotations

from typing import Any

from d20combat.rulesets.base import Policies, Ruleset, TurnAllowance
from d20combat.rulesets.epic_path import EpicPath
from d20combat.rulesets.off_guard import OffGuard
from d20combat.rulesets.pathfinder_beginner import PathfinderBeginner, PfbOptions
from d20combat.rulesets.skill_based import SkillBased
from d20combat.rulesets.worlds_of_adventure import WorldsOfAdventure

RULESETS: dict[str, type[Ruleset]] = {cls.id: cls for cls in (PathfinderBeginner, SkillBased, OffGuard, EpicPath,
                                                              WorldsOfAdventure)}


def register_ruleset(cls: type[Ruleset]) -> type[Ruleset]:
    """Make a ruleset known to scenarios (``ruleset: <id>``), the CLI and the server; usable as a decorator.
    Registering a different class under a taken id is an error."""
    known = RULESETS.get(cls.id)
    if known is not None and known is not cls:
        raise ValueError(f"ruleset id {cls.id!r} is already taken by {known.__qualname__}")
    RULESETS[cls.id] = cls
    return cls


def get_ruleset(ruleset_id: str, options: dict[str, Any] | None = None) -> Ruleset:
    try:
        cls = RULESETS[ruleset_id]
    except KeyError:
        raise ValueError(f"unknown ruleset {ruleset_id!r}; known: {', '.join(sorted(RULESETS))}") from None
    return cls(options)


__all__ = ["RULESETS", "EpicPath", "PathfinderBeginner", "PfbOptions", "Policies", "Ruleset", "TurnAllowance",
           "get_ruleset", "register_ruleset"]
