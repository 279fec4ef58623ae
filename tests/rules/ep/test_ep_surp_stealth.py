"""Epic Path's stealth around the surprise round: the attack from stealth (EP-SURP-14), the charge that breaks it
(EP-SURP-21), the ambushers' Spot checks (EP-SURP-28), awareness that penetrates nothing (EP-SURP-31), fighting
defensively while holding or readying (EP-SURP-33) and the active Perception check (EP-SURP-34)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.ep._util import assert_illegal, ep, remaining, stats, texts

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.encounter.visibility import can_see
from d20combat.rulesets.epic_path.melee import FightDefensively, FullAttack
from d20combat.rulesets.epic_path.stealth import ActivePerception
from d20combat.rulesets.epic_path.turn_actions import Hold, Ready

SNEAK = stats("sneak", attacks=[{"weapon": "club"}])
"""Attack +0, club 1d6."""
TARGET = stats("target", abilities={"dex": 14}, attacks=[{"weapon": "club"}])
"""AC 12, Flat-Footed AC 10."""


def resolved(events: list[ev.Event]) -> ev.AttackResolved:
    return next(e for e in events if isinstance(e, ev.AttackResolved))


# --------------------------------------------------------------------------------------------- EP-SURP-14
@pytest.mark.parametrize("hidden", [True, False])
def test_ep_surp_14_an_attack_from_stealth_catches_the_target_flat_footed(hidden: bool) -> None:
    """EP-SURP-14: d20 10 against AC 12 misses; from stealth the target is Flat-Footed against the attack (AC 10)
    and it hits; the attack gives the attacker away."""
    enc = ep([{"id": "a", "side": "x", "stats": SNEAK, "position": [0, 0], "conditions": ["hidden"] if hidden else []},
              {"id": "t", "side": "y", "stats": TARGET, "position": [1, 0]}], dice=[10, 3])
    events = enc.act(ax.Attack("t"))
    assert resolved(events).hit is hidden
    assert not enc.state.get("a").has("hidden")
    if hidden:
        assert "its attack from stealth gives it away (EP-SURP-14)" in texts(events)


def test_ep_surp_14_only_that_attack() -> None:
    """EP-SURP-14: Flat-Footed against *that* attack: the next one, stealth gone, meets AC 12."""
    veteran = stats("veteran", attack_bonus=6, attacks=[{"weapon": "club"}])
    enc = ep([{"id": "a", "side": "x", "stats": veteran, "position": [0, 0], "conditions": ["hidden"]},
              {"id": "t", "side": "y", "stats": {**TARGET, "hp": 40}, "position": [1, 0]}], dice=[4, 3, 9])
    assert resolved(enc.act(FullAttack("t"))).hit          # 4 + 6 = 10 against Flat-Footed AC 10
    assert not resolved(enc.act(FullAttack("t"))).hit      # 9 + 6 − 5 = 10 against AC 12


# --------------------------------------------------------------------------------------------- EP-SURP-21
@pytest.mark.parametrize(("alert", "hit"), [(True, False), (False, True)])
def test_ep_surp_21_a_charge_breaks_stealth_before_its_attack(alert: bool, hit: bool) -> None:
    """EP-SURP-21: the hidden charger's stealth is broken before the charge attack: d20 8 + charge 2 = 10 misses AC
    12; in the first round the target has not acted yet and is Flat-Footed anyway (AC 10): a hit."""
    enc = ep([{"id": "a", "side": "x", "stats": SNEAK, "position": [0, 0], "conditions": ["hidden"]},
              {"id": "t", "side": "y", "stats": TARGET, "position": [4, 0]}], dice=[8, 3], alert=alert)
    events = enc.act(ax.Charge("t"))
    assert resolved(events).hit is hit
    assert "a charge always breaks stealth (EP-SURP-21)" in texts(events)
    assert not enc.state.get("a").has("hidden")


# --------------------------------------------------------------------------------------------- ambushes
BANDIT = stats("bandit", attributes={"cr": 2}, attacks=[{"weapon": "club"}])
HERO = stats("hero", skills={"perception": 4}, attacks=[{"weapon": "club"}])


def ambush(dice: list[int], *, heroes_first: bool = False, variants: dict[str, Any] | None = None,
           h1: dict[str, Any] | None = None, b1: dict[str, Any] | None = None,
           b2: dict[str, Any] | None = None) -> Encounter:
    """b1, b2 (CR 2) ambush h1, h2 (Perception +4; awareness DC 22); the ambush check is given (12)."""
    bandits = [{"id": "b1", "side": "bandits", "stats": BANDIT, "position": [0, 0], **(b1 or {})},
               {"id": "b2", "side": "bandits", "stats": BANDIT, "position": [0, 3], **(b2 or {})}]
    heroes = [{"id": "h1", "side": "heroes", "stats": HERO, "position": [1, 0], **(h1 or {})},
              {"id": "h2", "side": "heroes", "stats": HERO, "position": [8, 8]}]
    return ep(heroes + bandits if heroes_first else bandits + heroes, dice=dice, alert=False, variants=variants,
              surprise={"ambush": {"ambushers": ["b1", "b2"], "check": 12}})


def spotters(b1: int, b2: int) -> tuple[dict[str, Any], dict[str, Any]]:
    return ({"stats": {**BANDIT, "skills": {"perception": b1}}}, {"stats": {**BANDIT, "skills": {"perception": b2}}})


def test_ep_surp_28_the_ambushers_group_spot_check_finds_a_hidden_prey() -> None:
    """EP-SURP-28 (option ambusher_spot_mode = group, the default): one roll for the group with its best Perception
    (b2's +5): 10 + 5 = 15 against h1's Stealth 15 — h1 is found before the encounter begins."""
    b1, b2 = spotters(2, 5)
    enc = ambush([20, 20, 10], h1={"conditions": ["hidden", "stealth:15"]}, b1=b1, b2=b2)
    text = texts(enc.log)
    assert "the ambushers' Spot check (one for the group, b2's Perception) before the encounter: 15 = d20 10 + " \
           "Perception 5 vs h1's DC 15 (its Stealth 15) — found (EP-SURP-28)" in text
    assert not enc.state.get("h1").has("hidden") and remaining(enc) == 0


def test_ep_surp_28_option_one_spot_check_per_ambusher() -> None:
    """EP-SURP-28, option individual: each ambusher rolls: b1 12 + 2 = 14 fails, b2 9 + 5 = 14 fails — h1 stays
    hidden."""
    b1, b2 = spotters(2, 5)
    enc = ambush([20, 20, 12, 9], h1={"conditions": ["hidden", "stealth:15"]}, b1=b1, b2=b2,
                 variants={"ambusher_spot_mode": "individual"})
    text = texts(enc.log)
    assert "b1's Spot check before the encounter: 14" in text and "b2's Spot check before the encounter: 14" in text
    assert text.count("not found (EP-SURP-28)") == 2
    assert enc.state.get("h1").has("hidden") and remaining(enc) == 0


def test_ep_surp_28_invisible_prey_found_is_pinpointed_for_the_group() -> None:
    """EP-SURP-28: an invisible prey found by the group's roll: every ambusher knows its square."""
    b1, b2 = spotters(0, 3)
    enc = ambush([20, 20, 12], h1={"conditions": ["invisible", "stealth:14"]}, b1=b1, b2=b2)
    for cid in ("b1", "b2"):
        assert enc.state.get(cid).has("pinpointing:h1:1:0")


def test_ep_surp_28_no_spot_checks_without_unseen_prey() -> None:
    """EP-SURP-28: nobody to find, no roll."""
    enc = ambush([20, 20])
    assert "Spot check" not in texts(enc.log) and remaining(enc) == 0


def test_ep_surp_31_awareness_does_not_penetrate_stealth_or_invisibility() -> None:
    """EP-SURP-31: h1 notices the ambush (Perception 24 ≥ 22) but still does not see the hidden b1 nor know where
    the invisible b2 is: it only knows foes are there."""
    enc = ambush([20, 20], b1={"conditions": ["hidden"]}, b2={"conditions": ["invisible"]})
    assert "h1" not in next(e for e in enc.log if isinstance(e, ev.SurpriseDetermined)).surprised
    assert enc.state.get("b1").has("hidden") and not can_see(enc, "h1", "b1")
    assert not any(c.startswith("pinpointing") for c in enc.state.get("h1").conditions)


# --------------------------------------------------------------------------------------------- EP-SURP-33
def test_ep_surp_33_fight_defensively_and_hold_in_the_surprise_round() -> None:
    """EP-SURP-33: h1 is aware and acts before every ambusher: it declares fighting defensively and holds its action
    until b1 has acted — b1's attack meets the +2 dodge at once (d20 11 + 0 < AC 12), and h1's own attack, when its
    action comes, takes the −4."""
    enc = ambush([20, 20, 11, 15, 3], heroes_first=True)
    assert enc.state.surprise_round and enc.state.turn is not None and enc.state.turn.actor == "h1"
    enc.act(FightDefensively())
    enc.act(Hold(after="b1"))
    while enc.state.turn is not None and enc.state.turn.actor != "b1":
        enc.act(ax.EndTurn())
    struck = resolved(enc.act(ax.Attack("h1")))
    assert not struck.hit and "fighting defensively" in " ".join(struck.lines)
    enc.act(ax.EndTurn())
    assert enc.state.turn is not None and enc.state.turn.actor == "h1" and enc.state.surprise_round
    own = resolved(enc.act(ax.Attack("b1")))
    assert "− fighting defensively 4" in " ".join(own.lines)


def test_ep_surp_33_fight_defensively_and_ready() -> None:
    """EP-SURP-33: or it readies an attack: the readied attack, fired when b1 starts its turn, takes the −4."""
    enc = ambush([20, 20, 15, 3], heroes_first=True)
    enc.act(FightDefensively())
    enc.act(Ready(trigger="b1"))
    events: list[ev.Event] = []
    while enc.state.turn is not None and enc.state.turn.actor != "b1":
        events += enc.act(ax.EndTurn())
    assert "− fighting defensively 4" in " ".join(resolved(events).lines)


# --------------------------------------------------------------------------------------------- EP-SURP-34
def test_ep_surp_34_active_perception_in_the_surprise_round_told_to_the_allies() -> None:
    """EP-SURP-34: h1 spends the surprise round's standard action on an active Perception check: 11 + 4 = 15 finds
    the hidden b1 (Stealth 15) — seen now by all — and the invisible b2 (Stealth 12), whose square h1 and h2 know;
    the single standard action is spent."""
    enc = ambush([20, 20, 11], heroes_first=True, b1={"conditions": ["hidden", "stealth:15"]},
                 b2={"conditions": ["invisible", "stealth:12"]})
    events = enc.act(ActivePerception())
    assert [e.cost for e in events if isinstance(e, ev.BudgetSpent)] == ["standard"]
    text = texts(events)
    assert "h1's active Perception 15 = d20 11 + Perception 4 vs b1's DC 15 (its Stealth 15) — finds it, and tells " \
           "h2 (EP-SURP-34)" in text
    assert not enc.state.get("b1").has("hidden") and can_see(enc, "h2", "b1")
    assert enc.state.get("h1").has("pinpointing:b2:0:3") and enc.state.get("h2").has("pinpointing:b2:0:3")
    assert_illegal(enc, ActivePerception(), "standard action")


def test_ep_surp_34_without_relay_and_without_anything_to_find() -> None:
    """EP-SURP-34: kept to itself, only h1 knows b2's square; with no foe in stealth or invisible there is nothing
    to look for."""
    enc = ambush([20, 20, 11], heroes_first=True, b2={"conditions": ["invisible", "stealth:12"]})
    enc.act(ActivePerception(relay=False))
    assert enc.state.get("h1").has("pinpointing:b2:0:3") and not enc.state.get("h2").has("pinpointing:b2:0:3")
    plain = ambush([20, 20], heroes_first=True)
    assert_illegal(plain, ActivePerception(), "no foe is in stealth or invisible")


def test_ep_surp_21_a_surprise_round_charge_with_the_standard_action() -> None:
    """EP-SURP-21 (seed L76: charges are the surprise round's most common tactic): the hidden b1 charges h1 with its
    single standard action; stealth breaks first, but h1 has not acted and is Flat-Footed anyway: d20 8 + charge 2 =
    10 hits Flat-Footed AC 10 (AC 12 otherwise). Other full-round actions stay refused (EP-SURP-18)."""
    from d20combat.rulesets.epic_path.economy import FULL_ROUND_LOCK

    h1 = {"position": [4, 0], "stats": {**HERO, "abilities": {"dex": 14}}}
    enc = ambush([1, 20, 8, 3], h1=h1, b1={"conditions": ["hidden"]})
    assert enc.state.surprise_round and enc.state.turn is not None and enc.state.turn.actor == "b1"
    assert_illegal(enc, ax.Activity("lift-gate"), r"no full-round action .EP-SURP-18")
    events = enc.act(ax.Charge("h1"))
    assert resolved(events).hit and "a charge always breaks stealth (EP-SURP-21)" in texts(events)
    assert [e.cost for e in events if isinstance(e, ev.BudgetSpent)] == ["none", "standard"]
    assert enc.state.turn is not None and not any(enc.state.turn.pools.values())
    assert not any(e.name == FULL_ROUND_LOCK for e in enc.state.get("b1").effects)
