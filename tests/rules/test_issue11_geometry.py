"""Issue 11, geometry items: where two rules meet on the map.

* item 3 — low obstacles are measured to the *obstacle* (a connected run of low-wall squares), not to
  each crossed square (PFB-COV-08; CMV-COV-06, CMV-COV-07);
* item 5 — concealment of targets bigger than one square (CMV-CONC-03, CMV-CONC-04);
* item 10(a) — PFB: creatures on an adjacent diagonal melee line (PFB-COV-05), option
  ``pfb_adjacent_melee_ignores_creatures``;
* item 10(b) — off-guard: separate concealing areas on the line (bushes behind fog), option
  ``cmv_terrain_areas_stack`` (CMV-CONC-10).

Squares are ``(column, row)``. Map legend: ``=`` low wall, ``f`` fog, ``*`` bushes, ``d`` dim light.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.conftest import make_encounter, who
from tests.rules.cmv._util import FIGHTER, armored, cmv, stats

from d20combat.battlefield.cover import CoverDegree, cover, low_obstacle
from d20combat.battlefield.grid import Footprint, GameMap
from d20combat.encounter.engine import Encounter
from d20combat.scenario import battle_from_data
from d20combat.simulation.fast.compile import NotCompilable, compile_battle

Square = tuple[int, int]
GOBLIN_AC = 15


def _rows(width: int, height: int, low: set[Square], extra: dict[Square, str] | None = None) -> list[str]:
    marks = {**dict.fromkeys(low, "="), **(extra or {})}
    return ["".join(marks.get((c, r), ".") for c in range(width)) for r in range(height)]


def _pfb_archer(rows: list[str], archer: Square, goblin: Square, **kw: Any) -> Encounter:
    return make_encounter([who("f", "heroes", "fighter", archer, wielding="shortbow"),
                           who("g", "goblins", "goblin", goblin)], rows=rows, **kw)


def _degree(enc: Encounter, attacker: str = "f", target: str = "g") -> CoverDegree:
    return enc.plan_attack(attacker, target).cover.degree


# ------------------------------------------------------------------------------------------ item 3, PFB
STRAIGHT = {(3, r) for r in range(8)}


def test_pfb_cov_08_low_wall_distance_is_to_the_nearest_obstacle_square() -> None:
    """PFB-COV-08: a straight low wall along column 3; the archer at (1,6) is 10 ft from it, the goblin at
    (6,0) 15 ft. The attacker is closer to the obstacle, so it gives no cover — even though the squares the
    lines cross, around (3,2), are nearer the goblin than the archer."""
    enc = _pfb_archer(_rows(8, 8, STRAIGHT), (1, 6), (6, 0))
    assert _degree(enc) is CoverDegree.NONE
    assert enc.target_ac(enc.plan_attack("f", "g"), enc.state)[0] == GOBLIN_AC
    # The goblin 10 ft from the wall and the archer 10 ft: a tie keeps the cover (PFB-COV-08).
    enc = _pfb_archer(_rows(8, 8, STRAIGHT), (1, 6), (5, 0))
    assert _degree(enc) is CoverDegree.COVER


def test_pfb_cov_08_a_bent_wall_is_one_obstacle_a_separate_wall_is_another() -> None:
    """PFB-COV-08, the obstacle is a connected run of low-wall squares (diagonal contact included): a wall
    at (5,0..2) shelters a goblin at (7,0) from an archer at (0,0) 25 ft away from it. Bent back toward the
    archer ((4,2)…(1,2), (1,1)), the same wall is 5 ft from the archer and 10 ft from the goblin: no cover.
    A separate low wall at (1,1) alone is another obstacle and changes nothing."""
    far = {(5, 0), (5, 1), (5, 2)}
    bent = far | {(4, 2), (3, 2), (2, 2), (1, 2), (1, 1)}
    assert _degree(_pfb_archer(_rows(9, 4, far), (0, 0), (7, 0))) is CoverDegree.COVER
    assert _degree(_pfb_archer(_rows(9, 4, bent), (0, 0), (7, 0))) is CoverDegree.NONE
    assert _degree(_pfb_archer(_rows(9, 4, far | {(1, 1)}), (0, 0), (7, 0))) is CoverDegree.COVER
    # Diagonal contact joins: (1,1)-(2,2) touch at a corner, so the run (1,1),(2,2),(3,2),(4,2),(5,2)… is one.
    diag = far | {(4, 2), (3, 2), (2, 2), (1, 1)}
    assert _degree(_pfb_archer(_rows(9, 4, diag), (0, 0), (7, 0))) is CoverDegree.NONE


def test_pfb_cov_08_low_obstacle_is_the_connected_run() -> None:
    """PFB-COV-08: ``low_obstacle`` returns the connected run holding a square (8-neighbourhood)."""
    walls = frozenset({(0, 0), (1, 0), (2, 1), (5, 5), (5, 6)})
    assert low_obstacle(walls, (0, 0)) == frozenset({(0, 0), (1, 0), (2, 1)})
    assert low_obstacle(walls, (5, 6)) == frozenset({(5, 5), (5, 6)})
    gm = GameMap(width=8, height=8, low_walls=frozenset({(3, r) for r in range(8)}))
    assert cover(gm, Footprint((1, 6)), Footprint((6, 0)), mode="best_corner").degree is CoverDegree.NONE
    assert "attacker is closer" in cover(gm, Footprint((1, 6)), Footprint((6, 0)), mode="best_corner").reason


# ------------------------------------------------------------------------------------------ item 3, CMV
BENT_CMV = {(5, r) for r in range(3, 14)} | {(c, 3) for c in range(5, 12)}


def _cmv_archer(rows: list[str], archer: Square, target: Square, **kw: Any) -> Encounter:
    return cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": list(archer), "wielding": "longbow"},
                {"id": "t", "side": "f", "stats": armored("target", 5), "position": list(target)}],
               rows=rows, width=14, height=14, **kw)


def test_cmv_cov_06_07_a_tie_to_the_obstacle_keeps_the_cover() -> None:
    """CMV-COV-06/07: an L-shaped low wall (column 5 from row 3 down, row 3 to column 11). The archer at (2,2)
    and the target at (9,6) are both 15 ft from the obstacle's nearest square: on a tie the cover stands, even
    though the lines cross the wall at squares nearer the archer. Under the variant
    ``cmv_low_obstacle_tie_keeps_cover=False`` the tie loses it."""
    rows = _rows(14, 14, BENT_CMV)
    assert _degree(_cmv_archer(rows, (2, 2), (9, 6)), "a", "t") is CoverDegree.COVER
    enc = _cmv_archer(rows, (2, 2), (9, 6), variants={"cmv_low_obstacle_tie_keeps_cover": False})
    assert _degree(enc, "a", "t") is CoverDegree.NONE


def test_cmv_cov_06_the_30_ft_limit_is_to_the_obstacle_not_the_crossed_square() -> None:
    """CMV-COV-06: a long straight wall along column 8; the target at (14,0) is 30 ft from (8,0), the nearest
    square of the wall, so the wall shelters it from the archer at (0,9) (40 ft from the wall), although the
    lines cross the wall several rows down, more than 30 ft from the target."""
    rows = _rows(20, 14, {(8, r) for r in range(14)})
    assert _degree(_cmv_archer(rows, (0, 9), (14, 0)), "a", "t") is CoverDegree.COVER
    # 35 ft from the obstacle: no cover.
    assert _degree(_cmv_archer(rows, (0, 9), (15, 0)), "a", "t") is CoverDegree.NONE


# ------------------------------------------------------------------------------------------ item 5, CMV
OGRE = stats("ogre", attack_bonus=5, size="large", attacks=[{"weapon": "club"}])


def _ogre(rows: list[str], attacker: Square, ogre: Square, *, bow: bool = False, **kw: Any) -> Encounter:
    a: dict[str, Any] = {"id": "a", "side": "h", "stats": FIGHTER, "position": list(attacker)}
    if bow:
        a["wielding"] = "longbow"
    return cmv([a, {"id": "o", "side": "f", "stats": OGRE, "position": list(ogre)}], rows=rows, **kw)


def test_cmv_conc_04_adjacent_melee_needs_the_whole_space_in_dim_light() -> None:
    """CMV-CONC-04: adjacent melee on a 2×2 ogre at (1,0)-(2,1): one of its four squares in dim light gives no
    concealment — its space must lie entirely within the effect, for light as for fog. All four dim: 20 %."""
    assert _ogre(["..d.", "....", "...."], (0, 0), (1, 0)).plan_attack("a", "o").concealment == 0
    assert _ogre([".dd.", ".dd.", "...."], (0, 0), (1, 0)).plan_attack("a", "o").concealment == 20
    assert _ogre(["..f.", ".ff.", "...."], (0, 0), (1, 0)).plan_attack("a", "o").concealment == 0


def test_cmv_conc_03_ranged_lines_through_the_targets_own_concealing_squares() -> None:
    """CMV-CONC-03 worked example: a 2×2 ogre with three of its four squares in smoke; against an archer whose
    lines from its chosen corner cross the smoke, 20 % — the target's own squares count as squares the lines
    pass through. A reach or ranged attack from further away is the same test (CMV-CONC-05)."""
    rows = ["......f.", ".....ff.", "........", "........"]
    assert _ogre(rows, (0, 0), (5, 0), bow=True).plan_attack("a", "o").concealment == 20
    # No concealing square at all on the ogre: nothing.
    assert _ogre(["........"] * 4, (0, 0), (5, 0), bow=True).plan_attack("a", "o").concealment == 0


# ------------------------------------------------------------------------------------------ item 10(a), PFB
def _pfb_diagonal(**variants: Any) -> Encounter:
    return make_encounter([who("f", "heroes", "fighter", (0, 0)), who("ally", "heroes", "fighter", (1, 0)),
                           who("g", "goblins", "goblin", (1, 1))], width=4, height=4, variants=variants)


def test_pfb_cov_05_adjacent_diagonal_melee_past_an_ally_gives_cover_by_default() -> None:
    """PFB-COV-05/06: the fighter at (0,0) attacks the goblin diagonally at (1,1); its ally at (1,0) lies on a
    corner-to-corner line (from (1,0) to (2,1)), and the text says any creature gives cover: +4, AC 19."""
    enc = _pfb_diagonal()
    assert _degree(enc) is CoverDegree.COVER
    assert enc.target_ac(enc.plan_attack("f", "g"), enc.state)[0] == GOBLIN_AC + 4


def test_pfb_cov_05_variant_creatures_give_no_cover_against_adjacent_melee() -> None:
    """PFB-COV-05, variant ``pfb_adjacent_melee_ignores_creatures=True``: creatures give no cover against an
    adjacent melee attack (walls still do); ranged attacks keep the creature cover."""
    enc = _pfb_diagonal(pfb_adjacent_melee_ignores_creatures=True)
    assert _degree(enc) is CoverDegree.NONE
    assert enc.target_ac(enc.plan_attack("f", "g"), enc.state)[0] == GOBLIN_AC
    enc = make_encounter([who("f", "heroes", "fighter", (0, 0), wielding="shortbow"),
                          who("ally", "heroes", "fighter", (2, 0)), who("g", "goblins", "goblin", (4, 0))],
                         width=6, height=2, variants={"pfb_adjacent_melee_ignores_creatures": True})
    assert _degree(enc) is CoverDegree.COVER
    rows = ["..", ".#", ".."]  # a wall still covers an adjacent diagonal target under the variant
    enc = make_encounter([who("f", "heroes", "fighter", (0, 1)), who("g", "goblins", "goblin", (1, 2))],
                         rows=rows, variants={"pfb_adjacent_melee_ignores_creatures": True})
    assert _degree(enc) is CoverDegree.COVER


def test_pfb_cov_05_fast_path_refuses_the_variant() -> None:
    """PFB-COV-05: the kernel replays the default reading only; the variant is refused by name."""
    data = {"ruleset": "pathfinder-beginner", "variants": {"pfb_adjacent_melee_ignores_creatures": True},
            "map": {"width": 6, "height": 6}, "surprise": {"surprised": []},
            "combatants": [who("f", "heroes", "fighter", (0, 0)), who("g", "goblins", "goblin", (3, 3))]}
    compile_battle(battle_from_data({**data, "variants": {}}, "scenario", None))
    with pytest.raises(NotCompilable, match="pfb_adjacent_melee_ignores_creatures"):
        compile_battle(battle_from_data(data, "scenario", None))


# ------------------------------------------------------------------------------------------ item 10(b), CMV
def test_cmv_conc_10_bushes_behind_fog_are_one_terrain_condition_by_default() -> None:
    """CMV-CONC-03/10: bushes at (2,0) and a separate fog bank at (4,0) between an archer at (0,0) and its target
    at (6,0). The ranged test asks once whether a line crosses concealing terrain: one condition, 20 %. Under
    ``cmv_terrain_areas_stack`` each separate area is its own condition and they stack: 40 %."""
    rows = ["..*.f...", "........"]
    enc = _cmv_archer(rows, (0, 0), (6, 0))
    assert enc.plan_attack("a", "t").concealment == 20
    enc = _cmv_archer(rows, (0, 0), (6, 0), variants={"cmv_terrain_areas_stack": True})
    assert enc.plan_attack("a", "t").concealment == 40
    # One connected area of bushes and fog is one area even under the variant.
    enc = _cmv_archer(["..*f....", "........"], (0, 0), (6, 0), variants={"cmv_terrain_areas_stack": True})
    assert enc.plan_attack("a", "t").concealment == 20
