"""ActionGroups: several chapters' actions composed as one ``actions`` component."""

from __future__ import annotations

from typing import Any

import pytest

from d20combat.rulesets.components import ActionSet
from d20combat.rulesets.components.action_groups import ActionGroups
from d20combat.rulesets.components.actions import ActionSpec
from d20combat.rulesets.components.component import View
from d20combat.rulesets.off_guard.actions import CoupDeGrace, Escape


def _noop(engine: Any, tx: Any, actor: str, action: Any, dry: bool) -> None:
    return None


class Vetoing(ActionSet):
    def __init__(self, reason: str | None, own: list[ActionSpec]) -> None:
        super().__init__(own, vetoes=["step"] if reason else [])
        self.reason = reason
        self.turns: list[str] = []

    def forbidden(self, view: View, actor: str, action: Any) -> str | None:
        return self.reason

    def candidates(self, enc: Any, actor: str) -> list[Any]:
        return [f"{self.reason}:{actor}"]

    def start_of_turn(self, view: View, actor: str) -> None:
        self.turns.append(actor)


def test_groups_pool_kinds_vetoes_reasons_candidates_and_hooks() -> None:
    a = Vetoing(None, [ActionSpec(CoupDeGrace, _noop)])
    b = Vetoing("rattled", [ActionSpec(Escape, _noop)])
    plain = ActionSet()
    groups = ActionGroups(a, plain, b)
    assert groups.types() == (CoupDeGrace, Escape)
    assert groups.vetoes == frozenset({"step"})
    view: Any = object()
    assert groups.forbidden(view, "x", None) == "rattled"
    assert ActionGroups(a, plain).forbidden(view, "x", None) is None
    assert groups.candidates(None, "x") == ["None:x", "rattled:x"]
    groups.start_of_turn(view, "x")
    assert a.turns == ["x"] and b.turns == ["x"]


def test_a_kind_given_twice_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="coup_de_grace"):
        ActionGroups(ActionSet([ActionSpec(CoupDeGrace, _noop)]), ActionSet([ActionSpec(CoupDeGrace, _noop)]))
