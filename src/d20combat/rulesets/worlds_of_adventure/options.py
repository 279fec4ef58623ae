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
    # --- (end of the combat cycle and initiative) --------------------------------------------------------------
    # --- special attacks and readying (WOA-INIT-06..25, WOA-CHARGE, WOA-FEINT, WOA-TWF, WOA-DEF; W5) ------------
    woa_ready_check_on_miss: bool = Field(
        True, description="WOA-INIT-20: an attack that misses a readying creature still forces its concentration "
        "check, at DC 10 + 0; false = only damage does")
    woa_shield_bash_feats_stack: bool = Field(
        False, description="WOA-TWF-10 (AMBIGUOUS): a shield bash as the off-hand attack — Improved Shield Bash and "
        "Two-Weapon Fighting do not stack (the better, −4); true = both (−8 + 4 + 4 = 0)")
    # --- (end of special attacks and readying) -----------------------------------------------------------------
    # --- spells and items (WOA-SPELL, WOA-ITEM) ---------------------------------------------------------------
    woa_full_round_window_after_turn: bool = Field(
        True, description="WOA-SPELL-11 (AMBIGUOUS): a full-round spell whose effect waits for the end of the round "
        "can still be disrupted after the caster's turn (the window runs until it takes effect); false = the window "
        "closes with the caster's turn for every spell")
    woa_scroll_concentration: bool = Field(
        True, description="WOA-ITEM-28 (AMBIGUOUS): reading a scroll is disrupted like casting, at the casting DCs "
        "(WOA-SPELL-11/12) with the scroll spell's level; false = no concentration check for scrolls")
    woa_item_costs_reactions: bool = Field(
        True, description="WOA-ITEM-17 (the DM's call): manipulating an item costs the round's combat reactions "
        "(the flag 'manipulating'); false = the DM rules this one does not (grabbing something off a table)")
    woa_hidden_draw_action: Literal["standard", "move", "free"] = Field(
        "standard", description="WOA-ITEM-08 (MISSING: the Sleight of Hand thresholds): the action a hidden draw "
        "takes — 'a standard action or less' by the check; default the most it can take")
    # --- (end of spells and items) --------------------------------------------------------------------------------
    # --- combat reactions and attacks of opportunity (WOA-REACT, WOA-AOO) ------------------------------------
    woa_aid_defense_against_reactions: bool = Field(
        False, description="WOA-REACT-14 (AMBIGUOUS): aid defense also against an attack made as a combat reaction "
        "(an attack of opportunity on the ally's turn); default the literal reading: only against a melee attack "
        "made on the opponent's own turn")
    woa_wind_stance_min_ft: Literal[5, 10] = Field(
        10, description="WOA-AOO-24 (AMBIGUOUS, the garbled 'move 10 feet or move'): Wind Stance's AC bonus comes in "
        "a round in which the creature moved at least 10 ft (the inventory's reading); 5 = in any round it moved")
    woa_dodge_feat_value: int = Field(
        1, ge=0, le=10, description="WOA-REACT-37 (MISSING: the Dodge feat's amount is in the feat chapter): the dodge "
        "bonus of a dodge by a creature with the Dodge feat and no warrior or rogue level")
    # --- (end of combat reactions and attacks of opportunity) ------------------------------------------------
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
    # --- the remaining AMBIGUOUS readings as options (W10: WOA-STAT-76, -SPELL-26, -REACT-02/22, -AOO-11, -FEINT-06,
    # WOA-INIT-27) -------------------------------------------------------------------------------------------------
    woa_superior_quarter_of: Literal["full", "half"] = Field(
        "full", description="WOA-STAT-76 (AMBIGUOUS): a superior success against a half-damage attack takes "
        "min(¼ of the damage, the least roll) — 'full' = ¼ of the full, unsaved damage roll (the reading); 'half' = "
        "¼ of the halved damage a plain success takes")
    woa_maintenance_dc_level: bool = Field(
        True, description="WOA-SPELL-26 (AMBIGUOUS): the concentration DC to keep maintaining a spell adds 2 × the "
        "spell's level, as the casting DCs (WOA-SPELL-11/12); false = without the spell's level")
    woa_reactions_at_bab_0: int = Field(
        1, ge=0, le=1, description="WOA-REACT-02 (AMBIGUOUS): the combat reactions of a creature with BAB +0 — 1 "
        "(every creature has at least 1, the reading); 0 = the literal 'a 1st-level character' read as a BAB +1 "
        "gate: BAB +0 has none (Combat Reflexes still adds 1)")
    woa_block_rounding: Literal["down", "up"] = Field(
        "down", description="WOA-REACT-22 (AMBIGUOUS): the block value's ½, ⅓ or ¼ warrior level rounds down (the "
        "reading); 'up' = rounds up")
    woa_short_step_ignores_threat: bool = Field(
        False, description="WOA-AOO-11 (AMBIGUOUS): a short step within an opponent's threatened area does not count "
        "for ignoring its threat (WOA-AOO-19, the reading); true = it does (attacking another foe after it provokes)")
    woa_feint_bars_block: bool = Field(
        False, description="WOA-FEINT-06 (AMBIGUOUS): a feinted opponent may still block the feinter's next melee "
        "attack (the literal reading: only Dex, dodge and shield are lost); true = it cannot block it either")
    woa_refocus_ignores_penalties: bool = Field(
        False, description="WOA-INIT-27 (AMBIGUOUS): the refocused initiative die counts as a 20 that is no natural "
        "20 and other penalties (−20 flat-footed) still apply (the reading); true = the refocused initiative is 20 + "
        "the modifier whatever the penalties")
    woa_held_charge_touch_ac: bool = Field(
        False, description="WOA-SPELL-24 (AMBIGUOUS): an unarmed or natural attack made while holding a charge is "
        "against normal AC (the reading); true = against touch AC, like the touch attack it replaces")
    # --- (end of the remaining AMBIGUOUS readings, W10) -----------------------------------------------------------
