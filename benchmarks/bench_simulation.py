"""Benchmark the designers' lab: whole encounters with 1 and 2 workers, and 100,000 vectorized attacks.

Prints medians of several runs and ratios measured in the same run:
- the demo encounter, AI on both sides, to the end: encounters/s and attacks/s with 1 and 2 worker
  processes (target: >= 1,000 encounters/s with 2 workers, >= 1.8x from 1 to 2 workers);
- 100,000 attacks (threat, confirmation, damage) with the vectorized fast path vs pathfinder2e_stats'
  check() + damage() on the same inputs (target: >= 3x faster). pathfinder2e_stats is optional:
  pip install -e '.[bench]'.

    python benchmarks/bench_simulation.py [--runs 3] [--encounters 200]
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


def bench_encounters(runs: int, n: int) -> None:
    data = read_scenario_data(ROOT / "examples" / "goblin-ambush.yaml")
    rates: dict[int, list[float]] = {1: [], 2: []}
    attack_rates: dict[int, list[float]] = {1: [], 2: []}
    for run in range(runs):
        for workers in (1, 2):
            t0 = time.perf_counter()
            outcomes = simulate_outcomes(data, n, seed=run, workers=workers)
            dt = time.perf_counter() - t0
            rates[workers].append(n / dt)
            attack_rates[workers].append(sum(o.attacks for o in outcomes) / dt)
    one, two = statistics.median(rates[1]), statistics.median(rates[2])
    print(f"demo encounter, AI both sides, reference engine ({runs} runs × {n} encounters):")
    for w in (1, 2):
        print(f"  {w} worker(s): {statistics.median(rates[w]):8.1f} encounters/s, "
              f"{statistics.median(attack_rates[w]):9.1f} attacks/s")
    print(f"  speed-up 1 → 2 workers: {two / one:.2f}× (target ≥ 1.8×); "
          f"2 workers vs the 1,000 encounters/s target: {two / 1000:.3f}×")


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
    parser.add_argument("--encounters", type=int, default=200)
    parser.add_argument("--attacks", type=int, default=100_000)
    args = parser.parse_args()
    bench_attacks(max(args.runs, 5), args.attacks)
    bench_encounters(args.runs, args.encounters)


if __name__ == "__main__":
    main()
