"""The dodge reaction (WOA-REACT-28..36): a dodge bonus to AC of ½ the warrior or rogue level against one attack.

Warrior and rogue levels are read from the stat block's ``attributes`` (``warrior_level``, ``rogue_level``;
WOA-1.md's class hooks — the Classes chapter is not part of the text, WOA-REACT-17 MISSING)."""

from __future__ import annotations

from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.rulesets.components.component import AttackInfo, View
from d20combat.rulesets.components.reactions import totally_concealed
from d20combat.rulesets.worlds_of_adventure.reactions import RANGED_ROUND

DODGES = "dodges"
"""The pool of dodges left this round where armor caps them (WOA-REACT-33); absent = no cap."""

MOVEMENT_RESTRICTED = ("entangled", "slowed", "immobilized", "movement_hampered")
"""Conditions that restrict or slow movement: no dodging (WOA-REACT-35)."""


def class_level(creature: Creature, name: str) -> int:
    """``warrior`` or ``rogue`` level from the stat block's attributes (0 when absent)."""
    return int(creature.sheet.attributes.get(f"{name}_level", 0))


DODGE_FEAT = "dodge"


def dodge_value(creature: Creature, feat_value: int = 1) -> tuple[int, str]:
    """WOA-REACT-32: ½ × the higher of warrior and rogue level, rounded down (the inventory's reading);
    WOA-REACT-37: with neither, the Dodge feat's value (``woa_dodge_feat_value``)."""
    warrior, rogue = class_level(creature, "warrior"), class_level(creature, "rogue")
    if not warrior and not rogue and creature.has_feat(DODGE_FEAT):
        return feat_value, "the Dodge feat (WOA-REACT-37)"
    if warrior >= rogue:
        return warrior // 2, f"½ warrior level {warrior}"
    return rogue // 2, f"½ rogue level {rogue}"


def dodge_cap(creature: Creature) -> int | None:
    """WOA-REACT-33: at most 1 dodge a round in heavy armor, 2 in medium armor; no cap otherwise."""
    return {"heavy": 1, "medium": 2}.get(creature.armor_category or "")


def dodge_problem(view: View, attack: AttackInfo, defender: str, feat_value: int = 1) -> str | None:
    """Why ``defender`` cannot dodge this attack (the budget and the general bars aside), or None."""
    creature, state = view.creature(defender), view.state.get(defender)
    if class_level(creature, "warrior") <= 0 and class_level(creature, "rogue") <= 0 \
            and not creature.has_feat(DODGE_FEAT):
        return "dodging is for warriors and rogues, or the Dodge feat (WOA-REACT-28, WOA-REACT-37)"
    if dodge_value(creature, feat_value)[0] <= 0:
        return "a dodge bonus of 0 (WOA-REACT-32)"
    if int(creature.sheet.attributes.get("armor_nonproficient", 0)):
        return "it wears armor it is not proficient with (WOA-REACT-34)"
    return dodge_state_problem(creature, state) or (
        "it cannot see the attacker (WOA-REACT-30)" if totally_concealed(view, defender, attack.attacker) else None)


def dodge_state_problem(creature: Creature, state: CombatantState) -> str | None:
    """The bars of dodging that lie in the defender's state (WOA-REACT-33/35, WOA-ATK-07)."""
    if state.has(RANGED_ROUND):
        return "it made a ranged attack this round (WOA-ATK-07)"
    for condition in MOVEMENT_RESTRICTED:
        if state.has(condition):
            return f"{condition.replace('_', ' ')} (WOA-REACT-35)"
    if DODGES in state.reactions and state.reactions[DODGES] <= 0:
        return f"no more dodges this round in {creature.armor_category} armor (WOA-REACT-33)"
    return None
