"""Movement: step costs, corners, creatures, pathfinding, illegal ends (PFB-MOVE-05..26)."""

from __future__ import annotations

import heapq

from hypothesis import given, settings
from hypothesis import strategies as st

from d20combat.battlefield.distance import distance_ft
from d20combat.battlefield.grid import Footprint, GameMap, Square
from d20combat.battlefield.movement import (
    Occupancy,
    Occupant,
    PathCheck,
    PathInfo,
    can_end,
    can_pass,
    check_path,
    fallback_end,
    footprint_step_cost,
    reachable,
    step_cost,
)

OPEN = GameMap(20, 20)
ME = Footprint((0, 0))


def _map(
    w: int = 20,
    h: int = 20,
    *,
    walls: frozenset[Square] = frozenset(),
    low_walls: frozenset[Square] = frozenset(),
    difficult: frozenset[Square] = frozenset(),
    pits: frozenset[Square] = frozenset(),
) -> GameMap:
    return GameMap(w, h, walls=walls, low_walls=low_walls, difficult=difficult, pits=pits)


def _all(w: int, h: int) -> frozenset[Square]:
    return frozenset((c, r) for c in range(w) for r in range(h))


# --------------------------------------------------------------------------- costs


def test_pfb_move_16_diagonals_alternate_5_10() -> None:
    """PFB-MOVE-16: 1st diagonal 5 ft, 2nd 10, 3rd 5, 4th 10; orthogonal 5 and counter unchanged."""
    got = [step_cost(OPEN, (k, k), (k + 1, k + 1), k) for k in range(4)]
    assert got == [(5, 1), (10, 2), (5, 3), (10, 4)]
    assert step_cost(OPEN, (0, 0), (1, 0), 1) == (5, 1)
    assert step_cost(OPEN, (3, 3), (2, 4), 1) == (10, 2)


def test_pfb_move_16_speed_30_all_diagonal_is_4_squares() -> None:
    """PFB-MOVE-16 (derived): speed 30 all diagonal 5+10+5+10 = 4 squares; all orthogonal 6."""
    r = reachable(OPEN, ME, 30, {})
    assert r[(4, 4)].cost_ft == 30
    assert r[(4, 4)].diagonals == 4
    assert r[(4, 4)].path == ((1, 1), (2, 2), (3, 3), (4, 4))
    assert (5, 5) not in r
    assert r[(6, 0)].cost_ft == 30 and r[(6, 0)].diagonals == 0
    assert (7, 0) not in r
    assert (0, 0) not in r  # the start origin is never returned


def test_pfb_move_16a_double_move_counter_runs_across_both_moves() -> None:
    """PFB-MOVE-16a/PFB-MOVE-11 (derived): speed 20 double move, all diagonal -> 5 diagonals + 1 straight."""
    first = check_path(OPEN, ME, [(1, 1), (2, 2), (3, 3)], 20, {})
    assert first == PathCheck(True, 20, 3)
    me2 = Footprint((3, 3))
    second = reachable(OPEN, me2, 20, {}, diagonals_so_far=first.diagonals)
    assert second[(5, 5)].cost_ft == 15  # 10 + 5
    assert second[(6, 5)].cost_ft == 20  # ... then 1 orthogonal square
    assert (6, 6) not in second  # a 6th diagonal would make 25 > 20
    bad = check_path(OPEN, me2, [(4, 4), (5, 5), (6, 6)], 20, {}, diagonals_so_far=3)
    assert not bad.ok
    assert bad.error == "path costs 25 ft but only 20 ft of movement remain"
    assert bad.failed_at == 2
    # Counter reset per move action (not the proposed reading) would allow 6 diagonals.
    assert reachable(OPEN, me2, 20, {}, diagonals_so_far=0)[(6, 6)].cost_ft == 20


def test_pfb_move_21_22_difficult_terrain_3_orthogonal_2_diagonal() -> None:
    """PFB-MOVE-21/22 (derived): speed 30 in difficult terrain: 3 orthogonal (3x10) or 2 diagonal (2x15)."""
    gm = _map(difficult=_all(20, 20))
    r = reachable(gm, ME, 30, {})
    assert r[(3, 0)].cost_ft == 30
    assert (4, 0) not in r
    assert r[(2, 2)].cost_ft == 30
    assert r[(2, 2)].path == ((1, 1), (2, 2))
    assert (3, 3) not in r
    assert step_cost(gm, (0, 0), (1, 0), 0) == (10, 0)
    assert step_cost(gm, (0, 0), (1, 1), 0) == (15, 1)
    assert step_cost(gm, (0, 0), (1, 1), 1) == (15, 2)  # flat 15 whatever the counter


def test_pfb_move_22_mixed_example_uses_all_30ft() -> None:
    """PFB-MOVE-22 (derived): normal diag 5 + difficult orthogonal 10 + difficult diag 15 (2nd) = 30."""
    gm = _map(difficult=frozenset({(2, 1), (3, 2)}))
    ok = check_path(gm, ME, [(1, 1), (2, 1), (3, 2)], 30, {})
    assert ok == PathCheck(True, 30, 2)
    assert step_cost(gm, (3, 2), (4, 3), 2) == (5, 3)  # the 3rd diagonal would cost 5 ...
    over = check_path(gm, ME, [(1, 1), (2, 1), (3, 2), (4, 3)], 30, {})
    assert over.error == "path costs 35 ft but only 30 ft of movement remain"  # ... but nothing is left


def test_pfb_move_22_variant_difficult_diagonal_skips_count() -> None:
    """PFB-MOVE-22 (derived): 5 + 15 + 5 = 25 ft; under pfb_difficult_diagonal_skips_count 5 + 15 + 10 = 30."""
    gm = _map(difficult=frozenset({(2, 2)}))
    path = [(1, 1), (2, 2), (3, 3)]
    assert check_path(gm, ME, path, 30, {}) == PathCheck(True, 25, 3)
    assert check_path(gm, ME, path, 30, {}, difficult_diagonal_counts=False) == PathCheck(True, 30, 2)
    assert step_cost(gm, (1, 1), (2, 2), 1, difficult_diagonal_counts=False) == (15, 1)


def test_pfb_move_23_flying_ignores_difficult_terrain() -> None:
    """PFB-MOVE-23: a flyer pays normal costs over difficult terrain."""
    gm = _map(difficult=_all(20, 20))
    assert step_cost(gm, (0, 0), (1, 0), 0, flying=True) == (5, 0)
    assert step_cost(gm, (0, 0), (1, 1), 1, flying=True) == (10, 2)
    assert reachable(gm, ME, 30, {}, flying=True)[(6, 0)].cost_ft == 30


def test_pfb_move_05_step_into_bush_costs_more_than_5ft() -> None:
    """PFB-MOVE-05 (derived): a bush square is difficult, so a step into it is not a 5-ft step."""
    gm = _map(difficult=frozenset({(1, 0), (1, 1)}))
    assert step_cost(gm, (0, 0), (1, 0), 0) == (10, 0)
    assert step_cost(gm, (0, 0), (1, 1), 0) == (15, 1)
    assert step_cost(gm, (0, 0), (0, 1), 0) == (5, 0)


def test_pfb_move_20_low_wall_is_climbed_like_difficult_terrain() -> None:
    """PFB-MOVE-20/PFB-COV-07: GameMap treats a low wall as difficult to cross."""
    gm = _map(low_walls=frozenset({(1, 0)}))
    assert step_cost(gm, (0, 0), (1, 0), 0) == (10, 0)


# --------------------------------------------------------------------------- corners and obstacles


def test_pfb_move_17_diagonal_around_wall_corner_is_illegal() -> None:
    """PFB-MOVE-17: no diagonal step past a wall corner; go straight, then to the side."""
    gm = _map(walls=frozenset({(1, 0)}))
    assert step_cost(gm, (0, 0), (1, 1), 0) is None
    assert step_cost(gm, (1, 1), (0, 0), 0) is None
    assert step_cost(gm, (2, 1), (1, 0), 0) is None  # into the wall itself
    res = check_path(gm, ME, [(1, 1)], 30, {})
    assert not res.ok
    assert res.error == "step 1 to (1,1) cuts the corner of the wall at (1,0)"
    assert res.failed_at == 0
    r = reachable(gm, ME, 30, {})
    assert r[(1, 1)].cost_ft == 10
    assert r[(1, 1)].path == ((0, 1), (1, 1))


def test_pfb_move_17_wall_on_other_side_also_makes_a_corner() -> None:
    """PFB-MOVE-17: either of the two squares the diagonal cuts past makes a corner."""
    gm = _map(walls=frozenset({(2, 3)}))
    res = check_path(gm, Footprint((2, 2)), [(3, 2), (2, 3)], 30, {})
    assert res.error == "step 2 to (2,3): a wall blocks (2,3)"
    res = check_path(gm, Footprint((1, 2)), [(2, 2), (3, 3)], 30, {})
    assert res.error == "step 2 to (3,3) cuts the corner of the wall at (2,3)"
    assert res.cost_ft == 5 and res.failed_at == 1


def test_pfb_move_18_19_diagonal_past_creature_or_pit_is_legal() -> None:
    """PFB-MOVE-18/19: creatures and pits do not make corners; a diagonal 5-ft step past an enemy is fine."""
    enemy: Occupancy = {(1, 0): Occupant.ENEMY, (0, 1): Occupant.ENEMY}
    assert check_path(OPEN, ME, [(1, 1)], 5, enemy) == PathCheck(True, 5, 1)
    gm = _map(pits=frozenset({(1, 0), (0, 1)}))
    assert step_cost(gm, (0, 0), (1, 1), 0) == (5, 1)
    assert step_cost(gm, (0, 0), (1, 0), 0) is None  # into the pit
    assert check_path(gm, ME, [(1, 0)], 30, {}).error == "step 1 to (1,0): a pit blocks (1,0)"


def test_pfb_move_26_check_path_rejects_jumps_and_leaving_the_map() -> None:
    """PFB-MOVE-15/26: each step goes to a neighbouring square on the map."""
    res = check_path(OPEN, ME, [(1, 0), (3, 0)], 30, {})
    assert res.error == "step 2 to (3,0) is not next to (1,0)"
    assert res.failed_at == 1 and res.cost_ft == 5
    res = check_path(OPEN, ME, [(-1, 0)], 30, {})
    assert res.error == "step 1 to (-1,0): (-1,0) is off the map"
    assert step_cost(OPEN, (0, 0), (0, 0), 0) is None
    assert check_path(OPEN, ME, [], 0, {}) == PathCheck(True, 0, 0)


# --------------------------------------------------------------------------- creatures


def test_pfb_move_12_through_ally_legal_but_not_ending_there() -> None:
    """PFB-MOVE-12 (derived): moving through an ally's square is legal; ending there is not."""
    corridor = _map(10, 1)
    occ: Occupancy = {(1, 0): Occupant.ALLY}
    assert check_path(corridor, ME, [(1, 0), (2, 0)], 30, occ) == PathCheck(True, 10, 0)
    end = check_path(corridor, ME, [(1, 0)], 30, occ)
    assert end == PathCheck(False, 5, 0, "cannot end in (1,0): an ally is there", 0)
    r = reachable(corridor, ME, 30, occ)
    assert (1, 0) not in r
    assert r[(2, 0)].path == ((1, 0), (2, 0))
    assert can_pass(Occupant.ALLY) and not can_end(Occupant.ALLY)


def test_pfb_move_13_enemy_square_cannot_be_entered() -> None:
    """PFB-MOVE-13 (derived): moving through a goblin's square is illegal."""
    corridor = _map(10, 1)
    occ: Occupancy = {(1, 0): Occupant.ENEMY}
    res = check_path(corridor, ME, [(1, 0), (2, 0)], 30, occ)
    assert res.error == "step 1 to (1,0): an enemy occupies (1,0)"
    assert res.failed_at == 0
    assert reachable(corridor, ME, 30, occ) == {}
    assert not can_pass(Occupant.ENEMY) and not can_end(Occupant.ENEMY)


def test_pfb_move_13_every_square_of_a_large_enemy_blocks() -> None:
    """PFB-MOVE-13: every square of a 2x2 enemy's space blocks, here in a 2-wide corridor."""
    corridor = _map(10, 2)
    ogre = {sq: Occupant.ENEMY for sq in Footprint((3, 0), 2).squares()}
    r = reachable(corridor, ME, 60, ogre)
    assert set(r) == {(0, 1), (1, 0), (1, 1), (2, 0), (2, 1)}


def test_pfb_move_14_ending_on_helpless_creature_is_legal() -> None:
    """PFB-MOVE-14 (derived): ending in the square of a sleeping goblin is legal, at no extra cost."""
    occ: Occupancy = {(1, 0): Occupant.HELPLESS}
    assert check_path(OPEN, ME, [(1, 0)], 5, occ) == PathCheck(True, 5, 0)
    assert reachable(OPEN, ME, 5, occ)[(1, 0)].cost_ft == 5
    assert can_pass(Occupant.HELPLESS) and can_end(Occupant.HELPLESS) and can_end(None)


# --------------------------------------------------------------------------- large creatures


def test_pfb_grid_04_large_footprint_moves_as_a_block() -> None:
    """PFB-GRID-04/PFB-MOVE-17/21: a 2x2 ogre needs room for every square, corners and difficulty apply."""
    ogre = Footprint((0, 0), 2)
    # A wall beside the leading corner blocks the diagonal move.
    gm = _map(walls=frozenset({(2, 0)}))
    assert footprint_step_cost(gm, ogre, (1, 1), 0) is None
    assert footprint_step_cost(gm, ogre, (0, 1), 0) == (5, 0)
    # A single difficult newly entered square makes the whole move difficult ...
    gm = _map(difficult=frozenset({(2, 1)}))
    assert footprint_step_cost(gm, ogre, (1, 0), 0) == (10, 0)
    assert footprint_step_cost(gm, ogre, (1, 1), 0) == (15, 1)
    # ... but a difficult square it already stands on costs nothing extra to keep.
    gm = _map(difficult=frozenset({(1, 0)}))
    assert footprint_step_cost(gm, ogre, (1, 0), 0) == (5, 0)
    assert footprint_step_cost(gm, ogre, (3, 0), 0) is None  # not a neighbouring origin
    # Off the map: the ogre at the east edge cannot step east.
    assert footprint_step_cost(_map(3, 3), Footprint((1, 0), 2), (2, 0), 0) is None


def test_pfb_grid_04_large_creature_path_and_end_checks() -> None:
    """PFB-MOVE-12/13: every square of the moving ogre respects allies and enemies."""
    ogre = Footprint((0, 0), 2)
    occ: Occupancy = {(3, 1): Occupant.ALLY, (3, 3): Occupant.ENEMY}
    res = check_path(OPEN, ogre, [(1, 0), (2, 0)], 30, occ)
    assert res.error == "cannot end in (3,1): an ally is there"
    res = check_path(OPEN, ogre, [(1, 1), (2, 2)], 30, occ)
    assert res.error == "step 2 to (2,2): an enemy occupies (3,3)"
    r = reachable(OPEN, ogre, 20, occ)
    assert (2, 0) not in r and (2, 2) not in r and (3, 0) not in r
    assert r[(0, 2)].cost_ft == 10
    assert r[(4, 0)].path == ((1, 0), (2, 0), (3, 0), (4, 0))  # through the ally


# --------------------------------------------------------------------------- budget and ties


def test_pfb_move_21_speed_5_cannot_pay_a_difficult_square() -> None:
    """PFB-MOVE-21/25 (derived): with 5 ft left a difficult square (10 ft) cannot be entered."""
    gm = _map(difficult=frozenset({(1, 0)}))
    assert (1, 0) not in reachable(gm, ME, 5, {})
    assert reachable(gm, ME, 10, {})[(1, 0)].cost_ft == 10


def test_pfb_move_16_reachable_tie_breaks_lexicographically() -> None:
    """PFB-MOVE-16: equal cost and parity -> the lexicographically smallest path, reproducibly."""
    r1 = reachable(OPEN, ME, 30, {}, diagonals_so_far=1)
    assert r1[(1, 1)].cost_ft == 10 and r1[(1, 1)].diagonals == 2
    # (2,1): straight 5 + diagonal 10, or diagonal 10 + straight 5; both 15 ft, counter 2.
    assert r1[(2, 1)].cost_ft == 15 and r1[(2, 1)].diagonals == 2
    assert r1[(2, 1)].path == ((1, 0), (2, 1))
    assert reachable(OPEN, ME, 30, {}, diagonals_so_far=1) == r1


def test_pfb_move_16_22_reachable_prefers_even_counter_on_equal_cost() -> None:
    """PFB-MOVE-16/22: same cost -> keep the counter even (next diagonal 5 ft), even against path order."""
    gm = _map(difficult=frozenset({(0, 0)}))
    r = reachable(gm, Footprint((1, 1)), 30, {})
    # Direct difficult diagonal: 15 ft, counter 1. Straight 5 + difficult straight 10: 15 ft, counter 0.
    assert r[(0, 0)] == PathInfo(15, 0, ((0, 1), (0, 0)))
    # Under the skip variant the direct diagonal keeps the counter even and is lexicographically first.
    r = reachable(gm, Footprint((1, 1)), 30, {}, difficult_diagonal_counts=False)
    assert r[(0, 0)] == PathInfo(15, 0, ((0, 0),))


# --------------------------------------------------------------------------- illegal end (PFB-MOVE-24)


def test_pfb_move_24_back_to_most_recent_allowed_square() -> None:
    """PFB-MOVE-24 (derived): 5 ft left, enters an ally's square and must stop -> back where it was."""
    allowed = {(0, 0), (2, 0), (1, 1)}
    got = fallback_end([(0, 0), (1, 0)], allowed.__contains__, [(2, 0), (1, 1), (0, 0)])
    assert got == [(0, 0)]  # (2,0) and (1,1) are only as close (5 ft), not strictly closer


def test_pfb_move_24_strictly_closer_square_wins() -> None:
    """PFB-MOVE-24b/c: a candidate STRICTLY closer to the intended end replaces the last allowed square."""
    blocked = {(2, 0), (3, 0)}

    def ok(sq: Square) -> bool:
        return sq not in blocked

    path = [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert fallback_end(path, ok, [(3, 1)]) == [(3, 1)]  # 5 ft < 10 ft from (1,0)
    assert fallback_end(path, ok, [(5, 0)]) == [(1, 0)]  # 10 ft: a tie keeps the most recent square
    # Several equally close candidates: the engine rolls a die between them.
    assert fallback_end(path, ok, [(4, 1), (3, 1), (2, 1), (4, 0), (3, 0)]) == [(2, 1), (3, 1), (4, 0), (4, 1)]


def test_pfb_move_24_degenerate_inputs() -> None:
    """PFB-MOVE-24: an allowed end is kept; nothing allowed -> no answer."""
    assert fallback_end([(0, 0), (1, 0)], lambda sq: True, []) == [(1, 0)]
    assert fallback_end([(0, 0), (1, 0)], lambda sq: False, [(5, 5)]) == []
    assert fallback_end([], lambda sq: True, []) == []
    assert distance_ft((2, 1), (3, 0)) == 5


# --------------------------------------------------------------------------- properties


def _brute_force(
    gm: GameMap, start: Footprint, budget: int, occ: Occupancy, diags0: int, counts: bool
) -> dict[Square, int]:
    """Independent search: plain label-correcting relaxation over (origin, parity)."""
    best: dict[tuple[Square, int], tuple[int, int]] = {(start.origin, diags0 & 1): (0, diags0)}
    queue = [(0, start.origin, diags0)]
    while queue:
        cost, o, d = heapq.heappop(queue)
        if best.get((o, d & 1), (10**9, 0))[0] < cost:
            continue
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                n = (o[0] + dc, o[1] + dr)
                st_ = footprint_step_cost(gm, Footprint(o, start.size), n, d, difficult_diagonal_counts=counts)
                if st_ is None:
                    continue
                if any(occ.get(sq) is Occupant.ENEMY for sq in Footprint(n, start.size).squares()):
                    continue
                nc, nd = cost + st_[0], st_[1]
                if nc <= budget and nc < best.get((n, nd & 1), (10**9, 0))[0]:
                    best[(n, nd & 1)] = (nc, nd)
                    heapq.heappush(queue, (nc, n, nd))
    out: dict[Square, int] = {}
    for (o, _), (c, _) in best.items():
        if o == start.origin:
            continue
        if not all(can_end(occ.get(sq)) for sq in Footprint(o, start.size).squares()):
            continue
        out[o] = min(c, out.get(o, c))
    return out


@st.composite
def _scenario(draw: st.DrawFn) -> tuple[GameMap, Footprint, int, dict[Square, Occupant], int, bool]:
    w = draw(st.integers(3, 8))
    h = draw(st.integers(3, 8))
    size = draw(st.sampled_from([1, 1, 1, 2]))
    squares = st.tuples(st.integers(0, w - 1), st.integers(0, h - 1))
    origin = draw(st.tuples(st.integers(0, w - size), st.integers(0, h - size)))
    mine = set(Footprint(origin, size).squares())
    walls = frozenset(draw(st.sets(squares, max_size=10))) - mine
    pits = frozenset(draw(st.sets(squares, max_size=3))) - mine
    difficult = frozenset(draw(st.sets(squares, max_size=12)))
    low = frozenset(draw(st.sets(squares, max_size=3))) - mine
    occ = {
        sq: o
        for sq, o in draw(st.dictionaries(squares, st.sampled_from(list(Occupant)), max_size=6)).items()
        if sq not in mine
    }
    gm = GameMap(w, h, walls=walls, pits=pits, difficult=difficult, low_walls=low)
    return gm, Footprint(origin, size), draw(st.integers(0, 45)), occ, draw(st.integers(0, 3)), draw(st.booleans())


@settings(max_examples=300, deadline=None)
@given(_scenario())
def test_property_reachable_is_optimal_and_agrees_with_check_path(
    sc: tuple[GameMap, Footprint, int, dict[Square, Occupant], int, bool],
) -> None:
    """PFB-MOVE-12..22: every returned path is legal, costs what it says within budget, and is cheapest."""
    gm, start, budget, occ, diags0, counts = sc
    r = reachable(gm, start, budget, occ, diagonals_so_far=diags0, difficult_diagonal_counts=counts)
    for origin, info in r.items():
        assert info.cost_ft <= budget
        assert info.path[-1] == origin
        chk = check_path(
            gm, start, info.path, budget, occ, diagonals_so_far=diags0, difficult_diagonal_counts=counts
        )
        assert chk == PathCheck(True, info.cost_ft, info.diagonals)
    brute = _brute_force(gm, start, budget, occ, diags0, counts)
    assert {o: i.cost_ft for o, i in r.items()} == brute


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 12), st.integers(0, 12), st.integers(0, 60))
def test_property_open_map_walk_equals_distance(c: int, r: int, budget: int) -> None:
    """PFB-MOVE-16b: on an open map the cheapest walk from a fresh counter is the 5/10 distance."""
    res = reachable(GameMap(13, 13), Footprint((6, 6)), budget, {})
    d = distance_ft((6, 6), (c, r))
    if (c, r) == (6, 6):
        assert (c, r) not in res
    elif d <= budget:
        assert res[(c, r)].cost_ft == d
    else:
        assert (c, r) not in res
