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

    # (end of time and the turn)

    # === attack and damage (ATK, CRIT, DMG, AC, COV, CDG, SAVE, aid another) ==================================

    # (end of attack and damage)

    # === movement and melee (MOVE, full attack, 5-foot step, AOO, DEF, MAN, SPLASH, stances) ==================

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

    # (end of seeing and states)
