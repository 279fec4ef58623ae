"""Benchmark: exact single-attack odds (build the profile + evaluate with icepool), warm.

Prints the median of several runs (ms per evaluation) and its ratio against a baseline measured in
the same run: the closed-form hit probability ``(21 + bonus − AC) / 20`` clamped to 1..19 faces,
i.e. what a designer would otherwise compute by hand. Target: ≤ 5 ms per exact evaluation.

- flags, cached:   profile_from_numbers + attack_odds + mean + percentiles, distributions cached on data
- flags, uncached: the same with the distribution caches cleared before each evaluation (icepool's own
                   caches stay warm), i.e. the full exact computation
- scenario pair:   profile_from_encounter (plan_attack, target_ac, ruleset policies) + attack_odds,
                   caches cleared

    python benchmarks/bench_odds.py [--runs 7] [--n 200]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from d20combat.dice import SeededDice
from d20combat.encounter.engine import Encounter
from d20combat.odds import attack_odds, clear_caches, profile_from_encounter, profile_from_numbers
from d20combat.scenario import load_battle

ROOT = Path(__file__).resolve().parent.parent
TARGET_MS = 5.0


def closed_form(bonus: int, ac: int) -> float:
    faces = min(max(21 + bonus - ac, 1), 19)
    return faces / 20


def median_ms(job: Callable[[int], object], runs: int, n: int) -> tuple[float, float, float]:
    job(0)  # warm: imports, icepool's internal caches
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        for i in range(n):
            job(i)
        times.append((time.perf_counter() - t0) * 1000 / n)
    return statistics.median(times), min(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--n", type=int, default=200)
    args = parser.parse_args()

    def flags_cached(i: int) -> object:
        odds = attack_odds(profile_from_numbers(8, 18, "1d8+5", crit="19-20/x2", concealment=20))
        return odds.mean, odds.percentiles

    def flags_uncached(i: int) -> object:
        clear_caches()
        return flags_cached(i)

    enc = Encounter(load_battle(ROOT / "examples" / "odds-duel.yaml"), SeededDice(0))

    def scenario(i: int) -> object:
        clear_caches()
        odds = attack_odds(profile_from_encounter(enc, "archer", "valeros"))
        return odds.mean, odds.percentiles

    def baseline(i: int) -> object:
        return closed_form(8 + i % 3, 18)

    base, _, _ = median_ms(baseline, args.runs, args.n * 50)
    print(f"exact single-attack odds, warm, 1 core ({args.runs} runs × {args.n} evaluations); target ≤ {TARGET_MS} ms")
    print(f"  baseline: closed-form hit probability   median {base * 1000:9.3f} µs")
    for name, job in (("flags, cached", flags_cached), ("flags, uncached", flags_uncached),
                      ("scenario pair, uncached", scenario)):
        med, lo, hi = median_ms(job, args.runs, args.n)
        verdict = "ok" if med <= TARGET_MS else "OVER TARGET"
        print(f"  {name:<24} median {med:8.3f} ms  (min {lo:.3f}, max {hi:.3f})  "
              f"= {med / base:,.0f}× baseline  [{verdict}]")


if __name__ == "__main__":
    main()
