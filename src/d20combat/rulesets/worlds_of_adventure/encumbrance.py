"""Encumbrance (WOA-MOVE-04/08, WOA-STAT-55..57): a heavy load slows a creature by the d20 load table, after every
other change to its speed.

Carrying & Encumbrance is MISSING from the seed and the stat blocks carry no weights, so the reading here is a
placeholder (``data/woa_encumbrance.yaml``, named in docs/worlds-of-adventure/actions-and-movement.md):

- a heavy load is the GM's mark on the sheet, ``attributes: {encumbered: 1}``;
- it slows by the table (30 → 20, 20 → 15 …), applied to the speed with every other modifier already in it
  (WOA-MOVE-08: "always apply any modifiers … before adjusting … based on encumbrance");
- dwarves are not slowed (WOA-STAT-56), nor a creature whose medium or heavy armor already gives it the race's
  encumbered speed (:func:`armor_encumbers`; armor and load do not stack);
- a heavy load also costs a barbarian its +10 ft (WOA-MOVE-06, in :class:`~.movement.WoaMovement`).
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from d20combat.model.catalog import default_catalog
from d20combat.model.statblock import Armor, StatBlock

LOAD = "encumbered"
"""The sheet attribute that marks a heavy load (``attributes: {encumbered: 1}``)."""
UNLOADED = "speed_unloaded_ft"
"""The sheet attribute :class:`~.sheets.WoaSheets` records when it gives a loaded creature its race's encumbered
speed: the race's speed without the load, from which the movement component counts (WOA-MOVE-08)."""


@lru_cache(maxsize=1)
def _table() -> tuple[dict[int, int], frozenset[str]]:
    data: Any = yaml.safe_load(resources.files("d20combat.data").joinpath("woa_encumbrance.yaml").read_text("utf-8"))
    return ({int(k): int(v) for k, v in data["reduced_speed"].items()},
            frozenset(str(r).lower() for r in data["not_slowed"]))


def heavy_load(sheet: StatBlock) -> bool:
    """Whether the GM marked the sheet with a heavy load (``attributes: {encumbered: N}``, N ≥ 1)."""
    return sheet.attributes.get(LOAD, 0) > 0


def armor_encumbers(sheet: StatBlock) -> bool:
    """Medium or heavy armor: the race's encumbered speed (WOA-STAT-55..57, read as 3.5's armor speed)."""
    armor = sheet.armor
    if isinstance(armor, str):
        armor = default_catalog().armor.get(armor)
    return isinstance(armor, Armor) and armor.category in ("medium", "heavy")


def slowed_by_load(sheet: StatBlock) -> bool:
    """A heavy load slows this creature: marked, not a dwarf (WOA-STAT-56), not already slowed by its armor."""
    return heavy_load(sheet) and not armor_encumbers(sheet) and sheet.race.strip().lower() not in _table()[1]


def loaded_speed(speed_ft: int) -> int:
    """WOA-MOVE-04 (the table of ``data/woa_encumbrance.yaml``): the speed under a heavy load."""
    if speed_ft <= 0:
        return max(speed_ft, 0)
    table = _table()[0]
    top = max(table)
    speed = speed_ft - speed_ft % 5
    if speed > top:
        steps = -(-(speed - top) // 30)  # every 30 ft above the table's top: 20 ft more
        return loaded_speed(speed - 30 * steps) + 20 * steps
    return table[speed] if speed else 0
