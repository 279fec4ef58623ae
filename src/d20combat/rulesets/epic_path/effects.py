"""Spells and effects with a saving throw (EP-COND-14, EP-COND-34, EP-COND-35; EP-COV-07, EP-COV-08, EP-COV-18):
the action ``effect`` — a creature uses a spell or other effect on one or more creatures, each of which saves.

``{kind: effect, name, targets, save: fort|ref|will, dc, damage: "3d6", condition, rounds, origin, spread,
force}``: a standard action. For each target, in order:

1. EP-COV-15/16: no line of effect from the ``origin`` (the user's square by default) — total cover — no effect.
2. EP-COND-14/35: an effect that deals no damage affects an incorporeal creature (unless it is force or its user
   incorporeal, EP-COND-13) or a phased one only half the time: a d% of 50 or less lets it take effect.
3. The save: d20 + the saves component's modifiers, with the cover between the origin and the target on a Reflex
   save (+2, partial +1, improved +4; soft cover nothing, EP-COV-07/11/14/17) — none for a ``spread`` that reaches
   around corners (EP-COV-08).
4. Damage (rolled once for all targets): half on a successful save, rounded down; improved cover against a
   Reflex save gives improved evasion — none on a success, half on a failure (EP-COV-18); a phased creature takes
   none on a successful save of any kind, like Evasion (EP-COND-34, option ``ep_phased_save_damage``). Then the
   states' halving (incorporeal, phased: EP-COND-09/33) and the damage component's resistances.
5. A condition on a failed save: for ``rounds`` rounds (a timed effect that brings it), or until removed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from d20combat.battlefield.cover import CoverDegree, CoverFact
from d20combat.battlefield.grid import Footprint, Square
from d20combat.dice.expression import DiceSyntaxError, parse_dice
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.model.creature import AttackOption
from d20combat.model.statblock import Weapon, WeaponKind
from d20combat.numbers import total
from d20combat.rulesets.components import RuleError
from d20combat.rulesets.epic_path.cover import improved_evasion, reflex_cover_bonus
from d20combat.rulesets.epic_path.options import EpOptions
from d20combat.rulesets.epic_path.splash import hurt

if TYPE_CHECKING:
    from d20combat.encounter.engine import Encounter, Tx

SAVES = {"fort": "Fortitude", "ref": "Reflex", "will": "Will"}
MAX_TARGETS = 50
MAX_ROUNDS = 1000


@dataclass(frozen=True, slots=True)
class UseEffect(ax.Action):
    """Use a spell or effect that allows a save (a standard action)."""

    kind: ClassVar[str] = "effect"
    name: str = ""
    targets: tuple[str, ...] = field(default=())
    save: str = "ref"
    dc: int = 0
    damage: str = ""
    """Damage dice, half on a successful save ('' for an effect that deals no damage)."""
    condition: str = ""
    """The condition a failed save brings ('' for none)."""
    rounds: int = 0
    """How long the condition lasts (0: until removed)."""
    origin: Square | None = None
    """The point the effect originates or bursts from (default: the user's square)."""
    spread: bool = False
    """A spread, which extends around corners (EP-COV-08: no cover bonus on Reflex)."""
    force: bool = False
    """A force effect (EP-COND-13: affects an incorporeal creature normally)."""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"{self.name or 'effect'} on {', '.join(name(t) for t in self.targets)}"


@dataclass(frozen=True, slots=True)
class AttackFacts:
    """A spell or effect as an attack, for the rules that read one (the states' halving of EP-COND-09/33, the
    critical doubling of EP-CRIT-15)."""

    attacker: str
    target: str
    option: AttackOption
    ranged: bool = True
    distance_ft: int = 0


def effect_option(a: UseEffect) -> AttackOption:
    """The effect as a spell 'weapon' (force quality when it is force)."""
    dice = parse_dice(a.damage or "1")
    weapon = Weapon.model_validate({"name": a.name or "effect", "damage": a.damage or "1", "kind": WeaponKind.SPELL,
                                    "range_increment_ft": 10, "qualities": ["force"] if a.force else []})
    return AttackOption(a.name or "effect", weapon, dice, None, 0, False)


class SaveEffects:
    """The ``effect`` action's handler."""

    def __init__(self, opts: EpOptions) -> None:
        self.opts = opts

    def _check(self, engine: Encounter, tx: Tx, actor: str, a: UseEffect) -> Square:
        s = tx.state
        if not a.name.strip():
            raise RuleError("effect.name: name the spell or effect")
        if a.save not in SAVES:
            raise RuleError(f"effect.save: {a.save!r} is not fort, ref or will")
        if not 1 <= a.dc <= 99:
            raise RuleError(f"effect.dc: {a.dc} is not from 1 to 99")
        if not a.damage and not a.condition.strip():
            raise RuleError("effect: give damage, a condition, or both")
        if a.damage:
            try:
                parse_dice(a.damage)
            except DiceSyntaxError as exc:
                raise RuleError(f"effect.damage: {exc}") from None
        if not 0 <= a.rounds <= MAX_ROUNDS:
            raise RuleError(f"effect.rounds: {a.rounds} is not from 0 to {MAX_ROUNDS}")
        if not a.targets or len(a.targets) > MAX_TARGETS or len(set(a.targets)) != len(a.targets):
            raise RuleError(f"effect.targets: name 1 to {MAX_TARGETS} different creatures")
        for t in a.targets:
            if t not in s.combatants or not engine.on_map(t, s) or engine.is_dead(t, s):
                raise RuleError(f"effect.targets: {t!r} is no creature on the map")
        origin = s.get(actor).position if a.origin is None else (int(a.origin[0]), int(a.origin[1]))
        if origin is None or not tx.game_map.in_bounds(origin):
            raise RuleError(f"effect.origin: {origin} is not on the map")
        return origin

    def use(self, engine: Encounter, tx: Tx, actor: str, a: UseEffect, dry: bool) -> None:
        origin = self._check(engine, tx, actor, a)
        engine.pay(tx, actor, a.name, "standard", dry)
        if dry:
            return
        rolled = 0
        text = ""
        if a.damage:
            dice = parse_dice(a.damage)
            faces = dice.roll_faces(tx.dice, f"damage {a.name}")
            rolled = max(0, sum(faces) + dice.bonus)
            shown = " + ".join(map(str, faces)) + (f" {dice.bonus:+d}" if dice.bonus else "")
            text = f" for {rolled} damage ({a.damage}: {shown})"
        tx.emit(ev.Note(f"{actor} uses {a.name}{text}: {SAVES[a.save]} DC {a.dc}"))
        for cid in a.targets:
            self._one(engine, tx, actor, a, origin, cid, rolled)

    def _one(self, engine: Encounter, tx: Tx, actor: str, a: UseEffect, origin: Square, cid: str,
             rolled: int) -> None:
        s = tx.state
        cs = s.get(cid)
        creature = engine.creature(cid)
        fp = Footprint(cs.position, creature.space)
        fact = engine.ruleset.cover.find_cover(tx.game_map, Footprint(origin, 1), fp, ranged=True,
                                               reach_attack=False, adjacent=False, creature_squares={})
        if fact.degree is CoverDegree.TOTAL and origin not in set(fp.squares()):
            tx.emit(ev.Note(f"  {cid}: no line of effect from ({origin[0]},{origin[1]}) — total cover, unaffected "
                            f"(EP-COV-15/16)"))
            return
        if s.get(actor).has("ethereal") and not cs.has("ethereal"):
            tx.emit(ev.Note(f"  {cid}: an effect used while ethereal affects only ethereal things (EP-COND-41)"))
            return
        if not a.damage:
            chance = self._half_chance(s, actor, a, cid)
            if chance:
                pct = tx.dice.percentile(f"effect {a.name} on {cid}")
                takes = pct <= 50
                verdict = "≤ 50, it takes effect" if takes else "> 50, no effect"
                tx.emit(ev.Note(f"  {cid}: {chance}: d% {pct} {verdict}"))
                if not takes:
                    return
        kind = a.save
        cover_for_save: CoverFact | None = None if a.spread else fact
        mods = engine.ruleset.saves.save_modifiers(creature, cs, kind, cover_fact=cover_for_save)
        face = tx.dice.d20(f"{SAVES[kind]} save {cid}")
        t = total(face, mods, base_label="d20", stacking=engine.ruleset.stacking)
        ok = engine.ruleset.saves.succeeds(kind, face, t.value, a.dc)
        notes = []
        if a.spread and kind == "ref" and reflex_cover_bonus(fact) is not None:
            notes.append("a spread reaches around the cover: no cover bonus (EP-COV-08)")
        amount, why = self._damage_after_save(s, kind, fact if not a.spread else None, ok, cid, rolled)
        outcome = "succeeds" if ok else "fails"
        tx.emit(ev.SaveRolled(cid, kind, a.dc, t.value, ok,
                              f"{cid} {SAVES[kind]} save {t.explain()} vs DC {a.dc}: {outcome}"
                              + (f" — {why}" if a.damage else "") + "".join(f"; {n}" for n in notes)))
        if a.damage and amount > 0:
            info = AttackFacts(actor, cid, effect_option(a))
            halved, how = engine.ruleset.conditions.damage_against(tx, info, amount)
            self._hurt(engine, tx, cid, actor, halved, f"{a.name}: {amount}" + (f", {how}" if how else ""))
        elif a.damage:
            tx.emit(ev.Note(f"  {cid} takes no damage from {a.name}"))
        if not ok and a.condition.strip():
            self._inflict(tx, actor, a, cid)

    def _half_chance(self, s: Any, actor: str, a: UseEffect, cid: str) -> str:
        """Why a non-damaging effect affects ``cid`` only half the time (EP-COND-14/35), or ''."""
        ts = s.get(cid)
        if ts.has("phased"):
            return "phased: an effect that deals no damage affects it only 50% of the time (EP-COND-35)"
        if ts.has("incorporeal") and not a.force and not s.get(actor).has("incorporeal"):
            return ("incorporeal: a corporeal effect that deals no damage affects it only 50% of the time "
                    "(EP-COND-14)")
        return ""

    def _damage_after_save(self, s: Any, kind: str, fact: CoverFact | None, ok: bool, cid: str,
                           rolled: int) -> tuple[int, str]:
        """The damage a save leaves: half on a success; improved evasion from improved cover on Reflex (EP-COV-18);
        the phased creature's evasion on any save (EP-COND-34)."""
        if s.get(cid).has("phased"):
            if ok:
                return 0, "phased: no damage on a successful save, like Evasion (EP-COND-34)"
            if self.opts.ep_phased_save_damage == "improved_evasion":
                return rolled // 2, "phased: half on a failed save, like improved evasion (EP-COND-34)"
            return rolled, "phased: full damage on a failed save (EP-COND-34)"
        if kind == "ref" and fact is not None and improved_evasion(fact):
            if ok:
                return 0, "improved cover: improved evasion, no damage on a success (EP-COV-18)"
            return rolled // 2, "improved cover: improved evasion, half on a failure (EP-COV-18)"
        return (rolled // 2, "half damage") if ok else (rolled, "full damage")

    @staticmethod
    def _hurt(engine: Encounter, tx: Tx, cid: str, source: str, amount: int, text: str) -> None:
        hurt(engine, tx, cid, source, amount, text, f"  {text} → no damage")

    @staticmethod
    def _inflict(tx: Tx, actor: str, a: UseEffect, cid: str) -> None:
        condition = a.condition.strip()
        s = tx.state
        if a.rounds:
            name = f"{a.name}: {condition}"
            if not any(e.name == name for e in s.get(cid).effects):
                tx.emit(ev.EffectAdded(cid, name, actor, s.round + a.rounds, 0, 0, condition))
        if not s.get(cid).has(condition):
            tx.emit(ev.ConditionSet(cid, condition, True, f"{a.name}: a failed save"))
