"""One registry of actions: every kind of action the encounter knows names the function that resolves it.

The core's actions are declared here; a ruleset contributes its own through its composition
(``ruleset.actions.own``) and removes core kinds it does not have (``ruleset.actions.vetoes``). Core and
ruleset actions are dispatched the same way, and two rulesets may each define an action of the same kind
name: an encounter's registry holds its own ruleset's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from d20combat.encounter import actions as ax
from d20combat.encounter import attack_actions as attack
from d20combat.encounter import equipment_actions as equipment
from d20combat.encounter import events as ev
from d20combat.encounter import movement_actions as movement
from d20combat.encounter.core import EncounterCore
from d20combat.encounter.gm_actions import GM_ACTION_TYPES
from d20combat.encounter.resolution import IllegalAction, Tx
from d20combat.rulesets.base import Ruleset
from d20combat.rulesets.components import ActionSpec, Handler


def end_turn(enc: EncounterCore, tx: Tx, actor: str, a: ax.EndTurn, dry: bool) -> None:
    """PFB-ACT-09: the turn ends; what is left of it is lost."""
    if dry:
        return
    enc.ruleset.end_of_turn(tx, actor)
    tx.emit(ev.TurnEnded(actor))
    enc._advance(tx)


CORE_ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(ax.Move, movement.do_move),
    ActionSpec(ax.Step, movement.do_step),
    ActionSpec(ax.MinimumMove, movement.do_minimum_move),
    ActionSpec(ax.ClimbOrSwim, movement.do_climb_or_swim),
    ActionSpec(ax.Charge, movement.do_charge),
    ActionSpec(ax.Attack, attack.do_attack),
    ActionSpec(ax.Draw, equipment.do_draw),
    ActionSpec(ax.Sheathe, equipment.do_sheathe),
    ActionSpec(ax.ShieldAction, equipment.do_shield),
    ActionSpec(ax.DropItem, equipment.do_drop_item),
    ActionSpec(ax.DropProne, equipment.do_drop_prone),
    ActionSpec(ax.StandUp, equipment.do_stand_up),
    ActionSpec(ax.Reload, equipment.do_reload),
    ActionSpec(ax.Activity, equipment.do_activity),
    ActionSpec(ax.EndTurn, end_turn),
)
"""The core's actions (PFB-ACT, PFB-MOVE, PFB-ATK, PFB-CHG, PFB-ITEM), each with its handler."""


class ActionRegistry:
    """The actions of one ruleset: the core's less its vetoes, plus its own (which win a shared kind)."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset_id = ruleset.id
        specs = {s.kind: s for s in CORE_ACTIONS if s.kind not in ruleset.actions.vetoes}
        for spec in ruleset.actions.own:
            specs[spec.kind] = spec
        self.specs: Mapping[str, ActionSpec] = specs

    def handler(self, action: ax.Action) -> Handler:
        """The function that resolves ``action``; :class:`IllegalAction` if this ruleset has no such action — its
        kind unknown here, or an action of another ruleset that shares a kind name (each ruleset's
        ``cast_spell`` has its own fields)."""
        kind = getattr(action, "kind", None)
        spec = self.specs.get(kind) if isinstance(kind, str) else None
        if spec is None or not isinstance(action, spec.type):
            raise IllegalAction(f"{_name(action)} is not an action of the ruleset {self.ruleset_id}")
        return spec.handler

    def types(self) -> tuple[type[ax.Action], ...]:
        return tuple(s.type for s in self.specs.values())

    def from_dict(self, data: Mapping[str, Any]) -> ax.Action:
        """Build one of this registry's actions from JSON-like data; :class:`ax.ActionFormatError` (a ``ValueError``)
        names the field."""
        if not isinstance(data, Mapping):
            raise ax.ActionFormatError(f"an action is an object with a 'kind', not {type(data).__name__}")
        return ax.action_from_dict(dict(data), (*GM_ACTION_TYPES, *self.types()))


def _name(action: object) -> str:
    """``cast_spell (skill-based)``: an action's kind and whose it is — the core's, a shipped ruleset's (named by its
    package under ``d20combat.rulesets``, ``skill_based`` → ``skill-based``), or its class. The rulesets' registry
    is not consulted: the rulesets import the encounter, not the other way."""
    cls = type(action)
    kind = getattr(action, "kind", None)
    if not isinstance(action, ax.Action) or not isinstance(kind, str):
        return f"{cls.__qualname__} (not an action)"
    if cls.__module__ == ax.__name__:
        return kind
    parts = cls.__module__.split(".")
    if parts[:2] == ["d20combat", "rulesets"] and len(parts) > 2 and parts[2] != "components":
        return f"{kind} ({parts[2].replace('_', '-')})"
    return f"{kind} ({cls.__module__}.{cls.__qualname__})"
