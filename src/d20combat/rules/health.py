"""Hit points: 0 disabled, −1 dying, −Con dead (PFB-HP)."""

from __future__ import annotations

from enum import StrEnum


class Health(StrEnum):
    OK = "ok"
    DISABLED = "disabled"
    DYING = "dying"
    DEAD = "dead"


def health(hp: int, con_score: int) -> Health:
    """PFB-HP-01..03: exactly 0 → disabled; −1 or lower → dying; ≤ −Con score → dead."""
    if hp <= -con_score:
        return Health.DEAD
    if hp < 0:
        return Health.DYING
    if hp == 0:
        return Health.DISABLED
    return Health.OK


DYING_CHECK_DC = 10


def dying_check(face: int, con_mod: int, hp: int) -> tuple[bool, int]:
    """PF1 default for the MISSING dying procedure (PFB-HP-02): DC 10 Con check with a penalty equal
    to the negative hit points; a natural 20 always stabilizes. Returns (stable, total)."""
    result = face + con_mod + hp
    return face == 20 or result >= DYING_CHECK_DC, result
