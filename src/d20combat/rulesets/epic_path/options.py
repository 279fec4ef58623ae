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

    # (end of attack and damage)

    # === movement and melee (MOVE, full attack, 5-foot step, AOO, DEF, MAN, SPLASH, stances) ==================

    # (end of movement and melee)

    # === seeing and states (CONC, COND, assist) ==============================================================

    # (end of seeing and states)
