"""Checks of a scenario's references that the schema cannot make: equipment and bestiary names (with a "did you
mean"), and the arguments of starting conditions (``panicked:<combatant id>:<Will DC>``)."""

from __future__ import annotations

from collections.abc import Collection

from d20combat.model.catalog import Catalog, did_you_mean, unknown_name
from d20combat.model.statblock import StatBlock

FEARS = frozenset({"shaken", "frightened", "panicked"})
"""Fears take a source (a combatant id; empty or omitted: the nearest enemy) and a Will DC to overcome them."""
NUMBERED = {"held": ("an escape DC", 1000), "concealed": ("a miss chance", 100), "wound-points": ("a count", 1000)}
"""Conditions whose one argument is a whole number: what it is, and its largest value."""
NUMBERED.update({"miss-chance": ("a miss chance", 100), "faded": ("a level or CR", 100),
                 "stealth": ("a Stealth result", 1000)})
"""Epic Path's: the GM's miss chance (EP-CONC-13), a faded creature's level (EP-CONC-39), a Stealth result
(EP-CONC-20)."""


def equipment_problems(where: str, sheet: StatBlock, catalog: Catalog) -> list[str]:
    """Each weapon, armor or shield named by a stat block that the catalog lacks, by its own path."""
    out = []
    for j, attack in enumerate(sheet.attacks):
        if isinstance(attack.weapon, str) and attack.weapon not in catalog.weapons:
            out.append(f"{where}.attacks[{j}].weapon: {unknown_name('weapon', attack.weapon, catalog.weapons)}")
    if isinstance(sheet.armor, str) and sheet.armor not in catalog.armor:
        out.append(f"{where}.armor: {unknown_name('armor', sheet.armor, catalog.armor)}")
    if isinstance(sheet.shield, str) and sheet.shield not in catalog.shields:
        out.append(f"{where}.shield: {unknown_name('shield', sheet.shield, catalog.shields)}")
    return out


def bestiary_problem(where: str, name: str, catalog: Catalog) -> str:
    known = sorted(catalog.bestiary)
    guess = did_you_mean(name, known)
    hint = f" — did you mean {guess!r}?" if guess is not None else f" (known: {', '.join(known)})"
    return f"{where}: no stat block named {name!r} in the bestiary{hint}"


def _whole(text: str, top: int) -> bool:
    return text.isascii() and text.isdigit() and int(text) <= top


def _normal(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def condition_problem(where: str, text: str, ids: Collection[str]) -> str | None:
    """What is wrong with a starting condition's arguments, or None. ``ids`` are every creature's id (copies of a
    ``count`` as ``goblin-1``, ``goblin-2``…)."""
    name, *args = (part.strip() for part in text.split(":"))
    key = _normal(name)
    if not key:
        return f"{where}: {text!r} has no condition name"
    if key in FEARS:
        if len(args) > 2:
            return f"{where}: {text!r}: {key} takes a source and a Will DC at most, e.g. '{key}:valeros:12'"
        if args and args[0] and args[0] not in ids:
            guess = did_you_mean(args[0], ids)
            hint = f" — did you mean {guess!r}?" if guess is not None else ""
            return f"{where}: {text!r}: the source of the fear, {args[0]!r}, is not a combatant's id{hint}"
        if len(args) == 2 and not _whole(args[1], 1000):
            return f"{where}: {text!r}: the Will DC {args[1]!r} is not a whole number from 0 to 1000"
    elif key in NUMBERED:
        what, top = NUMBERED[key]
        if len(args) > 1:
            return f"{where}: {text!r}: {key} takes one argument at most ({what})"
        if args and not _whole(args[0], top):
            return f"{where}: {text!r}: {what} {args[0]!r} is not a whole number from 0 to {top}"
    return None
