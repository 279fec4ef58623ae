"""CMV cover (CMV-COV): the attacker's best corner, walls only in adjacent melee, soft cover from creatures,
low obstacles within 30 ft, big creatures' squares, total cover, improved cover, narrow openings, and the
save and Stealth consequences. Squares are (column, row); ``#`` wall, ``=`` low wall."""

from __future__ import annotations

from dataclasses import replace

import pytest
from tests.conftest import make_encounter

from d20combat.battlefield.cover import CoverDegree, cover
from d20combat.encounter import actions as ax
from d20combat.numbers import total
from d20combat.rulesets.off_guard import CmvCover, GmAttack, reflex_damage

from ._util import FIGHTER, ac, armored, assert_illegal, cmv, ruleset, stats

T15 = armored("target", 5)
ARCHER = {**FIGHTER, "name": "archer"}
REACH = stats("reacher", attack_bonus=5, reach_ft=10, attacks=[{"weapon": "battleaxe"}, {"weapon": "spear"},
                                                                {"weapon": "longbow"}])


def shot(rows: list[str], archer: tuple[int, int], target: tuple[int, int], *, others=(), variants=None, **kw):
    combatants = [{"id": "a", "side": "h", "stats": ARCHER, "position": list(archer), "wielding": "longbow"},
                  {"id": "t", "side": "f", "stats": T15, "position": list(target)}]
    combatants += [{"id": f"o{i}", "side": side, "stats": T15, "position": list(pos)}
                   for i, (side, pos) in enumerate(others)]
    return cmv(combatants, rows=rows, variants=variants, **kw)


def cover_of(enc, attacker: str = "a", target: str = "t", attack: str | None = None):
    return enc.plan_attack(attacker, target, attack).cover


def test_cmv_cov_01_attacker_picks_its_best_corner() -> None:
    """CMV-COV-01 (derived): archer (0,0), target (2,2), a pillar filling (1,0). From corner (0,1) every line
    passes the pillar, so the archer picks it → no cover (PFB's 'any line' reading would give cover)."""
    enc = shot([".#..", "....", "....", "...."], (0, 0), (2, 2))
    assert cover_of(enc).degree is CoverDegree.NONE
    assert ac(enc, "a", "t") == 15
    blocked = shot(["....", ".#..", "....", "...."], (0, 0), (2, 2))  # the pillar on the diagonal: every corner
    assert cover_of(blocked).degree is CoverDegree.COVER and ac(blocked, "a", "t") == 19


def test_cmv_cov_01_grazing_a_corner_is_not_passing_through() -> None:
    """CMV-COV-01 (a): a line that only runs along a wall's edge does not pass through it: archer (0,0),
    target (2,0), a wall at (1,1) just south of the lines."""
    enc = shot(["....", ".#..", "...."], (0, 0), (2, 0))
    assert cover_of(enc).degree is CoverDegree.NONE


def test_cmv_cov_02_11_soft_cover_from_a_creature_on_the_line() -> None:
    """CMV-COV-02, CMV-COV-11 (derived): archer (0,0), goblin (4,0), an orc in (2,0): soft cover, AC 15 → 19,
    whether the orc is the archer's ally or the goblin's."""
    for side in ("h", "f"):
        enc = shot(["......", "......"], (0, 0), (4, 0), others=[(side, (2, 0))])
        fact = cover_of(enc)
        assert isinstance(fact, CmvCover) and fact.soft and fact.degree is CoverDegree.COVER
        assert ac(enc, "a", "t") == 19
        assert "soft cover 4" in enc.target_ac(enc.plan_attack("a", "t"), enc.state)[1]


def test_cmv_cov_03_cover_is_plus_4() -> None:
    """CMV-COV-03: cover gives +4 AC."""
    enc = shot(["..#..", "..#..", "....."], (0, 0), (4, 0))
    assert ruleset(enc).cover.cover_modifier(cover_of(enc)).value == 4  # type: ignore[union-attr]
    assert ac(enc, "a", "t") == 19


def adjacent(extra_rows: list[str], others=(), variants=None):
    return cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [0, 0]},
                {"id": "t", "side": "f", "stats": T15, "position": [1, 1]}]
               + [{"id": f"o{i}", "side": "h", "stats": T15, "position": list(p)} for i, p in enumerate(others)],
               rows=extra_rows, variants=variants)


def test_cmv_cov_04_adjacent_melee_wall_or_low_wall_gives_cover_both_ways() -> None:
    """CMV-COV-04 (derived): fighter (0,0) and orc (1,1) with a low wall at (0,1) between them: each has cover
    against the other's melee attack; both are equally close, so CMV-COV-07 does not remove it."""
    enc = adjacent(["....", "=...", "...."])
    assert cover_of(enc).degree is CoverDegree.COVER and ac(enc, "a", "t") == 19
    assert cover_of(enc, "t", "a").degree is CoverDegree.COVER
    walled = adjacent(["....", "#...", "...."])
    assert cover_of(walled).degree is CoverDegree.COVER


def test_cmv_cov_04_a_creature_never_covers_against_adjacent_melee() -> None:
    """CMV-COV-04: only walls count in adjacent melee; an ally standing at (0,1) gives no cover."""
    enc = adjacent(["....", "....", "...."], others=[(0, 1)])
    assert cover_of(enc).degree is CoverDegree.NONE and ac(enc, "a", "t") == 15


@pytest.mark.parametrize(("variants", "expected"), [({}, 19), ({"cmv_soft_cover_ranged_only": True}, 15)])
def test_cmv_cov_05_reach_attack_uses_the_ranged_test(variants: dict[str, object], expected: int) -> None:
    """CMV-COV-05: a reach attack past a creature: soft cover +4 by default; none under
    cmv_soft_cover_ranged_only. A wall on the line covers either way."""
    enc = cmv([{"id": "a", "side": "h", "stats": REACH, "position": [0, 0]},
               {"id": "t", "side": "f", "stats": T15, "position": [2, 0]},
               {"id": "b", "side": "h", "stats": T15, "position": [1, 0]}], variants=variants)
    assert ac(enc, "a", "t") == expected
    wall = cmv([{"id": "a", "side": "h", "stats": REACH, "position": [0, 1]},
                {"id": "t", "side": "f", "stats": T15, "position": [2, 0]}],
               rows=[".#..", "....", "...."], variants=variants)
    assert ac(wall, "a", "t") == 19


def low_wall_line(target_col: int, wall_col: int, archer_col: int, variants=None):
    rows = ["." * 20 for _ in range(3)]
    rows = [r[:wall_col] + "=" + r[wall_col + 1:] for r in rows]
    return shot(rows, (archer_col, 1), (target_col, 1), variants=variants)


@pytest.mark.parametrize(("wall", "archer", "covered"), [(5, 13, True), (7, 15, False)])
def test_cmv_cov_06_low_obstacle_covers_only_within_30_ft(wall: int, archer: int, covered: bool) -> None:
    """CMV-COV-06 (derived): target 25 ft from a low wall, archer 40 ft beyond → cover (+4); the same target
    35 ft from the wall → no cover."""
    enc = low_wall_line(0, wall, archer)
    assert (cover_of(enc).degree is CoverDegree.COVER) is covered
    assert ac(enc, "a", "t") == (19 if covered else 15)


@pytest.mark.parametrize(("wall", "archer", "variants", "covered"), [
    (4, 6, {}, False),                                         # attacker 10 ft, target 20 ft: closer → ignored
    (3, 6, {}, True),                                          # both 15 ft: the cover stands
    (3, 6, {"cmv_low_obstacle_tie_keeps_cover": False}, False),  # variant: a tie ignores it too
])
def test_cmv_cov_07_attacker_closer_to_the_low_obstacle_ignores_it(wall: int, archer: int,
                                                                     variants: dict[str, object],
                                                                     covered: bool) -> None:
    """CMV-COV-07 (derived): attacker 10 ft and target 20 ft from the low wall → no cover; both 15 ft →
    cover (proposed tie rule); cmv_low_obstacle_tie_keeps_cover = false removes it on a tie."""
    enc = low_wall_line(0, wall, archer, variants=variants)
    assert (cover_of(enc).degree is CoverDegree.COVER) is covered


def test_cmv_cov_08_no_reaction_attack_against_an_opponent_with_cover() -> None:
    """CMV-COV-08 (derived): an orc with cover (a low wall crosses the adjacent-melee lines) leaves the
    fighter's threatened square → no reaction attack; without the wall it is offered."""
    def run(rows: list[str]):
        enc = cmv([{"id": "o", "side": "f", "stats": T15, "position": [1, 1]},
                   {"id": "a", "side": "h", "stats": FIGHTER, "position": [0, 0]}], rows=rows)
        enc.act(ax.Move(to=(3, 3)))
        return enc

    covered = run(["....", "=...", "....", "...."])
    assert covered.pending is None and covered.state.get("o").position == (3, 3)
    open_ground = run(["....", "....", "....", "...."])
    assert open_ground.pending is not None and open_ground.pending.prompt.reactor == "a"


def test_cmv_cov_09_12_cover_gives_plus_2_reflex_soft_cover_none() -> None:
    """CMV-COV-09: cover +2 on Reflex saves against effects from beyond it; CMV-COV-12: soft cover gives
    none (a lightning bolt from the archer's side past the orc)."""
    hard = shot(["..#..", "..#..", "....."], (0, 0), (4, 0))
    soft = shot(["......", "......"], (0, 0), (4, 0), others=[("h", (2, 0))])
    rs = ruleset(hard)
    t, ts = hard.creature("t"), hard.state.get("t")
    assert total(0, rs.conditions.save_modifiers(t, ts, "reflex", base=3, cover_fact=cover_of(hard))).value == 5
    assert total(0, rs.conditions.save_modifiers(t, ts, "reflex", base=3, cover_fact=cover_of(soft))).value == 3
    assert total(0, rs.conditions.save_modifiers(t, ts, "reflex", base=3)).value == 3


def test_cmv_cov_10_13_stealth_needs_cover_but_not_soft_cover() -> None:
    """CMV-COV-10: cover allows a Stealth check; CMV-COV-13: soft cover does not; CMV-CONC-11 and CMV-COV-10:
    without cover, concealment is needed."""
    hard = shot(["..#..", "..#..", "....."], (0, 0), (4, 0))
    soft = shot(["......", "......"], (0, 0), (4, 0), others=[("h", (2, 0))])
    rs = ruleset(hard)
    t, ts = hard.creature("t"), hard.state.get("t")
    assert rs.conditions.stealth(t, ts, cover_fact=cover_of(hard))[0]
    assert not rs.conditions.stealth(t, ts, cover_fact=cover_of(soft))[0]
    assert not rs.conditions.stealth(t, ts)[0]
    assert rs.conditions.stealth(t, ts, concealment=20)[0]


def ogre_fight(ruleset_id: str = "off-guard"):
    return make_encounter([{"id": "g", "side": "f", "stats": "ogre", "position": [0, 0]},
                           {"id": "a", "side": "h", "stats": FIGHTER, "position": [2, 1]}],
                          rows=["..#..", ".....", ".....", "....."], ruleset=ruleset_id)


def test_cmv_cov_14_big_attacker_picks_its_square() -> None:
    """CMV-COV-14 (derived): a 2×2 ogre at (0,0) attacks the fighter at (2,1) past a wall at (2,0). From its
    square (1,0) a line crosses the wall, from (1,1) none does: it picks (1,1) → no cover. PFB's whole-space
    'any line' test gives cover here."""
    enc = ogre_fight()
    assert cover_of(enc, "g", "a").degree is CoverDegree.NONE
    whole = cover(enc.battle.game_map, enc.footprint("g"), enc.footprint("a"), mode="any_line")
    assert whole.degree is CoverDegree.COVER


def test_cmv_cov_15_attacker_picks_a_square_of_a_big_target() -> None:
    """CMV-COV-15: the fighter attacking the ogre may pick any of its squares: (1,1) gives no cover."""
    enc = ogre_fight()
    assert cover_of(enc, "a", "g").degree is CoverDegree.NONE
    assert cover_of(ogre_fight("pathfinder-beginner"), "a", "g").degree is CoverDegree.COVER


def test_cmv_cov_16_17_no_line_of_effect_is_total_cover_and_no_attack() -> None:
    """CMV-COV-16, CMV-COV-17 (derived): a target completely behind a high wall has total cover: the attack is
    refused and nothing changes. Creatures never block line of effect: a wall of them is only soft cover."""
    enc = shot(["..#..", "..#..", "..#.."], (0, 1), (4, 1))
    assert_illegal(enc, ax.Attack("t", "longbow"), "total cover")
    crowd = shot([".....", ".....", "....."], (0, 1), (4, 1),
                 others=[("h", (2, 0)), ("h", (2, 1)), ("h", (2, 2))])
    fact = cover_of(crowd)
    assert fact.degree is CoverDegree.COVER and isinstance(fact, CmvCover) and fact.soft


def test_cmv_cov_18_improved_cover_plus_8_ac_and_plus_4_reflex() -> None:
    """CMV-COV-18 (text L34, derived): improved cover at an arrow slit: AC 15 → 23, Reflex +3 → +7; the same
    target behind normal cover: AC 19, Reflex +5. The GM grades a square (map improved_cover) or one attack."""
    graded = shot(["..#..", "..#..", "....."], (0, 0), (4, 0), map_extra={"improved_cover": [[4, 0]]})
    fact = cover_of(graded)
    assert isinstance(fact, CmvCover) and fact.improved
    assert ac(graded, "a", "t") == 23
    rs = ruleset(graded)
    t, ts = graded.creature("t"), graded.state.get("t")
    assert total(0, rs.conditions.save_modifiers(t, ts, "reflex", base=3, cover_fact=fact)).value == 7
    normal = shot(["..#..", "..#..", "....."], (0, 0), (4, 0))
    assert ac(normal, "a", "t") == 19
    assert total(0, rs.conditions.save_modifiers(t, ts, "reflex", base=3, cover_fact=cover_of(normal))).value == 5


def test_cmv_cov_18_gm_grades_one_attack_improved() -> None:
    """CMV-COV-18: the GM may double cover for one attack: d20 14 + 5 = 19 hits AC 19, not AC 23."""
    enc = shot(["..#..", "..#..", "....."], (0, 0), (4, 0), dice=[14])
    events = enc.act(GmAttack("t", "longbow", cover="improved", reason="peering round the corner"))
    attack = next(e for e in events if e.kind == "attack_resolved")
    assert not attack.hit and "AC 23" in attack.lines[-1]  # type: ignore[attr-defined]


@pytest.mark.parametrize(("saved", "improved", "taken"), [
    (False, True, 12), (True, True, 0), (False, False, 24), (True, False, 12)])
def test_cmv_cov_19_20_improved_cover_halves_or_cancels_partial_damage(saved: bool, improved: bool,
                                                                        taken: int) -> None:
    """CMV-COV-19, CMV-COV-20 (derived): a 24-damage fireball: behind improved cover a failed save takes 12 and a
    successful one 0; behind normal cover the effect's ordinary result (24 failed, 12 saved)."""
    assert reflex_damage(24, saved=saved, improved_cover=improved) == taken


def test_cmv_cov_21_improved_cover_plus_10_stealth() -> None:
    """CMV-COV-21 (derived): Stealth +6 behind improved cover → +16."""
    enc = shot(["..#..", "..#..", "....."], (0, 0), (4, 0), map_extra={"improved_cover": [[4, 0]]})
    rs = ruleset(enc)
    creature = enc.creature("t")
    creature = replace(creature, sheet=creature.sheet.model_copy(update={"skills": {"stealth": 6}}))
    allowed, mods = rs.conditions.stealth(creature, enc.state.get("t"), cover_fact=cover_of(enc))
    assert allowed and sum(m.value for m in mods) == 16


def test_cmv_cov_22_gm_may_refuse_an_attack() -> None:
    """CMV-COV-22: the GM may impose restrictions: a refused attack changes nothing."""
    enc = shot([".....", "....."], (0, 0), (4, 0))
    assert_illegal(enc, GmAttack("t", "longbow", refuse="the shutters are closed"), "GM refuses this attack")


def slit(attacker: dict[str, object], apos: tuple[int, int], tpos: tuple[int, int], weapon: str, dice=()):
    return cmv([{"id": "a", "side": "h", "stats": attacker, "position": list(apos), "wielding": weapon},
                {"id": "t", "side": "f", "stats": T15, "position": list(tpos)}],
               rows=[".#...", ".....", ".#..."], dice=dice,
               map_extra={"narrow_openings": [[1, 1]], "improved_cover": [[1, 1]]})


def test_cmv_cov_23_only_long_piercing_weapons_through_a_narrow_opening() -> None:
    """CMV-COV-23 (text L36, derived): a battleaxe swing through an arrow slit is refused, a spear thrust is
    allowed — and the target has improved cover because the GM graded the slit so (AC 23)."""
    axe = slit(REACH, (0, 1), (2, 1), "battleaxe")
    assert_illegal(axe, ax.Attack("t", "battleaxe"), "only long piercing weapons")
    spear = slit(REACH, (0, 1), (2, 1), "spear")
    assert spear.check(ax.Attack("t", "spear")) is None
    assert ac(spear, "a", "t", "spear") == 23


def test_cmv_cov_23_the_archer_behind_the_slit() -> None:
    """CMV-COV-23, CMV-COV-18: an archer behind the slit shoots out with no penalty to the target's AC, while a
    shot back at the archer faces improved cover; nobody walks through the slit."""
    out = slit(ARCHER, (0, 1), (3, 1), "longbow")
    assert ac(out, "a", "t") == 15
    back = cmv([{"id": "t", "side": "f", "stats": {**ARCHER, "name": "x"}, "position": [3, 1], "wielding": "longbow"},
                {"id": "a", "side": "h", "stats": T15, "position": [0, 1]}],
               rows=[".#...", ".....", ".#..."], map_extra={"narrow_openings": [[1, 1]], "improved_cover": [[1, 1]]})
    assert ac(back, "t", "a") == 23
    assert back.check(ax.Move(to=(1, 1))) is not None
