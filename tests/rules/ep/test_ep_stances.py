"""Epic Path's stances (EP-MISC-15..21)."""

from __future__ import annotations

import pytest
from tests.rules.ep._util import FIGHTER, assert_illegal, ep, stats, texts

from d20combat.encounter import actions as ax
from d20combat.encounter.engine import Encounter
from d20combat.encounter.gm_actions import GmCondition
from d20combat.rulesets.epic_path.stances import DropStance, StartStance, active_stances

GUARD = stats("guard", attack_bonus=5, attacks=[{"weapon": "club"}])


def solo(variants: dict[str, object] | None = None, who: dict[str, object] = FIGHTER, **kw: object) -> Encounter:
    return ep([{"id": "a", "side": "a", "stats": who, "position": [2, 2]},
               {"id": "b", "side": "b", "stats": GUARD, "position": [9, 9]}],
              variants=variants, **kw)  # type: ignore[arg-type]


def stances(enc: Encounter) -> list[str]:
    return active_stances(enc.state.get("a"))


def test_ep_misc_15_a_stance_starts_with_a_swift_action() -> None:
    """EP-MISC-15: starting a stance takes the swift action (the free action where the turn has no swift one);
    keeping it up is free."""
    enc = solo()
    events = enc.act(StartStance("aura of fire"))
    assert stances(enc) == ["aura of fire"]
    assert "lasts at most 1 minute, 10 rounds" in texts(events)
    assert_illegal(enc, StartStance("harmony"), "one stance at a time|free action")


def test_ep_misc_19_one_stance_at_a_time() -> None:
    """EP-MISC-19: one stance at a time, for every creature by default (AMBIGUOUS; with
    ep_one_stance_for_every_creature false, a monster may keep up two)."""
    enc = solo({"max_free_actions": 3})
    enc.act(StartStance("aura of fire"))
    assert_illegal(enc, StartStance("harmony"), r"one stance at a time \(EP-MISC-19\)")
    monster = solo({"max_free_actions": 3, "ep_one_stance_for_every_creature": False})
    monster.act(StartStance("aura of fire"))
    monster.act(StartStance("harmony"))
    assert sorted(stances(monster)) == ["aura of fire", "harmony"]
    hero = solo({"max_free_actions": 3, "ep_one_stance_for_every_creature": False},
                who={**FIGHTER, "race": "human"})
    hero.act(StartStance("aura of fire"))
    assert_illegal(hero, StartStance("harmony"), "one stance at a time")


def test_ep_misc_20_a_stance_lasts_at_most_one_minute() -> None:
    """EP-MISC-20: a stance ends after 10 rounds; it may be started again (a fight without the 10-round
    Maximum Encounter Length, EP-TIME-06, whose reset would re-roll initiative in between)."""
    enc = solo({"max_encounter_rounds": 20})
    enc.act(StartStance("guard"))
    for _ in range(9):
        enc.act(ax.EndTurn())
        enc.act(ax.EndTurn())
    assert stances(enc) == ["guard"] and enc.state.round == 10
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    assert enc.state.round == 11 and stances(enc) == []
    enc.act(StartStance("guard"))
    assert stances(enc) == ["guard"]


@pytest.mark.parametrize("condition", ["prone", "rattled"])
def test_ep_misc_16_17_18_prone_or_an_action_reducing_condition_breaks_the_stance(condition: str) -> None:
    """EP-MISC-16: knocked prone breaks the stance; EP-MISC-17: so does an action-reducing condition (rattled);
    EP-MISC-18: it can be restarted once the condition has cleared, not before."""
    enc = solo({"max_free_actions": 3})
    enc.act(StartStance("guard"))
    enc.gm(GmCondition("a", condition, True))
    enc.act(ax.EndTurn())
    assert stances(enc) == []
    assert any(f"({'EP-MISC-16' if condition == 'prone' else 'EP-MISC-17'})" in e.explain() for e in enc.log)
    enc.act(ax.EndTurn())
    assert_illegal(enc, StartStance("guard"), "EP-MISC-18")
    enc.gm(GmCondition("a", condition, False))
    enc.act(StartStance("guard"))
    assert stances(enc) == ["guard"]


def test_ep_misc_21_dropping_a_stance_costs_a_swift_action() -> None:
    """EP-MISC-21: dropping a stance voluntarily costs a swift action (here the free action)."""
    enc = solo({"max_free_actions": 2})
    enc.act(StartStance("guard"))
    enc.act(DropStance())
    assert stances(enc) == []
    assert_illegal(enc, DropStance(), "no stance")
