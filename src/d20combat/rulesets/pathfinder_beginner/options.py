"""The Pathfinder Beginner Box's variant options: every AMBIGUOUS or MISSING point of PFB.md that has a
proposed reading is a named option with that reading as default."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class PfbOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    pfb_step_uses_free_action: bool = Field(False, description="PFB-MOVE-01: a 5-foot step spends the free action")
    pfb_difficult_diagonal_skips_count: bool = Field(
        False, description="PFB-MOVE-22: a 15-ft difficult diagonal does not advance the 5/10 count")
    pfb_move_draw_uses_free_action: bool = Field(
        True, description="PFB-ITEM-05/11: drawing or strapping while moving spends the free action")
    pfb_surprise_free_actions: bool = Field(False, description="PFB-SURP-05: allow free actions in the surprise round")
    pfb_into_melee_ignores_helpless_allies: bool = Field(
        False, description="PFB-ATK-07: helpless allies don't cause the −4")
    pfb_ranged_min_range_ignores_helpless: bool = Field(
        False, description="PFB-ATK-09: helpless enemies don't forbid ranged attacks")
    pfb_cover_any_line_everywhere: bool = Field(False, description="PFB-COV-06: any-line rule for every attack")
    pfb_reach_ranged_cover_only_nonadjacent: bool = Field(
        False, description="PFB-COV-14: reach uses the ranged method only against non-adjacent targets")
    pfb_adjacent_melee_ignores_creatures: bool = Field(
        False, description="PFB-COV-05: creatures give no cover against an adjacent melee attack (e.g. an ally at the "
        "corner of a diagonal attack); default: they do, as the text names 'a creature' with no exception for "
        "melee and the diagram reading (PFB-COV-06) draws every corner-to-corner line")
    pfb_partial_cover: bool = Field(False, description="PFB-COV-16: partial cover +2 AC")
    pfb_flat_footed_loses_dodge: bool = Field(False, description="PFB-AC-04: flat-footed also loses dodge bonuses")
    pfb_touch_keeps_natural_armor: bool = Field(False, description="PFB-AC-06: touch AC keeps natural armor")
    pfb_dying: Literal["pf1", "static"] = Field("pf1", description="PFB-HP-02: the missing dying procedure")
    max_free_actions: int = Field(1, ge=0, le=10, description="PFB-ACT-13: the GM may allow more free actions")
