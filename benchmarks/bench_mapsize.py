"""Benchmark the fast path's cost against map size: the same fight on ever larger maps (issue 14, item 3).

Four heroes (fighter, rogue, wizard, cleric) against six goblins (four goblins, two archers) on an open
field, placed in the same spot near the north-west corner on every map, so the fight — every decision,
every die — is the same on 20×20, 50×50, 100×100 and 200×200; only the map around it grows. Nobody moves
farther on a larger map, so the encounters per CPU-second should not fall with the map's area (target:
100×100 within 1.3× of 20×20).

Measured in CPU time (``time.process_time``) of this one process, the fast path alone (``play_fast``: the
set-up in Python, then the kernel), the battle compiled once per size outside the timing. The sizes are
interleaved round by round (so load from other processes spreads over all of them), and the median of the
rounds is reported with its ratio to 20×20. The first call compiles the kernel (or loads it from the disk
cache): that warm-up is done, and timed, before the rounds.

    python benchmarks/bench_mapsize.py [--rounds 5] [--encounters 400] [--sizes 20 50 100 200]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

from d20combat.scenario import battle_from_data
from d20combat.simulation import encounter_seed
from d20combat.simulation.fast.compile import CompiledBattle, compile_battle
from d20combat.simulation.fast.kernel_base import T_ROUND, T_WINNER
from d20combat.simulation.fast.runner import play_fast

HEROES = (("valeros", "fighter", (4, 14)), ("merisiel", "rogue", (6, 14)), ("ezren", "wizard", (3, 15)),
          ("kyra", "cleric", (5, 15)))
GOBLINS = (("g1", "goblin", (10, 5)), ("g2", "goblin", (12, 5)), ("g3", "goblin", (14, 4)),
           ("g4", "goblin", (11, 3)), ("a1", "goblin-archer", (15, 2)), ("a2", "goblin-archer", (16, 7)))


def scenario(size: int) -> dict[str, Any]:
    """The 4v6 fight on an open ``size``×``size`` map (the creatures always within the 20×20 corner)."""
    combatants = [{"id": cid, "side": "heroes", "stats": stats, "position": list(pos)} for cid, stats, pos in HEROES]
    combatants += [{"id": cid, "side": "goblins", "stats": stats, "position": list(pos)} for cid, stats, pos in GOBLINS]
    return {"ruleset": "pathfinder-beginner", "map": {"width": size, "height": size}, "combatants": combatants}


def play_many(cb: CompiledBattle, n: int, first_seed: int = 0) -> tuple[float, list[tuple[int, int]]]:
    """CPU seconds for ``n`` encounters (seeds ``encounter_seed(1, first_seed + i)``), and (winner, rounds)."""
    results = []
    t0 = time.process_time()
    for i in range(n):
        r = play_fast(cb, encounter_seed(1, first_seed + i))
        results.append((int(r.scalars[T_WINNER]), int(r.scalars[T_ROUND])))
    return time.process_time() - t0, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--encounters", type=int, default=400, help="per size and round")
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 50, 100, 200])
    args = parser.parse_args()
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    compiled = {size: compile_battle(battle_from_data(scenario(size), "scenario", None)) for size in args.sizes}
    t0 = time.perf_counter()
    play_many(compiled[args.sizes[0]], 1)
    print(f"warm-up (compiling the kernel, or loading it from the disk cache): {time.perf_counter() - t0:.1f} s")
    outcomes = {}
    for size in args.sizes:  # one untimed pass each (first-touch costs), and the fight is the same on every map
        _, outcomes[size] = play_many(compiled[size], 20)
    same = all(outcomes[size] == outcomes[args.sizes[0]] for size in args.sizes)
    print(f"same outcomes (winner, rounds) on every map size, 20 seeds: {same}")
    rates: dict[int, list[float]] = {size: [] for size in args.sizes}
    for rnd in range(args.rounds):
        for size in args.sizes:
            dt, _ = play_many(compiled[size], args.encounters, first_seed=rnd * args.encounters)
            rates[size].append(args.encounters / dt)
    base = statistics.median(rates[args.sizes[0]])
    print(f"4 heroes vs 6 goblins, open field, fast path, {args.rounds} interleaved rounds × {args.encounters} "
          f"encounters per size; encounters per CPU-second (median), and 20×20's rate over this size's:")
    for size in args.sizes:
        med = statistics.median(rates[size])
        spread = f"{min(rates[size]):7.0f}–{max(rates[size]):<7.0f}"
        print(f"  {size:3d}×{size:<3d}  {med:8.0f} enc/CPU-s   (rounds {spread})   slowdown {base / med:5.2f}×")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
