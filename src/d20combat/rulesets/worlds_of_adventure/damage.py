"""Damage (WOA-STAT-20..31): weapon dice + damage modifiers, with WOA's Strength rule, every fraction rounded down.

- Strength applies to all melee weapons, thrown weapons and bows, but not crossbows (WOA-STAT-22: bows take the
  modifier, bonus and penalty alike, the literal reading; ``woa_bow_strength`` = "penalty" reads it as 3.5 does);
- an off-hand weapon adds ½ the Str bonus (WOA-STAT-23; a penalty in full, the 3.5 reading,
  ``woa_off_hand_penalty_halved`` reads the text's "bonus" as covering penalties too);
- a weapon in two hands adds 1½ × the Str bonus, a light one only 1 × (WOA-STAT-24/25);
- unarmed and natural attacks add the full Str bonus (WOA-STAT-30);
- a hit deals at least 1 (WOA-STAT-27); multiplied damage is rolled again, modifiers and all (WOA-STAT-28);
- damage reduction comes after the damage is fully determined, multipliers included (WOA-STAT-31):
  :meth:`WoaDamage.reduction` (0 here, a hook for another source), to which
  :meth:`WoaDamage.reduction_explained` adds the block reaction's DR and says why.
"""

from __future__ import annotations

from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import AttackOption, Creature
from d20combat.model.statblock import WeaponKind
from d20combat.rules import damage as damage_rules
from d20combat.rulesets.components import HitPointDamage
from d20combat.rulesets.components.component import AttackInfo, View
from d20combat.rulesets.worlds_of_adventure.active_defense import block_reduction
from d20combat.rulesets.worlds_of_adventure.block import block_text, lodged_missile, mitigate_other

_CROSSBOWS = (WeaponKind.CROSSBOW_LIGHT, WeaponKind.CROSSBOW_HEAVY)


def woa_strength_damage(str_mod: int, option: AttackOption, *, bow_bonus: bool = True,
                        off_hand_penalty_halved: bool = False) -> int:
    """WOA-STAT-22..25/30: the Strength part of a weapon's damage (rounded down)."""
    kind = option.weapon.kind
    if kind is WeaponKind.SPELL or kind in _CROSSBOWS:
        return 0
    if kind is WeaponKind.BOW and str_mod > 0 and not bow_bonus:
        return 0
    if option.off_hand and kind is WeaponKind.MELEE:
        if str_mod > 0 or off_hand_penalty_halved:
            return str_mod // 2 if str_mod > 0 else -((-str_mod) // 2)
        return str_mod
    if str_mod > 0 and kind is WeaponKind.MELEE and option.two_handed and option.weapon.hands != "light":
        return str_mod * 3 // 2
    return str_mod


class WoaDamage(HitPointDamage):
    """WOA-STAT-20..31: WOA's Strength to damage, minimum 1, rolled multipliers, then damage reduction."""

    def __init__(self, *, bow_bonus: bool = True, off_hand_penalty_halved: bool = False) -> None:
        self.bow_bonus = bow_bonus
        """WOA-STAT-22 (AMBIGUOUS): bows add a Str bonus (and a penalty) — the text's literal reading."""
        self.off_hand_penalty_halved = off_hand_penalty_halved
        """WOA-STAT-23 (AMBIGUOUS): an off-hand Str penalty is halved too (default: in full, as in 3.5)."""

    def damage_strength(self, creature: Creature, option: AttackOption, state: CombatantState | None = None) -> int:
        return woa_strength_damage(creature.str_mod, option, bow_bonus=self.bow_bonus,
                                   off_hand_penalty_halved=self.off_hand_penalty_halved)

    def reduction(self, view: View, attack: AttackInfo) -> int:
        """Damage reduction against this hit besides a block (WOA-STAT-31): none here — the hook for another source
        of DR against one attack; the block's (WOA-REACT-22/23) is added by :meth:`reduction_explained`."""
        return 0

    def reduction_explained(self, view: View, attack: AttackInfo) -> tuple[int, str]:
        """The damage reduction against this hit — :meth:`reduction` plus the block's, if the defender blocked this
        attack (WOA-REACT-22/23) — and the words that explain the block ("block DR 2 (½ warrior level 4 …)")."""
        return self._with_block(view, attack, block_reduction(view, attack))

    def _with_block(self, view: View, attack: AttackInfo, block: tuple[int, str] | None) -> tuple[int, str]:
        other = self.reduction(view, attack)
        if block is None:
            return other, ""
        why = block_text(block, view.creature(attack.target))
        return other + block[0], (f"DR {other} + {why}" if other > 0 else why)

    def mitigate(self, creature: Creature, state: CombatantState, amount: int) -> tuple[int, str]:
        """The highest other DR (DR/— on the stat block) off every hit, stacking with a block (WOA-REACT-24)."""
        return mitigate_other(creature, amount)

    def roll(self, view: View, attack: AttackInfo, creature: Creature, *, critical: bool, multiplier: int,
             precision_d6: int, minimum: int, strength: int) -> damage_rules.DamageRoll:
        rolled = super().roll(view, attack, creature, critical=critical, multiplier=multiplier,
                              precision_d6=precision_d6, minimum=minimum, strength=strength)
        block = block_reduction(view, attack)  # once a hit
        lodged = lodged_missile(view, attack, rolled.total, block)
        if lodged is not None:
            view.emit(ev.Note(lodged))  # WOA-REACT-26
        dr, why = self._with_block(view, attack, block)
        if dr <= 0:
            return rolled
        after = max(rolled.total - dr, 0)
        taken = why or f"DR {min(dr, rolled.total)}"
        text = f"{after} = {rolled.explanation.partition(' = ')[2]} − {taken}"
        return damage_rules.DamageRoll(after, rolled.raw, text + " (WOA-STAT-31)")
