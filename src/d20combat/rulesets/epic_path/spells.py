"""Epic Path's spells in the critical-hit rules (EP-CRIT-13..15). A spell is an attack of kind ``spell`` on the
stat block; its weapon qualities say what the text distinguishes:

- ``no-attack-roll``: a spell that requires no attack roll (a magic missile) — cast with the action
  ``cast_spell``: it strikes without a d20, so it can never score a critical hit (EP-CRIT-14); an ordinary attack
  with it is refused;
- ``ability-damage:<ability>:<dice>`` / ``ability-drain:<ability>:<dice>`` (e.g. ``ability-damage:str:1d4``): on a
  hit the target takes that ability damage or drain, doubled when the spell scores a critical hit (EP-CRIT-15).
  The engine keeps it as the condition ``<ability>_damage:N`` / ``<ability>_drain:N`` (totals), for the GM and the
  stat block's derived numbers; the spell's hit-point damage follows the ordinary critical rules (EP-CRIT-13).
A spell with an attack roll threatens and confirms like a weapon (EP-CRIT-13, the attack pipeline)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from d20combat.battlefield.cover import line_of_effect
from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.dice.expression import DiceSyntaxError, parse_dice
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.model.creature import AttackOption
from d20combat.rulesets.components import RuleError, View
from d20combat.rulesets.epic_path.effects import AttackFacts

if TYPE_CHECKING:
    from d20combat.encounter.engine import Encounter, Tx

NO_ATTACK_ROLL = "no-attack-roll"
ABILITY_QUALITIES = ("ability-damage", "ability-drain")


def has_no_attack_roll(option: AttackOption) -> bool:
    return option.weapon.kind.value == "spell" and NO_ATTACK_ROLL in option.weapon.qualities


def ability_effects(option: AttackOption) -> list[tuple[str, str, str]]:
    """(``damage`` or ``drain``, ability, dice) of each ``ability-damage:…`` / ``ability-drain:…`` quality."""
    out = []
    for q in option.weapon.qualities:
        kind, _, rest = q.partition(":")
        if kind in ABILITY_QUALITIES:
            ability, _, dice = rest.partition(":")
            out.append((kind.removeprefix("ability-"), ability.strip().lower(), dice.strip()))
    return out


def apply_ability_damage(view: View, attacker: str, target: str, option: AttackOption, *, critical: bool) -> None:
    """EP-CRIT-15: the spell's ability damage or drain, doubled on a critical hit, added to the target's total."""
    for kind, ability, dice in ability_effects(option):
        try:
            expr = parse_dice(dice)
        except DiceSyntaxError as exc:
            raise RuleError(f"{option.name}: quality ability-{kind}:{ability}:{dice}: {exc}") from None
        faces = expr.roll_faces(view.dice, f"{option.name} {ability} {kind} {attacker}->{target}")
        rolled = max(0, sum(faces) + expr.bonus)
        amount = rolled * 2 if critical else rolled
        name = f"{ability}_{kind}"
        cs = view.state.get(target)
        old = next((c for c in cs.conditions if c.partition(":")[0] == name), None)
        before = int(old.partition(":")[2]) if old is not None and old.partition(":")[2].isdigit() else 0
        if old is not None:
            view.emit(ev.ConditionSet(target, old, False, "ability damage adds up"))
        view.emit(ev.ConditionSet(target, f"{name}:{before + amount}", True, f"{option.name} by {attacker}"))
        doubled = f" × 2 = {amount} — the critical hit doubles it (EP-CRIT-15)" if critical else ""
        view.emit(ev.Note(f"{target} takes {ability.capitalize()} {kind} {dice} [{', '.join(map(str, faces))}] = "
                          f"{rolled}{doubled} from {option.name}: {ability.capitalize()} {kind} {before + amount} in "
                          "all"))


@dataclass(frozen=True, slots=True)
class CastSpell(ax.Action):
    """Cast a spell that requires no attack roll at ``target`` (EP-CRIT-14): a standard action."""

    kind: ClassVar[str] = "cast_spell"
    target: str = ""
    spell: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Cast {self.spell} at {name(self.target)}"


def cast_spell(engine: Encounter, tx: Tx, actor: str, a: CastSpell, dry: bool) -> None:
    """EP-CRIT-14: no attack roll, so no threat and no critical hit: the damage is rolled once, never multiplied,
    then the target's states and resistance; ability damage undoubled (EP-CRIT-15)."""
    s = tx.state
    creature = engine.creature(actor)
    try:
        option = creature.attack(a.spell)
    except KeyError:
        raise RuleError(f"cast_spell.spell: {actor} has no spell {a.spell!r}") from None
    if not has_no_attack_roll(option):
        raise RuleError(f"cast_spell: {a.spell} has an attack roll — attack with it (EP-CRIT-13)")
    if a.target not in s.combatants or a.target == actor or not engine.on_map(a.target, s):
        raise RuleError(f"cast_spell.target: no target {a.target!r}")
    if engine.is_dead(a.target, s):
        raise RuleError(f"cast_spell: {a.target} is already dead")
    here, there = engine.footprint(actor, s), engine.footprint(a.target, s)
    reach = option.weapon.max_range_ft or option.weapon.range_increment_ft
    distance = footprint_distance_ft(here, there)
    if distance > reach:
        raise RuleError(f"cast_spell: {a.target} is {distance} ft away, beyond {a.spell}'s {reach} ft")
    if not line_of_effect(engine.battle.game_map, here, there):
        raise RuleError(f"cast_spell: no line of effect to {a.target}")
    engine.pay(tx, actor, f"cast {a.spell} at {a.target}", "standard", dry)
    if dry:
        return
    rs = engine.ruleset
    expr = parse_dice(option.weapon.damage)
    faces = expr.roll_faces(tx.dice, f"{a.spell} damage {actor}->{a.target}")
    amount = max(0, sum(faces) + expr.bonus)
    text = f"{amount} = {expr} [{', '.join(map(str, faces))}]"
    tx.emit(ev.Note(f"{actor} casts {a.spell} at {a.target}: no attack roll — it strikes, and can never score a "
                    "critical hit (EP-CRIT-14)"))
    info = AttackFacts(actor, a.target, option, True, distance)
    amount, why_state = rs.conditions.damage_against(tx, info, amount)
    if why_state:
        text = f"{amount} = {text.partition(' = ')[2]} {why_state}"
    mitigated, why_less = rs.damage.mitigate(engine.creature(a.target), tx.state.get(a.target), amount)
    if why_less:
        text = f"{mitigated} = {text.partition(' = ')[2]} {why_less}"
    before = tx.state.get(a.target).hp
    tx.emit(ev.Damaged(a.target, mitigated, actor, f"  damage {text} → {a.target} hp {before} → {before - mitigated}"))
    engine._announce_health(tx, a.target, before)
    apply_ability_damage(tx, actor, a.target, option, critical=False)


__all__ = ["NO_ATTACK_ROLL", "CastSpell", "ability_effects", "apply_ability_damage", "cast_spell",
           "has_no_attack_roll"]
