"""Several rule areas' actions as one ``actions`` component.

A ruleset whose text adds actions in many chapters (Epic Path: the severable full attack and total defense,
aid another and the coup de grace, spot and grope, assist) keeps each chapter's actions in its own small
:class:`~d20combat.rulesets.components.actions.ActionSet` and composes them here: their own kinds and vetoes
are pooled, an action is forbidden if any group forbids it (the first reason is given), the candidates are
every group's, and the round hooks run on every group that takes part in them, in the order given.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from d20combat.rulesets.components.actions import ActionSet
from d20combat.rulesets.components.component import AttackInfo, Component, View

if TYPE_CHECKING:
    from d20combat.rulesets.base import Ruleset


class ActionGroups(ActionSet):
    """The union of several :class:`ActionSet` groups (each a chapter's actions)."""

    def __init__(self, *groups: ActionSet) -> None:
        kinds = [spec.kind for g in groups for spec in g.own]
        clash = sorted({k for k in kinds if kinds.count(k) > 1})
        if clash:
            raise ValueError(f"action kinds given by more than one group: {', '.join(clash)}")
        super().__init__([spec for g in groups for spec in g.own], [v for g in groups for v in g.vetoes])
        self.groups: tuple[ActionSet, ...] = groups

    def bind(self, rules: Ruleset) -> None:
        super().bind(rules)
        for g in self.groups:
            g.bind(rules)

    def forbidden(self, view: View, actor: str, action: Any) -> str | None:
        for g in self.groups:
            reason = g.forbidden(view, actor, action)
            if reason is not None:
                return reason
        return None

    def candidates(self, enc: Any, actor: str) -> list[Any]:
        return [c for g in self.groups for c in g.candidates(enc, actor)]

    # --- round hooks: forwarded to the groups that override them ------------------------------------------------
    def _taking_part(self, hook: str) -> list[Any]:
        return [getattr(g, hook) for g in self.groups if getattr(type(g), hook) is not getattr(Component, hook)]

    def start_of_round(self, view: View, round_no: int) -> None:
        for hook in self._taking_part("start_of_round"):
            hook(view, round_no)

    def start_of_turn(self, view: View, actor: str) -> None:
        for hook in self._taking_part("start_of_turn"):
            hook(view, actor)

    def end_of_turn(self, view: View, actor: str) -> None:
        for hook in self._taking_part("end_of_turn"):
            hook(view, actor)

    def end_of_round(self, view: View, round_no: int) -> None:
        for hook in self._taking_part("end_of_round"):
            hook(view, round_no)

    def after_damage(self, view: View, target: str, amount: int, hp_before: int) -> None:
        for hook in self._taking_part("after_damage"):
            hook(view, target, amount, hp_before)

    def after_attack(self, view: View, attack: AttackInfo, hit: bool) -> None:
        for hook in self._taking_part("after_attack"):
            hook(view, attack, hit)
