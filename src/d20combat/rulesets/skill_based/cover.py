"""P17 cover under the skill-based rules: the text has none (rules-diff P17; variant ``skl_cover``: PFB's)."""

from __future__ import annotations

from d20combat.battlefield.cover import CoverFact
from d20combat.numbers import Modifier
from d20combat.rulesets.components import CornerCover


class NoCover(CornerCover):
    """SKL has no cover (rules-diff P17): the lines are still drawn, as for PFB, but cover adds nothing to
    Passive Defense. ``skl_cover`` composes PFB's :class:`CornerCover` instead."""

    def cover_modifier(self, fact: CoverFact) -> Modifier | None:
        return None
