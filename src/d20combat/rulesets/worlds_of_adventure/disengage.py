"""The defensive disengage (WOA-AOO-20..22): a move action at half speed that provokes no attack of opportunity
from the opponents it leaves — but an opponent it newly engages on the way gets one (WOA-AOO-21)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from d20combat.battlefield import movement as mv
from d20combat.battlefield.grid import Footprint, Square
from d20combat.encounter import events as ev
from d20combat.encounter.actions import Action
from d20combat.rulesets.components import ActionSpec, RuleError
from d20combat.rulesets.worlds_of_adventure.opportunity import DISENGAGE as MODE

SLOWING = ("slowed", "entangled", "movement_hampered")
"""Conditions that bar the defensive disengage (WOA-AOO-22: slowed, or a condition that reduces speed)."""


@dataclass(frozen=True, slots=True)
class DefensiveDisengage(Action):
    """WOA-AOO-20: move defensively at half speed (a move action); give ``to`` or an explicit ``path``."""

    kind: ClassVar[str] = "disengage"
    to: Square | None = None
    path: tuple[Square, ...] | None = None


def _path(enc: Any, tx: Any, actor: str, a: DefensiveDisengage, budget: int) -> tuple[list[Square], int, int]:
    turn = tx.state.turn
    start = enc.footprint(actor, tx.state)
    gm = enc.battle.game_map
    if a.path is not None:
        path = [(int(p[0]), int(p[1])) for p in a.path]
        check = mv.check_path(gm, start, path, budget, enc.occupancy(actor, tx.state),
                              diagonals_so_far=turn.diagonals, flying=enc.creature(actor).fly_speed_ft > 0,
                              difficult_diagonal_counts=enc.ruleset.movement.difficult_diagonal_counts)
        if not check.ok:
            raise RuleError(f"disengage: {check.error}")
        return path, check.cost_ft, check.diagonals
    if a.to is None:
        raise RuleError("disengage: give 'to' or 'path'")
    to = (int(a.to[0]), int(a.to[1]))
    info = enc.move_options(actor, tx.state).get(to)
    if info is None or info.cost_ft > budget:
        raise RuleError(f"disengage: no legal path to {to} within half speed, {budget} ft (WOA-AOO-20)")
    return list(info.path), info.cost_ft, info.diagonals


def do_disengage(enc: Any, tx: Any, actor: str, a: DefensiveDisengage, dry: bool) -> None:
    """WOA-AOO-20..22."""
    cs = tx.state.get(actor)
    creature = enc.creature(actor)
    turn = tx.state.turn
    assert turn is not None
    if cs.has("prone"):
        raise RuleError("disengage: prone; stand up first")
    if turn.stepped:
        raise RuleError("disengage: after a short step no other movement this round")
    for condition in SLOWING:
        if cs.has(condition):
            raise RuleError(f"disengage: not while {condition.replace('_', ' ')} (WOA-AOO-22)")
    speed = enc.speed_ft(actor, tx.state)
    if speed < creature.land_speed_ft:
        raise RuleError(f"disengage: not with a reduced speed ({speed} ft of {creature.land_speed_ft}, "
                            f"WOA-AOO-22)")
    budget = speed // 2
    squares, cost, diagonals = _path(enc, tx, actor, a, budget)
    if not squares:
        raise RuleError("disengage: the path is empty")
    gm = enc.battle.game_map
    for sq in squares:
        if any(gm.is_difficult(s) for s in Footprint(sq, creature.space).squares()):
            raise RuleError(f"disengage: not across difficult terrain such as {sq} (WOA-AOO-22)")
    enc.pay(tx, actor, "defensive disengage", "move", dry)
    if dry:
        return
    walk_defensively(enc, tx, actor, squares, cost, diagonals)


def walk_defensively(enc: Any, tx: Any, actor: str, squares: list[Square], cost: int, diagonals: int) -> None:
    """Move without provoking from the opponents engaged at the start (WOA-AOO-20); an opponent whose threatened
    area the move enters is offered its attack of opportunity there (WOA-AOO-21)."""
    from d20combat.encounter import attack_actions  # the engine's layer, imported when the action runs

    rs = enc.ruleset
    space = enc.creature(actor).space
    foes = enc.enemies(actor, tx.state)

    def threatening(fp: Footprint) -> set[str]:
        out = set()
        for foe in foes:
            fs = tx.state.get(foe)
            if rs.reactions.threatened(enc.creature(foe), fs, enc.footprint(foe, tx.state), fp):
                out.add(foe)
        return out

    engaged = threatening(enc.footprint(actor, tx.state))
    offered: set[str] = set(engaged)
    segment: list[Square] = []
    spent = 0
    for i, sq in enumerate(squares):
        segment.append(sq)
        fresh = threatening(Footprint(sq, space)) - offered
        if not fresh:
            continue
        seg_cost = min(5 * len(segment), cost - spent) if i < len(squares) - 1 else cost - spent
        tx.emit(ev.Moved(actor, [list(p) for p in segment], seg_cost, diagonals, MODE))
        spent += seg_cost
        segment = []
        others = set(foes) - fresh
        if not attack_actions.provoke(enc, tx, actor, "engages it while disengaging defensively (WOA-AOO-21)",
                                      others):
            return
        offered |= fresh
    if segment:
        tx.emit(ev.Moved(actor, [list(p) for p in segment], cost - spent, diagonals, MODE))


DISENGAGE = ActionSpec(DefensiveDisengage, do_disengage)
