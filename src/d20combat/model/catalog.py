"""The shipped equipment and bestiary: data files, not code."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict

from d20combat.model.statblock import Armor, Shield, StatBlock, Weapon


class Catalog(BaseModel):
    model_config = ConfigDict(frozen=True)

    weapons: dict[str, Weapon]
    armor: dict[str, Armor]
    shields: dict[str, Shield]
    bestiary: dict[str, StatBlock]

    def weapon(self, ref: str | Weapon) -> Weapon:
        return ref if isinstance(ref, Weapon) else self.weapons[ref]

    def armor_of(self, ref: str | Armor | None) -> Armor | None:
        return self.armor[ref] if isinstance(ref, str) else ref

    def shield_of(self, ref: str | Shield | None) -> Shield | None:
        return self.shields[ref] if isinstance(ref, str) else ref


def _load(name: str) -> Any:
    return yaml.safe_load(resources.files("d20combat.data").joinpath(name).read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def default_catalog() -> Catalog:
    weapons = {k: {"name": k, **v} for k, v in _load("weapons.yaml").items()}
    armor_data = _load("armor.yaml")
    armor = {k: {"name": k, **v} for k, v in armor_data["armor"].items()}
    shields = {k: {"name": k, **v} for k, v in armor_data["shields"].items()}
    bestiary = {k: {"name": k, **v} for k, v in _load("bestiary.yaml").items()}
    return Catalog.model_validate({"weapons": weapons, "armor": armor, "shields": shields, "bestiary": bestiary})
