"""Compare the reference engine of two commits in one run (interleaved, same machine, same load).

    python benchmarks/bench_compare.py BASE [HEAD] [--runs 25] [--encounters 10] [--example NAME …]
    python benchmarks/bench_compare.py HEAD HEAD --slowdown 0.05   # calibration: can it see a 5 % change?

Each revision is checked out into a temporary git worktree (a directory holding a ``src/d20combat`` tree is
used as it is); each run plays ``--encounters`` AI battles of an
example in a subprocess with that revision's ``src`` on the path and reports **CPU seconds** per encounter
(``time.process_time``, so a busy shared machine distorts it little). Runs alternate between the revisions
(the order flipping each round), and each pair of neighbouring runs gives one HEAD/BASE ratio: the verdict
is the median of those paired ratios with its interquartile range and a distribution-free 95 % confidence
interval of the median (order statistics): a difference is resolved when that interval excludes 1.00. With
the paired ratios' spread on this machine (IQR about ±3 %), 25 runs give an interval of about ±2 %, enough
to tell a 5 % change; ``--slowdown 0.05`` checks it — HEAD's probe then burns 5 % more CPU per encounter, so
``HEAD HEAD --slowdown 0.05`` must report +5 % with an interval excluding 0. Examples default to one per
ruleset (goblin-ambush for PFB, off-guard-ambush, skill-duel).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROBE = """
import sys, time
from d20combat.controllers import TacticalAI, play
from d20combat.dice import SeededDice
from d20combat.encounter.engine import Encounter
from d20combat.scenario import load_battle
battle = load_battle(sys.argv[1])
n = int(sys.argv[2])
slowdown = float(sys.argv[3])
play(Encounter(battle, SeededDice(10**6)), TacticalAI())  # warm: imports, data caches
t0 = time.process_time()
for i in range(n):
    t1 = time.process_time()
    play(Encounter(battle, SeededDice(i)), TacticalAI())
    spin = time.process_time() + slowdown * (time.process_time() - t1)
    while time.process_time() < spin:  # a known extra cost, to calibrate the comparison
        pass
print((time.process_time() - t0) / n)
"""
EXAMPLES = ("goblin-ambush", "off-guard-ambush", "skill-duel")


def cpu_per_encounter(src: Path, example: str, n: int, slowdown: float = 0.0) -> float:
    env = {"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/tmp")}
    out = subprocess.run([sys.executable, "-c", PROBE, str(ROOT / "examples" / f"{example}.yaml"), str(n),
                          str(slowdown)],
                         env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def quartiles(values: list[float]) -> tuple[float, float, float]:
    q = statistics.quantiles(values, n=4, method="inclusive")
    return q[0], statistics.median(values), q[2]


def median_interval(values: list[float]) -> tuple[float, float]:
    """A distribution-free ~95 % confidence interval of the median: the order statistics ``k`` and ``n - 1 - k``
    with ``k = (n - 1.96 √n) / 2`` (the binomial's normal approximation)."""
    ordered = sorted(values)
    k = max(0, math.floor((len(ordered) - 1.96 * math.sqrt(len(ordered))) / 2))
    return ordered[k], ordered[len(ordered) - 1 - k]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("head", nargs="?", default="HEAD")
    parser.add_argument("--runs", type=int, default=25)
    parser.add_argument("--encounters", type=int, default=10)
    parser.add_argument("--example", action="append", help="an example name (repeatable); default: one per ruleset")
    parser.add_argument("--slowdown", type=float, default=0.0,
                        help="extra CPU fraction burnt by HEAD's probe (calibration: HEAD HEAD --slowdown 0.05)")
    args = parser.parse_args()
    same = args.base == args.head
    if same and not args.slowdown:
        parser.error("BASE and HEAD are the same revision: add --slowdown to calibrate")
    head = f"{args.head}+{args.slowdown:.0%}" if same else args.head
    examples = args.example or list(EXAMPLES)
    print(f"load average at start: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        trees = {}
        for name in dict.fromkeys((args.base, args.head)):
            if (Path(name) / "src" / "d20combat").is_dir():  # a directory holding a tree: used as it is
                trees[name] = Path(name).resolve() / "src"
                continue
            tree = Path(tmp) / name.replace("/", "_")
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), name], check=True,
                           capture_output=True)
            trees[name] = tree / "src"
        try:
            for example in examples:
                runs = {args.base: (trees[args.base], 0.0), head: (trees[args.head], args.slowdown)}
                cpu: dict[str, list[float]] = {args.base: [], head: []}
                ratios: list[float] = []
                for run in range(args.runs):
                    order = (args.base, head) if run % 2 == 0 else (head, args.base)
                    got = {name: cpu_per_encounter(runs[name][0], example, args.encounters, runs[name][1])
                           for name in order}
                    for name, value in got.items():
                        cpu[name].append(value)
                    ratios.append(got[head] / got[args.base])
                base_cpu, head_cpu = statistics.median(cpu[args.base]), statistics.median(cpu[head])
                lo, med, hi = quartiles(ratios)
                ci_lo, ci_hi = median_interval(ratios)
                verdict = ("resolved: the interval excludes 1.000" if ci_lo > 1 or ci_hi < 1
                           else "not resolved: the interval includes 1.000")
                print(f"{example}: {args.runs} interleaved runs × {args.encounters} encounters, CPU time per encounter")
                print(f"  {args.base:<12} {base_cpu * 1000:8.2f} ms  ({1 / base_cpu:6.2f} encounters per CPU-second)")
                print(f"  {head:<12} {head_cpu * 1000:8.2f} ms  ({1 / head_cpu:6.2f} encounters per CPU-second)")
                print(f"  paired CPU-time ratio {head} / {args.base}: median {med:.3f} (IQR {lo:.3f} – {hi:.3f}; "
                      f"95 % interval of the median {ci_lo:.3f} – {ci_hi:.3f}, ±{(ci_hi - ci_lo) / 2 * 100:.1f} %); "
                      f"{(med - 1) * 100:+.1f} % time — {verdict}")
        finally:
            for name in trees:
                if Path(name).is_dir():
                    continue
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(trees[name].parent)],
                               check=False, capture_output=True)
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
