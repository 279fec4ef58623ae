"""Static data: sizes, weapons, armor and stat blocks, validated with pydantic."""

from d20combat.model.catalog import Catalog, default_catalog
from d20combat.model.statblock import (
    Abilities,
    Armor,
    AttackProfile,
    Shield,
    Size,
    StatBlock,
    Weapon,
    WeaponKind,
    ability_mod,
)

__all__ = [
    "Abilities",
    "Armor",
    "AttackProfile",
    "Catalog",
    "Shield",
    "Size",
    "StatBlock",
    "Weapon",
    "WeaponKind",
    "ability_mod",
    "default_catalog",
]
