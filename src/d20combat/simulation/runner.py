"""Monte Carlo of whole encounters: the same scenario played to the end many times by the AI.

Every encounter ``i`` of a run with seed ``s`` gets its own dice seed from
``numpy.random.SeedSequence([s, i])``, so the outcome of encounter ``i`` does not depend on which
worker plays it: the same ``--seed`` gives the same aggregate whatever ``--workers`` is, in a local
process pool or on Dask.

Two engines play an encounter. The reference engine (``Encounter`` + ``TacticalAI``) plays anything;
the fast path (:mod:`d20combat.simulation.fast`) replays it exactly — same decisions, dice and events —
for battles whose ruleset keeps the core procedure, about 58× faster. ``engine="auto"`` takes the fast
path where it can and says why not where it cannot; the outcome of an encounter is the same either way.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

import numpy as np

from d20combat.controllers import TacticalAI, play
from d20combat.dice import SeededDice
from d20combat.encounter.battle import Battle
from d20combat.encounter.engine import Encounter
from d20combat.scenario import battle_from_data
from d20combat.simulation.fast import kernel_base as fast_kernel
from d20combat.simulation.fast.compile import CompiledBattle, NotCompilable, compile_battle
from d20combat.simulation.fast.runner import play_batch, play_fast

Engine = Literal["auto", "fast", "reference"]
ENGINES: tuple[str, ...] = ("auto", "fast", "reference")

Progress = Callable[[int], None]
"""Called with the number of encounters just finished."""
Halt = Callable[[], bool]
"""Asked between encounters (and, on the reference engine, between actions): True stops the run."""


class Halted(Exception):
    """An encounter was stopped by its ``halt`` before it ended (it counts for nothing)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """One encounter's result, in the battle's fixed combatant order."""

    winner: str | None
    timeout: bool
    rounds: int
    attacks: int
    dealt: tuple[int, ...]
    taken: tuple[int, ...]
    downed: tuple[bool, ...]
    killed: tuple[bool, ...]


def encounter_seed(seed: int, index: int) -> int:
    """The dice seed of encounter ``index`` of a run seeded ``seed`` (independent of workers)."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1, dtype=np.uint64)[0])


# numpy's SeedSequence (randutils' seed_seq_fe, pool of four 32-bit words): its hash constants.
_INIT_A, _MULT_A, _INIT_B, _MULT_B = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R, _MASK32 = 0xCA01F9DD, 0x4973F715, 0xFFFFFFFF


def encounter_seeds(seed: int, start: int, stop: int) -> list[int]:
    """``[encounter_seed(seed, i) for i in range(start, stop)]`` — the very same seeds — computed for all the
    encounters at once: ``SeedSequence([seed, i])``'s mixing (its entropy the 32-bit words of ``seed`` then ``i``)
    and ``generate_state(1, uint64)`` over numpy arrays of ``i`` (36 µs an encounter as one SeedSequence each on
    this machine, under 1 µs so). Indices of 2³² and more, or a negative seed, take :func:`encounter_seed`."""
    if seed < 0 or start < 0 or stop > 1 << 32 or stop <= start:
        return [encounter_seed(seed, i) for i in range(start, stop)]
    words = [0] if seed == 0 else []
    rest = seed
    while rest:
        words.append(rest & _MASK32)
        rest >>= 32
    u32 = np.uint32
    with np.errstate(over="ignore"):
        entropy = [np.full(stop - start, w, dtype=u32) for w in words] + [np.arange(start, stop, dtype=u32)]
        const = [u32(_INIT_A)]

        def hashmix(value: Any) -> Any:
            value = value ^ const[0]
            const[0] = u32(int(const[0]) * _MULT_A & _MASK32)
            value = value * const[0]
            return value ^ (value >> u32(16))

        def mix(x: Any, y: Any) -> Any:
            result = u32(_MIX_L) * x - u32(_MIX_R) * y
            return result ^ (result >> u32(16))

        zero = np.zeros(stop - start, dtype=u32)
        pool = [hashmix(entropy[i] if i < len(entropy) else zero) for i in range(4)]
        for i_src in range(4):
            for i_dst in range(4):
                if i_src != i_dst:
                    pool[i_dst] = mix(pool[i_dst], hashmix(pool[i_src]))
        for i_src in range(4, len(entropy)):
            for i_dst in range(4):
                pool[i_dst] = mix(pool[i_dst], hashmix(entropy[i_src]))
        out = []
        h = _INIT_B
        for i_dst in range(2):  # generate_state: two 32-bit words, the first the low half of the uint64
            value = pool[i_dst] ^ u32(h)
            h = h * _MULT_B & _MASK32
            value = value * u32(h)
            out.append((value ^ (value >> u32(16))).astype(np.uint64))
    seeds: list[int] = ((out[1] << np.uint64(32)) | out[0]).tolist()
    return seeds


def play_one(battle: Battle, seed: int, halt: Halt | None = None) -> Outcome:
    enc = play(Encounter(battle, SeededDice(seed)), TacticalAI(), halt=halt)
    s = enc.state
    if halt is not None and not s.ended and halt():
        raise Halted
    ids = list(battle.creatures)
    rs = battle.ruleset
    return Outcome(
        winner=s.winner,
        timeout=s.winner is None and "rounds" in s.end_reason,
        rounds=s.round,
        attacks=s.attacks_made,
        dealt=tuple(s.get(c).damage_dealt for c in ids),
        taken=tuple(s.get(c).damage_taken for c in ids),
        downed=tuple(rs.injury.out_of_fight(battle.creatures[c], s.get(c)) for c in ids),
        killed=tuple(enc.is_dead(c) for c in ids),
    )


def play_one_fast(cb: CompiledBattle, seed: int) -> Outcome:
    """:func:`play_one` on the fast path: the same outcome, computed by the compiled kernel."""
    result = play_fast(cb, seed)
    s, t = result.state, result.scalars
    winner = int(t[fast_kernel.T_WINNER])
    return Outcome(
        winner=cb.sides[winner] if winner >= 0 else None,
        timeout=bool(t[fast_kernel.T_TIMEOUT]),
        rounds=int(t[fast_kernel.T_ROUND]),
        attacks=int(t[fast_kernel.T_ATTACKS]),
        dealt=tuple(int(x) for x in s[:, fast_kernel.DEALT]),
        taken=tuple(int(x) for x in s[:, fast_kernel.TAKEN]),
        downed=tuple(bool(x) for x in s[:, fast_kernel.DOWN]),  # the injury component's out of the fight
        killed=tuple(bool(x) for x in s[:, fast_kernel.DEAD]),
    )


def play_many_fast(cb: CompiledBattle, seeds: Sequence[int]) -> list[Outcome]:
    """:func:`play_one_fast` for each seed, the kernel called once for them all (:func:`.fast.runner.play_batch`)."""
    out_s, out_t = play_batch(cb, seeds)
    sides = cb.sides
    outcomes = []
    for per, (winner, timeout, rounds, attacks, _, _) in zip(out_s.tolist(), out_t.tolist(), strict=True):
        dealt, taken, downed, killed = zip(*per, strict=True)
        outcomes.append(Outcome(winner=sides[winner] if winner >= 0 else None, timeout=bool(timeout), rounds=rounds,
                                attacks=attacks, dealt=dealt, taken=taken, downed=tuple(bool(x) for x in downed),
                                killed=tuple(bool(x) for x in killed)))
    return outcomes


@lru_cache(maxsize=8)
def _battle(scenario_json: str, ruleset: str | None) -> Battle:
    """Compile the scenario once per process (workers keep it between chunks)."""
    return battle_from_data(json.loads(scenario_json), "scenario", ruleset)


@lru_cache(maxsize=8)
def _compiled(scenario_json: str, ruleset: str | None) -> CompiledBattle | str:
    """The fast path's tables for the scenario, or why it cannot replay it."""
    try:
        return compile_battle(_battle(scenario_json, ruleset))
    except NotCompilable as exc:
        return str(exc)


def engine_for(scenario: Mapping[str, Any], ruleset: str | None = None, engine: str = "auto") -> tuple[str, str]:
    """Which engine plays the scenario ("fast" or "reference") and why; raises ``ValueError`` when the
    fast path is demanded but cannot replay it."""
    if engine not in ENGINES:
        raise ValueError(f"engine {engine!r}: use one of {', '.join(ENGINES)}")
    if engine == "reference":
        return "reference", "asked for"
    compiled = _compiled(json.dumps(scenario, sort_keys=True), ruleset)
    if isinstance(compiled, str):
        if engine == "fast":
            raise ValueError(f"the fast path cannot play this scenario: {compiled}")
        return "reference", compiled
    return "fast", "the ruleset keeps the core procedure"


def run_chunk(scenario_json: str, ruleset: str | None, seed: int, start: int, stop: int,
              engine: str = "auto", halt: Halt | None = None) -> list[Outcome]:
    """Play encounters ``start..stop-1`` (a picklable top-level function for pools and Dask); ``halt``
    (reference engine) may stop an encounter between actions: :class:`Halted`."""
    compiled = _compiled(scenario_json, ruleset) if engine != "reference" else "asked for"
    if isinstance(compiled, CompiledBattle):
        return play_many_fast(compiled, encounter_seeds(seed, start, stop))
    if engine == "fast":
        raise ValueError(f"the fast path cannot play this scenario: {compiled}")
    battle = _battle(scenario_json, ruleset)
    return [play_one(battle, encounter_seed(seed, i), halt) for i in range(start, stop)]


def _chunks(n: int, workers: int) -> list[tuple[int, int]]:
    size = max(1, min(50, -(-n // max(workers * 8, 1))))
    return [(i, min(i + size, n)) for i in range(0, n, size)]


def simulate_outcomes(
    scenario: Mapping[str, Any],
    n: int,
    *,
    seed: int = 0,
    workers: int = 1,
    dask: str | None = None,
    ruleset: str | None = None,
    progress: Progress | None = None,
    engine: str = "auto",
    halt: Halt | None = None,
) -> list[Outcome]:
    """Play ``n`` encounters; outcomes come back in encounter order whatever ran them.

    ``dask``: a scheduler address, or ``"local"`` for a ``LocalCluster`` of ``workers`` processes.
    ``engine``: ``"auto"`` (the fast path where it can replay the scenario), ``"fast"`` or ``"reference"``.
    ``halt`` (in this process only: one worker, no Dask): asked before each encounter and, on the reference
    engine, between actions; once it says True the encounters finished so far come back (fewer than ``n``,
    always encounters ``0..k-1``, so the same seed gives the same outcomes).
    The first fast-path run on a machine compiles the kernel (a few minutes, then cached on disk): that is
    announced once per process, "compiling the fast path (first run only, …)…", with a progress line every
    20 s (:func:`d20combat.simulation.fast.jit.progress`), as a logging warning on
    ``d20combat.simulation.fast`` (Python prints it on stderr when logging is not set up) or to the
    callback given to :func:`d20combat.simulation.fast.jit.on_compile`; ``python -m
    d20combat.simulation.fast.warm`` compiles it ahead of time.
    """
    if n < 1:
        raise ValueError(f"the number of encounters must be at least 1, got {n}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    scenario_json = json.dumps(scenario, sort_keys=True)
    _battle(scenario_json, ruleset)  # fail fast, in the caller, on a bad scenario
    if engine_for(scenario, ruleset, engine)[0] == "fast":
        # Compile (or load) the kernel here once, so workers load it from numba's disk cache (a compilation
        # is announced by jit's numba:compile listener, once per process).
        run_chunk(scenario_json, ruleset, seed, 0, 1, engine)
    if halt is not None:
        if dask is not None or workers != 1:
            raise ValueError("halt works in this process only: one worker, no Dask")
        return _run_halting(scenario_json, ruleset, seed, n, engine, halt, progress)
    chunks = _chunks(n, workers)
    results: dict[int, list[Outcome]] = {}
    if dask is not None:
        results = _run_dask(scenario_json, ruleset, seed, chunks, workers, dask, progress, engine)
    elif workers == 1:
        for k, (a, b) in enumerate(chunks):
            results[k] = run_chunk(scenario_json, ruleset, seed, a, b, engine)
            if progress:
                progress(b - a)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(run_chunk, scenario_json, ruleset, seed, a, b, engine): k
                       for k, (a, b) in enumerate(chunks)}
            for fut in as_completed(futures):
                k = futures[fut]
                results[k] = fut.result()
                if progress:
                    progress(len(results[k]))
    return [o for k in range(len(chunks)) for o in results[k]]


def _run_halting(scenario_json: str, ruleset: str | None, seed: int, n: int, engine: str, halt: Halt,
                 progress: Progress | None) -> list[Outcome]:
    """One encounter at a time, asking ``halt`` before each (and between actions on the reference engine)."""
    played: list[Outcome] = []
    for i in range(n):
        if halt():
            break
        try:
            played += run_chunk(scenario_json, ruleset, seed, i, i + 1, engine, halt)
        except Halted:
            break
        if progress:
            progress(1)
    return played


def _run_dask(scenario_json: str, ruleset: str | None, seed: int, chunks: Sequence[tuple[int, int]], workers: int,
              address: str, progress: Progress | None, engine: str = "auto") -> dict[int, list[Outcome]]:
    from dask.distributed import Client, LocalCluster
    from dask.distributed import as_completed as dask_completed

    cluster = None
    if address == "local":
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(address)
    try:
        futures = [client.submit(run_chunk, scenario_json, ruleset, seed, a, b, engine, pure=False) for a, b in chunks]
        index = {f.key: k for k, f in enumerate(futures)}
        results: dict[int, list[Outcome]] = {}
        for fut in dask_completed(futures):
            k = index[fut.key]
            results[k] = fut.result()
            if progress:
                progress(len(results[k]))
        return results
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def combatant_ids(scenario: Mapping[str, Any], ruleset: str | None = None) -> list[str]:
    return list(_battle(json.dumps(scenario, sort_keys=True), ruleset).creatures)


def sides_of(scenario: Mapping[str, Any], ruleset: str | None = None) -> dict[str, str]:
    battle = _battle(json.dumps(scenario, sort_keys=True), ruleset)
    return {cid: c.side for cid, c in battle.creatures.items()}
