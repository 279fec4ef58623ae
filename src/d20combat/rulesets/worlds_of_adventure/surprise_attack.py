"""The surprise attacks before round 1 (WOA-CYCLE-07, with WOA-CYCLE-11/12).

"When you're attacked by surprise (such as if a sniper fires a crossbow at you from hiding, or if an assassin sneaks up
on you and stabs you in the back), the first combat round begins after the surprise attack is resolved" (L204). So
when the battle starts with someone surprised (:mod:`.awareness`), the engine's first round is not a round of the
combat but the surprise attacks (the engine's "surprise round" flag; the combat's round 1 is the engine's round 2,
an :class:`~d20combat.encounter.events.EncounterClockSet`):

- every aware creature with a surprised foe gets one turn — in the order ``data/woa_awareness.yaml`` reads
  (highest initiative modifier first, no roll) — in which it may make **one attack, from where it stands, at a
  surprised creature**, or pass; nobody declares, nobody moves (the sneaking up came before the fight);
- the attack is one the defender is not expecting: no Dex, shield or dodge bonus to its AC (WOA-CYCLE-11, improved
  uncanny dodge keeps them, WOA-CYCLE-13) and no dodge or block (WOA-CYCLE-12) — :meth:`.attack.WoaAttack
  .flat_footed_against` says so while the flag is up;
- then round 1 begins: everyone declares, the surprised roll initiative at −20 and stay flat-footed until their turn
  (WOA-CYCLE-03/08), and no attack is a surprise attack any more ("you're no longer considered to be surprised").
"""

from __future__ import annotations

from collections.abc import Callable

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.model.creature import Creature
from d20combat.rulesets.components.component import View
from d20combat.rulesets.worlds_of_adventure.awareness import AwarenessReading, surprise_attackers

PHASE_NAME = "surprise attacks"
"""What the log and the page call the engine's surprise round under Worlds of Adventure (WOA-CYCLE-07)."""


def open_surprise_attacks(view: View, reading: AwarenessReading, modifier: Callable[[Creature], int],
                          can_act: Callable[[str], bool]) -> None:
    """WOA-CYCLE-07: the combat's round 1 is the next engine round; the aware attack first, in ``reading``'s order."""
    s = view.state
    creatures = {cid: view.creature(cid) for cid in s.combatants}
    attackers = [cid for cid in surprise_attackers(creatures, s.surprised) if can_act(cid)]
    how = "in the scenario's order"
    if reading.surprise_order == "initiative_modifier":
        attackers.sort(key=lambda cid: -modifier(creatures[cid]))  # stable: the scenario's order on a tie
        how = "the highest initiative modifier first, no roll"
    view.emit(ev.EncounterClockSet(s.round + 1, "round 1 of the combat begins after the surprise attacks "
                                                "(WOA-CYCLE-07)"))
    rest = [cid for cid in s.combatants if cid not in attackers]  # their turns pass: nothing to do before round 1
    view.emit(ev.OrderSet([*attackers, *rest], [f"the surprise attacks before round 1: the aware, {how} (WOA-CYCLE-07; "
                                                "the reading in data/woa_awareness.yaml)"]))


def surprise_attack_bar(view: View, actor: str, action: ax.Action) -> str | None:
    """Why ``action`` is not ``actor``'s surprise attack (one attack at a surprised creature, or passing), or None."""
    if action.kind == "end_turn":
        return None
    if action.kind != "attack":
        return f"before round 1 {actor} may only make its surprise attack — one attack from where it stands — or " \
               "pass (WOA-CYCLE-07)"
    target = getattr(action, "target", None)
    if target not in view.state.surprised:
        caught = ", ".join(sorted(view.state.surprised))
        return f"the surprise attack is made at a creature caught by surprise ({caught}); {target} is aware " \
               "(WOA-CYCLE-07)"
    return None


def is_surprise_attack(view: View, target: str) -> bool:
    """WOA-CYCLE-07/11/12: an attack at ``target`` now is a surprise attack — made before round 1 at a creature
    caught by surprise."""
    return view.state.surprise_round and target in view.state.surprised
