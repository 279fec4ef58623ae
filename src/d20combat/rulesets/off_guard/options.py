"""The named variant options of the off-guard ruleset: every AMBIGUOUS or MISSING point of CMV.md with its
proposed reading as the default."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    pass

# ---------------------------------------------------------------------------------------- options


class OffGuardOptions(BaseModel):
    """The named readings of CMV's AMBIGUOUS and MISSING points (CMV.md), defaults first."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # situational modifiers
    cmv_higher_ground_melee_only: bool = Field(
        False, description="CMV-SIT-04: higher ground helps melee attacks only (PF1); default every attack")
    cmv_prone_attacker_table: bool = Field(
        False, description="CMV-SIT-08: a prone attacker gets the table's +4 instead of the condition's −4 melee")
    # cover
    cmv_soft_cover_ranged_only: bool = Field(
        False, description="CMV-COV-05: creatures give no cover against reach attacks either")
    cmv_low_obstacle_tie_keeps_cover: bool = Field(
        True, description="CMV-COV-07: an attacker exactly as close to a low obstacle as its target does not ignore it")
    cmv_charge_ac_from_start: bool = Field(
        True, description="PFB-CHG-12 with CMV-COV-08: the charger's −2 AC applies from the start of the charge "
                          "movement, so reaction attacks during the charge see it (the inventory's reading "
                          "'from the charge onward': the charge is the whole action, movement included); "
                          "false = only from the charge attack on")
    cmv_reaction_attack_rules: Literal["ep", "none"] = Field(
        "ep", description="CMV-COV-08: 'reaction attack' = Epic Path's attack of opportunity; 'none' = no such attacks")
    # concealment
    cmv_concealment_stack: Literal["add", "independent"] = Field(
        "add", description="CMV-CONC-10: miss chances add (capped at 50 %); 'independent' = 1 − Π(1 − p)")
    cmv_terrain_areas_stack: bool = Field(
        False, description="CMV-CONC-03/10: separate areas of concealing terrain on the lines (bushes behind fog) "
        "are separate conditions and stack; default: one condition, since the ranged test asks once whether a "
        "line crosses concealing terrain and the text's stacking example is an area plus a spell (fog and blur)")
    cmv_hide_is_stealth: bool = Field(
        True, description="CMV-CONC-19: the '+10 on Hide checks' of near-total darkness applies to Stealth")
    cmv_surprise_unseen_attacker: bool = Field(
        True, description="CMV-COND-40: an attacker with total concealment surprises (defender off-guard)")
    # helpless and coup de grace
    cmv_helpless_off_guard_penalty: bool = Field(
        False, description="CMV-HELP-04: a helpless creature also takes off-guard's −2 AC")
    cmv_cdg_flat_minus_nine: bool = Field(
        False, description="CMV-CDG-05: a coup de grace uses the text's flat −9 AC instead of the helpless rules")
    cmv_cdg_survivor_keeps_state: bool = Field(
        False, description="CMV-CDG-09: a dying or stable survivor of a coup de grace stays dying or stable")
    cmv_cdg_find_removes_miss_chance: bool = Field(
        True, description="CMV-CDG-11: after the 'find', the coup de grace has no miss chance")
    # death saves and injury
    cmv_death_save_bonus: Literal["con", "none"] = Field(
        "con", description="CMV-CDG-07: death save = d20 + Con modifier; 'none' = a plain d20")
    cmv_death_save_pass: Literal["staggered", "stable"] = Field(
        "staggered", description="CMV-INJ-13: a passed death save sets damage to hp (staggered), or makes it stable")
    cmv_dying: Literal["save", "gm"] = Field(
        "save", description="CMV-INJ-11/16: a dying creature's DC 10 death save on its turn; 'gm' = GM decides")
    cmv_bloodied_rounding: Literal["up", "down"] = Field(
        "up", description="CMV-INJ-03: bloodied at 2 × damage ≥ hp ('up'); 'down' = damage ≥ ⌊hp / 2⌋")
    cmv_wound_points_bloodied: bool = Field(
        False, description="CMV-INJ-05: wound points make a creature bloodied (the literal text), not wounded")
    cmv_staggered_strenuous_damage: bool = Field(
        True, description="CMV-INJ-08: a staggered creature's major action costs it 1 damage")
    cmv_aid_lifts_action_limit: bool = Field(
        False, description="CMV-INJ-07: being aided also lifts the staggered one-action limit")
    # conditions
    cmv_blind_full_speed_check: bool = Field(
        False, description="CMV-COND-03: a blinded creature may move at full speed with a DC 10 Dex check")
    cmv_deafened_spell_fumble: bool = Field(
        True, description="CMV-COND-08: a deafened caster's verbal spell fails on d% ≤ 20")
    cmv_exhausted_includes_fatigued: bool = Field(
        True, description="CMV-COND-19: exhausted brings fatigued's effects too (−4 abilities, −5 ft)")
    cmv_shaken_death_saves: bool = Field(
        True, description="CMV-COND-24: shaken's −2 applies to death saves")
    cmv_fear_save: Literal["end-of-turn", "gm"] = Field(
        "end-of-turn", description="CMV-COND-23: a Will save against the fear's DC at the end of each turn")
    cmv_held_other_actions: bool = Field(
        False, description="CMV-COND-36: the GM lets a held creature take other actions besides escaping")
    cmv_held_escape_dc: int = Field(
        15, ge=1, le=60, description="CMV-COND-35: escape DC when the holding effect names none (not from the text)")
    max_free_actions: int = Field(1, ge=0, le=10, description="PFB-ACT-13 (inherited): free actions per turn")


# ------------------------------------------------------------------------------------------- data
