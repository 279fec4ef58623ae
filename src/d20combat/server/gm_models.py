"""The game master's writes on the wire (``POST /api/encounters/{id}/gm``): one model per write, chosen by
``kind``, generated from the engine's :mod:`d20combat.encounter.gm_actions` — except adding a creature, which
takes a scenario's combatant entry (a bestiary name or an inline stat block) instead of a compiled sheet."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from d20combat.encounter.gm_actions import GM_ACTION_TYPES, GmAddCreature
from d20combat.server.models import Dice, Version, _action_model, _In


class AddCreatureEdit(BaseModel):
    """Add a creature mid-fight (reinforcements): ``creature`` is written as a scenario's combatant entry — ``id``,
    ``side``, ``stats`` (a bestiary name or an inline stat block), ``position``; optional ``name``, ``hp``,
    ``initiative`` (rolled when absent), ``wielding``, ``sneaky``."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["gm_add_creature"]
    creature: dict[str, Any] = Field(max_length=20, description="a scenario combatant entry (see docs/scenarios.md)")


def _edit_union() -> Any:
    models: list[type[BaseModel]] = [_action_model(cls.kind, [cls], "Edit") for cls in GM_ACTION_TYPES
                                     if cls is not GmAddCreature]
    return Annotated[Union[(*models, AddCreatureEdit)], Field(discriminator="kind")]


if TYPE_CHECKING:
    Edit = BaseModel
else:
    Edit = _edit_union()


class GmIn(_In):
    edit: Edit = Field(description="the write: gm_damage, gm_heal, gm_set_hp, gm_condition, gm_effect, "
                                   "gm_end_effect, gm_add_creature, gm_remove_creature, gm_save, gm_check, "
                                   "gm_rule_declaration")
    dice: Dice = Field(default_factory=list)
    expected_version: Version
