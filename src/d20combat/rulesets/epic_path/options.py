"""Epic Path's variant options: every AMBIGUOUS or MISSING point of EP.md that has a proposed reading is a named
option with that reading as default (the appendix of EP.md lists the 30 AMBIGUOUS rules).

Options are grouped by rule area, one block each, so that each area's reading can be found next to its ID."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from d20combat.limits import MAX_DICE_COUNT, MAX_LIST_ITEMS


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
    ambusher_spot_mode: Literal["group", "individual"] = Field(
        "group", description="EP-SURP-28: the ambushers' Spot checks before the encounter (against prey in stealth "
        "or invisible): one roll for the whole group, with its best Perception (default, 'to simplify things'), "
        "or one roll per ambusher")
    max_encounter_rounds: int = Field(
        10, ge=1, le=1000, description="EP-TIME-06: the Maximum Encounter Length, after which a new combat begins")
    surprise_round_counts_for_reset: bool = Field(
        False, description="EP-TIME-06 (AMBIGUOUS): the surprise round counts toward the 10 rounds (and as round 1)")
    flat_footed_after_reset: bool = Field(
        False, description="EP-TIME-14 (AMBIGUOUS): creatures are Flat-Footed again when the reset starts a new "
        "combat")

    ep_hold_tie_in_later_rounds: Literal["after_that_creature", "tie_break"] = Field(
        "after_that_creature", description="EP-ACT-51 (AMBIGUOUS): in the rounds after a hold, the holder's new "
        "initiative number (that creature's − 1) keeps it right after the creature it held for, ahead of another "
        "creature with the same number (default); 'tie_break': Epic Path's tie-breakers (EP-INIT-05..07) place it "
        "among the creatures with that number from the next round on")

    # (end of time and the turn)

    # === attack and damage (ATK, CRIT, DMG, AC, COV, CDG, SAVE, aid another) ==================================

    ep_average_damage: dict[str, Literal["all"] | Annotated[int, Field(ge=0, le=MAX_DICE_COUNT)]] = Field(
        default_factory=dict, max_length=MAX_LIST_ITEMS,
        description="EP-DMG-05..10: who takes the average on damage dice and on how many of each damage roll "
        "(a combatant id or a side → 'all' or a number of dice; the base dice first, then quality and precision "
        "dice); the averaged dice are summed and rounded down once. Default: nobody (EP-DMG-10: the rule is "
        "worded for players; a controller opts in, for any side)")
    ep_brutal_roll: Literal["plus_steps_capped", "plus_one_capped"] = Field(
        "plus_steps_capped", description="EP-DMG-11 (AMBIGUOUS): a rolled brutal die adds +1 per brutal step "
        "(brutal, Improved, Greater Brutality), never above the die's maximum; 'plus_one_capped': +1 whatever the "
        "feats. Averaged brutal dice always use the text's +0.5 a step")
    ep_partial_cover: bool = Field(
        False, description="EP-COV-14: partial cover (+2 AC, +1 Reflex) when fewer than half of the chosen "
        "corner's lines are blocked — 'subject to the GM's discretion', so off unless the GM turns it on")
    ep_soft_cover_vs_reach: bool = Field(
        True, description="EP-COV-03/10: creatures on the lines give cover against reach attacks too (the ranged "
        "rules EP-COV-03 sends reach attacks to count 'a square occupied by a creature'); False: soft cover "
        "against ranged attacks only")
    ep_cdg_dc_before_resistance: bool = Field(
        True, description="EP-CDG-04 (AMBIGUOUS): the coup de grace's Fort DC is the damage as rolled, before "
        "resistance; False: after")
    ep_defeated: Literal["unconscious", "dead"] = Field(
        "unconscious", description="EP-DMG-04 (AMBIGUOUS): a creature at 0 hp or fewer is defeated — unconscious "
        "and dying (Pathfinder's dying and death at −Con, the text defining neither), or 'dead' at once")
    ep_save_naturals: Literal["none", "auto"] = Field(
        "none", description="EP-SAVE-03 (AMBIGUOUS): a natural 1 or 20 on a save is just its number ('none'); "
        "'auto': a natural 20 always succeeds and a natural 1 always fails")

    ep_touch_ac_armor: Literal["none", "magic_enhancement"] = Field(
        "none", description="EP-AC-04 (AMBIGUOUS): Touch AC drops every armor, shield and natural armor bonus "
        "(the Touch AC definition, default), or 'magic_enhancement': touch attacks bypass only 'mundane armor', so "
        "the enhancement bonus of magic armor and shields (stat block attributes armor_enhancement, "
        "shield_enhancement) still counts")
    ep_movement_attack_at_guess: Literal["cannot", "can"] = Field(
        "cannot", description="EP-ATK-23 (AMBIGUOUS, a typo in the text): an attack with a movement component (a "
        "charge) cannot be aimed at the guessed square of a totally concealed creature (default), or 'can': the "
        "literal text, the charge at a guessed square is allowed")

    # (end of attack and damage)

    # === movement and melee (MOVE, full attack, 5-foot step, AOO, DEF, MAN, SPLASH, stances) ==================

    ep_stance_breaking_conditions: tuple[str, ...] = Field(
        ("rattled", "staggered", "dazed", "stunned", "nauseated", "paralyzed", "cowering", "disabled"),
        max_length=32, description="EP-MISC-17: conditions that reduce the actions available and so break a stance "
        "(the text names rattled; the others are the PF1 conditions that cost actions)")
    ep_one_stance_for_every_creature: bool = Field(
        True, description="EP-MISC-19 (AMBIGUOUS): one stance at a time for every creature, not only player "
        "characters (false: only creatures of a race — not race 'monster' — are limited)")
    ep_maneuver_formula: str = Field(
        "pf1", pattern="^(pf1|attack_bonus)$", description="EP-MAN-01 (MISSING): Maneuver Offense / Defense "
        "formulas, from data/ep_maneuvers.yaml; 'pf1' = CMB/CMD (default), 'attack_bonus' = the simpler reading")
    ep_grapple_escape: Literal["offense_vs_defense", "defense_roll"] = Field(
        "offense_vs_defense", description="EP-MAN-03 (AMBIGUOUS): escaping a grapple (a standard action) is d20 + "
        "the escapee's Maneuver Offense against the grappler's Maneuver Defense (PF1, default), or 'defense_roll': "
        "d20 + the escapee's Maneuver Defense − 10 against it")
    ep_offensive_abilities: tuple[str, ...] = Field(
        ("breathe-fire", "channel-energy", "blinding-ray", "aura-of-fire", "harmony"), max_length=64,
        description="EP-DEF-05: the activities (data/actions.yaml names) that are offensive abilities with no attack "
        "roll: fighting defensively, using one needs a Maneuver Offense check against DC 15 + level")
    ep_defensive_check: Literal["better", "maneuver", "caster"] = Field(
        "better", description="EP-DEF-05/10: the check an offensive ability without attack roll needs while fighting "
        "defensively is a Maneuver Offense check or a Caster Check (stat block attributes.caster_check), the "
        "creature's choice: 'better' takes the higher bonus (default); a failed Caster Check loses the spell "
        "(EP-DEF-10)")
    ep_impeded_skill: str = Field(
        "", max_length=40, description="EP-MOVE-09: the skill the GM allows to move farther than 5 ft a full round "
        "through impeded terrain (acrobatics, might, movement…); '' = none (default: 5 ft, no check)")
    ep_impeded_skill_dc: int = Field(15, ge=1, le=60, description="EP-MOVE-09: that check's DC (the text gives none)")
    ep_impeded_skill_ft: int = Field(10, ge=10, le=60, multiple_of=5,
                                     description="EP-MOVE-09: how far a successful check moves the creature")
    ep_splash_breaks_difficult: bool = Field(
        True, description="EP-SPLASH-15: whether difficult terrain breaks a thrown splash weapon aimed at it "
        "('often'; impeded and blocked squares always do unless the map marks them splash_soft)")
    ep_splash_precision: bool = Field(
        False, description="EP-SPLASH-10: splash weapons deal precision damage (sneak attack) only by GM fiat")

    ep_impeded_ends_stances: Literal["moving", "standing"] = Field(
        "moving", description="EP-MOVE-08 (AMBIGUOUS): moving into or within impeded terrain ends a creature's "
        "stances (default); 'standing': a stance also ends at the start of a turn the creature begins standing in "
        "impeded terrain")
    ep_total_defense_action: Literal["full-round", "standard"] = Field(
        "full-round", description="EP-DEF-12 (AMBIGUOUS / CONFLICT): total defense is a full-round action (L77, "
        "L87, L313; default; the single action of a surprise round), or 'standard': a standard action, as the list "
        "at L147 has it — it still ends the turn (EP-DEF-18), but may follow a move action")
    ep_scatter_snap: Literal["nearest", "dominant_axis"] = Field(
        "nearest", description="EP-SPLASH-18 (AMBIGUOUS): a thrower off the target's 8 lines — the scatter's 'falls "
        "short' square is the neighbour whose direction is closest to the line toward the thrower (default), or "
        "'dominant_axis': the neighbour along the larger of |dx| and |dy|, diagonal only when they are equal")

    # (end of movement and melee)

    # === seeing and states (CONC, COND, assist) ==============================================================
    ep_senses_vs_ethereal: tuple[str, ...] = Field(
        (), max_length=20, description="EP-CONC-37: the senses that still perceive an ethereal creature besides "
        "those data/ep_senses.yaml flags (the GM's list; default none)")
    ep_faded_dc_level: Literal["faded", "attacker"] = Field(
        "faded", description="EP-CONC-39 (AMBIGUOUS): the Will DC 10 + 'creature's level or CR' is the faded "
        "creature's (default) or the attacker's")
    ep_rattled_loses: Literal["both", "one"] = Field(
        "both", description="EP-COND-06 (AMBIGUOUS): rattled 'prevents you from using either a standard or a move "
        "action': neither of them (default) or one of the creature's choice (it keeps the move action)")
    ep_incorporeal_half_rounding: Literal["down", "up"] = Field(
        "down", description="EP-COND-09 (AMBIGUOUS): how half damage to incorporeal, nebulous and phased creatures "
        "rounds")
    ep_holy_water_vs_incorporeal: Literal["half", "full"] = Field(
        "half", description="EP-COND-12 (AMBIGUOUS): holy water against incorporeal undead, a corporeal source")
    ep_nebulous_halves: Literal["all", "attacks"] = Field(
        "all", description="EP-COND-28 (AMBIGUOUS): a nebulous creature halves all damage (default) or only the "
        "damage of attacks (weapons), not spells")
    ep_phased_exceptions_roll: bool = Field(
        True, description="EP-COND-36 (AMBIGUOUS): force effects, incorporeal attackers and ghost-touch weapons "
        "still face the phased creature's 50% (default) — the exception cancels only the halving")
    ep_circumstance_stacks: bool = Field(
        True, description="EP-MISC-11 (AMBIGUOUS): circumstance bonuses stack with all bonuses, other "
        "circumstance bonuses included, everywhere (default) or only on assisted skill checks")

    ep_force_squares: tuple[tuple[Annotated[int, Field(ge=0, le=999)], Annotated[int, Field(ge=0, le=999)]], ...] = \
        Field((), max_length=MAX_LIST_ITEMS, description="EP-COND-20: the squares of force effects on the map (a wall "
              "of force), which incorporeal and ethereal creatures cannot pass through; the GM's list, [[c, r], …]")
    ep_blind_half_speed: bool = Field(
        False, description="EP-COND-27: a creature that cannot see (blinded) moves at half speed, as Pathfinder's "
        "blinded condition (the text leaves conditions external, so off by default); incorporeal creatures keep "
        "their full speed")
    ep_phased_save_damage: Literal["evasion", "improved_evasion"] = Field(
        "evasion", description="EP-COND-34 (AMBIGUOUS): a phased creature against an effect that deals half damage "
        "on a successful save: no damage on a success, full (then halved, EP-COND-33) on a failure ('evasion', "
        "default); 'improved_evasion': half on a failure too")

    ep_phased_roll: Literal["after_hit", "before_roll"] = Field(
        "after_hit", description="EP-COND-31 (AMBIGUOUS): the phased creature's 50% is rolled after a successful "
        "attack roll, like concealment (default), or 'before_roll': before the attack roll, and a miss there means "
        "no attack roll (when the phased 50% is the strongest miss chance)")

    # (end of seeing and states)
