"""Epic Path's difficulty classes by challenge rating: Easy, Average, Challenging, Hard, Impossible.

The combat chapter uses the ladder — awareness against the ambushers' Challenging DC (EP-SURP-24), assist against
the Easy DC (EP-MISC-06), spotting the invisible against the Average DC (EP-CONC-21) — but the table is on a page
the seed lacks; ``data/ep_dc_ladder.yaml`` holds the default reading (an ASSUMPTION: 10 + CR … 30 + CR), to be
replaced by the book's numbers."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from d20combat.rulesets.components import RuleError


@lru_cache(maxsize=1)
def dc_ladder() -> tuple[tuple[str, ...], dict[int, tuple[int, ...]]]:
    """(step names, DCs by CR) from ``data/ep_dc_ladder.yaml``."""
    text = resources.files("d20combat.data").joinpath("ep_dc_ladder.yaml").read_text(encoding="utf-8")
    data: dict[str, Any] = yaml.safe_load(text)
    return tuple(data["steps"]), {int(cr): tuple(dcs) for cr, dcs in data["by_cr"].items()}


LADDER_STEPS: tuple[str, ...] = dc_ladder()[0]


def ladder_dc(step: str, cr: int) -> int:
    """The DC of ``step`` (easy … impossible) for challenge rating ``cr``; a step or CR the table does not have is
    refused by name."""
    steps, by_cr = dc_ladder()
    if step not in steps:
        raise RuleError(f"unknown DC step {step!r}; known: {', '.join(steps)}")
    if cr not in by_cr:
        raise RuleError(f"CR {cr} is outside the DC ladder ({min(by_cr)} to {max(by_cr)})")
    return by_cr[cr][steps.index(step)]
