"""Fighting with two weapons (SKL-TWF): what each hand holds, the two-weapon mode and its penalty table, and the
mode's own actions — the switch and the off-hand bonus attack."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState
from d20combat.model.catalog import default_catalog
from d20combat.model.creature import AttackOption, Creature
from d20combat.model.statblock import Shield, WeaponKind
from d20combat.numbers import Modifier
from d20combat.rulesets.components import Component, RuleError, View
from d20combat.rulesets.components.reactions import held_attack
from d20combat.rulesets.skill_based.actions import BonusAttack, TwoWeaponFighting
from d20combat.rulesets.skill_based.options import OFFHAND, TWF_TABLE, TWO_WEAPON, UNARMED
from d20combat.rulesets.skill_based.skills import OffHand, weapon_skill


class TwoWeapons(Component):
    """SKL-TWF-01..24: a weapon (or a shield, SKL-TWF-09; or a double weapon's other end, SKL-TWF-20/21) in the
    off hand gives, in the two-weapon mode (SKL-TWF-08), a bonus complex action for an off-hand attack or block,
    at the penalties of the table (SKL-TWF-10..19) on every attack and block roll of each hand (SKL-TWF-03/04);
    an unarmed strike is light (SKL-TWF-06). A broken ranged weapon is no longer in hand (SKL-RNG-03).

    It knows only the creature and its state (no options): the attack, active-defense, economy, reaction, action
    and tactics components share one."""

    # ------------------------------------------------------------------------ what each hand holds
    @staticmethod
    def broken(state: CombatantState, name: str) -> bool:
        return f"broken {name}" in state.conditions

    def wielded(self, creature: Creature, state: CombatantState) -> AttackOption | None:
        """The attack of the weapon in the main hand (None: an empty hand, or a broken weapon)."""
        if state.wielding is None or self.broken(state, state.wielding):
            return None
        return held_attack(creature, state)

    @staticmethod
    def unarmed(creature: Creature) -> AttackOption | None:
        """SKL-TWF-06 / SKL-AOO-02: the unarmed strike every creature has."""
        return next((o for o in creature.attacks if weapon_skill(o.weapon) == UNARMED), None)

    @staticmethod
    def shield_in_hand(creature: Creature, state: CombatantState) -> Shield | None:
        if creature.sheet.shield is None or state.shield_state not in ("strapped", "held"):
            return None
        return default_catalog().shield_of(creature.sheet.shield)

    def off_hand(self, creature: Creature, state: CombatantState) -> OffHand | None:
        """SKL-TWF-01/09/20: an off-hand weapon, a shield in hand, or a double weapon's other end."""
        main = self.wielded(creature, state)
        if main is not None and main.weapon.double:
            return OffHand(f"the off-hand end of {main.name}", weapon_skill(main.weapon), True, False, main, True)
        if main is None or main.kind is WeaponKind.SPELL or main.two_handed:
            return None
        for o in creature.attacks:
            if o.off_hand and o.name != main.name and not self.broken(state, o.name):
                light = o.weapon.hands == "light" or weapon_skill(o.weapon) == UNARMED  # SKL-TWF-06
                return OffHand(o.name, weapon_skill(o.weapon), light, False, o)
        shield = self.shield_in_hand(creature, state)
        if shield is not None:
            return OffHand(shield.name, (shield.skill or weapon_skill(main.weapon)).lower(), shield.light, True, None)
        return None

    # ------------------------------------------------------------------------ the mode and its penalties
    @staticmethod
    def two_weapon_on(state: CombatantState) -> bool:
        return TWO_WEAPON in state.conditions

    @staticmethod
    def twf_penalties(creature: Creature, off: OffHand) -> tuple[int, int, str]:
        """SKL-TWF-10: every table row the creature meets; per hand the smallest penalty. (primary, off, rows)."""
        facts = {t for t in ("dual_weapon_training", "dual_weapon_mastery", "shield_specialist")
                 if creature.has_feat(t)}
        if off.light:
            facts.add("light")
        if off.shield:
            facts.add("shield")
        rows = [row for row in TWF_TABLE if row[1] <= facts]
        return max(r[2] for r in rows), max(r[3] for r in rows), ", ".join(r[0] for r in rows)

    def hand_penalty(self, creature: Creature, state: CombatantState, hand: Literal["primary", "off"]
                     ) -> Modifier | None:
        """SKL-TWF-03/04/08: while the two-weapon mode is on, every attack and block roll of that hand."""
        if not self.two_weapon_on(state):
            return None
        off = self.off_hand(creature, state)
        if off is None:
            return None
        primary, off_pen, _ = self.twf_penalties(creature, off)
        value = primary if hand == "primary" else off_pen
        return Modifier(value, f"two-weapon {hand} hand") if value else None

    # ------------------------------------------------------------------------ own actions
    def switch(self, engine: Any, tx: View, actor: str, a: TwoWeaponFighting, dry: bool) -> None:
        """SKL-TWF-08 (reading): a free switch at the start of the turn; on, it grants the bonus action now."""
        turn = tx.state.turn
        assert turn is not None
        cs, creature = tx.state.get(actor), tx.creature(actor)
        if turn.pools.get("twf_switch", 0) <= 0 or turn.actions_taken or turn.moved:
            raise RuleError("two-weapon fighting: switched only once, at the start of the turn (SKL-TWF-08)")
        if a.on == self.two_weapon_on(cs):
            raise RuleError(f"two-weapon fighting is already {'on' if a.on else 'off'}")
        off = self.off_hand(creature, cs)
        if a.on and off is None:
            raise RuleError("two-weapon fighting needs a one-handed weapon and a weapon or shield in the off hand "
                            "(SKL-TWF-01/09)")
        engine.pay(tx, actor, f"two-weapon fighting {'on' if a.on else 'off'}", "free", dry)
        if dry:
            return
        bonus = -1 if a.on else turn.pools.get(OFFHAND, 0)
        tx.emit(ev.BudgetSpent(actor, "two-weapon mode", "none", {"twf_switch": 1, OFFHAND: bonus}))
        text = ""
        if a.on and off is not None:
            p, o, rows = self.twf_penalties(creature, off)
            text = f"off hand {off.name}; penalties {p:+d} primary / {o:+d} off hand ({rows})"
        tx.emit(ev.ConditionSet(actor, TWO_WEAPON, a.on, text or "SKL-TWF-08"))

    def bonus_attack(self, engine: Any, tx: View, actor: str, a: BonusAttack, dry: bool) -> None:
        """SKL-TWF-01/02: the off-hand attack; SKL-ACT-09/10: a talent's attack-only action."""
        turn = tx.state.turn
        assert turn is not None
        creature, cs = tx.creature(actor), tx.state.get(actor)
        off = self.off_hand(creature, cs) if self.two_weapon_on(cs) else None
        use_off = (turn.pools.get(OFFHAND, 0) > 0 and off is not None and off.option is not None
                   and a.attack in (None, off.option.name))
        if use_off:
            assert off is not None and off.option is not None
            option, pool, label = off.option, OFFHAND, f"off-hand attack {a.target} ({off.name})"
        elif turn.pools.get("bonus_attack", 0) > 0:
            name = a.attack or cs.wielding
            try:
                option = creature.attack(name or "")
            except KeyError:
                raise RuleError(f"bonus attack: {actor} has no attack {name!r}") from None
            pool, label = "bonus_attack", f"bonus attack {a.target}"
        else:
            raise RuleError("bonus attack: no bonus complex action for an attack this round (SKL-TWF-01, "
                            "SKL-ACT-09)")
        declared, bonus = self.rules.criticals.critical_attack(a.critical, option)
        extra = (declared,) if declared is not None else ()
        plan = engine.plan_attack(actor, a.target, option.name, square=a.square, state=tx.state, extra=extra)
        if use_off and off is not None and off.double_end:
            # SKL-TWF-21: the double weapon's other end attacks with the off-hand penalty.
            off_pen = self.hand_penalty(creature, cs, "off")
            mods = tuple(m for m in plan.modifiers if m.source != "two-weapon primary hand")
            plan = replace(plan, modifiers=(*mods, *([off_pen] if off_pen else [])))
        if dry:
            return
        tx.emit(ev.BudgetSpent(actor, label, "bonus complex", {pool: 1}))
        self.rules.injury.owe_strain(tx, "standard")  # a complex action: strenuous (SKL-DMG-04, PFB-HP-01)
        engine.roll_attack(tx, plan, damage_bonus=bonus)
