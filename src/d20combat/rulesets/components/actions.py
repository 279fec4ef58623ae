"""A ruleset's actions: the kinds it adds to the core's (each naming its handler), the core kinds it does
not have, and the dynamic veto. The engine dispatches core and ruleset actions alike through
:class:`d20combat.encounter.registry.ActionRegistry`."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from d20combat.encounter.actions import Action
from d20combat.rulesets.components.component import Component, View

Handler = Callable[[Any, Any, str, Any, bool], None]
"""``handler(engine, tx, actor, action, dry)``: resolve ``action`` on the working copy ``tx`` (``dry``: only
check that it is legal — raise, roll nothing, emit nothing)."""


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One kind of action and the function that resolves it."""

    type: type[Action]
    handler: Handler

    @property
    def kind(self) -> str:
        return self.type.kind


class ActionSet(Component):
    """The core's actions only: PFB adds none and removes none."""

    def __init__(self, own: Iterable[ActionSpec] = (), vetoes: Iterable[str] = ()) -> None:
        self.own: tuple[ActionSpec, ...] = tuple(own)
        """The ruleset's own actions (coup de grace, feint, reserve…)."""
        self.vetoes: frozenset[str] = frozenset(vetoes)
        """Core action kinds this ruleset does not have at all."""

    def types(self) -> tuple[type[Action], ...]:
        """The ruleset's own action types (for ``action_from_dict``)."""
        return tuple(spec.type for spec in self.own)

    def forbidden(self, view: View, actor: str, action: Any) -> str | None:
        """Why this ruleset has no such action now (e.g. a panicked creature may not approach), or None.
        Checked before anything else."""
        return None

    def candidates(self, enc: Any, actor: str) -> list[Any]:
        """The ruleset's own actions worth offering now (the engine keeps the legal ones for ``legal_actions``)."""
        return []
