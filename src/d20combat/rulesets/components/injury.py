"""P14 injury and death: health states from hit points, who can act, who is out of the fight, and dying."""

from __future__ import annotations

from typing import Literal

from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.rules import health
from d20combat.rulesets.components.component import Component, RuleError, View

_STRAIN_DUE = "injury: strain due"
"""``view.scratch`` key: the cost of the strenuous action being resolved, until its strain is settled."""


class HitPoints(Component):
    """PFB-HP-01..03: 0 hp disabled, below 0 dying, −Con dead; PFB-HELP-01 helpless."""

    def __init__(self, *, dying_procedure: Literal["pf1", "static"] = "pf1") -> None:
        self.dying_procedure = dying_procedure
        """PFB-HP-02 (MISSING): "pf1" — a dying creature checks each turn; "static" — it just lies there."""

    def health(self, creature: Creature, state: CombatantState) -> health.Health:
        return health.health(state.hp, creature.con_score)

    def is_helpless(self, creature: Creature, state: CombatantState) -> bool:
        """PFB-HELP-01: bound, sleeping, paralyzed, unconscious (dying creatures are unconscious)."""
        if state.conditions & {"bound", "asleep", "paralyzed", "unconscious", "helpless"}:
            return True
        return self.health(creature, state) in (health.Health.DYING, health.Health.DEAD)

    def can_act(self, creature: Creature, state: CombatantState) -> bool:
        if state.conditions & {"fled", "surrendered", "paralyzed", "bound", "asleep", "unconscious"}:
            return False
        return self.health(creature, state) in (health.Health.OK, health.Health.DISABLED)

    def cannot_act_reason(self, creature: Creature, state: CombatantState) -> str:
        """Why a creature that cannot act passes its turn (shown in the log): its health state, and "stable"
        for a dying creature that has stabilized (PFB-HP-02)."""
        now = self.health(creature, state)
        return "stable" if now is health.Health.DYING and state.stable else str(now.value)

    def out_of_fight(self, creature: Creature, state: CombatantState) -> bool:
        """PFB-RND-07 (proposed): dead, helpless, fled or surrendered."""
        return not self.can_act(creature, state) or self.is_helpless(creature, state)

    def start_of_turn(self, view: View, actor: str) -> None:
        """PFB-HP-02 (PF1 default for the MISSING procedure): a dying creature makes a DC 10 Con check
        with a penalty equal to its negative hp; a natural 20 stabilizes; failure costs 1 hp."""
        creature = view.creature(actor)
        cs = view.state.get(actor)
        if self.dying_procedure != "pf1" or cs.stable or self.health(creature, cs) is not health.Health.DYING:
            return
        face = view.dice.roll(20, f"dying check {actor}")
        stable, result = health.dying_check(face, creature.con_mod, cs.hp)
        text = (f"{actor} dying check: {result} = d20 {face} + Con {creature.con_mod} − {-cs.hp} (hp) "
                f"vs DC {health.DYING_CHECK_DC}")
        if stable:
            view.emit(ev.Stabilized(actor, text + (" — natural 20" if face == 20 else "") + ": stable"))
        else:
            view.emit(ev.Damaged(actor, 1, "bleeding", text + ": fails, loses 1 hp"))
            self.rules.after_damage(view, actor, 1, cs.hp)

    # --- the strain of a strenuous action, settled in one place ---------------------------------------------
    def owe_strain(self, view: View, cost: str) -> None:
        """The pay step (``EncounterCore._pay``, and a ruleset's bonus action paid from its own pool): an action
        paid as ``cost`` is strenuous if it is a standard or full-round one; remember it for :meth:`settle_strain`
        (PFB-HP-01, CMV-INJ-08, SKL-DMG-04)."""
        if cost in ("standard", "full-round"):
            view.scratch.setdefault(_STRAIN_DUE, cost)

    def settle_strain(self, view: View, actor: str) -> None:
        """After the action (the engine, for every action of every ruleset): a strain still owed is paid now."""
        cost = view.scratch.pop(_STRAIN_DUE, None)
        if cost is not None:
            self.strenuous(view, actor, cost)

    def strenuous(self, view: View, actor: str, cost: str) -> None:
        """After a strenuous action (at most once per action): :meth:`strain`."""
        view.scratch.pop(_STRAIN_DUE, None)
        self.strain(view, actor, cost)

    def strain(self, view: View, actor: str, cost: str) -> None:
        """After a standard or full-round action: PFB-HP-01 (PF1 default), a disabled creature's
        standard action costs it 1 hp."""
        creature, cs = view.creature(actor), view.state.get(actor)
        if cost in ("standard", "full-round") and self.rules.economy.allowance(
                creature, cs, surprise_round=False).strenuous_costs_hp:
            view.emit(ev.Damaged(actor, 1, "strenuous", f"{actor} strains while disabled: 1 damage (PFB-HP-01)"))
            self.rules.after_damage(view, actor, 1, cs.hp)

    def heal(self, view: View, target: str, amount: int, why: str) -> int:
        """Healing from outside the combat rules (the GM's hand, issue 13; the seeds have no healing): hit points
        rise by ``amount`` up to the stat block's maximum and the health state follows them (a dying creature
        healed above 0 hp is up again). Returns the hit points healed; refuses a dead creature."""
        creature, cs = view.creature(target), view.state.get(target)
        if self.health(creature, cs) is health.Health.DEAD:
            raise RuleError(f"{target} is dead: healing does not bring it back")
        healed = min(amount, max(creature.sheet.hp - cs.hp, 0))
        if healed <= 0:
            raise RuleError(f"{target} is already at its full {creature.sheet.hp} hp")
        view.emit(ev.Healed(target, healed, why))
        self.after_damage(view, target, -healed, cs.hp)
        return healed

    def after_damage(self, view: View, target: str, amount: int, hp_before: int) -> None:
        """Announce a change of health state (PFB-HP-01..03)."""
        creature = view.creature(target)
        was = health.health(hp_before, creature.con_score)
        now = self.health(creature, view.state.get(target))
        if now is not was:
            texts = {
                health.Health.DISABLED: "is disabled at 0 hp (PFB-HP-01)",
                health.Health.DYING: "falls unconscious and is dying (PFB-HP-02)",
                health.Health.DEAD: f"is dead (hp ≤ −{creature.con_score}, PFB-HP-03)",
                health.Health.OK: "is back on its feet",
            }
            view.emit(ev.Note(f"{target} {texts[now]}"))
