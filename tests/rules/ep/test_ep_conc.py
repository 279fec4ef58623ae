"""Epic Path concealment (EP-CONC-01..37): the corner lines, the d% after a hit, no stacking, senses,
invisibility and pinpointing. Forced dice: d20 attack, then d% if it hit, then the confirmation, then damage.
Map legend: ``f`` fog (20 %), ``d`` dim light, ``D`` darkness."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.ep._util import FIGHTER, ac, armored, assert_illegal, ep, remaining, resolved, stats, texts

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.errors import D20CombatError

T15 = armored("target", 3, dex=14)
"""AC 15 = 10 + armor 3 + Dex 2; flat-footed 13."""


def duel(a_extra: dict[str, Any] | None = None, t_extra: dict[str, Any] | None = None, *, attacker=FIGHTER,
         target=T15, t_pos=(1, 0), dice=(), rows=None, variants=None, first="a", buddy=False) -> Any:
    a = {"id": "a", "side": "h", "stats": attacker, "position": [0, 0], **(a_extra or {})}
    t = {"id": "t", "side": "f", "stats": target, "position": list(t_pos), **(t_extra or {})}
    extra = [{"id": "b", "side": "f", "stats": T15, "position": [9, 9]}] if buddy else []
    return ep([a, t, *extra] if first == "a" else [t, a, *extra], dice=dice, rows=rows, variants=variants)


def chance(enc, attacker: str = "a", target: str = "t", **kw) -> int:
    return enc.plan_attack(attacker, target, **kw).concealment


def test_ep_conc_01_03_ranged_and_distant_melee_use_the_corner_lines() -> None:
    """EP-CONC-01: fog between archer and target on every line from the chosen corner → 20 %; EP-CONC-03: a reach
    attack on a non-adjacent target uses the same test."""
    rows = ["..f..", "..f..", "....."]
    enc = ep([{"id": "a", "side": "h", "stats": FIGHTER, "position": [0, 0], "wielding": "longbow"},
              {"id": "t", "side": "f", "stats": T15, "position": [4, 0]}], rows=rows)
    assert chance(enc) == 20
    reach = stats("reacher", attack_bonus=5, reach_ft=10, attacks=[{"weapon": "club"}])
    enc = duel(attacker=reach, t_pos=(2, 0), rows=[".f..", "...."])
    assert chance(enc) == 20


def test_ep_conc_02_adjacent_melee_needs_the_space_entirely_inside() -> None:
    """EP-CONC-02: fog in the target's own square conceals it from an adjacent attacker; fog elsewhere doesn't."""
    assert chance(duel(rows=[".f..", "...."])) == 20
    assert chance(duel(rows=["..f.", "...."])) == 0


def test_ep_conc_04_05_magic_conceals_against_every_attack_and_the_d_percent_follows_a_hit() -> None:
    """EP-CONC-04: blur conceals with nothing in between; EP-CONC-05: the attack is rolled first and only a hit
    rolls the d% (10 ≤ 20: the hit misses)."""
    enc = duel(t_extra={"conditions": ["blur"]}, dice=[15, 10])
    assert chance(enc) == 20
    events = enc.act(ax.Attack(target="t"))
    r = resolved(events)
    assert not r.hit and "the hit misses: concealment d% 10 ≤ 20" in texts(events)
    assert remaining(enc) == 0
    miss = duel(t_extra={"conditions": ["blur"]}, dice=[2, 99])
    assert not resolved(miss.act(ax.Attack(target="t"))).hit
    assert remaining(miss) == 1  # a missed roll asks no d%


def test_ep_conc_06_concealment_does_not_stack() -> None:
    """EP-CONC-06: blur (20 %) in fog (20 %) is still 20 %."""
    enc = duel(t_extra={"conditions": ["blur"]}, rows=[".f..", "...."])
    assert chance(enc) == 20


def test_ep_conc_07_08_09_total_concealment_guess_a_square_at_50_percent() -> None:
    """EP-CONC-07, EP-CONC-08: an invisible target cannot be attacked directly, only a guessed square; EP-CONC-09: a hit
    in the right square has a 50 % miss chance (51 > 50: it stands)."""
    enc = duel(t_extra={"conditions": ["invisible"]}, dice=[15, 51, 3])
    assert_illegal(enc, ax.Attack(target="t"), "total concealment")
    assert chance(enc, square=(1, 0)) == 50
    events = enc.act(ax.Attack(target="t", square=(1, 0)))
    assert resolved(events).hit
    assert "concealment d% 51 > 50" in texts(events)


def test_ep_conc_10_no_attack_of_opportunity_against_total_concealment() -> None:
    """EP-CONC-10: an invisible creature walks out of a threatened square without provoking."""
    enc = ep([{"id": "m", "side": "a", "stats": FIGHTER, "position": [2, 2], "conditions": ["invisible"]},
              {"id": "g", "side": "b", "stats": FIGHTER, "position": [3, 2]}])
    enc.act(ax.Move(to=(0, 2)))
    assert enc.pending is None and enc.state.get("m").position == (0, 2)


def test_ep_conc_12_targeting_senses_ignore_the_miss_chance_in_range() -> None:
    """EP-CONC-12: blindsense 30 ft ignores fog and invisibility; 5 ft of tremorsense does not reach a target
    10 ft away."""
    blind = {**FIGHTER, "senses": {"blindsense": 30}}
    assert chance(duel(t_extra={"conditions": ["invisible"]}, attacker=blind)) == 0
    assert chance(duel(rows=[".f..", "...."], attacker=blind)) == 0
    short = stats("reacher", attack_bonus=5, reach_ft=10, attacks=[{"weapon": "club"}], senses={"tremorsense": 5})
    enc = duel(t_extra={"conditions": ["invisible"]}, attacker=short, t_pos=(2, 0))
    assert_illegal(enc, ax.Attack(target="t"), "total concealment")


def test_ep_conc_13_the_gm_sets_another_miss_chance() -> None:
    """EP-CONC-13, EP-CONC-29: the GM's miss_chance:35 on a large, slow invisible creature replaces 50 %."""
    enc = duel(t_extra={"conditions": ["invisible", "miss_chance:35"]})
    assert chance(enc, square=(1, 0)) == 35
    assert chance(duel(t_extra={"conditions": ["miss_chance:35"]})) == 0  # nothing to modify


def test_ep_conc_14_darkvision_does_not_see_the_invisible() -> None:
    """EP-CONC-14: darkvision needs line of sight and does not find an invisible creature; see invisibility does."""
    dark = {**FIGHTER, "darkvision_ft": 60, "senses": {"darkvision": 60}}
    assert_illegal(duel(t_extra={"conditions": ["invisible"]}, attacker=dark), ax.Attack(target="t"),
                   "total concealment")
    seer = {**FIGHTER, "senses": {"see_invisibility": 60}}
    enc = duel(t_extra={"conditions": ["invisible"]}, a_extra={"conditions": ["sees_invisible"]}, attacker=seer)
    assert chance(enc) == 0


def test_ep_conc_15_18_invisible_attacker_gets_2_and_flat_footed_ac() -> None:
    """EP-CONC-18: +2 circumstance and the defender's flat-footed AC (13, no Dex); EP-CONC-15: not against a
    creature with tremorsense in range."""
    enc = duel(a_extra={"conditions": ["invisible"]}, first="t")
    enc.act(ax.EndTurn())  # t has had its turn: not flat-footed any more by EP-COND-01
    assert ac(enc, "a", "t") == 13
    plan = enc.plan_attack("a", "t")
    assert any(m.source.startswith("invisible attacker") and m.value == 2 for m in plan.modifiers)
    feel = {**T15, "senses": {"tremorsense": 30}}
    enc = duel(a_extra={"conditions": ["invisible"]}, target=feel, first="t")
    enc.act(ax.EndTurn())
    assert ac(enc, "a", "t") == 15
    assert not any(m.source.startswith("invisible attacker") for m in enc.plan_attack("a", "t").modifiers)


def test_ep_conc_19_no_precision_damage_against_the_invisible() -> None:
    """EP-CONC-19: sneak attack on a helpless target (2d6) is lost if the target is invisible; blindsense (a
    targeting sense with no miss chance) lets it through."""
    rogue = {**FIGHTER, "sneak_attack_dice": 2}
    seen = duel(t_extra={"conditions": ["paralyzed"]}, attacker=rogue, dice=[15, 4, 5, 5], buddy=True)
    dmg = next(e for e in seen.act(ax.Attack(target="t")) if isinstance(e, ev.Damaged))
    assert dmg.amount == 14
    unseen = duel(t_extra={"conditions": ["paralyzed", "invisible"]}, attacker=rogue, dice=[15, 60, 4], buddy=True)
    dmg = next(e for e in unseen.act(ax.Attack(target="t", square=(1, 0))) if isinstance(e, ev.Damaged))
    assert dmg.amount == 4 and remaining(unseen) == 0
    sensing = duel(t_extra={"conditions": ["paralyzed", "invisible"]}, attacker={**rogue, "senses": {"blindsense": 30}},
                   dice=[15, 4, 5, 5], buddy=True)
    dmg = next(e for e in sensing.act(ax.Attack(target="t")) if isinstance(e, ev.Damaged))
    assert dmg.amount == 14


def test_ep_conc_27_28_29_struck_by_an_invisible_attacker_pinpoints_it_until_it_moves() -> None:
    """EP-CONC-28: t, struck by the invisible a, knows a's square; EP-CONC-29: it attacks there normally at 50 %
    (no guessed square); EP-CONC-27: once a moves, the square is unknown again."""
    enc = duel(a_extra={"conditions": ["invisible"]}, first="t", dice=[15, 3, 15, 70, 2])
    enc.act(ax.EndTurn())
    events = enc.act(ax.Attack(target="t"))
    assert resolved(events).hit
    assert "pinpointing:a:0:0" in enc.state.get("t").conditions
    assert "knows its square until it moves (EP-CONC-28)" in texts(events)
    enc.act(ax.EndTurn())
    plan = enc.plan_attack("t", "a")
    assert plan.concealment == 50 and "pinpointed at (0,0)" in plan.concealment_reason
    events = enc.act(ax.Attack(target="a"))
    assert resolved(events).hit and "concealment d% 70 > 50" in texts(events)
    enc.act(ax.EndTurn())
    enc.act(ax.Move(to=(0, 1)))
    enc.act(ax.EndTurn())
    assert_illegal(enc, ax.Attack(target="a"), "total concealment")


def test_ep_conc_30_an_empty_square_is_reported_only_as_a_miss() -> None:
    """EP-CONC-30: attacking the wrong square rolls the attack and the miss chance as if it were there, and says
    only "misses"."""
    enc = duel(t_extra={"conditions": ["invisible"]}, dice=[18, 90])
    events = enc.act(ax.Attack(target="t", square=(0, 1)))
    r = resolved(events)
    assert not r.hit and r.lines[1:] == ["  misses"]
    assert remaining(enc) == 0


def test_ep_conc_37_ethereal_creatures_are_invisible_even_to_tremorsense() -> None:
    """EP-CONC-37: an ethereal creature is invisible and tremorsense does not find it; the GM's list
    (ep_senses_vs_ethereal) can let a sense through."""
    feel = {**FIGHTER, "senses": {"tremorsense": 30}, "attacks": [
        {"weapon": {"name": "force-blade", "damage": "1d6", "qualities": ["force"]}}]}
    enc = duel(t_extra={"conditions": ["ethereal"]}, attacker=feel)
    assert_illegal(enc, ax.Attack(target="t"), "total concealment")
    enc = duel(t_extra={"conditions": ["ethereal"]}, attacker=feel, variants={"ep_senses_vs_ethereal": ["tremorsense"]})
    assert chance(enc) == 0


def test_ep_conc_12_13_39_bad_scenario_fields_are_refused_by_path() -> None:
    """EP-CONC-12: an unknown sense; EP-CONC-13: a miss chance over 100; EP-CONC-39: a faded level that is not a
    number — each refused with the field's path, nothing built."""
    with pytest.raises(D20CombatError, match=r"blindsens.*not a sense Epic Path knows"):
        duel(attacker={**FIGHTER, "senses": {"blindsens": 30}})
    with pytest.raises(D20CombatError, match=r"conditions\[0\].*miss chance '150'"):
        duel(t_extra={"conditions": ["miss_chance:150"]})
    with pytest.raises(D20CombatError, match=r"conditions\[0\].*level or CR 'x'"):
        duel(t_extra={"conditions": ["faded:x"]})


def test_ep_conc_27_28_knowledge_is_replaced_not_piled_up() -> None:
    """EP-CONC-28: struck again from the same square, t learns nothing new (no event); struck from a new square
    (EP-CONC-27: the old one is stale), the old knowledge is replaced."""
    enc = duel(a_extra={"conditions": ["invisible"]}, first="t", dice=[15, 3, 15, 3, 15, 3], buddy=True)
    enc.act(ax.EndTurn())
    enc.act(ax.Attack(target="t"))
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())  # the buddy's turn
    enc.act(ax.EndTurn())
    events = enc.act(ax.Attack(target="t"))
    assert not [e for e in events if isinstance(e, ev.ConditionSet)]
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    enc.act(ax.Step(to=(0, 1)))
    enc.act(ax.Attack(target="t"))
    assert sorted(c for c in enc.state.get("t").conditions if c.startswith("pinpointing")) == ["pinpointing:a:0:1"]


def test_ep_conc_11_total_concealment_allows_a_stealth_stance() -> None:
    """EP-CONC-11: invisible (total concealment from every enemy) a creature may start a Stealth stance; seen, it
    may not (the enemy is named); an enemy with tremorsense in range perceives it anyway."""
    from d20combat.rulesets.epic_path.seeing import stealth_stance_problem

    enc = duel(t_extra={"conditions": ["invisible"]})
    assert stealth_stance_problem(enc.view(), "t") is None
    problem = stealth_stance_problem(duel().view(), "t")
    assert problem is not None and problem.startswith("a perceives t") and "EP-CONC-11" in problem
    feel = {**FIGHTER, "senses": {"tremorsense": 30}}
    assert stealth_stance_problem(duel(t_extra={"conditions": ["invisible"]}, attacker=feel).view(), "t") is not None
