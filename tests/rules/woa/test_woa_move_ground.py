"""WOA-MOVE: the preconditions the short step and the run share (``ground_move_start``), each action refusing with
its own rule's words."""

from __future__ import annotations

import pytest
from tests.rules._builders import stats
from tests.rules.woa._util import declare_all
from tests.rules.woa.test_woa_move import moved, solo

from d20combat.encounter import actions as ax
from d20combat.encounter.engine import IllegalAction
from d20combat.rulesets.worlds_of_adventure.run import Run


@pytest.mark.parametrize(("action", "declared", "message"), [
    (ax.Step((2, 1)), ax.Declare(), r"short step: hero is prone; crawl or get up first \(WOA-MOVE-46\)"),
    (Run(to=(5, 1)), ax.Declare(full_round="run"), r"run: hero is prone; get up first .*WOA-MOVE-46"),
])
def test_woa_move_46_a_prone_creature_neither_steps_nor_runs(action: ax.Action, declared: ax.Declare,
                                                             message: str) -> None:
    """WOA-MOVE-46: prone, a creature crawls; each action says so in its own words, and nothing changes."""
    enc = solo(conditions=("prone",))
    declare_all(enc, declared)
    before = enc.state
    with pytest.raises(IllegalAction, match=message):
        enc.act(action)
    assert enc.state is before


@pytest.mark.parametrize(("action", "declared", "rule"), [
    (ax.Step((2, 1)), ax.Declare(), "WOA-MOVE-33"),
    (Run(to=(5, 1)), ax.Declare(full_round="run"), "WOA-MOVE-24"),
])
def test_woa_move_24_and_33_no_ground_movement_without_a_listed_land_speed(action: ax.Action, declared: ax.Declare,
                                                                          rule: str) -> None:
    """WOA-MOVE-24/33: a creature that only flies neither steps nor runs; each refusal cites its own rule."""
    bat = stats("bat", hp=5, speed_ft=0, fly_speed_ft=40, attacks=[{"weapon": "club"}])
    enc = solo(hero=bat)
    declare_all(enc, declared)
    with pytest.raises(IllegalAction, match=rule):
        enc.act(action)


def test_woa_move_32_a_flyer_steps_on_its_land_speed() -> None:
    """WOA-MOVE-32/33: a flyer steps on the ground, so its land speed (5 ft), not its fly speed (60 ft), is held
    against its 10-ft step; with land speed 10 the same step is taken."""
    slow = stats("flyer", hp=10, reach_ft=10, speed_ft=5, fly_speed_ft=60, attacks=[{"weapon": "club"}])
    enc = solo(hero=slow)
    declare_all(enc)
    with pytest.raises(IllegalAction, match=r"speed 5 ft is lower than the 10-ft step \(WOA-MOVE-32\)"):
        enc.act(ax.Step((3, 1)))
    enc2 = solo(hero={**slow, "speed_ft": 10})
    declare_all(enc2)
    enc2.act(ax.Step((3, 1)))
    assert moved(enc2)[-1].cost_ft == 10


@pytest.mark.parametrize(("action", "declared"), [
    (ax.Step((-1, 1)), ax.Declare()),
    (Run(to=(40, 1)), ax.Declare(full_round="run")),
])
def test_woa_move_17_and_27_a_destination_off_the_map_is_named(action: ax.Action, declared: ax.Declare) -> None:
    """WOA-MOVE-17/27: the square off the map is named, by the action refusing it."""
    enc = solo()
    declare_all(enc, declared)
    name = "short step" if isinstance(action, ax.Step) else "run"
    with pytest.raises(IllegalAction, match=rf"{name}: \(-?\d+, 1\) is off the map"):
        enc.act(action)
