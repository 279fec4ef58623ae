"""Epic Path critical hits (EP-CRIT) and damage (EP-DMG): confirmation, threat ranges, additive multipliers, what a
critical multiplies, averaging, brutal dice, lance and brace, resistance."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.ep._util import armored, ep, remaining, resolved, stats

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev


def weapon(name: str, damage: str = "1d6", **kw: Any) -> dict[str, Any]:
    return {"weapon": {"name": name, "damage": damage, **kw}}


def duel(a_stats: dict[str, Any], t_stats: dict[str, Any], dice: list[int], *, variants: dict[str, Any] | None = None,
         t_extra: dict[str, Any] | None = None, a_extra: dict[str, Any] | None = None) -> Any:
    return ep([{"id": "a", "side": "x", "stats": a_stats, "position": [2, 2], **(a_extra or {})},
               {"id": "t", "side": "y", "stats": t_stats, "position": [3, 2], **(t_extra or {})},
               {"id": "bystander", "side": "y", "stats": stats("bystander"), "position": [11, 11]}],
              dice=dice, variants=variants)


def hit(enc: Any, attack: str | None = None) -> tuple[ev.AttackResolved, int, str]:
    events = enc.act(ax.Attack(target="t", attack=attack))
    dmg = [e for e in events if isinstance(e, ev.Damaged)]
    return resolved(events), sum(e.amount for e in dmg), "\n".join(e.explain() for e in events)


def fighter(*attacks: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return stats("a", attack_bonus=kw.pop("attack_bonus", 10), attacks=list(attacks), **kw)


TOUGH = stats("t", hp=200)


# ---------------------------------------------------------------------------------------------- criticals
@pytest.mark.parametrize(("confirm", "critical"), [(12, False), (15, True)])
def test_ep_crit_02_confirmation_is_a_second_roll_with_the_same_modifiers(confirm: int, critical: bool) -> None:
    """EP-CRIT-02: a threat is confirmed by a second attack roll with all the same modifiers against the same AC
    (+10 vs AC 25: 15 confirms, 12 does not); it need not be a 20."""
    enc = duel(fighter(weapon("sword", "1d8", threat_min=19)), armored("t", 15, hp=200), [19, confirm, 4, 4])
    r, dmg, text = hit(enc)
    assert r.hit and r.critical is critical
    assert f"confirmation {confirm + 10} = d20 {confirm} + BAB 10 vs AC 25" in text
    assert dmg == (8 if critical else 4)


def test_ep_crit_03_a_missed_confirmation_is_a_regular_hit_and_naturals_decide_it() -> None:
    """EP-CRIT-03: a confirmation roll that misses leaves a regular hit — a natural 1 never confirms (+40 vs AC
    10) and a natural 20 always does (+0 vs AC 45)."""
    strong = duel(fighter({"weapon": "club"}, attack_bonus=40), TOUGH, [20, 1, 3])
    r, dmg, _ = hit(strong)
    assert r.hit and not r.critical and dmg == 3
    weak = duel(fighter({"weapon": "club"}, attack_bonus=0), armored("t", 35, hp=200), [20, 20, 3, 4])
    r, dmg, _ = hit(weak)
    assert r.critical and dmg == 7


def test_ep_crit_04_05_a_critical_rolls_the_damage_twice_with_every_bonus() -> None:
    """EP-CRIT-04, EP-CRIT-05: unless stated, threat 20 and ×2: a critical rolls the dice twice and adds the
    bonuses twice
    (club 1d6 + Str 3 → 2d6 + 6)."""
    enc = duel(fighter({"weapon": "club"}, abilities={"str": 16}), TOUGH, [20, 15, 3, 4])
    r, dmg, text = hit(enc)
    assert r.critical and dmg == 3 + 4 + 6 and remaining(enc) == 0
    assert "×2 critical" in text


def test_ep_crit_06_07_precision_and_quality_dice_are_not_multiplied() -> None:
    """EP-CRIT-06, EP-CRIT-07: ×2 with a 1d8 flaming weapon and 2d6 sneak attack → 2d8 + 1d6 + 2d6: the precision and
    the quality dice are rolled once."""
    rogue = fighter(weapon("flaming-sword", "1d8", energy_damage="1d6"), sneak_attack_dice=2)
    enc = duel(rogue, TOUGH, [20, 15, 1, 2, 3, 4, 5], t_extra={"conditions": ["asleep"]})
    r, dmg, text = hit(enc)
    assert r.critical and dmg == 1 + 2 + 3 + 4 + 5 and remaining(enc) == 0
    assert "2d8 weapon [1, 2]" in text and "1d6 quality [3]" in text and "2d6 precision [4, 5]" in text


@pytest.mark.parametrize("threat_min", [19, 18])
def test_ep_crit_08_09_an_expanded_threat_is_no_automatic_hit_and_a_miss_never_threatens(threat_min: int) -> None:
    """EP-CRIT-08, EP-CRIT-09: with 19–20 (or 18–20) a natural 19 is not an automatic hit: +2 vs AC 25 misses, and
    a miss is no threat — no confirmation roll."""
    enc = duel(fighter(weapon("blade", "1d6", threat_min=threat_min), attack_bonus=2), armored("t", 15), [19, 7])
    r, _, _ = hit(enc)
    assert not r.hit and not r.critical and remaining(enc) == 1


@pytest.mark.parametrize(("face", "threat", "dice"), [(18, True, [10, 2, 3]), (17, False, [2])])
def test_ep_crit_10_eighteen_to_twenty_threatens_on_a_natural_18(face: int, threat: bool, dice: list[int]) -> None:
    """EP-CRIT-10: 18–20/×2 threatens on a natural 18, 19 or 20 that hits, not on a 17."""
    enc = duel(fighter({"weapon": "rapier"}), stats("t", hp=200), [face, *dice])
    r, _, text = hit(enc)
    assert r.hit and ("critical threat" in text) is threat


@pytest.mark.parametrize(("mult", "increases", "dice"), [(3, 0, 3), (4, 0, 4), (3, 1, 4), (3, 2, 5), (2, 1, 3)])
def test_ep_crit_11_12_multipliers_grow_by_additive_steps(mult: int, increases: int, dice: int) -> None:
    """EP-CRIT-11: ×3 and ×4 roll the dice 3 and 4 times; EP-CRIT-12: an effect that 'increases' (even
    'doubles') the multiplier adds one step: ×3 doubled → ×4, never ×6."""
    axe = weapon("axe", "1d4", crit_mult=mult, qualities=["increased-multiplier"] * increases)
    enc = duel(fighter(axe), TOUGH, [20, 15, *([1] * dice)])
    r, dmg, text = hit(enc)
    assert r.critical and dmg == dice and remaining(enc) == 0
    assert f"×{mult + increases} critical" in text


def test_ep_crit_13_a_spell_with_an_attack_roll_can_crit() -> None:
    """EP-CRIT-13: a ray with an attack roll threatens and confirms like a weapon: ×2."""
    caster = fighter({"weapon": "ray-of-frost"})
    enc = duel(caster, TOUGH, [20, 15, 2, 3])
    r, dmg, _ = hit(enc)
    assert r.critical and dmg == 5


# --------------------------------------------------------------------------------------------- damage
def test_ep_dmg_01_damage_is_dice_plus_bonuses_minus_penalties() -> None:
    """EP-DMG-01: weapon dice + bonuses − penalties: club 1d6 (4) + enhancement 2 − Str 1 → 5, explained."""
    weak = fighter(weapon("magic-club", "1d6", enhancement=2), abilities={"str": 8})
    enc = duel(weak, TOUGH, [15, 4])
    _, dmg, text = hit(enc)
    assert dmg == 5 and "5 = 1d6 weapon [4] + bonus 1" in text


def test_ep_dmg_02_03_resistance_is_subtracted_before_hit_points() -> None:
    """EP-DMG-02, EP-DMG-03: a hit for 15 against resistance 5 deals 10; a 10-hp target is left at 0."""
    enc = duel(fighter(weapon("maul", "1d10", enhancement=5)), stats("t", hp=10, attributes={"resistance": 5}),
               [15, 10])
    _, dmg, text = hit(enc)
    assert dmg == 10 and enc.state.get("t").hp == 0
    assert "− resistance 5 (EP-DMG-03)" in text


AVERAGER = {"ep_average_damage": {"a": "all"}}


@pytest.mark.parametrize(("damage", "expected"), [("1d8", 4), ("2d8", 9), ("3d6", 10), ("2d6", 7), ("21d6", 73)])
def test_ep_dmg_05_08_09_averaged_dice_are_rounded_down_once(damage: str, expected: int) -> None:
    """EP-DMG-05, EP-DMG-08: every die averaged, (N+1)/2 each, summed, then rounded down once: 1d8 → 4, 2d8 → 9, 3d6 →
    10, 21d6 → 73; EP-DMG-09: an even number of dice loses nothing (2d6 → 7). No damage die is rolled."""
    enc = duel(fighter(weapon("w", damage)), stats("t", hp=500), [15], variants=AVERAGER)
    _, dmg, text = hit(enc)
    assert dmg == expected and remaining(enc) == 0
    assert "rounded down once" in text


def test_ep_dmg_05_08_averaging_some_dice_rolls_the_rest() -> None:
    """EP-DMG-05, EP-DMG-08 (the text's example): 21d6, roll 10 and average 11 → 10d6 + 38."""
    enc = duel(fighter(weapon("w", "21d6")), stats("t", hp=500), [15, *([1] * 10)],
               variants={"ep_average_damage": {"x": 11}})
    _, dmg, text = hit(enc)
    assert dmg == 10 + 38 and remaining(enc) == 0
    assert "10d6 weapon" in text and "11 dice averaged 38 (38.5 rounded down once" in text


def test_ep_dmg_06_07_averaging_never_touches_the_d20_but_covers_precision_and_quality_dice() -> None:
    """EP-DMG-06: the attack roll is still rolled (a d20 is never averaged); EP-DMG-07: precision and bonus
    (quality) dice are averaged too: 1d6 + flaming 1d6 + sneak 2d6, all averaged → 14."""
    rogue = fighter(weapon("flaming-sword", "1d6", energy_damage="1d6"), sneak_attack_dice=2)
    enc = duel(rogue, TOUGH, [15], variants=AVERAGER, t_extra={"conditions": ["asleep"]})
    r, dmg, _ = hit(enc)
    assert r.hit and dmg == 14 and remaining(enc) == 0


def test_ep_dmg_10_only_the_controllers_who_choose_average() -> None:
    """EP-DMG-10 (AMBIGUOUS): by default nobody averages (the dice are rolled); the option allows it for any
    side or combatant — here the monsters' side, by name."""
    rolled = duel(fighter(weapon("w", "2d8")), TOUGH, [15, 1, 1])
    assert hit(rolled)[1] == 2 and remaining(rolled) == 0
    averaged = duel(fighter(weapon("w", "2d8")), TOUGH, [15], variants={"ep_average_damage": {"x": "all"}})
    assert hit(averaged)[1] == 9


@pytest.mark.parametrize(("face", "expected"), [(10, 10), (4, 5), (9, 10)])
def test_ep_dmg_11_a_rolled_brutal_die_adds_one_up_to_its_maximum(face: int, expected: int) -> None:
    """EP-DMG-11: a brutal d10 rolled adds +1, never above 10 (4 → 5, 9 → 10, 10 → 10)."""
    mace = weapon("cruciate-mace", "1d10", qualities=["brutal"])
    enc = duel(fighter(mace), TOUGH, [15, face])
    _, dmg, text = hit(enc)
    assert dmg == expected
    assert (f"{face}→{expected} brutal" in text) is (face != expected)


@pytest.mark.parametrize(("feats", "dice", "expected"), [
    ((), "1d10", 6), (("improved_brutality",), "1d10", 6), (("improved_brutality",), "2d10", 13),
    (("improved_brutality", "greater_brutality"), "1d10", 7), (("improved_brutality", "greater_brutality"), "3d10", 21),
    (("epic_brutality",), "3d10", 30)])
def test_ep_dmg_11_14_averaged_brutal_dice(feats: tuple[str, ...], dice: str, expected: int) -> None:
    """EP-DMG-11, EP-DMG-12, EP-DMG-13, EP-DMG-14: an averaged brutal d10 is 6.0; Improved Brutality +0.5 (2d10 →
    13.0), Greater another +0.5
    (7.0 a die, 3d10 → 21); Epic Brutality maximizes every brutal die (3d10 → 30)."""
    mace = weapon("cruciate-mace", dice, qualities=["brutal"])
    enc = duel(fighter(mace, feats=list(feats)), TOUGH, [15], variants=AVERAGER)
    assert hit(enc)[1] == expected and remaining(enc) == 0


def test_ep_dmg_11_14_brutal_feats_when_rolled() -> None:
    """EP-DMG-11 (AMBIGUOUS, option ep_brutal_roll): a rolled brutal die adds a step per brutality feat, capped
    (4 → 6 with Improved Brutality); 'plus_one_capped' adds +1 whatever the feats; Epic Brutality rolls
    nothing and counts the maximum."""
    mace = weapon("cruciate-mace", "1d10", qualities=["brutal"])
    steps = duel(fighter(mace, feats=["improved_brutality"]), TOUGH, [15, 4])
    assert hit(steps)[1] == 6
    one = duel(fighter(mace, feats=["improved_brutality"]), TOUGH, [15, 4],
               variants={"ep_brutal_roll": "plus_one_capped"})
    assert hit(one)[1] == 5
    epic = duel(fighter(mace, feats=["epic_brutality"]), TOUGH, [15])
    assert hit(epic)[1] == 10 and remaining(epic) == 0


LANCER = fighter(weapon("lance", "1d8", enhancement=2, crit_mult=3, qualities=["lance"]), abilities={"str": 18})


def charge(a_extra: dict[str, Any], dice: list[int]) -> tuple[Any, list[ev.Event]]:
    enc = ep([{"id": "a", "side": "x", "stats": LANCER, "position": [0, 0], **a_extra},
              {"id": "t", "side": "y", "stats": stats("t", hp=300), "position": [0, 4]}], dice=dice)
    return enc, enc.act(ax.Charge(target="t", attack="lance"))


def test_ep_dmg_15_a_mounted_lance_charge_deals_double_damage() -> None:
    """EP-DMG-15: a lance 1d8 + 6 (Str +4, enhancement +2) on a mounted charge → 2d8 + 12; unmounted → 1d8 + 6."""
    enc, events = charge({"conditions": ["mounted"]}, [15, 3, 5])
    dmg = sum(e.amount for e in events if isinstance(e, ev.Damaged))
    assert dmg == 3 + 5 + 12 and remaining(enc) == 0
    assert "lance on a mounted charge (EP-DMG-15)" in "\n".join(e.explain() for e in events)
    enc, events = charge({}, [15, 3])
    assert sum(e.amount for e in events if isinstance(e, ev.Damaged)) == 3 + 6


def test_ep_crit_17_a_mounted_lance_critical_counts_one_step_higher() -> None:
    """EP-CRIT-17: a ×3 lance critical on a mounted charge → ×4: 4d8 + 24."""
    enc, events = charge({"conditions": ["mounted"]}, [20, 15, 1, 2, 3, 4])
    assert sum(e.amount for e in events if isinstance(e, ev.Damaged)) == 10 + 24 and remaining(enc) == 0
    assert "×4 = critical ×3 one step higher" in "\n".join(e.explain() for e in events)


SPEARMAN = stats("guard", attack_bonus=10, abilities={"str": 14},
                 attacks=[weapon("spear", "1d8", crit_mult=2, qualities=["brace"])])


def braced(dice: list[int]) -> tuple[Any, list[ev.Event]]:
    """A charging creature (the charge's effect) leaves the square next to a set spear: the spear strikes it."""
    enc = ep([{"id": "runner", "side": "x", "stats": stats("runner", hp=300), "position": [2, 2],
               "effects": [{"name": "charging", "ac": -2, "rounds": 1}]},
              {"id": "guard", "side": "y", "stats": SPEARMAN, "position": [3, 2]}], dice=dice)
    enc.act(ax.Move(to=(0, 2)))
    return enc, enc.respond("attack")


@pytest.mark.parametrize(("dice", "expected", "why"), [
    ([15, 3, 4], 3 + 4 + 4, "braced spear against a charge (EP-DMG-16)"),
    ([20, 15, 1, 2, 3], 6 + 6, "×3 = critical ×2 one step higher")])
def test_ep_dmg_16_crit_18_a_braced_weapon_doubles_against_a_charger(dice: list[int], expected: int,
                                                                     why: str) -> None:
    """EP-DMG-16: a braced spear (1d8 + Str 2) against a charging creature deals double damage (2d8 + 4);
    EP-CRIT-18: its critical counts one step higher (×2 → ×3: 3d8 + 6)."""
    enc, events = braced(dice)
    assert sum(e.amount for e in events if isinstance(e, ev.Damaged)) == expected and remaining(enc) == 0
    assert why in "\n".join(e.explain() for e in events)


@pytest.mark.parametrize(("option", "expected"), [("unconscious", "dying"), ("dead", "dead")])
def test_ep_dmg_04_zero_hit_points_defeats(option: str, expected: str) -> None:
    """EP-DMG-04 (AMBIGUOUS, option ep_defeated): a creature brought to exactly 0 hp is defeated — by default
    unconscious (dying: helpless, it cannot act), or dead; it is not a Beginner Box 'disabled' creature that acts."""
    enc = duel(fighter(weapon("w", "1d6")), stats("t", hp=4), [15, 4], variants={"ep_defeated": option})
    hit(enc)
    t, ts = enc.creature("t"), enc.state.get("t")
    rs = enc.ruleset
    assert ts.hp == 0 and str(rs.injury.health(t, ts).value) == expected
    assert not rs.injury.can_act(t, ts) and rs.injury.is_helpless(t, ts)
