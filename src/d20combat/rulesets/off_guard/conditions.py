"""The condition table (data/cmv_conditions.yaml) and the small pure helpers of the damage-taken model (CMV-COND,
CMV-INJ)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Literal

import yaml
from pydantic import BaseModel, ConfigDict

from d20combat.battlefield.cover import CoverFact
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import AttackOption, Creature
from d20combat.model.statblock import WeaponKind
from d20combat.rulesets.base import TurnAllowance

if TYPE_CHECKING:
    pass

# ---------------------------------------------------------------------------------------- options


class ConditionRow(BaseModel):
    """One row of ``data/cmv_conditions.yaml`` (its header explains the fields)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    category: str
    attack: int = 0
    melee_attack: int = 0
    checks: int = 0
    initiative: int = 0
    saves: int = 0
    death_saves: bool = False
    ac: int = 0
    melee_ac: int = 0
    ranged_ac: int = 0
    abilities: int = 0
    speed: Literal["half", "stop"] | None = None
    speed_ft: int = 0
    actions: Literal["none", "minor", "single", "escape"] | None = None
    reactions: bool = True
    helpless: bool = False
    includes: tuple[str, ...] = ()
    ranged: Literal["crossbow"] | None = None
    no_charge: bool = False
    drops_held: bool = False
    spell_fumble: int = 0
    rules: tuple[str, ...] = ()


class CmvData(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    conditions: dict[str, ConditionRow]
    long_piercing: dict[str, tuple[str, ...]]


@lru_cache(maxsize=1)
def cmv_data() -> CmvData:
    text = resources.files("d20combat.data").joinpath("cmv_conditions.yaml").read_text(encoding="utf-8")
    return CmvData.model_validate(yaml.safe_load(text))


CATEGORIES = ("confusion", "exhaustion", "injury", "fear", "combat")
DERIVED = frozenset({"bloodied", "staggered"})
"""Conditions that follow from damage taken: stored only as a mirror for the log, never read back."""
CROSSBOWS = (WeaponKind.CROSSBOW_LIGHT, WeaponKind.CROSSBOW_HEAVY)
PROJECTILES = (WeaponKind.BOW, WeaponKind.CROSSBOW_LIGHT, WeaponKind.CROSSBOW_HEAVY, WeaponKind.SLING)
CONCEALMENT_CAP = 50
LOW_OBSTACLE_REACH_FT = 30
_NO_ACTION_ORDER = ("dead", "dying", "stable", "unconscious", "asleep", "bound", "paralyzed", "helpless",
                    "stunned", "cowering", "dazed")
_CANNOT_ACT_TEXT = {
    "dead": "dead (CMV-INJ-17)",
    "dying": "dying: unconscious and helpless (CMV-INJ-10)",
    "stable": "stable: unconscious and helpless (CMV-INJ-14)",
    "unconscious": "unconscious: helpless (CMV-COND-21)",
    "stunned": "stunned: takes no actions (CMV-COND-14)",
    "cowering": "cowering: takes no actions (CMV-COND-31)",
}


def parse_condition(text: str) -> tuple[str, tuple[str, ...]]:
    """``"frightened:ogre:15"`` → ``("frightened", ("ogre", "15"))``; names are lower case with hyphens."""
    name, *args = text.split(":")
    return name.strip().lower().replace("_", "-").replace(" ", "-"), tuple(a.strip() for a in args)


def stored_conditions(state: CombatantState) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Stored conditions by name: (the stored text, its arguments)."""
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for text in sorted(state.conditions):
        name, args = parse_condition(text)
        out.setdefault(name, (text, args))
    return out


def damage_taken(creature: Creature, state: CombatantState) -> int:
    """CMV-INJ-03: damage taken, counted against the stat block's fixed hp. The core keeps
    hp = hp_max − damage (rules-diff §4 item 4), so damage taken is hp_max − current hp: a scenario
    that starts a creature below its hp starts it with that much damage, and healing lowers it."""
    return max(creature.sheet.hp - state.hp, 0)


def wound_points(state: CombatantState) -> int:
    """CMV-INJ-05: wound points are set only by effects (the scenario's ``wound_points:N`` condition)."""
    got = stored_conditions(state).get("wound-points")
    if got is None:
        return 0
    _, args = got
    try:
        return int(args[0]) if args else 1
    except ValueError:
        return 1


def long_piercing(option: AttackOption) -> bool:
    """CMV-COV-23 (proposed weapon data): arrows, bolts, spears, lances and pikes."""
    data = cmv_data().long_piercing
    return option.kind.value in data["kinds"] or option.weapon.name in data["weapons"] or option.name in data["weapons"]


def reflex_damage(damage: int, *, saved: bool, improved_cover: bool) -> int:
    """Damage from an effect that allows partial damage on a Reflex save (half on a success).
    CMV-COV-19/20: behind improved cover a failed save takes half and a successful one none."""
    if improved_cover:
        return 0 if saved else damage // 2
    return damage // 2 if saved else damage


# --------------------------------------------------------------------------- facts the ruleset adds


@dataclass(frozen=True, slots=True)
class CmvCover(CoverFact):
    """A cover fact with CMV's grades: improved cover (GM, CMV-COV-18), soft cover from creatures
    (CMV-COV-11..13) and a GM's AC modifier for one attack (CMV-SIT-03, CMV-COV-22)."""

    improved: bool = False
    soft: bool = False
    gm_ac: int = 0


class CmvAllowance(TurnAllowance):
    """PFB's turn allowance plus what CMV's conditions take away (CMV-COND-05/09/36, CMV-INJ-06)."""

    no_actions: str = ""
    minor_only: str = ""
    held: bool = False


# ----------------------------------------------------------------------------- ruleset's own actions
