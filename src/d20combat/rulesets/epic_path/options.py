"""Epic Path's variant options: every AMBIGUOUS or MISSING point of EP.md that has a proposed reading is a named
option with that reading as default (the appendix of EP.md lists the 30 AMBIGUOUS rules).

Options are grouped by rule area, one block each, so that each area's reading can be found next to its ID."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class EpOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    # === time and the turn (INIT, SURP, ACT, TIME, action points) ===========================================
    max_free_actions: int = Field(
        1, ge=0, le=10, description="EP-ACT-38: free actions a turn, 'reasonable limits … as decided by the GM' "
        "(default 1, as PFB-ACT-13)")

    # (end of time and the turn)

    # === attack and damage (ATK, CRIT, DMG, AC, COV, CDG, SAVE, aid another) ==================================

    # (end of attack and damage)

    # === movement and melee (MOVE, full attack, 5-foot step, AOO, DEF, MAN, SPLASH, stances) ==================

    # (end of movement and melee)

    # === seeing and states (CONC, COND, assist) ==============================================================

    # (end of seeing and states)
