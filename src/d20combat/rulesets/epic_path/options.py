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
    ep_offensive_abilities: tuple[str, ...] = Field(
        ("breathe-fire", "channel-energy", "blinding-ray", "aura-of-fire", "harmony"), max_length=64,
        description="EP-DEF-05: the activities (data/actions.yaml names) that are offensive abilities with no attack "
        "roll: fighting defensively, using one needs a Maneuver Offense check against DC 15 + level")
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

    # (end of movement and melee)

    # === seeing and states (CONC, COND, assist) ==============================================================

    # (end of seeing and states)
