"""Epic Path's own attack actions: aid another (EP-MISC-01..05) and the coup de grace (EP-CDG-01..07), with their
handlers, and the veto on attacks that include movement (EP-ATK-20/22/23)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from d20combat.battlefield.cover import line_of_effect
from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.errors import D20CombatError
from d20combat.numbers import total
from d20combat.rules import health
from d20combat.rules.armor_class import DefenseContext
from d20combat.rulesets.components import ActionSet, ActionSpec, RuleError, View
from d20combat.rulesets.components.reactions import totally_concealed
from d20combat.rulesets.epic_path.aid import aid_effect_name
from d20combat.rulesets.off_guard.actions import CoupDeGrace

if TYPE_CHECKING:
    from d20combat.encounter.engine import Encounter, Tx


@dataclass(frozen=True, slots=True)
class AidAnother(ax.Action):
    """Aid another (EP-MISC-01..05): a standard action; an attack roll against the opponent's touch AC gives the
    ally +2 on its next attack roll against that opponent (``bonus: attack``) or +2 AC against that opponent's
    next attack (``bonus: ac``), until the start of the aider's next turn."""

    kind: ClassVar[str] = "aid_another"
    ally: str = ""
    opponent: str = ""
    bonus: Literal["attack", "ac"] = "attack"
    attack: str | None = None

    def label(self, name: Callable[[str], str] = str) -> str:
        what = "+2 attack" if self.bonus == "attack" else "+2 AC"
        return f"Aid {name(self.ally)} against {name(self.opponent)} ({what})"


@dataclass(frozen=True, slots=True)
class ChargeSquare(ax.Action):
    """A charge at the square a totally concealed creature is guessed to be in (EP-ATK-23): allowed only under the
    option ``ep_movement_attack_at_guess: can`` (the text's literal "you even attempt it"); by default an attack
    that includes movement cannot be aimed at a guessed square."""

    kind: ClassVar[str] = "charge_square"
    target: str = ""
    square: tuple[int, int] | None = None
    attack: str | None = None
    to: tuple[int, int] | None = None

    def label(self, name: Callable[[str], str] = str) -> str:
        where = f"({self.square[0]}, {self.square[1]})" if self.square else "?"
        return f"Charge {where}, where {name(self.target)} may be"


class EpStrikes(ActionSet):
    """Epic Path's own actions — aid another (EP-MISC-01..05) and the coup de grace (EP-CDG-01..07) — and the veto
    on a charge whose target cannot be seen from the starting square (EP-ATK-20/22/23)."""

    def __init__(self, *, cdg_dc_before_resistance: bool = True, movement_attack_at_guess: bool = False) -> None:
        super().__init__(own=[ActionSpec(AidAnother, self.aid_another), ActionSpec(CoupDeGrace, self.coup_de_grace),
                              ActionSpec(ChargeSquare, self.charge_square)])
        self.cdg_dc_before_resistance = cdg_dc_before_resistance
        """EP-CDG-04 (AMBIGUOUS): the Fort DC is the damage as rolled, before resistance."""
        self.movement_attack_at_guess = movement_attack_at_guess
        """EP-ATK-23 (AMBIGUOUS, option ``ep_movement_attack_at_guess``): a charge may be aimed at a guessed square."""

    def charge_square(self, engine: Encounter, tx: Tx, actor: str, a: ChargeSquare, dry: bool) -> None:
        """EP-ATK-23: by default refused — an attack with a movement component cannot even be attempted at a square
        a totally concealed creature is guessed to be in; under the literal reading the core's charge runs to the
        guessed square and attacks it there (a wrong guess is a plain miss, a right one faces the 50 %)."""
        from d20combat.encounter.movement_actions import do_charge  # the encounter imports the rulesets

        if not self.movement_attack_at_guess:
            raise RuleError("charge square: an attack that includes movement cannot be aimed at a square a totally "
                            "concealed creature is guessed to be in (EP-ATK-23; option ep_movement_attack_at_guess)")
        if a.target not in tx.state.combatants or a.target == actor:
            raise RuleError(f"charge_square.target: no target {a.target!r}")
        if a.square is None:
            raise RuleError("charge_square.square: name the square the target is guessed to be in")
        if not totally_concealed(tx, actor, a.target):
            raise RuleError(f"charge square: {a.target} has no total concealment from {actor}; charge it instead "
                            f"(EP-ATK-23)")
        do_charge(engine, tx, actor, ax.Charge(a.target, a.attack, a.to), dry, guess=a.square)

    # --- attacks that include movement ---------------------------------------------------------------------------
    def forbidden(self, view: View, actor: str, action: Any) -> str | None:
        """EP-ATK-20/22/23: an attack that includes the attacker's movement (a charge) needs a target it can see
        from its starting square, before the action begins: not one with total cover (no line of effect) nor
        one with total concealment — not even a square it guesses."""
        if getattr(action, "kind", "") != "charge":
            return None
        target = getattr(action, "target", "")
        if target not in view.state.combatants or target == actor:
            return None
        a, t = view.state.get(actor), view.state.get(target)
        a_fp = Footprint(a.position, view.creature(actor).space)
        t_fp = Footprint(t.position, view.creature(target).space)
        if not line_of_effect(view.game_map, a_fp, t_fp):
            return (f"charge: {target} has total cover from {actor}'s starting square; an attack that includes "
                    f"movement needs a target in sight before it begins (EP-ATK-20/22)")
        if totally_concealed(view, actor, target):
            return (f"charge: {target} has total concealment from {actor}; an attack that includes movement cannot "
                    f"target it, nor a square it is guessed to be in (EP-ATK-22/23)")
        return None

    # --- aid another ---------------------------------------------------------------------------------------------
    def aid_another(self, engine: Encounter, tx: Tx, actor: str, a: AidAnother, dry: bool) -> None:
        """EP-MISC-01..05."""
        s = tx.state
        for field, cid in (("ally", a.ally), ("opponent", a.opponent)):
            if cid not in s.combatants:
                raise RuleError(f"aid_another.{field}: no combatant {cid!r}")
        if a.ally == actor:
            raise RuleError("aid_another.ally: a creature cannot aid itself")
        if a.bonus not in ("attack", "ac"):
            raise RuleError(f"aid_another.bonus: {a.bonus!r} is neither 'attack' nor 'ac' (EP-MISC-03)")
        if engine.creature(a.ally).side != engine.creature(actor).side:
            raise RuleError(f"aid_another.ally: {a.ally} is not {actor}'s ally")
        if engine.creature(a.opponent).side == engine.creature(actor).side:
            raise RuleError(f"aid_another.opponent: {a.opponent} is not an opponent")
        try:
            plan = engine.plan_attack(actor, a.opponent, a.attack, state=s)
        except D20CombatError as exc:  # IllegalAction: the aider must be able to attack the opponent in melee
            raise RuleError(f"aid another: {actor} must be in position to make a melee attack on {a.opponent} "
                            f"(EP-MISC-01): {exc}") from None
        if plan.ranged:
            raise RuleError(f"aid another: {actor} must be in position to make a melee attack on {a.opponent}, "
                            f"not a ranged one (EP-MISC-01)")
        rs = engine.ruleset
        oc, os_ = engine.creature(a.opponent), s.get(a.opponent)
        al, als = engine.creature(a.ally), s.get(a.ally)
        reach = max(oc.reach_ft, al.reach_ft)
        engaged = footprint_distance_ft(Footprint(os_.position, oc.space), Footprint(als.position, al.space)) <= reach
        if not engaged:
            raise RuleError(f"aid another: {a.opponent} is not engaging {a.ally} in melee (EP-MISC-01)")
        engine.pay(tx, actor, f"aid {a.ally} against {a.opponent}", "standard", dry)
        if dry:
            return
        face = tx.dice.d20(f"aid another {actor}->{a.opponent}")
        roll = total(face, plan.modifiers, base_label="d20", stacking=rs.stacking)
        ctx = DefenseContext(touch=True, vs_melee=True,
                             flat_footed=rs.defense.is_flat_footed(oc, os_, surprised=s.surprise_round and
                                                                   a.opponent in s.surprised),
                             helpless=rs.injury.is_helpless(oc, os_))
        ac = rs.defense.total(oc, os_, ctx, [], tx, plan)
        auto_hit, auto_miss = rs.attack.natural(face)
        ok = auto_hit or (not auto_miss and roll.value >= ac.value)
        kind: Literal["attack", "AC"] = "attack" if a.bonus == "attack" else "AC"
        what = (f"+2 on {a.ally}'s next attack roll against {a.opponent}" if kind == "attack"
                else f"+2 AC for {a.ally} against {a.opponent}'s next attack")
        lines = [f"{actor} aids {a.ally} against {a.opponent}",
                 f"  {'succeeds' if ok else 'fails'}: {roll.explain()} vs touch AC {ac.value} "
                 f"({ac.explain_parts()}) (EP-MISC-02)"]
        tx.emit(ev.Note("\n".join(lines)))
        if ok:
            tx.emit(ev.EffectAdded(a.ally, aid_effect_name(actor, kind, a.opponent), actor, s.round + 1))
            tx.emit(ev.Note(f"{a.ally} gets {what}, until the start of {actor}'s next turn (EP-MISC-03/04)"))

    # --- coup de grace -------------------------------------------------------------------------------------------
    def coup_de_grace(self, engine: Encounter, tx: Tx, actor: str, a: CoupDeGrace, dry: bool) -> None:
        """EP-CDG-01..07: a full-round action on a helpless creature within reach; the attack hits automatically
        as a confirmed critical; the victim then saves Fortitude against DC = the damage rolled, even when that
        damage already killed it; on a failure it is slain."""
        s = tx.state
        rs = engine.ruleset
        if a.target not in s.combatants or a.target == actor:
            raise RuleError(f"coup de grace: no target {a.target!r}")
        tc, ts = engine.creature(a.target), s.get(a.target)
        if rs.injury.health(tc, ts) is health.Health.DEAD:
            raise RuleError(f"coup de grace: {a.target} is already dead")
        if not rs.injury.is_helpless(tc, ts):
            raise RuleError(f"coup de grace: {a.target} is not helpless (EP-CDG-01)")
        try:
            plan = engine.plan_attack(actor, a.target, a.attack, state=s)
        except D20CombatError as exc:  # IllegalAction: out of reach, total cover, not drawn
            raise RuleError(f"coup de grace: {exc} (EP-CDG-02: a helpless victim within your reach)") from None
        if plan.ranged:
            raise RuleError(f"coup de grace: {plan.option.name} is not a melee weapon; the victim must be within "
                            f"your reach (EP-CDG-02)")
        engine.pay(tx, actor, f"coup de grace {a.target}", "full-round", dry)
        if dry:
            return
        _, mult = rs.criticals.crit_profile(plan.option)
        tx.emit(ev.AttackResolved(actor, a.target, plan.option.name, True, True, [
            f"{actor} performs a coup de grace on {a.target} with {plan.option.name}",
            f"  hits automatically: a confirmed critical hit ×{mult} (EP-CDG-03)"]))
        striker = engine.creature(actor)
        strength = rs.damage.damage_strength(striker, plan.option, state=s.get(actor))
        dmg = rs.damage.roll(tx, plan, striker, critical=True, multiplier=mult,
                             precision_d6=rs.damage.precision_dice(striker, True),
                             minimum=rs.damage.minimum_damage, strength=strength)
        dealt, why_less = rs.damage.mitigate(tc, tx.state.get(a.target), dmg.total)
        text = dmg.explanation if not why_less else f"{dealt} = {dmg.explanation.partition(' = ')[2]} {why_less}"
        before = tx.state.get(a.target).hp
        tx.emit(ev.Damaged(a.target, dealt, actor, f"  damage {text} → {a.target} hp {before} → {before - dealt}"))
        engine.announce_health(tx, a.target, before)
        dc = dmg.total if self.cdg_dc_before_resistance else dealt
        self.fortitude(engine, tx, actor, a.target, dc, dmg.total, dealt)

    def fortitude(self, engine: Encounter, tx: Tx, actor: str, target: str, dc: int, rolled: int, dealt: int) -> None:
        """EP-CDG-04..06: Fort DC = the damage; a failure slays; the save is made even by a victim the damage
        killed, and its result is recorded on the corpse for the GM (harder to raise, EP-CDG-06/07)."""
        rs = engine.ruleset
        tc, ts = engine.creature(target), tx.state.get(target)
        mods = rs.saves.save_modifiers(tc, ts, "fort")
        face = tx.dice.roll(20, f"Fortitude save {target}")
        t = total(face, mods, base_label="d20", stacking=rs.stacking)
        ok = rs.saves.succeeds("fort", face, t.value, dc)
        source = (f"the damage rolled {rolled}" if dc == rolled else f"the damage after resistance {dealt}")
        dead = rs.injury.health(tc, ts) is health.Health.DEAD
        verdict = "succeeds" if ok else "fails"
        tx.emit(ev.SaveRolled(target, "fort", dc, t.value, ok,
                              f"{target} Fortitude save against the coup de grace: {t.explain()} vs DC {dc} "
                              f"(= {source}, EP-CDG-04) — {verdict}" +
                              (" (already dead: the save still counts, EP-CDG-06)" if dead else "")))
        if ok:
            return
        tx.emit(ev.ConditionSet(target, "slain-by-coup-de-grace", True,
                                "failed its Fortitude save against a coup de grace: harder to raise (EP-CDG-06)"))
        if not dead:
            hp = tx.state.get(target).hp
            lethal = hp + tc.con_score  # down to −Con: dead by the hit point rules
            tx.emit(ev.Damaged(target, lethal, actor, f"  {target} is slain by the coup de grace (EP-CDG-05)"))
            engine.announce_health(tx, target, hp)
