"""Damage: weapon dice, Strength, criticals, precision and energy dice, minimum 1 (PFB-DMG, PFB-CRIT)."""

from __future__ import annotations

from dataclasses import dataclass

from d20combat.dice import DiceSource
from d20combat.model.creature import AttackOption, Creature
from d20combat.model.statblock import WeaponKind


def strength_damage(str_mod: int, option: AttackOption) -> int:
    """PFB-DMG-03..06: Str to melee, thrown and sling damage; 1½ × a positive Str in two hands
    (rounded down, not for light weapons); a negative Str applies to everything but crossbows."""
    kind = option.weapon.kind
    if kind is WeaponKind.SPELL:
        return 0
    if str_mod < 0:
        return 0 if kind in (WeaponKind.CROSSBOW_LIGHT, WeaponKind.CROSSBOW_HEAVY) else str_mod
    if kind in (WeaponKind.MELEE, WeaponKind.THROWN, WeaponKind.SLING):
        if kind is WeaponKind.MELEE and option.two_handed and option.weapon.hands != "light":
            return str_mod * 3 // 2
        return str_mod
    return 0


@dataclass(frozen=True, slots=True)
class DamageRoll:
    total: int
    raw: int
    explanation: str


def roll_damage(
    creature: Creature,
    option: AttackOption,
    dice: DiceSource,
    *,
    multiplier: int = 1,
    precision_d6: int = 0,
    minimum: int = 1,
    strength: int | None = None,
) -> DamageRoll:
    """Roll the weapon's dice ``multiplier`` times and add every static bonus that many times
    (PFB-CRIT-10/11); sneak attack (precision) and energy dice are added once (PFB-CRIT-13/14);
    the hit's total is at least ``minimum`` (PFB-DMG-07, applied after multiplication). ``strength`` is
    the ruleset's Strength share (default: PFB's rule, :func:`strength_damage`)."""
    expr = option.dice
    faces = [dice.roll(expr.sides, f"damage {option.name}") for _ in range(expr.count * multiplier)]
    str_part = strength_damage(creature.str_mod, option) if strength is None else strength
    static = (expr.bonus + str_part + option.weapon.enhancement) * multiplier
    parts = [f"{expr.count * multiplier}d{expr.sides} {sum(faces)}" if faces else ""]
    if static:
        parts.append(f"{'+' if static > 0 else '−'} bonus {abs(static)}")
    extra = 0
    if option.energy is not None:
        e_faces = [dice.roll(option.energy.sides, "energy damage") for _ in range(option.energy.count)]
        extra += sum(e_faces) + option.energy.bonus
        parts.append(f"+ energy {sum(e_faces) + option.energy.bonus}")
    if precision_d6:
        p_faces = [dice.roll(6, "sneak attack") for _ in range(precision_d6)]
        extra += sum(p_faces)
        parts.append(f"+ sneak attack {precision_d6}d6 {sum(p_faces)}")
    raw = sum(faces) + static + extra
    value = max(raw, minimum)
    text = f"{value} = " + " ".join(p for p in parts if p)
    if multiplier > 1:
        text += f" (×{multiplier} critical)"
    if value != raw:
        text += f" (raised from {raw} to the minimum {minimum})"
    return DamageRoll(value, raw, text)


@dataclass(frozen=True, slots=True)
class DamageDistribution:
    """A hit's damage for the exact odds, where a ruleset's damage is not the core's dice-times-multiplier: a
    constant plus independent dice, each die given as the tuple of its equally likely outcomes (a brutal d10 is
    ``(2, 3, …, 10, 10)``). The minimum and mitigation are applied by the odds model."""

    constant: int
    dice: tuple[tuple[int, ...], ...] = ()
