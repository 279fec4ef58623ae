"""The compiled cover / line / terrain-concealment geometry equals the reference, case for case.

Every fast function must give exactly the reference verdict (PFB-COV-02..16, PFB-CONC-02/03) for
every input, so these tests compare them on seeded random maps and on hand-picked lines that graze
corners, run along edges or squeeze between walls.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from d20combat.battlefield.concealment import Vision, _between, concealment_sources
from d20combat.battlefield.cover import CoverDegree, cover, line_of_effect
from d20combat.battlefield.grid import Footprint, GameMap, Square
from d20combat.battlefield.lines import squares_crossed_scaled
from d20combat.simulation.fast import concealment as fast_concealment
from d20combat.simulation.fast import geometry as g

DEGREE = {
    CoverDegree.NONE: g.NONE,
    CoverDegree.PARTIAL: g.PARTIAL,
    CoverDegree.COVER: g.COVER,
    CoverDegree.TOTAL: g.TOTAL,
}


@dataclass
class World:
    gm: GameMap
    walls: NDArray[np.uint8]
    low_walls: NDArray[np.uint8]
    concealing: NDArray[np.int16]
    creatures: list[Footprint]


def _world(
    width: int,
    height: int,
    walls: set[Square] | frozenset[Square] = frozenset(),
    low_walls: set[Square] | frozenset[Square] = frozenset(),
    concealing: dict[Square, int] | None = None,
    creatures: list[Footprint] | None = None,
) -> World:
    conc = dict(concealing or {})
    gm = GameMap(width=width, height=height, walls=frozenset(walls), low_walls=frozenset(low_walls), concealing=conc)
    w = np.zeros((width, height), dtype=np.uint8)
    lw = np.zeros((width, height), dtype=np.uint8)
    cc = np.full((width, height), -1, dtype=np.int16)
    for c, r in walls:
        w[c, r] = 1
    for c, r in low_walls:
        lw[c, r] = 1
    for (c, r), pct in conc.items():
        cc[c, r] = pct
    return World(gm, w, lw, cc, list(creatures or []))


def _occ(world: World, a: Footprint, t: Footprint) -> NDArray[np.int16]:
    """Creature count per square, the attacker and the target included (the kernel convention)."""
    occ = np.zeros(world.walls.shape, dtype=np.int16)
    for fp in [a, t, *world.creatures]:
        for c, r in fp.squares():
            occ[c, r] += 1
    return occ


def _others(world: World) -> dict[Square, str]:
    return {sq: f"c{i}" for i, fp in enumerate(world.creatures) for sq in fp.squares()}


def _fp_args(a: Footprint, t: Footprint) -> tuple[int, int, int, int, int, int]:
    return a.origin[0], a.origin[1], a.size, t.origin[0], t.origin[1], t.size


def _check_cover(world: World, a: Footprint, t: Footprint, seen: Counter[tuple[bool, int]] | None = None) -> None:
    """All 8 combinations of mode, partial cover and creatures, plus line of effect, against the reference."""
    occ = _occ(world, a, t)
    others = _others(world)
    args = _fp_args(a, t)
    for use_creatures in (False, True):
        squares = others if use_creatures else {}
        for any_line in (False, True):
            for partial in (False, True):
                ref = cover(
                    world.gm,
                    a,
                    t,
                    mode="any_line" if any_line else "best_corner",
                    creature_squares=squares,
                    partial_cover=partial,
                ).degree
                got = g.cover_degree(world.walls, world.low_walls, occ, use_creatures, *args, any_line, partial)
                assert got == DEGREE[ref], (world.gm, a, t, use_creatures, any_line, partial, ref, got)
                if seen is not None:
                    seen[(any_line, got)] += 1
    assert g.line_of_effect(world.walls, *args) == line_of_effect(world.gm, a, t)


def _reference_terrain(world: World, a: Footprint, t: Footprint) -> tuple[int, int]:
    sources = concealment_sources(world.gm, a, Vision(), t)
    inside = [s.percent for s in sources if s.reason.startswith("inside concealing terrain")]
    between = [s.percent for s in sources if "lies between them" in s.reason]
    assert len(inside) <= 1 and len(between) <= 1
    b = _between(world.gm, a, t)
    assert (b.percent if b else 0) == (between[0] if between else 0)
    return (inside[0] if inside else 0), (between[0] if between else 0)


def _check_concealment(world: World, a: Footprint, t: Footprint) -> tuple[int, int]:
    ref = _reference_terrain(world, a, t)
    got = fast_concealment.terrain_concealment(world.concealing, *_fp_args(a, t))
    assert (int(got[0]), int(got[1])) == ref, (world.gm, a, t, ref, got)
    return ref


def _random_fp(rng: random.Random, width: int, height: int) -> Footprint:
    size = rng.choice((1, 1, 2))
    return Footprint((rng.randrange(width - size + 1), rng.randrange(height - size + 1)), size)


def _overlap(a: Footprint, b: Footprint) -> bool:
    return bool(set(a.squares()) & set(b.squares()))


def _random_world(rng: random.Random) -> World:
    width, height = rng.randint(6, 12), rng.randint(6, 12)
    squares = [(c, r) for c in range(width) for r in range(height)]
    p_wall, p_low, p_conc = rng.uniform(0, 0.3), rng.uniform(0, 0.2), rng.uniform(0, 0.4)
    walls = {sq for sq in squares if rng.random() < p_wall}
    low = {sq for sq in squares if rng.random() < p_low}
    conc = {sq: rng.choice((0, 5, 20, 20, 30, 50, 75)) for sq in squares if rng.random() < p_conc}
    creatures = [_random_fp(rng, width, height) for _ in range(rng.randint(0, 4))]
    return _world(width, height, walls, low, conc, creatures)


def _random_pair(rng: random.Random, world: World) -> tuple[Footprint, Footprint]:
    while True:
        a = _random_fp(rng, world.gm.width, world.gm.height)
        t = _random_fp(rng, world.gm.width, world.gm.height)
        if not _overlap(a, t):
            return a, t


# ---------------------------------------------------------------------------------------------
# Lines
# ---------------------------------------------------------------------------------------------


def _crossed(px: int, py: int, qx: int, qy: int) -> list[Square]:
    out = np.zeros((abs(qx - px) + abs(qy - py) + 1, 2), dtype=np.int64)
    n = g.crossed_into(px, py, qx, qy, out)
    assert n <= abs(qx - px) + abs(qy - py)  # the documented bound
    return [(int(out[i, 0]), int(out[i, 1])) for i in range(n)]


def test_crossed_into_matches_reference_on_random_segments() -> None:
    """PFB-COV-02: same squares, same order, as ``squares_crossed_scaled(p, q, 1)`` (5000 segments)."""
    rng = random.Random(1)
    for _ in range(5000):
        span = rng.choice((3, 8, 20))
        px, py, qx, qy = (rng.randint(-span, span) for _ in range(4))
        assert _crossed(px, py, qx, qy) == squares_crossed_scaled((px, py), (qx, qy), 1), (px, py, qx, qy)


@settings(max_examples=300, deadline=None)
@given(st.integers(-30, 30), st.integers(-30, 30), st.integers(-30, 30), st.integers(-30, 30))
def test_crossed_into_property(px: int, py: int, qx: int, qy: int) -> None:
    """PFB-COV-02 / PFB-CONC-03: any segment between grid points, including long and negative ones."""
    assert _crossed(px, py, qx, qy) == squares_crossed_scaled((px, py), (qx, qy), 1)


def test_crossed_into_hand_cases() -> None:
    """Grazing a corner or running along an edge enters nothing there (PFB-COV-02 reading)."""
    assert _crossed(0, 0, 3, 3) == [(0, 0), (1, 1), (2, 2)]  # through grid points: touches, never enters
    assert _crossed(3, 3, 0, 0) == [(2, 2), (1, 1), (0, 0)]
    assert _crossed(0, 0, 4, 0) == [] and _crossed(2, 5, 2, 1) == [] and _crossed(1, 1, 1, 1) == []
    assert _crossed(0, 0, 4, 1) == [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert _crossed(4, 1, 0, 0) == [(3, 0), (2, 0), (1, 0), (0, 0)]
    assert _crossed(0, 2, 2, 0) == [(0, 1), (1, 0)]


def _crossed_scaled(px: int, py: int, qx: int, qy: int, scale: int) -> list[Square]:
    """``g.crossed_scaled_into`` as a list; guard rows past the documented bound must stay untouched."""
    bound = (abs(qx - px) + abs(qy - py)) // scale + 3
    out = np.full((bound + 4, 2), -999, dtype=np.int64)
    n = g.crossed_scaled_into(px, py, qx, qy, scale, out)
    assert n <= bound and (out[bound:] == -999).all(), (px, py, qx, qy, scale, n)
    return [(int(out[i, 0]), int(out[i, 1])) for i in range(n)]


def test_crossed_scaled_into_matches_reference_at_scale_2() -> None:
    """PFB-CHG-07: same squares, same order, as ``squares_crossed_scaled(p, q, 2)`` (charge centre lines).

    8000 random segments between points with odd (square centre) and even (grid line) coordinates, in
    every direction, axis-parallel ones and single points included; plus a sweep at scale 3.
    """
    rng = random.Random(5)
    kinds = {"point": 0, "vertical": 0, "horizontal": 0, "slanted": 0}
    for _ in range(8000):
        span = rng.choice((2, 5, 12))
        px, py = rng.randint(-span, span), rng.randint(-span, span)
        qx, qy = rng.randint(-span, span), rng.randint(-span, span)
        shape = rng.random()
        if shape < 0.05:
            qx, qy = px, py
        elif shape < 0.15:
            qx = px
        elif shape < 0.25:
            qy = py
        if rng.random() < 0.5:  # centre to centre, as a charge traces
            px, py, qx, qy = (2 * v + 1 for v in (px, py, qx, qy))
        kind = "point" if (px, py) == (qx, qy) else "vertical" if px == qx else "horizontal" if py == qy else "slanted"
        kinds[kind] += 1
        ref = squares_crossed_scaled((px, py), (qx, qy), 2)
        assert _crossed_scaled(px, py, qx, qy, 2) == ref, (px, py, qx, qy)
    assert min(kinds.values()) > 200, kinds
    for _ in range(2000):
        px, py, qx, qy = (rng.randint(-10, 10) for _ in range(4))
        assert _crossed_scaled(px, py, qx, qy, 3) == squares_crossed_scaled((px, py), (qx, qy), 3), (px, py, qx, qy)
    # Scale 1 through the general entry point is crossed_into.
    assert _crossed_scaled(4, 1, 0, 0, 1) == _crossed(4, 1, 0, 0) == [(3, 0), (2, 0), (1, 0), (0, 0)]


def test_crossed_scaled_into_hand_cases() -> None:
    """Centres are odd coordinates at scale 2: a point inside a square is in it, one on a grid line is not."""
    assert _crossed_scaled(1, 1, 1, 1, 2) == [(0, 0)] and _crossed_scaled(2, 2, 2, 2, 2) == []
    assert _crossed_scaled(1, 1, 5, 1, 2) == [(0, 0), (1, 0), (2, 0)]
    assert _crossed_scaled(5, 1, 1, 1, 2) == [(2, 0), (1, 0), (0, 0)]
    assert _crossed_scaled(1, 5, 1, 1, 2) == [(0, 2), (0, 1), (0, 0)]  # vertical, ordered by the sign of dy
    assert _crossed_scaled(1, 5, 5, 1, 2) == [(0, 2), (1, 1), (2, 0)]
    assert _crossed_scaled(1, 1, 5, 3, 2) == [(0, 0), (1, 0), (1, 1), (2, 1)]
    assert _crossed_scaled(0, 1, 4, 1, 2) == [(0, 0), (1, 0)] and _crossed_scaled(2, 0, 2, 4, 2) == []


# ---------------------------------------------------------------------------------------------
# Cover
# ---------------------------------------------------------------------------------------------


def test_cover_matches_reference_on_random_maps() -> None:
    """PFB-COV-02..16 on 600 random maps x 4 pairs x 8 variants (19200 cover calls), plus line of effect.

    Footprints of size 1 and 2 anywhere they do not overlap each other (on walls, too: the reference's
    early exits treat walls under the two creatures differently, and the replica must follow).
    """
    rng = random.Random(7)
    seen: Counter[tuple[bool, int]] = Counter()
    for _ in range(600):
        world = _random_world(rng)
        for _ in range(4):
            a, t = _random_pair(rng, world)
            _check_cover(world, a, t, seen)
    # The sweep reaches every verdict in both modes (partial cover exists only for best_corner).
    for any_line in (False, True):
        for degree in (g.NONE, g.COVER, g.TOTAL):
            assert seen[(any_line, degree)] > 50, seen
    assert seen[(False, g.PARTIAL)] > 50, seen


def test_cover_clean_creatures_off_walls() -> None:
    """PFB-COV-05: the realistic case, creatures never on walls and never sharing squares (1000 pairs)."""
    rng = random.Random(11)
    for _ in range(250):
        world = _random_world(rng)
        free = [(c, r) for c in range(world.gm.width) for r in range(world.gm.height) if (c, r) not in world.gm.walls]
        fps: list[Footprint] = []
        for _ in range(30):
            fp = _random_fp(rng, world.gm.width, world.gm.height)
            if set(fp.squares()) <= set(free) and not any(_overlap(fp, o) for o in fps):
                fps.append(fp)
        if len(fps) < 2:
            continue
        world.creatures = fps[2:6]
        for a, t in ((fps[0], fps[1]), (fps[1], fps[0])):
            _check_cover(world, a, t)
            creatures = world.creatures
            world.creatures = [fp for fp in fps if fp not in (a, t)]
            _check_cover(world, a, t)
            world.creatures = creatures


def test_cover_long_low_obstacles() -> None:
    """PFB-COV-08 on maps larger than the flood fill's first window: low-wall runs (random walks) that stay
    near the line and runs that wander far beyond ``LOW_WINDOW`` squares, whose far end decides the verdict."""
    rng = random.Random(23)
    for _ in range(60):
        width, height = rng.randint(30, 70), rng.randint(30, 70)
        low: set[Square] = set()
        for _ in range(rng.randint(1, 4)):
            c, r = rng.randrange(width), rng.randrange(height)
            for _ in range(rng.randint(5, 120)):
                low.add((c, r))
                c = min(max(c + rng.randint(-1, 1), 0), width - 1)
                r = min(max(r + rng.randint(-1, 1), 0), height - 1)
        world = _world(width, height, low_walls=low)
        for _ in range(6):
            c, r = rng.choice(sorted(low))
            a = Footprint((min(max(c + rng.randint(-6, 6), 0), width - 2), min(max(r + rng.randint(-6, 6), 0),
                                                                                height - 2)), rng.choice((1, 2)))
            t = Footprint((min(max(2 * c - a.origin[0], 0), width - 1), min(max(2 * r - a.origin[1], 0),
                                                                            height - 1)))
            if not _overlap(a, t):
                _check_cover(world, a, t)


def test_cover_hand_cases() -> None:
    """PFB-COV-02/06/08/09..11: grazing, edges, squeezing between diagonal walls, low walls near the attacker."""
    one = Footprint((0, 0))

    def degrees(world: World, a: Footprint, t: Footprint) -> tuple[int, int, int]:
        _check_cover(world, a, t)
        occ = _occ(world, a, t)
        args = _fp_args(a, t)
        return (
            g.cover_degree(world.walls, world.low_walls, occ, True, *args, True, False),
            g.cover_degree(world.walls, world.low_walls, occ, True, *args, False, False),
            g.cover_degree(world.walls, world.low_walls, occ, True, *args, False, True),
        )

    # PFB-COV-02/06: the pillar (1,2) is crossed by a body-text line, but corner (1,0) only grazes it.
    assert degrees(_world(10, 10, {(1, 2)}), one, Footprint((3, 3))) == (g.COVER, g.NONE, g.NONE)
    # PFB-COV-09..11: squeezing through the point where two diagonal walls touch blocks every line.
    w = _world(6, 6, {(0, 3), (1, 2), (2, 1), (3, 0)})
    assert degrees(w, one, Footprint((3, 3))) == (g.TOTAL, g.TOTAL, g.TOTAL)
    assert not g.line_of_effect(w.walls, *_fp_args(one, Footprint((3, 3))))
    # Only the pair meeting at (2,2): lines through that point squeeze, others pass.
    w = _world(6, 6, {(1, 2), (2, 1)})
    assert degrees(w, Footprint((1, 1)), Footprint((2, 2)))[0] == g.COVER
    # Along the shared edge of two walls blocks; along the edge of one wall does not.
    assert degrees(_world(6, 6, {(2, 1), (2, 2)}), Footprint((0, 1)), Footprint((4, 1)))[1] == g.COVER
    assert degrees(_world(6, 6, {(2, 1)}), Footprint((0, 2)), Footprint((4, 2))) == (g.NONE, g.NONE, g.NONE)
    # Lines along the map's edge: the squeeze partner square is off the map.
    assert degrees(_world(6, 6, {(2, 0)}), Footprint((0, 0)), Footprint((4, 0)))[1] == g.COVER
    # PFB-COV-08: a low wall the attacker is strictly closer to gives nothing; at equal distance it protects.
    assert degrees(_world(10, 3, low_walls={(1, 0)}), one, Footprint((4, 0))) == (g.NONE, g.NONE, g.NONE)
    assert degrees(_world(10, 3, low_walls={(3, 0)}), one, Footprint((4, 0)))[0] == g.COVER
    assert degrees(_world(10, 3, low_walls={(2, 0)}), one, Footprint((4, 0)))[0] == g.COVER
    # PFB-COV-16: one of four lines from the best corner blocked -> partial under the variant.
    assert degrees(_world(10, 10, {(3, 2)}), one, Footprint((4, 1), 2))[1:] == (g.COVER, g.PARTIAL)
    # PFB-COV-05: another creature between the two gives cover; the two themselves never do.
    w = _world(10, 3, creatures=[Footprint((2, 0))])
    assert degrees(w, one, Footprint((4, 0)))[1] == g.COVER
    w = _world(10, 3)
    assert degrees(w, one, Footprint((4, 0))) == (g.NONE, g.NONE, g.NONE)


# ---------------------------------------------------------------------------------------------
# Terrain concealment
# ---------------------------------------------------------------------------------------------


def test_terrain_concealment_matches_reference_on_random_maps() -> None:
    """PFB-CONC-02 (entirely inside) and PFB-CONC-03 (between, best corner) on 4000 random pairs."""
    rng = random.Random(3)
    inside = between = 0
    for _ in range(1000):
        world = _random_world(rng)
        for _ in range(4):
            a, t = _random_pair(rng, world)
            got = _check_concealment(world, a, t)
            inside += got[0] > 0
            between += got[1] > 0
    assert inside > 100 and between > 300, (inside, between)


def test_terrain_concealment_hand_cases() -> None:
    """PFB-CONC-02/03: weakest square inside, 0% squares, own squares, and a corner that sees clear."""
    one = Footprint((0, 0))
    ogre = Footprint((3, 0), 2)
    # Entirely inside: the weakest listed square counts; one unlisted square or a 0% minimum gives nothing.
    w = _world(8, 8, concealing={(3, 0): 20, (4, 0): 50, (3, 1): 30, (4, 1): 20})
    assert _check_concealment(w, one, ogre) == (20, 0)
    w = _world(8, 8, concealing={(3, 0): 20, (4, 0): 50, (3, 1): 30})
    assert _check_concealment(w, one, ogre) == (0, 0)
    w = _world(8, 8, concealing={(3, 0): 20, (4, 0): 50, (3, 1): 30, (4, 1): 0})
    assert _check_concealment(w, one, ogre) == (0, 0)
    # Between: a bush at (2,0) lies on some line from every corner of the attacker.
    w = _world(8, 8, concealing={(2, 0): 20, (1, 0): 0})
    assert _check_concealment(w, one, Footprint((4, 0))) == (0, 20)
    # The attacker standing in a bush conceals nothing (own square).
    w = _world(8, 8, concealing={(0, 0): 50})
    assert _check_concealment(w, one, Footprint((4, 0))) == (0, 0)
    # Best corner: (1,0) sees (3,3) past the bush (1,2) with no line through it.
    w = _world(10, 10, concealing={(1, 2): 20})
    assert _check_concealment(w, one, Footprint((3, 3))) == (0, 0)
    # The weaker of the corners' strongest squares.
    w = _world(10, 4, concealing={(2, 0): 50, (2, 1): 20})
    assert _check_concealment(w, Footprint((0, 0), 2), Footprint((4, 0), 2)) == _reference_terrain(
        w, Footprint((0, 0), 2), Footprint((4, 0), 2)
    )
