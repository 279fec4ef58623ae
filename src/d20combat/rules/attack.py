"""Attack rolls: modifiers, ranges and the natural 1/20 (PFB-ATK, PFB-NAT)."""

from __future__ import annotations

from dataclasses import dataclass

from d20combat.model.creature import AttackOption, Creature
from d20combat.numbers import Modifier

MIN_RANGED_DISTANCE_FT = 10


@dataclass(frozen=True, slots=True)
class RangeCheck:
    penalty: int
    problem: str | None


def range_check(distance_ft: int, option: AttackOption) -> RangeCheck:
    """−2 per full or partial increment after the first (PFB-ATK-10/11); at most 5 increments for
    thrown weapons and 10 for projectiles (PFB-ATK-05/06); never closer than 10 ft (PFB-ATK-04)."""
    weapon = option.weapon
    if distance_ft < MIN_RANGED_DISTANCE_FT and weapon.kind.value != "spell":
        return RangeCheck(0, f"the target is {distance_ft} ft away; a ranged attack needs at least 10 ft")
    increment = weapon.range_increment_ft
    increments = -(-distance_ft // increment)  # ceiling
    limit = weapon.kind.max_increments
    if increments > limit:
        return RangeCheck(0, f"the target is {distance_ft} ft away, beyond {limit} × {increment} ft")
    return RangeCheck(-2 * max(increments - 1, 0), None)


def attack_roll_modifiers(creature: Creature, option: AttackOption) -> list[Modifier]:
    """d20 + attack bonus + Str (melee) or Dex (ranged, thrown too) + the attack's own bonus
    (PFB-ATK-12..14); touch attacks add the same (PFB-ATK-16)."""
    ability = Modifier(creature.dex_mod, "Dex") if option.is_ranged else Modifier(creature.str_mod, "Str")
    mods = [Modifier(creature.attack_bonus, "BAB"), ability]
    if option.bonus:
        mods.append(Modifier(option.bonus, "Weapon Focus" if option.bonus == 1 else "bonus"))
    if option.weapon.enhancement:
        mods.append(Modifier(option.weapon.enhancement, "enhancement", "enhancement"))
    return mods


def natural_result(face: int) -> tuple[bool, bool]:
    """(automatic hit, automatic miss) for an attack roll or save (PFB-NAT-01..04): only the die counts."""
    return face == 20, face == 1
