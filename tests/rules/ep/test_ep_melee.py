"""Epic Path's full attack (EP-ACT-07..16) and the 5-foot step (EP-ACT-42..46)."""

from __future__ import annotations

import pytest
from tests.rules.ep._util import assert_illegal, ep, stats, texts

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.rulesets.epic_path.melee import FullAttack, attacks_in_full_attack

GUARD = stats("guard", attack_bonus=5, attacks=[{"weapon": "club"}])
VETERAN = stats("veteran", attack_bonus=11, attacks=[{"weapon": "club"}, {"weapon": "dagger"}])
"""Base attack bonus +11: three attacks in a full attack (+11/+6/+1); club 1d6, dagger 1d4."""


def scene(dice: list[int] = (), **kw: object) -> Encounter:  # type: ignore[assignment]
    return ep([{"id": "v", "side": "a", "stats": VETERAN, "position": [2, 2]},
               {"id": "g", "side": "b", "stats": GUARD, "position": [3, 2]},
               {"id": "h", "side": "b", "stats": GUARD, "position": [2, 3]}], dice=dice, **kw)  # type: ignore[arg-type]


def attack_lines(events: list[ev.Event]) -> list[str]:
    return [e.lines[1].strip() for e in events if isinstance(e, ev.AttackResolved)]


@pytest.mark.parametrize(("bab", "n"), [(0, 1), (5, 1), (6, 2), (10, 2), (11, 3), (16, 4), (20, 4)])
def test_ep_act_07_attacks_in_a_full_attack_by_base_attack_bonus(bab: int, n: int) -> None:
    """EP-ACT-07, EP-ATK-04: more than one attack a round comes from a high base attack bonus."""
    enc = ep([{"id": "v", "side": "a", "stats": stats("v", attack_bonus=bab), "position": [0, 0]},
              {"id": "g", "side": "b", "stats": GUARD, "position": [5, 5]}])
    assert attacks_in_full_attack(enc.creature("v")) == n


def test_ep_act_07_09_12_a_full_attack_highest_bonus_first_each_target_chosen_after() -> None:
    """EP-ACT-09: the first attack (the standard-action portion) is at the highest bonus; the later ones −5 each;
    EP-ACT-12: each attack's target is chosen after the earlier ones; no fourth attack at BAB +11."""
    enc = scene([5, 3, 1, 10, 2])
    first = enc.act(FullAttack("g"))
    assert attack_lines(first) == ["hits: 16 = d20 5 + BAB 11 vs AC 10 (10)"]
    assert enc.state.turn is not None and enc.state.turn.pools["full_attack"] == 2
    second = enc.act(FullAttack("h"))
    assert attack_lines(second) == ["misses (natural 1): 7 = d20 1 + BAB 11 − second attack 5 vs AC 10 (10)"]
    third = enc.act(FullAttack("g"))
    assert attack_lines(third) == ["hits: 11 = d20 10 + BAB 11 − third attack 10 vs AC 10 (10)"]
    assert enc.state.get("g").hp == 20 - 3 - 2 and enc.state.get("h").hp == 20
    assert_illegal(enc, FullAttack("g"), "all 3 attacks")


def test_ep_act_08_a_full_attack_needs_the_standard_and_the_move_action() -> None:
    """EP-ACT-08: after a move action there is no full attack (the standard action alone attacks once)."""
    enc = scene([15, 3])
    enc.act(ax.Draw("dagger"))
    assert_illegal(enc, FullAttack("g"), r"both the standard and the move action.*EP-ACT-08")
    enc.act(ax.Attack("g"))


def test_ep_act_13_the_full_attack_is_severable_after_the_first_attack() -> None:
    """EP-ACT-13: after the first attack the rest may be given up for a move action (here a move); the full attack
    cannot be taken up again."""
    enc = scene([1])
    enc.act(FullAttack("g"))
    enc.act(ax.Move(to=(0, 5)))  # leaving the guards' reach provokes: both decline
    while enc.pending is not None:
        enc.respond("decline")
    assert enc.state.get("v").position == (0, 5)
    assert_illegal(enc, FullAttack("g"), "severed")


def test_ep_act_14_after_a_step_the_severed_move_action_cannot_move() -> None:
    """EP-ACT-14: a 5-foot step taken, the move action gained by severing moves no distance; a move action that
    is not movement (drawing a weapon) is still allowed."""
    enc2 = scene([1])
    enc2.act(FullAttack("g"))
    enc2.act(ax.Step((2, 1)))
    assert_illegal(enc2, ax.Move(to=(0, 0)), "after a 5-foot step")
    enc2.act(ax.Draw("dagger"))
    assert enc2.state.get("v").wielding == "dagger"


def test_ep_act_15_one_five_foot_step_before_between_or_after_the_attacks() -> None:
    """EP-ACT-15: the only movement in a full attack is one 5-foot step, anywhere in it — here between the first
    and second attacks; a second step is refused."""
    enc = scene([1, 1, 1])
    enc.act(FullAttack("g"))
    enc.act(ax.Step((1, 3)))
    enc.act(FullAttack("h"))
    assert_illegal(enc, ax.Step((1, 4)), "5-foot step")
    enc.act(FullAttack("h"))
    assert enc.state.turn is not None and enc.state.turn.pools["full_attack"] == 0


def test_ep_act_42_a_five_foot_step_does_not_provoke() -> None:
    """EP-ACT-42, EP-AOO-07: a 5-foot step out of a threatened square provokes no attack of opportunity."""
    enc = scene()
    enc.act(ax.Step((1, 1)))
    assert enc.pending is None and enc.state.get("v").position == (1, 1)


def test_ep_act_43_no_step_after_a_move() -> None:
    """EP-ACT-43: no 5-foot step in a round in which a move action moved the creature."""
    enc = ep([{"id": "v", "side": "a", "stats": VETERAN, "position": [0, 0]},
              {"id": "g", "side": "b", "stats": GUARD, "position": [8, 8]}])
    enc.act(ax.Move(to=(2, 0)))
    assert_illegal(enc, ax.Step((3, 0)), "other movement")


def test_ep_act_45_a_move_action_that_moves_nothing_leaves_the_step() -> None:
    """EP-ACT-45: a move action spent on something else (drawing) leaves the 5-foot step."""
    enc = scene()
    enc.act(ax.Draw("dagger"))
    enc.act(ax.Step((1, 1)))
    assert enc.state.get("v").position == (1, 1)


def test_ep_act_46_standing_up_forbids_the_step() -> None:
    """EP-ACT-46, EP-COND-05: standing up from prone counts as movement: no 5-foot step that round."""
    enc = ep([{"id": "v", "side": "a", "stats": VETERAN, "position": [0, 0], "conditions": ["prone"]},
              {"id": "g", "side": "b", "stats": GUARD, "position": [8, 8]}])
    events = enc.act(ax.StandUp())
    assert "v rises to (0,0) — 0 ft" in texts(events)
    assert_illegal(enc, ax.Step((1, 0)), "other movement")


def test_ep_act_16_a_swift_action_before_or_after_a_full_attack() -> None:
    """EP-ACT-16: a swift action (starting a stance) may still be taken before or after a full attack."""
    from d20combat.rulesets.epic_path.stances import StartStance

    enc = scene([1, 1, 1], variants={"max_free_actions": 2})
    enc.act(StartStance("guard"))
    for _ in range(3):
        enc.act(FullAttack("g"))
    assert [e.name for e in enc.state.get("v").effects] == ["stance: guard"]
    after = scene([1, 1, 1])
    for _ in range(3):
        after.act(FullAttack("g"))
    after.act(StartStance("guard"))
    assert [e.name for e in after.state.get("v").effects] == ["stance: guard"]
