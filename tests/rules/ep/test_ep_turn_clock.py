"""Epic Path's encounter clock and action points: the 10-round Maximum Encounter Length (EP-TIME-05..14), action
points by combat round (EP-MISC-22..26, EP-ACT-53, EP-SURP-23)."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from tests.rules.ep._util import FIGHTER, assert_illegal, remaining, stats, texts
from tests.rules.ep._util import ep as _ep

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.encounter.gm_actions import GmDamage, GmEffect
from d20combat.rulesets.epic_path.initiative import ACTION_POINTS, FLAT_FOOTED, combat_round
from d20combat.rulesets.epic_path.time_scale import ROUND_SECONDS, rounds, rung, shorter
from d20combat.rulesets.epic_path.turn_actions import Hold, SpendActionPoint, SwiftAction, action_point_benefit


def ep(*args: Any, **kw: Any) -> Encounter:
    """The first round as it starts: every creature Flat-Footed until it acts (EP-SURP-20), as these tests need."""
    return _ep(*args, alert=False, **kw)


def far(**kw: Any) -> list[dict[str, Any]]:
    return [{"id": "a", "side": "x", "stats": stats("a", abilities={"dex": 14}), "position": [0, 0]},
            {"id": "b", "side": "y", "stats": stats("b"), "position": [9, 9]},
            {"id": "c", "side": "y", "stats": stats("c"), "position": [9, 0], **kw}]


def play_rounds(enc: Encounter, rounds: int) -> list[ev.Event]:
    out: list[ev.Event] = []
    start = enc.state.round
    while enc.state.round < start + rounds:
        out += enc.act(ax.EndTurn())
    return out


def test_ep_time_05_06_the_combat_renews_after_ten_rounds() -> None:
    """EP-TIME-05: the fight goes on round after round; EP-TIME-06: after 10 rounds in a row it ends and a new combat
    begins at once; EP-TIME-13: that round is round 1 again."""
    enc = ep(far(), dice=[5, 12, 8])
    play_rounds(enc, 9)
    assert enc.state.round == 10 and combat_round(enc.state) == 10 and remaining(enc) == 3
    events = play_rounds(enc, 1)
    clock = [e for e in events if isinstance(e, ev.EncounterClockSet)]
    assert len(clock) == 1 and clock[0].first_round == 11 and "EP-TIME-06" in clock[0].explain()
    assert enc.state.round == 11 and combat_round(enc.state) == 1


def test_ep_init_11_time_07_survivors_reroll_initiative() -> None:
    """EP-INIT-11, EP-TIME-07: every survivor re-rolls initiative at the reset; the new order is used at once."""
    enc = ep(far(), dice=[5, 12, 8])
    events = play_rounds(enc, 10)
    rerolled = {e.combatant: e.total for e in events if isinstance(e, ev.InitiativeRolled)}
    assert rerolled == {"a": 7, "b": 12, "c": 8}
    assert enc.state.order == ("b", "c", "a") and enc.state.turn is not None and enc.state.turn.actor == "b"
    assert "re-rolled for the new combat" in texts(events)


def test_ep_time_08_misc_22_a_fresh_action_point_at_the_reset() -> None:
    """EP-MISC-22: one action point on entering the combat; EP-TIME-08: one more at the reset, unspent ones kept."""
    enc = ep(far(), dice=[5, 12, 8])
    assert enc.state.get("a").reactions[ACTION_POINTS] == 1
    enc.act(SpendActionPoint())
    assert enc.state.get("a").reactions[ACTION_POINTS] == 0
    play_rounds(enc, 10)
    assert enc.state.get("a").reactions[ACTION_POINTS] == 1
    assert enc.state.get("b").reactions[ACTION_POINTS] == 2


def test_ep_time_09_end_of_encounter_effects_end_at_the_reset() -> None:
    """EP-TIME-09: an effect "until the end of the encounter" ends at the reset; another keeps running (EP-TIME-14:
    durations in rounds are not reset)."""
    enc = ep(far(), dice=[5, 12, 8])
    enc.gm(GmEffect("b", "bless (encounter)", 50, attack=1))
    enc.gm(GmEffect("b", "shield of faith", 50, ac=2))
    events = play_rounds(enc, 10)
    names = [e.name for e in enc.state.get("b").effects]
    assert names == ["shield of faith"]
    assert any(isinstance(e, ev.EffectEnded) and e.name == "bless (encounter)" for e in events)


def test_ep_time_11_the_slain_stay_dead() -> None:
    """EP-TIME-11: a creature slain before the reset stays dead: no new initiative, no action point, still skipped."""
    enc = ep(far(), dice=[5, 12])
    enc.gm(GmDamage("c", 40))
    events = play_rounds(enc, 10)
    assert {e.combatant for e in events if isinstance(e, ev.InitiativeRolled)} == {"a", "b"}
    assert enc.state.order[-1] == "c" and "the slain stay dead: c (EP-TIME-11)" in texts(events)
    assert enc.state.get("c").hp <= -10 and enc.state.get("c").reactions.get(ACTION_POINTS, 0) <= 1


def test_ep_time_06_surprise_round_does_not_count_and_option() -> None:
    """EP-TIME-06 (AMBIGUOUS): the surprise round does not count toward the 10 rounds (reset after engine round 11);
    option ``surprise_round_counts_for_reset``: it does (reset after round 10)."""
    ambush = {"ambush": {"ambushers": ["a"], "check": 12}}
    enc = ep(far(), surprise=ambush, dice=[20, 20, 5, 12, 8])
    assert enc.state.surprise_round
    play_rounds(enc, 10)
    assert enc.state.round == 11 and enc.state.first_round == 2
    play_rounds(enc, 1)
    assert enc.state.first_round == 12
    counts = ep(far(), surprise=ambush, dice=[20, 20, 5, 12, 8],
                variants={"surprise_round_counts_for_reset": True})
    play_rounds(counts, 10)
    assert counts.state.first_round == 11


def test_ep_time_14_flat_footed_after_reset_is_an_option() -> None:
    """EP-TIME-14 (AMBIGUOUS): by default nobody is Flat-Footed again after the reset; with the option, everyone is
    until its first turn of the new combat."""
    enc = ep(far(), dice=[5, 12, 8])
    play_rounds(enc, 10)
    assert not any(enc.state.get(c).has(FLAT_FOOTED) for c in "abc")
    opt = ep(far(), dice=[5, 12, 8], variants={"flat_footed_after_reset": True})
    play_rounds(opt, 10)
    assert opt.state.turn is not None and opt.state.turn.actor == "b"
    assert not opt.state.get("b").has(FLAT_FOOTED) and opt.state.get("a").has(FLAT_FOOTED)


def test_ep_time_06_max_encounter_rounds_is_an_option() -> None:
    """EP-TIME-06: ``max_encounter_rounds`` sets the Maximum Encounter Length (10 by default)."""
    enc = ep(far(), dice=[5, 12, 8], variants={"max_encounter_rounds": 3})
    play_rounds(enc, 3)
    assert enc.state.first_round == 4


@pytest.mark.parametrize(("round_no", "grants"), [(1, {"move": 1}), (2, {"standard": 1}),
                                                   (3, {"standard": 1, "move": 1}), (9, {"standard": 1, "move": 1})])
def test_ep_misc_23_benefit_by_combat_round(round_no: int, grants: dict[str, int]) -> None:
    """EP-MISC-23: the benefit depends on the combat round (data/ep_action_points.yaml, the default reading)."""
    assert action_point_benefit(round_no, after_charge=False)[0] == grants


def test_ep_misc_23_action_point_in_round_2_adds_a_standard_action() -> None:
    """EP-MISC-23: in round 2 the action point adds a standard action to the turn, explained."""
    enc = ep(far())
    play_rounds(enc, 1)
    events = enc.act(SpendActionPoint())
    pools = next(e for e in events if isinstance(e, ev.TurnPoolsSet))
    assert pools.pools["standard"] == 2 and "combat round 2" in pools.explain()
    assert_illegal(enc, SpendActionPoint(), "no action point left")


def test_ep_act_53_holding_until_round_3_gets_the_round_3_benefit() -> None:
    """EP-ACT-53: the benefit follows the round of combat, not the creature's own turns: a creature that held its
    action into round 3 gets the round-3 benefit on its first action."""
    enc = ep(far())
    enc.act(Hold(after="c"))        # round 1: a holds until c has acted → acts after c
    enc.act(ax.EndTurn())           # b
    enc.act(ax.EndTurn())           # c → a acts
    assert enc.state.turn is not None and enc.state.turn.actor == "a"
    enc.act(Hold())                 # still holding
    play_rounds(enc, 1)
    while enc.state.turn is not None and enc.state.turn.actor != "a":
        enc.act(ax.EndTurn())
    assert combat_round(enc.state) == 3
    pools = next(e for e in enc.act(SpendActionPoint()) if isinstance(e, ev.TurnPoolsSet)).pools
    assert pools["standard"] == 2 and pools["move"] == 2


def test_ep_surp_23_misc_24_surprise_round_counts_as_round_1() -> None:
    """EP-SURP-23, EP-MISC-24: an action point in the surprise round buys the round-1 benefit; the next round is still
    round 1."""
    enc = ep(far(), surprise={"ambush": {"ambushers": ["a"], "check": 12}}, dice=[20, 20])
    assert enc.state.surprise_round and combat_round(enc.state) == 1
    events = enc.act(SpendActionPoint())
    assert "the surprise round counts as round 1" in texts(events)
    assert enc.state.turn is not None and enc.state.turn.pools.get("move") == 1
    play_rounds(enc, 1)
    assert enc.state.round == 2 and not enc.state.surprise_round and combat_round(enc.state) == 1


def test_ep_misc_25_action_point_after_a_charge_grants_a_standard_action_only() -> None:
    """EP-MISC-25: spent after a charge, the action point grants a standard action; move and swift stay lost."""
    enc = ep([{"id": "a", "side": "x", "stats": FIGHTER, "position": [0, 0]},
              {"id": "b", "side": "y", "stats": stats("b", hp=60), "position": [4, 0]}], dice=[2, 1, 1])
    play_rounds(enc, 1)
    while enc.state.turn is not None and enc.state.turn.actor != "a":
        enc.act(ax.EndTurn())
    enc.act(ax.Charge("b"))
    events = enc.act(SpendActionPoint())
    pools = next(e for e in events if isinstance(e, ev.TurnPoolsSet)).pools
    assert pools == {"standard": 1} and "EP-MISC-25" in texts(events)


def test_ep_misc_26_gm_circumstance_bonus_for_dialogue() -> None:
    """EP-MISC-26 (EP-ACT-41): the GM may award a circumstance bonus for inspired dialogue — a GM effect with an
    attack bonus; the dialogue itself is a free action."""
    enc = ep([{"id": "a", "side": "x", "stats": FIGHTER, "position": [0, 0]},
              {"id": "b", "side": "y", "stats": stats("b"), "position": [1, 0]}])
    before = sum(m.value for m in enc.plan_attack("a", "b").modifiers)
    spent = [e for e in enc.act(ax.Activity("speak")) if isinstance(e, ev.BudgetSpent)]
    assert spent[0].cost == "free"
    enc.gm(GmEffect("a", "inspired dialogue", 1, attack=2))
    assert sum(m.value for m in enc.plan_attack("a", "b").modifiers) == before + 2


def test_ep_time_01_02_rounds_of_six_seconds_ten_to_the_minute() -> None:
    """EP-TIME-01: a round is six seconds; EP-TIME-02: ten rounds a minute — the Maximum Encounter Length of 1 minute
    is 10 rounds, and the reset says how long the story ran."""
    assert ROUND_SECONDS == 6 and rounds("1 minute") == 10 and rounds("3 rounds") == 3 and rounds("2 hours") == 1200
    enc = ep(far(), dice=[5, 12, 8])
    assert "60 seconds of the story" in texts(play_rounds(enc, 10))


def test_ep_time_03_no_seconds_in_combat() -> None:
    """EP-TIME-03: combat counts actions and rounds, never seconds: a duration in seconds is refused, naming why."""
    with pytest.raises(ValueError, match=r"not seconds \(EP-TIME-03\) — 2 round"):
        rounds("12 seconds")
    with pytest.raises(ValueError, match="give a number of rounds"):
        rounds("a while")


def test_ep_time_04_the_ladder_of_time_scales() -> None:
    """EP-TIME-04: free < swift = immediate < move < standard < full attack < full-round < under a minute < a minute <
    10 minutes < an hour < a day < a week < a month < a year."""
    ladder = ["free action", "swift action", "move action", "standard action", "full attack action",
              "full-round action", "less than 1 minute", "1 minute", "10 minutes", "1 hour", "1 day", "1 week",
              "1 month", "1 year"]
    assert all(shorter(a, b) for a, b in pairwise(ladder))
    assert not shorter("immediate action", "swift action") and not shorter("swift action", "immediate action")
    with pytest.raises(ValueError, match="not one of"):
        rung("a fortnight")


def test_ep_time_10_once_per_encounter_abilities_renew_at_the_reset() -> None:
    """EP-TIME-10: an ability usable once per encounter (``attributes: {per_encounter:smite: 1}``) is spent for the
    rest of the combat, and renewed when the Maximum Encounter Length starts a new one."""
    combatants = far()
    combatants[0]["stats"] = stats("a", abilities={"dex": 14}, attributes={"per_encounter:smite": 1})
    enc = ep(combatants, dice=[5, 12, 8])
    enc.act(SwiftAction("smite"))
    assert enc.state.get("a").reactions["per_encounter:smite"] == 0
    play_rounds(enc, 1)
    while enc.state.turn is not None and enc.state.turn.actor != "a":
        enc.act(ax.EndTurn())
    assert_illegal(enc, SwiftAction("smite"), "used it up in this combat")
    events = play_rounds(enc, 9)
    assert "a's once-per-encounter abilities are renewed: smite (EP-TIME-10)" in texts(events)
    assert enc.state.get("a").reactions["per_encounter:smite"] == 1
