"""Epic Path's Assist on skill checks (EP-MISC-06..14): a standard action against the Easy DC of the main check's
CR (data/ep_dc_ladder.yaml: Easy = 10 + CR), +2 or −1 circumstance to the ally, stacking, at most 5 assistants,
ranks for trained-only and epic uses, provoking when the use provokes."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.ep._util import FIGHTER, assert_illegal, ep, stats, texts

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.gm_actions import GmCheck
from d20combat.numbers import Modifier, total
from d20combat.rulesets.epic_path import Assist
from d20combat.rulesets.epic_path.assist import ep_stacking, ladder_dc

SNEAK = stats("sneak", skills={"stealth": 4}, attacks=[{"weapon": "club"}])
"""Stealth +4 (trained)."""


def party(*helpers: dict[str, Any], dice=(), variants=None) -> Any:
    """h1 (first to act) helps t; the foe stands far away."""
    people = [{"id": f"h{i + 1}", "side": "h", "stats": SNEAK, "position": [0, i + 1], **h} for i, h in
              enumerate(helpers)]
    return ep([*people, {"id": "t", "side": "h", "stats": SNEAK, "position": [1, 2]},
               {"id": "foe", "side": "f", "stats": FIGHTER, "position": [10, 10]}], dice=dice, variants=variants)


def check(enc, dice_face: int) -> ev.SaveRolled:
    assert enc.dice is not None
    enc.dice.push(dice_face)
    events = enc.gm(GmCheck(target="t", skill="stealth", dc=20))
    return next(e for e in events if isinstance(e, ev.SaveRolled))


def test_ep_misc_06_07_success_against_the_easy_dc_gives_plus_2() -> None:
    """EP-MISC-06, EP-MISC-07: a standard action; Stealth 10 = d20 6 + 4 meets the Easy DC 10 of CR 0: t's next Stealth
    check gets +2 circumstance (10 + 4 + 2 = 16)."""
    enc = party({}, dice=[6])
    events = enc.act(Assist(ally="t", skill="stealth", cr=0))
    assert "Stealth 10 = d20 6 + Stealth 4 vs Easy DC 10 (CR 0)" in texts(events)
    assert "+2 circumstance (EP-MISC-07)" in texts(events)
    assert enc.state.turn is not None and not enc.state.turn.standard
    rolled = check(enc, 10)
    assert rolled.total == 16 and "assist by h1 2" in rolled.explanation


def test_ep_misc_08_a_failed_assist_gives_minus_1() -> None:
    """EP-MISC-08: 5 + 4 = 9 < Easy DC 10 → t takes −1 circumstance."""
    enc = party({}, dice=[5])
    events = enc.act(Assist(ally="t", skill="stealth", cr=0))
    assert "below the Easy DC (EP-MISC-08)" in texts(events)
    assert check(enc, 10).total == 13


def test_ep_misc_09_no_taking_10() -> None:
    """EP-MISC-09: taking 10 to assist is refused and nothing changes."""
    assert_illegal(party({}), Assist(ally="t", skill="stealth", take_10=True), "can't take 10")


def test_ep_misc_06_the_ally_must_be_adjacent() -> None:
    """EP-MISC-06: an ally 10 ft away cannot be assisted."""
    enc = ep([{"id": "h1", "side": "h", "stats": SNEAK, "position": [0, 0]},
              {"id": "t", "side": "h", "stats": SNEAK, "position": [2, 0]},
              {"id": "foe", "side": "f", "stats": FIGHTER, "position": [10, 10]}])
    assert_illegal(enc, Assist(ally="t", skill="stealth"), "not adjacent")


def test_ep_misc_10_11_assists_stack_and_at_most_five() -> None:
    """EP-MISC-11: two successes and a failure → +3 (circumstance stacks); EP-MISC-10: the GM's limit (here 2
    assistants) refuses a third, and more than 5 is never allowed."""
    enc = party({}, {"initiative": 99}, {"initiative": 98}, dice=[10, 10, 1])
    for _ in range(3):
        actor = enc.state.actor
        enc.act(Assist(ally="t", skill="stealth", cr=0))
        assert enc.state.actor == actor
        enc.act(ax.EndTurn())
    assert check(enc, 10).total == 17  # 10 + 4 + 2 + 2 − 1
    enc = party({}, {"initiative": 99}, {"initiative": 98}, dice=[10, 10])
    enc.act(Assist(ally="t", skill="stealth", max_assists=2))
    enc.act(ax.EndTurn())
    enc.act(Assist(ally="t", skill="stealth", max_assists=2))
    enc.act(ax.EndTurn())
    assert_illegal(enc, Assist(ally="t", skill="stealth", max_assists=2), "already has 2 assistants")
    assert_illegal(enc, Assist(ally="t", skill="stealth", max_assists=6), "no more than 5")


def test_ep_misc_11_variant_circumstance_stacks_only_on_assists() -> None:
    """EP-MISC-11 (AMBIGUOUS): by default two circumstance bonuses add up everywhere; with ep_circumstance_stacks
    false only the highest counts (core stacking), while assists are still summed."""
    two = [Modifier(2, "a", "circumstance"), Modifier(2, "b", "circumstance")]
    kept, dropped = ep_stacking(two)
    assert len(kept) == 2 and not dropped
    assert total(10, two, stacking=ep_stacking).value == 14
    enc = party({}, {"initiative": 99}, dice=[10, 10], variants={"ep_circumstance_stacks": False})
    enc.act(Assist(ally="t", skill="stealth"))
    enc.act(ax.EndTurn())
    enc.act(Assist(ally="t", skill="stealth"))
    enc.act(ax.EndTurn())
    rolled = check(enc, 10)
    assert rolled.total == 18 and "assists h1, h2" in rolled.explanation


def test_ep_misc_12_13_ranks_for_trained_only_and_epic_uses() -> None:
    """EP-MISC-12: a creature that does not list the skill (0 ranks) cannot assist a trained-only check;
    EP-MISC-13: an epic use needs 21 ranks (attributes.stealth_ranks)."""
    untrained = stats("oaf", attacks=[{"weapon": "club"}])
    enc = party({"stats": untrained})
    assert_illegal(enc, Assist(ally="t", skill="disable device", trained_only=True), "at least 1 rank")
    assert_illegal(party({}), Assist(ally="t", skill="stealth", epic=True), "needs 21 ranks; h1 has 1")
    master = stats("master", skills={"stealth": 30}, attributes={"stealth_ranks": 21}, attacks=[{"weapon": "club"}])
    assert party({"stats": master}, dice=[1]).check(Assist(ally="t", skill="stealth", epic=True)) is None


def test_ep_misc_14_assisting_a_provoking_use_provokes() -> None:
    """EP-MISC-14: with a foe adjacent, assisting a use that provokes offers it an attack of opportunity."""
    enc = ep([{"id": "h1", "side": "h", "stats": SNEAK, "position": [0, 1]},
              {"id": "t", "side": "h", "stats": SNEAK, "position": [1, 1]},
              {"id": "foe", "side": "f", "stats": FIGHTER, "position": [0, 2]}], dice=[1, 10])
    enc.act(Assist(ally="t", skill="stealth", provokes=True))
    assert enc.pending is not None and enc.pending.prompt is not None and enc.pending.prompt.reactor == "foe"
    events = enc.respond("decline")
    assert "assists t" in texts(events)


@pytest.mark.parametrize(("step", "cr", "dc"), [("easy", 0, 10), ("easy", 5, 15), ("average", 3, 18)])
def test_ep_dc_ladder_assumption(step: str, cr: int, dc: int) -> None:
    """EP-MISC-06 / EP-CONC-21: the ladder the text refers to (data/ep_dc_ladder.yaml, an assumption)."""
    assert ladder_dc(step, cr) == dc


def test_ep_misc_06_bad_cr_is_refused() -> None:
    """A CR outside the ladder is refused with the field named, and nothing changes."""
    assert_illegal(party({}), Assist(ally="t", skill="stealth", cr=99), "assist.cr: CR 99 is outside")
