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
    # --- action economy and movement (WOA-ACT, WOA-MOVE) ---------------------------------------------------------
    woa_free_action_limit: int = Field(
        3, ge=0, le=99, description="WOA-ACT-13 (not mechanizable: 'the DM sets reasonable limits'): free actions a "
        "creature may take on its turn; 99 = no limit")
    woa_rise_one_aoo: Literal["action", "round"] = Field(
        "action", description="WOA-MOVE-40 (AMBIGUOUS): prone → crouch → standing 'in one continuous rise' provokes "
        "once — 'action' = within the same action (the reading: stand_up from prone to standing), 'round' = also a "
        "rise to a crouch and then to standing with two actions of the same round")
    woa_failed_quick_stand_provokes: bool = Field(
        True, description="WOA-MOVE-45 (AMBIGUOUS): the quick get-up (Acrobatics DC 30) provokes whatever its "
        "outcome; false = only a successful one provokes (after the check)")
    # --- (end of action economy and movement) ----------------------------------------------------------------------
