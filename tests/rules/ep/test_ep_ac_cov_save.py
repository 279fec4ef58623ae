"""Epic Path Armor Class (EP-AC), cover (EP-COV) and saving throws (EP-SAVE)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.ep._util import FIGHTER, ac, ep, remaining, resolved, ruleset, stats, texts

from d20combat.battlefield.cover import CoverDegree, CoverFact
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.gm_actions import GmSave
from d20combat.rules.armor_class import DefenseContext
from d20combat.rulesets.epic_path.cover import (
    allows_stealth,
    improved_evasion,
    reflex_cover_bonus,
    stealth_bonus,
)
from d20combat.rulesets.off_guard.conditions import CmvCover

# AC 23 = 10 + Dex 3 + armor 6 + shield 2 + natural 1 + deflection 1 (EP.md's worked example)
DEFENDER = stats("t", abilities={"dex": 16}, armor={"name": "mail", "armor_bonus": 6},
                 shield={"name": "shield", "shield_bonus": 2}, natural_armor=1, deflection_bonus=1)


def defender_ac(sheet: dict[str, Any], **ctx: bool) -> int:
    enc = ep([{"id": "t", "side": "y", "stats": sheet, "position": [1, 1]},
              {"id": "a", "side": "x", "stats": FIGHTER, "position": [5, 5]}])
    rs = ruleset(enc)
    return rs.defense.total(enc.creature("t"), enc.state.get("t"), DefenseContext(**ctx), []).value


def test_ep_ac_01_03_04_touch_and_flat_footed_ac() -> None:
    """EP-AC-03: touch AC leaves out armor, shield and natural armor, keeping Dex, size and deflection (23 →
    14; EP-AC-04 read as the Touch AC definition: all armor, magic or not); EP-AC-01: flat-footed loses the Dex
    bonus (23 → 20); both → 11."""
    assert defender_ac(DEFENDER) == 23
    assert defender_ac(DEFENDER, touch=True) == 14
    assert defender_ac(DEFENDER, flat_footed=True) == 20
    assert defender_ac(DEFENDER, touch=True, flat_footed=True) == 11


def test_ep_ac_03_size_modifier_counts_in_ac_and_touch_ac() -> None:
    """EP-AC-03: the size modifier applies to AC and touch AC alike (Small +1, Large −1)."""
    assert defender_ac({**DEFENDER, "size": "small"}, touch=True) == 15
    assert defender_ac({**DEFENDER, "size": "large"}) == 22


def test_ep_ac_02_uncanny_dodge_keeps_dex_when_caught_flat_footed() -> None:
    """EP-AC-02: a creature with uncanny dodge is never caught flat-footed: surprised, it keeps its Dex bonus."""
    enc = ep([{"id": "a", "side": "x", "stats": FIGHTER, "position": [2, 2]},
              {"id": "t", "side": "y", "stats": DEFENDER, "position": [3, 2]},
              {"id": "u", "side": "y", "stats": {**DEFENDER, "name": "u", "feats": ["uncanny_dodge"]},
               "position": [2, 3]}], surprise={"surprised": ["t", "u"]})
    assert enc.state.surprise_round
    assert ac(enc, "a", "t", "club") == 20
    assert ac(enc, "a", "u", "club") == 23


def test_ep_ac_05_a_charger_takes_minus_2_ac_until_its_next_turn() -> None:
    """EP-AC-05: after a charge the charger's AC is 2 lower until the start of its next turn."""
    enc = ep([{"id": "a", "side": "x", "stats": FIGHTER, "position": [0, 0]},
              {"id": "t", "side": "y", "stats": stats("t", hp=300, attacks=[{"weapon": "club"}]),
               "position": [0, 4]}], dice=[2])

    def charger_ac() -> int:
        return ruleset(enc).defense.total(enc.creature("a"), enc.state.get("a"), DefenseContext(), []).value

    assert charger_ac() == 10
    enc.act(ax.Charge(target="t", attack="club"))
    assert charger_ac() == 8
    if enc.state.actor == "a":
        enc.act(ax.EndTurn())
    assert enc.state.actor == "t" and charger_ac() == 8
    enc.act(ax.EndTurn())
    assert enc.state.actor == "a" and charger_ac() == 10


# --------------------------------------------------------------------------------------------------- cover
def cover_of(enc: Any, attacker: str = "a", target: str = "t", attack: str | None = None) -> tuple[int, str]:
    plan = enc.plan_attack(attacker, target, attack)
    mod = ruleset(enc).cover.cover_modifier(plan.cover)
    return (mod.value if mod is not None else 0), plan.cover.reason


ARCHER = stats("a", attack_bonus=5, attacks=[{"weapon": "longbow"}])


def test_ep_cov_01_10_11_a_creature_on_a_ranged_line_gives_soft_cover() -> None:
    """EP-COV-01, EP-COV-10: a creature — even an enemy — on a line from the archer's best corner gives +4 AC against a
    ranged attack (soft cover); EP-COV-11: soft cover gives nothing on Reflex."""
    enc = ep([{"id": "a", "side": "x", "stats": ARCHER, "position": [0, 2]},
              {"id": "mid", "side": "y", "stats": stats("mid"), "position": [2, 2]},
              {"id": "t", "side": "y", "stats": stats("t"), "position": [4, 2]}])
    value, reason = cover_of(enc)
    assert value == 4 and "soft cover" in reason
    plan = enc.plan_attack("a", "t")
    saves = ruleset(enc).saves
    assert not [m for m in saves.save_modifiers(enc.creature("t"), enc.state.get("t"), "ref", cover_fact=plan.cover)
                if "cover" in m.source]
    clear = ep([{"id": "a", "side": "x", "stats": ARCHER, "position": [0, 2]},
                {"id": "t", "side": "y", "stats": stats("t"), "position": [4, 2]}])
    assert cover_of(clear)[0] == 0


def test_ep_cov_02_adjacent_melee_cover_is_a_wall_on_any_line_never_a_creature() -> None:
    """EP-COV-02: against an adjacent melee attack a wall (or low wall) on any line gives cover; a creature does
    not."""
    rows = ["......", "......", "...=..", "......"]
    enc = ep([{"id": "a", "side": "x", "stats": FIGHTER, "position": [2, 2]},
              {"id": "t", "side": "y", "stats": stats("t"), "position": [3, 3]}], rows=rows)
    assert cover_of(enc, attack="club")[0] == 4
    crowd = ep([{"id": "a", "side": "x", "stats": FIGHTER, "position": [2, 2]},
                {"id": "t", "side": "y", "stats": stats("t"), "position": [3, 3]},
                {"id": "c", "side": "y", "stats": stats("c"), "position": [3, 2]}])
    assert cover_of(crowd, attack="club")[0] == 0


@pytest.mark.parametrize(("soft_vs_reach", "expected"), [(True, 4), (False, 0)])
def test_ep_cov_03_a_reach_attack_uses_the_ranged_rules(soft_vs_reach: bool, expected: int) -> None:
    """EP-COV-03: a reach attack at a target 10 ft away uses the ranged rules: a creature in between gives
    cover (option ep_soft_cover_vs_reach; False: soft cover against ranged attacks only)."""
    pike = stats("a", attack_bonus=5, attacks=[{"weapon": {"name": "pike", "damage": "1d8", "reach": True}}])
    enc = ep([{"id": "a", "side": "x", "stats": pike, "position": [2, 2]},
              {"id": "c", "side": "x", "stats": stats("c"), "position": [3, 2]},
              {"id": "t", "side": "y", "stats": stats("t"), "position": [4, 2]}],
             variants={"ep_soft_cover_vs_reach": soft_vs_reach})
    assert cover_of(enc)[0] == expected


def low_wall_duel(a_col: int, t_col: int) -> Any:
    row = "." * 20
    rows = [row, row, row[:10] + "=" + row[11:], row]
    return ep([{"id": "a", "side": "x", "stats": ARCHER, "position": [a_col, 2]},
               {"id": "t", "side": "y", "stats": stats("t"), "position": [t_col, 2]}], rows=rows, width=20)


@pytest.mark.parametrize(("a_col", "t_col", "expected"), [(0, 15, 4), (0, 18, 0), (8, 16, 0), (2, 13, 4)])
def test_ep_cov_04_05_low_obstacles(a_col: int, t_col: int, expected: int) -> None:
    """EP-COV-04: a low wall covers only creatures within 30 ft of it (target 25 ft away: +4; 40 ft: none);
    EP-COV-05: an attacker closer to it than the target ignores it."""
    assert cover_of(low_wall_duel(a_col, t_col))[0] == expected


def test_ep_cov_06_no_aoo_against_an_opponent_with_cover() -> None:
    """EP-COV-06: an enemy with cover relative to the guard (a wall on a line between them) leaves its
    threatened square without an attack of opportunity; without the wall it provokes."""
    guard = stats("guard", attack_bonus=5, attacks=[{"weapon": "club"}])

    def walk(rows: list[str]) -> Any:
        enc = ep([{"id": "m", "side": "x", "stats": FIGHTER, "position": [3, 3]},
                  {"id": "guard", "side": "y", "stats": guard, "position": [2, 2]}], rows=rows, dice=[1])
        enc.act(ax.Move(to=(5, 5)))
        return enc

    assert walk(["......"] * 6).pending is not None
    covered = walk(["......", "......", "...#..", "......", "......", "......"])
    assert covered.pending is None and covered.state.get("m").position == (5, 5)


def test_ep_cov_12_13_big_creatures_pick_a_square() -> None:
    """EP-COV-12, EP-COV-13: against a Large creature the attacker picks the square it judges cover to (a wall on the
    lines to one square, none to the other: no cover), and the Large creature picks its own square for its melee
    attack; a Medium target in the covered square has cover."""
    rows = ["......", "......", "......", "..#...", "......", "......"]
    big = stats("t", size="large", attacks=[{"weapon": "club"}])
    enc = ep([{"id": "a", "side": "x", "stats": FIGHTER, "position": [2, 2]},
              {"id": "t", "side": "y", "stats": big, "position": [3, 2]}], rows=rows)
    assert cover_of(enc, attack="club")[0] == 0
    assert cover_of(enc, "t", "a", "club")[0] == 0
    small = ep([{"id": "a", "side": "x", "stats": FIGHTER, "position": [2, 2]},
                {"id": "t", "side": "y", "stats": stats("t"), "position": [3, 3]}], rows=rows)
    assert cover_of(small, attack="club")[0] == 4


@pytest.mark.parametrize(("partial", "expected"), [(True, 2), (False, 4)])
def test_ep_cov_14_partial_cover_when_the_gm_allows_it(partial: bool, expected: int) -> None:
    """EP-COV-14: when fewer than half of the lines from the attacker's best corner are blocked, the GM may
    grade it partial cover, +2 AC and +1 Reflex (option ep_partial_cover); otherwise it is cover, +4."""
    rows = ["........", "........", "........", "...#....", "........"]  # 1 of the 4 lines from the best corner
    enc = ep([{"id": "a", "side": "x", "stats": ARCHER, "position": [0, 2]},
              {"id": "t", "side": "y", "stats": stats("t"), "position": [6, 3]}], rows=rows,
             variants={"ep_partial_cover": partial})
    value, reason = cover_of(enc)
    assert value == expected
    assert ("EP-COV-14" in reason) is partial
    fact = enc.plan_attack("a", "t").cover
    mods = ruleset(enc).saves.save_modifiers(enc.creature("t"), enc.state.get("t"), "ref", cover_fact=fact)
    assert [m.value for m in mods if "cover" in m.source] == [1 if partial else 2]


def test_ep_cov_07_17_cover_on_reflex_saves() -> None:
    """EP-COV-07: cover gives +2 on Reflex against an effect from beyond it; EP-COV-17: improved cover +4;
    EP-COV-11: soft cover nothing; no cover nothing."""
    enc = ep([{"id": "t", "side": "y", "stats": stats("t", saves={"ref": 3}), "position": [1, 1]},
              {"id": "a", "side": "x", "stats": FIGHTER, "position": [5, 5]}])
    saves, c, s = ruleset(enc).saves, enc.creature("t"), enc.state.get("t")

    def ref(fact: CoverFact | None) -> int:
        return sum(m.value for m in saves.save_modifiers(c, s, "ref", cover_fact=fact))

    assert ref(None) == 3
    assert ref(CmvCover(CoverDegree.COVER, None, "wall")) == 5
    assert ref(CmvCover(CoverDegree.COVER, None, "slit", improved=True)) == 7
    assert ref(CmvCover(CoverDegree.COVER, None, "crowd", soft=True)) == 3
    assert sum(m.value for m in saves.save_modifiers(c, s, "will", cover_fact=CoverFact(CoverDegree.COVER, None,
                                                                                         "wall"))) == 0


def test_ep_cov_15_16_17_total_cover_forbids_and_improved_cover_gives_8() -> None:
    """EP-COV-15, EP-COV-16: behind a solid wall the target has total cover and cannot be attacked; EP-COV-17: a target
    behind a GM-graded arrow slit (improved cover) has +8 AC."""
    rows = ["......", "...#..", "...#..", "...#..", "......"]
    enc = ep([{"id": "a", "side": "x", "stats": ARCHER, "position": [1, 2]},
              {"id": "t", "side": "y", "stats": stats("t"), "position": [5, 2]}], rows=rows)
    assert enc.check(ax.Attack(target="t")) is not None and "total cover" in (enc.check(ax.Attack(target="t")) or "")
    slit = ep([{"id": "a", "side": "x", "stats": ARCHER, "position": [0, 2]},
               {"id": "mid", "side": "y", "stats": stats("mid"), "position": [2, 2]},
               {"id": "t", "side": "y", "stats": stats("t"), "position": [4, 2]}],
              rows=["......"] * 5, map_extra={"improved_cover": [[4, 2]]})
    assert cover_of(slit)[0] == 4  # soft cover from a creature is never improved
    walled = ep([{"id": "a", "side": "x", "stats": ARCHER, "position": [0, 2]},
                 {"id": "t", "side": "y", "stats": stats("t"), "position": [4, 3]}],
                rows=["......", "......", "......", "..#...", "......"], map_extra={"improved_cover": [[4, 3]]})
    value, reason = cover_of(walled)
    assert value == 8 and "improved cover" in reason


# --------------------------------------------------------------------------------------------------- saves
def gm_save(face: int, bonus: int, dc: int, variants: dict[str, Any] | None = None) -> ev.SaveRolled:
    enc = ep([{"id": "t", "side": "y", "stats": stats("t", saves={"ref": bonus, "fort": 1, "will": 0}),
               "position": [1, 1]},
              {"id": "a", "side": "x", "stats": FIGHTER, "position": [5, 5]}], dice=[face], variants=variants)
    events = enc.gm(GmSave(target="t", save="ref", dc=dc))
    assert remaining(enc) == 0
    return next(e for e in events if isinstance(e, ev.SaveRolled))


@pytest.mark.parametrize(("face", "success"), [(12, True), (11, False)])
def test_ep_save_01_02_a_save_is_d20_plus_modifiers_against_the_dc(face: int, success: bool) -> None:
    """EP-SAVE-01, EP-SAVE-02: a Reflex save is d20 + the Reflex modifiers vs the DC, a success when ≥
    (12 + 6 = 18 vs DC
    18 succeeds)."""
    r = gm_save(face, 6, 18)
    assert r.success is success and r.total == face + 6


@pytest.mark.parametrize(("variants", "success"), [(None, True), ({"ep_save_naturals": "auto"}, False)])
def test_ep_save_03_naturals_are_an_option(variants: dict[str, Any] | None, success: bool) -> None:
    """EP-SAVE-03 (AMBIGUOUS): a natural 1 is just a 1 by default (1 + 20 ≥ DC 15 succeeds); with
    ep_save_naturals 'auto' it always fails (and a natural 20 always succeeds)."""
    assert gm_save(1, 20, 15, variants).success is success
    assert gm_save(20, 0, 30, variants).success is (variants is not None)


def test_ep_cov_08_09_18_19_what_cover_lends_to_stealth_evasion_and_spreads() -> None:
    """EP-COV-08: a spread that reaches around the cover cancels its Reflex bonus; EP-COV-09: cover allows a
    Stealth check, EP-COV-11: soft cover does not; EP-COV-18: improved cover gives improved evasion; EP-COV-19:
    and +10 on Stealth. (The hooks the Stealth and area-effect rules ask.)"""
    wall = CmvCover(CoverDegree.COVER, None, "wall")
    slit = CmvCover(CoverDegree.COVER, None, "slit", improved=True)
    crowd = CmvCover(CoverDegree.COVER, None, "crowd", soft=True)
    none = CoverFact(CoverDegree.NONE, None, "open")
    bonus = reflex_cover_bonus(wall)
    assert bonus is not None and bonus.value == 2
    assert reflex_cover_bonus(wall, spread_around=True) is None
    assert allows_stealth(wall) and allows_stealth(slit) and not allows_stealth(crowd) and not allows_stealth(none)
    assert improved_evasion(slit) and not improved_evasion(wall)
    sb = stealth_bonus(slit)
    assert sb is not None and sb.value == 10 and stealth_bonus(wall) is None


@pytest.mark.parametrize(("reading", "touch_ac"), [("none", 10), ("magic_enhancement", 13)])
def test_ep_ac_04_option_magic_armor_against_touch_attacks(reading: str, touch_ac: int) -> None:
    """EP-AC-04 (AMBIGUOUS, option ep_touch_ac_armor): +2 mail (armor 6) and a +1 shield (2): Touch AC drops all of
    it (10, default), or keeps the magic's enhancement bonuses, touch attacks bypassing only "mundane armor" (10 + 2
    + 1 = 13). A ray of frost rolled 11 (d20 6 + 5) hits the first and misses the second; normal AC is 18 either
    way."""
    caster = stats("caster", attack_bonus=5, attacks=[{"weapon": "ray-of-frost"}])
    knight = stats("knight", armor={"name": "mail+2", "armor_bonus": 6}, shield={"name": "shield+1",
                   "shield_bonus": 2}, attributes={"armor_enhancement": 2, "shield_enhancement": 1})
    enc = ep([{"id": "a", "side": "x", "stats": caster, "position": [1, 1]},
              {"id": "t", "side": "y", "stats": knight, "position": [4, 1]}], dice=[6, 2],
             variants={"ep_touch_ac_armor": reading})
    assert ac(enc, "a", "t", "ray-of-frost") == touch_ac
    assert ruleset(enc).defense.total(enc.creature("t"), enc.state.get("t"), DefenseContext(), []).value == 18
    events = enc.act(ax.Attack("t", "ray-of-frost"))
    assert resolved(events).hit is (touch_ac == 10)
    if touch_ac == 13:
        assert "magic armor's enhancement (EP-AC-04, option ep_touch_ac_armor)" in texts(events)
