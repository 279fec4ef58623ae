"""WOA-MOVE-04/08 (Carrying & Encumbrance MISSING; the placeholder of data/woa_encumbrance.yaml): a heavy load
(``attributes: {encumbered: 1}``) slows by the d20 load table, after every other speed modifier."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules._builders import stats
from tests.rules.woa._util import declare_all
from tests.rules.woa.test_woa_stat_saves_speed import one

from d20combat.encounter import actions as ax
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.rulesets.worlds_of_adventure.encumbrance import loaded_speed
from d20combat.rulesets.worlds_of_adventure.movement import WoaMovement

LOAD = {"encumbered": 1}


def hero(**kw: Any) -> dict[str, Any]:
    return stats("hero", attacks=[{"weapon": "club"}], **kw)


def speed(enc: Encounter) -> int:
    return enc.speed_ft("hero")


def explained(enc: Encounter) -> str:
    m = enc.ruleset.movement
    assert isinstance(m, WoaMovement)
    return m.speed_total(enc.creature("hero"), enc.state.get("hero")).explain()


@pytest.mark.parametrize(("unloaded", "loaded"), [
    (20, 15), (30, 20), (40, 30), (50, 35), (60, 40), (90, 60), (120, 80),   # the d20 table's rows
    (150, 100), (33, 20), (0, 0)])                                           # above its top; read down to 5 ft
def test_woa_move_04_the_load_table(unloaded: int, loaded: int) -> None:
    """WOA-MOVE-04 (the placeholder): 30 → 20, 20 → 15 …; every 30 ft above 120 adds 20; 33 ft reads as 30."""
    assert loaded_speed(unloaded) == loaded


def test_woa_move_04_a_heavy_load_slows_a_sheets_own_speed() -> None:
    """WOA-MOVE-04: a sheet stating 40 ft and marked with a heavy load moves 30 ft; one move action of 35 ft is
    refused, 30 ft taken."""
    enc = one(hero(speed_ft=40, attributes=LOAD))
    assert speed(enc) == 30 and "heavy load" in explained(enc)
    declare_all(enc, ax.Declare(move="move"))
    with pytest.raises(IllegalAction):
        enc.act(ax.Move(to=(8, 1)))
    enc.act(ax.Move(to=(7, 1)))
    assert one(hero(speed_ft=40)).speed_ft("hero") == 40  # the control: no load, no slowing


def test_woa_move_08_the_load_comes_after_the_other_modifiers() -> None:
    """WOA-MOVE-08: a loaded human (30 ft) with a +20 enhancement bonus moves (30 + 20 = 50) → 35 ft, not the
    loaded 20 + 20 = 40; the explanation counts from the unloaded 30."""
    enc = one(hero(race="human", attributes={**LOAD, "speed_bonus_enhancement": 20}))
    assert enc.creature("hero").land_speed_ft == 20  # WOA-STAT-57: the race's encumbered speed, as before
    assert speed(enc) == 35
    assert explained(enc).startswith("35 = base 30 + enhancement 20 − heavy load")


@pytest.mark.parametrize(("block", "expected"), [
    (hero(race="halfling", attributes=LOAD), 15),                       # WOA-STAT-55: 20 → 15
    (hero(race="dwarf", attributes=LOAD), 20),                          # WOA-STAT-56: dwarves are not slowed
    (hero(race="half-orc", armor="breastplate", attributes=LOAD), 20),  # armor already encumbers: not twice
    (hero(race="human", attributes=LOAD), 20),                          # WOA-STAT-57: 30 → 20
])
def test_woa_move_04_the_race_speeds_follow_the_table(block: dict[str, Any], expected: int) -> None:
    """WOA-MOVE-04, WOA-STAT-55..57: the table gives the races' encumbered speeds; a dwarf or a creature whose armor
    already slows it is not slowed again."""
    assert speed(one(block)) == expected


def test_woa_move_06_and_08_a_heavy_load_costs_the_barbarian_its_bonus() -> None:
    """WOA-MOVE-06: +10 ft unless in heavy armor or under a heavy load: a loaded human barbarian moves 30 → 20 ft
    (no +10), an unloaded one 40 ft."""
    assert speed(one(hero(race="human", attributes={"barbarian_level": 3}))) == 40
    assert speed(one(hero(race="human", attributes={"barbarian_level": 3, **LOAD}))) == 20
