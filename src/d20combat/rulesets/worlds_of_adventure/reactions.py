"""Combat reactions (WOA-REACT-01..07): the per-round budget, what bars reactions, and spending one.

A creature's combat reactions are an off-turn pool (``reactions`` in its state's reaction pools), set at the start
of every round (``ReactionsSet``) and spent one at a time (``ReactionSpent``, whose explanation names the budget
left). Attacks of opportunity (:mod:`.opportunity`), aid attack, aid defense, block and dodge (:mod:`.active_defense`)
spend it; so do swift and immediate actions (WOA-REACT-06: the action economy calls :func:`spend_reaction`).

**Bars.** Other areas mark a creature with one of the conditions below (an ``ConditionSet`` event, lifted when the
state ends); while it carries one it makes no combat reaction (the collected bars of WOA-1.md's REACT section):

========================  ======================================================  =====================
condition                 set by                                                  rule
========================  ======================================================  =====================
``flat_footed``           the combat cycle (surprised, until it acts)             WOA-REACT-03
``casting``               a round of casting a standard or full-round spell      WOA-SPELL-09
``readying``              a readied action waiting for its trigger               WOA-INIT-17
``running``               the run action (this round)                            WOA-MOVE-19
``grappling``             a grapple                                               WOA-GRP-54
``drinking``              drinking or administering a potion                     WOA-ITEM-25
``reading``               activating a scroll                                    WOA-ITEM-29
``stunned``               stunned                                                 WOA-CYCLE-30
``concentrating``         maintaining a spell this round                         WOA-SPELL-27
``manipulating``          handling an item this round (``woa_item_costs_reactions``)  WOA-ITEM-17
========================  ======================================================  =====================

``total_defense`` bars every reaction but dodge and block, unless Combat Expertise (WOA-DEF-03,
:func:`reaction_kind_barred`).

Combat Reflexes (a feat on the stat block) gives one more reaction and lets a flat-footed creature react
(WOA-REACT-04). ``shot_this_round`` (set by the attack component after a ranged attack on the creature's own turn)
bars dodging only
(WOA-ATK-07)."""

from __future__ import annotations

from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier
from d20combat.rulesets.components.component import RuleError, View

POOL = "reactions"
"""The off-turn pool of combat reactions (WOA-REACT-02)."""

FLAT_FOOTED = "flat_footed"
CASTING = "casting"
"""Casting a standard or full-round spell this round: no combat reactions (WOA-SPELL-09)."""
READYING = "readying"
"""Holding a readied action: no combat reactions (WOA-INIT-17)."""
RUNNING = "running"
"""Running this round: no combat reactions (WOA-MOVE-19)."""
GRAPPLING = "grappling"
"""In a grapple: no combat reactions (WOA-GRP-54)."""
DRINKING = "drinking"
"""Drinking or administering a potion: no combat reactions (WOA-ITEM-25)."""
READING = "reading"
"""Activating a scroll: no combat reactions (WOA-ITEM-29)."""
STUNNED = "stunned"
RANGED_ROUND = "shot_this_round"
"""Made a ranged attack this round with its own standard or full-round action: no dodging (WOA-ATK-07)."""
CONCENTRATING = "concentrating"
"""Concentrating to maintain a spell this round: no combat reactions (WOA-SPELL-27)."""
MANIPULATING = "manipulating"
"""Retrieving or manipulating an item this round: no combat reactions (WOA-ITEM-17, option
``woa_item_costs_reactions``: the flag is set only when the DM rules so, the default)."""
TOTAL_DEFENSE = "total_defense"
"""In total defense: only the dodge and block reactions (WOA-DEF-03)."""
TOTAL_DEFENSE_REACTIONS = ("dodge", "block")
TOTAL_DEFENSE_EFFECT = "total defense"
"""The +4 dodge effect's name (WOA-DEF-02): the AC reads it as a dodge bonus."""
COMBAT_EXPERTISE = "combat_expertise"

BARS: tuple[tuple[str, str], ...] = (
    (CASTING, "casting a standard or full-round spell this round (WOA-SPELL-09)"),
    (READYING, "readying an action (WOA-INIT-17)"),
    (RUNNING, "running (WOA-MOVE-19)"),
    (GRAPPLING, "grappling (WOA-GRP-54)"),
    (DRINKING, "drinking a potion (WOA-ITEM-25)"),
    (READING, "reading a scroll (WOA-ITEM-29)"),
    (STUNNED, "stunned (WOA-CYCLE-30)"),
    (CONCENTRATING, "concentrating to maintain a spell this round (WOA-SPELL-27)"),
    (MANIPULATING, "manipulating an item this round (WOA-ITEM-17)"),
)
"""The conditions that bar every combat reaction, with the reason shown (the REACT section's collected bars)."""

COMBAT_REFLEXES = "combat_reflexes"


READYING_DISTRACTION = -5
"""WOA-INIT-18: a readying creature is distracted: −5 on Perception for noticing anything but its trigger."""


def readying_distraction(state: CombatantState, skill: str) -> Modifier | None:
    """WOA-INIT-18: the −5 on a Perception check while readying (the check is for anything but the trigger: the
    engine's only trigger is a creature starting its turn, which needs no check), or None."""
    if skill.strip().lower() != "perception" or not state.has(READYING):
        return None
    return Modifier(READYING_DISTRACTION, "distracted: readying an action (WOA-INIT-18)")


def reaction_budget(creature: Creature, *, at_bab_0: int = 1) -> tuple[int, str]:
    """WOA-REACT-02/04: 1, +1 each at BAB +6, +11 and +16, +1 with Combat Reflexes — and why. ``at_bab_0`` 0: a
    creature with BAB +0 has no base reaction (option ``woa_reactions_at_bab_0``, AMBIGUOUS)."""
    bab = creature.attack_bonus
    steps = sum(1 for at in (6, 11, 16) if bab >= at)
    base = at_bab_0 if bab <= 0 else 1
    parts = [str(base) if base else "0 at BAB +0 (WOA-REACT-02 option)"] + (
        [f"{steps} for BAB {bab:+d}"] if steps else [])
    n = base + steps
    if creature.has_feat(COMBAT_REFLEXES):
        n += 1
        parts.append("1 Combat Reflexes")
    return n, f"{n} = " + " + ".join(parts) if len(parts) > 1 else f"{n} (BAB {bab:+d})"


def reactions_barred(creature: Creature, state: CombatantState) -> str | None:
    """Why this creature can make no combat reaction now, or None (WOA-REACT-03/04 and the collected bars)."""
    if state.has(FLAT_FOOTED) and not creature.has_feat(COMBAT_REFLEXES):
        return "flat-footed (WOA-REACT-03)"
    for condition, why in BARS:
        if state.has(condition):
            return why
    return None


def reaction_kind_barred(creature: Creature, state: CombatantState, reaction: str) -> str | None:
    """Why this creature may make no combat reaction of this kind (``dodge``, ``block``, ``attack_of_opportunity``,
    ``aid_attack``, ``aid_defense``, ``swift or immediate action``) now, or None: every bar above, and total
    defense, which leaves only dodging and blocking unless the creature has Combat Expertise (WOA-DEF-03)."""
    barred = reactions_barred(creature, state)
    if barred is not None:
        return barred
    if state.has(TOTAL_DEFENSE) and reaction not in TOTAL_DEFENSE_REACTIONS \
            and not creature.has_feat(COMBAT_EXPERTISE):
        return "in total defense: only dodging or blocking (WOA-DEF-03)"
    return None


def reactions_left(state: CombatantState) -> int:
    return state.reactions.get(POOL, 0)


def can_react(creature: Creature, state: CombatantState) -> str | None:
    """Why no combat reaction can be made now (barred, or none left this round), or None."""
    barred = reactions_barred(creature, state)
    if barred is not None:
        return barred
    if reactions_left(state) <= 0:
        return "no combat reaction left this round (WOA-REACT-02)"
    return None


def left_text(n: int) -> str:
    return f"{n} reaction{'s' if n != 1 else ''} left"


def spend_reaction(view: View, cid: str, what: str) -> None:
    """Spend one combat reaction on ``what`` (an attack of opportunity, a block, a swift action…): the event's
    explanation ends with the budget left. Refused (nothing changes) when barred or spent (WOA-REACT-01..06)."""
    creature, state = view.creature(cid), view.state.get(cid)
    why_not = can_react(creature, state)
    if why_not is not None:
        raise RuleError(f"{cid} cannot make a combat reaction ({what}): {why_not}")
    view.emit(ev.ReactionSpent(cid, POOL, f"{what}; {left_text(reactions_left(state) - 1)}"))
