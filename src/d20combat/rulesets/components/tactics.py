"""P20 AI tactics: what a ruleset's own rules recommend to the tactical AI."""

from __future__ import annotations

from typing import Any

from d20combat.rulesets.components.component import Component


class CoreTactics(Component):
    """PFB: the tactical AI's core tactics are enough; nothing ruleset-specific to suggest."""

    def ai_suggestion(self, enc: Any, actor: str) -> Any:
        """An action this ruleset's own tactics recommend now (reserve, coup de grace…), or None.
        ``enc`` is the :class:`d20combat.encounter.engine.Encounter`; the AI checks the action's legality."""
        return None
