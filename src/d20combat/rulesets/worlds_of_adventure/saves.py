"""Saving throws with degrees of success (WOA-STAT-59..83): superior success (beating the DC by 10 or more) and
catastrophic failure (failing it by 10 or more), and what they do to an attack that deals half damage on a save.

The save's bonus is the core's (base + ability, from the stat block). What WOA adds is the degree:
- natural 1 always fails, natural 20 always succeeds (WOA-STAT-79/82), without changing the degree beyond that:
  a natural 1 is catastrophic only if the result is also ≤ DC − 10, a natural 20 superior only if ≥ DC + 10
  (WOA-STAT-81/83);
- half damage on a save (WOA-STAT-76/78): superior → min(¼ of the full damage, the least the dice could roll);
  success → half; failure → full; catastrophic → max(1½ × the full damage, the most the dice could roll); all
  rounded down (WOA-1 conventions).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier
from d20combat.rulesets.components.saves import _SAVE_ALIASES, D20Saves, SaveKind
from d20combat.rulesets.worlds_of_adventure.defense import armor_max_dex, shield_bonus
from d20combat.rulesets.worlds_of_adventure.reactions import readying_distraction


class Degree(StrEnum):
    CATASTROPHIC = "catastrophic failure"
    FAILURE = "failure"
    SUCCESS = "success"
    SUPERIOR = "superior success"


def degree(face: int, result: int, dc: int) -> Degree:
    """WOA-STAT-75/77/79/81/82/83: the degree of a saving throw of ``result`` (the d20 showed ``face``) against
    ``dc``."""
    if result >= dc + 10 and face != 1:
        return Degree.SUPERIOR
    if result <= dc - 10 and face != 20:
        return Degree.CATASTROPHIC
    if face == 20:
        return Degree.SUCCESS
    if face == 1:
        return Degree.FAILURE
    return Degree.SUCCESS if result >= dc else Degree.FAILURE


def half_damage_on_save(grade: Degree, full: int, least: int, most: int, *, quarter_of: str = "full"
                        ) -> tuple[int, str]:
    """WOA-STAT-76/78: the damage of an attack that deals half on a successful save, by the save's degree; ``full``
    the damage rolled, ``least``/``most`` the least and most its dice could roll; ``quarter_of`` "half" = a superior
    success takes ¼ of the halved damage (option ``woa_superior_quarter_of``, AMBIGUOUS)."""
    if grade is Degree.SUPERIOR:
        if quarter_of == "half":
            amount = min(full // 2 // 4, least)
            return amount, (f"superior success: min(¼ × half of {full}, least roll {least}) = {amount} "
                            "(WOA-STAT-76, ¼ of the halved damage)")
        amount = min(full // 4, least)
        return amount, f"superior success: min(¼ × {full}, least roll {least}) = {amount} (WOA-STAT-76)"
    if grade is Degree.SUCCESS:
        return full // 2, f"success: half of {full} = {full // 2}"
    if grade is Degree.FAILURE:
        return full, f"failure: {full}"
    amount = max(full * 3 // 2, most)
    return amount, f"catastrophic failure: max(1½ × {full}, most roll {most}) = {amount} (WOA-STAT-78)"


@dataclass(frozen=True, slots=True)
class SaveAgainst:
    """What a saving throw is made against (WOA-STAT-66..74): the attack sets the DC (WOA-STAT-74) and these."""

    area: bool = False
    """An area attack: the shield's AC bonus adds to Reflex (WOA-STAT-66), and cover (WOA-STAT-70)."""
    weapon_like: bool = False
    """Physical projectiles (a volley of arrows, a hail of stones): deflection adds to Reflex (WOA-STAT-71)."""
    partial: bool = False
    """The area only partly covers the creature's space: +2 on Reflex (WOA-STAT-72)."""
    hazard: bool = False
    """A pit trap or similar hazard: never a shield bonus (WOA-STAT-69)."""
    expected: bool = True
    """The creature expects the attack and can react: otherwise no shield bonus (WOA-STAT-67)."""
    cover: int = 0
    """The cover bonus between the creature and the area's origin (WOA-STAT-70; amounts in part 2)."""
    physical: bool = False
    """A physically damaging attack: a natural 1 puts exposed items at risk (WOA-STAT-80)."""
    extra: tuple[Modifier, ...] = ()
    """Spells' and items' bonuses (haste, antitoxin…), typed: the same type does not stack (WOA-STAT-73)."""


def shield_took_it(result: int, shield: int, dc: int) -> bool:
    """WOA-STAT-49/68: the shield bonus made the difference (result − shield < DC ≤ result): the shield suffers the
    attack's effects (a touch attack that missed only because of it; an area save made only with it)."""
    return shield > 0 and result - shield < dc <= result


class WoaSaves(D20Saves):
    """WOA-STAT-59..62 (the core's save bonus: base + Con / Dex / Wis) with WOA's degrees (:meth:`degree`,
    :func:`half_damage_on_save`), Dex on Reflex capped by armor (WOA-STAT-64) and the Reflex modifiers of what the
    save is made against (:meth:`against`, WOA-STAT-63/66..73)."""

    superior_quarter_of = "full"
    """WOA-STAT-76 (AMBIGUOUS, option ``woa_superior_quarter_of``): a superior success's ¼ is of the full damage
    ("full") or of the halved damage ("half")."""

    def __init__(self, *, superior_quarter_of: str = "full") -> None:
        self.superior_quarter_of = superior_quarter_of

    def check_modifiers(self, creature: Creature, state: CombatantState, skill: str) -> list[Modifier]:
        """The core's check, plus WOA-INIT-18's −5 on Perception while readying (W8)."""
        extra = readying_distraction(state, skill)
        return [*super().check_modifiers(creature, state, skill), *([extra] if extra is not None else [])]

    def save_ability(self, creature: Creature, state: CombatantState, kind: SaveKind) -> Modifier:
        """WOA-STAT-60..62/64: Con, Dex, Wis; the Dex bonus on Reflex is capped by the worn armor's max Dex."""
        mod = super().save_ability(creature, state, kind)
        cap = armor_max_dex(creature.sheet) if kind == "ref" else None
        if cap is not None and mod.value > cap:
            return Modifier(cap, f"Dex (+{mod.value} capped at +{cap} by armor)")
        return mod

    def against(self, creature: Creature, state: CombatantState, kind: str, what: SaveAgainst) -> list[Modifier]:
        """The save's modifiers against ``what``: the sheet's (:meth:`save_modifiers`) plus, on Reflex, the
        shield against an expected area attack but never a hazard (WOA-STAT-66/67/69), cover against an area
        attack (WOA-STAT-70), deflection against a weapon-like attack (WOA-STAT-71), +2 when only partly in the
        area (WOA-STAT-72); and the spells' and items' bonuses (WOA-STAT-73)."""
        mods = list(self.save_modifiers(creature, state, kind))
        if self._kind(kind) == "ref":
            shield = shield_bonus(creature) if state.shield_state == "strapped" else 0
            if what.area and what.expected and not what.hazard and shield:
                mods.append(Modifier(shield, "shield vs an area attack", "shield"))
            if what.area and what.cover:
                mods.append(Modifier(what.cover, "cover", "cover"))
            if what.weapon_like and creature.sheet.deflection_bonus:
                mods.append(Modifier(creature.sheet.deflection_bonus, "deflection vs weapon-like", "deflection"))
            if what.partial:
                mods.append(Modifier(2, "partly in the area"))
        mods.extend(what.extra)
        return mods

    def save_degree(self, creature: Creature, state: CombatantState, kind: str, face: int, result: int,
                    dc: int) -> Degree:
        """WOA-STAT-63: a helpless creature (unconscious, immobilized, paralyzed…) fails every Reflex save as if
        the die showed 1 — catastrophically only if the result is also ≤ DC − 10 (WOA-STAT-81)."""
        if self._kind(kind) == "ref" and self.rules.injury.is_helpless(creature, state):
            return degree(1, result, dc)
        return self.degree(kind, face, result, dc)

    @staticmethod
    def items_at_risk(face: int, what: SaveAgainst) -> bool:
        """WOA-STAT-80: a natural 1 against a physically damaging attack may damage exposed items (the Items
        Surviving rules are not in the seed: the hook only says so)."""
        return face == 1 and what.physical

    def creature_succeeds(self, creature: Creature, state: CombatantState, kind: str, face: int, total: int,
                          dc: int) -> bool:
        """WOA-STAT-63 for every save the engine asks of a creature (the GM's called save too); a check as the core."""
        if kind.strip().lower() not in _SAVE_ALIASES:
            return self.succeeds(kind, face, total, dc)
        return self.save_degree(creature, state, kind, face, total, dc) in (Degree.SUCCESS, Degree.SUPERIOR)

    def degree(self, kind: str, face: int, result: int, dc: int) -> Degree:
        """The degree of a saving throw; a check (not a save) only succeeds or fails, with no natural results."""
        if kind.strip().lower() in _SAVE_ALIASES:
            return degree(face, result, dc)
        return Degree.SUCCESS if result >= dc else Degree.FAILURE

    def succeeds(self, kind: str, face: int, total: int, dc: int) -> bool:
        return self.degree(kind, face, total, dc) in (Degree.SUCCESS, Degree.SUPERIOR)
