"""Play a compiled battle with the kernel: the set-up in Python with the reference's own functions
(surprise checks, initiative, roll-offs), then the tape of the very dice words the reference would draw,
then the kernel to the end."""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from d20combat.dice import SeededDice
from d20combat.rules.initiative import order_by_initiative
from d20combat.rules.surprise import determine_surprise
from d20combat.simulation.fast import kernel_base as k
from d20combat.simulation.fast.compile import SIZE, CompiledBattle
from d20combat.simulation.fast.kernel import run
from d20combat.simulation.fast.kernel_effects import FX_COLS, clear_effects
from d20combat.simulation.fast.layout import FEAR_SRC

I64 = npt.NDArray[np.int64]

TAPE_WORDS = 2048
"""Mersenne Twister words handed to the kernel at first; a battle that needs more is replayed with more."""


@dataclass(frozen=True)
class Setup:
    """What happened before round 1, for the log: (surprised, notes), initiative totals, (order, notes)."""

    surprised: list[str]
    surprise_notes: list[str]
    initiative: list[tuple[str, int]]
    order: list[str]
    tie_notes: list[str]
    rolls: int
    """Dice rolled before round 1."""


@dataclass(frozen=True)
class FastResult:
    setup: Setup
    state: I64
    scalars: I64
    events: I64
    """Event rows (empty unless a log was asked for)."""


def _setup(cb: CompiledBattle, dice: SeededDice) -> Setup:
    """``Encounter._determine_surprise`` and ``_roll_initiative``, same functions, same dice order."""
    battle = cb.battle
    if battle.surprised is not None:
        surprised, notes = list(battle.surprised), ["(set by the scenario)"]
    else:
        sneakers = [c for c in battle.creatures.values() if c.sneaky]
        sneaky_sides = {c.side for c in sneakers}
        perceivers = [c for c in battle.creatures.values() if c.side not in sneaky_sides]
        surprised, notes = determine_surprise(sneakers, perceivers, dice)
    totals: list[tuple[str, int]] = []
    for i, cid in enumerate(cb.ids):
        fixed = int(cb.init_fixed[i])
        if fixed != -1000:
            totals.append((cid, fixed))
        else:
            totals.append((cid, dice.roll(20, "initiative") + int(cb.init_mod[i])))
    order, ties = order_by_initiative(totals, dice)
    return Setup(surprised, notes, totals, order, ties, len(dice.rolls))


def _tape(rng: random.Random, words: int) -> npt.NDArray[np.uint32]:
    """The next ``words`` outputs of the generator: ``getrandbits`` fills 32-bit words least significant
    first, so the little-endian bytes of one big draw are the words in the order drawn."""
    return np.frombuffer(rng.getrandbits(32 * words).to_bytes(4 * words, "little"), dtype="<u4")


def play_fast(cb: CompiledBattle, seed: int, *, log: bool = False, tape_words: int = TAPE_WORDS,
              event_rows: int = 4096) -> FastResult:
    """One battle with dice ``SeededDice(seed)``: the reference engine's result, computed by the kernel."""
    while True:
        dice = SeededDice(seed)
        setup = _setup(cb, dice)
        tape = _tape(dice._rng, tape_words)
        n = len(cb.ids)
        index = {cid: i for i, cid in enumerate(cb.ids)}
        order = np.array([index[c] for c in setup.order], dtype=np.int64)
        s = np.zeros((n, k.LOADED + cb.loaded0.shape[1] + FX_COLS), dtype=np.int64)
        s[:, k.HP] = cb.hp0
        s[:, k.PC] = cb.pos0[:, 0]
        s[:, k.PR] = cb.pos0[:, 1]
        s[:, k.WIELD] = cb.wield0
        s[:, k.CHARGE_UNTIL] = -1
        s[:, k.FOUND_TGT] = -1
        s[:, k.LOADED:k.LOADED + cb.loaded0.shape[1]] = cb.loaded0
        clear_effects(s)  # the effect columns after the options (kernel_effects)
        s[:, k.COND] = np.where(cb.cs[:, FEAR_SRC] != -2, k.CB_PANICKED, 0)  # a starting panic (kernel_fear)
        for cid in setup.surprised:
            s[index[cid], k.SURPRISED] = 1
        t = np.zeros(k.N_T, dtype=np.int64)
        t[k.T_WINNER] = -1
        t[k.T_ACTOR] = -1
        occ = np.zeros(cb.walls.shape, dtype=np.int16)
        for i in range(n):
            size = int(cb.cs[i, SIZE])
            c, r = int(cb.pos0[i, 0]), int(cb.pos0[i, 1])
            occ[c:c + size, r:r + size] += 1
        ev = np.zeros((event_rows if log else 0, 8), dtype=np.int64)
        run(world(cb), board(cb), s, t, occ, order, tape, ev, int(bool(setup.surprised)))
        if t[k.T_EXHAUSTED]:
            tape_words *= 4
            continue
        if log and t[k.T_NEV] > ev.shape[0]:
            event_rows = int(t[k.T_NEV]) + 64
            continue
        return FastResult(setup, s, t, ev[: t[k.T_NEV]])


def world(cb: CompiledBattle) -> tuple[object, ...]:
    return (cb.cs, cb.opt, cb.meanp, cb.ac, cb.threat, cb.rng, cb.natural, cb.face_counts, cb.cover_mode, cb.kn)


def board(cb: CompiledBattle) -> tuple[object, ...]:
    return (cb.passable, cb.walls, cb.low_walls, cb.difficult, cb.concealing, cb.light, cb.charge_ground,
            cb.move_tables)


def killed(cb: CompiledBattle, result: FastResult) -> list[bool]:
    return [bool(result.state[i, k.DEAD]) for i in range(len(cb.ids))]
