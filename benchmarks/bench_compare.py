"""Compare the reference engine of two commits in one run (interleaved, same machine, same load).

    python benchmarks/bench_compare.py BASE [HEAD] [--runs 15] [--encounters 10] [--example NAME …]

Each revision is checked out into a temporary git worktree; each run plays ``--encounters`` AI battles of an
example in a subprocess with that revision's ``src`` on the path and reports **CPU seconds** per encounter
(``time.process_time``, so a busy shared machine distorts it little). Runs alternate between the revisions
(the order flipping each round), and each pair of neighbouring runs gives one HEAD/BASE ratio: the verdict
is the median of those paired ratios with its interquartile range, which resolves a few per cent. Examples
default to one per ruleset (goblin-ambush for PFB, off-guard-ambush, skill-duel).
"""

from __future__ import annotations

import argparse
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
play(Encounter(battle, SeededDice(10**6)), TacticalAI())  # warm: imports, data caches
t0 = time.process_time()
for i in range(n):
    play(Encounter(battle, SeededDice(i)), TacticalAI())
print((time.process_time() - t0) / n)
"""
EXAMPLES = ("goblin-ambush", "off-guard-ambush", "skill-duel")


def cpu_per_encounter(src: Path, example: str, n: int) -> float:
    env = {"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/tmp")}
    out = subprocess.run([sys.executable, "-c", PROBE, str(ROOT / "examples" / f"{example}.yaml"), str(n)],
                         env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def quartiles(values: list[float]) -> tuple[float, float, float]:
    q = statistics.quantiles(values, n=4, method="inclusive")
    return q[0], statistics.median(values), q[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("head", nargs="?", default="HEAD")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--encounters", type=int, default=10)
    parser.add_argument("--example", action="append", help="an example name (repeatable); default: one per ruleset")
    args = parser.parse_args()
    examples = args.example or list(EXAMPLES)
    print(f"load average at start: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        trees = {}
        for name in (args.base, args.head):
            tree = Path(tmp) / name.replace("/", "_")
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), name], check=True,
                           capture_output=True)
            trees[name] = tree / "src"
        try:
            for example in examples:
                cpu: dict[str, list[float]] = {args.base: [], args.head: []}
                ratios: list[float] = []
                for run in range(args.runs):
                    order = (args.base, args.head) if run % 2 == 0 else (args.head, args.base)
                    got = {name: cpu_per_encounter(trees[name], example, args.encounters) for name in order}
                    for name, value in got.items():
                        cpu[name].append(value)
                    ratios.append(got[args.head] / got[args.base])
                base, head = statistics.median(cpu[args.base]), statistics.median(cpu[args.head])
                lo, med, hi = quartiles(ratios)
                print(f"{example}: {args.runs} interleaved runs × {args.encounters} encounters, CPU time per encounter")
                print(f"  {args.base:<12} {base * 1000:8.2f} ms  ({1 / base:6.2f} encounters per CPU-second)")
                print(f"  {args.head:<12} {head * 1000:8.2f} ms  ({1 / head:6.2f} encounters per CPU-second)")
                print(f"  paired CPU-time ratio {args.head} / {args.base}: median {med:.3f} "
                      f"(IQR {lo:.3f} – {hi:.3f}); {(med - 1) * 100:+.1f} % time")
        finally:
            for name in trees:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(trees[name].parent)],
                               check=False, capture_output=True)
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
