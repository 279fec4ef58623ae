"""Benchmark the designers' lab: whole encounters with 1 and 2 workers, and 100,000 vectorized attacks.

Prints medians of several runs and ratios measured in the same run:
- the demo encounter, AI on both sides, to the end: encounters/s and attacks/s with 1 and 2 worker
  processes, reference engine vs the compiled fast path, end to end through ``simulate_outcomes``
  (process pool start-up included; target: >= 1,000 encounters/s with 2 workers, >= 1.8x from 1 to 2
  workers);
- 100,000 attacks (threat, confirmation, damage) with the vectorized fast path vs pathfinder2e_stats'
  check() + damage() on the same inputs (target: >= 3x faster). pathfinder2e_stats is optional:
  pip install -e '.[bench]'.

    python benchmarks/bench_simulation.py [--runs 3] [--encounters 100] [--fast-encounters 10000]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np

from d20combat.dice import SeededDice
from d20combat.encounter.engine import Encounter
from d20combat.scenario import battle_from_data, read_scenario_data
from d20combat.simulation import simulate_outcomes
from d20combat.simulation.vectorized import compile_attack, resolve_batch

ROOT = Path(__file__).resolve().parent.parent


def _rates(data: dict[str, object], n: int, runs: int, engine: str) -> dict[int, tuple[float, float]]:
    """Median (encounters/s, attacks/s) per worker count."""
    rates: dict[int, list[float]] = {1: [], 2: []}
    attack_rates: dict[int, list[float]] = {1: [], 2: []}
    simulate_outcomes(data, 2, seed=99, engine=engine)  # compile / load the kernel outside the timing
    for run in range(runs):
        for workers in (1, 2):
            t0 = time.perf_counter()
            outcomes = simulate_outcomes(data, n, seed=run, workers=workers, engine=engine)
            dt = time.perf_counter() - t0
            rates[workers].append(n / dt)
            attack_rates[workers].append(sum(o.attacks for o in outcomes) / dt)
    return {w: (statistics.median(rates[w]), statistics.median(attack_rates[w])) for w in (1, 2)}


def bench_encounters(runs: int, n_reference: int, n_fast: int) -> None:
    data = read_scenario_data(ROOT / "examples" / "goblin-ambush.yaml")
    reference = _rates(data, n_reference, runs, "reference")
    fast = _rates(data, n_fast, runs, "fast")
    print(f"demo encounter, AI both sides, end to end ({runs} runs; reference {n_reference}, fast path "
          f"{n_fast} encounters per run):")
    for name, rates in (("reference engine", reference), ("fast path", fast)):
        for w in (1, 2):
            print(f"  {name:16s} {w} worker(s): {rates[w][0]:9.1f} encounters/s, {rates[w][1]:10.1f} attacks/s")
        print(f"  {name:16s} speed-up 1 → 2 workers: {rates[2][0] / rates[1][0]:.2f}× (target ≥ 1.8×)")
    for w in (1, 2):
        print(f"  fast path vs reference, {w} worker(s): {fast[w][0] / reference[w][0]:.0f}×")
    print(f"  fast path, 2 workers vs the 1,000 encounters/s target: {fast[2][0] / 1000:.2f}×")


def bench_attacks(runs: int, n: int) -> None:
    enc = Encounter(battle_from_data({
        "map": {"width": 8, "height": 8}, "surprise": {"surprised": []},
        "combatants": [{"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1], "initiative": 20},
                       {"id": "o", "side": "monsters", "stats": "ogre", "position": [2, 1], "initiative": 1}],
    }), SeededDice(1))
    enc.start()
    plan = enc.plan_attack("f", "o")
    ac, _ = enc.target_ac(plan, enc.state)
    bonus = sum(m.value for m in plan.modifiers)
    compiled = compile_attack(enc.ruleset, enc.creature("f"), plan.option, bonus, ac)
    rng = np.random.default_rng(1)
    resolve_batch(compiled, n, rng)  # warm
    ours = []
    for _ in range(runs):
        t0 = time.perf_counter()
        resolve_batch(compiled, n, rng)
        ours.append(time.perf_counter() - t0)
    ours_med = statistics.median(ours)
    print(f"{n:,} attacks (threat, confirmation, damage), {runs} runs:")
    print(f"  vectorized fast path: {ours_med * 1000:8.2f} ms  ({n / ours_med / 1e6:.1f} M attacks/s)")
    try:
        import pathfinder2e_stats as pf
    except ImportError:
        print("  pathfinder2e_stats not installed (pip install -e '.[bench]'): no comparison")
        return
    pf.set_config(roll_size=n)
    spec = pf.Damage("slashing", compiled.dice_count, compiled.dice_sides, compiled.static)
    pf.damage(pf.check(bonus, DC=ac), spec)  # warm
    theirs = []
    for _ in range(runs):
        t0 = time.perf_counter()
        pf.damage(pf.check(bonus, DC=ac), spec)
        theirs.append(time.perf_counter() - t0)
    theirs_med = statistics.median(theirs)
    print(f"  pathfinder2e_stats check() + damage(): {theirs_med * 1000:8.2f} ms")
    print(f"  → the fast path is {theirs_med / ours_med:.1f}× faster (target ≥ 3×)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--encounters", type=int, default=100, help="per run, reference engine")
    parser.add_argument("--fast-encounters", type=int, default=10_000, help="per run, fast path")
    parser.add_argument("--attacks", type=int, default=100_000)
    args = parser.parse_args()
    bench_attacks(max(args.runs, 5), args.attacks)
    bench_encounters(args.runs, args.encounters, args.fast_encounters)


if __name__ == "__main__":
    main()
