"""A combatant's static sheet compiled once per encounter: catalog references resolved, derived
numbers (ability mods, speed, reach, space) computed, so the hot path never touches pydantic."""

from __future__ import annotations

from dataclasses import dataclass

from d20combat.dice.expression import DiceExpr, parse_dice
from d20combat.model.catalog import Catalog
from d20combat.model.statblock import StatBlock, Weapon, WeaponKind, ability_mod


@dataclass(frozen=True, slots=True)
class AttackOption:
    """One way this creature can attack: a weapon with everything the hot path needs precompiled."""

    name: str
    weapon: Weapon
    dice: DiceExpr
    energy: DiceExpr | None
    bonus: int
    two_handed: bool
    off_hand: bool = False
    """Held in the off hand (skill-based two-weapon fighting)."""
    proficient: bool = True
    """Proficient with the weapon (EP-ATK-27: −4 otherwise)."""

    @property
    def kind(self) -> WeaponKind:
        return self.weapon.kind

    @property
    def is_ranged(self) -> bool:
        return self.weapon.kind.is_ranged


@dataclass(frozen=True, slots=True)
class Creature:
    id: str
    name: str
    side: str
    sheet: StatBlock
    str_mod: int
    dex_mod: int
    con_mod: int
    con_score: int
    space: int
    reach_ft: int
    land_speed_ft: int
    fly_speed_ft: int
    armor_bonus: int
    armor_category: str | None
    shield_bonus: int
    attacks: tuple[AttackOption, ...]
    sneaky: bool = False

    @property
    def attack_bonus(self) -> int:
        return self.sheet.attack_bonus

    def attack(self, name: str) -> AttackOption:
        for option in self.attacks:
            if option.name == name:
                return option
        raise KeyError(f"{self.name} has no attack named {name!r}")

    def has_feat(self, feat: str) -> bool:
        return self.sheet.has_feat(feat)


def base_speed_ft(sheet: StatBlock, armor_category: str | None) -> int:
    """PFB-MOVE-08..10: humans and elves 30 ft, 20 ft in medium or heavy armor; dwarves always 20 ft;
    anyone else from the stat block."""
    if sheet.speed_ft is not None:
        return sheet.speed_ft
    race = sheet.race.lower()
    if race == "dwarf":
        return 20
    if armor_category in ("medium", "heavy"):
        return 20
    return 30


def compile_creature(
    cid: str, name: str, side: str, sheet: StatBlock, catalog: Catalog, sneaky: bool = False
) -> Creature:
    armor = catalog.armor_of(sheet.armor)
    shield = catalog.shield_of(sheet.shield)
    attacks: list[AttackOption] = []
    for profile in sheet.attacks:
        weapon = catalog.weapon(profile.weapon)
        attacks.append(
            AttackOption(
                name=weapon.name,
                weapon=weapon,
                dice=parse_dice(weapon.damage),
                energy=parse_dice(weapon.energy_damage) if weapon.energy_damage else None,
                bonus=profile.bonus,
                two_handed=profile.two_handed or weapon.hands == "two",
                off_hand=profile.off_hand,
                proficient=profile.proficient,
            )
        )
    return Creature(
        id=cid,
        name=name,
        side=side,
        sheet=sheet,
        str_mod=ability_mod(sheet.abilities.str),
        dex_mod=ability_mod(sheet.abilities.dex),
        con_mod=ability_mod(sheet.abilities.con),
        con_score=sheet.abilities.con,
        space=sheet.size.space,
        reach_ft=sheet.reach_ft or sheet.size.default_reach_ft,
        land_speed_ft=base_speed_ft(sheet, armor.category if armor else None),
        fly_speed_ft=sheet.fly_speed_ft,
        armor_bonus=armor.armor_bonus if armor else 0,
        armor_category=armor.category if armor else None,
        shield_bonus=shield.shield_bonus if shield else 0,
        attacks=tuple(attacks),
        sneaky=sneaky,
    )
