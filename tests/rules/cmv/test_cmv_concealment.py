"""CMV concealment (CMV-CONC): a miss chance the defender rolls after a hit; sources add up to 50 %; the
ranged line test, the adjacent 'entirely inside' test, magic against every attack, total concealment and
guessed squares, darkvision, GM degrees. Forced dice: d20 attack, then d% if it hit, then damage.
Map legend: ``f`` fog (20 %), ``d`` dim light, ``D`` darkness."""

from __future__ import annotations

import pytest

from d20combat.encounter import actions as ax
from d20combat.rulesets.off_guard import GmAttack

from ._util import FIGHTER, ac, armored, assert_illegal, cmv, remaining, resolved, ruleset, stats

T15 = armored("target", 5)
REACH = stats("reacher", attack_bonus=5, reach_ft=10, attacks=[{"weapon": "club"}])
SEER = {**FIGHTER, "name": "dwarf", "darkvision_ft": 60}


def melee(rows: list[str], target: tuple[int, int] = (1, 0), *, tconds=(), attacker=FIGHTER, dice=(),
          variants=None, **kw):
    return cmv([{"id": "a", "side": "h", "stats": attacker, "position": [0, 0]},
                {"id": "t", "side": "f", "stats": T15, "position": list(target), "conditions": list(tconds)}],
               rows=rows, dice=dice, variants=variants, **kw)


def ranged(rows: list[str], archer: tuple[int, int], target: tuple[int, int], **kw):
    return cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": list(archer), "wielding": "longbow"},
                {"id": "t", "side": "f", "stats": T15, "position": list(target)}], rows=rows, **kw)


def chance(enc, attacker: str = "a", target: str = "t", **kw) -> int:
    return enc.plan_attack(attacker, target, **kw).concealment


def test_cmv_conc_01_07_concealment_is_a_20_percent_miss_chance_not_an_ac_bonus() -> None:
    """CMV-CONC-01, CMV-CONC-07: nothing blocks the blow; fog gives a 20 % chance that a hit missed, and the
    AC stays 15."""
    enc = melee([".f..", "...."])
    assert chance(enc) == 20
    assert ac(enc, "a", "t") == 15


def test_cmv_conc_02_typical_sources_fog_bushes_dim_light() -> None:
    """CMV-CONC-02: fog, tall grass and foliage (bushes) and a shadowy area (dim light) each conceal; map areas
    carry the miss chance."""
    assert chance(melee([".f..", "...."])) == 20
    assert chance(melee([".*..", "...."])) == 20
    assert chance(melee([".d..", "...."])) == 20
    assert chance(melee(["....", "...."])) == 0


def test_cmv_conc_03_ranged_attacker_picks_its_best_corner() -> None:
    """CMV-CONC-03: fog between archer (0,0) and target (4,0) on every corner's lines → 20 %; fog at (1,0) with
    the target at (2,2) can be seen past from corner (0,1) → 0 %."""
    assert chance(ranged(["..f..", "..f..", "....."], (0, 0), (4, 0))) == 20
    assert chance(ranged([".f..", "....", "....", "...."], (0, 0), (2, 2))) == 0


def test_cmv_conc_04_adjacent_melee_needs_the_space_entirely_inside() -> None:
    """CMV-CONC-04 (derived): fog beside the line of an adjacent diagonal attack gives nothing; the target
    inside the fog has 20 %. A 2×2 ogre with three of its four squares in smoke: no concealment against the
    adjacent fighter, 20 % against an archer whose lines cross the smoke."""
    assert chance(melee(["....", "f...", "...."], target=(1, 1))) == 0
    assert chance(melee(["....", ".f..", "...."], target=(1, 1))) == 20
    enc = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [0, 0]},
               {"id": "g", "side": "f", "stats": "ogre", "position": [1, 0]},
               {"id": "b", "side": "h", "stats": FIGHTER, "position": [7, 0], "wielding": "longbow"}],
              rows=[".fffff..", ".f.fff..", "........"])
    assert chance(enc, "a", "g") == 0
    assert chance(enc, "b", "g") == 20


def test_cmv_conc_05_reach_attack_uses_the_ranged_test() -> None:
    """CMV-CONC-05: a reach attack with fog between (the target not inside it) → 20 %."""
    enc = cmv([{"id": "a", "side": "h", "stats": REACH, "position": [0, 0]},
               {"id": "t", "side": "f", "stats": T15, "position": [2, 0]}], rows=[".f..", "...."])
    assert chance(enc) == 20


def test_cmv_conc_06_magic_conceals_against_every_attack() -> None:
    """CMV-CONC-06: a blur-like effect on the defender conceals it whatever lies between (here nothing)."""
    assert chance(melee(["....", "...."], tconds=("blur",))) == 20
    assert chance(melee(["....", "...."], tconds=("concealed:30",))) == 30


@pytest.mark.parametrize(("pct", "struck"), [(20, False), (21, True)])
def test_cmv_conc_08_defender_rolls_d_percent_after_the_hit(pct: int, struck: bool) -> None:
    """CMV-CONC-08 (derived): an attack hits a target in fog; d% 20 → miss, 21 → struck."""
    enc = melee([".f..", "...."], dice=(15, pct, 4))
    events = enc.act(ax.Attack("t"))
    attack = resolved(events)
    assert attack.hit is struck
    rolls = [r.sides for r in enc.dice.rolls]
    assert rolls[:2] == [20, 100]  # the attack roll first, then the defender's d%
    assert (enc.state.get("t").hp == 16) is struck


def test_cmv_conc_09_a_missed_attack_needs_no_d_percent() -> None:
    """CMV-CONC-09 (derived): the roll misses (12 against AC 15) → no d% is used; rolled together, it is ignored."""
    enc = melee([".f..", "...."], dice=(7, 50))
    attack = resolved(enc.act(ax.Attack("t")))
    assert not attack.hit and remaining(enc) == 1
    assert not any("d%" in line for line in attack.lines)


@pytest.mark.parametrize(("variants", "pct", "struck"), [
    ({}, 40, False), ({}, 41, True),
    ({"cmv_concealment_stack": "independent"}, 36, False), ({"cmv_concealment_stack": "independent"}, 37, True),
])
def test_cmv_conc_10_fog_and_blur_stack(variants: dict[str, object], pct: int, struck: bool) -> None:
    """CMV-CONC-10 (text L48, derived): fog 20 % + blur 20 % → 40 % (d% 40 miss, 41 struck); under
    cmv_concealment_stack = independent → 36 % (36 miss, 37 struck)."""
    enc = melee([".f..", "...."], tconds=("blur",), dice=(15, pct, 4), variants=variants)
    assert chance(enc) == (40 if not variants else 36)
    assert resolved(enc.act(ax.Attack("t"))).hit is struck


def test_cmv_conc_10_capped_at_50_and_light_fog() -> None:
    """CMV-CONC-10 (derived): fog + blur + a shadowy area, 20 % each → 60 % → capped at 50 %; light fog (10 %,
    GM) + blur → 30 %."""
    enc = melee([".f..", "...."], tconds=("blur",), map_extra={"dim": [[1, 0]]})
    plan = enc.plan_attack("a", "t")
    assert plan.concealment == 50 and "capped at 50%" in plan.concealment_reason
    light = melee(["....", "...."], tconds=("blur",), map_extra={"concealment": [[1, 0, 10]]})
    assert chance(light) == 30


def test_cmv_conc_11_concealment_allows_stealth() -> None:
    """CMV-CONC-11: concealment allows a Stealth check even without cover."""
    enc = melee([".f..", "...."])
    assert ruleset(enc).conditions.stealth(enc.creature("t"), enc.state.get("t"), concealment=chance(enc))[0]
    assert not ruleset(enc).conditions.stealth(enc.creature("t"), enc.state.get("t"), concealment=0)[0]


def test_cmv_conc_12_13_total_concealment_cannot_be_targeted() -> None:
    """CMV-CONC-12, CMV-CONC-13: line of effect but no line of sight — an invisible target, a target in
    darkness, or a blinded attacker — means the target cannot be attacked as such: a square must be guessed."""
    for enc in (melee(["....", "...."], tconds=("invisible",)),
                melee([".D..", "...."]),
                cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [0, 0], "conditions": ["blinded"]},
                     {"id": "t", "side": "f", "stats": T15, "position": [1, 0]}])):
        assert_illegal(enc, ax.Attack("t"), "total concealment")
        assert chance(enc, square=(1, 0)) == 50


def test_cmv_conc_14_an_empty_guessed_square_is_reported_only_as_a_miss() -> None:
    """CMV-CONC-14 (derived): the fighter attacks the square he guesses for an invisible orc; if it is empty
    the attack is reported as 'misses' — even when the attack roll and the d% would have hit."""
    enc = melee(["....", "...."], tconds=("invisible",), dice=(18, 90))
    attack = resolved(enc.act(ax.Attack("t", square=(0, 1))))
    assert not attack.hit and attack.lines[-1] == "  misses"
    assert not any("stands" in line or "empty" in line for line in attack.lines)
    assert enc.state.get("t").hp == 20


@pytest.mark.parametrize(("pct", "struck"), [(50, False), (51, True)])
def test_cmv_conc_15_total_concealment_is_50_percent(pct: int, struck: bool) -> None:
    """CMV-CONC-15 (derived): total 18 against AC 15 hits the invisible orc's square, then d% 50 → miss,
    51 → struck. Total concealment (50 %) + fog (20 %) is still 50 %."""
    enc = melee(["....", "...."], tconds=("invisible",), dice=(13, pct, 4))
    assert resolved(enc.act(ax.Attack("t", square=(1, 0)))).hit is struck
    foggy = melee([".f..", "...."], tconds=("invisible",))
    assert chance(foggy, square=(1, 0)) == 50


def test_cmv_conc_16_no_reaction_attack_against_total_concealment() -> None:
    """CMV-CONC-16: an invisible orc leaves the fighter's threatened square: no reaction attack, even though
    the fighter knows the square; a visible one provokes."""
    def run(conds: tuple[str, ...]):
        enc = cmv([{"id": "t", "side": "f", "stats": T15, "position": [1, 0], "conditions": list(conds)},
                   {"id": "a", "side": "h", "stats": FIGHTER, "position": [0, 0]}], rows=["....", "....", "...."])
        enc.act(ax.Move(to=(3, 2)))
        return enc

    assert run(("invisible",)).pending is None
    assert run(()).pending is not None


def test_cmv_conc_17_seeing_in_darkness_ignores_darkness_but_not_fog() -> None:
    """CMV-CONC-17 (derived): a target in darkness attacked by a creature that sees in darkness → 0 %; in
    darkness and fog → 20 % (the fog still counts)."""
    dark = melee([".D..", "...."], attacker=SEER)
    assert chance(dark) == 0
    both = melee(["....", "...."], attacker=SEER, map_extra={"dark": [[1, 0]], "fog": [[1, 0]]})
    assert chance(both) == 20


def test_cmv_conc_18_gm_degrees_light_fog_and_one_attack() -> None:
    """CMV-CONC-18 (text L58): the GM may make a fog light (10 %) on the map, or set the miss chance for one
    attack: d20 15 hits, d% 35 ≤ 40 → the hit misses."""
    light = melee(["....", "...."], map_extra={"concealment": [[1, 0, 10]]})
    assert chance(light) == 10
    enc = melee(["....", "...."], dice=(15, 35))
    attack = resolved(enc.act(GmAttack("t", miss_chance=40, reason="swirling ash")))
    assert not attack.hit and "swirling ash (40%)" in attack.lines[-1]


@pytest.mark.parametrize(("variants", "stealth"), [({}, 15), ({"cmv_hide_is_stealth": False}, 5)])
def test_cmv_conc_19_near_total_darkness(variants: dict[str, object], stealth: int) -> None:
    """CMV-CONC-19 (text L58, derived): near-total darkness (GM) → 40 % miss chance and +10 on 'Hide' checks,
    read as Stealth: Stealth +5 → +15; with cmv_hide_is_stealth off the +10 does not reach Stealth."""
    enc = melee(["....", "...."], map_extra={"concealment": [[1, 0, 40]]}, variants=variants)
    assert chance(enc) == 40
    rs = ruleset(enc)
    from dataclasses import replace

    t = enc.creature("t")
    t = replace(t, sheet=t.sheet.model_copy(update={"skills": {"stealth": 5}}))
    allowed, mods = rs.conditions.stealth(t, enc.state.get("t"), concealment=40, near_total_darkness=True)
    assert allowed and sum(m.value for m in mods) == stealth
