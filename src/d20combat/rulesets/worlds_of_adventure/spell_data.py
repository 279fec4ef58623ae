"""The spells, potions and devices of ``data/woa_spells.yaml`` (WOA-SPELL-01/16, WOA-ITEM-21..33) and what a
creature carries of them.

The seed gives no spell descriptions: the table is the inventory's reading (an assumption, named in
``docs/worlds-of-adventure/spells-and-items.md``). A creature's stat block says what it has in its ``attributes``:
``spell_<name>: N`` (N castings prepared), ``scroll_<name>: N``, ``wand_<name>: charges``, ``potion_<name>: N``,
``device_<name>: 1``. What is used up is the condition ``used:<attribute>:<n>`` (events only).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Literal

import yaml

from d20combat.dice.expression import DiceExpr, DiceSyntaxError, parse_dice
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.rulesets.components import RuleError

CastingTime = Literal["standard", "full_round", "move", "swift", "free"]
Timing = Literal["immediate", "end_of_turn", "end_of_round"]
CASTING_TIMES: tuple[str, ...] = ("standard", "full_round", "move", "swift", "free")
COMPONENTS = frozenset({"V", "S", "M", "F", "DF"})


@dataclass(frozen=True, slots=True)
class Effect:
    """What a spell or potion does: damage (with a save), a timed buff, or healing."""

    damage: DiceExpr | None = None
    save: str = "none"
    half: bool = False
    radius_ft: int = 0
    heal: DiceExpr | None = None
    ac: int = 0
    attack: int = 0
    rounds: int = 0
    condition: str = ""
    """A buff's condition while it lasts (haste: ``hasted``, the extra move action of WOA-MOVE-12)."""

    @property
    def ongoing(self) -> bool:
        """A buff (an enhancement or other ongoing benefit, WOA-ITEM-23)."""
        return self.rounds > 0


@dataclass(frozen=True, slots=True)
class Spell:
    name: str
    level: int
    casting_time: CastingTime
    components: frozenset[str]
    effect: Effect = field(default_factory=Effect)
    battle_condition_altering: bool = False
    touch: bool = False
    provokes: bool = True
    dismissible: bool = False
    concentration: bool = False
    directable: bool = False
    counterspell_only: bool = False
    """WOA-INIT-24: dispel magic is used only as a readied counterspell here (its other uses are out of scope)."""

    @property
    def label(self) -> str:
        return self.name.replace("_", " ")

    @property
    def disruptable(self) -> bool:
        """WOA-SPELL-11/13: a standard or full-round casting time has a disruption window; move, swift, free none."""
        return self.casting_time in ("standard", "full_round")

    def timing(self) -> Timing:
        """WOA-SPELL-14..16: buffs, debuffs and summons at the end of the round; standard and full-round at the end
        of the caster's turn; move, swift and free at once."""
        if self.battle_condition_altering:
            return "end_of_round"
        return "end_of_turn" if self.disruptable else "immediate"


def _dice(text: Any, where: str) -> DiceExpr:
    try:
        return parse_dice(str(text))
    except DiceSyntaxError as exc:
        raise ValueError(f"data/woa_spells.yaml: {where}: {exc}") from None


def _effect(raw: Any, where: str) -> Effect:
    if not isinstance(raw, dict):
        raise ValueError(f"data/woa_spells.yaml: {where}.effect must be a mapping")
    if "damage" in raw:
        d = raw["damage"]
        return Effect(damage=_dice(d["dice"], f"{where}.damage"), save=str(d.get("save", "none")),
                      half=bool(d.get("half", False)), radius_ft=int(d.get("radius_ft", 0)))
    if "heal" in raw:
        return Effect(heal=_dice(raw["heal"]["dice"], f"{where}.heal"))
    if "buff" in raw:
        b = raw["buff"]
        return Effect(ac=int(b.get("ac", 0)), attack=int(b.get("attack", 0)), rounds=int(b.get("rounds", 1)),
                      condition=str(b.get("condition", "")))
    return Effect()


@cache
def _raw() -> dict[str, Any]:
    text = resources.files("d20combat.data").joinpath("woa_spells.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    assert isinstance(data, dict)
    return data


@cache
def spell_table() -> dict[str, Spell]:
    out: dict[str, Spell] = {}
    for name, raw in _raw()["spells"].items():
        where = f"spells.{name}"
        if raw["casting_time"] not in CASTING_TIMES:
            raise ValueError(f"data/woa_spells.yaml: {where}.casting_time {raw['casting_time']!r} is not one of "
                             f"{', '.join(CASTING_TIMES)}")
        comps = frozenset(raw.get("components", ()))
        if not comps <= COMPONENTS:
            raise ValueError(f"data/woa_spells.yaml: {where}.components: unknown {sorted(comps - COMPONENTS)}")
        out[name] = Spell(name, int(raw["level"]), raw["casting_time"], comps, _effect(raw.get("effect", {}), where),
                          bool(raw.get("battle_condition_altering", False)), bool(raw.get("touch", False)),
                          bool(raw.get("provokes", True)), bool(raw.get("dismissible", False)),
                          bool(raw.get("concentration", False)), bool(raw.get("directable", False)),
                          bool(raw.get("counterspell_only", False)))
    return out


@cache
def potion_table() -> dict[str, Effect]:
    return {name: _effect(raw.get("effect", {}), f"potions.{name}") for name, raw in _raw()["potions"].items()}


@cache
def device_table() -> dict[str, str]:
    return {name: str(raw["activation_action"]) for name, raw in _raw()["devices"].items()}


def spell(name: str, where: str) -> Spell:
    found = spell_table().get(name)
    if found is None:
        raise RuleError(f"{where}: no spell {name!r} (data/woa_spells.yaml has: {', '.join(sorted(spell_table()))})")
    return found


# --- what a creature carries (its attributes) and what it has used (conditions) --------------------------------
def used(state: CombatantState, key: str) -> int:
    prefix = f"used:{key}:"
    return next((int(c[len(prefix):]) for c in state.conditions if c.startswith(prefix)), 0)


def left(creature: Creature, state: CombatantState, key: str) -> int:
    """How many of ``key`` (``spell_fireball``, ``potion_bulls_strength``…) the creature still has."""
    return int(creature.sheet.attributes.get(key, 0)) - used(state, key)


def need(creature: Creature, state: CombatantState, key: str, what: str) -> None:
    if left(creature, state, key) <= 0:
        had = int(creature.sheet.attributes.get(key, 0))
        raise RuleError(f"{what}: {creature.id} has no {key.replace('_', ' ', 1)} left "
                        f"({had} on its sheet as attributes.{key}, {used(state, key)} used)")


def use_up(view: Any, cid: str, key: str, why: str) -> None:
    """One more of ``key`` used: the counter condition ``used:<key>:<n>`` goes up (events only)."""
    from d20combat.encounter import events as ev

    n = used(view.state.get(cid), key)
    if n:
        view.emit(ev.ConditionSet(cid, f"used:{key}:{n}", False, why))
    view.emit(ev.ConditionSet(cid, f"used:{key}:{n + 1}", True, why))


def spells_left(creature: Creature, state: CombatantState) -> list[str]:
    """The spells ``creature`` still has a use of (what it could counter with)."""
    return [name for name in sorted(spell_table()) if left(creature, state, f"spell_{name}") > 0]
