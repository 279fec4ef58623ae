"""What the tactical AI declares for a creature before initiative (WOA-CYCLE-14/15, WOA-INIT-26): sensible
choices, each one of the declarations the turn order lists (so always legal).

- **Attack the foe it can reach**: what it would do first if its turn were now — an attack, a charge, a move
  and then an attack at the foe nearest where it stops (the planning copy, :meth:`Encounter.planning_copy`).
- **Move when no foe is reachable**: when that move does not bring any foe within its reach, a second move instead
  of the attack (``move and move``: a standard action spent moving, WOA-CYCLE-15).
- **Refocus when it acted late and is losing**: it acted after every foe still fighting last round, its side has
  less of its hit points left than the foes', and no foe is within its reach now — it moves and refocuses, so its
  next initiative die counts as a 20 (WOA-INIT-26/27).
- **Stand up, draw, reload** (kinds a declared move action covers) declared as a move action and an attack.
- **Cast, touch, drink** (:mod:`.ai_spells`): when it has a useful spell, a held charge to touch or a healing
  potion to drink now, it declares that (a full-round casting alone, a standard one with a move action).
- **Declare nothing** only when nothing else is possible (no foe left, or no other declaration legal).
"""

from __future__ import annotations

from typing import Any

from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint
from d20combat.battlefield.reach import within_reach
from d20combat.encounter import actions as ax
from d20combat.rulesets.worlds_of_adventure.ai_spells import choose_spell_action, declaration_of

NOTHING = ax.Declare()
REFOCUS = ax.Declare(standard="refocus", move="move")
DOUBLE_MOVE = ax.Declare(standard="move", move="move")


def choose_declaration(enc: Any, actor: str) -> ax.Declare:
    """The declaration of ``actor`` (declaring now in ``enc``, an :class:`~d20combat.encounter.engine.Encounter`)."""
    from d20combat.controllers.ai import TacticalAI  # the AI plans the turn it declares for (no import cycle)

    turn_order = enc.ruleset.turn_order
    view = enc.view()
    legal = turn_order.declaration_options(view, actor)  # the turn order's own: legal as listed (the AI checks)
    foes = _foes(enc, actor)
    if not foes or not any(o != NOTHING for o in legal):
        return NOTHING
    if REFOCUS in legal and should_refocus(enc, actor, foes):
        return REFOCUS
    magic = choose_spell_action(enc.planning_copy(actor), actor)
    declared = declaration_of(magic, legal) if magic is not None else None
    if declared is not None:
        return declared
    first = TacticalAI().choose(enc.planning_copy(actor))
    chosen: ax.Declare | None = turn_order.declaration_for(view, actor, first)
    if isinstance(first, ax.Move) and first.to is not None and DOUBLE_MOVE in legal and not _reaches_from(
            enc, actor, Footprint(first.to, enc.creature(actor).space), foes):
        return DOUBLE_MOVE
    if chosen is None or chosen == NOTHING:  # a kind a declared move action covers: stand up, draw, reload…
        near = _nearest(enc, actor, foes)
        chosen = next((o for o in legal if o.standard == "attack" and o.move and o.target == near), None)
        chosen = chosen or next((o for o in legal if o.move and not o.standard), None)
    if chosen is None or chosen not in legal:
        return next((o for o in legal if o != NOTHING), NOTHING)
    return chosen


def should_refocus(enc: Any, actor: str, foes: list[str]) -> bool:
    """WOA-INIT-26/27: it acted after every foe still fighting last round, its side is losing (a smaller share of
    its hit points left than the foes'), and no foe is within its reach now — an attack this round is unlikely to
    come before the foes', while a refocused roll (a 20) makes it act first next round."""
    order = list(enc.state.order)
    if actor not in order or any(f not in order for f in foes):
        return False
    late = all(order.index(actor) > order.index(f) for f in foes)
    if not late or _reaches_from(enc, actor, enc.footprint(actor), foes):
        return False
    mine = [c for c in enc.state.combatants if enc.creature(c).side == enc.creature(actor).side]
    return _hp_share(enc, mine) < _hp_share(enc, foes)


def _foes(enc: Any, actor: str) -> list[str]:
    s = enc.state
    return [f for f in enc.enemies(actor)
            if not enc.ruleset.injury.out_of_fight(enc.creature(f), s.get(f)) and "fled" not in s.get(f).conditions]


def _reaches_from(enc: Any, actor: str, where: Footprint, foes: list[str]) -> bool:
    """Whether any foe is within reach of ``actor`` standing at ``where`` (a ranged weapon in hand: any foe)."""
    creature, cs = enc.creature(actor), enc.state.get(actor)
    wielded = creature.attack(cs.wielding) if cs.wielding else None
    if wielded is not None and wielded.is_ranged:
        return True
    return any(within_reach(where, creature.reach_ft, enc.footprint(f)) for f in foes)


def _nearest(enc: Any, actor: str, foes: list[str]) -> str:
    here = enc.footprint(actor)
    return min(foes, key=lambda f: (footprint_distance_ft(here, enc.footprint(f)), f))


def _hp_share(enc: Any, cids: list[str]) -> float:
    s = enc.state
    total = sum(enc.creature(c).sheet.hp for c in cids)
    left = sum(max(0, s.get(c).hp) for c in cids if not enc.ruleset.injury.out_of_fight(enc.creature(c), s.get(c)))
    return left / total if total else 0.0
