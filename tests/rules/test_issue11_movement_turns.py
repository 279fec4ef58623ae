"""Issue 11 — where two rules meet: movement, turn start, strain and dropped items.

Items 1 (a charge provokes in every threatened square it leaves), 2 (start-of-turn changes settle the turn's
pools), 6 (every strenuous action strains a disabled creature), 8 (a creature drops only what it holds) and
10(c) (off-guard: the charge's −2 AC from the start of the charge movement)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.golden.corpus import random_battle
from tests.rules.cmv._util import FIGHTER, armored, cmv, stats
from tests.rules.skl.helpers import encounter, fighter, resolve, sheet

from d20combat.controllers import TacticalAI
from d20combat.dice import SeededDice
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.rulesets.skill_based import TWO_WEAPON, BonusAttack, CastSpell, Feint
from d20combat.scenario import battle_from_data

T15 = armored("target", 5)


# ------------------------------------------------------------------ item 1: the charge provokes on its way
def _cmv_charge_past_goblin(**kw: Any) -> Encounter:
    """a at (1,1) charges t at (8,1) along row 1; goblin g at (4,2) threatens (3..5, 1), not a's start square."""
    return cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1]},
                {"id": "g", "side": "f", "stats": FIGHTER, "position": [4, 2]},
                {"id": "t", "side": "f", "stats": T15, "position": [8, 1]}], **kw)


def test_cmv_cov_08_charge_past_a_threatening_goblin_provokes() -> None:
    """CMV-COV-08 (EP-AOO-06/08, PFB-CHG-07): the charge leaves (3,1), which the goblin threatens: a reaction
    attack is offered, exactly as for a walk along the same line; once declined, the goblin is not offered a
    second one for (4,1) or (5,1) in the same action (one reaction per enemy per action)."""
    walk = _cmv_charge_past_goblin()
    walk.act(ax.Move(path=[[c, 1] for c in range(2, 8)]))
    assert walk.pending is not None and walk.pending.prompt.reactor == "g"
    enc = _cmv_charge_past_goblin(dice=(1,))
    enc.act(ax.Charge("t", to=(7, 1)))
    assert enc.pending is not None and enc.pending.prompt.reactor == "g"
    events = enc.respond("decline")
    assert enc.pending is None
    assert enc.state.get("a").position == (7, 1)
    moved = [e for e in events if isinstance(e, ev.Moved) and e.combatant == "a"]
    assert sum(e.cost_ft for e in moved) == 30 and moved[-1].path[-1] == [7, 1]
    assert any(isinstance(e, ev.AttackResolved) and e.attacker == "a" for e in events)


def test_skl_aoo_10_11_charge_past_a_threatening_guard_provokes() -> None:
    """SKL-AOO-10/11 with ``skl_charge``: moving out of a threatened square during a charge provokes from the
    opponent threatening it, once per action."""
    enc = encounter([{"id": "a", "side": "x", "stats": fighter("a"), "position": [1, 1]},
                     {"id": "g", "side": "y", "stats": fighter("g"), "position": [4, 2]},
                     {"id": "t", "side": "y", "stats": sheet("t"), "position": [8, 1]}],
                    dice=[2] * 10, variants={"skl_charge": True})
    enc.act(ax.Charge("t", to=(7, 1)))
    assert enc.pending is not None and enc.pending.prompt.reactor == "g"
    assert enc.pending.prompt.kind == "attack_of_opportunity"
    enc.respond("decline")
    assert enc.pending is None or enc.pending.prompt.reactor != "g"


# ------------------------------------------------------------------ item 10(c): −2 AC from the charge onward
def _aoo_during_charge(variants: dict[str, Any]) -> ev.AttackResolved:
    enc = _cmv_charge_past_goblin(dice=(4, 3, 1, 1, 1), variants=variants)
    enc.act(ax.Charge("t", to=(7, 1)))
    assert enc.pending is not None and enc.pending.prompt.reactor == "g"
    events = enc.respond("attack")
    return next(e for e in events if isinstance(e, ev.AttackResolved) and e.attacker == "g")


def test_pfb_chg_12_cmv_cov_08_charge_ac_penalty_from_the_start_of_the_charge() -> None:
    """PFB-CHG-12 ("from the charge onward") with CMV-COV-08: by default the goblin's reaction attack during
    the charge already sees the charger's −2 AC: +5 + d20 4 = 9 hits AC 10 − 2."""
    aoo = _aoo_during_charge({})
    assert aoo.hit


def test_pfb_chg_12_variant_cmv_charge_ac_from_start_off() -> None:
    """``cmv_charge_ac_from_start = false``: the −2 starts with the charge attack, so 9 misses AC 10."""
    aoo = _aoo_during_charge({"cmv_charge_ac_from_start": False})
    assert not aoo.hit


# ------------------------------------------------------------------ item 2: start-of-turn changes settle the pools
def test_cmv_cond_28_29_panicked_creature_that_stops_cowering_gets_its_actions() -> None:
    """CMV-COND-28/29: a panicked creature cowering (cornered) that is no longer cornered at the start of its turn
    stops cowering; its turn's pools are then the full ones, so it can flee."""
    enc = cmv([{"id": "t", "side": "f", "stats": FIGHTER, "position": [2, 1]},
               {"id": "a", "side": "h", "stats": FIGHTER, "position": [6, 6],
                "conditions": ["panicked:t", "cowering:cornered"]}])
    enc.act(ax.EndTurn())
    turn = enc.state.turn
    assert turn is not None and turn.actor == "a"
    assert "cowering" not in {c.split(":")[0] for c in enc.state.get("a").conditions}
    assert turn.pools.get("standard") == 1 and turn.pools.get("move") == 1
    assert enc.check(ax.Move(to=(10, 10))) is None


# ------------------------------------------------------------------ item 6: every strenuous action strains
def _disabled(a_block: dict[str, Any], *, dice: list[int], **kw: Any) -> Encounter:
    return encounter([{"id": "a", "side": "x", "stats": a_block, "position": [1, 1], "hp": 0, "starts_down": True,
                       **kw},
                      {"id": "b", "side": "y", "stats": sheet("b", hp=80), "position": [2, 1]}],
                     dice=dice, variants={"skl_health": "pf1"})


def _strained(events: list[ev.Event]) -> bool:
    return any(isinstance(e, ev.Damaged) and e.source == "strenuous" and e.target == "a" for e in events)


def test_skl_dmg_04_pfb_hp_01_a_core_attack_at_0_hp_strains() -> None:
    """SKL-DMG-04 (skl_health = pf1), PFB-HP-01: a disabled creature's attack costs it 1 hp (the baseline)."""
    enc = _disabled(fighter("a"), dice=[2] * 6)
    assert _strained(resolve(enc, ax.Attack("b"))) and enc.state.get("a").hp == -1


def test_skl_dmg_04_pfb_hp_01_a_feint_at_0_hp_strains() -> None:
    """SKL-DMG-04, PFB-HP-01, SKL-FEINT-02: a feint is a complex (standard) action: 1 hp at 0 hp."""
    enc = _disabled(fighter("a"), dice=[10, 10])
    assert _strained(resolve(enc, Feint("b"))) and enc.state.get("a").hp == -1


def test_skl_dmg_04_pfb_hp_01_a_spell_at_0_hp_strains() -> None:
    """SKL-DMG-04, PFB-HP-01, SKL-CSPL: casting a spell is a complex action: 1 hp at 0 hp."""
    caster = sheet("a", skills={"sorcery": 3}, weapon="ray-of-frost")
    enc = _disabled(caster, dice=[2] * 6)
    assert _strained(resolve(enc, CastSpell("ray-of-frost", "b"))) and enc.state.get("a").hp == -1


def test_skl_dmg_04_pfb_hp_01_an_off_hand_bonus_attack_at_0_hp_strains() -> None:
    """SKL-DMG-04, PFB-HP-01, SKL-TWF-01: the off-hand bonus complex action is strenuous too."""
    skills = {"sword": 6, "dagger": 6}
    dual = sheet("a", skills=skills, attacks=[{"weapon": "longsword"}, {"weapon": "dagger", "off_hand": True}],
                 wielding="longsword", weapon=None)
    enc = _disabled(dual, dice=[2] * 6, conditions=[TWO_WEAPON])
    assert _strained(resolve(enc, BonusAttack("b"))) and enc.state.get("a").hp == -1


# ------------------------------------------------------------------ item 8: drop only what is held
def test_cmv_cond_13_14_15_stunned_without_a_shield_drops_only_its_weapon() -> None:
    """CMV-COND-13..15: a stunned creature with a club and no shield drops the club; no shield falls."""
    enc = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1]},
               {"id": "t", "side": "f", "stats": stats("t", attacks=[{"weapon": "club"}]), "position": [2, 1],
                "conditions": ["stunned"]}])
    drops = [e for e in enc.log if isinstance(e, ev.EquipmentChanged) and e.combatant == "t"]
    assert drops and all("shield" not in e.note for e in drops)
    assert enc.state.get("t").shield_state != "dropped" and enc.state.get("t").wielding is None


def test_cmv_cond_13_stunned_with_nothing_in_hand_drops_nothing() -> None:
    """CMV-COND-13: a stunned creature holding nothing (and owning no shield) drops nothing."""
    enc = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1]},
               {"id": "t", "side": "f", "stats": stats("t", attacks=[]), "position": [2, 1],
                "conditions": ["stunned"]}])
    assert not [e for e in enc.log if isinstance(e, ev.EquipmentChanged) and e.combatant == "t"]


# ------------------------------------------------------------------ property: pools reflect start-of-turn changes
def _check_pools(enc: Encounter) -> None:
    """The turn just started (nothing spent yet): its pools are what the economy gives now."""
    s = enc.state
    turn = s.turn
    if turn is None or s.ended or turn.actions_taken or turn.moved or turn.free_used:
        return
    if any(isinstance(e, ev.BudgetSpent) for e in enc.log[_last_turn_start(enc):]):
        return
    creature = enc.creature(turn.actor)
    start = _state_before_turn(enc)
    expected = enc.ruleset.economy.settled_turn_pools(creature, start.get(turn.actor), s.get(turn.actor),
                                                      surprise_round=s.surprise_round)
    assert turn.pools == expected, (turn.actor, turn.pools, expected)


def _last_turn_start(enc: Encounter) -> int:
    return max(i for i, e in enumerate(enc.log) if isinstance(e, ev.TurnStarted))


def _state_before_turn(enc: Encounter) -> Any:
    from d20combat.encounter.apply import apply
    state = enc.initial
    for e in enc.log[:_last_turn_start(enc)]:
        state = apply(state, e)
    return state


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), ruleset=st.sampled_from(["off-guard", "skill-based"]))
def test_property_an_actions_pools_reflect_start_of_turn_changes(seed: int, ruleset: str) -> None:
    """Issue 11 item 2 (CMV-COND-28/29): after every TurnStarted and its start-of-turn steps, the turn's pools
    equal what the economy would give for the creature as it now is."""
    enc = Encounter(battle_from_data(random_battle(seed, ruleset)), SeededDice(seed))
    enc.start()
    ai = TacticalAI()
    for _ in range(150):
        if enc.state.ended:
            break
        if enc.pending is not None:
            options = enc.pending.prompt.options
            enc.respond("decline" if "decline" in options else options[-1])
            continue
        _check_pools(enc)
        enc.act(ai.choose(enc))


# ------------------------------------------------------------------ item 9: one move, one line
def test_cmv_cond_39_a_move_past_a_foe_that_cannot_react_is_one_move() -> None:
    """CMV-COND-39 with CMV-COV-08 (issue 11, item 9): an off-guard goblin threatens the squares a walks
    through but can make no reaction attack, so nothing splits the move: the log has one "moves to" line, and
    the same walk past a goblin that can react is split where it provokes."""
    enc = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1]},
               {"id": "g", "side": "f", "stats": FIGHTER, "position": [4, 2], "conditions": ["off-guard"]},
               {"id": "t", "side": "f", "stats": T15, "position": [10, 8]}])
    events = enc.act(ax.Move(path=[[c, 1] for c in range(2, 8)]))
    assert enc.pending is None
    assert len([e for e in events if isinstance(e, ev.Moved) and e.combatant == "a"]) == 1
    able = _cmv_charge_past_goblin()
    able.act(ax.Move(path=[[c, 1] for c in range(2, 8)]))
    assert able.pending is not None and able.pending.prompt.reactor == "g"
    events = able.respond("decline")
    assert len([e for e in events if isinstance(e, ev.Moved) and e.combatant == "a"]) == 2
