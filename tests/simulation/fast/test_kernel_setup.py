"""The kernel's own set-up of an encounter (:mod:`d20combat.simulation.fast.kernel_setup`): CPython's Mersenne
Twister and the initiative roll-offs, drawn exactly as the reference draws them with ``SeededDice(seed)``."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from d20combat.dice import SeededDice
from d20combat.rules.initiative import order_by_initiative
from d20combat.scenario import battle_from_data
from d20combat.simulation.fast import kernel_base as k
from d20combat.simulation.fast.compile import compile_battle
from d20combat.simulation.fast.kernel_setup import N_MT, NO_FIXED, initiative_order, mt_words
from d20combat.simulation.fast.runner import _setup, _tape, play_batch, play_fast
from d20combat.simulation.runner import encounter_seeds

SEEDS = [0, 1, 2, 1234, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**63 - 1, 2**63, 2**64 - 1,
         *encounter_seeds(3, 0, 5)]


def _words(seed: int, n: int) -> list[int]:
    out = np.empty(n, dtype=np.uint32)
    mt_words(np.empty(N_MT, dtype=np.int64), int(np.array([seed], dtype=np.uint64).view(np.int64)[0]), out)
    return [int(x) for x in out]


@pytest.mark.parametrize("seed", SEEDS)
def test_the_kernels_mersenne_twister_is_random_random(seed: int) -> None:
    """1,300 words (two twists of the 624-word state) equal ``random.Random(seed).getrandbits(32)`` each, for
    one-word and two-word seeds (CPython splits the seed into 32-bit words) and the 64-bit encounter seeds."""
    rng = random.Random(seed)
    assert _words(seed, 1300) == [rng.getrandbits(32) for _ in range(1300)]


def _reference_order(totals: list[int], fixed: list[int], seed: int) -> tuple[list[int], list[int], int]:
    """(initiative values, turn order, words used) as ``runner._setup`` rolls them with ``SeededDice(seed)``."""
    dice = SeededDice(seed)
    values = [f if f != NO_FIXED else dice.roll(20, "initiative") + mod for f, mod in zip(fixed, totals, strict=True)]
    order, _ = order_by_initiative([(str(i), v) for i, v in enumerate(values)], dice)
    return values, [int(c) for c in order], len(dice.rolls)


def _kernel_order(mods: list[int], fixed: list[int], seed: int) -> tuple[list[int], list[int], int]:
    n = len(mods)
    tape = _tape(random.Random(seed), 400)
    t = np.zeros(k.N_T, dtype=np.int64)
    values, order = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    initiative_order(t, tape, np.array(fixed, dtype=np.int64), np.array(mods, dtype=np.int64), values, order,
                     np.empty(n, dtype=np.int64), np.empty(2 * n, dtype=np.int64))
    return [int(v) for v in values], [int(c) for c in order], int(t[k.T_ROLLS])


@settings(max_examples=300, deadline=None)
@given(mods=st.lists(st.integers(-2, 2), min_size=1, max_size=9), fixed=st.data(), seed=st.integers(0, 2**64 - 1))
def test_initiative_and_its_roll_offs_are_the_reference_draws(mods: list[int], fixed: st.DataObject,
                                                              seed: int) -> None:
    """PFB-INIT-04/05 in the kernel: d20 + modifier in the battle's order (a fixed result rolls nothing), highest
    first, tied groups rolling off depth first (small modifiers over up to nine creatures: ties, and ties again
    within roll-offs, are common) — the same values, order and number of dice as the reference."""
    fixes = fixed.draw(st.lists(st.sampled_from([NO_FIXED, NO_FIXED, 10, 12]), min_size=len(mods),
                                max_size=len(mods)))
    assert _kernel_order(mods, fixes, seed) == _reference_order(mods, fixes, seed)


def test_a_roll_off_within_a_roll_off_is_drawn_depth_first() -> None:
    """Nine identical creatures: some seed gives a second roll-off inside the first; the draws still match."""
    nested = 0
    for seed in range(300):
        values, order, used = _reference_order([0] * 9, [NO_FIXED] * 9, seed)
        tied = sum(c for c in (values.count(v) for v in set(values)) if c > 1)
        nested += used > 9 + tied  # more dice than the initiatives and one roll-off of everyone who tied
        assert _kernel_order([0] * 9, [NO_FIXED] * 9, seed) == (values, order, used)
    assert nested > 10


def test_a_lean_batch_plays_each_encounter_as_play_fast() -> None:
    """``play_batch`` where nobody rolls for surprise (the kernel rolls initiative itself) gives each encounter
    the outcome ``play_fast`` gives it from the runner's own set-up (``_setup``: the reference functions)."""
    combatants = [{"id": f"g{i}", "side": "goblins", "stats": "goblin", "position": [1 + 2 * i, 1]} for i in range(4)]
    combatants += [{"id": f"h{i}", "side": "heroes", "stats": "fighter", "position": [1 + 2 * i, 6]} for i in range(3)]
    battle = battle_from_data({"map": {"width": 10, "height": 8}, "combatants": combatants,
                               "surprise": {"surprised": ["h2"]}})
    cb = compile_battle(battle)
    seeds = encounter_seeds(9, 0, 40)
    out_s, out_t = play_batch(cb, seeds)
    assert len({tuple(_setup(cb, SeededDice(seed)).order) for seed in seeds}) > 20  # initiative varies
    for e, seed in enumerate(seeds):
        one = play_fast(cb, seed)
        assert out_t[e, 0] == one.scalars[k.T_WINNER] and out_t[e, 2] == one.scalars[k.T_ROUND]
        assert out_s[e, :, 0].tolist() == one.state[:, k.DEALT].tolist()
        assert out_s[e, :, 1].tolist() == one.state[:, k.TAKEN].tolist()


def test_an_exhausted_tape_stops_the_roll_off() -> None:
    """A tape too short for the initiative rolls only 1s from its end on: every roll-off would tie again forever.
    The kernel stops and marks the tape exhausted (the runner replays the encounter with a longer tape)."""
    t = np.zeros(k.N_T, dtype=np.int64)
    n = 6
    order = np.empty(n, dtype=np.int64)
    initiative_order(t, _tape(random.Random(5), 3), np.full(n, NO_FIXED, dtype=np.int64), np.zeros(n, dtype=np.int64),
                     np.empty(n, dtype=np.int64), order, np.empty(n, dtype=np.int64), np.empty(2 * n, dtype=np.int64))
    assert t[k.T_EXHAUSTED] == 1 and sorted(order.tolist()) == list(range(n))
