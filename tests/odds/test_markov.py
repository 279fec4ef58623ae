"""Kill odds: the absorbing Markov chain against brute force and the fundamental matrix by hand."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest

from d20combat.odds import OddsError, attack_odds, full_attack, iteratives, kill_odds, profile_from_numbers


def _round_die() -> icepool.Die:
    base = profile_from_numbers(8, 18, "1d8+5", crit="19-20/x2", concealment=20)
    return full_attack(iteratives(base, (8, 3))).damage


def test_within_n_rounds_matches_the_sum_of_n_rounds() -> None:
    """Brute force: P(down within n) = P(n rounds of damage add up to ≥ hp)."""
    rnd = _round_die()
    kill = kill_odds(rnd, 30, 6)
    for n, p in enumerate(kill.within, 1):
        assert p == (n @ rnd).probability(">=", 30), n
    assert list(kill.within) == sorted(kill.within)


def test_expected_rounds_matches_the_tail_sum_and_icepool() -> None:
    """E[T] = Σ_{n≥0} P(T > n) = Σ P(n rounds deal < hp); icepool's mean_time_to_sum agrees exactly."""
    rnd = _round_die()
    kill = kill_odds(rnd, 25, 1)
    assert kill.expected_rounds == rnd.mean_time_to_sum(25)
    tail, total, n = 1.0, 0.0, 0
    acc = icepool.Die([0])
    while tail > 1e-13:
        total += tail
        n += 1
        acc = acc + rnd
        tail = float(acc.probability("<", 25))
    assert kill.expected_rounds is not None
    assert float(kill.expected_rounds) == pytest.approx(total, abs=1e-9)


def _fundamental_expected(probs: dict[int, Fraction], hp: int) -> Fraction:
    """Invert (I − Q) by Gauss–Jordan over the transient states hp..1 and sum the row of hp."""
    states = list(range(hp, 0, -1))
    index = {h: i for i, h in enumerate(states)}
    size = len(states)
    m = [[Fraction(int(i == j)) for j in range(size)] + [Fraction(int(i == j)) for j in range(size)]
         for i in range(size)]
    for h in states:
        for k, p in probs.items():
            if h - k >= 1:
                m[index[h]][index[h - k]] -= p
    for col in range(size):
        pivot = next(r for r in range(col, size) if m[r][col] != 0)
        m[col], m[pivot] = m[pivot], m[col]
        lead = m[col][col]
        m[col] = [x / lead for x in m[col]]
        for r in range(size):
            if r != col and m[r][col] != 0:
                factor = m[r][col]
                m[r] = [a - factor * b for a, b in zip(m[r], m[col], strict=True)]
    n_matrix = [row[size:] for row in m]
    return sum(n_matrix[index[hp]], Fraction(0))


def test_expected_rounds_is_the_fundamental_matrix_row_sum() -> None:
    die = icepool.Die({0: 3, 1: 1, 2: 2, 5: 1})
    probs = {int(k): Fraction(v, 7) for k, v in die.items()}
    for hp in (1, 2, 6):
        assert kill_odds(die, hp, 1).expected_rounds == _fundamental_expected(probs, hp)
    # A hand check: one point per round half the time → 2 / ½ = 4 rounds for 2 hp.
    assert kill_odds(icepool.Die([0, 1]), 2, 2).expected_rounds == 4
    assert kill_odds(icepool.Die([0, 1]), 2, 2).within == (Fraction(0), Fraction(1, 4))


def test_no_damage_ever_is_stated_not_divided_by_zero() -> None:
    blind = attack_odds(profile_from_numbers(8, 18, "1d8", concealment=100))
    kill = kill_odds(blind.damage, 10, 3)
    assert kill.expected_rounds is None
    assert kill.within == (0, 0, 0)
    assert "never" in kill.note


def test_overkill_and_a_single_hp() -> None:
    rnd = attack_odds(profile_from_numbers(8, 18, "1d8+5")).damage
    kill = kill_odds(rnd, 1, 2)
    assert kill.within[0] == Fraction(11, 20)
    assert kill.expected_rounds == Fraction(20, 11)


def test_bad_hp_and_rounds() -> None:
    rnd = _round_die()
    with pytest.raises(OddsError, match="hp"):
        kill_odds(rnd, 0, 3)
    with pytest.raises(OddsError, match="rounds"):
        kill_odds(rnd, 5, 0)
