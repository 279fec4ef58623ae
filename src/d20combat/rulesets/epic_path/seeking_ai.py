"""What Epic Path's rules on the unseen and on teamwork recommend to the tactical AI: spot an invisible foe before
swinging at it blind (EP-CONC-21..23), grope where an unseen foe was last known (EP-CONC-25..27), and aid an ally
against a foe it cannot hit itself (EP-MISC-01..03)."""

from __future__ import annotations

from typing import Any

from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint, Square
from d20combat.battlefield.reach import within_reach
from d20combat.errors import D20CombatError
from d20combat.rulesets.epic_path.invisibility import SPOT_RANGE_FT, Grope, Spot
from d20combat.rulesets.epic_path.seeing import condition_args, pinpointed_square
from d20combat.rulesets.epic_path.senses import unseen_by
from d20combat.rulesets.epic_path.strikes import AidAnother


def _legal(enc: Any, action: Any) -> Any:
    return action if enc.check(action) is None else None


def unseen_foes(enc: Any, actor: str, foes: list[str]) -> list[str]:
    """The foes ``actor`` cannot perceive (invisible, faded, ethereal and no sense for them) and has not
    pinpointed (EP-CONC-15, EP-CONC-23)."""
    view = enc.view(enc.state)
    return [f for f in foes if unseen_by(view, f, actor) and pinpointed_square(view, actor, f) is None]


def seek(enc: Any, actor: str, foes: list[str]) -> Any:
    """When every foe ``actor`` could fight is one it neither perceives nor has pinpointed: spot (a move action,
    while the turn still has its move action) if one is within 30 ft and within its reach (or it holds a ranged
    weapon), so that the standard action left attacks a known square; else grope the square where it last knew
    one to be, with the neighbouring square nearest to itself, when that square is within reach. A foe further
    off is closed in on first (the core's moves)."""
    unseen = unseen_foes(enc, actor, foes)
    if not unseen or len(unseen) < len(foes):
        return None
    s = enc.state
    here = enc.footprint(actor)
    turn = s.turn
    creature = enc.creature(actor)
    wielded = creature.attack(s.get(actor).wielding) if s.get(actor).wielding else None
    ranged = wielded is not None and wielded.is_ranged
    near = [f for f in unseen if footprint_distance_ft(here, enc.footprint(f)) <= SPOT_RANGE_FT
            and (ranged or within_reach(here, creature.reach_ft, enc.footprint(f)))]
    if near and turn is not None and turn.pools.get("move", 0) > 0:
        action = _legal(enc, Spot())
        if action is not None:
            return action
    return _grope_last_known(enc, actor, unseen)


def _grope_last_known(enc: Any, actor: str, unseen: list[str]) -> Any:
    """EP-CONC-25/27: stale knowledge (``pinpointing:<foe>:<c>:<r>`` for a square it has left) is where to grope."""
    here = enc.footprint(actor)
    reach = enc.creature(actor).reach_ft
    game_map = enc.battle.game_map
    for args in condition_args(enc.state.get(actor), "pinpointing"):
        if len(args) != 3 or args[0] not in unseen:
            continue
        known: Square = (int(args[1]), int(args[2]))
        if footprint_distance_ft(here, Footprint(known, 1)) > reach:
            continue
        partners = sorted(
            ((footprint_distance_ft(here, Footprint(sq, 1)), sq) for dc in (-1, 0, 1) for dr in (-1, 0, 1)
             if (dc or dr) and game_map.in_bounds(sq := (known[0] + dc, known[1] + dr))
             and footprint_distance_ft(here, Footprint(sq, 1)) <= reach and sq not in set(here.squares())),
        )
        for _, partner in partners:
            action = _legal(enc, Grope((known, partner)))
            if action is not None:
                return action
    return None


def _hit_chance(enc: Any, attacker: str, target: str) -> float | None:
    """The chance of ``attacker``'s wielded attack hitting ``target`` (natural 1 and 20 counted), or None when it
    cannot attack it. The plan is asked as the core AI asks it — the wielded attack at the target's square — so
    that the plan, memoized per state and arguments, serves both."""
    try:
        plan = enc.plan_attack(attacker, target, enc.state.get(attacker).wielding,
                               square=enc.state.get(target).position)
    except D20CombatError:
        return None
    ac, _ = enc.target_ac(plan, enc.state)
    need = ac - sum(m.value for m in plan.modifiers)
    return float(min(max((21 - need) / 20, 0.05), 0.95))


def aid_when_hopeless(enc: Any, actor: str, in_reach: list[str]) -> Any:
    """EP-MISC-01..03: a foe in reach that ``actor`` hits only on a natural 20, but an ally in reach of the same foe
    hits more often: aid that ally's next attack (+2), if aid another is legal now. The ally with the best chance
    is aided. (The allies in reach are found first: the chances are asked only where aid is possible.)"""
    s = enc.state
    allies = [a for a in enc.allies(actor)
              if a != actor and not enc.ruleset.injury.out_of_fight(enc.creature(a), s.get(a))]
    for foe in sorted(in_reach, key=lambda f: (s.get(f).hp, f)):
        foe_fp = enc.footprint(foe)
        helpers = [a for a in allies if within_reach(enc.footprint(a), enc.creature(a).reach_ft, foe_fp)]
        if not helpers:
            continue
        mine = _hit_chance(enc, actor, foe)
        if mine is None or mine > 0.05:
            continue
        best: tuple[float, str] | None = None
        for ally in helpers:
            theirs = _hit_chance(enc, ally, foe)
            if theirs is not None and theirs > mine and (best is None or (theirs, ally) > best):
                best = (theirs, ally)
        if best is not None:
            action = _legal(enc, AidAnother(ally=best[1], opponent=foe, bonus="attack"))
            if action is not None:
                return action
    return None
