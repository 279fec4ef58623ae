"""Armor Class (WOA-STAT-32..51) and total defense's AC (WOA-DEF-02..05).

AC = 10 + armor + shield + Dex + other modifiers (WOA-STAT-32), with WOA's departures from the core's formula:
- armor and natural armor do not stack: the larger applies (WOA-STAT-40); half the smaller (rounded down) is a
  special bonus against critical confirmation only (WOA-STAT-41, :meth:`WoaArmorClass.confirmation_bonus`);
- touch AC drops the armor and natural armor bonuses (the armor's enhancement with them, WOA-STAT-46's reading)
  but keeps the shield, Dex, deflection, dodge and everything else (WOA-STAT-46..48);
- an attack the defender does not expect, or cannot react to, costs its shield, its Dex *bonus* and its dodge
  bonuses; a Dex penalty always applies (WOA-STAT-33..35/42);
- worn armor caps the Dex bonus (its ``max_dex``, else ``data/woa_armor.yaml``), never dodge bonuses
  (WOA-STAT-36/43); dodge bonuses stack (WOA-STAT-44);
- superior armor and shields add their enhancement bonus (WOA-STAT-37); deflection and natural armor add
  (WOA-STAT-38/39).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from d20combat.encounter.state import CombatantState
from d20combat.model.catalog import default_catalog
from d20combat.model.creature import Creature
from d20combat.model.statblock import Armor, Shield, StatBlock
from d20combat.numbers import Modifier, Total, total
from d20combat.rules.armor_class import DefenseContext
from d20combat.rulesets.components import ArmorClass
from d20combat.rulesets.components.component import AttackInfo, View
from d20combat.rulesets.worlds_of_adventure.active_defense import situational_ac
from d20combat.rulesets.worlds_of_adventure.evasive import in_place_of_ac
from d20combat.rulesets.worlds_of_adventure.feint import OPENING as FEINT_OPENING
from d20combat.rulesets.worlds_of_adventure.opportunity import wind_stance
from d20combat.rulesets.worlds_of_adventure.reactions import TOTAL_DEFENSE_EFFECT

FLAT_FOOTED = "flat_footed"
"""The flat-footed condition (the cycle's :data:`~.cycle.FLAT_FOOTED`; spelt here so the cycle may import this
module)."""
IMPROVED_UNCANNY_DODGE = "improved_uncanny_dodge"
"""WOA-CYCLE-13: experienced barbarians and thieves keep their full AC against a surprise attack (the feat-like
ability on the stat block; the Classes chapter is not part of the text)."""


@lru_cache(maxsize=1)
def _max_dex_table() -> dict[str, int]:
    data: Any = yaml.safe_load(resources.files("d20combat.data").joinpath("woa_armor.yaml").read_text("utf-8"))
    return {str(k): int(v) for k, v in data["max_dex"].items()}


def _armor(sheet: StatBlock) -> Armor | None:
    ref = sheet.armor
    if ref is None or isinstance(ref, Armor):
        return ref
    return default_catalog().armor.get(ref)


def _shield(sheet: StatBlock) -> Shield | None:
    ref = sheet.shield
    if ref is None or isinstance(ref, Shield):
        return ref
    return default_catalog().shields.get(ref)


def armor_max_dex(sheet: StatBlock) -> int | None:
    """WOA-STAT-36/64: the most Dex bonus the worn armor allows — the armor's own ``max_dex``, else the table's
    value for its name (``data/woa_armor.yaml``), else None (no cap)."""
    if sheet.armor is None:
        return None
    armor = _armor(sheet)
    if armor is not None and armor.max_dex is not None:
        return armor.max_dex
    name = sheet.armor if isinstance(sheet.armor, str) else sheet.armor.name
    return _max_dex_table().get(name)


def capped_dex(creature: Creature) -> Modifier:
    """The Dex modifier as AC and Reflex saves count it: a bonus capped by the armor (WOA-STAT-36/64), a
    penalty in full."""
    cap = armor_max_dex(creature.sheet)
    if cap is not None and creature.dex_mod > cap:
        return Modifier(cap, f"Dex (+{creature.dex_mod} capped at +{cap} by armor)")
    return Modifier(creature.dex_mod, "Dex")


def armor_bonus(creature: Creature) -> int:
    """The worn armor's bonus with its enhancement (WOA-STAT-37)."""
    armor = _armor(creature.sheet)
    return creature.armor_bonus + (armor.enhancement if armor is not None else 0)


def shield_bonus(creature: Creature) -> int:
    """The shield's bonus with its enhancement (WOA-STAT-37)."""
    shield = _shield(creature.sheet)
    return creature.shield_bonus + (shield.enhancement if shield is not None else 0)


class WoaArmorClass(ArmorClass):
    """WOA-STAT-32..48, WOA-CYCLE-11 (AMBIGUOUS): only an attack the defender is not expecting costs its Dex,
    shield and dodge bonuses; being flat-footed alone does not (``woa_flat_footed_loses_dex`` reads it the other
    way). WOA-CYCLE-13: improved uncanny dodge keeps them all (the AC only: the dodge and block reactions stay
    barred against the unexpected attack, WOA-CYCLE-12, the literal reading)."""

    def __init__(self, *, flat_footed_loses_dex: bool = False, touch_drops_armor_enhancement: bool = True,
                 wind_stance_ft: int = 10) -> None:
        super().__init__(flat_footed_loses_dodge=True)
        self.wind_stance_ft = wind_stance_ft
        """WOA-AOO-24 (AMBIGUOUS): the feet moved in a round that turn on Wind Stance's AC bonus."""
        self.flat_footed_loses_dex = flat_footed_loses_dex
        self.touch_drops_armor_enhancement = touch_drops_armor_enhancement
        """WOA-STAT-46 (AMBIGUOUS): touch AC drops the armor's enhancement bonus too."""

    def is_flat_footed(self, creature: Creature, state: CombatantState, *, surprised: bool) -> bool:
        if state.has(FLAT_FOOTED):
            return self.flat_footed_loses_dex
        return surprised or state.has("paralyzed")

    def modifiers(self, creature: Creature, state: CombatantState, ctx: DefenseContext) -> list[Modifier]:
        """The AC's modifiers (WOA-STAT-32..48) before the situation's; ``ctx.flat_footed`` = the attack is
        unexpected or the defender cannot react to it."""
        sheet = creature.sheet
        unaware = ctx.flat_footed or ctx.helpless
        mods: list[Modifier] = []
        armor, natural = armor_bonus(creature), sheet.natural_armor
        if not ctx.touch and (armor or natural):  # WOA-STAT-39/40/46: the larger of the two; touch: neither
            if armor >= natural:
                label = "armor" + (f" (natural armor {natural} does not stack)" if natural else "")
                mods.append(Modifier(armor, label, "armor"))
            else:
                mods.append(Modifier(natural, f"natural armor (armor {armor} does not stack)" if armor
                                     else "natural armor", "natural"))
        elif ctx.touch and not self.touch_drops_armor_enhancement:
            worn = _armor(sheet)
            if worn is not None and worn.enhancement:
                mods.append(Modifier(worn.enhancement, "armor enhancement", "enhancement"))
        if state.shield_state == "strapped" and not unaware:  # WOA-STAT-33/47: lost unaware, kept against touch
            shield = shield_bonus(creature)
            mods.append(Modifier(shield, "shield", "shield"))
        dex = capped_dex(creature)
        if ctx.helpless:
            mods.append(Modifier(-5, "Dex 0 (helpless)"))
        elif unaware:  # WOA-STAT-34/35: the bonus is lost, a penalty always applies
            mods.append(Modifier(min(dex.value, 0), "Dex" if dex.value < 0 else "Dex bonus lost (unaware)"))
        else:
            mods.append(dex)
        if sheet.dodge_bonus and not unaware:  # WOA-STAT-42..44: lost unaware, not capped by armor, stack
            mods.append(Modifier(sheet.dodge_bonus, "dodge", "dodge"))
        if sheet.deflection_bonus:  # WOA-STAT-38
            mods.append(Modifier(sheet.deflection_bonus, "deflection", "deflection"))
        if sheet.ac_other:
            mods.append(Modifier(sheet.ac_other, "other"))
        if ctx.helpless and ctx.vs_melee:
            mods.append(Modifier(-4, "helpless vs melee"))
        for effect in state.effects:
            if effect.name.startswith(FEINT_OPENING):
                continue  # WOA-FEINT-06: the feinter's next melee attack only (:meth:`situational`)
            if effect.ac:  # WOA-DEF-02: total defense's +4 is a dodge bonus (stacks; lost when unaware)
                kind = "dodge" if effect.name == TOTAL_DEFENSE_EFFECT else ""
                mods.append(Modifier(effect.ac, effect.name, kind))
        return mods

    def situational(self, view: View, attack: AttackInfo) -> Sequence[Modifier]:
        """The AC changes of this one attack: the combat reactions' dodge and aid (WOA-REACT, kept in the attack's
        scratch by :class:`~.active_defense.WoaActiveDefense`)."""
        mods = situational_ac(view, attack)
        if not attack.ranged:  # WOA-FEINT-06: the opening counts against the feinter's next melee attack only
            mods += [Modifier(e.ac, e.name) for e in view.state.get(attack.target).effects
                     if e.name == FEINT_OPENING + attack.attacker and e.ac]
        stance = wind_stance(view.creature(attack.target), view.state.get(attack.target), self.wind_stance_ft)
        if stance is not None:  # WOA-AOO-24
            mods.append(Modifier(stance[0], stance[1]))
        return mods

    def total(self, creature: Creature, state: CombatantState, ctx: DefenseContext, extra: Sequence[Modifier],
              view: View | None = None, attack: AttackInfo | None = None) -> Total:
        if ctx.flat_footed and not ctx.helpless and creature.has_feat(IMPROVED_UNCANNY_DODGE):
            ctx = replace(ctx, flat_footed=False)  # WOA-CYCLE-13: full AC against a surprise attack
        mods = [*self.modifiers(creature, state, ctx), *extra]
        if view is not None and attack is not None:
            mods.extend(self.situational(view, attack))
        if ctx.flat_footed or ctx.helpless:  # WOA-STAT-42: every dodge bonus is lost unaware
            mods = [m for m in mods if m.type != "dodge"]
        ac = total(10, [m for m in mods if m.value], base_label="", stacking=self.rules.stacking)
        return in_place_of_ac(ac, state)  # WOA-MOVE-45: a quick get-up's Acrobatics result against its AoO

    def confirmation_bonus(self, creature: Creature, ctx: DefenseContext) -> Modifier | None:
        """WOA-STAT-41: against a critical confirmation roll only, half (rounded down) the smaller of the armor and
        natural armor bonuses — when the defender has both and the attack counts them (not a touch attack)."""
        smaller = min(armor_bonus(creature), creature.sheet.natural_armor)
        if ctx.touch or smaller // 2 <= 0:
            return None
        return Modifier(smaller // 2, f"½ the smaller of armor and natural armor ({smaller}), vs confirmation")


def shield_took_touch(result: int, touch_ac: int, shield: int) -> bool:
    """WOA-STAT-49: a touch attack that missed only because of the shield (touch AC − shield ≤ result < touch AC):
    the shield suffers the attack's detrimental effects (fire, acid…)."""
    return shield > 0 and touch_ac - shield <= result < touch_ac


def armor_takes_effect(result: int, touch_ac: int, armored_ac: int, *, armor_blocks_effect: bool) -> bool:
    """WOA-STAT-50: a touch attack flagged ``armor_blocks_effect`` (an ankheg's acid spit) that beats touch AC but
    not the armored AC leaves the wearer unaffected; the armor suffers the effect instead."""
    return armor_blocks_effect and touch_ac <= result < armored_ac


def armor_energy_resistance(creature: Creature, energy: str) -> tuple[int, str]:
    """WOA-STAT-51: the energy resistance the worn armor grants against ``energy`` (its ``energy_resistance``
    data; the amounts are the Armor tables', not in the seed) and its explanation."""
    armor = _armor(creature.sheet)
    wanted = energy.strip().lower()
    if armor is None:
        return 0, ""
    amount = next((v for k, v in armor.energy_resistance.items() if k.strip().lower() == wanted), 0)
    return amount, (f"{armor.name}: resist {wanted} {amount} (WOA-STAT-51)" if amount else "")
