"""Movement: move, 5-foot step, minimum move, climb and swim, charge, and the walk that pauses for
attacks of opportunity (PFB-MOVE, PFB-CHG)."""

from __future__ import annotations

from dataclasses import replace

from d20combat.battlefield import movement as mv
from d20combat.battlefield.charge import charge_path_problem, closest_attack_origins
from d20combat.battlefield.distance import distance_ft
from d20combat.battlefield.grid import Footprint, Square
from d20combat.battlefield.lines import squares_crossed_scaled
from d20combat.battlefield.reach import within_reach
from d20combat.encounter import actions as ax
from d20combat.encounter import attack_actions, equipment_actions
from d20combat.encounter import events as ev
from d20combat.encounter.core import EncounterCore
from d20combat.encounter.resolution import (
    IllegalAction,
    Tx,
)
from d20combat.numbers import Modifier

# ------------------------------------------------------------------ movement

def _movement_common(enc: EncounterCore, tx: Tx, actor: str, what: str) -> None:
    cs = tx.state.get(actor)
    if cs.has("prone"):
        raise IllegalAction(f"{what}: {actor} is prone; stand up first (a move action, PFB-ACT-21)")
    assert tx.state.turn is not None
    if tx.state.turn.stepped:
        raise IllegalAction(f"{what}: after a 5-foot step no other movement this round (PFB-MOVE-03)")
    if enc.speed_ft(actor, tx.state) <= 0:
        raise IllegalAction(f"{what}: {actor} cannot move (speed 0, PFB-MOVE-27)")


def do_move(enc: EncounterCore, tx: Tx, actor: str, a: ax.Move, dry: bool) -> None:
    _movement_common(enc, tx, actor, "move")
    turn = tx.state.turn
    assert turn is not None
    creature = enc.creature(actor)
    speed = enc.speed_ft(actor, tx.state)
    if speed <= 0:
        raise IllegalAction(f"move: {actor} cannot move (speed 0)")
    budget = max(speed, 5)  # PFB-MOVE-27: a move action always allows at least 5 ft
    if a.path is not None:
        path = tuple((int(p[0]), int(p[1])) for p in a.path)
        check = mv.check_path(enc.battle.game_map, enc.footprint(actor, tx.state), path, budget,
                              enc.occupancy(actor, tx.state), diagonals_so_far=turn.diagonals,
                              flying=creature.fly_speed_ft > 0,
                              difficult_diagonal_counts=enc.ruleset.movement.difficult_diagonal_counts)
        if not check.ok:
            raise IllegalAction(f"move: {check.error}")
        cost, diagonals, squares = check.cost_ft, check.diagonals, list(path)
    elif a.to is not None:
        to = (int(a.to[0]), int(a.to[1]))
        if not enc.battle.game_map.in_bounds(to):
            raise IllegalAction(f"move: {to} is outside the {enc.battle.game_map.width}×"
                                f"{enc.battle.game_map.height} map")
        info = enc.move_options(actor, tx.state).get(to)
        if info is None:
            raise IllegalAction(f"move: no legal path to {to} within {budget} ft")
        cost, diagonals, squares = info.cost_ft, info.diagonals, list(info.path)
    else:
        raise IllegalAction("move: give 'to' or 'path'")
    if not squares:
        raise IllegalAction("move: the path is empty")
    paid = enc._pay(tx, actor, "move", "move", dry)
    if a.draw is not None or a.shield is not None:
        _free_while_moving(enc, tx, actor, a.draw, a.shield, paid, dry)
    if dry:
        return
    walk(enc, tx, actor, squares, cost, diagonals, "move")


def _free_while_moving(enc: EncounterCore, tx: Tx, actor: str, draw: str | None, shield: str | None, paid: str,
                       dry: bool) -> None:
    """PFB-ITEM-05/11: attack bonus +1 or more and moving with the move action → draw a weapon or
    ready/remove a shield as a free action."""
    creature = enc.creature(actor)
    if creature.attack_bonus < 1:
        raise IllegalAction("drawing while moving needs an attack bonus of +1 or higher (PFB-ITEM-05)")
    if paid != "move":
        raise IllegalAction("a free draw comes only with the move action spent moving (PFB-ITEM-05)")
    if enc.ruleset.movement.move_draw_uses_free_action:
        enc._pay(tx, actor, "draw while moving" if draw else "shield while moving", "free", dry)
    if draw is not None:
        equipment_actions._change_wielding(enc, tx, actor, draw, dry)
    if shield is not None:
        equipment_actions._change_shield(enc, tx, actor, shield, dry)


def do_step(enc: EncounterCore, tx: Tx, actor: str, a: ax.Step, dry: bool) -> None:
    """PFB-MOVE-01..05."""
    _movement_common(enc, tx, actor, "5-foot step")
    turn = tx.state.turn
    assert turn is not None
    if turn.moved:
        raise IllegalAction("5-foot step: not in a turn with other movement (PFB-MOVE-02)")
    cs = tx.state.get(actor)
    if cs.has("movement_hampered"):
        raise IllegalAction("5-foot step: not while your movement is slowed (PFB-MOVE-04)")
    to = (int(a.to[0]), int(a.to[1]))
    start = enc.footprint(actor, tx.state)
    if max(abs(to[0] - start.origin[0]), abs(to[1] - start.origin[1])) != 1:
        raise IllegalAction(f"5-foot step: {to} is not one square away")
    new_fp = start.moved_to(to)
    if any(enc.battle.game_map.is_difficult(sq) for sq in new_fp.squares() if sq not in set(start.squares())):
        raise IllegalAction(f"5-foot step: not into terrain that slows you, such as {to} (PFB-MOVE-05)")
    step = mv.footprint_step_cost(enc.battle.game_map, start, to, turn.diagonals)
    if step is None:
        raise IllegalAction(f"5-foot step: {to} cannot be entered (wall, edge or corner, PFB-MOVE-17)")
    occ = enc.occupancy(actor, tx.state)
    if not all(mv.can_end(occ.get(sq)) for sq in new_fp.squares()):
        raise IllegalAction(f"5-foot step: cannot end in {to}: it is occupied (PFB-MOVE-12/13)")
    enc._pay(tx, actor, "5-foot step", "free" if enc.ruleset.movement.step_uses_free_action else "none", dry)
    if dry:
        return
    tx.emit(ev.Moved(actor, [list(to)], 5, step[1], "step"))


def do_climb_or_swim(enc: EncounterCore, tx: Tx, actor: str, a: ax.ClimbOrSwim, dry: bool) -> None:
    """PFB-MOVE-07 (MISSING in the text; PF1 CRB default): a successful Climb or Swim check moves
    the creature a quarter of its speed (at least 5 ft) as a move action; a failed one, not at all.
    A skill check has no automatic result on a natural 1 or 20 (PFB-NAT-05)."""
    _movement_common(enc, tx, actor, "climb or swim")
    gm = enc.battle.game_map
    path = [(int(p[0]), int(p[1])) for p in a.path]
    if not path:
        raise IllegalAction("climb or swim: the path is empty")
    limit = max(enc.speed_ft(actor, tx.state) // 4 // 5, 1)
    if len(path) > limit:
        raise IllegalAction(f"climb or swim: {len(path)} squares, but a quarter of the speed allows {limit}")
    occ = enc.occupancy(actor, tx.state)
    prev = tx.state.get(actor).position
    needs: list[tuple[str, int]] = []
    for n, sq in enumerate(path, 1):
        if max(abs(sq[0] - prev[0]), abs(sq[1] - prev[1])) != 1:
            raise IllegalAction(f"climb or swim: step {n} to {sq} is not to a neighbouring square")
        need = gm.skill_for(sq)
        if need is None and not gm.is_passable(sq):
            raise IllegalAction(f"climb or swim: step {n} to {sq} enters a wall, a pit or leaves the map")
        if not mv.can_pass(occ.get(sq)):
            raise IllegalAction(f"climb or swim: step {n} to {sq}: an enemy is there (PFB-MOVE-13)")
        if need is not None:
            needs.append(need)
        prev = sq
    if not needs:
        raise IllegalAction("climb or swim: no square on the path needs climbing or swimming; move instead")
    if not mv.can_end(occ.get(path[-1])):
        raise IllegalAction(f"climb or swim: cannot end in {path[-1]}: it is occupied (PFB-MOVE-12)")
    skill, dc = max(needs, key=lambda k: k[1])
    enc._pay(tx, actor, skill, "move", dry)
    if dry:
        return
    bonus = enc.creature(actor).sheet.skills.get(skill, 0)
    face = enc.dice.d20(f"{skill} check {actor}")
    result = face + bonus
    text = f"{actor} {skill} check {result} = d20 {face} {bonus:+d} vs DC {dc}"
    if result >= dc:
        tx.emit(ev.Note(text + ": success"))
        # Climbing or swimming out of a threatened square provokes as a move does (walk).
        walk(enc, tx, actor, list(path), 5 * len(path), tx.state.turn.diagonals if tx.state.turn else 0, skill,
             fixed_cost=True)
    else:
        tx.emit(ev.Note(text + ": no progress"))


def do_minimum_move(enc: EncounterCore, tx: Tx, actor: str, a: ax.MinimumMove, dry: bool) -> None:
    """PFB-MOVE-25/26: a full round buys one square whatever it costs, never through walls or corners."""
    _movement_common(enc, tx, actor, "minimum move")
    to = (int(a.to[0]), int(a.to[1]))
    start = enc.footprint(actor, tx.state)
    if max(abs(to[0] - start.origin[0]), abs(to[1] - start.origin[1])) != 1:
        raise IllegalAction(f"minimum move: {to} is not one square away")
    turn = tx.state.turn
    assert turn is not None
    step = mv.footprint_step_cost(enc.battle.game_map, start, to, turn.diagonals)
    if step is None:
        raise IllegalAction(f"minimum move: {to} cannot be entered (wall, edge or corner, PFB-MOVE-26)")
    occ = enc.occupancy(actor, tx.state)
    if not all(mv.can_end(occ.get(sq)) for sq in start.moved_to(to).squares()):
        raise IllegalAction(f"minimum move: cannot end in {to}: it is occupied")
    enc._pay(tx, actor, "minimum move", "full-round", dry)
    if dry:
        return
    tx.emit(ev.Moved(actor, [list(to)], step[0], step[1], "minimum move"))


def walk(enc: EncounterCore, tx: Tx, actor: str, squares: list[Square], cost: int, diagonals: int, mode: str, *,
         fixed_cost: bool = False) -> None:
    """Move along ``squares``; where the ruleset says leaving a threatened square provokes, the
    move pauses for attacks of opportunity and stops if the mover drops.

    Every square of the path is a square left (CMV-COV-08, SKL-AOO-10/11): each enemy threatening one of
    them is offered one attack of opportunity per action. ``fixed_cost``: the movement's cost and diagonal
    count are ``cost`` and ``diagonals`` whatever the steps (a charge measured start to end, PFB-CHG-04/05)."""
    if not enc.ruleset.reactions.movement_provokes(_provoking_mode(mode)):
        tx.emit(ev.Moved(actor, [list(p) for p in squares], cost, diagonals, mode))
        return
    turn = tx.state.turn
    diag = turn.diagonals if turn is not None and turn.actor == actor else 0
    offered: set[str] = set()
    segment: list[Square] = []
    seg_cost = 0
    spent = 0
    flying = enc.creature(actor).fly_speed_ft > 0

    def emit_segment() -> None:
        nonlocal segment, seg_cost, spent
        if fixed_cost:
            seg_cost = min(seg_cost, cost - spent)
        tx.emit(ev.Moved(actor, [list(p) for p in segment], seg_cost, diagonals if fixed_cost else diag, mode))
        spent += seg_cost
        segment, seg_cost = [], 0

    for sq in squares:
        here = Footprint(segment[-1] if segment else tx.state.get(actor).position, enc.creature(actor).space)
        if _threatened_by_new_enemy(enc, tx, actor, here, offered, sq):
            if segment:
                emit_segment()
            if not attack_actions.provoke(enc, tx, actor, f"leaves {here.origin}, a threatened square", offered,
                                          leaving=(here, here.moved_to(sq))):
                return
        step = mv.footprint_step_cost(enc.battle.game_map, here, sq, diag, flying=flying,
                                      difficult_diagonal_counts=enc.ruleset.movement.difficult_diagonal_counts)
        step_ft, diag = step if step is not None else (distance_ft(here.origin, sq), diag)
        segment.append(sq)
        seg_cost += step_ft
    if segment:
        if fixed_cost:
            seg_cost = cost - spent
        emit_segment()


def _provoking_mode(mode: str) -> str:
    """Climbing and swimming are a move action's movement: they provoke as a move does (SKL-AOO-10, EP-AOO-06)."""
    return "move" if mode in ("climb", "swim") else mode


def charge_line(start: Footprint, end: Square) -> list[Square]:
    """The origins the charger passes through on its straight line (PFB-CHG-07 proposal: centre to centre),
    from the first square after ``start`` to ``end``: the squares it leaves on the way (CMV-COV-08)."""
    c0, r0 = start.origin
    p = (2 * c0 + 1, 2 * r0 + 1)
    q = (2 * end[0] + 1, 2 * end[1] + 1)
    line = [sq for sq in squares_crossed_scaled(p, q, 2) if sq != start.origin]
    if not line or line[-1] != end:
        line = [sq for sq in line if sq != end] + [end]
    return line


def _threatened_by_new_enemy(enc: EncounterCore, tx: Tx, actor: str, here: Footprint, offered: set[str],
                             to: Square | None = None) -> bool:
    """Would leaving ``here`` (for ``to``) offer someone not yet offered an attack of opportunity? Only then is the
    move split there (a creature that threatens the square but cannot react does not break the move in the log)."""
    s = tx.state
    ms = s.get(actor)
    there = s if here.origin == ms.position else s.with_combatant(replace(ms, position=here.origin))
    for enemy in enc.enemies(actor, s):
        if enemy in offered:
            continue
        if attack_actions.aoo_plan(enc, there, enemy, actor) is not None and (
                to is None or enc.ruleset.reactions.provokes(enc.view(there), enemy, actor, "leaves",
                                                             (here, here.moved_to(to)))):
            return True
    return False


def do_charge(enc: EncounterCore, tx: Tx, actor: str, a: ax.Charge, dry: bool, *,
              guess: Square | None = None) -> None:
    """PFB-CHG-01..12. ``guess``: a ruleset's charge at the square a totally concealed target is guessed to be in
    (Epic Path's EP-ATK-23 option): the charge runs to that square and its attack goes there."""
    _movement_common(enc, tx, actor, "charge")
    turn = tx.state.turn
    assert turn is not None
    if turn.moved:
        raise IllegalAction("charge: all the movement must be part of the charge (PFB-CHG-03)")
    if a.target not in tx.state.combatants or a.target == actor:
        raise IllegalAction(f"charge: no target {a.target!r}")
    creature = enc.creature(actor)
    start = enc.footprint(actor, tx.state)
    t_fp = enc.footprint(a.target, tx.state) if guess is None else Footprint((int(guess[0]), int(guess[1])), 1)
    if within_reach(start, creature.reach_ft, t_fp):
        raise IllegalAction(f"charge: {a.target} is already within reach (PFB-CHG-04)")
    option = equipment_actions._option(enc, actor, a.draw or a.attack, tx.state)
    if option.is_ranged:
        raise IllegalAction("charge: the charge attack is a melee attack (PFB-CHG-10)")
    gm = enc.battle.game_map
    origins = closest_attack_origins(gm, start, t_fp, creature.reach_ft)
    if not origins:
        raise IllegalAction(f"charge: no square from which to attack {a.target}")
    if a.to is not None:
        end = (int(a.to[0]), int(a.to[1]))
        if end not in origins:
            raise IllegalAction(f"charge: {end} is not a closest square from which to attack (PFB-CHG-09)")
    else:
        end = origins[0]
    dist = distance_ft(start.origin, end)
    speed = enc.speed_ft(actor, tx.state)
    if dist < 10:
        raise IllegalAction(f"charge: only {dist} ft to move; a charge needs at least 10 ft (PFB-CHG-04)")
    multiple = enc.ruleset.movement.charge_speed_multiple
    if dist > multiple * speed and multiple == 2:
        raise IllegalAction(f"charge: {dist} ft is more than double speed {2 * speed} ft (PFB-CHG-05)")
    if dist > multiple * speed:
        raise IllegalAction(f"charge: {dist} ft is more than {multiple * speed} ft, "
                            f"{'its speed' if multiple == 1 else f'{multiple} × speed'} (EP-MOVE-16)")
    occupied = set(enc.creature_squares((actor,), tx.state))
    end_fp = start.moved_to(end)
    if any(sq in occupied for sq in end_fp.squares()):
        raise IllegalAction(f"charge: the closest square {end} is occupied (PFB-CHG-09)")
    problem = charge_path_problem(gm, start, end, occupied - set(t_fp.squares()),
                                  flying=creature.fly_speed_ft > 0)
    if problem:
        raise IllegalAction(f"charge: {problem} (PFB-CHG-06..08)")
    enc._pay(tx, actor, f"charge {a.target}", "full-round", dry)
    if a.draw is not None:
        _free_while_moving(enc, tx, actor, a.draw, None, "move", dry)
    if dry:
        # The attack's own legality (loaded, reach from the end square, total cover) is checked too.
        attack_actions.plan_attack(enc, actor, a.target, option.name, state=replace(tx.state), from_square=end,
                                   square=guess)
        return
    # PFB-CHG-12: −2 AC until the start of the charger's next turn — where the ruleset says so, from the
    # start of the charge movement, so reactions during the charge see it (off-guard cmv_charge_ac_from_start).
    early = enc.ruleset.movement.charge_ac_from_start
    if early:
        tx.emit(ev.EffectAdded(actor, "charging", actor, tx.state.round + 1, ac=-2))
    # Every threatened square left on the line provokes (CMV-COV-08, SKL-AOO-10/11); without reactions the
    # charge is one jump to its end square.
    line = charge_line(start, end) if enc.ruleset.reactions.movement_provokes("charge") else [end]
    walk(enc, tx, actor, line, dist, turn.diagonals, "charge", fixed_cost=True)
    if enc._cannot_act(tx.state, actor) is not None:
        return
    if not early:
        tx.emit(ev.EffectAdded(actor, "charging", actor, tx.state.round + 1, ac=-2))
    plan = attack_actions.plan_attack(enc, actor, a.target, option.name, state=tx.state, extra=(Modifier(2, "charge"),),
                                      square=guess)
    attack_actions.roll_attack(enc, tx, plan)
    after = tx.state.turn
    if enc.ruleset.movement.charge_ends_turn and after is not None and after.actor == actor:
        tx.emit(ev.TurnPoolsSet(actor, dict.fromkeys(after.pools, 0),
                                "the charge ends the turn: no further actions, not even free actions (EP-MOVE-23)"))

