"""P14 injury of the off-guard ruleset: health counted as damage taken against a fixed hp (CMV-INJ) — bloodied,
staggered, death saves, dying, stable, dead — and who can still act under the condition table."""

from __future__ import annotations

from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.rules import health
from d20combat.rulesets.components import HitPoints, RuleError, View
from d20combat.rulesets.off_guard import strike
from d20combat.rulesets.off_guard.conditions import (
    _CANNOT_ACT_TEXT,
    _NO_ACTION_ORDER,
    ConditionTable,
    damage_taken,
    stored_conditions,
)
from d20combat.rulesets.off_guard.fear import Fear
from d20combat.rulesets.off_guard.options import OffGuardOptions


class DamageTaken(HitPoints):
    """CMV-INJ: a creature counts the damage it has taken against its fixed hp: bloodied at half (CMV-INJ-03),
    staggered at hp (CMV-INJ-09); damage past hp calls for a death save DC 10 + that damage — failed: dying,
    unconscious and helpless (CMV-INJ-10, CMV-INJ-12); passed: staggered at damage = hp (CMV-INJ-13, proposed).
    A dying creature saves again each turn and becomes stable on a success (CMV-INJ-11, CMV-INJ-16); damage to a
    dying or stable creature calls for another save, failed: dead (CMV-INJ-15, CMV-INJ-17). Damage alone never
    kills. Helpless, and who can act, come from the table's rows (CMV-HELP-01, CMV-COND-05, CMV-COND-14,
    CMV-COND-31); a staggered creature's major action costs it 1 damage (CMV-INJ-08, proposed).

    It also runs the start-of-turn procedures of the conditions that take a turn away, which follow the dying
    save: a stunned creature drops what it holds (CMV-COND-13) and a cornered panicked one cowers (CMV-COND-29);
    and, at the end of a turn, the save that overcomes fear (CMV-COND-23)."""

    def __init__(self, table: ConditionTable, fear: Fear, opts: OffGuardOptions) -> None:
        super().__init__(dying_procedure="static")  # CMV's own death saves replace PFB's dying check
        self.table = table
        self.fear = fear
        self.opts = opts

    # --- health and who can act ------------------------------------------------------------------------------
    def health(self, creature: Creature, state: CombatantState) -> health.Health:
        """CMV-INJ: dead; dying or stable (both unconscious and helpless); otherwise up — however
        much damage it has taken, for damage alone never kills (CMV-INJ-12)."""
        stored = stored_conditions(state)
        if "dead" in stored:
            return health.Health.DEAD
        if "dying" in stored or "stable" in stored:
            return health.Health.DYING
        return health.Health.OK

    def is_helpless(self, creature: Creature, state: CombatantState) -> bool:
        """CMV-HELP-01: bound, asleep, paralyzed, unconscious (so dying and stable too, CMV-INJ-10/14)."""
        return any(row.helpless for _, row in self.table.rows_of(creature, state))

    def _blocker(self, creature: Creature, state: CombatantState) -> str | None:
        """The condition that stops every action *and* reaction (stunned, cowering, unconscious…)."""
        rows = dict(self.table.rows_of(creature, state))
        for name in _NO_ACTION_ORDER:
            row = rows.get(name)
            if row is not None and row.actions == "none" and not row.reactions:
                return name
        return None

    def can_act(self, creature: Creature, state: CombatantState) -> bool:
        """A dazed creature keeps its turn (with no actions) because it may still react (CMV-COND-05)."""
        if state.conditions & {"fled", "surrendered"}:
            return False
        return self._blocker(creature, state) is None

    def cannot_act_reason(self, creature: Creature, state: CombatantState) -> str:
        stored = stored_conditions(state)
        for name in ("dead", "dying", "stable"):
            if name in stored and not (name == "dying" and "stable" in stored):
                return _CANNOT_ACT_TEXT[name]
        blocker = self._blocker(creature, state)
        if blocker is None:
            return "cannot act"
        return _CANNOT_ACT_TEXT.get(blocker, f"{blocker}: helpless (CMV-HELP-01)")

    def out_of_fight(self, creature: Creature, state: CombatantState) -> bool:
        """Dead, helpless (dying, stable, unconscious…), fled or surrendered; a stunned, dazed or
        cowering creature is still in the fight."""
        if state.conditions & {"fled", "surrendered"}:
            return True
        return self.is_helpless(creature, state)

    # --- the round procedure ---------------------------------------------------------------------------------
    def start_of_round(self, view: View, round_no: int) -> None:
        """Every creature, in turn: the injury conditions its damage implies, then a stunned creature's dropped
        weapon (CMV-COND-13)."""
        for cid in list(view.state.combatants):
            self.sync(view, cid)
            self.drop_held_items(view, cid)

    def start_of_turn(self, view: View, actor: str) -> None:
        """CMV-INJ-11/16: a dying creature's death save, DC 10, at the start of its turn (``cmv_dying``); then a
        stunned creature drops what it holds (CMV-COND-13) and a cornered panicked one cowers (CMV-COND-29)."""
        stored = stored_conditions(view.state.get(actor))
        if "dying" in stored and "stable" not in stored and "dead" not in stored:
            if self.opts.cmv_dying == "gm":
                view.emit(ev.Note(f"{actor} is dying; the GM decides whether it slips away (cmv_dying = gm)"))
            elif self.table.saving_throw(view, actor, "death", 10, "dying, at the start of its turn (CMV-INJ-11)"):
                view.emit(ev.ConditionSet(actor, "stable", True, "passed its dying death save (CMV-INJ-16)"))
                view.emit(ev.Stabilized(actor, f"{actor} is stable (CMV-INJ-16)"))
            else:
                self.die(view, actor, "failed its dying death save (CMV-INJ-11)")
        self.drop_held_items(view, actor)
        self.fear.panic(view, actor)

    def drop_held_items(self, view: View, cid: str) -> None:
        """CMV-COND-13: a stunned creature drops anything it holds — the weapon in hand and its shield, if it has
        one ready. A creature drops only what it holds: no shield falls from one that owns none (the stat block's
        default shield state is "strapped" whether or not there is a shield)."""
        creature, cs = view.creature(cid), view.state.get(cid)
        if not any(row.drops_held for _, row in self.table.rows_of(creature, cs)):
            return
        shield_held = creature.sheet.shield is not None and cs.shield_state in ("held", "strapped")
        if cs.wielding is None and not shield_held:
            return
        held = [x for x in (cs.wielding, "its shield" if shield_held else None) if x]
        view.emit(ev.EquipmentChanged(cid, None, "dropped" if shield_held else cs.shield_state, sorted(cs.loaded),
                                      f"is stunned and drops {' and '.join(held)} (CMV-COND-13)"))

    def end_of_turn(self, view: View, actor: str) -> None:
        """CMV-COND-23 (proposed): a Will save against each fear's DC at the end of the turn."""
        self.fear.overcome(view, actor)

    def after_damage(self, view: View, target: str, amount: int, hp_before: int) -> None:
        """CMV-INJ-12: damage that leaves a conscious creature past its hp → a death save DC 10 +
        that damage: failure → dying; success → staggered with damage set to hp (CMV-INJ-13).
        CMV-INJ-15: damage to a dying or stable creature → a death save DC 10 + damage; failure → dead.
        A coup de grace's damage waits for the coup de grace's own death save (CMV-CDG-06)."""
        if strike.collect(view, target, amount):
            return
        creature, cs = view.creature(target), view.state.get(target)
        stored = stored_conditions(cs)
        if "dead" in stored:
            return
        self.sync(view, target, only=("bloodied",))
        if "dying" in stored or "stable" in stored:
            state = "dying" if "dying" in stored and "stable" not in stored else "stable"
            if not self.table.saving_throw(view, target, "death", 10 + amount, f"{amount} damage while {state} "
                                           f"(CMV-INJ-15)"):
                self.die(view, target, "failed a death save while " + state + " (CMV-INJ-15)")
            elif state == "stable":
                view.emit(ev.Stabilized(target, f"{target} stays stable (CMV-INJ-15)"))
        elif damage_taken(creature, cs) > creature.sheet.hp:
            why = f"damage {damage_taken(creature, cs)} > hp {creature.sheet.hp} (CMV-INJ-12)"
            if self.table.saving_throw(view, target, "death", 10 + amount, why):
                self.survive(view, target, "CMV-INJ-13")
            else:
                view.emit(ev.ConditionSet(target, "dying", True,
                                          "damage past hp and a failed death save: unconscious and helpless "
                                          "(CMV-INJ-12)"))
        self.sync(view, target)

    def heal(self, view: View, target: str, amount: int, why: str) -> int:
        """Healing from outside the combat rules (the GM's hand; CMV has no healing rule — proposed reading):
        damage taken falls by ``amount`` (not below 0); healed back under its hp, a dying or stable creature is up
        again; bloodied and staggered follow the damage. Refuses a dead creature."""
        creature, cs = view.creature(target), view.state.get(target)
        stored = stored_conditions(cs)
        if "dead" in stored:
            raise RuleError(f"{target} is dead: healing does not bring it back")
        now = damage_taken(creature, cs)
        healed = min(amount, now)
        if healed <= 0:
            raise RuleError(f"{target} has taken no damage to heal")
        view.emit(ev.Healed(target, healed, why))
        if now - healed < creature.sheet.hp:
            for name in ("dying", "stable"):
                if name in stored:
                    view.emit(ev.ConditionSet(target, stored[name][0], False,
                                              f"healed: damage {now - healed} < hp {creature.sheet.hp}"))
        self.sync(view, target)
        return healed

    def strain(self, view: View, actor: str, cost: str) -> None:
        """CMV-INJ-08 (proposed): a staggered creature's major action costs it 1 damage, which takes
        it past its hp: a death save DC 11."""
        creature, cs = view.creature(actor), view.state.get(actor)
        if not self.opts.cmv_staggered_strenuous_damage or cost not in ("standard", "full-round"):
            return
        if "staggered" not in self.table.active(creature, cs) or not self.can_act(creature, cs):
            return
        view.emit(ev.Damaged(actor, 1, "strenuous", f"{actor} strains while staggered: 1 damage (CMV-INJ-08)"))
        self.after_damage(view, actor, 1, cs.hp)

    # --- setting the track -----------------------------------------------------------------------------------
    def set_damage(self, view: View, cid: str, damage: int, why: str) -> None:
        """Raise or lower the damage taken to ``damage`` (CMV-INJ-13, CMV-CDG-09)."""
        creature, cs = view.creature(cid), view.state.get(cid)
        now = damage_taken(creature, cs)
        if damage < now:
            view.emit(ev.Healed(cid, now - damage, why))
        elif damage > now:
            view.emit(ev.Damaged(cid, damage - now, why, f"{cid}'s damage is raised to {damage} ({why})"))

    def survive(self, view: View, cid: str, rule: str) -> None:
        """A passed death save (``cmv_death_save_pass``): staggered with damage = hp, or stable."""
        creature = view.creature(cid)
        if self.opts.cmv_death_save_pass == "stable":
            view.emit(ev.ConditionSet(cid, "stable", True, f"passed its death save (cmv_death_save_pass = stable, "
                                                           f"{rule})"))
            view.emit(ev.Stabilized(cid, f"{cid} is stable ({rule})"))
            return
        self.set_damage(view, cid, creature.sheet.hp, f"death save passed: damage set to hp ({rule})")
        view.emit(ev.Note(f"{cid} survives, staggered: damage {creature.sheet.hp} = hp ({rule})"))

    def die(self, view: View, cid: str, why: str) -> None:
        """CMV-INJ-17: dead (no longer dying or stable)."""
        stored = stored_conditions(view.state.get(cid))
        for name in ("dying", "stable"):
            if name in stored:
                view.emit(ev.ConditionSet(cid, stored[name][0], False, ""))
        view.emit(ev.ConditionSet(cid, "dead", True, why))
        self.sync(view, cid)

    def sync(self, view: View, cid: str, only: tuple[str, ...] = ("bloodied", "staggered")) -> None:
        """Record the derived injury conditions as events (a mirror for the log; never read back)."""
        creature, cs = view.creature(cid), view.state.get(cid)
        stored = stored_conditions(cs)
        hp, dmg = creature.sheet.hp, damage_taken(creature, cs)
        out_cold = bool({"dying", "stable", "dead"} & set(stored))
        want = {"bloodied": self.table.bloodied_by_damage(hp, dmg), "staggered": dmg >= hp and not out_cold}
        reasons = {"bloodied": f"damage {dmg} ≥ half of hp {hp} (CMV-INJ-03)",
                   "staggered": f"damage {dmg} ≥ hp {hp}: one minor or major action, half speed (CMV-INJ-09)"}
        for name, on in want.items():
            if name not in only:
                continue
            if on and name not in stored:
                view.emit(ev.ConditionSet(cid, name, True, reasons[name]))
            elif not on and name in stored:
                view.emit(ev.ConditionSet(cid, stored[name][0], False, f"damage {dmg}"))
