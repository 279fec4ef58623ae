"""Finding and fighting invisible creatures (EP-CONC-16..35): Spot checks, groping, Stealth bonuses, water,
gaze attacks. The Average DC is data/ep_dc_ladder.yaml's 15 + CR (an assumption)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.ep._util import FIGHTER, armored, assert_illegal, ep, remaining, stats, texts

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.gm_actions import GmCheck
from d20combat.encounter.visibility import visible_to
from d20combat.rulesets.epic_path import Grope, Spot

LOOKER = stats("looker", attack_bonus=5, skills={"perception": 5}, attacks=[{"weapon": "club"}])
"""Perception +5, melee +5."""
SPOOK = armored("spook", 0, hp=30, skills={"stealth": 6}, attributes={"cr": 2})
"""AC 10, touch 10; CR 2: Average DC 17."""


def scene(spook_at=(3, 0), conds=("invisible",), *, dice=(), rows=None, looker=LOOKER) -> Any:
    return ep([{"id": "l", "side": "h", "stats": looker, "position": [0, 0]},
               {"id": "s", "side": "f", "stats": SPOOK, "position": list(spook_at), "conditions": list(conds)}],
              dice=dice, rows=rows)


def test_ep_conc_16_22_passive_perception_never_sees_the_invisible() -> None:
    """EP-CONC-16, EP-CONC-22: nothing reveals an invisible creature to the other side unless it looks for it (and
    even then only its square): it is not among the creatures the heroes see."""
    enc = scene()
    assert "s" not in visible_to(enc, "h")
    assert "s" in visible_to(scene(conds=()), "h")


def test_ep_conc_21_22_23_a_spot_check_against_the_average_dc_reveals_the_square() -> None:
    """EP-CONC-21: Perception 17 = d20 12 + 5 meets the Average DC 17 of CR 2; EP-CONC-22: it is a move action;
    EP-CONC-23: the square is known but s keeps total concealment (50 %, no guessing needed)."""
    enc = scene(dice=[12])
    events = enc.act(Spot())
    assert "Perception 17 = d20 12 + Perception 5 — finds 1 square" in texts(events)
    assert enc.state.turn is not None and not enc.state.turn.move and enc.state.turn.standard
    assert "pinpointing:s:3:0" in enc.state.get("l").conditions
    fail = scene(dice=[11])
    assert "finds nothing" in texts(fail.act(Spot()))
    assert not any(c.startswith("pinpointing") for c in fail.state.get("l").conditions)


def test_ep_conc_20_21_only_within_30_ft() -> None:
    """EP-CONC-20, EP-CONC-21: a creature 35 ft away is not found even by a high roll."""
    enc = scene(spook_at=(7, 0), dice=[20])
    assert "finds nothing" in texts(enc.act(Spot()))


def test_ep_conc_20_a_stealthed_invisible_creature_opposes_with_its_stealth() -> None:
    """EP-CONC-20: s made a Stealth check of 22 (stealth:22): 17 does not find it, 22 does."""
    assert "finds nothing" in texts(scene(conds=("invisible", "stealth:22"), dice=[12]).act(Spot()))
    assert "finds 1 square" in texts(scene(conds=("invisible", "stealth:22"), dice=[17]).act(Spot()))


def test_ep_conc_24_the_gms_modifier_for_a_moving_or_noisy_creature() -> None:
    """EP-CONC-24: spot_modifier:-5 (s is noisy) lowers the DC to 12: a 7 + 5 finds it."""
    enc = scene(conds=("invisible", "spot_modifier:-5"), dice=[7])
    events = enc.act(Spot())
    assert "finds 1 square" in texts(events)
    assert "-5 GM's modifier (EP-CONC-24)" in next(e for e in events if isinstance(e, ev.ConditionSet)
                                                  and e.present).reason


def test_ep_conc_17_invisible_stealth_bonus_plus_2_or_4_standing_still() -> None:
    """EP-CONC-17: Stealth 6 + 2 circumstance while invisible; after a turn without moving, +4."""
    enc = ep([{"id": "s", "side": "f", "stats": SPOOK, "position": [3, 0], "conditions": ["invisible"]},
              {"id": "l", "side": "h", "stats": LOOKER, "position": [0, 0]}], dice=[10, 10])
    first = next(e for e in enc.gm(GmCheck(target="s", skill="stealth", dc=10)) if isinstance(e, ev.SaveRolled))
    assert first.total == 18 and "invisible (EP-CONC-17) 2" in first.explanation
    enc.act(ax.EndTurn())
    assert enc.state.get("s").has("standing_still")
    second = next(e for e in enc.gm(GmCheck(target="s", skill="stealth", dc=10)) if isinstance(e, ev.SaveRolled))
    assert second.total == 20


def test_ep_conc_25_26_groping_two_adjacent_squares_pinpoints_without_damage() -> None:
    """EP-CONC-25: a standard action, a touch attack into two adjacent squares in reach; EP-CONC-26: 15 ≥ touch AC 10
    then d% 60 > 50 — no damage, the square is pinpointed."""
    enc = scene(spook_at=(1, 0), dice=[10, 60])
    hp = enc.state.get("s").hp
    events = enc.act(Grope(squares=((1, 0), (1, 1))))
    assert "finds something at (1,0)" in texts(events)
    assert "pinpointing:s:1:0" in enc.state.get("l").conditions and enc.state.get("s").hp == hp
    assert enc.state.turn is not None and not enc.state.turn.standard
    miss = scene(spook_at=(1, 0), dice=[10, 40])
    assert "finds nothing" in texts(miss.act(Grope(squares=((1, 0), (1, 1)))))
    assert remaining(miss) == 0


def test_ep_conc_25_bad_squares_are_refused() -> None:
    """EP-CONC-25: the two squares must be adjacent to each other and within reach."""
    enc = scene(spook_at=(1, 0))
    assert_illegal(enc, Grope(squares=((1, 0), (1, 2))), "two adjacent squares")
    assert_illegal(enc, Grope(squares=((2, 0), (2, 1))), "not within l's reach")


def test_ep_conc_33_an_invisible_creature_in_water_shows_its_square() -> None:
    """EP-CONC-33: in deep water (w) its square is known to everyone, but total concealment's 50 % stays."""
    rows = [".w..", "...."]
    enc = scene(spook_at=(1, 0), rows=rows)
    plan = enc.plan_attack("l", "s")
    assert plan.concealment == 50 and "displacing the water" in plan.concealment_reason


def test_ep_conc_35_invisible_creatures_cannot_use_gaze_attacks() -> None:
    """EP-CONC-35: an invisible medusa's gaze is refused; a visible one may use it."""
    medusa = stats("medusa", attack_bonus=5, attacks=[
        {"weapon": {"name": "gaze", "damage": "1d4", "kind": "spell", "range_increment_ft": 30,
                    "qualities": ["gaze"]}}])
    enc = ep([{"id": "m", "side": "f", "stats": medusa, "position": [0, 0], "conditions": ["invisible"]},
              {"id": "v", "side": "h", "stats": FIGHTER, "position": [3, 0]}])
    assert_illegal(enc, ax.Attack(target="v"), "cannot use a gaze attack")
    enc = ep([{"id": "m", "side": "f", "stats": medusa, "position": [0, 0]},
              {"id": "v", "side": "h", "stats": FIGHTER, "position": [3, 0]}])
    assert enc.check(ax.Attack(target="v")) is None


def test_ep_conc_25_the_new_actions_come_from_json_like_the_core_ones() -> None:
    """EP-CONC-21, EP-CONC-25, EP-MISC-06: spot, grope and assist are the ruleset's registered kinds, read from the
    API's JSON (lists for squares), with bad fields named."""
    from d20combat.encounter.actions import ActionFormatError, action_from_dict

    enc = scene()
    own = enc.ruleset.actions.types()
    assert action_from_dict({"kind": "grope", "squares": [[1, 0], [1, 1]]}, own) == Grope(squares=((1, 0), (1, 1)))
    assert action_from_dict({"kind": "spot"}, own) == Spot()
    with pytest.raises(ActionFormatError, match=r"grope\.squares"):
        action_from_dict({"kind": "grope", "squares": "here"}, own)
