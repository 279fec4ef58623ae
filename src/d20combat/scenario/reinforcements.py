"""A creature to add mid-fight, written as a scenario's combatant entry (issue 13: the GM's reinforcements).

:func:`creature_to_add` checks the entry as the scenario loader checks ``combatants[i]`` — the schema, a bestiary
name or an inline stat block, known equipment, starting conditions — and makes the engine's
:class:`~d20combat.encounter.gm_actions.GmAddCreature`, whose sheet is the complete stat block (so the write
replays without the bestiary it came from). Where the creature stands and whether the square is free is the
engine's question when it resolves the write.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from d20combat.encounter.gm_actions import GmAddCreature
from d20combat.model.catalog import Catalog, default_catalog
from d20combat.model.statblock import StatBlock
from d20combat.scenario.checks import bestiary_problem, equipment_problems
from d20combat.scenario.loader import ScenarioError, _path
from d20combat.scenario.schema import CombatantSpec


def creature_to_add(entry: Mapping[str, Any], catalog: Catalog | None = None, where: str = "creature"
                    ) -> GmAddCreature:
    """The write that adds the creature of one scenario combatant entry (``id``, ``side``, ``stats``,
    ``position``; optional ``name``, ``hp``, ``initiative``, ``wielding``, ``sneaky``). Raises
    :class:`ScenarioError` naming every problem by field (``creature.stats: no bestiary entry 'gobbo' — did you
    mean 'goblin'?``)."""
    catalog = catalog or default_catalog()
    try:
        spec = CombatantSpec.model_validate(dict(entry))
    except ValidationError as exc:
        raise ScenarioError([f"{where}.{_path(e['loc'])}: {e['msg']}" for e in exc.errors()], where) from None
    problems: list[str] = []
    if spec.count != 1 or spec.positions:
        problems.append(f"{where}.count: add one creature at a time (with its position)")
    if spec.position is None:
        problems.append(f"{where}.position: where the creature stands is needed")
    if spec.conditions:
        problems.append(f"{where}.conditions: add conditions after the creature has joined")
    sheet: StatBlock | None = None
    if isinstance(spec.stats, str):
        if spec.stats in catalog.bestiary:
            sheet = catalog.bestiary[spec.stats]
        else:
            problems.append(bestiary_problem(f"{where}.stats", spec.stats, catalog))
    else:
        sheet = spec.stats
    if sheet is not None:
        problems.extend(equipment_problems(f"{where}.stats", sheet, catalog))
    if problems or sheet is None or spec.position is None:
        raise ScenarioError(problems, where)
    return GmAddCreature(
        combatant=spec.id, side=spec.side, sheet=sheet.model_dump(mode="json", by_alias=True, exclude_defaults=True),
        position=(spec.position[0], spec.position[1]), name=spec.name, hp=spec.hp, initiative=spec.initiative,
        wielding=spec.wielding, sneaky=spec.sneaky)
