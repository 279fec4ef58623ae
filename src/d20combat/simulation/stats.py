"""Aggregates of many simulated encounters: win rates with Wilson intervals, rounds, damage."""

from __future__ import annotations

import csv
import io
import math
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from d20combat.simulation.runner import Outcome

Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95 % by default)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    low, high = max(0.0, centre - half), min(1.0, centre + half)
    # Rounding can put an edge a hair past the estimate when it is 0 or 1; the interval always holds p.
    return min(low, p), max(high, p)


@dataclass(frozen=True)
class SideStats:
    side: str
    wins: int
    rate: float
    low: float
    high: float


@dataclass(frozen=True)
class CombatantStats:
    id: str
    side: str
    dealt_mean: float
    taken_mean: float
    downed_rate: float
    killed_rate: float


@dataclass(frozen=True)
class Summary:
    n: int
    seed: int
    sides: tuple[SideStats, ...]
    draws: int
    timeouts: int
    rounds_mean: float
    rounds_median: float
    rounds_histogram: dict[int, int]
    attacks_mean: float
    combatants: tuple[CombatantStats, ...]

    def side(self, name: str) -> SideStats:
        for s in self.sides:
            if s.side == name:
                return s
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["rounds_histogram"] = {str(k): v for k, v in sorted(self.rounds_histogram.items())}
        return data

    def to_csv(self) -> str:
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(["kind", "name", "value", "low", "high"])
        for s in self.sides:
            w.writerow(["win_rate", s.side, f"{s.rate:.6f}", f"{s.low:.6f}", f"{s.high:.6f}"])
        w.writerow(["draws", "", self.draws, "", ""])
        w.writerow(["timeouts", "", self.timeouts, "", ""])
        w.writerow(["rounds_mean", "", f"{self.rounds_mean:.4f}", "", ""])
        w.writerow(["rounds_median", "", self.rounds_median, "", ""])
        for c in self.combatants:
            w.writerow(["dealt_mean", c.id, f"{c.dealt_mean:.4f}", "", ""])
            w.writerow(["taken_mean", c.id, f"{c.taken_mean:.4f}", "", ""])
            w.writerow(["downed_rate", c.id, f"{c.downed_rate:.6f}", "", ""])
            w.writerow(["killed_rate", c.id, f"{c.killed_rate:.6f}", "", ""])
        return out.getvalue()


def summarize(outcomes: Sequence[Outcome], sides_by_id: Mapping[str, str], seed: int = 0) -> Summary:
    n = len(outcomes)
    ids = list(sides_by_id)
    side_names = list(dict.fromkeys(sides_by_id.values()))
    wins = Counter(o.winner for o in outcomes)
    sides = tuple(SideStats(side, wins[side], wins[side] / n, *wilson(wins[side], n)) for side in side_names)
    timeouts = sum(o.timeout for o in outcomes)
    draws = wins[None] - timeouts
    rounds = [o.rounds for o in outcomes]
    combatants = tuple(
        CombatantStats(
            cid,
            sides_by_id[cid],
            statistics.fmean(o.dealt[i] for o in outcomes),
            statistics.fmean(o.taken[i] for o in outcomes),
            sum(o.downed[i] for o in outcomes) / n,
            sum(o.killed[i] for o in outcomes) / n,
        )
        for i, cid in enumerate(ids)
    )
    return Summary(n, seed, sides, draws, timeouts, statistics.fmean(rounds), statistics.median(rounds),
                   dict(sorted(Counter(rounds).items())), statistics.fmean(o.attacks for o in outcomes), combatants)
