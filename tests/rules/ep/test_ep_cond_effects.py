"""Spells and effects with a save against incorporeal and phased creatures (EP-COND-14, EP-COND-34, EP-COND-35),
through the ``effect`` action. Forced dice: the damage dice (once), then per target a d% where the 50 % applies
and the save's d20."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.ep._util import assert_illegal, ep, stats, texts

from d20combat.encounter import events as ev
from d20combat.encounter.actions import action_from_dict
from d20combat.rulesets.epic_path.effects import UseEffect

T = stats("t", hp=40, attack_bonus=1, attacks=[{"weapon": "club"}])
"""Reflex, Fortitude and Will +0."""


def field(conds: tuple[str, ...] = (), *, dice: list[int], variants: dict[str, Any] | None = None,
          caster_conds: tuple[str, ...] = ()) -> Any:
    return ep([{"id": "c", "side": "h", "stats": T, "position": [0, 0], "conditions": list(caster_conds)},
               {"id": "t", "side": "f", "stats": T, "position": [3, 0], "conditions": list(conds)}],
              dice=dice, variants=variants)


def hp(enc: Any) -> int:
    return int(enc.state.get("t").hp)


HOLD = UseEffect(name="hold", targets=("t",), save="will", dc=15, condition="paralyzed", rounds=3)


# --- EP-COND-14 / EP-COND-35: no damage, 50 % ----------------------------------------------------------------

@pytest.mark.parametrize("state", ["incorporeal", "phased"])
@pytest.mark.parametrize(("pct", "takes"), [(50, True), (51, False)])
def test_ep_cond_14_35_a_non_damaging_effect_affects_them_half_the_time(state: str, pct: int, takes: bool) -> None:
    """EP-COND-14 (incorporeal), EP-COND-35 (phased): d% 50 or less lets the effect take hold (then the Will save,
    failed at d20 2, brings the condition); over 50 it has no effect and no save is rolled."""
    enc = field((state,), dice=[pct, 2])
    events = enc.act(HOLD)
    rule = "EP-COND-14" if state == "incorporeal" else "EP-COND-35"
    assert f"d% {pct}" in texts(events) and rule in texts(events)
    assert enc.state.get("t").has("paralyzed") is takes
    assert any(isinstance(e, ev.SaveRolled) for e in events) is takes


def test_ep_cond_14_a_corporeal_creature_is_simply_affected() -> None:
    """EP-COND-14: no d% for a corporeal target: the first die is the save (2: fails)."""
    enc = field(dice=[2])
    enc.act(HOLD)
    assert enc.state.get("t").has("paralyzed")
    assert any(e.name == "hold: paralyzed" for e in enc.state.get("t").effects)


def test_ep_cond_14_force_or_an_incorporeal_user_affects_it_normally() -> None:
    """EP-COND-13/14: a force effect, or one used by an incorporeal creature, is not corporeal: no 50 %; a phased
    target rolls still (EP-COND-35 names no exception)."""
    force = field(("incorporeal",), dice=[2])
    force.act(UseEffect(name="force cage", targets=("t",), save="will", dc=15, condition="entangled", force=True))
    assert force.state.get("t").has("entangled")
    ghostly = field(("incorporeal",), dice=[2], caster_conds=("incorporeal",))
    ghostly.act(HOLD)
    assert ghostly.state.get("t").has("paralyzed")
    phased = field(("phased",), dice=[80], caster_conds=("incorporeal",))
    assert "EP-COND-35" in texts(phased.act(HOLD))
    assert not phased.state.get("t").has("paralyzed")


# --- EP-COND-34: phased evasion ----------------------------------------------------------------------------

@pytest.mark.parametrize("save", ["fort", "ref", "will"])
def test_ep_cond_34_no_damage_on_a_successful_save_of_any_kind(save: str) -> None:
    """EP-COND-34: 6d6 = 21, a successful save (d20 18 vs DC 15): a phased creature takes nothing, like Evasion but
    for Fortitude, Reflex and Will; a corporeal one takes half, 10."""
    dice = [6, 5, 4, 3, 2, 1, 18]
    enc = field(("phased",), dice=dice)
    events = enc.act(UseEffect(name="blast", targets=("t",), save=save, dc=15, damage="6d6"))
    assert hp(enc) == 40 and "no damage on a successful save, like Evasion (EP-COND-34)" in texts(events)
    plain = field(dice=dice)
    plain.act(UseEffect(name="blast", targets=("t",), save=save, dc=15, damage="6d6"))
    assert hp(plain) == 30


@pytest.mark.parametrize(("option", "taken"), [("evasion", 10), ("improved_evasion", 5)])
def test_ep_cond_34_option_on_a_failed_save(option: str, taken: int) -> None:
    """EP-COND-34 (AMBIGUOUS, ep_phased_save_damage): a failed save (d20 3) — full 21, halved by EP-COND-33 to 10
    ('evasion', the default); 'improved_evasion': half, 10, then halved again to 5."""
    enc = field(("phased",), dice=[6, 5, 4, 3, 2, 1, 3], variants={"ep_phased_save_damage": option})
    events = enc.act(UseEffect(name="blast", targets=("t",), save="fort", dc=15, damage="6d6"))
    assert hp(enc) == 40 - taken
    assert "phased: half damage from all sources (EP-COND-33)" in texts(events)


def test_ep_cond_34_a_force_effect_is_not_halved_but_evasion_still_holds() -> None:
    """EP-COND-34/36: force deals full damage to a phased creature on a failed save; a success still spares it."""
    fail = field(("phased",), dice=[6, 5, 4, 3, 2, 1, 3])
    fail.act(UseEffect(name="force blast", targets=("t",), save="ref", dc=15, damage="6d6", force=True))
    assert hp(fail) == 19
    ok = field(("phased",), dice=[6, 5, 4, 3, 2, 1, 19])
    ok.act(UseEffect(name="force blast", targets=("t",), save="ref", dc=15, damage="6d6", force=True))
    assert hp(ok) == 40


def test_ep_effect_bad_input_is_refused_and_changes_nothing() -> None:
    """The effect action names what is wrong and changes nothing."""
    enc = field(dice=[])
    before = enc.state
    assert_illegal(enc, UseEffect(name="x", targets=("t",), save="luck", dc=15, damage="1d6"), "fort, ref or will")
    assert_illegal(enc, UseEffect(name="x", targets=("t",), save="ref", dc=0, damage="1d6"), "effect.dc")
    assert_illegal(enc, UseEffect(name="x", targets=("t",), save="ref", dc=15), "damage, a condition")
    assert_illegal(enc, UseEffect(name="x", targets=("nobody",), save="ref", dc=15, damage="1d6"), "'nobody'")
    assert_illegal(enc, UseEffect(name="x", targets=("t",), save="ref", dc=15, damage="2x"), "effect.damage")
    assert_illegal(enc, UseEffect(name="", targets=("t",), save="ref", dc=15, damage="1d6"), "effect.name")
    assert_illegal(enc, UseEffect(name="x", targets=("t",), save="ref", dc=15, damage="1d6", origin=(40, 0)),
                   "effect.origin")
    assert enc.state is before


def test_ep_effect_from_json_as_the_api_sends_it() -> None:
    """EP-COND-35: the action as JSON (the API's and the page's form) — a phased target, d% 20 ≤ 50, then the
    Will save 2 fails: shaken for 2 rounds."""
    enc = field(("phased",), dice=[20, 2])
    action = action_from_dict({"kind": "effect", "name": "fear", "targets": ["t"], "save": "will", "dc": 14,
                               "condition": "shaken", "rounds": 2}, enc.ruleset.actions.types())
    enc.act(action)
    assert enc.state.get("t").has("shaken")
