"""Aid attack and aid defense (WOA-REACT-08..16): a combat reaction that gives −2 to an opponent's AC against an
ally's melee attack, or +2 to an ally's AC against an opponent's melee attack; several stack."""

from __future__ import annotations

from typing import Any

from d20combat.battlefield.grid import Footprint
from d20combat.rulesets.components.component import AttackInfo, View
from d20combat.rulesets.worlds_of_adventure.reactions import can_react, reaction_kind_barred

AID = 2
"""WOA-REACT-10/15: the −2 / +2 to AC of one aid."""


def _on_map(view: View, cid: str) -> bool:
    c = view.state.get(cid)
    return "fled" not in c.conditions and "removed" not in c.conditions


def could_strike(view: View, rules: Any, helper: str, opponent: str) -> bool:
    """WOA-REACT-08/13: ``helper`` is in a position to make a melee attack against ``opponent`` (it threatens it),
    is able to act, and may make a combat reaction now."""
    hc, hs = view.creature(helper), view.state.get(helper)
    if can_react(hc, hs) is not None or not rules.injury.can_act(hc, hs) \
            or reaction_kind_barred(hc, hs, "aid") is not None:  # WOA-DEF-03: no aid in total defense
        return False
    oc, os_ = view.creature(opponent), view.state.get(opponent)
    return bool(rules.reactions.threatened(hc, hs, Footprint(hs.position, hc.space), Footprint(os_.position,
                                                                                              oc.space)))


def own_turn(view: View, attack: AttackInfo) -> bool:
    """WOA-REACT-12/14: the attack is made on the attacker's own turn (not as a combat reaction)."""
    turn = view.state.turn
    return turn is not None and turn.actor == attack.attacker


def helpers(view: View, rules: Any, ally_of: str, opponent: str) -> list[str]:
    """The creatures of ``ally_of``'s side (but the two in the attack) that could aid against ``opponent``."""
    side = view.creature(ally_of).side
    return [cid for cid in view.state.combatants
            if cid not in (ally_of, opponent) and _on_map(view, cid) and view.creature(cid).side == side
            and could_strike(view, rules, cid, opponent)]


def aid_attack_helpers(view: View, rules: Any, attack: AttackInfo) -> list[str]:
    """WOA-REACT-08/09/12: the attacker's allies that may aid this attack: a melee attack on its own turn, an
    ally threatening the target."""
    if attack.ranged or not own_turn(view, attack):
        return []
    return helpers(view, rules, attack.attacker, attack.target)


def aid_defense_helpers(view: View, rules: Any, attack: AttackInfo, *, against_reactions: bool) -> list[str]:
    """WOA-REACT-13/14: the target's allies that may aid its defense: a melee attack made on the opponent's turn
    (``against_reactions``: also one made as a combat reaction — the AMBIGUOUS other reading), an ally
    threatening the attacker."""
    if attack.ranged or not (against_reactions or own_turn(view, attack)):
        return []
    return helpers(view, rules, attack.target, attack.attacker)
