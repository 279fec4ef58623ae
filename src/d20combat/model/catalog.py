"""The shipped equipment and bestiary: data files, not code."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
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


def _normal(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def did_you_mean(name: str, known: Iterable[str]) -> str | None:
    """The known name closest to a misspelt one (``"chainshirt"`` → ``"chain-shirt"``), or None if none is close.
    Spacing, case and ``_``/``-``/space differences count as the same name."""
    by_normal = {_normal(k).replace("-", ""): k for k in sorted(known)}
    wanted = _normal(name).replace("-", "")
    if wanted in by_normal:
        return by_normal[wanted]
    close = difflib.get_close_matches(wanted, list(by_normal), n=1, cutoff=0.6)
    return by_normal[close[0]] if close else None


def unknown_name(kind: str, name: str, known: Iterable[str]) -> str:
    """``"unknown armor 'chainshirt' — did you mean 'chain-shirt'?"``; without a close name, the known ones."""
    names = sorted(known)
    guess = did_you_mean(name[:100], names)
    if guess is not None:
        return f"unknown {kind} {name!r} — did you mean {guess!r}?"
    return f"unknown {kind} {name!r} (known: {', '.join(names)})"


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
