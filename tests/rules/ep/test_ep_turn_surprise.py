"""Epic Path's surprise: the ambush check, awareness, accidental encounters and the surprise round (EP-SURP)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.ep._util import assert_illegal, remaining, stats, texts
from tests.rules.ep._util import ep as _ep

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.rulesets.epic_path.ambush import ambush_check, awareness_dc, preparation_bonus
from d20combat.rulesets.epic_path.dc_ladder import ladder_dc
from d20combat.rulesets.epic_path.initiative import FLAT_FOOTED
from d20combat.rulesets.epic_path.turn_actions import Hold, Ready
from d20combat.scenario import battle_from_data
from d20combat.scenario.loader import ScenarioError


def ep(*args: Any, **kw: Any) -> Encounter:
    """The first round as it starts: every creature Flat-Footed until it acts (EP-SURP-20), as these tests need."""
    return _ep(*args, alert=False, **kw)


def party(**prey: Any) -> list[dict[str, Any]]:
    """Two bandits (CR 2, the ambushers) and two heroes (Perception +4); the bandits act first."""
    bandit = stats("bandit", attributes={"cr": 2}, attacks=[{"weapon": "club"}])
    hero = stats("hero", skills={"perception": 4}, attacks=[{"weapon": "club"}])
    return [{"id": "b1", "side": "bandits", "stats": bandit, "position": [0, 0]},
            {"id": "b2", "side": "bandits", "stats": bandit, "position": [0, 2]},
            {"id": "h1", "side": "heroes", "stats": hero, "position": [1, 0], **prey},
            {"id": "h2", "side": "heroes", "stats": hero, "position": [8, 8]}]


def ambushed(dice: list[int], **ambush: Any) -> Encounter:
    spec = {"ambushers": ["b1", "b2"], **ambush}
    return ep(party(), dice=dice, surprise={"ambush": spec})


def surprise_event(enc: Encounter) -> ev.SurpriseDetermined:
    return next(e for e in enc.log if isinstance(e, ev.SurpriseDetermined))


def first_round(enc: Encounter) -> ev.RoundStarted:
    return next(e for e in enc.log if isinstance(e, ev.RoundStarted))


def test_ep_surp_03_ten_or_more_gives_a_surprise_round() -> None:
    """EP-SURP-03: 1 minute of preparation, d20 10 → 10 ≥ 10: a surprise round; EP-SURP-24: awareness against the
    Challenging DC of CR 2 (22 by the DC ladder data)."""
    enc = ambushed([10, 18, 3])
    assert first_round(enc).surprise
    text = texts(enc.log)
    assert "ambush check 10 = d20 10 ≥ 10: a surprise round (EP-SURP-03)" in text
    assert "h1 Perception 22 = d20 18 +4 vs challenging DC 22 of CR 2: aware" in text
    assert surprise_event(enc).surprised == ["h2"]


def test_ep_surp_04_nine_or_less_no_surprise_round_and_no_perception() -> None:
    """EP-SURP-04: d20 9 → no surprise round; the prey need no Perception check (no die is rolled for them)."""
    enc = ambushed([9])
    assert not first_round(enc).surprise and surprise_event(enc).surprised == [] and remaining(enc) == 0
    assert "≤ 9: no surprise round" in texts(enc.log)


@pytest.mark.parametrize(("minutes", "bonus"), [(1, 0), (2, 1), (3, 2), (4, 3), (5, 4), (8, 4)])
def test_ep_surp_05_preparation_bonus(minutes: int, bonus: int) -> None:
    """EP-SURP-05: +1 for each full minute beyond the first, at most +4 (5 minutes)."""
    assert preparation_bonus(minutes) == bonus


def test_ep_surp_05_08_10_every_bonus_adds_up() -> None:
    """EP-SURP-05, EP-SURP-08, EP-SURP-10 (the derived example): d20 5 + 5 minutes (+4) + hiding places (+1) + all
    invisible (+1) = 11."""
    enc = ambushed([5, 20, 20], minutes=5, hiding_places=True, invisible=True)
    assert first_round(enc).surprise
    assert "ambush check 11 = d20 5 + preparation 4 + hiding places 1 + all invisible 1 ≥ 10" in texts(enc.log)


def test_ep_surp_06_09_skilled_ambusher_but_partial_cover_spoils_hiding() -> None:
    """EP-SURP-06: a skilled ambusher adds its bonus; EP-SURP-09: an ambusher in partial cover means no hiding-places
    bonus (the GM leaves ``hiding_places`` off) → d20 8 + 1 = 9: no surprise round."""
    enc = ambushed([8], skilled=1, hiding_places=False)
    assert not first_round(enc).surprise
    assert "ambush check 9 = d20 8 + skilled ambusher 1" in texts(enc.log)


def test_ep_surp_07_25_a_harder_dc_does_not_change_the_ambush_check() -> None:
    """EP-SURP-07: raising the awareness DC does not change the ambush check; EP-SURP-25: it makes the awareness DC
    Hard (27 at CR 2) or Impossible."""
    plain = ambush_check(_Dice([12]), minutes=1, skilled=0, hiding_places=False, invisible=False)
    enc = ambushed([12, 20, 6], dc_step=1)
    assert plain.total == 12 and f"ambush check {plain.total} = d20 12" in texts(enc.log)
    assert "h1 Perception 24 = d20 20 +4 vs hard DC 27 of CR 2: surprised" in texts(enc.log)
    assert awareness_dc(2, 2, False) == (ladder_dc("impossible", 2), "impossible")


def test_ep_surp_02_12_13_no_ambush_without_a_proper_setup() -> None:
    """EP-SURP-02: under a minute of preparation, EP-SURP-12: a ruined ambush, EP-SURP-13: prey on guard → no surprise
    round, no die rolled."""
    for spec, phrase in (({"minutes": 0}, "EP-SURP-02"), ({"ruined": True}, "EP-SURP-12"),
                         ({"on_guard": True}, "EP-SURP-13")):
        enc = ambushed([], **spec)
        assert not first_round(enc).surprise and remaining(enc) == 0 and phrase in texts(enc.log)


def test_ep_surp_11_stealth_decides_nothing() -> None:
    """EP-SURP-11: the ambush check replaces individual Stealth checks: sneaky creatures roll nothing."""
    combatants = party()
    for c in combatants[:2]:
        c["sneaky"] = True
    enc = ep(combatants, surprise={"ambush": {"ambushers": []}})
    assert not first_round(enc).surprise and remaining(enc) == 0 and "EP-SURP-11" in texts(enc.log)


def test_ep_surp_15_16_accidental_encounter() -> None:
    """EP-SURP-15: a group all absorbed in a distraction is surprised without any ambush; EP-SURP-16: one watcher
    is enough to avoid it."""
    enc = ep(party(), surprise={"ambush": {"distracted": ["h1", "h2"]}})
    assert first_round(enc).surprise and surprise_event(enc).surprised == ["h1", "h2"]
    watch = ep(party(), surprise={"ambush": {"distracted": ["h1"]}})
    assert not first_round(watch).surprise and "EP-SURP-16" in texts(watch.log)


def test_ep_surp_15_distracted_prey_of_an_ambush_are_surprised() -> None:
    """EP-SURP-15 (reading): a distracted creature makes no Passive Perception check, so an ambush surprises it."""
    enc = ambushed([10, 20], distracted=["h2"])
    assert surprise_event(enc).surprised == ["h2"] and remaining(enc) == 0


def test_ep_surp_17_27_30_surprise_round_even_if_everyone_noticed() -> None:
    """EP-SURP-17: a successful check gives a surprise round however many are aware; EP-SURP-27: the ambushers roll
    nothing; EP-SURP-30: aware prey act in it."""
    enc = ambushed([15, 20, 20])
    assert first_round(enc).surprise and surprise_event(enc).surprised == []
    assert "Nobody is surprised, but there is a surprise round" in surprise_event(enc).explain()
    acted = []
    while enc.state.surprise_round:
        assert enc.state.turn is not None
        acted.append(enc.state.turn.actor)
        enc.act(ax.EndTurn())
    assert acted == ["b1", "b2", "h1", "h2"]


def test_ep_surp_01_19_29_the_unaware_are_surprised_and_stay_flat_footed() -> None:
    """EP-SURP-01, EP-SURP-29: h2 fails awareness, so it is surprised; EP-SURP-19: it loses its surprise-round
    action and stays
    Flat-Footed until its first turn in round 1."""
    enc = ambushed([10, 18, 3])
    for _ in range(3):
        enc.act(ax.EndTurn())
    skipped = [e for e in enc.log if isinstance(e, ev.TurnEnded) and e.combatant == "h2"]
    assert skipped and "surprised" in skipped[0].reason
    assert enc.state.round == 2 and enc.state.get("h2").has(FLAT_FOOTED)
    for _ in range(3):
        enc.act(ax.EndTurn())
    assert enc.state.turn is not None and enc.state.turn.actor == "h2" and not enc.state.get("h2").has(FLAT_FOOTED)


def test_ep_surp_24_26_spotting_lowers_the_dc_one_step_per_creature() -> None:
    """EP-SURP-24: Challenging DC of the ambushers' CR; EP-SURP-26 (AMBIGUOUS): a Spot-checking creature faces the
    Average DC (17 at CR 2) — itself only, or (option ``spot_check_step: group``) its whole group."""
    enc = ambushed([10, 13, 13], spotting=["h1"])
    assert surprise_event(enc).surprised == ["h2"]
    assert "h1 Perception 17 = d20 13 +4 vs average DC 17 of CR 2 (one step easier" in texts(enc.log)
    group = ep(party(), dice=[10, 13, 13], variants={"spot_check_step": "group"},
               surprise={"ambush": {"ambushers": ["b1", "b2"], "spotting": ["h1"]}})
    assert surprise_event(group).surprised == []


def test_ep_surp_18_a_single_standard_action_in_the_surprise_round() -> None:
    """EP-SURP-18: one standard action, no separate move or swift, no full-round action; the reading lets it be spent
    as a move action (option ``surprise_standard_may_degrade``)."""
    enc = ep(party(position=[5, 0]), dice=[15, 20, 20], surprise={"ambush": {"ambushers": ["b1", "b2"]}})
    assert enc.state.turn is not None and enc.state.turn.pools == {"standard": 1, "free": 1}
    assert_illegal(enc, ax.Activity("lift-gate"), "no full-round action .EP-SURP-18")
    enc.act(ax.Move(to=(0, 1)))
    assert_illegal(enc, ax.Move(to=(1, 1)), "no move action left")
    strict = ep(party(), dice=[15, 20, 20], variants={"surprise_standard_may_degrade": False},
                surprise={"ambush": {"ambushers": ["b1", "b2"]}})
    assert_illegal(strict, ax.Move(to=(0, 1)), "cannot be spent as a move action")


def test_ep_surp_32_35_aware_prey_may_hold_or_ready_and_then_have_acted() -> None:
    """EP-SURP-32: an aware creature may ready or hold in the surprise round; EP-SURP-35: it has then acted and is
    no longer Flat-Footed."""
    combatants = party()
    combatants[2]["initiative"], combatants[3]["initiative"] = 200, 199
    enc = ep(combatants, dice=[15, 20, 20, 1], surprise={"ambush": {"ambushers": ["b1", "b2"]}})
    assert enc.state.turn is not None and enc.state.turn.actor == "h1"
    enc.act(Ready(trigger="b1"))
    assert not enc.state.get("h1").has(FLAT_FOOTED)
    enc.act(ax.EndTurn())
    assert enc.state.turn is not None and enc.state.turn.actor == "h2"
    events = enc.act(Hold(after="b2"))  # b1's turn starts: h1's readied attack interrupts (d20 1, a miss)
    assert not enc.state.get("h2").has(FLAT_FOOTED)
    assert [(e.attacker, e.target) for e in events if isinstance(e, ev.AttackResolved)] == [("h1", "b1")]


def test_ep_surp_ambush_inputs_are_checked() -> None:
    """Bad ambush inputs are refused with the field named."""
    data = {"ruleset": "epic-path", "map": {"width": 10, "height": 10}, "combatants": party(),
            "surprise": {"ambush": {"ambushers": ["b1", "h1", "nobody"], "spotting": ["b1"]}}}
    with pytest.raises(ScenarioError) as err:
        battle_from_data(data)
    text = str(err.value)
    assert "surprise.ambush.ambushers[2]: no combatant 'nobody'" in text
    assert "one party ambushes" in text and "surprise.ambush.spotting[0]: 'b1' is an ambusher" in text


class _Dice:
    """Just enough of a dice source for the pure ambush check."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = faces

    def roll(self, sides: int, purpose: str = "") -> int:
        return self.faces.pop(0)
