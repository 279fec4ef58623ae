"""WOA-MOVE's actions as one group of the ``actions`` policy: the short step (the core's ``step`` kind, WOA's rules),
running, the postures (``drop_prone``, ``crouch``, ``get_up`` — and the core's ``stand_up``, ruled as ``get_up`` to
standing —, ``quick_stand``, ``crawl``), the rest after
running to the limit (WOA-MOVE-23), and a monk's ki point spent on an extra move action (WOA-MOVE-13)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.rulesets.components import ActionSet, RuleError, View
from d20combat.rulesets.components.actions import ActionSpec
from d20combat.rulesets.worlds_of_adventure.evasive import EvasiveMove, do_evasive_move
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

if TYPE_CHECKING:
    from d20combat.encounter.engine import Encounter, Tx

KI = "ki"
"""The off-turn pool of a monk's ki points, kept from round to round (the sheet's ``attributes: {ki_points: N}``)."""

KI_MOVE = "spent a ki point on an extra move action this round"


@dataclass(frozen=True, slots=True)
class SpendKi(ax.Action):
    """A monk spends a ki point for an extra move action this round (WOA-MOVE-13)."""

    kind: ClassVar[str] = "spend_ki"

    def label(self, name: Callable[[str], str] = str) -> str:
        return "Spend a ki point: an extra move action"


def do_spend_ki(enc: Encounter, tx: Tx, actor: str, a: SpendKi, dry: bool) -> None:
    """WOA-MOVE-13: one ki point → one extra move action, once a round."""
    cs = tx.state.get(actor)
    left = cs.reactions.get(KI, 0)
    if left < 1:
        raise RuleError(f"spend ki: {actor} has no ki point left (the sheet's attributes.ki_points, WOA-MOVE-13)")
    if any(e.name == KI_MOVE for e in cs.effects):
        raise RuleError("spend ki: one extra move action a round (WOA-MOVE-13)")
    enc.pay(tx, actor, "spend a ki point", "none", dry)
    if dry:
        return
    tx.emit(ev.ReactionSpent(actor, KI, f"spends a ki point: an extra move action this round (WOA-MOVE-13); "
                                        f"{left - 1} left"))
    tx.emit(ev.BudgetSpent(actor, "ki point: an extra move action (WOA-MOVE-13)", "none", {"move": -1}))
    tx.emit(ev.EffectAdded(actor, KI_MOVE, actor, tx.state.round + 1))


class WoaMoveActions(ActionSet):
    """WOA-MOVE-02/17..47 (see :mod:`.movement`, :mod:`.run`, :mod:`.postures`)."""

    def __init__(self) -> None:
        super().__init__([ActionSpec(ax.Step, do_short_step), ActionSpec(Run, do_run),
                          ActionSpec(ax.DropProne, do_drop_prone), ActionSpec(Crouch, do_crouch),
                          ActionSpec(GetUp, do_get_up), ActionSpec(ax.StandUp, do_get_up),
                          ActionSpec(QuickStand, do_quick_stand),
                          ActionSpec(Crawl, do_crawl), ActionSpec(SpendKi, do_spend_ki),
                          ActionSpec(EvasiveMove, do_evasive_move)])  # WOA-AOO-25

    def forbidden(self, view: View, actor: str, action: Any) -> str | None:
        return resting_problem(view, actor, action)

    def candidates(self, enc: Any, actor: str) -> list[Any]:
        """Getting up: the core offers ``stand_up`` (to standing, ruled by :func:`do_get_up`); from prone, WOA adds the
        rise into a crouch (``get_up`` to crouching, WOA-MOVE-35)."""
        return [GetUp(to="crouching")] if enc.state.get(actor).has("prone") else []
