"""Epic Path's time scale (EP-TIME-01..04): rounds of six seconds, ten to the minute, and the ladder of durations
from a free action to a year. Combat counts actions and rounds, never seconds: a duration in seconds is refused."""

from __future__ import annotations

import re

ROUND_SECONDS = 6
"""EP-TIME-01: one combat round takes six seconds."""

ROUNDS_PER_MINUTE = 10
"""EP-TIME-02: ten rounds to the minute."""

TIME_SCALE: tuple[tuple[str, ...], ...] = (
    ("free action",),
    ("swift action", "immediate action"),
    ("move action",),
    ("standard action",),
    ("full attack action",),
    ("full-round action", "round"),
    ("less than 1 minute",),
    ("minute",),
    ("10 minutes",),
    ("hour",),
    ("day",),
    ("week",),
    ("month",),
    ("year",),
)
"""EP-TIME-04: the time scales, shortest first; names on one rung take as long as each other."""

_UNIT_ROUNDS = {"round": 1, "minute": ROUNDS_PER_MINUTE, "hour": 60 * ROUNDS_PER_MINUTE}
_DURATION = re.compile(r"^\s*(\d+)\s+(round|minute|hour|second)s?\s*$")


def rounds(duration: str) -> int:
    """The rounds in ``duration`` ("3 rounds", "1 minute", "2 hours"). Raises ``ValueError`` naming the problem: a
    duration in seconds (EP-TIME-03: within combat there are no seconds, only actions and rounds) or words this
    clock does not read."""
    found = _DURATION.match(duration.lower())
    if found is None:
        raise ValueError(f"duration {duration!r}: give a number of rounds, minutes or hours (e.g. '1 minute')")
    n, unit = int(found[1]), found[2]
    if unit == "second":
        whole = f" — {n // ROUND_SECONDS} round(s)" if n % ROUND_SECONDS == 0 else ""
        raise ValueError(f"duration {duration!r}: Epic Path measures combat in actions and rounds, not seconds "
                         f"(EP-TIME-03){whole}")
    return n * _UNIT_ROUNDS[unit]


def rung(name: str) -> int:
    """The place of a time scale on the ladder (EP-TIME-04); ``ValueError`` for a name it does not hold."""
    key = name.lower().strip()
    key = re.sub(r"^(?:1|a|an|one)\s+", "", key).removesuffix("s") if key != "10 minutes" else key
    for i, names in enumerate(TIME_SCALE):
        if key in names:
            return i
    raise ValueError(f"time scale {name!r}: not one of " + ", ".join(n for names in TIME_SCALE for n in names))


def shorter(a: str, b: str) -> bool:
    """Whether time scale ``a`` is shorter than ``b`` (EP-TIME-04)."""
    return rung(a) < rung(b)
