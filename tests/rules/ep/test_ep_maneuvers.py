"""Epic Path's combat maneuvers (EP-MAN-01..06)."""

from __future__ import annotations

import pytest
from tests.rules.ep._util import assert_illegal, ep, stats, texts

from d20combat.encounter import actions as ax
from d20combat.encounter.engine import Encounter
from d20combat.rulesets.epic_path.maneuvers import Maneuver, maneuver_table
from d20combat.rulesets.epic_path.melee import FightDefensively, FullAttack
from d20combat.rulesets.epic_path.stances import StartStance

BRUTE = stats("brute", attack_bonus=4, abilities={"str": 16}, attacks=[{"weapon": "club"}])
"""Maneuver Offense (pf1) = BAB 4 + Str 3 = +7."""
DUMMY = stats("dummy", attack_bonus=2, abilities={"str": 12, "dex": 14}, attacks=[{"weapon": "club"}],
              armor={"name": "mail", "armor_bonus": 4})
"""Maneuver Defense (pf1) = 10 + BAB 2 + Str 1 + Dex 2 = 15; AC 16."""


def duel(dice: list[int], variants: dict[str, object] | None = None, **kw: object) -> Encounter:
    return ep([{"id": "b", "side": "a", "stats": BRUTE, "position": [2, 2]},
               {"id": "d", "side": "b", "stats": DUMMY, "position": [3, 2], **kw}], dice=dice, variants=variants)


@pytest.mark.parametrize(("face", "ok"), [(8, True), (7, False)])
def test_ep_man_01_maneuver_offense_against_maneuver_defense(face: int, ok: bool) -> None:
    """EP-MAN-01 (formulas MISSING, data file's default pf1): d20 + BAB + Str + size against 10 + BAB + Str + Dex +
    size; a trip that succeeds knocks the target prone, and the margin is the degree of success."""
    enc = duel([face])
    events = enc.act(Maneuver("d", "trip"))
    assert f"Maneuver Offense {face + 7} = d20 {face} + BAB 4 + Str 3 vs Maneuver Defense 15" in texts(events)
    assert enc.state.get("d").has("prone") is ok
    if ok:
        assert "succeeds by 0" in texts(events)


def test_ep_man_01_option_attack_bonus_against_ac() -> None:
    """EP-MAN-01, option ep_maneuver_formula = attack_bonus: the melee attack bonus against AC."""
    enc = duel([9], {"ep_maneuver_formula": "attack_bonus"})
    events = enc.act(Maneuver("d", "dirty trick"))
    assert "Maneuver Offense 16 = d20 9 + BAB 4 + Str 3 vs Maneuver Defense 16 = AC 16" in texts(events)
    assert "the GM applies the dirty trick's effect for a margin of 0" in texts(events)
    assert set(maneuver_table()["formulas"]) == {"pf1", "attack_bonus"}


def test_ep_man_02_a_standard_action_not_after_the_first_attack_of_a_full_attack() -> None:
    """EP-MAN-02, EP-ACT-11: a maneuver takes the standard action; in a full attack only the first attack may be
    one, so once the full attack has begun no maneuver."""
    enc = duel([1])
    enc.act(FullAttack("d"))
    assert_illegal(enc, Maneuver("d", "trip"), r"replace the first attack \(EP-MAN-02")
    spent = duel([1])
    spent.act(ax.Attack("d"))
    assert_illegal(spent, Maneuver("d", "trip"), "standard action")


def test_ep_man_05_no_maneuver_as_an_attack_of_opportunity() -> None:
    """EP-MAN-05, EP-AOO-17: the attack of opportunity offered is a basic melee attack or nothing."""
    enc = ep([{"id": "d", "side": "b", "stats": DUMMY, "position": [3, 2]},
              {"id": "b", "side": "a", "stats": BRUTE, "position": [2, 2]}])
    enc.act(ax.Move(to=(6, 2)))
    assert enc.pending is not None and enc.pending.prompt.options == ("attack", "decline")


def test_ep_man_06_no_maneuver_by_or_against_the_incorporeal() -> None:
    """EP-MAN-06: incorporeal creatures neither perform nor suffer maneuvers."""
    enc = duel([10], conditions=["incorporeal"])
    assert_illegal(enc, Maneuver("d", "trip"), r"incorporeal.*EP-MAN-06")


def test_ep_man_01_fighting_defensively_minus_4_and_trip_breaks_the_stance() -> None:
    """EP-DEF-02: −4 on all attacks, maneuvers too; EP-MISC-16: the tripped target's stance breaks."""
    enc = ep([{"id": "d", "side": "b", "stats": DUMMY, "position": [3, 2]},
              {"id": "b", "side": "a", "stats": BRUTE, "position": [2, 2]}], dice=[19],
             variants={"max_free_actions": 2})
    enc.act(StartStance("iron guard"))
    enc.act(ax.EndTurn())
    enc.act(FightDefensively())
    events = enc.act(Maneuver("d", "trip"))
    assert "d20 19 + BAB 4 + Str 3 − fighting defensively 4" in texts(events)
    enc.act(ax.EndTurn())
    assert enc.state.get("d").has("prone") and enc.state.get("d").effects == ()
    assert_illegal(enc, Maneuver("b", "juggle"), "unknown maneuver")
