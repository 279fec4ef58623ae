"""Play a compiled battle with the kernel: the set-up in Python with the reference's own functions
(surprise checks, initiative, roll-offs), then the tape of the very dice words the reference would draw,
then the kernel to the end."""

from __future__ import annotations

import random
import weakref
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from d20combat.dice import SeededDice
from d20combat.rules.initiative import order_by_initiative
from d20combat.rules.surprise import determine_surprise
from d20combat.simulation.fast import kernel_base as k
from d20combat.simulation.fast.batch import O_EXHAUSTED, O_TAPE, PER_CREATURE, run_batch
from d20combat.simulation.fast.compile import CompiledBattle
from d20combat.simulation.fast.kernel import run
from d20combat.simulation.fast.kernel_effects import FX_COLS, clear_effects
from d20combat.simulation.fast.layout import FEAR_SRC, LAND_SPEED, SIZE, SPEED
from d20combat.simulation.fast.memo import memo_slots
from d20combat.simulation.fast.paths import Workspace
from d20combat.simulation.fast.paths import workspace as search_workspace

I64 = npt.NDArray[np.int64]

TAPE_WORDS = 128
"""Mersenne Twister words handed to the kernel at first for a battle not played before; a battle that needs more
is replayed with four times as many, and the battle's later encounters start from twice the most any of them
used (``_Start.tape_words``): drawing words costs ~30 ns each, and skill-duel's encounters use ~50 of the 2048
once drawn for every one (65 µs of its ~380)."""


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
    first, so the little-endian bytes of one big draw are the words in the order drawn. Writable, as the batch's
    tapes are: numba compiles a read-only array as another type (the whole kernel again)."""
    return np.frombuffer(bytearray(rng.getrandbits(32 * words).to_bytes(4 * words, "little")), dtype="<u4")


@dataclass
class _Start:
    """What every encounter of a compiled battle starts from, built once (:func:`_start`): the state, scalars and
    occupancy arrays before the dice, each encounter playing on copies; the creatures' index by id; the tuples
    of the kernel's tables; the tape to start with (only a hint: a tape too short is replayed longer, so the
    result never depends on it)."""

    battle: weakref.ref[CompiledBattle]
    s: I64
    t: I64
    occ: npt.NDArray[np.int16]
    index: dict[str, int]
    tables: tuple[tuple[object, ...], tuple[object, ...]]
    ws: Workspace
    """The move search's buffers and memo (:mod:`.memo`), shared by the battle's encounters."""
    initiative: I64
    """Per creature: (the scenario's fixed initiative result or -1000, the modifier)."""
    surprised: list[int]
    """The creatures the scenario says are surprised (when ``lean``)."""
    lean: bool
    """Nobody rolls for surprise: the kernel rolls each encounter's initiative itself (:func:`play_batch`)."""
    tape_words: int = TAPE_WORDS


_STARTS: dict[int, _Start] = {}
"""Per compiled battle, by ``id`` (checked against a weak reference, so a new battle at a freed address is never
taken for the old one)."""


def _start(cb: CompiledBattle) -> _Start:
    got = _STARTS.get(id(cb))
    if got is not None and got.battle() is cb:
        return got
    n = len(cb.ids)
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
    t = np.zeros(k.N_T, dtype=np.int64)
    t[k.T_WINNER] = -1
    t[k.T_ACTOR] = -1
    occ = np.zeros(cb.walls.shape, dtype=np.int16)
    for i in range(n):
        size = int(cb.cs[i, SIZE])
        c, r = int(cb.pos0[i, 0]), int(cb.pos0[i, 1])
        occ[c:c + size, r:r + size] += 1
    if len(_STARTS) > 64:
        _STARTS.clear()
    battle, index = cb.battle, {cid: i for i, cid in enumerate(cb.ids)}
    lean = battle.surprised is not None or not any(c.sneaky for c in battle.creatures.values())
    got = _Start(weakref.ref(cb), s, t, occ, index, (world(cb), board(cb)), battle_workspace(cb),
                 np.stack([cb.init_fixed, cb.init_mod], axis=1).astype(np.int64),
                 [index[c] for c in battle.surprised or ()], lean)
    _STARTS[id(cb)] = got
    return got


def play_fast(cb: CompiledBattle, seed: int, *, log: bool = False, tape_words: int | None = None,
              event_rows: int = 4096) -> FastResult:
    """One battle with dice ``SeededDice(seed)``: the reference engine's result, computed by the kernel
    (``tape_words``: the dice tape to start with, else the battle's hint)."""
    start = _start(cb)
    if tape_words is None:
        tape_words = start.tape_words
    index = start.index
    while True:
        dice = SeededDice(seed)
        setup = _setup(cb, dice)
        tape = _tape(dice._rng, tape_words)
        order = np.array([index[c] for c in setup.order], dtype=np.int64)
        s = start.s.copy()
        for cid in setup.surprised:
            s[index[cid], k.SURPRISED] = 1
        t = start.t.copy()
        occ = start.occ.copy()
        ev = np.zeros((event_rows if log else 0, 8), dtype=np.int64)
        run(*start.tables, s, t, occ, order, tape, ev, int(bool(setup.surprised)), start.ws)
        used = int(t[k.T_TAPE])
        start.tape_words = max(start.tape_words, 2 * used)
        if t[k.T_EXHAUSTED]:
            tape_words *= 4
            continue
        if log and t[k.T_NEV] > ev.shape[0]:
            event_rows = int(t[k.T_NEV]) + 64
            continue
        return FastResult(setup, s, t, ev[: t[k.T_NEV]])


def most_speed(cs: I64) -> int:
    """The largest move budget of the battle's creatures (at least 5 ft): the search workspace's budget."""
    return max(int(np.max(cs[:, SPEED])), int(np.max(cs[:, LAND_SPEED])), 5)


def battle_workspace(cb: CompiledBattle) -> Workspace:
    """The move search's workspace for every encounter of ``cb``, with a memo of about :data:`.memo.MEMO_BYTES`."""
    most, size = most_speed(cb.cs), int(np.max(cb.cs[:, SIZE]))
    rr = most // 5
    side = 2 * rr + 1
    return search_workspace(most, size, memo_slots(side * side, rr + 1, side + size - 1))


def play_batch(cb: CompiledBattle, seeds: Sequence[int]) -> tuple[I64, I64]:
    """:func:`play_fast` without a log for each seed, the kernel called once for all (:mod:`.batch`):
    ``(out_s, out_t)``, per encounter the columns :data:`.batch.PER_CREATURE` of each creature and the scalars
    ``O_*``. Where nobody rolls for surprise (``lean``) the kernel draws each encounter's initiative and dice from
    its seed itself (:mod:`.kernel_setup`); otherwise they are prepared here, as :func:`play_fast` does. An
    encounter that outran the tape is replayed alone with a longer one."""
    start = _start(cb)
    count, n, words = len(seeds), len(cb.ids), start.tape_words
    surprised = np.zeros((count, n), dtype=np.int64)
    if start.lean:
        orders = np.empty((0, n), dtype=np.int64)
        tapes = np.empty((1, words), dtype=np.uint32)  # only its length is read: each tape is drawn in the kernel
        surprised[:, start.surprised] = 1
        seeded = np.array(seeds, dtype=np.uint64).view(np.int64)
    else:
        orders = np.empty((count, n), dtype=np.int64)
        tapes = np.empty((count, words), dtype=np.uint32)
        seeded = np.empty(0, dtype=np.int64)
        for e, seed in enumerate(seeds):
            dice = SeededDice(seed)
            setup = _setup(cb, dice)
            orders[e] = [start.index[c] for c in setup.order]
            surprised[e, [start.index[c] for c in setup.surprised]] = 1
            tapes[e] = _tape(dice._rng, words)
    out_s = np.zeros((count, n, len(PER_CREATURE)), dtype=np.int64)
    out_t = np.zeros((count, O_TAPE + 1), dtype=np.int64)
    world_tables, board_tables = start.tables
    run_batch(world_tables, board_tables, start.s, start.t, start.occ, orders, tapes, surprised, seeded,
              start.initiative, start.ws, out_s, out_t)
    start.tape_words = max(start.tape_words, 2 * int(out_t[:, O_TAPE].max(initial=0)))
    for again in np.flatnonzero(out_t[:, O_EXHAUSTED]).tolist():
        result = play_fast(cb, seeds[again])
        out_s[again] = result.state[:, list(PER_CREATURE)]
        out_t[again] = [result.scalars[x] for x in (k.T_WINNER, k.T_TIMEOUT, k.T_ROUND, k.T_ATTACKS, k.T_EXHAUSTED,
                                                  k.T_TAPE)]
    return out_s, out_t


def world(cb: CompiledBattle) -> tuple[object, ...]:
    return (cb.cs, cb.opt, cb.meanp, cb.ac, cb.threat, cb.rng, cb.natural, cb.face_counts, cb.cover_mode, cb.kn)


def board(cb: CompiledBattle) -> tuple[object, ...]:
    return (cb.passable, cb.walls, cb.low_walls, cb.difficult, cb.concealing, cb.light, cb.charge_ground,
            cb.move_tables)


def killed(cb: CompiledBattle, result: FastResult) -> list[bool]:
    return [bool(result.state[i, k.DEAD]) for i in range(len(cb.ids))]
