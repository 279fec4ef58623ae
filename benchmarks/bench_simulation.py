"""Benchmark the designers' lab: every example under every ruleset on both engines, 1 → 2 workers, and
100,000 vectorized attacks.

- encounters per **CPU-second** (``time.process_time``, so the machine's other load distorts it little), per
  example of every ruleset (and the demo under ``--ruleset off-guard`` / ``skill-based`` / ``epic-path``, and
  four examples under off-guard, its reaction attacks on, with only the starting conditions the kernel plays —
  "off-guard, kernel's conditions": blur, concealed:N and panicked kept, the rest dropped): the reference
  engine and the compiled fast path play the very same encounters (same seeds, same number), interleaved
  run by run, in this process; where the fast path refuses a battle it prints the components it lacks;
- 1 → 2 worker processes end to end through ``simulate_outcomes`` (pool start-up included): wall-clock
  encounters/s **and CPU time per encounter** in each (the pool's children measured by
  ``resource.getrusage(RUSAGE_CHILDREN)``), so the scaling can be judged on a loaded machine: if the CPU
  per encounter stays put while the wall-clock speed-up falls short of 2×, the other CPU was busy;
- 100,000 attacks (threat, confirmation, damage) with the vectorized fast path vs pathfinder2e_stats'
  check() + damage() on the same inputs (target: >= 3x faster; pip install -e '.[bench]').

The load average is printed at the start and the end.

    python benchmarks/bench_simulation.py [--runs 5] [--encounters 20] [--worker-encounters 4000]
        [--only examples] [--case 'goblin-ambush off-guard']
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np

from d20combat.dice import SeededDice
from d20combat.encounter.engine import Encounter
from d20combat.rulesets.off_guard.conditions import parse_condition
from d20combat.scenario import battle_from_data, read_scenario_data
from d20combat.simulation import simulate_outcomes
from d20combat.simulation.fast.compile import NotCompilable, compile_battle, unsupported_components
from d20combat.simulation.fast.starting import PLAYED
from d20combat.simulation.runner import _battle, engine_for, run_chunk
from d20combat.simulation.vectorized import compile_attack, resolve_batch

ROOT = Path(__file__).resolve().parent.parent
CASES: tuple[tuple[str, str | None], ...] = (
    ("goblin-ambush", None), ("odds-duel", None), ("ogre-charge", None),  # pathfinder-beginner
    ("off-guard-ambush", None), ("skill-duel", None),
    ("goblin-ambush", "off-guard"), ("goblin-ambush", "skill-based"), ("goblin-ambush", "epic-path"),
    ("epic-path-long-fight", None), ("epic-path-splash", None),
    ("woa-warband", None), ("woa-caster-duel", None),  # worlds-of-adventure (reference engine only so far)
)
OFF_GUARD_FAST: tuple[str, ...] = ("off-guard-ambush", "goblin-ambush", "ogre-charge", "odds-duel")
"""Examples also played under off-guard with its default options (reaction attacks on) with only the starting
conditions the kernel plays (blur, concealed:N, panicked; it refuses the others, e.g. frightened), so the fast path's
off-guard figure stands beside the reference's."""


def off_guard_fast(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` under off-guard (default options: reaction attacks on), only the starting conditions the kernel
    plays kept (blur, concealed:N, panicked — the misty ford's Grukk keeps his blur, its coward its panic)."""
    def played(c: dict[str, Any]) -> dict[str, Any]:
        kept = [x for x in c.get("conditions", []) if parse_condition(x)[0] in PLAYED]
        return {**{k: v for k, v in c.items() if k != "conditions"}, **({"conditions": kept} if kept else {})}

    return {**data, "ruleset": "off-guard", "variants": {}, "combatants": [played(c) for c in data["combatants"]]}


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def refusal(data: dict[str, Any], ruleset: str | None) -> str | None:
    """None when the fast path plays the battle, else the components it lacks (or why it cannot)."""
    battle = _battle(json.dumps(data, sort_keys=True), ruleset)
    missing = unsupported_components(battle.ruleset)
    if missing:
        return ", ".join(m.split(" (")[0] for m in missing)
    try:
        compile_battle(battle)
    except NotCompilable as exc:
        return str(exc)
    return None


def cpu_rate(scenario_json: str, ruleset: str | None, engine: str, run: int, n: int) -> tuple[float, int]:
    """(encounters per CPU-second, attacks) playing encounters 0..n-1 of seed ``run`` in this process."""
    t0 = time.process_time()
    outcomes = run_chunk(scenario_json, ruleset, run, 0, n, engine)
    return n / (time.process_time() - t0), sum(o.attacks for o in outcomes)


def bench_examples(runs: int, n: int, only: str | None = None) -> None:
    print(f"encounters per CPU-second, {runs} interleaved runs × {n} encounters per engine (same seeds; median):")
    print(f"  {'example (ruleset)':<38} {'reference':>10} {'fast path':>10} {'ratio':>7}")
    cases: list[tuple[str, str | None, bool]] = [(e, r, False) for e, r in CASES]
    cases += [(e, None, True) for e in OFF_GUARD_FAST]
    for example, ruleset, variant in cases:
        if only is not None and only not in f"{example} {ruleset} {'variant' if variant else ''}":
            continue
        data = read_scenario_data(ROOT / "examples" / f"{example}.yaml")
        name = f"{example} ({ruleset or data.get('ruleset', 'pathfinder-beginner')})"
        if variant:
            data = off_guard_fast(data)
            name = f"{example} (off-guard, kernel's conditions)"
        scenario_json = json.dumps(data, sort_keys=True)
        refused = refusal(data, ruleset)
        engines = ("reference",) if refused else ("reference", "fast")
        for engine in engines:  # warm: imports, data caches, the kernel loaded from the disk cache
            run_chunk(scenario_json, ruleset, 10**6, 0, 1, engine)
        rates: dict[str, list[float]] = {e: [] for e in engines}
        for run in range(runs):
            for engine in engines if run % 2 == 0 else engines[::-1]:
                rates[engine].append(cpu_rate(scenario_json, ruleset, engine, run, n)[0])
        ref = statistics.median(rates["reference"])
        if refused:
            print(f"  {name:<38} {ref:10.1f}   refused: {refused}")
        else:
            fast = statistics.median(rates["fast"])
            print(f"  {name:<38} {ref:10.1f} {fast:10.0f} {fast / ref:6.0f}×")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def bench_workers(runs: int, n_reference: int, n_fast: int) -> None:
    data = read_scenario_data(ROOT / "examples" / "goblin-ambush.yaml")
    print(f"goblin-ambush end to end through simulate_outcomes, 1 → 2 worker processes ({runs} interleaved runs; "
          "median wall-clock rate; CPU per encounter = this process + its pool's children):")
    for engine, n in (("reference", n_reference), ("fast", n_fast)):
        assert engine_for(data, None, engine)[0] == engine
        simulate_outcomes(data, 2, seed=99, engine=engine)  # load the kernel outside the timing
        wall: dict[int, list[float]] = {1: [], 2: []}
        cpu: dict[int, list[float]] = {1: [], 2: []}
        for run in range(runs):
            for workers in (1, 2) if run % 2 == 0 else (2, 1):
                c0, k0, t0 = time.process_time(), children_cpu(), time.perf_counter()
                simulate_outcomes(data, n, seed=run, workers=workers, engine=engine)
                dt = time.perf_counter() - t0
                wall[workers].append(n / dt)
                cpu[workers].append((time.process_time() - c0 + children_cpu() - k0) / n)
        w1, w2 = statistics.median(wall[1]), statistics.median(wall[2])
        c1, c2 = statistics.median(cpu[1]), statistics.median(cpu[2])
        label = "reference engine" if engine == "reference" else "fast path"
        print(f"  {label} ({n} encounters per run):")
        for workers, w, c in ((1, w1, c1), (2, w2, c2)):
            print(f"    {workers} worker(s): {w:9.1f} encounters/s wall clock, {c * 1000:8.3f} ms CPU per encounter")
        print(f"    speed-up 1 → 2 workers: {w2 / w1:.2f}× wall clock; CPU per encounter ×{c2 / c1:.2f} "
              f"(1.00 = no parallel overhead; ideal wall-clock speed-up on an idle machine {2 * c1 / c2:.2f}×)")


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
        t0 = time.process_time()
        resolve_batch(compiled, n, rng)
        ours.append(time.process_time() - t0)
    ours_med = statistics.median(ours)
    print(f"{n:,} attacks (threat, confirmation, damage), {runs} runs, CPU time:")
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
        t0 = time.process_time()
        pf.damage(pf.check(bonus, DC=ac), spec)
        theirs.append(time.process_time() - t0)
    theirs_med = statistics.median(theirs)
    print(f"  pathfinder2e_stats check() + damage(): {theirs_med * 1000:8.2f} ms")
    print(f"  → the fast path is {theirs_med / ours_med:.1f}× faster (target ≥ 3×)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--encounters", type=int, default=20, help="per run and engine, per example")
    parser.add_argument("--reference-worker-encounters", type=int, default=40, help="per run, 1 → 2 workers")
    parser.add_argument("--worker-encounters", type=int, default=4000, help="per run, fast path, 1 → 2 workers")
    parser.add_argument("--attacks", type=int, default=100_000)
    parser.add_argument("--only", choices=("examples", "workers", "attacks"), help="run one part")
    parser.add_argument("--case", help="examples: only the cases whose 'example ruleset [variant]' contains this "
                        "text (e.g. 'off-guard-ambush', 'goblin-ambush off-guard', 'variant')")
    args = parser.parse_args()
    print(f"load average at start: {load()} ({os.cpu_count()} CPUs)")
    if args.only in (None, "attacks"):
        bench_attacks(max(args.runs, 5), args.attacks)
    if args.only in (None, "examples"):
        bench_examples(args.runs, args.encounters, args.case)
    if args.only in (None, "workers"):
        bench_workers(max(args.runs, 3), args.reference_worker_encounters, args.worker_encounters)
    print(f"load average at end: {load()}")


if __name__ == "__main__":
    main()
