"""Compile the fast path ahead of time, so the first ``simulate`` does not wait for it.

    python -m d20combat.simulation.fast.warm [--quiet] [--background]

compiles (or loads from numba's disk cache) every function the kernel runs by playing one small battle,
and says how long it took. ``--background`` returns at once: when the disk cache lacks the kernel, it says so
and compiles in a detached process (``make demo`` does that, so the demo never waits for the compiler and
the first ``simulate`` after it finds the kernel ready).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from typing import Any

from d20combat.simulation.fast import jit

BATTLE: dict[str, Any] = {
    "map": {"rows": ["........", "........", "....#...", "....#...", "..=.....", "........"]},
    "surprise": {"surprised": []},
    "combatants": [
        {"id": "fighter", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "ogre", "side": "monsters", "stats": "ogre", "position": [6, 4]},
    ],
}
"""A small pathfinder-beginner battle: the kernel's functions have one signature, whatever the battle."""


def warm() -> float:
    """Play :data:`BATTLE` once on the fast path; returns the seconds it took (compiling included)."""
    from d20combat.scenario import battle_from_data
    from d20combat.simulation.fast.compile import compile_battle
    from d20combat.simulation.fast.runner import play_batch, play_fast

    t0 = time.perf_counter()
    cb = compile_battle(battle_from_data(BATTLE))
    play_fast(cb, 0)
    play_batch(cb, [0])  # the Monte Carlo's entry (batch.run_batch)
    return time.perf_counter() - t0


def needs_compiling() -> bool:
    """Whether the disk cache lacks the kernel (True too when numba cannot tell)."""
    from d20combat.simulation.fast import batch, kernel, paths

    return not all(jit.on_disk(f) for f in (kernel.run, batch.run_batch, paths.move_table))


def background() -> None:
    """Compile in a detached process, its messages in ``<cache>/warm.log``, when the disk cache lacks the kernel."""
    if not needs_compiling():
        return
    log = jit.cache_root() / "warm.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w") as out:
        subprocess.Popen([sys.executable, "-m", __name__.replace("__main__", "d20combat.simulation.fast.warm")],
                         stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True)
    print(f"{jit.COMPILING.rstrip('…')} in the background, for the lab's simulate and sweep (log: {log})",
          file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quiet", action="store_true", help="say nothing when the cache was already warm")
    parser.add_argument("--background", action="store_true", help="compile in a detached process, if needed")
    args = parser.parse_args(argv)
    if not jit.COMPILED:
        if args.quiet or args.background:
            return 0
        print("fast path: numba is not available (or NUMBA_DISABLE_JIT is set): nothing to compile", file=sys.stderr)
        return 0
    if args.background:
        background()
        return 0
    jit.on_compile(lambda message: print(message, file=sys.stderr, flush=True))
    seconds = warm()
    compiled = jit.compile_seconds()
    if compiled:
        print(f"fast path compiled in {compiled:.0f} s (cached on disk for every later run)", file=sys.stderr)
    elif not args.quiet:
        print(f"fast path already compiled (loaded from the disk cache in {seconds:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
