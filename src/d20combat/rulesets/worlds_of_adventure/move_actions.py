"""WOA-MOVE's actions as one group of the ``actions`` policy: the short step (the core's ``step`` kind, WOA's rules),
running, the postures (``drop_prone``, ``crouch``, ``stand_up``, ``quick_stand``, ``crawl``), and the rest after
running to the limit (WOA-MOVE-23)."""

from __future__ import annotations

from typing import Any

from d20combat.encounter import actions as ax
from d20combat.rulesets.components import ActionSet, View
from d20combat.rulesets.components.actions import ActionSpec
from d20combat.rulesets.worlds_of_adventure.movement import do_short_step
from d20combat.rulesets.worlds_of_adventure.postures import (
    Crawl,
    Crouch,
    GetUp,
    QuickStand,
    do_crawl,
    do_crouch,
    do_drop_prone,
    do_get_up,
    do_quick_stand,
)
from d20combat.rulesets.worlds_of_adventure.run import Run, do_run, resting_problem


class WoaMoveActions(ActionSet):
    """WOA-MOVE-02/17..47 (see :mod:`.movement`, :mod:`.run`, :mod:`.postures`)."""

    def __init__(self) -> None:
        super().__init__([ActionSpec(ax.Step, do_short_step), ActionSpec(Run, do_run),
                          ActionSpec(ax.DropProne, do_drop_prone), ActionSpec(Crouch, do_crouch),
                          ActionSpec(GetUp, do_get_up), ActionSpec(QuickStand, do_quick_stand),
                          ActionSpec(Crawl, do_crawl)])

    def forbidden(self, view: View, actor: str, action: Any) -> str | None:
        return resting_problem(view, actor, action)

    def candidates(self, enc: Any, actor: str) -> list[Any]:
        """Getting up (the core offers its own ``StandUp``, which WOA's ``stand_up`` replaces)."""
        cs = enc.state.get(actor)
        return [GetUp()] if cs.has("prone") or cs.has("crouching") else []
