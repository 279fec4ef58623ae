"""Attacks: planning (legality and modifiers), the resolution pipeline in its fixed stage order, and
attacks of opportunity (PFB-ATK, PFB-CRIT, PFB-DMG, PFB-COV, PFB-CONC; rules-diff §3)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from d20combat.battlefield.concealment import ConcealmentSource, Vision
from d20combat.battlefield.cover import CoverDegree, CoverFact
from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint, Square
from d20combat.encounter import actions as ax
from d20combat.encounter import equipment_actions
from d20combat.encounter import events as ev
from d20combat.encounter.core import EncounterCore
from d20combat.encounter.prompts import ReactionPrompt
from d20combat.encounter.resolution import (
    AttackPlan,
    IllegalAction,
    Tx,
)
from d20combat.encounter.state import EncounterState
from d20combat.model.creature import AttackOption
from d20combat.numbers import Modifier, total
from d20combat.rules.armor_class import DefenseContext
from d20combat.rulesets.base import RuleError, View

# ------------------------------------------------------------------ attacks

def plan_attack(enc: EncounterCore, attacker: str, target: str, attack: str | None = None, *,
                square: Square | None = None, extra: tuple[Modifier, ...] = (),
                state: EncounterState | None = None, from_square: Square | None = None) -> AttackPlan:
    """Everything decided before any die: legality (reach, range, the 10-ft rules, total cover,
    total concealment) and the attack modifiers. Raises :class:`IllegalAction`.

    Memoized per state object: a plan is a pure function of the (immutable) state and the
    arguments, and the AI, ``check`` and ``act`` ask for the same plan in turn."""
    s = state or enc.state
    if enc._plan_state is not s:
        enc._plan_state, enc._plans = s, {}
    key = (attacker, target, attack, square, extra, from_square)
    cached = enc._plans.get(key)
    if cached is None:
        try:
            cached = _plan_attack(enc, attacker, target, attack, square, extra, s, from_square)
        except IllegalAction as exc:
            cached = exc
        enc._plans[key] = cached
    if isinstance(cached, IllegalAction):
        raise IllegalAction(str(cached))
    return cached


def _plan_attack(enc: EncounterCore, attacker: str, target: str, attack: str | None, square: Square | None,
                 extra: tuple[Modifier, ...], s: EncounterState, from_square: Square | None) -> AttackPlan:
    if target not in s.combatants:
        raise IllegalAction(f"attack: no combatant {target!r}")
    if target == attacker:
        raise IllegalAction("attack: a creature cannot attack itself")
    if not enc.on_map(target, s):
        raise IllegalAction(f"attack: {target} is not on the battlefield")
    if enc.is_dead(target, s):
        raise IllegalAction(f"attack: {target} is already dead")
    creature = enc.creature(attacker)
    option = equipment_actions._option(enc, attacker, attack, s)
    cs = s.get(attacker)
    if option.kind.value != "spell" and not enc.ruleset.attack.holds(creature, cs, option):
        raise IllegalAction(f"attack: {attacker} must draw {option.name} first (a move action, PFB-ITEM-01)")
    if option.weapon.reload != "none" and option.name not in cs.loaded:
        raise IllegalAction(f"attack: {option.name} is not loaded (reload, PFB-ITEM-08)")
    a_fp = Footprint(from_square or cs.position, creature.space)
    t_fp = enc.footprint(target, s)
    gm = enc.battle.game_map
    sources = _concealment_sources(enc, attacker, target, option, a_fp, s)
    percent, reason = enc.ruleset.concealment.combine(sources)
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
    mods: list[Modifier] = list(enc.ruleset.attack.attack_modifiers(creature, option))
    ranged = option.is_ranged
    if ranged:
        rc = enc.ruleset.attack.ranged_limits(dist, option)
        if rc.problem:
            raise IllegalAction(f"attack: {rc.problem} (PFB-ATK-04..06)")
        if rc.penalty:
            mods.append(Modifier(rc.penalty, "range"))
        if option.kind.value != "spell" and enc.ruleset.attack.ranged_needs_clearance():
            for enemy in enc.enemies(attacker, s):
                if enc.is_dead(enemy, s) or (
                        enc.ruleset.attack.ranged_min_range_ignores_helpless and enc.is_helpless(enemy, s)):
                    continue
                d = footprint_distance_ft(a_fp, enc.footprint(enemy, s))
                if d < 10:
                    raise IllegalAction(f"attack: {enemy} is {d} ft away; ranged weapons need 10 ft from "
                                        f"every enemy (PFB-ATK-09)")
        penalty = enc.ruleset.attack.into_melee_penalty(creature)
        if penalty is not None:
            for ally in enc.allies(attacker, s):
                if enc.ruleset.attack.into_melee_ignores_helpless_allies and enc.is_helpless(ally, s):
                    continue
                if footprint_distance_ft(enc.footprint(ally, s), t_fp) == 5:
                    mods.append(penalty)
                    break
    elif not enc.ruleset.attack.in_melee_reach(creature, option, a_fp, t_fp):
        if option.weapon.reach and dist <= creature.reach_ft:
            # SKL-AOO-08: what forbids it is the weapon's length, not the distance.
            raise IllegalAction(f"attack: {target} is {dist} ft away, too close for {attacker}'s {option.name}: "
                                f"a reach weapon hits only beyond the adjacent squares (SKL-AOO-08)")
        reach = f"{option.name}, a reach weapon" if option.weapon.reach else f"reach of {creature.reach_ft} ft"
        raise IllegalAction(f"attack: {target} is {dist} ft away, beyond {attacker}'s {reach} (PFB-ATK-02)")
    for effect in cs.effects:
        if effect.attack:
            mods.append(Modifier(effect.attack, effect.name))
    mods.extend(extra)
    info = AttackPlan(attacker, target, option, ranged, dist, (), CoverFact(CoverDegree.NONE, None, ""), 0, "",
                      False)
    view = enc.view(s)
    problem = enc.ruleset.attack.attack_problem(view, info) or enc.ruleset.conditions.attack_problem(view, info)
    if problem:
        raise IllegalAction(f"attack: {problem}")
    mods.extend(enc.ruleset.attack.situational_attack_modifiers(view, info))
    mods.extend(enc.ruleset.concealment.attack_modifiers(view, info))
    blockers = enc.creature_squares((attacker, target), s) if enc.ruleset.cover.creatures_give_cover(ranged) else {}
    fact = enc.ruleset.cover.find_cover(gm, a_fp, t_fp, ranged=ranged, reach_attack=creature.reach_ft > 5,
                                   adjacent=dist == 5, creature_squares=blockers)
    if fact.degree is CoverDegree.TOTAL:
        raise IllegalAction(f"attack: {target} has total cover — {fact.reason} (PFB-COV-09..11)")
    return AttackPlan(attacker, target, option, ranged, dist, tuple(mods), fact, percent, reason, guessed_wrong)


def _concealment_sources(enc: EncounterCore, attacker: str, target: str, option: AttackOption, a_fp: Footprint,
                         s: EncounterState) -> tuple[ConcealmentSource, ...]:
    """Every concealing condition between the attacker (standing in ``a_fp``) and the target (P18)."""
    creature, cs = enc.creature(attacker), s.get(attacker)
    t_fp = enc.footprint(target, s)
    vision = Vision(low_light=creature.sheet.low_light_vision, darkvision_ft=creature.sheet.darkvision_ft,
                    blinded=cs.has("blinded"), sees_invisible=cs.has("sees_invisible"))
    sources = enc.ruleset.concealment.concealment_sources(
        enc.battle.game_map, a_fp, vision, t_fp, s.get(target),
        adjacent_melee=not option.is_ranged and footprint_distance_ft(a_fp, t_fp) == 5)
    return enc.ruleset.concealment.observer_sources(enc.view(s), attacker, target, option, sources)


def _total_concealment(enc: EncounterCore, plan: AttackPlan, s: EncounterState) -> bool:
    """Is this an attack into a guessed square (the target has total concealment, PFB-CONC-12, CMV-CONC-14)?
    Only a miss chance of at least 50 % can be total, so the sources are looked at only then."""
    if plan.concealment < 50 or not enc.on_map(plan.attacker, s):
        return False
    a_fp = Footprint(s.get(plan.attacker).position, enc.creature(plan.attacker).space)
    return any(src.total for src in _concealment_sources(enc, plan.attacker, plan.target, plan.option, a_fp, s))


def do_attack(enc: EncounterCore, tx: Tx, actor: str, a: ax.Attack, dry: bool) -> None:
    option = equipment_actions._option(enc, actor, a.attack, tx.state)
    try:
        declared, bonus = enc.ruleset.criticals.critical_attack(a.critical, option)
    except RuleError as exc:
        raise IllegalAction(f"attack: {exc}") from None
    plan = plan_attack(enc, actor, a.target, a.attack, square=a.square, state=tx.state,
                            extra=(declared,) if declared is not None else ())
    enc._pay(tx, actor, f"attack {a.target}", "standard", dry)
    if dry:
        return
    if plan.option.weapon.reload != "none":  # PFB-ITEM-08: the shot empties the crossbow
        cs = tx.state.get(actor)
        tx.emit(ev.EquipmentChanged(actor, cs.wielding, cs.shield_state, sorted(cs.loaded - {plan.option.name}),
                                    f"fires {plan.option.name}"))
    roll_attack(enc, tx, plan, damage_bonus=bonus)
    equipment_actions._strenuous(enc, tx, actor, "standard")


def defense(enc: EncounterCore, plan: AttackPlan, state: EncounterState) -> DefenseContext:
    target = enc.creature(plan.target)
    ts = state.get(plan.target)
    surprised = state.surprise_round and plan.target in state.surprised
    view = enc.view(state)
    return DefenseContext(
        touch=plan.option.weapon.touch or enc.ruleset.conditions.touch_attack(view, plan),
        vs_melee=not plan.ranged,
        flat_footed=enc.ruleset.defense.is_flat_footed(target, ts, surprised=surprised)
        or enc.ruleset.conditions.flat_footed(view, plan.target)
        or enc.ruleset.concealment.flat_footed_against(view, plan.attacker, plan.target)
        or enc.ruleset.attack.flat_footed_against(view, plan),
        helpless=enc.ruleset.injury.is_helpless(target, ts),
    )


def target_ac(enc: EncounterCore, plan: AttackPlan, state: EncounterState, view: Tx | None = None) -> tuple[int, str]:
    """The number the attack must reach (P9) with cover (P17) folded in, and its explanation."""
    target = enc.creature(plan.target)
    extra = [m for m in [enc.ruleset.cover.cover_modifier(plan.cover)] if m is not None]
    ac = enc.ruleset.defense.total(target, state.get(plan.target), defense(enc, plan, state), extra,
                              view if view is not None else enc.view(state), plan)
    return ac.value, ac.explain_parts()


def roll_attack(enc: EncounterCore, tx: Tx, plan: AttackPlan, *, damage_bonus: int = 0) -> None:
    """The pipeline (rules-diff §3), stages in a fixed order; each asks the ruleset: miss chance
    before the roll (P18), roll (P8), hit test (P9, P17), active defense window (P10), miss chance
    after a hit (P18), threat and confirmation (P11), damage (P12), mitigation (P13), health (P14)."""
    s = tx.state
    rs = enc.ruleset
    attacker, target = plan.attacker, plan.target
    lines = [f"{attacker} attacks {target} with {plan.option.name}"]
    cover_mod = rs.cover.cover_modifier(plan.cover) if plan.cover.degree is not CoverDegree.NONE else None
    if cover_mod is not None:  # a ruleset without cover (SKL) says nothing about the lines
        lines.append(f"  cover: +{cover_mod.value} {rs.defense.name}, {plan.cover.reason}")
    guessing = plan.guessed_wrong or _total_concealment(enc, plan, s)
    before_roll = rs.concealment.rolled_before(plan.concealment_reason)
    if plan.concealment and before_roll:
        pct = enc.dice.percentile(f"concealment {attacker}->{target}")
        if pct <= plan.concealment or plan.guessed_wrong:
            lines.append("  misses" if guessing else
                         f"  misses: concealment d% {pct} ≤ {plan.concealment} ({plan.concealment_reason}); "
                         f"no attack roll (PFB-CONC-09)")
            tx.emit(ev.AttackResolved(attacker, target, plan.option.name, False, False, lines))
            return
        lines.append(f"  concealment d% {pct} > {plan.concealment} ({plan.concealment_reason}): attack roll")
    committed = rs.active_defense.before_attack_roll(tx, plan)  # P10: a defense committed before the roll
    face = enc.dice.d20(f"attack {attacker}->{target}")
    counted = rs.attack.effective_face(face)
    label = "d20" if counted == face else f"natural {face} counts as"
    roll = total(counted, plan.modifiers, base_label=label, stacking=rs.stacking)
    ac, ac_text = target_ac(enc, plan, s, tx)
    auto_hit, auto_miss = rs.attack.natural(face)
    hit = auto_hit or (not auto_miss and roll.value >= ac)
    why = " (natural 20)" if auto_hit else " (natural 1)" if auto_miss else ""
    lines.append(f"  {'hits' if hit else 'misses'}{why}: {roll.explain()} vs {rs.defense.name} {ac} ({ac_text})")
    if hit and not plan.guessed_wrong and committed is not None:
        negated, text = rs.active_defense.resolve_active_defense(tx, plan, committed, roll.value)
        lines.append(f"  {text}")
        hit = not negated
    elif hit and not plan.guessed_wrong:
        prompt = rs.active_defense.active_defense_prompt(tx, plan, roll)
        if prompt is not None:
            choice = tx.ask(prompt)
            if choice != "none":
                negated, text = rs.active_defense.resolve_active_defense(tx, plan, choice, roll.value)
                lines.append(f"  {text}")
                hit = hit and not negated
    rs.active_defense.attack_rolled(tx, plan, roll.value, hit)
    if hit and plan.concealment and not before_roll:
        pct = enc.dice.percentile(f"concealment {attacker}->{target}")
        if plan.guessed_wrong:
            hit = False  # an attack into an empty guessed square: a plain miss, the square is not revealed
            lines.append("  misses")
        elif pct <= plan.concealment:
            hit = False
            lines.append(f"  the hit misses: concealment d% {pct} ≤ {plan.concealment} ({plan.concealment_reason})")
        else:
            lines.append(f"  concealment d% {pct} > {plan.concealment} ({plan.concealment_reason}): the hit stands")
    if plan.guessed_wrong and hit:
        hit = False  # an attack into an empty guessed square is only ever a plain miss
        lines.append("  misses")
    _, mult = rs.criticals.crit_profile(plan.option)
    critical = False
    # PFB-CRIT-01..04 with CMV-CONC-08/14, CMV-COND-08: a hit lost afterwards (the defender's d%, a wrong
    # square, a fumbled spell, a block) is a miss, and a miss never threatens.
    threat = rs.criticals.threat(face, plan.option, hit, roll.value, ac) if hit else None
    if threat is not None:
        c_face = enc.dice.d20(f"confirm {attacker}->{target}")
        c_roll = total(rs.attack.effective_face(c_face), plan.modifiers, base_label="d20", stacking=rs.stacking)
        c_hit, c_miss = rs.attack.natural(c_face)
        c_ac, c_why = rs.criticals.confirmation_target(tx, plan, ac)
        critical = c_hit or (not c_miss and c_roll.value >= c_ac)
        lines.append(f"  critical threat{threat}; confirmation {c_roll.explain()} vs {rs.defense.name} {c_ac}{c_why}: "
                     f"{'confirmed' if critical else 'not confirmed — a normal hit'}")
    if not hit and guessing:
        lines = [lines[0], "  misses"]  # PFB-CONC-12, CMV-CONC-14: the attacker learns only "miss"
    tx.emit(ev.AttackResolved(attacker, target, plan.option.name, hit, critical, lines))
    rs.after_attack(tx, plan, hit)
    if not hit:
        return
    helpless = rs.injury.is_helpless(enc.creature(target), s.get(target))
    striker = enc.creature(attacker)
    strength = rs.damage.damage_strength(striker, plan.option, state=s.get(attacker))
    dmg = rs.damage.roll(tx, plan, striker, critical=critical, multiplier=mult,
                         precision_d6=rs.damage.precision_dice(striker, helpless)
                         if rs.concealment.precision_allowed(tx, attacker, target) else 0,
                         minimum=rs.damage.minimum_damage, strength=strength)
    amount, text = dmg.total, dmg.explanation
    if damage_bonus:
        amount += damage_bonus
        text = f"{amount} = {text.partition(' = ')[2]} + critical attack {damage_bonus}"
    amount, why_state = rs.conditions.damage_against(tx, plan, amount)
    if why_state:
        text = f"{amount} = {text.partition(' = ')[2]} {why_state}"
    mitigated, why_less = rs.damage.mitigate(enc.creature(target), tx.state.get(target), amount)
    if why_less:
        text = f"{mitigated} = {text.partition(' = ')[2]} {why_less}"
    before = tx.state.get(target).hp
    tx.emit(ev.Damaged(target, mitigated, attacker, f"  damage {text} → {target} hp "
                                                      f"{before} → {before - mitigated}"))
    enc._announce_health(tx, target, before)

# ------------------------------------------------------------------ reactions

def aoo_plan(enc: EncounterCore, state: EncounterState, enemy: str, mover: str,
             view: View | None = None) -> AttackPlan | None:
    """The attack of opportunity ``enemy`` would be offered against ``mover`` where it stands in ``state``
    (P19: a reaction left, able to act, threatening, allowed, and a melee attack it could make), or None."""
    rs = enc.ruleset
    es = state.get(enemy)
    creature = enc.creature(enemy)
    if es.reactions.get(rs.reactions.pool, 0) <= 0 or not rs.injury.can_act(creature, es):
        return None
    if not rs.reactions.threatened(creature, es, enc.footprint(enemy, state), enc.footprint(mover, state)) \
            or not rs.reactions.can_make_aoo(view if view is not None else enc.view(state), enemy, mover):
        return None
    try:
        plan = plan_attack(enc, enemy, mover, rs.reactions.aoo_attack(creature, es), state=state)
    except IllegalAction:
        return None
    return None if plan.ranged else plan


def provocations(enc: EncounterCore, mover: str, paths: Iterable[Sequence[Square]],
                 state: EncounterState | None = None) -> list[list[tuple[str, Square]]]:
    """For each path (successive squares, the start excluded): who would be offered an attack of
    opportunity, and on leaving which square, if ``mover`` walked it now. For previews and the AI; the
    walk itself asks the same :func:`aoo_plan`."""
    s = state or enc.state
    paths = list(paths)
    if not enc.ruleset.reactions.movement_provokes("move") or not enc.on_map(mover, s):
        return [[] for _ in paths]
    ms = s.get(mover)
    size = enc.creature(mover).space
    foes = enc.enemies(mover, s)
    seen: dict[tuple[Square, str], bool] = {}

    def would(square: Square, enemy: str) -> bool:
        if (square, enemy) not in seen:
            there = s if square == ms.position else s.with_combatant(replace(ms, position=square))
            seen[(square, enemy)] = aoo_plan(enc, there, enemy, mover) is not None
        return seen[(square, enemy)]

    out: list[list[tuple[str, Square]]] = []
    for path in paths:
        offered: set[str] = set()
        found: list[tuple[str, Square]] = []
        here = ms.position
        for sq in path:
            for enemy in foes:
                if enemy not in offered and would(here, enemy) and enc.ruleset.reactions.provokes(
                        enc.view(s), enemy, mover, "leaves", (Footprint(here, size), Footprint(sq, size))):
                    offered.add(enemy)
                    found.append((enemy, here))
            here = (int(sq[0]), int(sq[1]))
        out.append(found)
    return out


def provoke(enc: EncounterCore, tx: Tx, mover: str, reason: str, offered: set[str],
            leaving: tuple[Footprint, Footprint] | None = None) -> bool:
    """Offer an attack of opportunity to every enemy that threatens ``mover`` where it stands now
    (P19) and that the provocation provokes (``reactions.provokes``; ``leaving``: the footprints left and
    entered by a movement). Returns False if the mover can no longer act afterwards."""
    rs = enc.ruleset
    for enemy in enc.enemies(mover, tx.state):
        if enemy in offered:
            continue
        plan = aoo_plan(enc, tx.state, enemy, mover, tx)
        if plan is None or not rs.reactions.provokes(tx, enemy, mover, reason, leaving):
            continue
        creature = enc.creature(enemy)
        offered.add(enemy)
        choices = rs.reactions.aoo_choices(creature, plan.option)
        answer = tx.ask(ReactionPrompt(enemy, "attack_of_opportunity", f"{mover} {reason}", (*choices, "decline")))
        if answer != "decline":
            declared, bonus = rs.reactions.aoo_declaration(answer, plan.option)  # e.g. SKL's critical attack
            if declared is not None:
                plan = replace(plan, modifiers=(*plan.modifiers, declared))
            tx.emit(ev.ReactionSpent(enemy, rs.reactions.pool, rs.reactions.spent_text(
                tx, enemy, f"attack of opportunity against {mover} ({reason})")))
            roll_attack(enc, tx, plan, damage_bonus=bonus)
            if enc._cannot_act(tx.state, mover) is not None:
                return False
    return True

