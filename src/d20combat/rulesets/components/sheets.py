"""Stat blocks: what a ruleset requires of a sheet and what its rules give every creature."""

from __future__ import annotations

from typing import Any

from d20combat.rulesets.components.component import Component


class CoreSheets(Component):
    """PFB: any valid stat block plays as written."""

    def check_stat_block(self, sheet: Any) -> list[str]:
        """Problems that make a stat block unusable under this ruleset (e.g. missing skill ratings).
        ``sheet`` is a :class:`d20combat.model.StatBlock`."""
        return []

    def complete_sheet(self, sheet: Any) -> Any:
        """The stat block as this ruleset plays it, with what its rules give every creature added (SKL's
        unarmed strike). Called once per combatant, after :meth:`check_stat_block`."""
        return sheet
