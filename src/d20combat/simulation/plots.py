"""Figures for the designers' lab (matplotlib, no display needed)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from d20combat.simulation.runner import Outcome
from d20combat.simulation.stats import Summary


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_summary(summary: Summary, outcomes: Sequence[Outcome], ids: Sequence[str], path: str | Path,
                 title: str = "") -> None:
    """Win rate per side with its 95 % interval, the rounds histogram, and damage dealt per combatant."""
    plt = _pyplot()
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    names = [s.side for s in summary.sides]
    rates = [s.rate for s in summary.sides]
    errors = [[max(s.rate - s.low, 0.0) for s in summary.sides], [max(s.high - s.rate, 0.0) for s in summary.sides]]
    axes[0].bar(names, rates, yerr=errors, capsize=6, color="#4c72b0")
    axes[0].set_ylim(0, 1)
    axes[0].set_title(f"win rate (95 % Wilson), n = {summary.n}")
    rounds = sorted(summary.rounds_histogram)
    axes[1].bar(rounds, [summary.rounds_histogram[r] for r in rounds], color="#55a868")
    axes[1].set_title(f"rounds (mean {summary.rounds_mean:.1f}, median {summary.rounds_median:g})")
    axes[1].set_xlabel("rounds")
    axes[2].boxplot([[o.dealt[i] for o in outcomes] for i in range(len(ids))], tick_labels=list(ids))
    axes[2].set_title("damage dealt per encounter")
    axes[2].tick_params(axis="x", rotation=60)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_sweep(rows: Sequence[dict[str, Any]], labels: Sequence[str], side: str, path: str | Path,
               threshold: float | None = None) -> None:
    """Win rate of ``side`` against the first varied parameter, one line per value of the others."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.5))
    first = labels[0]
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(tuple(row[label] for label in labels[1:]), []).append(row)
    for key, group in groups.items():
        xs = [r[first] for r in group]
        ys = [r[f"{side}_win_rate"] for r in group]
        lo = [r[f"{side}_low"] for r in group]
        hi = [r[f"{side}_high"] for r in group]
        name = ", ".join(f"{label}={v}" for label, v in zip(labels[1:], key, strict=True)) or side
        ax.plot(xs, ys, marker="o", label=name)
        ax.fill_between(xs, lo, hi, alpha=0.2)
    if threshold is not None:
        ax.axhline(threshold, color="red", linestyle="--", linewidth=1)
    ax.set_xlabel(first)
    ax.set_ylabel(f"{side} win rate")
    ax.set_ylim(0, 1)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
