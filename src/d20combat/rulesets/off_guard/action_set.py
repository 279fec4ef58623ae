"""off-guard's action set: its own actions with their handlers, the core actions it vetoes, the dynamic veto
and the actions offered to controllers (the action values themselves are in :mod:`.actions`)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from d20combat.battlefield import movement as mv
from d20combat.battlefield.cover import CoverDegree
from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.encounter import events as ev
from d20combat.encounter.state import TurnState
from d20combat.numbers import Modifier, total
from d20combat.rulesets.components import ActionSet, ActionSpec, BudgetError, RuleError, View
from d20combat.rulesets.off_guard.actions import BlindMove, CastSpell, CoupDeGrace, Escape, GmAttack, Guide
from d20combat.rulesets.off_guard.conditions import CmvCover, ConditionTable, stored_conditions
from d20combat.rulesets.off_guard.fear import MOVING_KINDS, Fear
from d20combat.rulesets.off_guard.options import OffGuardOptions

if TYPE_CHECKING:
    from d20combat.encounter.engine import Encounter, Tx
    from d20combat.rulesets.off_guard.coup_de_grace import CoupDeGraceRules
    from d20combat.rulesets.off_guard.economy import MinorMajorEconomy
    from d20combat.rulesets.off_guard.movement import HalfSpeedUnlessAided


class CmvActions(ActionSet):
    """CMV's own actions — coup de grace (CMV-CDG-01), escape (CMV-COND-36), guide an ally (CMV-COND-03,
    CMV-INJ-07), a blind creature's risky full-speed move (CMV-COND-03, variant), casting a spell (CMV-COND-08) and
    the GM's ruling for one attack (CMV-SIT-03, CMV-COV-18, CMV-COV-22, CMV-CONC-18) — and the moves the conditions
    forbid: a held creature stays put (CMV-COND-36), an exhausted one can't charge (CMV-COND-20), a frightened or
    panicked one never charges nor approaches the source of its fear (CMV-COND-26, CMV-COND-28)."""

    def __init__(self, table: ConditionTable, fear: Fear, economy: MinorMajorEconomy,
                 movement: HalfSpeedUnlessAided, coup_de_grace: CoupDeGraceRules, opts: OffGuardOptions) -> None:
        super().__init__(own=[
            ActionSpec(CoupDeGrace, coup_de_grace.strike),
            ActionSpec(Escape, self.escape),
            ActionSpec(Guide, self.guide),
            ActionSpec(BlindMove, self.blind_move),
            ActionSpec(CastSpell, self.cast_spell),
            ActionSpec(GmAttack, self.gm_attack),
        ])
        self.table = table
        self.fear = fear
        self.economy = economy
        self.movement = movement
        self.opts = opts

    def forbidden(self, view: View, actor: str, action: Any) -> str | None:
        """Movement that a condition forbids: held (CMV-COND-36), exhausted charging (CMV-COND-20),
        a frightened or panicked creature moving nearer the source of its fear (CMV-COND-26/28)."""
        kind = getattr(action, "kind", "")
        if kind not in MOVING_KINDS:
            return None
        creature, cs = view.creature(actor), view.state.get(actor)
        active = self.table.active(creature, cs)
        for name, row in self.table.rows(active):
            if row.speed == "stop":
                return f"{kind}: {actor} is {name} and cannot leave its square (CMV-COND-36)"
        if kind == "charge":
            for name, row in self.table.rows(active):
                if row.no_charge:
                    return f"charge: {actor} is {name} and can't run or charge (CMV-COND-20)"
        return self.fear.forbidden_move(view, actor, action, active)

    @staticmethod
    def _need_turn(tx: Tx) -> TurnState:
        turn = tx.state.turn
        if turn is None:
            raise RuleError("no turn is running")
        return turn

    def escape(self, engine: Encounter, tx: Tx, actor: str, a: Escape, dry: bool) -> None:
        """CMV-COND-36 (proposed): one escape attempt as a major action: d20 + the better of Str and
        Dex + check modifiers against the hold's DC (``held:<DC>``, else ``cmv_held_escape_dc``)."""
        creature, cs = engine.creature(actor), tx.state.get(actor)
        stored = stored_conditions(cs)
        if "held" not in stored:
            raise RuleError(f"escape: {actor} is not held")
        turn = self._need_turn(tx)
        try:
            label, spend = self.economy.pay_escaping("standard", turn, engine.allowance(actor, tx.state),
                                                     surprise_round=tx.state.surprise_round, escaping=True)
        except BudgetError as exc:
            raise RuleError(f"escape: {exc}") from None
        if dry:
            return
        tx.emit(ev.BudgetSpent(actor, "escape", label, spend))
        text, args = stored["held"]
        dc = int(args[0]) if args and args[0].isdigit() else self.opts.cmv_held_escape_dc
        c = self.table.adjusted(creature, self.table.active(creature, cs))
        best = ("Str", c.str_mod) if c.str_mod >= c.dex_mod else ("Dex", c.dex_mod)
        face = tx.dice.d20(f"escape {actor}")
        t = total(face, [Modifier(best[1], best[0]), *self.table.check_modifiers(creature, cs)], base_label="d20",
                  stacking=self.rules.stacking)
        ok = t.value >= dc
        tx.emit(ev.Note(f"{actor} struggles to escape: {t.explain()} vs DC {dc} — "
                        f"{'breaks free' if ok else 'still held'} (CMV-COND-36)"))
        if ok:
            tx.emit(ev.ConditionSet(actor, text, False, "escaped"))
        self.rules.injury.strenuous(tx, actor, "standard")

    def guide(self, engine: Encounter, tx: Tx, actor: str, a: Guide, dry: bool) -> None:
        """CMV-COND-03 / CMV-INJ-07 (proposed "aided by others"): an adjacent ally's minor action."""
        s = tx.state
        if a.ally not in s.combatants or a.ally == actor or engine.creature(a.ally).side != engine.creature(actor).side:
            raise RuleError(f"guide: {a.ally!r} is not an ally")
        ac, astate = engine.creature(a.ally), s.get(a.ally)
        if footprint_distance_ft(engine.footprint(actor, s), engine.footprint(a.ally, s)) != 5:
            raise RuleError(f"guide: {a.ally} is not adjacent")
        if not {"blinded", "staggered"} & self.table.active(ac, astate):
            raise RuleError(f"guide: {a.ally} is neither blinded nor staggered")
        engine.pay(tx, actor, f"guide {a.ally}", "move", dry)
        if dry:
            return
        tx.emit(ev.EffectAdded(a.ally, f"guided by {actor}", actor, s.round + 1))
        tx.emit(ev.Note(f"{actor} guides {a.ally}: full speed until {actor}'s next turn (CMV-COND-03, CMV-INJ-07)"))

    def blind_move(self, engine: Encounter, tx: Tx, actor: str, a: BlindMove, dry: bool) -> None:
        """Variant ``cmv_blind_full_speed_check`` (CMV-COND-03)."""
        if not self.opts.cmv_blind_full_speed_check:
            raise RuleError("blind move: only with the variant cmv_blind_full_speed_check (CMV-COND-03)")
        creature, cs = engine.creature(actor), tx.state.get(actor)
        if not cs.has("blinded"):
            raise RuleError(f"blind move: {actor} is not blinded")
        if cs.has("prone"):
            raise RuleError(f"blind move: {actor} is prone; stand up first")
        turn = self._need_turn(tx)
        if turn.stepped:
            raise RuleError("blind move: after a 5-foot step no other movement this round (PFB-MOVE-03)")
        speed = self.movement.speed(creature, cs, ignore_blind=True)
        reach = mv.reachable(tx.game_map, engine.footprint(actor, tx.state), max(speed, 5),
                             engine.occupancy(actor, tx.state), diagonals_so_far=turn.diagonals,
                             flying=creature.fly_speed_ft > 0,
                             difficult_diagonal_counts=self.movement.difficult_diagonal_counts)
        to = (int(a.to[0]), int(a.to[1]))
        info = reach.get(to)
        if info is None or not info.path:
            raise RuleError(f"blind move: no legal path to {to} within {speed} ft")
        engine.pay(tx, actor, "move at full speed, blinded", "move", dry)
        if dry:
            return
        face = tx.dice.d20(f"Dex check {actor}")
        c = self.table.adjusted(creature, self.table.active(creature, cs))
        t = total(face, [Modifier(c.dex_mod, "Dex"), *self.table.check_modifiers(creature, cs)], base_label="d20",
                  stacking=self.rules.stacking)
        if t.value >= 10:
            tx.emit(ev.Note(f"{actor} moves blind at full speed: Dex check {t.explain()} vs DC 10 — keeps its "
                            f"footing (CMV-COND-03)"))
            engine.walk(tx, actor, list(info.path), info.cost_ft, info.diagonals, "move")
        else:
            tx.emit(ev.ConditionSet(actor, "prone", True, f"Dex check {t.explain()} vs DC 10 fails: falls prone "
                                                          f"where the move began (CMV-COND-03)"))

    def cast_spell(self, engine: Encounter, tx: Tx, actor: str, a: CastSpell, dry: bool) -> None:
        """A spell resolved by the GM; CMV-COND-08 (proposed): deafened → d% ≤ 20 fails, the action is spent."""
        if not a.spell:
            raise RuleError("cast spell: name the spell")
        cost: Literal["standard", "full-round"] = "full-round" if a.full_round else "standard"
        engine.pay(tx, actor, f"cast {a.spell}", cost, dry)
        if dry:
            return
        creature, cs = engine.creature(actor), tx.state.get(actor)
        chance = max((row.spell_fumble for _, row in self.table.rows_of(creature, cs)), default=0)
        if a.verbal and chance and self.opts.cmv_deafened_spell_fumble:
            pct = tx.dice.percentile(f"verbal component {actor}")
            if pct <= chance:
                tx.emit(ev.Note(f"{actor} casts {a.spell}, but deafened, fumbles the verbal component "
                                f"(d% {pct} ≤ {chance}): the spell fails (CMV-COND-08)"))
                self.rules.injury.strenuous(tx, actor, cost)
                return
            tx.emit(ev.Note(f"{actor}'s verbal component holds (d% {pct} > {chance}, CMV-COND-08)"))
        tx.emit(ev.Note(f"{actor} casts {a.spell} (its effect is the GM's to resolve)"))
        self.rules.injury.strenuous(tx, actor, cost)

    def gm_attack(self, engine: Encounter, tx: Tx, actor: str, a: GmAttack, dry: bool) -> None:
        """CMV-SIT-03 / CMV-COV-18 / CMV-COV-22 / CMV-CONC-18: one attack as the GM rules it."""
        if a.refuse:
            raise RuleError(f"the GM refuses this attack: {a.refuse} (CMV-COV-22)")
        extra = (Modifier(a.attack_modifier, a.reason),) if a.attack_modifier else ()
        plan = engine.plan_attack(actor, a.target, a.attack, square=a.square, state=tx.state, extra=extra)
        fact = plan.cover
        base = fact if isinstance(fact, CmvCover) else CmvCover(fact.degree, fact.via, fact.reason,
                                                                   fact.blocked_lines, fact.lines)
        if a.cover == "none":
            base = CmvCover(CoverDegree.NONE, None, f"{a.reason}: no cover")
        elif a.cover in ("cover", "improved"):
            base = CmvCover(CoverDegree.COVER, base.via, f"{a.reason}: {a.cover} cover", improved=a.cover == "improved")
        base = replace(base, gm_ac=a.ac_modifier)
        plan = replace(plan, cover=base)
        if a.miss_chance is not None:
            if not 0 <= a.miss_chance <= 100:
                raise RuleError("gm attack: miss_chance must be 0–100")
            plan = replace(plan, concealment=a.miss_chance, concealment_reason=f"{a.reason} ({a.miss_chance}%)")
        engine.pay(tx, actor, f"attack {a.target}", "standard", dry)
        if dry:
            return
        if plan.option.weapon.reload != "none":
            cs = tx.state.get(actor)
            tx.emit(ev.EquipmentChanged(actor, cs.wielding, cs.shield_state, sorted(cs.loaded - {plan.option.name}),
                                        f"fires {plan.option.name}"))
        engine.roll_attack(tx, plan)
        self.rules.injury.strenuous(tx, actor, "standard")
