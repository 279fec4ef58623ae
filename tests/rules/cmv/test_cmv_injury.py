"""CMV injury (CMV-INJ): health counted as damage taken against a fixed hp — bloodied at half, staggered at
hp, a death save when damage passes hp, dying, stable, dead — with the inventory's worked examples.
Forced dice: d20 attack, damage, then the victim's d20 death save."""

from __future__ import annotations

import pytest

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.numbers import total
from d20combat.rulesets.off_guard import Guide, damage_taken

from ._util import FIGHTER, assert_illegal, bonus, cmv, conditions, resolved, ruleset, stats, texts

VICTIM = stats("victim", abilities={"con": 12}, attacks=[{"weapon": "club"}])  # hp 20, Con +1, AC 10
DULL = stats("dull", attacks=[{"weapon": "club"}])                             # hp 20, Con +0
WATCH = {"id": "w", "side": "f", "stats": stats("watch"), "position": [11, 11], "conditions": ["stunned"]}


def hurt(hp: int, *, conds=(), victim=VICTIM, dice=(), variants=None, vpos=(2, 1), first: str = "a", extra=()):
    a = {"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1]}
    v = {"id": "v", "side": "f", "stats": victim, "position": list(vpos), "hp": hp, "starts_down": hp <= 0,
         "conditions": list(conds)}
    order = [a, v] if first == "a" else [v, a]
    return cmv([*order, dict(WATCH), *extra], dice=dice, variants=variants)


def test_cmv_inj_01_injury_conditions_come_from_damage() -> None:
    """CMV-INJ-01: the Injury conditions are gained by taking damage: a hit that takes the victim to half its
    hp makes it bloodied, recorded as a condition event."""
    enc = hurt(12, dice=(15, 2))  # damage 8 + 2 = 10 of 20
    events = enc.act(ax.Attack("v"))
    assert any(isinstance(e, ev.ConditionSet) and e.condition == "bloodied" and e.present for e in events)
    assert "bloodied" in conditions(enc, "v")


def test_cmv_inj_02_bloodied_minus_1_attacks_and_checks_not_saves() -> None:
    """CMV-INJ-02: bloodied: −1 on attacks and checks, initiative included; saving throws are not checks."""
    enc = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1], "hp": 10, "initiative": None},
               {"id": "t", "side": "f", "stats": DULL, "position": [2, 1]}], dice=(10, 10))
    assert bonus(enc, "a", "t") == 4
    rolled = next(e for e in enc.log if isinstance(e, ev.InitiativeRolled) and e.combatant == "a")
    assert rolled.total == 9 and "bloodied 1" in rolled.explanation
    rs = ruleset(enc)
    assert total(0, rs.conditions.save_modifiers(enc.creature("a"), enc.state.get("a"), "fortitude", base=2)).value == 2


@pytest.mark.parametrize(("hp_max", "damage", "bloodied", "staggered"), [
    (20, 9, False, False), (20, 10, True, False), (20, 19, True, False), (20, 20, True, True),
    (15, 7, False, False), (15, 8, True, False),
])
def test_cmv_inj_03_09_thresholds(hp_max: int, damage: int, bloodied: bool, staggered: bool) -> None:
    """CMV-INJ-03, CMV-INJ-09 (derived): hp 20: damage 9 → nothing; 10 → bloodied; 19 → bloodied; 20 → bloodied
    and staggered. hp 15: damage 7 → not bloodied; 8 → bloodied (2 × 8 = 16 ≥ 15). Damage is counted, hp
    stays fixed; the derived conditions are recorded as events."""
    enc = hurt(hp_max - damage, victim={**VICTIM, "hp": hp_max})
    got = conditions(enc, "v")
    assert damage_taken(enc.creature("v"), enc.state.get("v")) == damage
    assert ("bloodied" in got) is bloodied and ("staggered" in got) is staggered
    assert ("bloodied" in enc.state.get("v").conditions) is bloodied  # the mirror in the log


def test_cmv_inj_03_variant_rounding_down() -> None:
    """CMV-INJ-03 (AMBIGUOUS 'equal to half'): cmv_bloodied_rounding = down makes hp 15 bloodied at 7."""
    enc = hurt(8, victim={**VICTIM, "hp": 15}, variants={"cmv_bloodied_rounding": "down"})
    assert "bloodied" in conditions(enc, "v")
    assert "bloodied" not in conditions(hurt(8, victim={**VICTIM, "hp": 15}), "v")


def test_cmv_inj_04_wounded_adds_to_bloodied() -> None:
    """CMV-INJ-04 (derived): attack +5 while bloodied and wounded → +3; bloodied and shaken → +2."""
    both = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1], "hp": 10, "conditions": ["wounded"]},
                {"id": "t", "side": "f", "stats": DULL, "position": [2, 1]}])
    assert bonus(both, "a", "t") == 3
    shaken = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1], "hp": 10, "conditions": ["shaken"]},
                  {"id": "t", "side": "f", "stats": DULL, "position": [2, 1]}])
    assert bonus(shaken, "a", "t") == 2


@pytest.mark.parametrize(("variants", "name"), [({}, "wounded"), ({"cmv_wound_points_bloodied": True}, "bloodied")])
def test_cmv_inj_05_wound_points(variants: dict[str, object], name: str) -> None:
    """CMV-INJ-05 (derived): wound points 1 → wounded (−1) by the proposed reading; bloodied (−1) under
    cmv_wound_points_bloodied. Damage never turns into wound points."""
    enc = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1], "conditions": ["wound_points:1"]},
               {"id": "t", "side": "f", "stats": DULL, "position": [2, 1]}], variants=variants)
    assert name in conditions(enc, "a") and bonus(enc, "a", "t") == 4
    other = "bloodied" if name == "wounded" else "wounded"
    assert other not in conditions(enc, "a")


def staggered_attacker(dice=(), variants=None, tpos=(2, 1), extra=()):
    return cmv([{"id": "a", "side": "h", "stats": {**FIGHTER, "abilities": {"con": 12}}, "position": [1, 1], "hp": 0,
                 "starts_down": True},
                {"id": "t", "side": "f", "stats": DULL, "position": list(tpos), "conditions": ["stunned"]},
                *extra], dice=dice, variants=variants)


def test_cmv_inj_06_staggered_one_minor_or_major_action() -> None:
    """CMV-INJ-06 (derived): damage 20 = hp 20: one minor or major action a turn — after its attack a move is
    refused, and a full-round action (a charge) is refused outright."""
    far = staggered_attacker(tpos=(6, 1))
    assert_illegal(far, ax.Charge("t"), "full-round action is impossible")
    enc = staggered_attacker(dice=(2,), variants={"cmv_staggered_strenuous_damage": False})
    enc.act(ax.Attack("t"))
    assert_illegal(enc, ax.Move(to=(1, 3)), "only one standard or move action")


@pytest.mark.parametrize(("variants", "second_action"), [({}, False), ({"cmv_aid_lifts_action_limit": True}, True)])
def test_cmv_inj_07_staggered_half_speed_unless_aided(variants: dict[str, object], second_action: bool) -> None:
    """CMV-INJ-07 (AMBIGUOUS): a staggered creature moves at half speed unless aided by others; the aid lifts only
    the speed limit, unless cmv_aid_lifts_action_limit also lifts the one-action limit."""
    helper = {"id": "b", "side": "h", "stats": FIGHTER, "position": [0, 1], "initiative": 200}
    enc = staggered_attacker(tpos=(8, 8), extra=[helper], variants={**variants,
                                                                     "cmv_staggered_strenuous_damage": False})
    assert enc.state.turn.actor == "b"  # type: ignore[union-attr]
    assert enc.speed_ft("a") == 15
    enc.act(Guide("a"))
    enc.act(ax.EndTurn())
    assert enc.speed_ft("a") == 30
    enc.act(ax.Move(to=(1, 5)))
    assert (enc.check(ax.Move(to=(1, 8))) is None) is second_action


@pytest.mark.parametrize(("variants", "strains"), [({}, True), ({"cmv_staggered_strenuous_damage": False}, False)])
def test_cmv_inj_08_a_major_action_while_staggered_risks_injury(variants: dict[str, object], strains: bool) -> None:
    """CMV-INJ-08 (derived, proposed): a staggered creature (damage 20 = hp 20) attacks → it takes 1 damage → 21 →
    a death save DC 11 (d20 9 + Con 1 = 10 fails → dying)."""
    enc = staggered_attacker(dice=(2, 9), variants=variants)
    events = enc.act(ax.Attack("t"))
    assert ("strains while staggered" in texts(events)) is strains
    assert ("DC 11" in texts(events)) is strains
    assert ("dying" in conditions(enc, "a")) is strains


def test_cmv_inj_10_14_dying_and_stable_are_unconscious_and_helpless() -> None:
    """CMV-INJ-10, CMV-INJ-14: a dying or a stable creature is unconscious and helpless; its turn passes."""
    for state in ("dying", "stable"):
        enc = hurt(-3, conds=(state,), first="v", dice=(15,))
        got = conditions(enc, "v")
        assert {"unconscious", state} <= got
        assert ruleset(enc).injury.is_helpless(enc.creature("v"), enc.state.get("v"))
        assert enc.state.turn.actor == "a"  # type: ignore[union-attr]


@pytest.mark.parametrize(("face", "outcome"), [(9, "dead"), (10, "stable")])
def test_cmv_inj_11_16_dying_creature_saves_at_the_start_of_its_turn(face: int, outcome: str) -> None:
    """CMV-INJ-11, CMV-INJ-16 (derived, proposed): a dying creature with Con +0 at the start of its next turn:
    d20 9 → dead; d20 10 → stable."""
    enc = hurt(-2, conds=("dying",), victim=DULL, dice=(face,))
    enc.act(ax.EndTurn())
    assert outcome in conditions(enc, "v")
    assert "DC 10" in texts(enc.log)


def test_cmv_inj_11_variant_dying_left_to_the_gm() -> None:
    """CMV-INJ-11: cmv_dying = gm rolls nothing; the creature stays dying until the GM decides."""
    enc = hurt(-2, conds=("dying",), victim=DULL, variants={"cmv_dying": "gm"})
    enc.act(ax.EndTurn())
    assert "dying" in conditions(enc, "v") and "the GM decides" in texts(enc.log)


@pytest.mark.parametrize(("face", "dying"), [(14, True), (15, False)])
def test_cmv_inj_12_13_death_save_when_damage_passes_hp(face: int, dying: bool) -> None:
    """CMV-INJ-12, CMV-INJ-13 (derived, proposed): hp 20, damage 18, Con +1, takes a 6-damage hit → 24 > 20 →
    death save DC 16. d20 14 → 15 < 16 → dying (unconscious, helpless); d20 15 → 16 → staggered, damage 20."""
    enc = hurt(2, dice=(15, 6, face))
    events = enc.act(ax.Attack("v"))
    assert "DC 16" in texts(events)
    got = conditions(enc, "v")
    assert ("dying" in got) is dying
    if not dying:
        assert damage_taken(enc.creature("v"), enc.state.get("v")) == 20 and "staggered" in got


def test_cmv_inj_13_variant_a_passed_save_makes_it_stable() -> None:
    """CMV-INJ-13 (AMBIGUOUS): under cmv_death_save_pass = stable a passed save makes the creature stable
    (unconscious and helpless) instead of staggered."""
    enc = hurt(2, dice=(15, 6, 15), variants={"cmv_death_save_pass": "stable"})
    enc.act(ax.Attack("v"))
    got = conditions(enc, "v")
    assert "stable" in got and "unconscious" in got
    assert damage_taken(enc.creature("v"), enc.state.get("v")) == 24


def test_cmv_inj_12_exactly_hp_needs_no_save() -> None:
    """CMV-INJ-12: damage equal to hp is staggered, not past it: no death save is rolled."""
    enc = hurt(6, dice=(15, 6))
    events = enc.act(ax.Attack("v"))
    assert "death save" not in texts(events) and "staggered" in conditions(enc, "v")


@pytest.mark.parametrize(("face", "dead"), [(11, True), (12, False)])
def test_cmv_inj_15_damage_to_a_stable_creature(face: int, dead: bool) -> None:
    """CMV-INJ-15 (proposed): a stable creature (Con +1) takes 3 damage → death save DC 13: d20 11 → 12 fails →
    dead; d20 12 → 13 → it stays stable."""
    enc = hurt(-3, conds=("stable",), dice=(10, 3, face))
    events = enc.act(ax.Attack("v"))
    assert resolved(events).hit and "DC 13" in texts(events)
    got = conditions(enc, "v")
    assert ("dead" in got) is dead and ("stable" in got) is not dead


def test_cmv_inj_17_the_dead_do_nothing_and_are_not_attacked() -> None:
    """CMV-INJ-17 (proposed): no actions, reactions or saves; skipped in initiative; not a target."""
    enc = hurt(-5, conds=("dead",), first="v")
    assert enc.state.turn.actor == "a"  # type: ignore[union-attr]
    assert any(isinstance(e, ev.TurnEnded) and e.combatant == "v" and "dead" in e.reason for e in enc.log)
    assert_illegal(enc, ax.Attack("v"), "already dead")
    rs = ruleset(enc)
    assert not rs.reactions.can_react(enc.creature("v"), enc.state.get("v"))
    assert rs.injury.health(enc.creature("v"), enc.state.get("v")).value == "dead"
