"""Spell components (WOA-SPELL-02..07): what stops a creature casting a spell now — a verbal component while gagged
or silenced, a somatic one with no hand free, a material one without the component pouch, no concentration.
Read by casting (:mod:`.spells`), counterspelling (:mod:`.counterspell`), items and the AI."""

from __future__ import annotations

from d20combat.rulesets.components import View
from d20combat.rulesets.components.reactions import held_attack
from d20combat.rulesets.worlds_of_adventure.spell_data import Spell


def hands_full(view: View, cid: str) -> bool:
    """WOA-SPELL-05: both hands full or occupied — a weapon in one hand and a shield on the other arm, or a
    two-handed weapon; or the condition ``hands_full`` (swimming, clinging to a cliff)."""
    c, creature = view.state.get(cid), view.creature(cid)
    if c.has("hands_full"):
        return True
    option = held_attack(creature, c)
    if option is None:
        return False
    shield = creature.sheet.shield is not None and c.shield_state in ("strapped", "held")
    return option.two_handed or shield


def component_problem(view: View, cid: str, sp: Spell) -> str | None:
    c = view.state.get(cid)
    if c.has("cannot_concentrate"):
        return f"{cid} cannot concentrate, so cannot cast a spell (WOA-SPELL-07)"
    if "V" in sp.components:
        for cond in ("gagged", "silenced"):
            if c.has(cond):
                return f"{sp.label} has a verbal component: {cid} is {cond} (WOA-SPELL-02)"
    if "S" in sp.components:
        for cond in ("bound", "grappling"):
            if c.has(cond):
                return f"{sp.label} has a somatic component: {cid} is {cond} (WOA-SPELL-05)"
        if hands_full(view, cid):
            return f"{sp.label} has a somatic component: {cid} has no hand free to gesture (WOA-SPELL-05)"
    if sp.components & {"M", "F", "DF"} and c.has("no_component_pouch"):
        return f"{sp.label} has a material component: {cid} has no component pouch (WOA-SPELL-06)"
    return None


__all__ = ["component_problem", "hands_full"]
