"""The named variant options of the worlds-of-adventure ruleset: every AMBIGUOUS or MISSING point of WOA-1.md (and
later WOA-2.md) with its proposed reading as the default. One section per rule area; add options only in yours."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class WoaOptions(BaseModel):
    """The named readings of WOA's AMBIGUOUS and MISSING points (WOA-1.md), defaults first."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # --- the combat cycle and initiative (WOA-CYCLE, WOA-INIT) -------------------------------------------------
    woa_monster_initiative: Literal["side", "individual"] = Field(
        "side", description="WOA-CYCLE-20: 'side' = one d20 for all the creatures of each side but the scenario's "
        "first (the DM's single check for the monsters; each adds its own modifier); 'individual' = everyone rolls")
    woa_invalidated_action: Literal["similar", "move_only", "nothing"] = Field(
        "similar", description="WOA-CYCLE-25: a declared attack whose foe is down or gone when the turn comes — "
        "'similar' = at the foe nearest the declared one (else a move only), 'move_only', 'nothing' this round")
    woa_flat_footed_loses_dex: bool = Field(
        False, description="WOA-CYCLE-11: flat-footed alone also loses Dex, shield and dodge to AC; default only an "
        "attack the defender does not expect (a surprise attack)")
    woa_delay_after_turn: bool = Field(
        True, description="WOA-INIT-04: a delayer acts right after the named creature's turn ends (turns are "
        "atomic, WOA-CYCLE-28); false = the text's literal 'begun' has no other meaning here either")
    # --- (end of the combat cycle and initiative) --------------------------------------------------------------
    # --- combat statistics, attacks, total defense's AC (WOA-STAT, WOA-ATK, WOA-DEF) ---------------------------
    woa_range_last_increment: bool = Field(
        True, description="WOA-STAT-15/16: a thrown weapon reaches exactly 5 increments and a projectile exactly 10 "
        "(distance ≤ 5 × / 10 × the increment, the 3.5 reading); false = the last increment is out of range")
    woa_bow_strength: Literal["modifier", "penalty"] = Field(
        "modifier", description="WOA-STAT-22: bows take the Str modifier, bonus and penalty alike (the literal "
        "reading); 'penalty' = only a Str penalty, as 3.5's non-composite bows")
    woa_off_hand_penalty_halved: bool = Field(
        False, description="WOA-STAT-23: an off-hand weapon adds ½ the Str bonus; a Str penalty applies in full "
        "(the 3.5 reading); true = a penalty is halved too")
    woa_touch_drops_armor_enhancement: bool = Field(
        True, description="WOA-STAT-46: touch AC drops the armor's enhancement bonus with the armor bonus (part of "
        "the armor's bonus); false = the enhancement still counts against touch attacks")
    woa_iterative_penalty: int = Field(
        0, ge=-10, le=0, description="WOA-ATK-08: the second attack of a full attack (BAB +6) is at this penalty; "
        "0 = the literal reading (no penalty stated), −5 = 3.5's iterative attack")
    # --- (end of combat statistics, attacks, total defense's AC) -----------------------------------------------
