"""Compare the engine benchmark of two commits in one run (interleaved, same machine, same load).

    python benchmarks/bench_compare.py BASE [HEAD] [--runs 5] [--encounters 10]

Each revision is checked out into a temporary git worktree and the demo encounter (AI on both sides,
PFB) is played in a subprocess with that revision's ``src`` on the path; runs alternate between the
two so drift in machine load hits both. Prints the medians and the ratio HEAD / BASE.
"""

from __future__ import annotations

import argparse
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
t0 = time.perf_counter()
for i in range(n):
    play(Encounter(battle, SeededDice(i)), TacticalAI())
print(n / (time.perf_counter() - t0))
"""


def rate(src: Path, n: int) -> float:
    out = subprocess.run([sys.executable, "-c", PROBE, str(ROOT / "examples" / "goblin-ambush.yaml"), str(n)],
                         env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True,
                         check=True)
    return float(out.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("head", nargs="?", default="HEAD")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--encounters", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trees = {}
        for name in (args.base, args.head):
            tree = Path(tmp) / name.replace("/", "_")
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), name], check=True,
                           capture_output=True)
            trees[name] = tree / "src"
        try:
            results: dict[str, list[float]] = {args.base: [], args.head: []}
            for _ in range(args.runs):
                for name in (args.base, args.head):
                    results[name].append(rate(trees[name], args.encounters))
        finally:
            for name in trees:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(trees[name].parent)],
                               check=False, capture_output=True)
    base, head = statistics.median(results[args.base]), statistics.median(results[args.head])
    print(f"demo encounter, AI both sides, {args.runs} interleaved runs × {args.encounters} encounters:")
    print(f"  {args.base:<12} {base:8.2f} encounters/s")
    print(f"  {args.head:<12} {head:8.2f} encounters/s")
    print(f"  ratio {args.head} / {args.base}: {head / base:.3f}  ({(head / base - 1) * 100:+.1f} %)")


if __name__ == "__main__":
    main()
