"""Epic Path's variant options: every AMBIGUOUS or MISSING point of EP.md that has a proposed reading is a named
option with that reading as default (the appendix of EP.md lists the 30 AMBIGUOUS rules).

Options are grouped by rule area, one block each, so that each area's reading can be found next to its ID."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class EpOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    # === time and the turn (INIT, SURP, ACT, TIME, action points) ===========================================
    max_free_actions: int = Field(
        1, ge=0, le=10, description="EP-ACT-38: free actions a turn, 'reasonable limits … as decided by the GM' "
        "(default 1, as PFB-ACT-13)")
    init_tie_d20: Literal["higher-first", "lower-first"] = Field(
        "higher-first", description="EP-INIT-07 (AMBIGUOUS): which tie-breaking d20 acts first; equal rolls re-roll")
    surprise_standard_may_degrade: bool = Field(
        True, description="EP-SURP-18 (AMBIGUOUS): the surprise round's single standard action may be spent as a "
        "move or swift action (EP-ACT-23)")
    spot_check_step: Literal["creature", "group"] = Field(
        "creature", description="EP-SURP-26 (AMBIGUOUS): a Spot-checking creature eases the awareness DC one step "
        "for itself only, or for its whole group")
    max_encounter_rounds: int = Field(
        10, ge=1, le=1000, description="EP-TIME-06: the Maximum Encounter Length, after which a new combat begins")
    surprise_round_counts_for_reset: bool = Field(
        False, description="EP-TIME-06 (AMBIGUOUS): the surprise round counts toward the 10 rounds (and as round 1)")
    flat_footed_after_reset: bool = Field(
        False, description="EP-TIME-14 (AMBIGUOUS): creatures are Flat-Footed again when the reset starts a new "
        "combat")

    # (end of time and the turn)

    # === attack and damage (ATK, CRIT, DMG, AC, COV, CDG, SAVE, aid another) ==================================

    # (end of attack and damage)

    # === movement and melee (MOVE, full attack, 5-foot step, AOO, DEF, MAN, SPLASH, stances) ==================

    # (end of movement and melee)

    # === seeing and states (CONC, COND, assist) ==============================================================

    # (end of seeing and states)
