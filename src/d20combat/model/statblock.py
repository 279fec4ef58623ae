"""Stat blocks, weapons and armor. Everything here is static for the whole encounter."""

from __future__ import annotations

import builtins
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StringConstraints,
    Tag,
    field_validator,
    model_validator,
)

from d20combat.dice.expression import DiceSyntaxError, parse_dice
from d20combat.limits import (
    MAX_DICE_COUNT,
    MAX_DICE_TEXT,
    MAX_FEET,
    MAX_HP,
    MAX_LIST_ITEMS,
    MAX_MODIFIER,
    MAX_NAME_CHARS,
)

Name = Annotated[str, StringConstraints(max_length=MAX_NAME_CHARS)]
"""A name, id or reference: at most :data:`~d20combat.limits.MAX_NAME_CHARS` characters."""
Dice = Annotated[str, StringConstraints(max_length=MAX_DICE_TEXT)]
Modifier = Annotated[int, Field(ge=-MAX_MODIFIER, le=MAX_MODIFIER)]
Bonus = Annotated[int, Field(ge=0, le=MAX_MODIFIER)]
Enhancement = Annotated[int, Field(ge=0, le=5)]
"""A superior item's enhancement bonus, +1 to +5 (WOA-STAT-19/37)."""
Feet = Annotated[int, Field(ge=0, le=MAX_FEET, multiple_of=5)]

BY_NAME, INLINE = "by name", "inline"
"""Tags of the name-or-inline unions: a string is a reference by name, a mapping an inline block. Choosing the
branch from the input's type keeps errors to the branch the user meant (no union noise in field paths)."""


def _name_or_inline(value: Any) -> str:
    return BY_NAME if isinstance(value, str) else INLINE


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def ability_mod(score: int) -> int:
    return (score - 10) // 2


class Size(StrEnum):
    """Size categories with their space in squares and default natural reach (PFB-GRID-03/04/07)."""

    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"
    LARGE_LONG = "large-long"

    @property
    def space(self) -> int:
        return 2 if self in (Size.LARGE, Size.LARGE_LONG) else 1

    @property
    def default_reach_ft(self) -> int:
        # PF1 CRB default (PFB-GRID-07 is MISSING): tall Large creatures reach 10 ft.
        return 10 if self is Size.LARGE else 5


class WeaponKind(StrEnum):
    MELEE = "melee"
    THROWN = "thrown"
    BOW = "bow"
    CROSSBOW_LIGHT = "crossbow-light"
    CROSSBOW_HEAVY = "crossbow-heavy"
    SLING = "sling"
    SPELL = "spell"

    @property
    def is_ranged(self) -> bool:
        return self is not WeaponKind.MELEE

    @property
    def max_increments(self) -> int:
        """PFB-ATK-05/06: thrown 5 increments; bows, crossbows and slings 10."""
        if self is WeaponKind.SPELL:
            return 1  # a spell reaches its stated range, no increments
        return 5 if self is WeaponKind.THROWN else 10


def _check_dice(value: str | None) -> str | None:
    if value is not None:
        try:
            parse_dice(value)
        except DiceSyntaxError as exc:
            raise ValueError(str(exc)) from None
    return value


class Weapon(_Strict):
    """A weapon (PFB-DMG-02: the Equipment chapter is MISSING; the shipped table is PF1 CRB's)."""

    name: Name
    damage: Dice = Field(description="damage dice, e.g. '1d8'")
    kind: WeaponKind = WeaponKind.MELEE
    hands: Literal["light", "one", "two"] = "one"
    threat_min: int = Field(20, ge=2, le=20, description="lowest natural roll that threatens (PFB-CRIT-09)")
    crit_mult: int = Field(2, ge=2, le=6, description="critical multiplier (PFB-CRIT-12)")
    range_increment_ft: Feet = 0
    enhancement: Modifier = 0
    energy_damage: Dice | None = Field(None, description="extra energy dice, never multiplied (PFB-CRIT-14)")
    reload: Literal["none", "move", "full-round"] = "none"
    touch: bool = False
    skill: Name | None = Field(None, description="the weapon skill it uses (skill-based rules, SKL-ATK-08)")
    reach: bool = Field(False, description="a reach weapon (skill-based rules, SKL-AOO-06/08)")
    double: bool = Field(False, description="a double weapon (skill-based rules, SKL-TWF-20/21)")
    qualities: tuple[Name, ...] = Field(
        (), max_length=MAX_LIST_ITEMS, description="weapon qualities by name, for the rulesets that read them "
        "(Epic Path: brutal, unwieldy, cumbersome, lance, brace, increased-multiplier, EP-ATK-25/26, EP-DMG-11..16; "
        "magic, ghost_touch, force: what harms incorporeal, nebulous, phased creatures)")
    max_range_ft: Feet | None = Field(None, description="a shorter maximum range than its increments give "
                                                        "(EP-ATK-16)")
    splash: Dice | None = Field(None, description="a splash weapon's splash damage (epic-path, EP-SPLASH-05); "
                                                  "``damage`` is its direct-hit damage")
    splash_dc: int | None = Field(None, ge=1, le=60, description="the Reflex DC for half the splash damage "
                                                                  "(EP-SPLASH-08)")

    _v_damage = field_validator("damage")(_check_dice)
    _v_energy = field_validator("energy_damage")(_check_dice)
    _v_splash = field_validator("splash")(_check_dice)

    @model_validator(mode="after")
    def _ranged_needs_increment(self) -> Weapon:
        if self.kind.is_ranged and self.range_increment_ft <= 0:
            raise ValueError(f"ranged weapon {self.name!r} needs a range_increment_ft")
        return self


class Armor(_Strict):
    name: Name
    armor_bonus: Bonus
    category: Literal["light", "medium", "heavy"] = "light"
    max_dex: Bonus | None = Field(None, description="the most Dex bonus it allows to AC (and, in worlds-of-adventure, "
                                                    "to Reflex saves, WOA-STAT-36/64); None = no cap or the ruleset's "
                                                    "table")
    enhancement: Enhancement = Field(0, description="a superior armor's enhancement bonus to AC (WOA-STAT-37); read "
                                                    "by the rulesets that name it")
    energy_resistance: dict[Name, Bonus] = Field(
        default_factory=dict, max_length=MAX_LIST_ITEMS,
        description="energy resistance the armor grants, e.g. {electricity: 5} for non-metallic armor (WOA-STAT-51)")


class Shield(_Strict):
    name: Name
    shield_bonus: Bonus
    light: bool = Field(False, description="a light shield (skill-based two-weapon table, SKL-TWF-10)")
    skill: Name | None = Field(None, description="the skill a block or bash with it uses (SKL-DEF-04)")
    enhancement: Enhancement = Field(0, description="a superior shield's enhancement bonus to AC (WOA-STAT-37); read "
                                                    "by the rulesets that name it")


class Abilities(_Strict):
    """Ability scores; the YAML keys are the sheet's short names (str, dex, …)."""

    str: builtins.int = Field(10, ge=0, le=50)
    dex: builtins.int = Field(10, ge=0, le=50)
    con: builtins.int = Field(10, ge=0, le=50)
    int: builtins.int = Field(10, ge=0, le=50)
    wis: builtins.int = Field(10, ge=0, le=50)
    cha: builtins.int = Field(10, ge=0, le=50)


class Saves(_Strict):
    """Saving-throw bonuses as a stat block prints them: totals, the ability modifier included (Fort Con, Ref Dex,
    Will Wis). A save left out is derived from the ability modifier alone."""

    fort: Modifier | None = Field(None, description="Fortitude save bonus (total)")
    ref: Modifier | None = Field(None, description="Reflex save bonus (total)")
    will: Modifier | None = Field(None, description="Will save bonus (total)")

    def get(self, kind: builtins.str) -> builtins.int | None:
        """The printed bonus of ``kind`` (fort, ref, will), or None."""
        return getattr(self, kind, None) if kind in ("fort", "ref", "will") else None


WeaponRef = Annotated[Annotated[Name, Tag(BY_NAME)] | Annotated[Weapon, Tag(INLINE)], Discriminator(_name_or_inline)]
ArmorRef = Annotated[Annotated[Name, Tag(BY_NAME)] | Annotated[Armor, Tag(INLINE)], Discriminator(_name_or_inline)]
ShieldRef = Annotated[Annotated[Name, Tag(BY_NAME)] | Annotated[Shield, Tag(INLINE)], Discriminator(_name_or_inline)]


class AttackProfile(_Strict):
    """An attack a creature can make: a weapon by name (or inline), plus per-attack extras."""

    weapon: WeaponRef
    bonus: Modifier = Field(0, description="situational bonus that always applies, e.g. Weapon Focus +1")
    two_handed: bool = Field(False, description="wielded in both hands (PFB-DMG-05)")
    off_hand: bool = Field(False, description="held in the off hand, ready without drawing (SKL-TWF-01)")
    proficient: bool = Field(True, description="proficient with the weapon; False: −4 where a ruleset says so "
                                               "(EP-ATK-27)")


class StatBlock(_Strict):
    """A creature's sheet. Fields follow the PFB text's words (PFB.md 'Engine implications')."""

    name: Name = Field("", description="in a scenario, an inline block defaults to its combatant's name")
    race: Name = "monster"
    size: Size = Size.MEDIUM
    abilities: Abilities = Field(default_factory=lambda: Abilities.model_validate({}))
    attack_bonus: Modifier = Field(0, description="the sheet's base attack bonus, without ability mods (PFB-ATK-12)")
    hp: int = Field(ge=1, le=MAX_HP, description="maximum hit points (a scenario's combatant may start lower)")
    speed_ft: Feet | None = Field(None, description="overrides the race/armor rule")
    fly_speed_ft: Feet = 0
    reach_ft: Feet | None = Field(None, ge=5)
    armor: ArmorRef | None = None
    shield: ShieldRef | None = None
    natural_armor: Bonus = 0
    dodge_bonus: Bonus = Field(0, description="Dodge feat and similar dodge bonuses to AC")
    deflection_bonus: Bonus = 0
    ac_other: Modifier = Field(0, description="other untyped AC modifiers (PFB-AC-02), e.g. a designer's adjustment")
    init_modifier: Modifier | None = Field(None, description="the sheet's total initiative modifier (PFB-INIT-03)")
    saves: Saves | None = Field(None, description="saving-throw bonuses as printed, e.g. {fort: 4, ref: 1, will: 0}; "
                                                  "a save left out is the ability modifier alone")
    feats: tuple[Name, ...] = Field((), max_length=MAX_LIST_ITEMS)
    sneak_attack_dice: int = Field(0, ge=0, le=MAX_DICE_COUNT)
    low_light_vision: bool = False
    darkvision_ft: Feet = 0
    senses: dict[Name, Feet] = Field(default_factory=dict, max_length=MAX_LIST_ITEMS,
                                     description="special senses and their range in feet, e.g. {blindsense: 30, "
                                                 "tremorsense: 60} (Epic Path, EP-CONC-12/14)")
    skills: dict[Name, Modifier] = Field(default_factory=dict, max_length=MAX_LIST_ITEMS)
    attributes: dict[Name, Modifier] = Field(
        default_factory=dict, max_length=MAX_LIST_ITEMS,
        description="other systems' attribute scores, e.g. agility (SKL-INIT-02)")
    armor_rating: Bonus | None = Field(
        None, description="armor subtracted from damage (SKL-DMG-03); None = from the worn armor")
    attacks: tuple[AttackProfile, ...] = Field((), max_length=MAX_LIST_ITEMS)
    wielding: Name | None = Field(None, description="the weapon in hand when combat starts")
    shield_state: Literal["strapped", "held", "stowed"] = "strapped"

    @model_validator(mode="after")
    def _wielding_is_an_attack(self) -> StatBlock:
        names = {a.weapon if isinstance(a.weapon, str) else a.weapon.name for a in self.attacks}
        if self.wielding is not None and self.wielding not in names:
            raise ValueError(f"wielding {self.wielding!r} is not one of its attacks {sorted(names)}")
        return self

    def has_feat(self, feat: str) -> bool:
        wanted = feat.lower().replace(" ", "_")
        return any(f.lower().replace(" ", "_") == wanted for f in self.feats)
