"""What the table shows before anything happens: every square a move reaches, a move's path and who it
provokes, an attack's numbers and exact odds. Reads only: no die is rolled, nothing changes (the caller
holds the encounter's lock)."""

from __future__ import annotations

from collections.abc import Sequence

from d20combat.battlefield.charge import closest_attack_origins
from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint, Square
from d20combat.encounter import actions as ax
from d20combat.encounter.dice_probe import probe_answer, probe_dice
from d20combat.encounter.engine import Encounter, IllegalAction, Tx
from d20combat.encounter.movement_actions import charge_line
from d20combat.numbers import total
from d20combat.odds import OddsError, attack_odds, kill_odds, profile_from_encounter
from d20combat.server import moveplan
from d20combat.server.inputs import Json, Rejected, action_from_data, parse_dice
from d20combat.server.live import Live


def combatant_id(live: Live, cid: str, where: str) -> str:
    combatants = live.enc.state.combatants
    if cid not in combatants:
        known = list(combatants)
        listed = ", ".join(known[:20]) + (f" and {len(known) - 20} more" if len(known) > 20 else "")
        raise Rejected(f"{where}: no combatant {cid[:100]!r} (known: {listed})")
    return cid


def moves(live: Live, combatant: str) -> Json:
    enc = live.enc
    cid = combatant_id(live, combatant, "combatant")
    gm = enc.battle.game_map
    if not enc.on_map(cid) or any(gm.is_impeded(q) for q in enc.footprint(cid).squares()):
        return {"combatant": cid, "squares": []}  # EP-MOVE-05: no ordinary move leaves impeded terrain
    options = sorted(enc.move_options(cid).items())
    provoked = enc.provocations(cid, [info.path for _, info in options])
    squares = [{"to": list(to), "cost_ft": info.cost_ft, "path": [list(p) for p in info.path],
                "provokes": [e for e, _ in found]} for (to, info), found in zip(options, provoked, strict=True)]
    return {"combatant": cid, "squares": squares}


def preview_move(live: Live, combatant: str, to: Square, via: Sequence[Square] = ()) -> Json:
    """A move's path (the cheapest, or the cheapest through ``via`` in order), cost, provocations and cover
    from the destination; a square it cannot reach says why in words (:mod:`d20combat.server.moveplan`)."""
    enc = live.enc
    cid = combatant_id(live, combatant, "combatant")
    to = (int(to[0]), int(to[1]))
    via = [(int(p[0]), int(p[1])) for p in via]
    turn_problem = not_their_turn(live, cid)
    found = moveplan.plan(enc, cid, to, via) if enc.on_map(cid) else None
    if found is None or found.reason is not None or not found.path:
        why = found.reason if found is not None else f"{cid} is not on the map"
        reason = turn_problem or why or f"no legal path to {to}"
        return {"legal": False, "reason": reason, "path": [], "cost_ft": None, "provokes": [], "cover": []}
    problem = turn_problem or enc.check(ax.Move(path=found.path) if via else ax.Move(to=to))
    provokes = [{"by": e, "square": list(sq)} for e, sq in enc.provocations(cid, [found.path])[0]]
    return {"legal": problem is None, "reason": problem, "path": [list(p) for p in found.path],
            "cost_ft": found.cost_ft, "provokes": provokes, "cover": cover_from(enc, cid, to)}


def not_their_turn(live: Live, cid: str) -> str | None:
    enc = live.enc
    s = enc.state
    if s.ended:
        return "the encounter is over"
    if enc.pending is not None:
        return f"waiting for {enc.pending.prompt.reactor}'s reaction"
    if s.turn is None:
        return "no one's turn"
    if s.turn.actor != cid:
        return f"it is {s.turn.actor}'s turn, not {cid}'s"
    return None


def cover_from(enc: Encounter, cid: str, square: Square) -> list[Json]:
    """Cover every enemy would have against ``cid``'s attack with the weapon in hand from ``square``."""
    rs = enc.ruleset
    s = enc.state
    gm = enc.battle.game_map
    creature = enc.creature(cid)
    wielding = s.get(cid).wielding
    try:
        ranged = creature.attack(wielding).is_ranged if wielding else False
    except KeyError:
        ranged = False
    a_fp = Footprint(square, creature.space)
    blockers_for = rs.cover.creatures_give_cover(ranged)
    out = []
    for enemy in enc.enemies(cid, s):
        if enc.is_dead(enemy, s):
            continue
        t_fp = enc.footprint(enemy, s)
        dist = footprint_distance_ft(a_fp, t_fp)
        if dist == 0:
            continue
        blockers = enc.creature_squares((cid, enemy), s) if blockers_for else {}
        fact = rs.cover.find_cover(gm, a_fp, t_fp, ranged=ranged, reach_attack=creature.reach_ft > 5,
                                   adjacent=dist == 5, creature_squares=blockers)
        mod = rs.cover.cover_modifier(fact)
        out.append({"target": enemy, "degree": fact.degree.value, "reason": fact.reason,
                    "ac_bonus": mod.value if mod is not None else 0})
    return out


def preview_attack(live: Live, attacker: str, target: str, attack: str | None) -> Json:
    enc = live.enc
    s = enc.state
    rs = enc.ruleset
    a_id = combatant_id(live, attacker, "attacker")
    t_id = combatant_id(live, target, "target")
    empty: Json = {"legal": False, "modifiers": [], "bonus": None, "target_number": None,
                   "defense_name": rs.defense.name, "defense_explanation": "", "cover": None,
                   "concealment": 0, "odds": None}
    try:
        plan = enc.plan_attack(a_id, t_id, attack, state=s)
    except IllegalAction as exc:
        return {**empty, "reason": str(exc)}
    reason = not_their_turn(live, a_id) or enc.check(ax.Attack(t_id, attack))
    ac, ac_text = enc.target_ac(plan, s, Tx(s, enc))
    option = plan.option
    striker = enc.creature(a_id)
    static = option.dice.bonus + rs.damage.damage_strength(striker, option, state=s.get(a_id)) \
        + option.weapon.enhancement
    dice_text = f"{option.dice.count}d{option.dice.sides}" if option.dice.count else ""
    damage = dice_text + (f"{static:+d}" if static and dice_text else str(static) if not dice_text else "")
    if option.energy is not None:
        damage += f" + {option.energy} energy"
    threat_min, mult = rs.criticals.crit_profile(option)
    bonus = total(0, plan.modifiers, stacking=rs.stacking).value
    return {"legal": reason is None, "reason": reason,
            "modifiers": [{"source": m.source, "value": m.value} for m in plan.modifiers],
            "bonus": bonus, "target_number": ac, "defense_name": rs.defense.name,
            "defense_explanation": ac_text,
            "cover": {"degree": plan.cover.degree.value, "reason": plan.cover.reason},
            "concealment": plan.concealment, "odds": _odds(enc, a_id, t_id, attack),
            "weapon": {"name": option.name, "damage": damage,
                       "threat": f"{threat_min}-20/×{mult}" if threat_min < 20 else f"20/×{mult}"}}


def _odds(enc: Encounter, attacker: str, target: str, attack: str | None) -> Json | None:
    try:
        odds = attack_odds(profile_from_encounter(enc, attacker, target, attack))
    except OddsError:
        return None
    hp = enc.state.get(target).hp
    drop = float(kill_odds(odds.damage, hp, 1).within[0]) if hp >= 1 else 1.0
    return {"hit": float(odds.p_hit), "crit": float(odds.p_crit), "mean_damage": float(odds.mean),
            "drop_chance": drop}


def preview_dice(live: Live, action: Json | None, answer: str | None, typed: list[str]) -> Json:
    """The dice the action (or the answer to the open prompt) rolls with the faces typed so far, in the engine's
    order, and the next die it needs (:mod:`d20combat.encounter.dice_probe`): what the dice dialog offers."""
    if (action is None) == (answer is None):
        raise Rejected("give exactly one of action, answer")
    faces: list[tuple[int | None, int]] = []
    for i, text in enumerate(typed):
        bare = text.strip()
        if bare.isascii() and bare.isdigit() and len(bare) <= 6:
            faces.append((None, int(bare)))  # a bare face fits whichever die the engine rolls there
            continue
        try:
            ((sides, face),) = parse_dice([text])
        except Rejected as exc:
            raise Rejected(exc.detail.replace("dice[0]", f"dice[{i}]", 1)) from None
        faces.append((sides, face))
    enc = live.enc
    if action is not None:
        probe = probe_dice(enc, action_from_data(action, enc.ruleset.actions.types()), faces)
    else:
        assert answer is not None
        probe = probe_answer(enc, answer, faces)
    return probe.to_dict()


def preview_charge(live: Live, attacker: str, target: str) -> Json:
    """A charge's possible end squares (PFB-CHG-09: the closest from which the charger can attack the target),
    each with whether the charge is legal from there (the engine's reason if not), its line and who it
    provokes on the way — what the GM picks from before charging."""
    enc = live.enc
    s = enc.state
    a_id = combatant_id(live, attacker, "attacker")
    t_id = combatant_id(live, target, "target")
    if not (enc.on_map(a_id) and enc.on_map(t_id)):
        return {"attacker": a_id, "target": t_id, "ends": []}
    start = enc.footprint(a_id, s)
    origins = closest_attack_origins(enc.battle.game_map, start, enc.footprint(t_id, s), enc.creature(a_id).reach_ft)
    provoking = enc.ruleset.reactions.movement_provokes("charge")
    lines = [charge_line(start, end) if provoking else [end] for end in origins]
    provoked = enc.provocations(a_id, lines) if origins else []
    turn_problem = not_their_turn(live, a_id)
    ends = []
    for end, line, found in zip(origins, lines, provoked, strict=True):
        reason = turn_problem or enc.check(ax.Charge(t_id, to=end))
        ends.append({"to": list(end), "legal": reason is None, "reason": reason, "path": [list(p) for p in line],
                     "provokes": [{"by": e, "square": list(sq)} for e, sq in found]})
    return {"attacker": a_id, "target": t_id, "ends": ends}
