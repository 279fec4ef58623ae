"""The named variant options and vocabulary (pool names, skill names) of the skill-based ruleset."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from d20combat.model.statblock import Weapon

RESERVE = "reserve"
"""Off-turn pool: complex actions held for block, dodge or counterspell (SKL-RES)."""
OFFHAND = "offhand"
"""The two-weapon bonus complex action: an off-hand attack or block (SKL-TWF-01/02)."""
TWO_WEAPON = "two-weapon fighting"
"""The condition that marks the two-weapon mode (SKL-TWF-08)."""
UNARMED = "unarmed"
FEINTED = "feinted by "

# SKL-TWF-11..19: (rule, conditions, primary hand, off hand). The smallest matching penalty per hand wins (TWF-10).
TWF_TABLE: tuple[tuple[str, frozenset[str], int, int], ...] = (
    ("SKL-TWF-11", frozenset(), -6, -10),
    ("SKL-TWF-12", frozenset({"light"}), -4, -8),
    ("SKL-TWF-13", frozenset({"dual_weapon_training"}), -4, -4),
    ("SKL-TWF-14", frozenset({"light", "dual_weapon_training"}), -2, -2),
    ("SKL-TWF-15", frozenset({"dual_weapon_mastery"}), -2, -2),
    ("SKL-TWF-16", frozenset({"light", "dual_weapon_mastery"}), 0, 0),
    ("SKL-TWF-17", frozenset({"shield", "shield_specialist"}), -2, -6),
    ("SKL-TWF-18", frozenset({"shield", "shield_specialist", "light"}), 0, -4),
    ("SKL-TWF-19", frozenset({"shield", "dual_weapon_training", "shield_specialist"}), 0, 0),
)

# SKL-AOO-18..21: named activities that distract (the catalogue prices them; unknown ones are complex).
DISTRACTING_ACTIVITIES: dict[str, str] = {
    "retrieve-from-backpack": "retrieves a stored item (SKL-AOO-18)",
    "retrieve-stored-item": "retrieves a stored item (SKL-AOO-18)",
    "draw-potion": "retrieves a stored item (SKL-AOO-18)",
    "stabilize": "stabilizes a dying ally (SKL-AOO-19)",
    "stabilize-dying-ally": "stabilizes a dying ally (SKL-AOO-19)",
    "light-torch": "lights a torch (SKL-AOO-20)",
    "move-heavy-object": "moves a heavy object (SKL-AOO-21)",
}

UNARMED_STRIKE = Weapon.model_validate({"name": "unarmed-strike", "damage": "1d3", "hands": "light", "skill": UNARMED})
"""SKL-TWF-06 / SKL-AOO-02: every creature can strike unarmed; an unarmed strike is light."""


class SkillBasedOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    skl_init_agility_score: bool = Field(
        False, description="SKL-INIT-02: initiative adds the Agility score (stat block attributes.agility), not Dex")
    skl_complex_as_basic: bool = Field(False, description="SKL-ACT-11: a complex action may be spent as a basic one")
    skl_max_free_actions: int | None = Field(
        None, ge=0, le=100, description="SKL-ACT-08: the GM's limit on free actions per round (None: unlimited)")
    skl_auto_reserve: bool = Field(
        True, description="SKL-RES-02 (reading): ending a turn without declaring holds the unspent complex actions")
    skl_ranged_no_str: bool = Field(False, description="SKL-DMG-02: Str only to melee and thrown damage")
    skl_min_damage_1: bool = Field(False, description="SKL-DMG-04: a hit deals at least 1 after armor (default 0)")
    skl_health: Literal["pf1", "static"] = Field(
        "pf1", description="SKL-DMG-04 (MISSING): PFB hit points; the dying procedure (rules-diff §2.15)")
    skl_crit_damage_table: dict[str, int] = Field(
        default_factory=dict, description="SKL-CRIT-04: damage per point of critical-attack penalty, by weapon "
                                          "(default factor 1)")
    skl_feint_tie_succeeds: bool = Field(False, description="SKL-FEINT-04: a tied feint succeeds (default: fails)")
    skl_feint_opening_rounds: int = Field(
        1, ge=0, le=10, description="SKL-FEINT-05: the opening lapses at the end of the round this many rounds later")
    skl_declare_before_roll: bool = Field(
        False, description="SKL-DEF-08: block or dodge is committed before the attack roll, not after a hit")
    skl_block_needs_item: bool = Field(
        False, description="SKL-DEF-03: a block needs a weapon or shield in hand (default: an empty hand blocks)")
    skl_counterspell_tie_counters: bool = Field(
        False, description="SKL-CSPL-05: a tied counterspell counters (default: the spell goes off)")
    skl_double_weapon_blocks: bool = Field(
        True, description="SKL-TWF-20: a double weapon's off-hand end may block with the bonus action")
    skl_ranged_block_breaks: bool = Field(
        False, description="SKL-RNG-03: a ranged weapon breaks when a block with it fails")
    skl_unarmed_threatens: bool = Field(
        True, description="SKL-AOO-02: an empty hand threatens (an unarmed strike); off: PF1, no threat")
    skl_reach_inclusive: bool = Field(
        False, description="SKL-AOO-08: a reach weapon also threatens the adjacent squares")
    skl_pf_actions: bool = Field(
        False, description="SKL-AOO-12: PFB's 5-foot step (a free action, no other movement that round)")
    skl_charge: bool = Field(False, description="rules-diff P7: PFB's charge (complex + basic)")
    skl_cover: bool = Field(False, description="rules-diff P17: PFB cover adds +4 to Passive Defense")
    skl_concealment: bool = Field(False, description="rules-diff P18: PFB concealment d% before the roll")
    skl_range_increments: bool = Field(False, description="rules-diff §2.5: PFB's −2 per range increment")
    skl_surprise_limit: Literal["round", "turn"] = Field(
        "round", description="PFB-SURP-05 with SKL-ACT-01/SKL-RES-04/05 (issue 11): the surprise round's one complex "
                             "*or* basic action is the creature's one action of the *round* (default: SKL counts "
                             "actions per round and a block or dodge spends a complex action of the round, so after "
                             "acting it holds nothing, and after a block or dodge it has no action left on its "
                             "turn); 'turn': the limit is on its turn only, the unspent complex action is held")
    skl_helpless_defense: Literal["full", "pfb"] = Field(
        "full", description="SKL-DEF-01 (issue 11): a helpless or dying target keeps its full Passive Defense "
                            "(default: the text makes 10 + Dex 'the TN of every attack roll' and has no conditions); "
                            "'pfb': PFB-HELP-02/03, Dex counts as −5 and −4 more against melee")
