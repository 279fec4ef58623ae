"""P18 concealment under the skill-based rules: the text has none (rules-diff P18; variant ``skl_concealment``)."""

from __future__ import annotations

from collections.abc import Sequence

from d20combat.battlefield.concealment import ConcealmentSource
from d20combat.rulesets.components import StrongestConcealment


class NoConcealment(StrongestConcealment):
    """SKL has no concealment (rules-diff P18): whatever the sources, no miss chance. ``skl_concealment``
    composes PFB's :class:`StrongestConcealment` (d% before the roll) instead."""

    def combine(self, sources: Sequence[ConcealmentSource]) -> tuple[int, str]:
        return 0, ""
