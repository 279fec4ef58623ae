"""Attacks: planning (legality and modifiers), the resolution pipeline in its fixed stage order, and
attacks of opportunity (PFB-ATK, PFB-CRIT, PFB-DMG, PFB-COV, PFB-CONC; rules-diff §3)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from d20combat.battlefield.concealment import Vision
from d20combat.battlefield.cover import CoverDegree, CoverFact
from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint, Square
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.prompts import ReactionPrompt
from d20combat.encounter.resolution import (
    AttackPlan,
    IllegalAction,
    Tx,
)
from d20combat.encounter.state import EncounterState
from d20combat.numbers import Modifier, total
from d20combat.rules.armor_class import DefenseContext
from d20combat.rules.damage import roll_damage
from d20combat.rulesets.base import RuleError, View

if TYPE_CHECKING:
    from d20combat.encounter.engine import Encounter


# ------------------------------------------------------------------ attacks

def plan_attack(self: Encounter, attacker: str, target: str, attack: str | None = None, *,
                square: Square | None = None, extra: tuple[Modifier, ...] = (),
                state: EncounterState | None = None, from_square: Square | None = None) -> AttackPlan:
    """Everything decided before any die: legality (reach, range, the 10-ft rules, total cover,
    total concealment) and the attack modifiers. Raises :class:`IllegalAction`.

    Memoized per state object: a plan is a pure function of the (immutable) state and the
    arguments, and the AI, ``check`` and ``act`` ask for the same plan in turn."""
    s = state or self.state
    if self._plan_state is not s:
        self._plan_state, self._plans = s, {}
    key = (attacker, target, attack, square, extra, from_square)
    cached = self._plans.get(key)
    if cached is None:
        try:
            cached = self._plan_attack(attacker, target, attack, square, extra, s, from_square)
        except IllegalAction as exc:
            cached = exc
        self._plans[key] = cached
    if isinstance(cached, IllegalAction):
        raise IllegalAction(str(cached))
    return cached


def _plan_attack(self: Encounter, attacker: str, target: str, attack: str | None, square: Square | None,
                 extra: tuple[Modifier, ...], s: EncounterState, from_square: Square | None) -> AttackPlan:
    if target not in s.combatants:
        raise IllegalAction(f"attack: no combatant {target!r}")
    if target == attacker:
        raise IllegalAction("attack: a creature cannot attack itself")
    if not self.on_map(target, s):
        raise IllegalAction(f"attack: {target} is not on the battlefield")
    if self.is_dead(target, s):
        raise IllegalAction(f"attack: {target} is already dead")
    creature = self.creature(attacker)
    option = self._option(attacker, attack, s)
    cs = s.get(attacker)
    if option.kind.value != "spell" and not self.ruleset.holds(creature, cs, option):
        raise IllegalAction(f"attack: {attacker} must draw {option.name} first (a move action, PFB-ITEM-01)")
    if option.weapon.reload != "none" and option.name not in cs.loaded:
        raise IllegalAction(f"attack: {option.name} is not loaded (reload, PFB-ITEM-08)")
    a_fp = Footprint(from_square or cs.position, creature.space)
    t_fp = self.footprint(target, s)
    gm = self.battle.game_map
    vision = Vision(low_light=creature.sheet.low_light_vision, darkvision_ft=creature.sheet.darkvision_ft,
                         blinded=cs.has("blinded"), sees_invisible=cs.has("sees_invisible"))
    sources = self.ruleset.concealment_sources(
        gm, a_fp, vision, t_fp, s.get(target),
        adjacent_melee=not option.is_ranged and footprint_distance_ft(a_fp, t_fp) == 5)
    percent, reason = self.ruleset.concealment(sources)
    guessed_wrong = False
    if any(src.total for src in sources):
        if square is None:
            raise IllegalAction(f"attack: {target} has total concealment ({reason}); attack a square you "
                                f"guess instead (PFB-CONC-12)")
        guessed_wrong = tuple(square) not in set(t_fp.squares())
        if guessed_wrong:
            # PFB-CONC-12: the attack goes into the guessed square; reach, range and cover are judged
            # there, so a wrong guess is only ever a plain miss and never reveals the target's square.
            if not gm.in_bounds(square) or gm.is_solid(square):
                raise IllegalAction(f"attack: {square} is not a square a creature can be in")
            t_fp = Footprint((int(square[0]), int(square[1])), 1)
    dist = footprint_distance_ft(a_fp, t_fp)
    mods: list[Modifier] = list(self.ruleset.attack_modifiers(creature, option))
    ranged = option.is_ranged
    if ranged:
        rc = self.ruleset.ranged_limits(dist, option)
        if rc.problem:
            raise IllegalAction(f"attack: {rc.problem} (PFB-ATK-04..06)")
        if rc.penalty:
            mods.append(Modifier(rc.penalty, "range"))
        if option.kind.value != "spell" and self.ruleset.ranged_needs_clearance():
            for enemy in self.enemies(attacker, s):
                if self.is_dead(enemy, s) or (
                        self.ruleset.ranged_min_range_ignores_helpless and self.is_helpless(enemy, s)):
                    continue
                d = footprint_distance_ft(a_fp, self.footprint(enemy, s))
                if d < 10:
                    raise IllegalAction(f"attack: {enemy} is {d} ft away; ranged weapons need 10 ft from "
                                        f"every enemy (PFB-ATK-09)")
        penalty = self.ruleset.into_melee_penalty(creature)
        if penalty is not None:
            for ally in self.allies(attacker, s):
                if self.ruleset.into_melee_ignores_helpless_allies and self.is_helpless(ally, s):
                    continue
                if footprint_distance_ft(self.footprint(ally, s), t_fp) == 5:
                    mods.append(penalty)
                    break
    elif not self.ruleset.in_melee_reach(creature, option, a_fp, t_fp):
        raise IllegalAction(f"attack: {target} is {dist} ft away, beyond {attacker}'s reach of "
                            f"{creature.reach_ft} ft (PFB-ATK-02)")
    for effect in cs.effects:
        if effect.attack:
            mods.append(Modifier(effect.attack, effect.name))
    mods.extend(extra)
    info = AttackPlan(attacker, target, option, ranged, dist, (), CoverFact(CoverDegree.NONE, None, ""), 0, "",
                      False)
    view = self.view(s)
    problem = self.ruleset.attack_problem(view, info)
    if problem:
        raise IllegalAction(f"attack: {problem}")
    mods.extend(self.ruleset.situational_attack_modifiers(view, info))
    blockers = self.creature_squares((attacker, target), s) if self.ruleset.creatures_give_cover(ranged) else {}
    fact = self.ruleset.find_cover(gm, a_fp, t_fp, ranged=ranged, reach_attack=creature.reach_ft > 5,
                                   adjacent=dist == 5, creature_squares=blockers)
    if fact.degree is CoverDegree.TOTAL:
        raise IllegalAction(f"attack: {target} has total cover — {fact.reason} (PFB-COV-09..11)")
    return AttackPlan(attacker, target, option, ranged, dist, tuple(mods), fact, percent, reason, guessed_wrong)


def _do_attack(self: Encounter, tx: Tx, actor: str, a: ax.Attack, dry: bool) -> None:
    option = self._option(actor, a.attack, tx.state)
    try:
        declared, bonus = self.ruleset.critical_attack(a.critical, option)
    except RuleError as exc:
        raise IllegalAction(f"attack: {exc}") from None
    plan = self.plan_attack(actor, a.target, a.attack, square=a.square, state=tx.state,
                            extra=(declared,) if declared is not None else ())
    self._pay(tx, actor, f"attack {a.target}", "standard", dry)
    if dry:
        return
    if plan.option.weapon.reload != "none":  # PFB-ITEM-08: the shot empties the crossbow
        cs = tx.state.get(actor)
        tx.emit(ev.EquipmentChanged(actor, cs.wielding, cs.shield_state, sorted(cs.loaded - {plan.option.name}),
                                    f"fires {plan.option.name}"))
    self._roll_attack(tx, plan, damage_bonus=bonus)
    self._strenuous(tx, actor, "standard")


def defense(self: Encounter, plan: AttackPlan, state: EncounterState) -> DefenseContext:
    target = self.creature(plan.target)
    ts = state.get(plan.target)
    surprised = state.surprise_round and plan.target in state.surprised
    return DefenseContext(
        touch=plan.option.weapon.touch,
        vs_melee=not plan.ranged,
        flat_footed=self.ruleset.is_flat_footed(target, ts, surprised=surprised),
        helpless=self.ruleset.is_helpless(target, ts),
    )


def target_ac(self: Encounter, plan: AttackPlan, state: EncounterState, view: Tx | None = None) -> tuple[int, str]:
    """The number the attack must reach (P9) with cover (P17) folded in, and its explanation."""
    target = self.creature(plan.target)
    extra = [m for m in [self.ruleset.cover_modifier(plan.cover)] if m is not None]
    ac = self.ruleset.defense(target, state.get(plan.target), self.defense(plan, state), extra,
                              view if view is not None else self.view(state), plan)
    return ac.value, ac.explain_parts()


def _roll_attack(self: Encounter, tx: Tx, plan: AttackPlan, *, damage_bonus: int = 0) -> None:
    """The pipeline (rules-diff §3), stages in a fixed order; each asks the ruleset: miss chance
    before the roll (P18), roll (P8), hit test (P9, P17), active defense window (P10), miss chance
    after a hit (P18), threat and confirmation (P11), damage (P12), mitigation (P13), health (P14)."""
    s = tx.state
    rs = self.ruleset
    attacker, target = plan.attacker, plan.target
    lines = [f"{attacker} attacks {target} with {plan.option.name}"]
    cover_mod = rs.cover_modifier(plan.cover) if plan.cover.degree is not CoverDegree.NONE else None
    if cover_mod is not None:  # a ruleset without cover (SKL) says nothing about the lines
        lines.append(f"  cover: +{cover_mod.value} {rs.defense_name}, {plan.cover.reason}")
    if plan.concealment and rs.concealment_before_roll:
        pct = self.dice.percentile(f"concealment {attacker}->{target}")
        if pct <= plan.concealment or plan.guessed_wrong:
            lines.append(f"  misses: concealment d% {pct} ≤ {plan.concealment} ({plan.concealment_reason}); "
                         f"no attack roll (PFB-CONC-09)" if not plan.guessed_wrong else "  misses")
            tx.emit(ev.AttackResolved(attacker, target, plan.option.name, False, False, lines))
            return
        lines.append(f"  concealment d% {pct} > {plan.concealment} ({plan.concealment_reason}): attack roll")
    committed = rs.before_attack_roll(tx, plan)  # P10: a defense committed before the roll
    face = self.dice.d20(f"attack {attacker}->{target}")
    counted = rs.effective_face(face)
    label = "d20" if counted == face else f"natural {face} counts as"
    roll = total(counted, plan.modifiers, base_label=label, stacking=rs.stacking)
    ac, ac_text = self.target_ac(plan, s, tx)
    auto_hit, auto_miss = rs.natural(face)
    hit = auto_hit or (not auto_miss and roll.value >= ac)
    why = " (natural 20)" if auto_hit else " (natural 1)" if auto_miss else ""
    lines.append(f"  {'hits' if hit else 'misses'}{why}: {roll.explain()} vs {rs.defense_name} {ac} ({ac_text})")
    if hit and not plan.guessed_wrong and committed is not None:
        negated, text = rs.resolve_active_defense(tx, plan, committed, roll.value)
        lines.append(f"  {text}")
        hit = not negated
    elif hit and not plan.guessed_wrong:
        options = rs.active_defense_options(tx, plan, roll.value)
        if options:
            choice = tx.ask(ReactionPrompt(
                target, "active_defense", f"{attacker}'s attack ({roll.value}) would hit {target}",
                (*options, "none"), detail=roll.explain()))
            if choice != "none":
                negated, text = rs.resolve_active_defense(tx, plan, choice, roll.value)
                lines.append(f"  {text}")
                hit = hit and not negated
    rs.attack_rolled(tx, plan, roll.value, hit)
    if hit and plan.concealment and not rs.concealment_before_roll:
        pct = self.dice.percentile(f"concealment {attacker}->{target}")
        if plan.guessed_wrong:
            hit = False  # an attack into an empty guessed square: a plain miss, the square is not revealed
            lines.append("  misses")
        elif pct <= plan.concealment:
            hit = False
            lines.append(f"  the hit misses: concealment d% {pct} ≤ {plan.concealment} ({plan.concealment_reason})")
        else:
            lines.append(f"  concealment d% {pct} > {plan.concealment} ({plan.concealment_reason}): the hit stands")
    _, mult = rs.crit_profile(plan.option)
    critical = False
    if rs.threatens(face, plan.option, hit):
        c_face = self.dice.d20(f"confirm {attacker}->{target}")
        c_roll = total(rs.effective_face(c_face), plan.modifiers, base_label="d20", stacking=rs.stacking)
        c_hit, c_miss = rs.natural(c_face)
        critical = c_hit or (not c_miss and c_roll.value >= ac)
        lines.append(f"  critical threat; confirmation {c_roll.explain()} vs {rs.defense_name} {ac}: "
                     f"{'confirmed' if critical else 'not confirmed — a normal hit'}")
    if plan.guessed_wrong and hit:
        hit = False  # an attack into an empty guessed square is only ever a plain miss
        lines.append("  misses")
    tx.emit(ev.AttackResolved(attacker, target, plan.option.name, hit, critical, lines))
    if not hit:
        return
    helpless = rs.is_helpless(self.creature(target), s.get(target))
    dmg = roll_damage(self.creature(attacker), plan.option, self.dice, multiplier=mult if critical else 1,
                      precision_d6=rs.precision_dice(self.creature(attacker), helpless),
                      minimum=rs.minimum_damage, strength=rs.damage_strength(self.creature(attacker), plan.option))
    amount, text = dmg.total, dmg.explanation
    if damage_bonus:
        amount += damage_bonus
        text = f"{amount} = {text.partition(' = ')[2]} + critical attack {damage_bonus}"
    mitigated, why_less = rs.mitigate(self.creature(target), tx.state.get(target), amount)
    if why_less:
        text = f"{mitigated} = {text.partition(' = ')[2]} {why_less}"
    before = tx.state.get(target).hp
    tx.emit(ev.Damaged(target, mitigated, attacker, f"  damage {text} → {target} hp "
                                                      f"{before} → {before - mitigated}"))
    self._announce_health(tx, target, before)

# ------------------------------------------------------------------ reactions

def aoo_plan(self: Encounter, state: EncounterState, enemy: str, mover: str,
             view: View | None = None) -> AttackPlan | None:
    """The attack of opportunity ``enemy`` would be offered against ``mover`` where it stands in ``state``
    (P19: a reaction left, able to act, threatening, allowed, and a melee attack it could make), or None."""
    rs = self.ruleset
    es = state.get(enemy)
    creature = self.creature(enemy)
    if es.reactions.get(rs.aoo_pool, 0) <= 0 or not rs.can_act(creature, es):
        return None
    if not rs.threatened(creature, es, self.footprint(enemy, state), self.footprint(mover, state)) \
            or not rs.can_make_aoo(view if view is not None else self.view(state), enemy, mover):
        return None
    try:
        plan = self.plan_attack(enemy, mover, rs.aoo_attack(creature, es), state=state)
    except IllegalAction:
        return None
    return None if plan.ranged else plan


def provocations(self: Encounter, mover: str, paths: Iterable[Sequence[Square]],
                 state: EncounterState | None = None) -> list[list[tuple[str, Square]]]:
    """For each path (successive squares, the start excluded): who would be offered an attack of
    opportunity, and on leaving which square, if ``mover`` walked it now. For previews and the AI; the
    walk itself asks the same :func:`aoo_plan`."""
    s = state or self.state
    paths = list(paths)
    if not self.ruleset.movement_provokes("move") or not self.on_map(mover, s):
        return [[] for _ in paths]
    ms = s.get(mover)
    foes = self.enemies(mover, s)
    seen: dict[tuple[Square, str], bool] = {}

    def would(square: Square, enemy: str) -> bool:
        if (square, enemy) not in seen:
            there = s if square == ms.position else s.with_combatant(replace(ms, position=square))
            seen[(square, enemy)] = self.aoo_plan(there, enemy, mover) is not None
        return seen[(square, enemy)]

    out: list[list[tuple[str, Square]]] = []
    for path in paths:
        offered: set[str] = set()
        found: list[tuple[str, Square]] = []
        here = ms.position
        for sq in path:
            for enemy in foes:
                if enemy not in offered and would(here, enemy):
                    offered.add(enemy)
                    found.append((enemy, here))
            here = (int(sq[0]), int(sq[1]))
        out.append(found)
    return out


def _provoke(self: Encounter, tx: Tx, mover: str, reason: str, offered: set[str]) -> bool:
    """Offer an attack of opportunity to every enemy that threatens ``mover`` where it stands now
    (P19). Returns False if the mover can no longer act afterwards."""
    rs = self.ruleset
    for enemy in self.enemies(mover, tx.state):
        if enemy in offered:
            continue
        plan = self.aoo_plan(tx.state, enemy, mover, tx)
        if plan is None:
            continue
        creature = self.creature(enemy)
        offered.add(enemy)
        choices = rs.aoo_choices(creature, plan.option)
        answer = tx.ask(ReactionPrompt(enemy, "attack_of_opportunity", f"{mover} {reason}", (*choices, "decline")))
        if answer != "decline":
            declared, bonus = rs.aoo_declaration(answer, plan.option)  # e.g. SKL's critical attack
            if declared is not None:
                plan = replace(plan, modifiers=(*plan.modifiers, declared))
            tx.emit(ev.ReactionSpent(enemy, rs.aoo_pool, f"attack of opportunity against {mover} ({reason})"))
            self._roll_attack(tx, plan, damage_bonus=bonus)
            if self._cannot_act(tx.state, mover) is not None:
                return False
    return True

