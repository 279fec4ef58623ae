"""Coup de grace (CMV-CDG): a full-round attack at +4 on a helpless creature, then a death save DC 10 + damage.

What one coup de grace must remember while its attack resolves — whom it strikes, and the damage that attack
deals, which waits for the coup de grace's own death save instead of the usual one — lives in the action's
``view.scratch`` under :data:`STRIKE`, never on the ruleset."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from d20combat.battlefield.cover import CoverDegree, CoverFact
from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint, Square
from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import AttackOption
from d20combat.numbers import Modifier
from d20combat.rules import health
from d20combat.rulesets.components import RuleError, View
from d20combat.rulesets.components.reactions import totally_concealed, vision_of
from d20combat.rulesets.off_guard.actions import CoupDeGrace
from d20combat.rulesets.off_guard.conditions import PROJECTILES, stored_conditions
from d20combat.rulesets.off_guard.options import OffGuardOptions
from d20combat.rulesets.off_guard.strike import STRIKE, Strike

if TYPE_CHECKING:
    from d20combat.encounter.engine import AttackPlan, Encounter, Tx
from d20combat.rulesets.off_guard.injury import DamageTaken


class CoupDeGraceRules:
    """CMV-CDG-01..11: a full-round action (CMV-CDG-01) with a melee weapon against a helpless creature in reach
    (CMV-CDG-02), or a projectile weapon from an adjacent square (CMV-CDG-03); +4 to hit (CMV-CDG-04) against the
    helpless AC (or the text's flat −9, CMV-CDG-05); a hit kills unless the target passes a death save DC 10 +
    the damage dealt (CMV-CDG-06/07); a survivor is staggered with damage = hp (CMV-CDG-08/09). Massive or bizarre
    creatures may be immune or harder (CMV-CDG-10); against total concealment it takes two consecutive full-round
    actions, one to find the creature (CMV-CDG-11)."""

    def __init__(self, injury: DamageTaken, opts: OffGuardOptions) -> None:
        self.injury = injury
        self.opts = opts

    def strike(self, engine: Encounter, tx: Tx, actor: str, a: CoupDeGrace, dry: bool) -> None:
        """The :class:`CoupDeGrace` action's handler (CMV-CDG-01..11)."""
        s = tx.state
        if a.target not in s.combatants or a.target == actor:
            raise RuleError(f"coup de grace: no target {a.target!r}")
        tc, ts = engine.creature(a.target), s.get(a.target)
        injury = self.injury
        if injury.health(tc, ts) is health.Health.DEAD:
            raise RuleError(f"coup de grace: {a.target} is already dead")
        if not injury.is_helpless(tc, ts):
            raise RuleError(f"coup de grace: {a.target} is not helpless (CMV-CDG-02)")
        if "cdg-immune" in stored_conditions(ts):
            raise RuleError(f"coup de grace: {a.target} cannot be slain so (massive or bizarre anatomy, CMV-CDG-10)")
        creature, cs = engine.creature(actor), s.get(actor)
        name = a.attack or cs.wielding
        if name is None:
            raise RuleError("coup de grace: draw a weapon first")
        try:
            option = creature.attack(name)
        except KeyError as exc:
            raise RuleError(str(exc.args[0])) from None
        if option.is_ranged:
            if option.kind not in PROJECTILES:
                raise RuleError(f"coup de grace: {option.name} is neither a melee nor a projectile weapon "
                                f"(CMV-CDG-02/03)")
            dist = footprint_distance_ft(Footprint(cs.position, creature.space), Footprint(ts.position, tc.space))
            if dist != 5:
                raise RuleError(f"coup de grace: with {option.name} only from an adjacent square ({dist} ft away, "
                                f"CMV-CDG-03)")
        found = self.found(cs, a.target)
        concealed = totally_concealed(tx, actor, a.target)
        if concealed and found is None:
            # CMV-CDG-11: the first of two consecutive full-round actions "finds" the creature.
            if a.square is None:
                raise RuleError(f"coup de grace: {a.target} has total concealment; name the square to search "
                                f"(CMV-CDG-11)")
            engine.pay(tx, actor, f"find {a.target}", "full-round", dry)
            if dry:
                return
            sq = (int(a.square[0]), int(a.square[1]))
            tx.emit(ev.EffectAdded(actor, f"found {a.target} at ({sq[0]},{sq[1]})", actor, s.round + 2))
            tx.emit(ev.Note(f"{actor} gropes about ({sq[0]},{sq[1]}) to find {a.target} for a coup de grace "
                            f"(a full-round action, CMV-CDG-11)"))
            return
        bonus = Modifier(4, "coup de grace")
        square = found[1] if found is not None else a.square
        if option.is_ranged:
            plan = self.adjacent_shot(engine, tx, actor, a.target, option, bonus, square)
        else:
            plan = engine.plan_attack(actor, a.target, option.name, square=square, state=s, extra=(bonus,))
        if found is not None and self.opts.cmv_cdg_find_removes_miss_chance:
            plan = replace(plan, concealment=0, concealment_reason="")
        engine.pay(tx, actor, f"coup de grace {a.target}", "full-round", dry)
        if dry:
            return
        if found is not None:
            tx.emit(ev.EffectEnded(actor, found[0]))
        if option.weapon.reload != "none":
            cs = tx.state.get(actor)
            tx.emit(ev.EquipmentChanged(actor, cs.wielding, cs.shield_state, sorted(cs.loaded - {option.name}),
                                        f"fires {option.name}"))
        strike = Strike(a.target)
        tx.scratch[STRIKE] = strike
        try:
            engine.roll_attack(tx, plan)
        finally:
            del tx.scratch[STRIKE]
        if strike.dealt:
            self.save(tx, a.target, sum(strike.dealt))

    @staticmethod
    def found(cs: CombatantState, target: str) -> tuple[str, Square] | None:
        """The effect "found <target> at (c,r)" of a first, finding coup de grace (CMV-CDG-11), with its square."""
        prefix = f"found {target} at ("
        for e in cs.effects:
            if e.name.startswith(prefix):
                c, r = e.name[len(prefix):-1].split(",")
                return e.name, (int(c), int(r))
        return None

    @staticmethod
    def adjacent_shot(engine: Encounter, tx: Tx, actor: str, target: str, option: AttackOption,
                      bonus: Modifier, square: Square | None) -> AttackPlan:
        """CMV-CDG-03: a projectile coup de grace from an adjacent square — the 10-ft rules of an
        ordinary shot do not apply; the helpless target's AC has no −4 (that is against melee)."""
        from d20combat.encounter.engine import AttackPlan

        rs = engine.ruleset
        s = tx.state
        creature, cs = engine.creature(actor), s.get(actor)
        if option.weapon.reload != "none" and option.name not in cs.loaded:
            raise RuleError(f"coup de grace: {option.name} is not loaded")
        if cs.wielding != option.name:
            raise RuleError(f"coup de grace: {actor} must draw {option.name} first")
        tc = engine.creature(target)
        a_fp, t_fp = Footprint(cs.position, creature.space), Footprint(s.get(target).position, tc.space)
        info = AttackPlan(actor, target, option, True, 5, (), CoverFact(CoverDegree.NONE, None, ""), 0, "", False)
        problem = rs.attack.attack_problem(tx, info)
        if problem:
            raise RuleError(f"coup de grace: {problem}")
        mods = [*rs.attack.attack_modifiers(creature, option), *(Modifier(e.attack, e.name) for e in cs.effects
                                                                 if e.attack), bonus,
                *rs.attack.situational_attack_modifiers(tx, info)]
        fact = rs.cover.find_cover(tx.game_map, a_fp, t_fp, ranged=True, reach_attack=False, adjacent=True,
                                   creature_squares=engine.creature_squares((actor, target), s))
        if fact.degree is CoverDegree.TOTAL:
            raise RuleError(f"coup de grace: {target} has total cover")
        sources = rs.concealment.concealment_sources(tx.game_map, a_fp, vision_of(creature, cs), t_fp,
                                                     s.get(target), adjacent_melee=False)
        pct, reason = rs.concealment.combine(sources)
        wrong = square is not None and tuple(square) not in set(t_fp.squares())
        return AttackPlan(actor, target, option, True, 5, tuple(mods), fact, pct, reason, wrong)

    def save(self, view: View, target: str, dealt: int) -> None:
        """CMV-CDG-06..09: the target dies unless it passes a death save DC 10 + damage dealt; a
        survivor is staggered and its damage is set to its hp."""
        injury = self.injury
        ts = view.state.get(target)
        stored = stored_conditions(ts)
        extra = 0
        if "cdg-dc" in stored and stored["cdg-dc"][1]:
            extra = int(stored["cdg-dc"][1][0])
        dc = 10 + dealt + extra
        why = f"coup de grace, DC 10 + {dealt} damage" + (f" {extra:+d} (CMV-CDG-10)" if extra else "") + \
            " (CMV-CDG-07)"
        if not injury.table.saving_throw(view, target, "death", dc, why):
            injury.die(view, target, "slain by a coup de grace (CMV-CDG-06)")
            return
        creature = view.creature(target)
        keeps = self.opts.cmv_cdg_survivor_keeps_state and bool({"dying", "stable"} & set(stored))
        if not keeps:
            for name in ("dying", "stable"):
                if name in stored:
                    view.emit(ev.ConditionSet(target, stored[name][0], False, "survives the coup de grace "
                                                                             "(CMV-CDG-09)"))
        injury.set_damage(view, target, creature.sheet.hp, "survived a coup de grace: damage set to hp (CMV-CDG-09)")
        view.emit(ev.Note(f"{target} survives the coup de grace: staggered, damage {creature.sheet.hp} = hp "
                          f"(CMV-CDG-08/09)" + (" — still " + ("dying" if "dying" in stored else "stable") +
                                                " (cmv_cdg_survivor_keeps_state)" if keeps else "")))
        injury.sync(view, target)
