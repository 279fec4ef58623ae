"""Benchmark: previewing a move at the game master's table, server-side (the service, not HTTP).

A preview is what the page asks while the GM hovers a square: the cheapest path and its cost, every
enemy whose reaction attack leaving a square on the way would draw (the ruleset's threat, reactions
left, ``can_make_aoo``, a melee plan), and the cover every enemy would have against an attack from the
destination. The map is 30×30 with walls, low walls and bushes; 30 tokens (15 a side) under the
off-guard ruleset, where movement provokes. The mover is the creature whose turn it is; destinations
cycle over every square it can reach.

- cold: the engine's per-state caches (reachable squares, attack plans) are cleared before each
        preview, as after every change of the encounter;
- warm: the same previews again on the same state, as while the GM moves the pointer around.

Baseline measured in the same run: the bare ``Encounter.move_options`` call (the pathfinding alone),
cold. Target: p95 ≤ 20 ms per preview.

    python benchmarks/bench_preview.py [--n 300]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from d20combat.server.service import Service
from d20combat.server.store import Store

TARGET_MS = 20.0
SIZE = 30


def scenario(seed: int = 7) -> dict[str, Any]:
    rng = random.Random(seed)
    rows = [["."] * SIZE for _ in range(SIZE)]
    for _ in range(40):  # short wall runs, low walls and bushes scattered over the middle
        c, r = rng.randrange(3, SIZE - 3), rng.randrange(5, SIZE - 5)
        char = rng.choice("##=*")
        for k in range(rng.randrange(2, 5)):
            cc, rr = (c + k, r) if rng.random() < 0.5 else (c, r + k)
            if 0 <= cc < SIZE and 0 <= rr < SIZE:
                rows[rr][cc] = char
    heroes = [[2 + 2 * (i % 8), 1 + i // 8] for i in range(15)]
    foes = [[2 + 2 * (i % 8), SIZE - 2 - i // 8] for i in range(15)]
    for c, r in heroes + foes:
        rows[r][c] = "."
    # the first hero stands next to the enemy line, so moving away provokes
    heroes[0] = [15, SIZE - 4]
    rows[SIZE - 4][15] = "."
    stats = ["fighter", "rogue", "cleric", "wizard"]
    return {
        "name": "preview benchmark", "ruleset": "off-guard",
        "map": {"rows": ["".join(row) for row in rows]},
        "combatants": [
            *({"id": f"hero-{i}", "side": "heroes", "stats": stats[i % 4], "position": pos,
               "initiative": 100 - i} for i, pos in enumerate(heroes)),
            *({"id": f"foe-{i}", "side": "goblins", "stats": "goblin" if i % 3 else "goblin-archer",
               "position": pos, "initiative": 50 - i} for i, pos in enumerate(foes)),
        ],
        "surprise": {"surprised": []},
    }


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def timed(job: Callable[[int], object], n: int) -> list[float]:
    job(0)  # warm imports and lazily built tables
    out = []
    for i in range(n):
        t0 = time.perf_counter()
        job(i)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=300, help="previews per measurement (≥ 200)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "bench.db")
        service = Service(store)
        eid = service.create(scenario=scenario(), seed=1)["id"]
        live = service._get(eid)
        enc = live.enc
        mover = enc.state.turn.actor if enc.state.turn else "hero-0"
        squares = sorted(enc.move_options(mover))
        enemies = len(enc.enemies(mover))

        def clear() -> None:
            enc._reach_cache.clear()
            enc._plan_state, enc._plans = None, {}

        def baseline(i: int) -> object:
            clear()
            return enc.move_options(mover)

        def cold(i: int) -> object:
            clear()
            return service.preview_move(eid, mover, squares[i % len(squares)])

        def warm(i: int) -> object:
            return service.preview_move(eid, mover, squares[i % len(squares)])

        def all_moves(i: int) -> object:
            clear()
            return service.moves(eid, mover)

        sample = service.preview_move(eid, mover, squares[0])
        provoking = sum(bool(service.preview_move(eid, mover, sq)["provokes"]) for sq in squares)
        base = timed(baseline, args.n)
        cold_ms = timed(cold, args.n)
        warm_ms = timed(warm, args.n)
        moves_ms = timed(all_moves, max(args.n // 5, 20))
        store.close()

    b50, b95 = percentiles(base)
    c50, c95 = percentiles(cold_ms)
    w50, w95 = percentiles(warm_ms)
    m50, m95 = percentiles(moves_ms)
    print(f"move preview, {SIZE}×{SIZE} map, 30 tokens, off-guard: {mover} → {len(squares)} reachable squares "
          f"({provoking} provoke), cover against {enemies} enemies per preview "
          f"(sample: {len(sample['cover'])} cover facts)")
    print(f"  baseline move_options (pathfinding only, cold): p50 {b50:.2f} ms  p95 {b95:.2f} ms")
    print(f"  preview, cold caches:  p50 {c50:.2f} ms  p95 {c95:.2f} ms  ({c50 / b50:.1f}× the baseline at p50)")
    print(f"  preview, warm caches:  p50 {w50:.2f} ms  p95 {w95:.2f} ms")
    print(f"  every reachable square with who it provokes (GET …/moves), cold: p50 {m50:.2f} ms  p95 {m95:.2f} ms")
    verdict = "✓" if c95 <= TARGET_MS else "✗"
    print(f"  target p95 ≤ {TARGET_MS:.0f} ms (cold): {verdict}  ({args.n} previews each)")


if __name__ == "__main__":
    main()
