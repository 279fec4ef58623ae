"""Flanking geometry (battlefield/flanking.py): the centre line between two creatures crosses opposite
borders or opposite corners of the defender's space (CMV-COND-34 proposal, PF1 CRB)."""

from __future__ import annotations

import pytest

from d20combat.battlefield.flanking import crossing, flanking_fact, flanks
from d20combat.battlefield.grid import Footprint

D = Footprint((1, 1))


@pytest.mark.parametrize(("a", "b"), [
    ((0, 1), (2, 1)),   # west and east
    ((1, 0), (1, 2)),   # north and south
    ((0, 0), (2, 2)),   # opposite corners
    ((2, 0), (0, 2)),   # the other diagonal
])
def test_opposite_sides_flank(a: tuple[int, int], b: tuple[int, int]) -> None:
    assert flanks(Footprint(a), Footprint(b), D)
    assert flanks(Footprint(b), Footprint(a), D)


@pytest.mark.parametrize(("a", "b"), [
    ((0, 1), (1, 0)),   # adjacent sides (an L)
    ((0, 0), (2, 0)),   # both on the north side
    ((0, 1), (2, 0)),   # a knight's move away from opposite
    ((0, 0), (1, 2)),
])
def test_other_positions_do_not_flank(a: tuple[int, int], b: tuple[int, int]) -> None:
    assert not flanks(Footprint(a), Footprint(b), D)


def test_reach_flanking_two_squares_out() -> None:
    assert flanks(Footprint((1, 3)), Footprint((1, 0)), D)  # 10 ft south, adjacent north


def test_big_defender_uses_its_whole_space() -> None:
    ogre = Footprint((2, 2), 2)  # squares (2..3, 2..3)
    assert flanks(Footprint((1, 2)), Footprint((4, 3)), ogre)  # west and east borders
    assert flanks(Footprint((2, 1)), Footprint((3, 4)), ogre)  # north and south
    assert not flanks(Footprint((1, 2)), Footprint((2, 1)), ogre)


def test_big_flanker_counts_if_any_of_its_squares_does() -> None:
    ogre = Footprint((0, 0), 2)  # west of the defender at (2, 1)
    fact = flanking_fact(ogre, Footprint((3, 1)), Footprint((2, 1)))
    assert fact is not None and fact.attacker_square in set(ogre.squares())
    assert "E" in fact.leaves and "W" in fact.enters
    assert not flanks(Footprint((0, 3), 2), Footprint((3, 1)), Footprint((2, 1)))  # south-west: no
    assert "crosses" in fact.describe()


def test_crossing_is_exact_and_ignores_grazing() -> None:
    box = (2, 4, 2, 4)  # doubled coordinates of square (1, 1)
    assert crossing((1, 3), (5, 3), box) == (frozenset({"W"}), frozenset({"E"}))
    assert crossing((1, 1), (5, 5), box) == (frozenset({"N", "W"}), frozenset({"S", "E"}))
    assert crossing((1, 2), (5, 2), box) is None  # runs along the north border
    assert crossing((1, 1), (3, 1), box) is None  # misses the square
    assert crossing((3, 1), (5, 3), box) is None  # touches the north-east corner only
