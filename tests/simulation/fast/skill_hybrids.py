"""Hybrid rulesets for the kernel's skill-based component tests: Pathfinder Beginner's composition with some areas
taken from the skill-based ruleset's own composition, both rulesets' options as variants (the way
:mod:`tests.simulation.fast.hybrids` does it for off-guard; its shared replay compares the engines)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from d20combat.rulesets import RULESETS
from d20combat.rulesets.base import Policies
from d20combat.rulesets.components import Component
from d20combat.rulesets.pathfinder_beginner import PathfinderBeginner, PfbOptions
from d20combat.rulesets.skill_based import SkillBased, SkillBasedOptions


class SkillHybridOptions(PfbOptions, SkillBasedOptions):
    """Both rulesets' options; ``hybrid_areas``: the areas skill-based's composition supplies."""

    hybrid_areas: tuple[str, ...] = ()


class SkillHybridPathfinder(PathfinderBeginner):
    """Pathfinder Beginner with the ``hybrid_areas`` of skill-based."""

    id = "test-pfb-skill-based-hybrid"
    Options = SkillHybridOptions

    @classmethod
    def compose(cls, options: Any) -> Policies:
        o: SkillHybridOptions = options
        skl = SkillBasedOptions(**{name: getattr(o, name) for name in SkillBasedOptions.model_fields})
        theirs = SkillBased.compose(skl)
        return super().compose(options).replace(**{area: getattr(theirs, area) for area in o.hybrid_areas})

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        super().__init__(options)
        for _area, component in self.components():  # skill-based's siblings a taken area asks (BlockAndDodge
            for sibling in vars(component).values():  # asks its reactions who is engaged) answer for this ruleset
                if isinstance(sibling, Component) and not hasattr(sibling, "rules"):
                    sibling.bind(self)


def register() -> Iterator[None]:
    """A fixture body: the hybrid is a registered ruleset while a test runs."""
    RULESETS[SkillHybridPathfinder.id] = SkillHybridPathfinder
    yield
    del RULESETS[SkillHybridPathfinder.id]


DARK = "dDD"


def skill_hybrid(data: dict[str, Any], areas: Sequence[str], variants: dict[str, Any], rnd: random.Random | None = None,
                 dark: bool = False) -> dict[str, Any]:
    """``data`` under the hybrid with these areas and variants (starting conditions dropped: the kernel has
    none); ``dark``: a quarter of the plain floor dim or dark (concealment, total concealment on many lines)."""
    keep = {name: value for name, value in data.get("variants", {}).items() if name in PfbOptions.model_fields}
    out = {**data, "ruleset": SkillHybridPathfinder.id,
           "variants": {**keep, **variants, "hybrid_areas": list(areas)},
           "combatants": [{key: v for key, v in c.items() if key != "conditions"} for c in data["combatants"]]}
    rows = data.get("map", {}).get("rows")
    if dark and rows and rnd is not None:
        out["map"] = {**data["map"], "rows": ["".join(rnd.choice(DARK) if ch == "." and rnd.random() < 0.25 else ch
                                                      for ch in row) for row in rows]}
    return out
