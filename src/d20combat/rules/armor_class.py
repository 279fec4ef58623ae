"""Armor Class and its variants: normal, flat-footed, touch, helpless (PFB-AC, PFB-HELP)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier, StackingPolicy, Total, core_stacking, total


@dataclass(frozen=True, slots=True)
class DefenseContext:
    touch: bool = False
    vs_melee: bool = True
    flat_footed: bool = False
    helpless: bool = False


def armor_class(
    creature: Creature,
    state: CombatantState,
    ctx: DefenseContext,
    *,
    extra: Iterable[Modifier] = (),
    flat_footed_loses_dodge: bool = False,
    touch_keeps_natural_armor: bool = False,
    stacking: StackingPolicy = core_stacking,
) -> Total:
    """AC = 10 + armor + shield + Dex + other modifiers (PFB-AC-01/02).

    Flat-footed drops a *positive* Dex only (PFB-AC-04/05); touch drops armor and shield
    (PFB-AC-06, and natural armor by the proposed reading); helpless treats Dex as 0, i.e. −5, and
    adds −4 against melee (PFB-HELP-02..04) — never a flat −9/−5.
    """
    sheet = creature.sheet
    mods: list[Modifier] = []
    if not ctx.touch:
        mods.append(Modifier(creature.armor_bonus, "armor", "armor"))
        if state.shield_state == "strapped":
            mods.append(Modifier(creature.shield_bonus, "shield", "shield"))
    if ctx.helpless:
        mods.append(Modifier(-5, "Dex 0 (helpless)"))
    elif ctx.flat_footed:
        mods.append(Modifier(min(creature.dex_mod, 0), "Dex"))
    else:
        mods.append(Modifier(creature.dex_mod, "Dex"))
    if sheet.natural_armor and (not ctx.touch or touch_keeps_natural_armor):
        mods.append(Modifier(sheet.natural_armor, "natural armor", "natural"))
    if sheet.dodge_bonus and not (ctx.flat_footed and flat_footed_loses_dodge):
        mods.append(Modifier(sheet.dodge_bonus, "dodge", "dodge"))
    if sheet.deflection_bonus:
        mods.append(Modifier(sheet.deflection_bonus, "deflection", "deflection"))
    if sheet.ac_other:
        mods.append(Modifier(sheet.ac_other, "other"))
    if ctx.helpless and ctx.vs_melee:
        mods.append(Modifier(-4, "helpless vs melee"))
    for effect in state.effects:
        if effect.ac:
            mods.append(Modifier(effect.ac, effect.name))
    mods.extend(extra)
    return total(10, [m for m in mods if m.value], base_label="", stacking=stacking)
