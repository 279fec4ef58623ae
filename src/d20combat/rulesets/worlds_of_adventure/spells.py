"""Casting spells in combat (WOA-SPELL-01..30): casting times, components, concentration, touch spells and holding
the charge, maintaining, dismissing and redirecting. When the effect lands and what makes it fizzle is
:mod:`.spell_timing`; the spells themselves are data (:mod:`.spell_data`, ``data/woa_spells.yaml``).

Conditions that stop a component (set by the GM or another rule): ``gagged``, ``silenced`` (V, WOA-SPELL-02);
``deafened`` (V: 20% spoiled, WOA-SPELL-04); ``bound``, ``grappling``, ``hands_full`` — or a weapon in hand with a
shield on the other arm (S, WOA-SPELL-05); ``no_component_pouch`` (M, WOA-SPELL-06); ``cannot_concentrate``
(WOA-SPELL-07: a storm-tossed deck).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.numbers import Modifier, total
from d20combat.rules.armor_class import DefenseContext
from d20combat.rulesets.components import ActionSet, ActionSpec, AttackInfo, RuleError, View
from d20combat.rulesets.worlds_of_adventure import counterspell
from d20combat.rulesets.worlds_of_adventure import spell_timing as st
from d20combat.rulesets.worlds_of_adventure.options import WoaOptions
from d20combat.rulesets.worlds_of_adventure.spell_components import component_problem
from d20combat.rulesets.worlds_of_adventure.spell_data import Spell, need, spell, spell_table, use_up

COST: dict[str, Literal["standard", "move", "full-round", "free"]] = {
    "standard": "standard", "full_round": "full-round", "move": "move", "swift": "free", "free": "free"}
"""WOA-SPELL-01: the action each casting time takes. A swift casting is paid as a free action here; WOA's swift
action (it spends a combat reaction, WOA-ACT) is the economy's to charge once it has one."""


@dataclass(frozen=True, slots=True)
class CastSpell(ax.Action):
    """Cast a spell of ``data/woa_spells.yaml`` the stat block has prepared (``attributes: {spell_<name>: N}``), at
    ``target`` (a foe or a friend; none: the caster itself, or a touch spell's charge)."""

    kind: ClassVar[str] = "cast_spell"
    spell: str = ""
    target: str | None = None

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Cast {self.spell.replace('_', ' ')}" + (f" at {name(self.target)}" if self.target else "")


@dataclass(frozen=True, slots=True)
class QuickCast(CastSpell):
    """Cast a spell with a swift or free casting time (a quickened spell, WOA-SPELL-01): not declared
    (WOA-CYCLE-16), it takes effect at once and has none of the drawbacks (WOA-SPELL-13/15)."""

    kind: ClassVar[str] = "quick_cast"


@dataclass(frozen=True, slots=True)
class TouchSpell(ax.Action):
    """Touch with the held charge (WOA-SPELL-17..21): a foe (a touch attack), yourself or a friend (automatic), or
    up to six friends (``friends``, a full-round action)."""

    kind: ClassVar[str] = "touch_spell"
    target: str = ""
    friends: tuple[str, ...] = ()

    def label(self, name: Callable[[str], str] = str) -> str:
        who = ", ".join(name(f) for f in self.friends) if self.friends else name(self.target)
        return f"Touch {who} with the held spell"


@dataclass(frozen=True, slots=True)
class SpellUpkeep(ax.Action):
    """Do something to an active spell: ``concentrate`` to maintain it (standard, WOA-SPELL-25), ``cease``
    concentrating (free, WOA-SPELL-28), ``dismiss`` it (standard, WOA-SPELL-29), ``redirect`` it at ``target``
    (move, WOA-SPELL-30)."""

    kind: ClassVar[str] = "spell_upkeep"
    spell: str = ""
    op: Literal["concentrate", "cease", "dismiss", "redirect"] = "concentrate"
    target: str | None = None

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"{self.op.capitalize()} {self.spell.replace('_', ' ')}" + (
            f" at {name(self.target)}" if self.target else "")


ACTIVE = st.ACTIVE


def holding(conditions: frozenset[str]) -> str | None:
    return next((c for c in conditions if c.startswith(st.HOLDING)), None)


class WoaSpells(ActionSet):
    """WOA-SPELL-01..30: casting (casting time, components, concentration, the pending effect), touch spells and the
    held charge, maintaining, dismissing and redirecting spells."""

    def __init__(self, options: WoaOptions) -> None:
        super().__init__([ActionSpec(CastSpell, self.cast), ActionSpec(QuickCast, self.quick_cast),
                          ActionSpec(TouchSpell, self.touch),
                          ActionSpec(SpellUpkeep, self.upkeep)])
        self.o = options

    # --- casting --------------------------------------------------------------------------------------------------
    def _target(self, engine: Any, tx: View, actor: str, sp: Spell, target: str | None) -> str:
        if sp.touch:
            return "-"
        if target is None:
            if sp.effect.damage is not None:
                raise RuleError(f"cast_spell.target: name the creature {sp.label} is aimed at")
            return "-"
        s = tx.state
        if target not in s.combatants or not engine.on_map(target, s):
            raise RuleError(f"cast_spell.target: no creature {target!r} on the map")
        if engine.is_dead(target, s):
            raise RuleError(f"cast_spell: {target} is already dead")
        return target

    def cast(self, engine: Any, tx: View, actor: str, a: CastSpell, dry: bool, *, source: str = "spell",
             cost: str | None = None) -> None:
        """WOA-SPELL-01..08/13..16/23: check the components, pay the casting time, count the spell as cast, then
        the disruption before the turn, the deafened spoil, and the effect — now, at the end of the turn or at the
        end of the round."""
        sp = spell(a.spell, "cast_spell.spell")
        creature, cs = tx.creature(actor), tx.state.get(actor)
        key = f"{source}_{sp.name}"
        if source == "spell":
            need(creature, cs, key, f"cast {sp.label}")
        if sp.counterspell_only:
            raise RuleError(f"{a.kind}.spell: {sp.label} is used here only as a readied counterspell (ready "
                            "{counterspell: true}, WOA-INIT-24); its other uses are out of scope")
        problem = component_problem(tx, actor, sp)
        if problem:
            raise RuleError(problem)
        target = self._target(engine, tx, actor, sp, a.target)
        engine.pay(tx, actor, f"cast {sp.label}" if source == "spell" else f"{source} of {sp.label}",
                   cost or COST[sp.casting_time], dry)
        if dry:
            return
        if "V" in sp.components and tx.state.get(actor).has("hidden"):
            tx.emit(ev.ConditionSet(actor, "hidden", False, f"{sp.label} has a verbal component: it cannot be "
                                                            "whispered or mumbled (WOA-SPELL-03)"))
        held = holding(tx.state.get(actor).conditions)
        if held:
            tx.emit(ev.ConditionSet(actor, held, False, "casting another spell: the held touch spell dissipates "
                                                        "without effect (WOA-SPELL-23)"))
        use_up(tx, actor, key, f"{sp.label} is cast (WOA-SPELL-08: it counts as cast even if it fizzles)" if
               source == "spell" else f"a {source} of {sp.label} is used")
        if source == "scroll" and not tx.state.get(actor).has(st.READING):
            tx.emit(ev.ConditionSet(actor, st.READING, True, f"reads a scroll of {sp.label}: no combat reactions "
                                                             "this round (WOA-ITEM-29)"))
        elif source == "spell" and sp.disruptable and not tx.state.get(actor).has(st.CASTING):
            tx.emit(ev.ConditionSet(actor, st.CASTING, True, f"casts {sp.label} ({sp.casting_time.replace('_', '-')}"
                                                             "): no combat reactions this round (WOA-SPELL-09/10)"))
        if source == "spell" and counterspell.at_casting(tx, self.rules, actor, sp):
            return  # WOA-INIT-22..24: a readied counterspell ruined it
        checks = source == "spell" or (source == "scroll" and self.o.woa_scroll_concentration)
        if checks and not st.early_disruption(tx, self.rules, actor, sp):
            tx.emit(ev.Note(f"{actor}'s {sp.label} fizzles: no effect, but it counts as cast (WOA-SPELL-08/11)"))
            if source == "scroll":
                st.mishap(tx, actor, sp.name)
            return
        if "V" in sp.components and tx.state.get(actor).has("deafened"):
            pct = tx.dice.percentile(f"deafened verbal component {actor}")
            if pct <= 20:
                tx.emit(ev.Note(f"{actor} is deafened: d% {pct} ≤ 20 spoils {sp.label} (WOA-SPELL-04)"))
                return
            tx.emit(ev.Note(f"{actor} is deafened: d% {pct} > 20, {sp.label} is not spoiled (WOA-SPELL-04)"))
        if sp.touch:
            tx.emit(ev.ConditionSet(actor, f"{st.HOLDING}{sp.name}:{tx.state.round}", True,
                                    f"casts {sp.label}: touch the subject now or later (WOA-SPELL-17/20)"))
            return
        timing = sp.timing()
        if source == "scroll" and timing == "immediate":
            timing = "end_of_turn"
        if timing == "immediate":
            tx.emit(ev.Note(f"{sp.label}: a {sp.casting_time} casting time takes effect at once (WOA-SPELL-15)"))
            st.land(tx, self.rules, actor, sp, target)
            return
        st.queue(tx, actor, sp, target, timing, source)

    def quick_cast(self, engine: Any, tx: View, actor: str, a: QuickCast, dry: bool) -> None:
        """WOA-SPELL-01/13/15: only a swift or free casting time (the others are declared: ``cast_spell``)."""
        sp = spell(a.spell, "quick_cast.spell")
        if sp.casting_time not in ("swift", "free"):
            raise RuleError(f"quick_cast: {sp.label} takes a {sp.casting_time.replace('_', '-')} action to cast: "
                            "declare it and use cast_spell")
        self.cast(engine, tx, actor, a, dry)

    # --- touch spells ---------------------------------------------------------------------------------------------
    def touch(self, engine: Any, tx: View, actor: str, a: TouchSpell, dry: bool) -> None:
        """WOA-SPELL-18..21: in the casting round the touch comes with the casting (free); later, a friend is a
        standard action, up to six friends a full-round action, a foe a touch attack (a standard action)."""
        s = tx.state
        held = holding(s.get(actor).conditions)
        if held is None:
            raise RuleError(f"touch_spell: {actor} holds no charge (cast a touch spell first, WOA-SPELL-17)")
        _, name, cast_round = held.split(":")
        sp = spell(name, "held charge")
        side = tx.creature(actor).side
        who = list(a.friends) if a.friends else [a.target or actor]
        if len(who) > 6:
            raise RuleError("touch_spell.friends: up to six friends at once (WOA-SPELL-21)")
        for cid in who:
            if cid not in s.combatants or not engine.on_map(cid, s):
                raise RuleError(f"touch_spell: no creature {cid!r} on the map")
            reach = tx.creature(actor).reach_ft
            if cid != actor and footprint_distance_ft(engine.footprint(actor, s), engine.footprint(cid, s)) > reach:
                raise RuleError(f"touch_spell: {cid} is beyond {actor}'s reach ({reach} ft)")
        foe = len(who) == 1 and tx.creature(who[0]).side != side
        if a.friends and any(tx.creature(f).side != side for f in a.friends):
            raise RuleError("touch_spell.friends: only friends are touched together (WOA-SPELL-21)")
        same_round = int(cast_round) == s.round
        cost = "free" if same_round and len(who) == 1 else ("full-round" if len(who) > 1 else "standard")
        engine.pay(tx, actor, f"touch with {sp.label}", cost, dry)
        if dry:
            return
        if foe and not self._touch_attack(tx, actor, who[0], sp):
            tx.emit(ev.Note(f"{actor} misses: still holding the charge of {sp.label} (WOA-SPELL-20)"))
            return
        if not foe:
            tx.emit(ev.Note(f"{actor} touches {', '.join(who)}: automatic for oneself or a friend (WOA-SPELL-19)"))
        tx.emit(ev.ConditionSet(actor, held, False, f"{sp.label} discharges (WOA-SPELL-22)"))
        for cid in who:
            st.apply_effect(tx, self.rules, actor, sp.name, sp.effect, cid, sp.level, sp.label)

    def _touch_attack(self, view: View, actor: str, target: str, sp: Spell) -> bool:
        """WOA-SPELL-19: a melee touch attack — d20 + base attack + Str against touch AC; natural 1 misses, 20 hits."""
        creature = view.creature(actor)
        face = view.dice.roll(20, f"touch attack {actor}->{target}")
        t = total(face, [m for m in (Modifier(creature.attack_bonus, "BAB"), Modifier(creature.str_mod, "Str"))
                         if m.value], base_label="d20")
        ac = self.rules.defense.total(view.creature(target), view.state.get(target), DefenseContext(touch=True), [],
                                      view)
        hit = face == 20 or (face != 1 and t.value >= ac.value)
        view.emit(ev.Note(f"{actor} touch attack with {sp.label}: {t.explain()} vs touch AC {ac.value} "
                          f"({ac.explain()}) — {'hit' if hit else 'miss'} (WOA-SPELL-19)"))
        return hit

    def after_attack(self, view: View, attack: AttackInfo, hit: bool) -> None:
        """WOA-SPELL-24: an unarmed or natural attack while holding a charge: a hit deals its damage and discharges
        the spell; a miss keeps it held."""
        held = holding(view.state.get(attack.attacker).conditions)
        weapon = attack.option.weapon
        natural = weapon.name.lower().startswith("unarmed") or "natural" in weapon.qualities
        if held is None or not natural:
            return
        sp = spell(held.split(":")[1], "held charge")
        if not hit:
            view.emit(ev.Note(f"{attack.attacker}'s {weapon.name} misses: still holding {sp.label} (WOA-SPELL-24)"))
            return
        view.emit(ev.ConditionSet(attack.attacker, held, False, f"the {weapon.name} hits: {sp.label} discharges "
                                                                "(WOA-SPELL-24)"))
        st.apply_effect(view, self.rules, attack.attacker, sp.name, sp.effect, attack.target, sp.level, sp.label)

    # --- active spells -------------------------------------------------------------------------------------------
    def upkeep(self, engine: Any, tx: View, actor: str, a: SpellUpkeep, dry: bool) -> None:
        """WOA-SPELL-25 (concentrate: standard), WOA-SPELL-28 (cease: free), WOA-SPELL-29 (dismiss: standard),
        WOA-SPELL-30 (redirect: move, no concentration)."""
        sp = spell(a.spell, "spell_upkeep.spell")
        c = tx.state.get(actor)
        maintained = f"{st.MAINTAINING}{sp.name}"
        active = next((x for x in c.conditions if x.startswith(f"{ACTIVE}{sp.name}:")), None)
        if a.op in ("concentrate", "cease") and not c.has(maintained):
            raise RuleError(f"spell_upkeep: {actor} maintains no {sp.label}")
        if a.op == "dismiss" and (active is None or not sp.dismissible):
            raise RuleError(f"spell_upkeep: {actor} has no dismissible {sp.label} active (WOA-SPELL-29)")
        if a.op == "redirect":
            if active is None or not sp.directable:
                raise RuleError(f"spell_upkeep: {actor} has no {sp.label} to redirect (WOA-SPELL-30)")
            if a.target is None or a.target not in tx.state.combatants:
                raise RuleError(f"spell_upkeep.target: name the creature to redirect {sp.label} at")
        cost = {"concentrate": "standard", "cease": "free", "dismiss": "standard", "redirect": "move"}[a.op]
        engine.pay(tx, actor, f"{a.op} {sp.label}", cost, dry)
        if dry:
            return
        if a.op == "concentrate":
            if not c.has(st.CONCENTRATING):
                tx.emit(ev.ConditionSet(actor, st.CONCENTRATING, True, f"maintains {sp.label}: no combat reactions "
                                                                       "this round (WOA-SPELL-25/27)"))
        elif a.op == "cease":
            tx.emit(ev.ConditionSet(actor, maintained, False, f"stops concentrating: {sp.label} ends (WOA-SPELL-28)"))
        elif a.op == "dismiss" and active is not None:
            tx.emit(ev.ConditionSet(actor, active, False, f"dismisses {sp.label} (WOA-SPELL-29)"))
            target = active.split(":")[2]
            if any(e.name == sp.label for e in tx.state.get(target).effects):
                tx.emit(ev.EffectEnded(target, sp.label))
        elif a.op == "redirect" and active is not None and a.target is not None:
            tx.emit(ev.ConditionSet(actor, active, False, "redirected"))
            tx.emit(ev.ConditionSet(actor, f"{ACTIVE}{sp.name}:{a.target}", True,
                                    f"redirects {sp.label} at {a.target}: a move action, no concentration "
                                    "(WOA-SPELL-30)"))
            st.apply_effect(tx, self.rules, actor, sp.name, sp.effect, a.target, sp.level, sp.label)

    # --- the round ----------------------------------------------------------------------------------------------
    def after_damage(self, view: View, target: str, amount: int, hp_before: int) -> None:
        """WOA-SPELL-11/26: damage in the disruption window forces a concentration check."""
        if amount <= 0 or target not in view.state.combatants:
            return
        if st.declared_casting(view, target) and st.before_its_turn(view, target):
            st.record_early_damage(view, target, amount)
            return
        st.disrupt(view, self.rules, target, lambda level: st.damage_dc(amount, level), f"{amount} damage",
                   after_turn=self.o.woa_full_round_window_after_turn, scrolls=self.o.woa_scroll_concentration,
                   maintenance_level=self.o.woa_maintenance_dc_level)

    def end_of_turn(self, view: View, actor: str) -> None:
        """WOA-SPELL-14: standard and full-round spells take effect at the end of the caster's turn; a maintained
        spell not concentrated on this turn ends (WOA-SPELL-25)."""
        st.resolve(view, self.rules, actor, "end_of_turn")
        c = view.state.get(actor)
        for cond in sorted(c.conditions):
            if cond.startswith(st.MAINTAINING) and not c.has(st.CONCENTRATING) and not c.has(st.CASTING):
                view.emit(ev.ConditionSet(actor, cond, False, f"{actor} did not concentrate this turn: "
                                                              f"{cond[len(st.MAINTAINING):].replace('_', ' ')} ends "
                                                              "(WOA-SPELL-25)"))

    def end_of_round(self, view: View, round_no: int) -> None:
        """WOA-SPELL-16, WOA-ITEM-23: buffs, debuffs, summons and ongoing potions take effect; an end-of-turn spell
        whose caster's turn ended without the hook (it fell) is settled; then the round flags are cleared."""
        for cid in list(view.state.combatants):
            st.resolve(view, self.rules, cid, "end_of_turn")
            st.resolve(view, self.rules, cid, "end_of_round")
        for cid, c in view.state.combatants.items():
            for cond in sorted(c.conditions):
                if cond in st.ROUND_FLAGS or cond.startswith(st.DISRUPTED):
                    view.emit(ev.ConditionSet(cid, cond, False, "the round ends"))

    # --- the AI's options ---------------------------------------------------------------------------------------
    def candidates(self, enc: Any, actor: str) -> list[Any]:
        creature = enc.creature(actor)
        out: list[Any] = []
        for name, sp in spell_table().items():
            if not creature.sheet.attributes.get(f"spell_{name}") or sp.counterspell_only:
                continue
            kind = QuickCast if sp.casting_time in ("swift", "free") else CastSpell
            if sp.effect.damage is not None and not sp.touch:
                out += [kind(name, foe) for foe in enc.enemies(actor)]
            else:
                out.append(kind(name))
        held = holding(enc.state.get(actor).conditions)
        if held is not None:
            out += [TouchSpell(foe) for foe in enc.enemies(actor)]
        return out


__all__ = ["COST", "CastSpell", "QuickCast", "SpellUpkeep", "TouchSpell", "WoaSpells"]
