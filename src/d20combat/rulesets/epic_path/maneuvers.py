"""Epic Path's combat maneuvers (EP-MAN-01..06): a Maneuver Offense check (d20 + offense) against the target's
Maneuver Defense; how far it beats the defense is the degree of success (the per-maneuver tables are external, so
the GM applies the effect — except a trip, which knocks the target prone). A standard action (EP-MAN-02), never an
attack of opportunity (EP-MAN-05), never by or against an incorporeal creature (EP-MAN-06). The formulas are data
(``data/ep_maneuvers.yaml``, option ``ep_maneuver_formula``): the text names the numbers but not their sums."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, ClassVar

import yaml

from d20combat.battlefield.reach import within_reach
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier, total
from d20combat.rules.armor_class import DefenseContext
from d20combat.rulesets.components import RuleError
from d20combat.rulesets.epic_path.melee import FULL_ATTACK

if TYPE_CHECKING:
    from d20combat.encounter.engine import Encounter, Tx
    from d20combat.rulesets.epic_path.options import EpOptions

MANEUVERS = ("trip", "bull rush", "dirty trick", "disarm", "grapple", "overrun", "reposition", "sunder", "steal",
             "drag")
"""The maneuvers a creature may attempt (EP-MAN-02 names trip and dirty trick; the rest are PF1's)."""


@lru_cache(maxsize=1)
def maneuver_table() -> dict[str, Any]:
    text = resources.files("d20combat.data").joinpath("ep_maneuvers.yaml").read_text(encoding="utf-8")
    data: dict[str, Any] = yaml.safe_load(text)
    return data


def _terms(creature: Creature, terms: list[Any], ac: int | None = None) -> list[Modifier]:
    size = int(maneuver_table()["size"].get(str(creature.sheet.size), 0))
    values = {"bab": (creature.attack_bonus, "BAB"), "str": (creature.str_mod, "Str"),
              "dex": (creature.dex_mod, "Dex"), "size": (size, "size")}
    mods = []
    for term in terms:
        if isinstance(term, int):
            mods.append(Modifier(term, "base"))
        elif term == "ac":
            mods.append(Modifier(ac or 0, "AC"))
        else:
            value, label = values[term]
            mods.append(Modifier(value, label))
    return [m for m in mods if m.value or m.source == "base"]


def maneuver_offense(creature: Creature, formula: str) -> list[Modifier]:
    """EP-MAN-01: the Maneuver Offense bonus, term by term."""
    return _terms(creature, maneuver_table()["formulas"][formula]["offense"])


def maneuver_defense(creature: Creature, formula: str, ac: int) -> list[Modifier]:
    """EP-MAN-01: the Maneuver Defense value, term by term (``ac``: the creature's AC, for the 'attack_bonus' row)."""
    return _terms(creature, maneuver_table()["formulas"][formula]["defense"], ac)


@dataclass(frozen=True, slots=True)
class Maneuver(ax.Action):
    """A combat maneuver against an adjacent foe (EP-MAN-01/02): trip, bull rush, dirty trick…"""

    kind: ClassVar[str] = "maneuver"
    target: str = ""
    maneuver: str = "trip"

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"{self.maneuver.capitalize()} {name(self.target)}"


GRAPPLED = "grappled"
"""The condition a successful grapple leaves on its target, until the target escapes (EP-MAN-03) or the GM lifts it."""


def charging(view: Any, actor: str) -> bool:
    """The actor charged this turn: its charge's −2 AC effect began this round (EP-MAN-04's "charging character";
    the bull rush comes from the standard action an action point grants after the charge, EP-MOVE-24)."""
    s = view.state
    return any(e.name == "charging" and e.until_round == s.round + 1 for e in s.get(actor).effects)


@dataclass(frozen=True, slots=True)
class EscapeGrapple(ax.Action):
    """Escape a grapple with Maneuver Defense (EP-MAN-03): a standard action against the grappler ``grappler``."""

    kind: ClassVar[str] = "escape_grapple"
    grappler: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Escape {name(self.grappler)}'s grapple"


class Maneuvers:
    def __init__(self, opts: EpOptions) -> None:
        self.opts = opts

    def attempt(self, engine: Encounter, tx: Tx, actor: str, a: Maneuver, dry: bool) -> None:
        s = tx.state
        name = a.maneuver.strip().lower()
        if name not in MANEUVERS:
            raise RuleError(f"maneuver: unknown maneuver {a.maneuver!r}; known: {', '.join(MANEUVERS)}")
        if a.target not in s.combatants or a.target == actor:
            raise RuleError(f"maneuver: no target {a.target!r}")
        for who in (actor, a.target):
            if s.get(who).has("incorporeal"):
                raise RuleError(f"maneuver: {who} is incorporeal: no maneuvers by or against it (EP-MAN-06)")
        turn = s.turn
        assert turn is not None
        if FULL_ATTACK in turn.pools:
            raise RuleError("maneuver: in a full attack a maneuver can only replace the first attack (EP-MAN-02, "
                            "EP-ACT-11)")
        creature = engine.creature(actor)
        if not within_reach(engine.footprint(actor, s), creature.reach_ft, engine.footprint(a.target, s)):
            raise RuleError(f"maneuver: {a.target} is not within {actor}'s reach")
        engine.pay(tx, actor, f"{name} {a.target}", "standard", dry)
        if dry:
            return
        formula = self.opts.ep_maneuver_formula
        target = engine.creature(a.target)
        target_ac = engine.ruleset.defense.total(target, s.get(a.target), DefenseContext(), [], tx).value
        offense = [*maneuver_offense(creature, formula),
                   *[Modifier(e.attack, e.name) for e in s.get(actor).effects if e.attack]]
        if name == "bull rush" and charging(tx, actor):  # EP-MAN-04
            offense.append(Modifier(2, "charging (EP-MAN-04)"))
        d_mods = maneuver_defense(target, formula, target_ac)
        base = sum(m.value for m in d_mods if m.source == "base")
        rest = [m for m in d_mods if m.source != "base"]
        if not base and rest:
            defense = total(rest[0].value, rest[1:], base_label=rest[0].source, stacking=engine.ruleset.stacking)
        else:
            defense = total(base, rest, stacking=engine.ruleset.stacking)
        face = tx.dice.d20(f"maneuver offense {actor}->{a.target}")
        roll = total(face, offense, base_label="d20", stacking=engine.ruleset.stacking)
        ok = roll.value >= defense.value
        margin = roll.value - defense.value
        text = (f"{actor} attempts to {name} {a.target}: Maneuver Offense {roll.explain()} vs Maneuver Defense "
                f"{defense.explain()} — " + (f"succeeds by {margin} (EP-MAN-01)" if ok else "fails (EP-MAN-01)"))
        tx.emit(ev.Note(text))
        if ok and name == "trip" and not s.get(a.target).has("prone"):
            tx.emit(ev.ConditionSet(a.target, "prone", True, f"tripped by {actor}"))
        elif ok and name == "grapple" and not s.get(a.target).has(GRAPPLED):
            tx.emit(ev.ConditionSet(a.target, GRAPPLED, True, f"grappled by {actor}; escaping takes a standard "
                                                              "action (EP-MAN-03)"))
        elif ok and name != "trip":
            tx.emit(ev.Note(f"  the GM applies the {name}'s effect for a margin of {margin} (EP-MAN-01)"))

    def escape(self, engine: Encounter, tx: Tx, actor: str, a: EscapeGrapple, dry: bool) -> None:
        """EP-MAN-03: a standard action (AMBIGUOUS how it is resolved; option ``ep_grapple_escape``):
        'offense_vs_defense' (default, PF1): d20 + the escapee's Maneuver Offense against the grappler's Maneuver
        Defense; 'defense_roll': d20 + the escapee's Maneuver Defense − 10 (its Maneuver Defense used as a check)
        against the same. A success lifts the grappled condition."""
        s = tx.state
        if not s.get(actor).has(GRAPPLED):
            raise RuleError(f"escape_grapple: {actor} is not grappled")
        if a.grappler not in s.combatants or a.grappler == actor:
            raise RuleError(f"escape_grapple.grappler: no creature {a.grappler!r} grappling {actor}")
        engine.pay(tx, actor, f"escape {a.grappler}'s grapple", "standard", dry)
        if dry:
            return
        formula = self.opts.ep_maneuver_formula
        creature, grappler = engine.creature(actor), engine.creature(a.grappler)

        def defense_of(cid: str, who: Creature) -> tuple[int, list[Modifier]]:
            ac = engine.ruleset.defense.total(who, s.get(cid), DefenseContext(), [], tx).value
            mods = maneuver_defense(who, formula, ac)
            return sum(m.value for m in mods if m.source == "base"), [m for m in mods if m.source != "base"]

        base, rest = defense_of(a.grappler, grappler)
        defense = total(base, rest, stacking=engine.ruleset.stacking)
        if self.opts.ep_grapple_escape == "defense_roll":
            own_base, own = defense_of(actor, creature)
            mods = [*([Modifier(own_base - 10, "Maneuver Defense base − 10")] if own_base != 10 else []), *own]
            what = "Maneuver Defense"
        else:
            mods = maneuver_offense(creature, formula)
            what = "Maneuver Offense"
        mods += [Modifier(e.attack, e.name) for e in s.get(actor).effects if e.attack]
        face = tx.dice.d20(f"escape grapple {actor}->{a.grappler}")
        roll = total(face, mods, base_label="d20", stacking=engine.ruleset.stacking)
        ok = roll.value >= defense.value
        tx.emit(ev.Note(f"{actor} tries to escape {a.grappler}'s grapple: {what} {roll.explain()} vs Maneuver "
                        f"Defense {defense.explain()} — " + ("escapes (EP-MAN-03)" if ok else "stays grappled "
                                                              "(EP-MAN-03)")))
        if ok:
            tx.emit(ev.ConditionSet(actor, GRAPPLED, False, f"escaped {a.grappler}'s grapple"))


def creature_level(creature: Creature) -> tuple[int, str]:
    """EP-DEF-05 (AMBIGUOUS for monsters): the stat block's ``attributes.level``, else ``attributes.cr``, else 1."""
    attrs = {k.lower(): int(v) for k, v in creature.sheet.attributes.items()}
    if "level" in attrs:
        return attrs["level"], "level"
    if "cr" in attrs:
        return attrs["cr"], "CR"
    return 1, "level (none given)"


class DefensiveAbilities:
    """EP-DEF-05..09: fighting defensively, an offensive ability with no attack roll (a tagged activity) needs a
    Maneuver Offense check against DC 15 + level — one check per action (EP-DEF-06), none for free actions
    (EP-DEF-08); on a failure the action is spent and wasted, the creature still fights defensively (EP-DEF-09)."""

    def __init__(self, opts: EpOptions) -> None:
        self.opts = opts
        self.offensive = frozenset(opts.ep_offensive_abilities)

    def activity(self, engine: Encounter, tx: Tx, actor: str, a: ax.Activity, dry: bool) -> None:
        from d20combat.encounter.resolution import action_catalogue  # the encounter imports the rulesets
        from d20combat.rulesets.epic_path.turn_actions import do_activity  # part of a move action (EP-ACT-27..30)

        do_activity(engine, tx, actor, a, dry)
        if dry or a.name not in self.offensive or action_catalogue().get(a.name, "standard") == "free":
            return
        from d20combat.rulesets.epic_path.melee import FIGHTING_DEFENSIVELY

        cs = tx.state.get(actor)
        if not any(e.name == FIGHTING_DEFENSIVELY for e in cs.effects):
            return
        creature = engine.creature(actor)
        level, what = creature_level(creature)
        dc = 15 + level
        mods = [*maneuver_offense(creature, self.opts.ep_maneuver_formula),
                *[Modifier(e.attack, e.name) for e in cs.effects if e.attack]]
        caster = caster_check_bonus(creature)
        use_caster = caster is not None and (
            self.opts.ep_defensive_check == "caster"
            or (self.opts.ep_defensive_check == "better" and caster > sum(m.value for m in mods)))
        if use_caster:
            assert caster is not None
            face = tx.dice.d20(f"caster check {actor} ({a.name})")
            roll = total(face, [Modifier(caster, "Caster Check")], base_label="d20", stacking=engine.ruleset.stacking)
            check = "Caster Check"
        else:
            face = tx.dice.d20(f"maneuver offense {actor} ({a.name})")
            roll = total(face, mods, base_label="d20", stacking=engine.ruleset.stacking)
            check = "Maneuver Offense"
        ok = roll.value >= dc
        if ok:
            outcome = "it goes off"
        elif use_caster:
            outcome = "fails: the spell is lost, and the action used to cast it (EP-DEF-10)"
        else:
            outcome = "fails: the ability is not used and the action is wasted (EP-DEF-09)"
        tx.emit(ev.Note(f"{actor} fights defensively: {a.name} needs {check} {roll.explain()} vs DC {dc} "
                        f"(15 + {what} {level}, EP-DEF-05) — {outcome}"))
        if not ok and use_caster:
            lose_spell(tx, actor, a.name)


def caster_check_bonus(creature: Creature) -> int | None:
    """The stat block's Caster Check bonus (``attributes.caster_check``), or None for a creature that casts none."""
    return next((int(v) for k, v in creature.sheet.attributes.items() if k.lower() == "caster_check"), None)


def lose_spell(tx: Tx, actor: str, spell: str) -> None:
    """EP-DEF-10: a failed Caster Check loses the spell: one of its uses this combat (``per_encounter:<spell>`` on the
    stat block, EP-TIME-10) is gone, as if cast."""
    from d20combat.rulesets.epic_path.initiative import PER_ENCOUNTER

    pools = dict(tx.state.get(actor).reactions)
    pool = PER_ENCOUNTER + spell
    if pools.get(pool, 0) > 0:
        pools[pool] -= 1
        tx.emit(ev.ReactionsSet(actor, pools))
        tx.emit(ev.Note(f"{actor} loses {spell}: {pools[pool]} use(s) left this combat (EP-DEF-10)"))
