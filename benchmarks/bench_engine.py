"""Benchmark: the demo encounter played by the AI to the end, and a single attack.

Prints medians of several runs and ratios against baselines measured in the same run:
- encounters: full AI play vs re-applying the same event logs (the cost of deciding and resolving
  over the bare event-sourcing cost);
- single attack: the engine's explained attack (plan + roll + apply) vs a bare ``d20 + bonus >= AC``.
  ``undo`` restores the very same state object, and attack plans are memoized per state object, so the
  attack is timed with the plan cache cleared before every iteration (each attack plans from scratch,
  as the first attack on a new state does); the memoized figure (plan reused) is printed beside it.

    python benchmarks/bench_engine.py [--runs 5] [--encounters 20]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from d20combat.controllers import TacticalAI, play
from d20combat.dice import SeededDice
from d20combat.encounter import actions as ax
from d20combat.encounter.apply import apply
from d20combat.encounter.engine import Encounter
from d20combat.scenario import battle_from_data, load_battle

ROOT = Path(__file__).resolve().parent.parent


def bench_encounters(runs: int, n: int) -> None:
    battle = load_battle(ROOT / "examples" / "goblin-ambush.yaml")
    rates, attack_rates, replay_rates = [], [], []
    for run in range(runs):
        logs = []
        attacks = 0
        t0 = time.perf_counter()
        for i in range(n):
            enc = play(Encounter(battle, SeededDice(run * 1000 + i)), TacticalAI())
            attacks += enc.state.attacks_made
            logs.append((enc.initial, enc.log))
        dt = time.perf_counter() - t0
        rates.append(n / dt)
        attack_rates.append(attacks / dt)
        t0 = time.perf_counter()
        for initial, log in logs:
            state = initial
            for event in log:
                state = apply(state, event)
        replay_rates.append(n / (time.perf_counter() - t0))
    play_med, replay_med = statistics.median(rates), statistics.median(replay_rates)
    print(f"demo encounter, AI both sides, 1 core ({runs} runs × {n} encounters):")
    print(f"  encounters/s  median {play_med:8.1f}   (min {min(rates):.1f}, max {max(rates):.1f})")
    print(f"  attacks/s     median {statistics.median(attack_rates):8.1f}")
    print(f"  baseline: replaying the same logs {replay_med:8.1f} encounters/s "
          f"→ play costs {replay_med / play_med:.1f}× the bare event application")


def bench_attack(runs: int, n: int) -> None:
    data = {
        "map": {"width": 10, "height": 10},
        "combatants": [
            {"id": "f", "side": "a", "stats": "fighter", "position": [1, 1], "initiative": 20},
            {"id": "o", "side": "b", "stats": "ogre", "position": [2, 1], "initiative": 1},
        ],
        "surprise": {"surprised": []},
    }
    battle = battle_from_data(data)
    enc = Encounter(battle, SeededDice(1))
    enc.start()
    attack = ax.Attack("o", "longsword")

    def attacks(n: int, fresh_plan: bool) -> float:
        t0 = time.perf_counter()
        for _ in range(n):
            if fresh_plan:
                enc._plan_state = None  # forget the plans memoized for this state: plan from scratch
            enc.act(attack)
            enc.undo()
        enc._redo.clear()
        return n / (time.perf_counter() - t0)

    cold_rates, warm_rates, base_rates = [], [], []
    for _ in range(runs):
        cold_rates.append(attacks(n, True))
        warm_rates.append(attacks(n, False))
        rng = random.Random(1)
        hits = 0
        t0 = time.perf_counter()
        for _ in range(n):
            hits += rng.randint(1, 20) + 5 >= 16
        base_rates.append(n / (time.perf_counter() - t0))
    e, w, b = statistics.median(cold_rates), statistics.median(warm_rates), statistics.median(base_rates)
    print(f"single attack (plan + validate + roll + explain + apply, then undo), {runs} runs × {n}; the plan cache "
          "is cleared before every attack (undo returns the same state object, whose plans are memoized):")
    print(f"  attacks/s     median {e:10.1f}")
    print(f"  (with the plan memoized across iterations, as a reused state allows: {w:10.1f}/s — not the figure)")
    print(f"  baseline: bare d20 + bonus >= AC {b:10.1f}/s → the explained engine attack costs {b / e:.0f}×")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--encounters", type=int, default=20)
    parser.add_argument("--attacks", type=int, default=2000)
    args = parser.parse_args()
    bench_encounters(args.runs, args.encounters)
    bench_attack(args.runs, args.attacks)


if __name__ == "__main__":
    main()
