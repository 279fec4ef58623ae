"""P15 conditions: the condition table (``data/cmv_conditions.yaml``), the small pure helpers of the damage-taken
model (CMV-COND, CMV-INJ), and :class:`ConditionTable`, the component every other off-guard area reads it through."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict

from d20combat.battlefield.cover import CoverDegree, CoverFact
from d20combat.battlefield.grid import Footprint, GameMap
from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import AttackOption, Creature
from d20combat.model.statblock import WeaponKind, ability_mod
from d20combat.numbers import Modifier, total
from d20combat.rulesets.components import NamedConditions, TurnAllowance, View
from d20combat.rulesets.off_guard.options import OffGuardOptions

_SAVE_WORD = {"fort": "Fortitude", "ref": "Reflex"}

# ------------------------------------------------------------------------------------------- data


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




# ------------------------------------------------------------------------------------------ the component


class ConditionTable(NamedConditions):
    """CMV-COND: the 24 conditions in five categories (CMV-COND-01, CMV-COND-16, CMV-INJ-01, CMV-COND-22,
    CMV-COND-32) and the helpless states (CMV-HELP-01) are the rows of ``data/cmv_conditions.yaml``; a
    creature's conditions are the stored ones, those its damage taken implies (bloodied CMV-INJ-03, staggered
    CMV-INJ-09, wounded CMV-INJ-05) and those a condition brings with it (blinded and stunned are off-guard,
    CMV-COND-02, CMV-COND-15; exhausted is fatigued too, CMV-COND-19). The table's numbers on checks and saves
    (bloodied and wounded −1 CMV-INJ-02/04, sickened −2 CMV-COND-12, shaken −2 CMV-COND-24), what fatigue does
    to the ability scores (CMV-COND-17), who may still react (CMV-COND-39, CMV-COND-05) and the stunned
    creature's dropped weapon (CMV-COND-13) are read here by every other area."""

    def __init__(self, opts: OffGuardOptions) -> None:
        self.opts = opts

    # --- what is in force --------------------------------------------------------------------------------------
    def active(self, creature: Creature, state: CombatantState) -> frozenset[str]:
        """Every condition in force: the stored ones, those derived from damage taken (bloodied,
        staggered, wounded) and those a condition brings with it ("includes"), each once."""
        table = cmv_data().conditions
        names = {n for n in stored_conditions(state) if n not in DERIVED}
        hp, dmg = creature.sheet.hp, damage_taken(creature, state)
        if self.bloodied_by_damage(hp, dmg):
            names.add("bloodied")
        if dmg >= hp and not names & {"dying", "stable", "dead"}:
            names.add("staggered")
        if wound_points(state) > 0:
            names.add("bloodied" if self.opts.cmv_wound_points_bloodied else "wounded")
        todo = sorted(names)
        while todo:
            name = todo.pop()
            row = table.get(name)
            if row is None:
                continue
            for inc in row.includes:
                if name == "exhausted" and inc == "fatigued" and not self.opts.cmv_exhausted_includes_fatigued:
                    continue
                if inc not in names:
                    names.add(inc)
                    todo.append(inc)
        return frozenset(names)

    @staticmethod
    def rows(active: frozenset[str]) -> list[tuple[str, ConditionRow]]:
        """The table rows of these conditions, by name."""
        table = cmv_data().conditions
        return [(n, table[n]) for n in sorted(active) if n in table]

    def rows_of(self, creature: Creature, state: CombatantState) -> list[tuple[str, ConditionRow]]:
        return self.rows(self.active(creature, state))

    def bloodied_by_damage(self, hp: int, dmg: int) -> bool:
        """CMV-INJ-03: bloodied once damage taken reaches half of hp (rounded up by default)."""
        if dmg <= 0:
            return False
        if self.opts.cmv_bloodied_rounding == "up":
            return 2 * dmg >= hp
        return dmg >= hp // 2

    def is_off_guard(self, creature: Creature, state: CombatantState) -> bool:
        """CMV-COND-37..41: off-guard by the stored condition (surprise, the GM) or by blinded,
        stunned or cowering (CMV-COND-02/15/30). Dazed is not (CMV-COND-06)."""
        return "off-guard" in self.active(creature, state)

    @staticmethod
    def guided(state: CombatantState) -> bool:
        """Aided by an ally this round (the :class:`~d20combat.rulesets.off_guard.actions.Guide` action)."""
        return any(e.name.startswith("guided by ") for e in state.effects)

    @staticmethod
    def squeezing(game_map: GameMap, creature: Creature, state: CombatantState) -> bool:
        """CMV-SIT-10 (proposed): squeezing while any square of its space is a narrow square, or set by the GM."""
        if "squeezing" in stored_conditions(state):
            return True
        return any(sq in game_map.narrow for sq in Footprint(state.position, creature.space).squares())

    # --- ability scores ------------------------------------------------------------------------------------------
    def ability_delta(self, creature: Creature, active: frozenset[str], ability: str) -> int:
        """CMV-COND-17/19: the change of an ability modifier when the scores drop."""
        change = sum(row.abilities for _, row in self.rows(active))
        if not change:
            return 0
        score = int(getattr(creature.sheet.abilities, ability))
        return ability_mod(max(score + change, 0)) - ability_mod(score)

    def adjusted(self, creature: Creature, active: frozenset[str]) -> Creature:
        """The creature with its ability modifiers recomputed under fatigue (CMV-COND-17/19)."""
        deltas = {a: self.ability_delta(creature, active, a) for a in ("str", "dex", "con")}
        if not any(deltas.values()):
            return creature
        return replace(creature, str_mod=creature.str_mod + deltas["str"], dex_mod=creature.dex_mod + deltas["dex"],
                       con_mod=creature.con_mod + deltas["con"])

    # --- ability scores, checks and saves (the saves area, :class:`~d20combat.rulesets.off_guard.saves.TableSaves`) --
    def ability_score_changes(self, creature: Creature, state: CombatantState) -> list[Modifier]:
        """CMV-COND-17/19: fatigued −2 to every ability score, exhausted a further −2."""
        return [Modifier(row.abilities, name) for name, row in self.rows_of(creature, state) if row.abilities]

    def check_modifiers(self, creature: Creature, state: CombatantState) -> list[Modifier]:
        """The conditions' modifiers on checks (CMV-INJ-02/04, CMV-COND-24): the saves area's."""
        return self.rules.saves.condition_check_modifiers(creature, state)

    def save_modifiers(self, creature: Creature, state: CombatantState, kind: str, *, base: int | None = None,
                       cover_fact: CoverFact | None = None) -> list[Modifier]:
        """A saving throw's modifiers (the saves area's, CMV-COND-12/24/38, CMV-COV-09/12/18); ``base``: a total
        save bonus to use instead of the stat block's."""
        return self.rules.saves.save_modifiers(creature, state, kind, cover_fact=cover_fact, printed=base)

    def saving_throw(self, view: View, cid: str, kind: str, dc: int, why: str) -> bool:
        """Roll a save with the saves area's modifiers and natural 1 and 20 (as PFB's saves, CMV-CDG-07) and log it."""
        saves = self.rules.saves
        creature, cs = view.creature(cid), view.state.get(cid)
        face = view.dice.d20(f"{kind} save {cid}")
        t = total(face, saves.save_modifiers(creature, cs, kind), base_label="d20", stacking=self.rules.stacking)
        ok = saves.succeeds(kind, face, t.value, dc)
        nat = " (natural 20)" if face == 20 else " (natural 1)" if face == 1 else ""
        name = "death save" if kind == "death" else f"{_SAVE_WORD.get(kind, kind.capitalize())} save"
        view.emit(ev.Note(f"{cid} {name} ({why}): {t.explain()} vs DC {dc}{nat} — {'succeeds' if ok else 'fails'}"))
        return ok

    def stealth(self, creature: Creature, state: CombatantState, *, cover_fact: CoverFact | None = None,
                concealment: int = 0, near_total_darkness: bool = False) -> tuple[bool, list[Modifier]]:
        """Whether a Stealth check is allowed, and its modifiers (the Stealth rules are external):
        cover or concealment allows it (CMV-COV-10, CMV-CONC-11), soft cover does not (CMV-COV-13);
        improved cover +10 (CMV-COV-21); near-total darkness +10 (CMV-CONC-19)."""
        soft = isinstance(cover_fact, CmvCover) and cover_fact.soft
        has_cover = cover_fact is not None and cover_fact.degree is CoverDegree.COVER and not soft
        allowed = has_cover or concealment > 0
        mods = self.rules.saves.check_modifiers(creature, state, "stealth")  # the sheet's Stealth, else Dex
        if has_cover and isinstance(cover_fact, CmvCover) and cover_fact.improved:
            mods.append(Modifier(10, "improved cover"))
        if near_total_darkness and self.opts.cmv_hide_is_stealth:
            mods.append(Modifier(10, "near-total darkness"))
        return allowed, mods

    # --- reactions and held items --------------------------------------------------------------------------------
    def can_react(self, creature: Creature, state: CombatantState) -> bool:
        """No reactions while off-guard (CMV-COND-39), helpless (CMV-HELP-04), stunned, cowering;
        a dazed creature may still react (CMV-COND-05)."""
        injury = self.rules.injury
        if not injury.can_act(creature, state) or injury.is_helpless(creature, state):
            return False
        return all(row.reactions for _, row in self.rows_of(creature, state))
