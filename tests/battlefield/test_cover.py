"""Cover facts (PFB-COV-01..16)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from d20combat.battlefield.cover import CoverDegree, CoverFact, cover, line_of_effect
from d20combat.battlefield.grid import Footprint, GameMap, Square

ARCHER = Footprint((0, 0))
OGRE = Footprint((0, 0), 2)


def test_pfb_cov_02_04_table_between_archer_and_goblin() -> None:
    """PFB-COV-02/15 (derived): archer (0,0), goblin (4,0), table filling (2,0) -> cover under every reading."""
    gm = GameMap(10, 3, walls=frozenset({(2, 0)}))
    goblin = Footprint((4, 0))
    any_line = cover(gm, ARCHER, goblin, mode="any_line")
    best = cover(gm, ARCHER, goblin, mode="best_corner")
    assert any_line.degree is CoverDegree.COVER and best.degree is CoverDegree.COVER
    assert any_line.via == (2, 0) and best.via == (2, 0)
    assert best.reason == "line from corner (0,0) to corner (4,1) crosses the wall at (2,0)"
    assert (best.blocked_lines, best.lines) == (2, 4)
    assert (any_line.blocked_lines, any_line.lines) == (8, 16)
    # The quoted line: archer corner (5,0) ft = (1,0) to goblin corner (20,5) ft = (5,1).
    assert cover(gm, ARCHER, goblin, mode="best_corner", partial_cover=True).degree is CoverDegree.COVER


def test_pfb_cov_12_adjacent_with_nothing_between_has_no_cover() -> None:
    """PFB-COV-12 (case #1): fighter adjacent to the goblin, nothing between -> no cover."""
    gm = GameMap(10, 10, walls=frozenset({(5, 5)}))
    fact = cover(gm, Footprint((3, 3)), Footprint((4, 3)), mode="any_line")
    assert fact == CoverFact(CoverDegree.NONE, None, "no line is blocked", 0, 16)
    assert cover(gm, Footprint((3, 3)), Footprint((4, 4)), mode="any_line").degree is CoverDegree.NONE


def test_pfb_cov_02_06_pillar_readings_differ() -> None:
    """PFB-COV-02 vs PFB-COV-06 (derived): archer (0,0), target (3,3), pillar (1,2).

    Body text: (0,1)->(3,4) runs through the pillar -> cover. Caption: the archer picks
    corner (1,0), whose lines all miss it ((1,0)->(3,4) only touches its corner (2,2)).
    """
    gm = GameMap(10, 10, walls=frozenset({(1, 2)}))
    target = Footprint((3, 3))
    body = cover(gm, ARCHER, target, mode="any_line")
    assert body.degree is CoverDegree.COVER and body.via == (1, 2)
    caption = cover(gm, ARCHER, target, mode="best_corner")
    assert caption == CoverFact(CoverDegree.NONE, None, "no line from corner (1,0) is blocked", 0, 4)


def test_pfb_cov_13_14_reach_ogre_and_rogue_across_a_wall_corner() -> None:
    """PFB-COV-13/14 (text, L199): the same wall gives the ogre cover from the rogue, not vice versa.

    Ogre (reach) at (0,0)-(1,1), rogue at (2,2), wall at (2,1). The rogue's adjacent melee
    uses any line; the ogre, having reach, uses the ranged (best-corner) method.
    """
    gm = GameMap(10, 10, walls=frozenset({(2, 1)}))
    rogue = Footprint((2, 2))
    rogue_hits_ogre = cover(gm, rogue, OGRE, mode="any_line")
    assert rogue_hits_ogre.degree is CoverDegree.COVER
    assert rogue_hits_ogre.via == (2, 1)
    assert rogue_hits_ogre.reason == "line from corner (3,2) to corner (0,0) crosses the wall at (2,1)"
    ogre_hits_rogue = cover(gm, OGRE, rogue, mode="best_corner")
    assert ogre_hits_rogue.degree is CoverDegree.NONE
    # Variant pfb_cover_any_line_everywhere would give the rogue cover too.
    assert cover(gm, OGRE, rogue, mode="any_line").degree is CoverDegree.COVER
    assert line_of_effect(gm, OGRE, rogue)


def test_pfb_cov_05_creature_on_the_line_gives_cover() -> None:
    """PFB-COV-05 (derived): an ally between the archer and a goblin it is adjacent to -> goblin has cover."""
    gm = GameMap(10, 3)
    goblin = Footprint((4, 0))
    fact = cover(gm, ARCHER, goblin, mode="best_corner", creature_squares={(3, 0): "fighter"})
    assert fact.degree is CoverDegree.COVER
    assert fact.via == (3, 0)
    assert fact.reason == "line from corner (0,0) to corner (4,1) crosses fighter's square (3,0)"


def test_pfb_cov_11_creatures_never_give_total_cover() -> None:
    """PFB-COV-11 (proposal): a wall of creatures gives cover, never total cover."""
    gm = GameMap(10, 10)
    crowd = {(2, r): f"goblin {r}" for r in range(10)}
    fact = cover(gm, Footprint((0, 4)), Footprint((4, 4)), mode="best_corner", creature_squares=crowd)
    assert fact.degree is CoverDegree.COVER
    # The two lines along rows' shared edges slip between goblins: only walls seal such gaps.
    assert (fact.blocked_lines, fact.lines) == (2, 4)
    assert line_of_effect(gm, Footprint((0, 4)), Footprint((4, 4)))


def test_pfb_cov_05_attacker_and_defender_squares_never_block() -> None:
    """PFB-COV-05: only creatures OTHER than the two count, even if the caller lists them."""
    gm = GameMap(10, 10)
    named = {(0, 0): "archer", (1, 1): "ogre", (2, 1): "ogre"}
    fact = cover(gm, ARCHER, Footprint((1, 1), 2), mode="any_line", creature_squares=named)
    assert fact.degree is CoverDegree.NONE


def test_pfb_cov_07_08_low_wall_distance_rule() -> None:
    """PFB-COV-07/08 (derived): low wall (2,0), defender (0,0) 10 ft away.

    Attacker (3,0) at 5 ft is closer -> no cover; (6,0) at 20 ft -> cover; (4,0) at 10 ft,
    a tie -> cover (proposed).
    """
    gm = GameMap(10, 3, low_walls=frozenset({(2, 0)}))
    defender = Footprint((0, 0))
    for mode in ("any_line", "best_corner"):
        near = cover(gm, Footprint((3, 0)), defender, mode=mode)
        assert near.degree is CoverDegree.NONE
        assert near.via == (2, 0)
        assert near.reason == "low wall at (2,0): attacker is closer to it than the defender"
        far = cover(gm, Footprint((6, 0)), defender, mode=mode)
        assert far.degree is CoverDegree.COVER and far.via == (2, 0)
        tie = cover(gm, Footprint((4, 0)), defender, mode=mode)
        assert tie.degree is CoverDegree.COVER and tie.via == (2, 0)
    # Low walls never give total cover.
    gm = GameMap(10, 10, low_walls=frozenset((2, r) for r in range(10)))
    assert cover(gm, Footprint((6, 4)), Footprint((0, 4)), mode="any_line").degree is CoverDegree.COVER


def test_pfb_cov_09_10_11_total_cover_behind_a_wall_both_ways() -> None:
    """PFB-COV-09/10/11 (derived): every line blocked by a wall -> total cover, mutual."""
    gm = GameMap(5, 5, walls=frozenset((2, r) for r in range(5)))
    archer, target = Footprint((0, 2)), Footprint((4, 2))
    for a, b in ((archer, target), (target, archer)):
        for mode in ("any_line", "best_corner"):
            fact = cover(gm, a, b, mode=mode)
            assert fact.degree is CoverDegree.TOTAL
            assert fact.reason == "every line is blocked by walls"
            assert (fact.blocked_lines, fact.lines) == (16, 16)
        assert not line_of_effect(gm, a, b)


def test_pfb_cov_10_lines_squeezing_between_walls_are_blocked() -> None:
    """PFB-COV-02/10: grazing one wall is fine, but a line cannot slip between two touching walls."""
    # A diagonal wall of squares touching corner to corner.
    gm = GameMap(6, 6, walls=frozenset({(0, 3), (1, 2), (2, 1), (3, 0)}))
    assert cover(gm, Footprint((0, 0)), Footprint((3, 3)), mode="any_line").degree is CoverDegree.TOTAL
    # Along the shared edge of two wall squares.
    gm = GameMap(6, 6, walls=frozenset({(2, 1), (2, 2)}))
    fact = cover(gm, Footprint((0, 1)), Footprint((4, 1)), mode="best_corner")
    assert fact.degree is CoverDegree.COVER
    # Grazing a single wall along its edge does not block.
    gm = GameMap(6, 6, walls=frozenset({(2, 1)}))
    assert cover(gm, Footprint((0, 2)), Footprint((4, 2)), mode="best_corner").degree is CoverDegree.NONE


def test_pfb_cov_15_16_partial_cover_variant() -> None:
    """PFB-COV-15/16: cleric at (0,0), ogre at (4,1)-(5,2), wall (3,2): from the best corner 1 of 4 lines.

    Default: cover (any blocked line from the chosen corner). With pfb_partial_cover:
    fewer than half blocked -> partial.
    """
    gm = GameMap(10, 10, walls=frozenset({(3, 2)}))
    ogre = Footprint((4, 1), 2)
    default = cover(gm, ARCHER, ogre, mode="best_corner")
    assert default.degree is CoverDegree.COVER
    assert (default.blocked_lines, default.lines) == (1, 4)
    partial = cover(gm, ARCHER, ogre, mode="best_corner", partial_cover=True)
    assert partial.degree is CoverDegree.PARTIAL and partial.via == (3, 2)
    assert cover(gm, ARCHER, ogre, mode="any_line", partial_cover=True).degree is CoverDegree.COVER


small = st.tuples(st.integers(0, 9), st.integers(0, 9))


@settings(max_examples=200, deadline=None)
@given(small, st.integers(1, 2), small, st.integers(1, 2), st.sets(small, max_size=25))
def test_property_nothing_between_means_no_cover(
    oa: Square, na: int, ob: Square, nb: int, junk: set[Square]
) -> None:
    """PFB-COV-02/05/12: obstacles outside the box spanned by both creatures never give cover."""
    a, b = Footprint(oa, na), Footprint(ob, nb)
    sa, sb = set(a.squares()), set(b.squares())
    if sa & sb:
        return
    cols = [c for c, _ in sa | sb]
    rows = [r for _, r in sa | sb]
    outside = {
        sq for sq in junk if not (min(cols) <= sq[0] <= max(cols) and min(rows) <= sq[1] <= max(rows))
    }
    walls = frozenset(sq for sq in outside if sum(sq) % 3 == 0)
    low = frozenset(sq for sq in outside if sum(sq) % 3 == 1)
    creatures = {sq: "x" for sq in outside if sum(sq) % 3 == 2}
    gm = GameMap(12, 12, walls=walls, low_walls=low)
    for mode in ("any_line", "best_corner"):
        fact = cover(gm, a, b, mode=mode, creature_squares=creatures)
        assert fact.degree is CoverDegree.NONE
        assert fact.blocked_lines == 0
    # Total cover is symmetric whatever the walls.
    gm2 = GameMap(12, 12, walls=frozenset(junk - sa - sb))
    assert line_of_effect(gm2, a, b) == line_of_effect(gm2, b, a)
