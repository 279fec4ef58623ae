"""Speed by race (WOA-STAT-54..57): what the rules give a stat block that does not state its speed.

- dwarves, gnomes and halflings 20 ft; humans, elves, half-elves, half-orcs and most humanoid monsters 30 ft
  (WOA-STAT-54/57);
- encumbered: gnomes and halflings 15 ft, the 30-ft races 20 ft, dwarves still 20 ft (WOA-STAT-55..57).
"Encumbered by weight" needs a load the stat blocks do not carry (Carrying & Encumbrance is not in the seed): the
reading here is medium or heavy armor (3.5's armor speed, the same numbers) or the sheet's attribute
``encumbered: 1`` (a heavy load the GM sets). A load is slowed by the movement component after the other speed
modifiers (WOA-MOVE-08, :mod:`.encumbrance`): the sheet keeps the race's unloaded speed (``speed_unloaded_ft``) for
it to count from.
"""

from __future__ import annotations

from typing import Any

from d20combat.model.statblock import StatBlock
from d20combat.rulesets.components import CoreSheets
from d20combat.rulesets.worlds_of_adventure.encumbrance import UNLOADED, armor_encumbers, heavy_load

SPEEDS: dict[str, tuple[int, int]] = {
    "dwarf": (20, 20),
    "gnome": (20, 15),
    "halfling": (20, 15),
}
"""WOA-STAT-54..56: (speed, speed when encumbered) of the slow races."""
DEFAULT_SPEED = (30, 20)
"""WOA-STAT-57: humans, elves, half-elves, half-orcs, most humanoid monsters."""


def encumbered(sheet: StatBlock) -> bool:
    """Medium or heavy armor, or a load the GM marks (``attributes: {encumbered: 1}``)."""
    return heavy_load(sheet) or armor_encumbers(sheet)


def woa_speed_ft(sheet: StatBlock) -> int:
    """WOA-STAT-54..57: the base land speed of a sheet without its own."""
    normal, loaded = SPEEDS.get(sheet.race.strip().lower(), DEFAULT_SPEED)
    return loaded if encumbered(sheet) else normal


class WoaSheets(CoreSheets):
    """WOA-STAT-54..57: a stat block without ``speed_ft`` moves at its race's speed."""

    def complete_sheet(self, sheet: Any) -> Any:
        block: StatBlock = sheet
        if block.speed_ft is not None:
            return block
        update: dict[str, Any] = {"speed_ft": woa_speed_ft(block)}
        if heavy_load(block) and not armor_encumbers(block):  # WOA-MOVE-08: the load is slowed after the modifiers
            normal = SPEEDS.get(block.race.strip().lower(), DEFAULT_SPEED)[0]
            update["attributes"] = {**block.attributes, UNLOADED: normal}
        return block.model_copy(update=update)
