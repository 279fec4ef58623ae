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
    # --- combat reactions and attacks of opportunity (WOA-REACT, WOA-AOO) ------------------------------------
    woa_aid_defense_against_reactions: bool = Field(
        False, description="WOA-REACT-14 (AMBIGUOUS): aid defense also against an attack made as a combat reaction "
        "(an attack of opportunity on the ally's turn); default the literal reading: only against a melee attack "
        "made on the opponent's own turn")
    woa_dodge_feat_value: int = Field(
        1, ge=0, le=10, description="WOA-REACT-37 (MISSING: the Dodge feat's amount is in the feat chapter): the dodge "
        "bonus of a dodge by a creature with the Dodge feat and no warrior or rogue level")
    # --- (end of combat reactions and attacks of opportunity) ------------------------------------------------
