"""Epic Path states (EP-COND): flat-footed until the first turn; incorporeal, nebulous, phased and ethereal
creatures — who may attack them and what damage they take; faded creatures (EP-CONC-38..44).
Forced dice: d20 attack, then d% if it hit and a miss chance applies, then damage."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.ep._util import FIGHTER, ac, armored, assert_illegal, ep, remaining, resolved, stats, texts

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev

T15 = armored("target", 3, dex=14, hp=40)
"""AC 15 = 10 + armor 3 + Dex 2; flat-footed 13."""


def weapon(name: str, *qualities: str, enhancement: int = 0, damage: str = "1d6") -> dict[str, Any]:
    return {"weapon": {"name": name, "damage": damage, "qualities": list(qualities), "enhancement": enhancement}}


def fighter(*attacks: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return stats("fighter", attack_bonus=5, attacks=list(attacks) or [{"weapon": "club"}], **kw)


def duel(attacker: dict[str, Any], t_conds=(), a_conds=(), *, dice=(), variants=None, rows=None, target=T15,
         first="a", buddy=False) -> Any:
    a = {"id": "a", "side": "h", "stats": attacker, "position": [0, 0], "conditions": list(a_conds)}
    t = {"id": "t", "side": "f", "stats": target, "position": [1, 0], "conditions": list(t_conds)}
    extra = [{"id": "b", "side": "f", "stats": T15, "position": [9, 9]}] if buddy else []
    return ep([a, t, *extra] if first == "a" else [t, a, *extra], dice=dice, variants=variants, rows=rows)


def damage(events: list[ev.Event]) -> ev.Damaged:
    return next(e for e in events if isinstance(e, ev.Damaged))


# --- flat-footed (EP-COND-01..03) ---------------------------------------------------------------------------

def test_ep_cond_01_02_flat_footed_until_the_first_regular_turn() -> None:
    """EP-COND-01, EP-COND-02: t has not acted yet, so no Dex to AC (13); after its first turn its AC is 15."""
    enc = ep([{"id": "a", "side": "h", "stats": FIGHTER, "position": [0, 0]},
              {"id": "t", "side": "f", "stats": T15, "position": [1, 0]}], alert=False)
    assert ac(enc, "a", "t") == 13
    enc.act(ax.EndTurn())
    assert enc.state.actor == "t"
    assert ac(enc, "t", "a") == 10
    enc.act(ax.EndTurn())
    assert ac(enc, "a", "t") == 15


def test_ep_cond_03_uncanny_dodge_is_never_caught_flat_footed() -> None:
    """EP-COND-03: with uncanny dodge t keeps its Dex before its first turn."""
    dodger = armored("dodger", 3, dex=14, feats=["uncanny_dodge"])
    enc = duel(FIGHTER, target=dodger)
    assert ac(enc, "a", "t") == 15


# --- incorporeal (EP-COND-07..14) ---------------------------------------------------------------------------

def test_ep_cond_07_08_incorporeal_is_immune_to_mundane_attacks() -> None:
    """EP-COND-07, EP-COND-08: a club cannot harm an incorporeal creature: the attack is refused; a +1 sword may."""
    enc = duel(fighter({"weapon": "club"}), ["incorporeal"])
    assert_illegal(enc, ax.Attack(target="t"), "incorporeal: immune to non-magical")
    enc = duel(fighter(weapon("sword+1", enhancement=1)), ["incorporeal"])
    assert enc.check(ax.Attack(target="t")) is None


def test_ep_cond_09_magic_deals_half_damage_rounded_down_or_up() -> None:
    """EP-COND-09: a +1 sword's 1d6 5 + 1 = 6 → 3; 5 + 1 + 1 (Str… none) — an odd 7 → 3 (down) or 4 (variant up)."""
    enc = duel(fighter(weapon("sword+1", enhancement=1)), ["incorporeal"], dice=[15, 5])
    events = enc.act(ax.Attack(target="t"))
    d = damage(events)
    assert d.amount == 3 and "halved (incorporeal: half damage from a corporeal source (EP-COND-09)): 6 → 3" in \
        d.explanation
    odd = fighter(weapon("sword+2", enhancement=2, damage="1d8"))
    assert damage(duel(odd, ["incorporeal"], dice=[15, 5]).act(ax.Attack(target="t"))).amount == 3
    up = duel(odd, ["incorporeal"], dice=[15, 5], variants={"ep_incorporeal_half_rounding": "up"})
    assert damage(up.act(ax.Attack(target="t"))).amount == 4


def test_ep_cond_10_11_force_ghost_touch_and_incorporeal_attackers_deal_full_damage() -> None:
    """EP-COND-10, EP-COND-11: force, ghost touch and another incorporeal creature's attack deal full damage (6)."""
    for attacker, conds in ((fighter(weapon("missile", "force")), ()),
                            (fighter(weapon("ghost-blade", "ghost_touch")), ()),
                            (fighter({"weapon": "club"}), ("incorporeal",))):
        enc = duel(attacker, ["incorporeal"], conds, dice=[15, 6])
        assert damage(enc.act(ax.Attack(target="t"))).amount == 6


def test_ep_cond_12_13_holy_water_half_by_default_channel_full() -> None:
    """EP-COND-12: holy water affects incorporeal undead, for half (default) or full (variant); EP-COND-13:
    channel divinity deals full damage."""
    holy = fighter(weapon("holy-water", "holy_water"))
    assert damage(duel(holy, ["incorporeal"], dice=[15, 6]).act(ax.Attack(target="t"))).amount == 3
    full = duel(holy, ["incorporeal"], dice=[15, 6], variants={"ep_holy_water_vs_incorporeal": "full"})
    assert damage(full.act(ax.Attack(target="t"))).amount == 6
    channel = fighter(weapon("channel", "channel"))
    assert damage(duel(channel, ["incorporeal"], dice=[15, 6]).act(ax.Attack(target="t"))).amount == 6


# --- nebulous (EP-COND-28..30) ------------------------------------------------------------------------------

def test_ep_cond_28_nebulous_halves_even_mundane_damage_out_of_bright_light() -> None:
    """EP-COND-28: in dim light a club's 6 → 3 (the attacker's darkvision removes the dim light's concealment);
    in bright light it takes the full 6."""
    seer = fighter({"weapon": "club"}, darkvision_ft=60)
    enc = duel(seer, ["nebulous"], dice=[15, 6], rows=[".d..", "...."])
    d = damage(enc.act(ax.Attack(target="t")))
    assert d.amount == 3 and "nebulous, not in bright light" in d.explanation
    assert damage(duel(seer, ["nebulous"], dice=[15, 6]).act(ax.Attack(target="t"))).amount == 6


def test_ep_cond_28_variant_spells_spared() -> None:
    """EP-COND-28 variant ep_nebulous_halves=attacks: a spell's damage is not halved."""
    spell = fighter({"weapon": {"name": "ray", "damage": "1d6", "kind": "spell", "range_increment_ft": 30,
                                "touch": True}}, darkvision_ft=60)
    rows = [".d..", "...."]
    assert damage(duel(spell, ["nebulous"], dice=[15, 6], rows=rows).act(ax.Attack(target="t"))).amount == 3
    enc = duel(spell, ["nebulous"], dice=[15, 6], rows=rows, variants={"ep_nebulous_halves": "attacks"})
    assert damage(enc.act(ax.Attack(target="t"))).amount == 6


def test_ep_cond_29_30_nebulous_exceptions() -> None:
    """EP-COND-29: ghost touch and nebulous or incorporeal attackers deal full damage to a nebulous creature;
    EP-COND-30: a nebulous attacker deals half to an incorporeal one."""
    rows = [".d..", "...."]
    seer = fighter(weapon("ghost-blade", "ghost_touch"), darkvision_ft=60)
    assert damage(duel(seer, ["nebulous"], dice=[15, 6], rows=rows).act(ax.Attack(target="t"))).amount == 6
    cloud = fighter({"weapon": "club"}, darkvision_ft=60)
    enc = duel(cloud, ["nebulous"], ["nebulous"], dice=[15, 6], rows=rows)
    assert damage(enc.act(ax.Attack(target="t"))).amount == 6
    enc = duel(fighter(weapon("sword+1", enhancement=1)), ["incorporeal"], ["nebulous"], dice=[15, 5])
    d = damage(enc.act(ax.Attack(target="t")))
    assert d.amount == 3 and "EP-COND-30" in d.explanation


# --- phased (EP-COND-31..36) --------------------------------------------------------------------------------

def test_ep_cond_32_mundane_weapons_cannot_hit_a_phased_creature() -> None:
    """EP-COND-32: the club's attack on a phased creature is refused."""
    assert_illegal(duel(fighter(), ["phased"]), ax.Attack(target="t"), "phased: mundane weapons cannot hit")


def test_ep_cond_31_33_magic_hits_half_the_time_for_half_damage() -> None:
    """EP-COND-31: a hit with a +1 sword then rolls d% (40 ≤ 50: the hit misses; 60: it stands); EP-COND-33: 6 → 3."""
    sword = fighter(weapon("sword+1", enhancement=1))
    enc = duel(sword, ["phased"], dice=[15, 40])
    events = enc.act(ax.Attack(target="t"))
    assert not resolved(events).hit and "phased: magic hits only 50% of the time (EP-COND-31)" in texts(events)
    enc = duel(sword, ["phased"], dice=[15, 60, 5])
    d = damage(enc.act(ax.Attack(target="t")))
    assert d.amount == 3 and "phased: half damage from all sources (EP-COND-33)" in d.explanation


@pytest.mark.parametrize("when", ["after_hit", "before_roll"])
def test_ep_cond_31_option_phased_roll(when: str) -> None:
    """EP-COND-31 (AMBIGUOUS, option ep_phased_roll): the same dice 15, 60, 5 — after a hit (default) they are the
    d20 15 (a hit), d% 60 (it stands) and 5 + 1 damage halved to 3 (EP-COND-33); rolled before the attack, the 15 is the
    d% (≤ 50): a miss, and no attack roll is made."""
    sword = fighter(weapon("sword+1", enhancement=1))
    enc = duel(sword, ["phased"], dice=[15, 60, 5], variants={"ep_phased_roll": when})
    events = enc.act(ax.Attack(target="t"))
    if when == "after_hit":
        assert resolved(events).hit and "d% 60 > 50 (phased" in texts(events)
        assert enc.state.get("t").hp == T15["hp"] - 3
    else:
        assert not resolved(events).hit
        assert "misses: concealment d% 15 ≤ 50 (phased: magic hits only 50% of the time (EP-COND-31)); no attack " \
               "roll" in texts(events)
        assert enc.state.get("t").hp == T15["hp"]


def test_ep_cond_36_force_deals_full_damage_but_still_rolls_by_default() -> None:
    """EP-COND-36: force deals full damage if it hits; by default it still faces the 50 % (d% 60 stands), and
    under ep_phased_exceptions_roll=false no d% is rolled."""
    force = fighter(weapon("missile", "force"))
    enc = duel(force, ["phased"], dice=[15, 60, 6])
    assert damage(enc.act(ax.Attack(target="t"))).amount == 6
    enc = duel(force, ["phased"], dice=[15, 6], variants={"ep_phased_exceptions_roll": False})
    assert damage(enc.act(ax.Attack(target="t"))).amount == 6 and remaining(enc) == 0


# --- ethereal (EP-COND-37..43) ------------------------------------------------------------------------------

def test_ep_cond_41_an_ethereal_creature_cannot_attack_material_ones() -> None:
    """EP-COND-41: refused, with the rule named."""
    assert_illegal(duel(fighter(), a_conds=["ethereal"]), ax.Attack(target="t"), "ethereal and cannot attack")


def test_ep_cond_40_42_43_only_force_or_ethereal_attacks_reach_the_ethereal() -> None:
    """EP-COND-40: a club cannot reach an ethereal creature, force can (EP-COND-42: an attack that works on the
    Ethereal Plane too); EP-COND-43: two ethereal creatures fight as if material. An ethereal target is
    invisible (EP-CONC-37), so the attacker names its square."""
    assert_illegal(duel(fighter(), ["ethereal"]), ax.Attack(target="t", square=(1, 0)), "only force effects")
    for attack in (weapon("missile", "force"), weapon("ethereal-blade", "ethereal")):
        assert duel(fighter(attack), ["ethereal"]).check(ax.Attack(target="t", square=(1, 0))) is None
    assert duel(fighter(), ["ethereal"], ["ethereal"]).check(ax.Attack(target="t", square=(1, 0))) is None


# --- faded (EP-CONC-38..44) ---------------------------------------------------------------------------------

GHOST = armored("ghost", 3, dex=14, hp=40, attributes={"level": 5})


def faded(dice, *, attacker=FIGHTER, variants=None, first="t") -> Any:
    """t (faded, level 5: Will DC 15) acts first, then a, who saves at the start of its turn."""
    return duel(attacker, ["faded"], dice=dice, target=GHOST, variants=variants, first=first)


def test_ep_conc_38_39_41_a_failed_will_save_makes_the_faded_creature_out_of_range() -> None:
    """EP-CONC-38, EP-CONC-39, EP-CONC-41: a's Will save 14 = d20 14 vs DC 15 (10 + level 5) fails: it cannot
    attack t this round."""
    enc = faded([14])
    events = enc.act(ax.EndTurn())
    assert "Will save to remember the faded t: 14 = d20 14 vs DC 15 (10 + level/CR 5) — forgets it" in texts(events)
    assert_illegal(enc, ax.Attack(target="t", square=(1, 0)), "does not remember the faded t")


def test_ep_conc_40_after_a_successful_save_the_invisibility_remains() -> None:
    """EP-CONC-38, EP-CONC-40: the save (15 vs DC 15) succeeds, but t is still invisible: a square must be named,
    50 %."""
    enc = faded([15])
    enc.act(ax.EndTurn())
    assert any(c.startswith("remembering:t:") for c in enc.state.get("a").conditions)
    assert_illegal(enc, ax.Attack(target="t"), "total concealment")
    assert enc.plan_attack("a", "t", square=(1, 0)).concealment == 50


def test_ep_conc_42_43_44_a_new_save_each_round_and_senses_only_on_good_rounds() -> None:
    """EP-CONC-42: the save is made again each round; EP-CONC-43, EP-CONC-44: blindsense targets t only in a round
    whose save succeeded (round 1: 15 succeeds, concealment ignored; round 2: 3 fails, refused)."""
    sensing = {**FIGHTER, "senses": {"blindsense": 30}}
    enc = faded([15, 3], attacker=sensing)
    enc.act(ax.EndTurn())
    assert enc.plan_attack("a", "t").concealment == 0
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    assert enc.state.round == 2 and enc.state.actor == "a"
    assert_illegal(enc, ax.Attack(target="t"), "does not remember the faded t")


def test_ep_conc_39_variant_the_attackers_level() -> None:
    """EP-CONC-39 (AMBIGUOUS) variant ep_faded_dc_level=attacker: DC 10 + the attacker's level 1 = 11: 12 succeeds."""
    hero = {**FIGHTER, "attributes": {"level": 1}}
    enc = faded([12], attacker=hero, variants={"ep_faded_dc_level": "attacker"})
    events = enc.act(ax.EndTurn())
    assert "vs DC 11" in texts(events) and "remembers it this round" in texts(events)


# --- helpless, prone, rattled (EP-COND-04..06); incorporeal attacks (EP-COND-15) -----------------------------

def test_ep_cond_04_helpless_is_a_state_the_engine_knows() -> None:
    """EP-COND-04: a creature given the helpless condition is helpless (the coup de grace's prerequisite): no Dex
    to AC (AC 13 although it has acted)."""
    enc = duel(FIGHTER, ["helpless"], buddy=True)
    while enc.state.round < 2:
        enc.act(ax.EndTurn())
    assert enc.state.actor == "a"
    assert ac(enc, "a", "t") < 15
    assert enc.ruleset.injury.is_helpless(enc.creature("t"), enc.state.get("t"))


def test_ep_cond_05_standing_up_from_prone_is_a_move_action() -> None:
    """EP-COND-05: standing up from prone takes the move action (its "no 5-foot step" is EP-ACT-46's, the turn's
    movement rules)."""
    enc = duel(FIGHTER, a_conds=["prone"])
    enc.act(ax.StandUp())
    assert enc.state.turn is not None and not enc.state.turn.move and enc.state.turn.standard
    assert not enc.state.get("a").has("prone")


def test_ep_cond_06_rattled_loses_the_standard_and_the_move_action() -> None:
    """EP-COND-06 (AMBIGUOUS): rattled — by default neither the standard nor the move action (attack and move
    refused, a 5-foot step allowed); variant ep_rattled_loses=one: it keeps its move action."""
    enc = duel(FIGHTER, a_conds=["rattled"])
    assert_illegal(enc, ax.Attack(target="t"), "rattled")
    assert_illegal(enc, ax.Move(to=(0, 3)), "rattled")
    assert enc.check(ax.Step(to=(0, 1))) is None
    one = duel(FIGHTER, a_conds=["rattled"], variants={"ep_rattled_loses": "one"})
    assert_illegal(one, ax.Attack(target="t"), "cannot use a standard action")
    assert one.check(ax.Move(to=(0, 3))) is None


def test_ep_cond_15_incorporeal_attacks_target_touch_ac() -> None:
    """EP-COND-15: the incorporeal attacker's club is compared with t's touch AC 12 (10 + Dex 2), not AC 15."""
    enc = duel(FIGHTER, a_conds=["incorporeal"], first="t")
    enc.act(ax.EndTurn())
    assert ac(enc, "a", "t") == 12
    assert ac(duel(FIGHTER, first="t"), "a", "t") == 15  # the same attack by a corporeal creature: armor counts


def test_ep_cond_37_an_ethereal_creature_moves_at_half_speed() -> None:
    """EP-COND-37: speed 30 → 15 ft while ethereal: a move reaches 3 squares, not 4."""
    enc = duel(FIGHTER, a_conds=["ethereal"])
    assert enc.speed_ft("a") == 15
    assert (0, 3) in enc.move_options("a") and (0, 4) not in enc.move_options("a")
    assert duel(FIGHTER).speed_ft("a") == 30


def test_ep_conc_39_the_level_as_the_condition_argument() -> None:
    """EP-CONC-39: faded:3 on a stat block without a level: DC 13; 13 succeeds."""
    enc = duel(FIGHTER, ["faded:3"], dice=[13], first="t")
    events = enc.act(ax.EndTurn())
    assert "vs DC 13 (10 + level/CR 3) — remembers it this round" in texts(events)
    assert enc.check(ax.Attack(target="t", square=(1, 0))) is None
