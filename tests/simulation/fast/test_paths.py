"""The compiled movement and charge geometry equals the reference engine, bit for bit.

Seeded random sweeps over small maps (walls, pits, difficult squares, low walls) and random
occupancies compare every result of ``simulation.fast.paths``, ``steps`` and ``charge`` with
``battlefield.movement`` and ``battlefield.charge``: reachable origins, costs, diagonal counters and
full paths including tie-breaks (PFB-MOVE-12..14, PFB-MOVE-16, PFB-MOVE-17, PFB-MOVE-21/22), and
charge attack origins and path legality (PFB-CHG-06..09).
"""

from __future__ import annotations

import random

import numpy as np
from numpy.typing import NDArray

from d20combat.battlefield import charge, movement
from d20combat.battlefield.cover import line_of_effect
from d20combat.battlefield.grid import Footprint, GameMap, Square
from d20combat.simulation.fast import charge as fast_charge
from d20combat.simulation.fast import geometry, paths, steps
from d20combat.simulation.fast.jit import COMPILED

# Plain Python (NUMBA_DISABLE_JIT=1) is far slower: sweep fewer cases there.
SCALE = 1 if COMPILED else 5

_KIND = {movement.Occupant.HELPLESS: 1, movement.Occupant.ALLY: 2, movement.Occupant.ENEMY: 3}


class _Case:
    """A random map as the reference ``GameMap`` and as the fast path's arrays."""

    def __init__(self, rng: random.Random) -> None:
        self.w = w = rng.randint(5, 12)
        self.h = h = rng.randint(5, 12)
        squares = [(c, r) for c in range(w) for r in range(h)]
        p_wall, p_pit, p_diff, p_low = (rng.choice((0.0, 0.05, 0.15, 0.25)) for _ in range(4))
        walls = frozenset(sq for sq in squares if rng.random() < p_wall)
        pits = frozenset(sq for sq in squares if rng.random() < p_pit / 2)
        difficult = frozenset(sq for sq in squares if rng.random() < p_diff)
        low_walls = frozenset(sq for sq in squares if rng.random() < p_low / 2)
        self.squares = squares
        self.gm = GameMap(width=w, height=h, walls=walls, pits=pits, difficult=difficult, low_walls=low_walls)
        self.passable = self.mask(sq for sq in squares if sq not in walls and sq not in pits)
        self.walls = self.mask(walls)
        self.difficult = self.mask(difficult | low_walls)

    def mask(self, squares: object) -> NDArray[np.uint8]:
        out = np.zeros((self.w, self.h), np.uint8)
        for c, r in squares:  # type: ignore[attr-defined]
            out[c, r] = 1
        return out

    def origin(self, rng: random.Random, size: int) -> Square:
        """A footprint origin on the map, usually on passable squares (a creature's place)."""
        for _ in range(20):
            c, r = rng.randrange(self.w - size + 1), rng.randrange(self.h - size + 1)
            if all(self.passable[c + i, r + j] for i in range(size) for j in range(size)):
                return c, r
        return rng.randrange(self.w - size + 1), rng.randrange(self.h - size + 1)


def _occupancy(
    rng: random.Random, case: _Case, own: set[Square]
) -> tuple[dict[Square, movement.Occupant], NDArray[np.int8]]:
    density = rng.choice((0.0, 0.05, 0.15, 0.3))
    occ: dict[Square, movement.Occupant] = {}
    kinds = np.zeros((case.w, case.h), np.int8)
    for sq in case.squares:
        if sq not in own and rng.random() < density:
            who = rng.choice((movement.Occupant.ALLY, movement.Occupant.ENEMY, movement.Occupant.HELPLESS))
            occ[sq] = who
            kinds[sq] = _KIND[who]
    return occ, kinds


def _as_result(
    cost: NDArray[np.int64], diags: NDArray[np.int64], plen: NDArray[np.int64], pths: NDArray[np.int64]
) -> dict[Square, movement.PathInfo]:
    out: dict[Square, movement.PathInfo] = {}
    for c, r in zip(*np.nonzero(cost >= 0), strict=True):
        path = tuple((int(x), int(y)) for x, y in pths[c, r, : plen[c, r]])
        out[(int(c), int(r))] = movement.PathInfo(int(cost[c, r]), int(diags[c, r]), path)
    return out


def test_reachable_equals_reference() -> None:
    """Same end origins, costs, diagonal counters and paths, ties included (PFB-MOVE-12..14, 16, 17, 21/22).

    Allies and helpless creatures are passed, enemies never; only empty or helpless squares end a
    move; diagonals alternate 5/10 from ``diagonals_so_far``; wall corners are never cut; difficult
    entry (any new square of a large footprint) costs double, 15 ft diagonally.
    """
    rng = random.Random(20240611)
    cases = 0
    nonempty = 0
    for _ in range(700 // SCALE):
        case = _Case(rng)
        for _ in range(6):
            size = rng.choice((1, 1, 2))
            c, r = case.origin(rng, size)
            own = {(c + i, r + j) for i in range(size) for j in range(size)}
            occ, kinds = _occupancy(rng, case, own)
            budget = rng.choice((5, 10, 15, 20, 25, 30, 35, 40, 50, 60))
            diags0 = rng.choice((0, 1, 0, 1, 2, 3))
            flying = rng.random() < 0.25
            counts = rng.random() < 0.5
            ref = movement.reachable(
                case.gm, Footprint((c, r), size), budget, occ,
                diagonals_so_far=diags0, flying=flying, difficult_diagonal_counts=counts,
            )
            got = paths.reachable(
                case.passable, case.walls, case.difficult, c, r, size, budget, kinds, diags0, flying, counts
            )
            assert got[3].shape == (case.w, case.h, budget // 5 + 1, 2)
            assert _as_result(*got) == ref, (case.gm, c, r, size, budget, occ, diags0, flying, counts)
            table = steps.move_table(case.passable, case.walls, case.difficult, size, flying, counts)
            again = paths.reachable_with_table(table, c, r, size, budget, kinds, diags0)
            for a, b in zip(got, again, strict=True):
                assert np.array_equal(a, b)
            cases += 1
            nonempty += bool(ref)
    assert cases >= 4200 // SCALE
    assert nonempty > cases // 2


def test_one_workspace_serves_every_search() -> None:
    """The kernel's search (``reachable_into``) reuses one workspace for a whole battle: each search, whatever
    came before it, is the reference's — same origins in (c, r) order, costs, counters and paths — and reads
    the occupancy only inside its box (garbage outside it changes nothing)."""
    rng = random.Random(5150)
    ws = paths.workspace(60, 2)
    searches = 0
    for _ in range(300 // SCALE):
        case = _Case(rng)
        for _ in range(4):
            size = rng.choice((1, 1, 2))
            c, r = case.origin(rng, size)
            own = {(c + i, r + j) for i in range(size) for j in range(size)}
            occ, kinds = _occupancy(rng, case, own)
            budget = rng.choice((5, 10, 15, 20, 30, 40, 60))
            diags0 = rng.randrange(4)
            counts = rng.random() < 0.5
            ref = movement.reachable(case.gm, Footprint((c, r), size), budget, occ, diagonals_so_far=diags0,
                                     difficult_diagonal_counts=counts)
            c_lo, r_lo, bw, bh = paths.search_box(case.w, case.h, c, r, budget)
            box = ws[paths.KINDS]
            box[:] = 3  # stale enemies everywhere: only the box below may be read
            box[: bw + size - 1, : bh + size - 1] = 0
            part = kinds[c_lo: c_lo + bw + size - 1, r_lo: r_lo + bh + size - 1]
            box[: part.shape[0], : part.shape[1]] = part
            table = steps.move_table(case.passable, case.walls, case.difficult, size, False, counts)
            n = paths.reachable_into(table, c, r, size, budget, diags0, ws)
            found, found_paths = ws[paths.FOUND], ws[paths.FOUND_PATHS]
            got = [((int(x), int(y)), movement.PathInfo(int(cost), int(d), tuple(
                (int(a), int(b)) for a, b in found_paths[k, :length]))) for k, (x, y, cost, d, length)
                in enumerate(found[:n])]
            assert got == sorted(ref.items()), (case.gm, c, r, size, budget, occ, diags0, counts)
            searches += 1
    assert searches >= 1200 // SCALE


def test_search_ignores_the_map_beyond_the_budget() -> None:
    """The same field embedded in a far larger map gives the same squares: the search box is the budget's."""
    small = np.ones((13, 13), np.uint8)
    zeros = np.zeros((13, 13), np.uint8)
    ref = paths.reachable(small, zeros, zeros, 6, 6, 1, 30, np.zeros((13, 13), np.int8), 0, False, True)
    big = np.ones((200, 200), np.uint8)
    bzeros = np.zeros((200, 200), np.uint8)
    got = paths.reachable(big, bzeros, bzeros, 106, 86, 1, 30, np.zeros((200, 200), np.int8), 0, False, True)
    assert np.array_equal(got[0][100:113, 80:93], ref[0])
    assert int((got[0] >= 0).sum()) == int((ref[0] >= 0).sum())
    for c in range(13):
        for r in range(13):
            n = ref[2][c, r]
            assert got[2][100 + c, 80 + r] == n
            assert np.array_equal(got[3][100 + c, 80 + r, :n] - np.array([100, 80]), ref[3][c, r, :n])


def test_open_field_ties() -> None:
    """On an open field the tie-breaks pick the reference's paths (PFB-MOVE-16: 5/10 diagonals)."""
    w, h = 9, 9
    gm = GameMap(width=w, height=h)
    ones = np.ones((w, h), np.uint8)
    zeros = np.zeros((w, h), np.uint8)
    for diags0 in (0, 1):
        ref = movement.reachable(gm, Footprint((4, 4), 1), 30, {}, diagonals_so_far=diags0)
        got = paths.reachable(ones, zeros, zeros, 4, 4, 1, 30, np.zeros((w, h), np.int8), diags0, False, True)
        assert _as_result(*got) == ref


def test_move_table_and_step_cost_equal_reference() -> None:
    """``move_table`` is ``_fill_moves`` and ``footprint_step_cost`` the reference's (PFB-MOVE-16, 17, 21/22)."""
    rng = random.Random(7)
    checked = 0
    for _ in range(150 // SCALE):
        case = _Case(rng)
        size = rng.choice((1, 2))
        flying = rng.random() < 0.3
        counts = rng.random() < 0.5
        table = steps.move_table(case.passable, case.walls, case.difficult, size, flying, counts)
        for c in range(case.w):
            for r in range(case.h):
                moves = movement._fill_moves({}, case.gm, size, flying, counts, (c, r))
                mine = [
                    ((c + steps._DC[d], r + steps._DR[d]), *(int(x) for x in table[c, r, d]))
                    for d in range(8)
                    if table[c, r, d, 0] != 0
                ]
                assert mine == moves
                diags0 = rng.randrange(4)
                tc, tr = c + rng.randint(-1, 1), r + rng.randint(-1, 1)
                ref = movement.footprint_step_cost(
                    case.gm, Footprint((c, r), size), (tc, tr), diags0,
                    flying=flying, difficult_diagonal_counts=counts,
                )
                got = steps.footprint_step_cost(
                    case.passable, case.walls, case.difficult, c, r, size, tc, tr, diags0, flying, counts
                )
                assert (None if got == (-1, -1) else got) == ref
                checked += 1
    assert checked > 1000 // SCALE


def test_line_of_effect_equals_reference() -> None:
    """Walls-only total cover by corner lines, as the charge uses it (PFB-COV-09..11, PFB-CHG-09a)."""
    rng = random.Random(11)
    blocked = 0
    for _ in range(300 // SCALE):
        case = _Case(rng)
        for _ in range(10):
            an, bn = rng.choice((1, 2)), rng.choice((1, 2, 3))
            ac, ar = rng.randrange(case.w - an + 1), rng.randrange(case.h - an + 1)
            bc, br = rng.randrange(case.w - bn + 1), rng.randrange(case.h - bn + 1)
            ref = line_of_effect(case.gm, Footprint((ac, ar), an), Footprint((bc, br), bn))
            assert geometry.line_of_effect(case.walls, ac, ar, an, bc, br, bn) == ref
            blocked += not ref
    assert blocked > 0


def test_charge_equals_reference() -> None:
    """Closest attack origins (PFB-CHG-09) and a clear straight path (PFB-CHG-06..08) as the reference.

    The occupied squares passed are everyone but the charger, minus the target's squares, as
    ``encounter.movement_actions._do_charge`` does; ends include the attack origins, random
    squares and squares off the map.
    """
    rng = random.Random(99)
    out = np.zeros((200, 2), np.int64)
    n_origins = n_paths = n_ok = 0
    for _ in range(300 // SCALE):
        case = _Case(rng)
        for _ in range(6):
            size = rng.choice((1, 1, 2))
            tsize = rng.choice((1, 1, 2, 3))
            reach = rng.choice((5, 5, 10, 15))
            c, r = case.origin(rng, size)
            tc, tr = case.origin(rng, tsize)
            charger, target = Footprint((c, r), size), Footprint((tc, tr), tsize)
            ref_origins = charge.closest_attack_origins(case.gm, charger, target, reach)
            k = fast_charge.closest_attack_origins_into(
                case.passable, case.walls, c, r, size, tc, tr, tsize, reach, out
            )
            assert [(int(x), int(y)) for x, y in out[:k]] == ref_origins
            n_origins += 1

            own = set(charger.squares())
            density = rng.choice((0.0, 0.05, 0.15))
            occupied = {sq for sq in case.squares if sq not in own and rng.random() < density}
            occupied -= set(target.squares())
            occ_mask = case.mask(occupied)
            ends = list(ref_origins)
            ends += [(rng.randint(-2, case.w + 1), rng.randint(-2, case.h + 1)) for _ in range(3)]
            ends += [(c + rng.randint(-4, 4), r + rng.randint(-4, 4)) for _ in range(3)]
            for ec, er in ends:
                flying = rng.random() < 0.25
                ref_ok = charge.charge_path_problem(case.gm, charger, (ec, er), occupied, flying=flying) is None
                got = fast_charge.charge_path_ok(
                    case.passable, case.walls, case.difficult, c, r, size, ec, er, occ_mask, flying
                )
                assert got == ref_ok, (case.gm, charger, (ec, er), occupied, flying)
                n_paths += 1
                n_ok += ref_ok
    assert n_origins >= 1800 // SCALE
    assert 0 < n_ok < n_paths
