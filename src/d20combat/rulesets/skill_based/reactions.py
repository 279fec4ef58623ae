"""P19 reactions of the skill-based rules: threatened squares and attacks of opportunity."""

from __future__ import annotations

from typing import Any

from d20combat.battlefield.grid import Footprint
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import AttackOption, Creature
from d20combat.model.statblock import WeaponKind
from d20combat.numbers import Modifier
from d20combat.rulesets.components import View
from d20combat.rulesets.components.reactions import ThreatenedSquareAoO
from d20combat.rulesets.skill_based.options import DISTRACTING_ACTIVITIES
from d20combat.rulesets.skill_based.two_weapon import TwoWeapons

DISTRACTING_ACTS: dict[str, str] = {
    "cast_spell": "casts a spell (SKL-AOO-15)",
    "stand_up": "stands up from prone (SKL-AOO-16)",
    "reload": "loads a crossbow (SKL-AOO-17)",
}
"""SKL-AOO-15..17: the distracting acts that are actions of their own kind (the rest: firing a ranged weapon,
SKL-AOO-14, and the named activities of SKL-AOO-18..21)."""


class SkillAttacksOfOpportunity(ThreatenedSquareAoO):
    """SKL-AOO-01..27, the shared attacks of opportunity from threatened squares: a creature threatens every
    square it could make a melee attack into, even off its turn, but nothing while it cannot act (SKL-AOO-02/03);
    it threatens with the melee weapon in hand, an off-hand one, or an unarmed strike (``skl_unarmed_threatens``),
    and a Small or Medium creature's reach weapon threatens the ring 10 ft away, diagonals included
    (SKL-AOO-05..09, the attack area's reach). Leaving a threatened square (SKL-AOO-10/11) or one of the eight
    distracting acts in one (SKL-AOO-13..21; a feat ``no_provoke:<act>`` is an exception, SKL-AOO-22) provokes;
    one a round, free, by anyone (SKL-AOO-01/24), a single melee attack at the normal bonus (SKL-AOO-23/27),
    which may be a declared critical attack (SKL-CRIT-02)."""

    def __init__(self, hands: TwoWeapons, *, unarmed_threatens: bool = True) -> None:
        super().__init__(per_round=1, provoking_moves=("move", "charge"), provoking_acts=DISTRACTING_ACTS,
                         only_while_able=True)
        self.hands = hands
        self.unarmed_threatens = unarmed_threatens
        """SKL-AOO-02 (``skl_unarmed_threatens``): an empty hand threatens with an unarmed strike."""

    def threat_option(self, creature: Creature, state: CombatantState) -> AttackOption | None:
        """The weapon a creature threatens with: the melee weapon in hand, an off-hand melee weapon, or (unless
        ``skl_unarmed_threatens`` is off) an unarmed strike (SKL-AOO-02)."""
        main = self.hands.wielded(creature, state)
        if main is not None and not main.is_ranged:
            return main
        for o in creature.attacks:
            if o.off_hand and not o.is_ranged and not self.hands.broken(state, o.name):
                return o
        return self.hands.unarmed(creature) if self.unarmed_threatens else None

    def threat_reach(self, creature: Creature, state: CombatantState) -> int:
        """SKL-AOO-07/08: a Small or Medium creature's reach weapon threatens 10 ft away; else its reach."""
        option = self.threat_option(creature, state)
        if option is None:
            return 0
        return 10 if option.weapon.reach and creature.space == 1 else creature.reach_ft

    def engaged(self, view: View, cid: str) -> bool:
        """SKL-RNG-01 (reading) / SKL-FEINT-01: "engaged in melee" — an enemy threatens the creature's square."""
        me = view.creature(cid)
        fp = Footprint(view.state.get(cid).position, me.space)
        for other, os in view.state.combatants.items():
            oc = view.creature(other)
            if oc.side == me.side or os.has("fled") or not self.rules.injury.can_act(oc, os):
                continue
            if self.threatened(oc, os, Footprint(os.position, oc.space), fp):
                return True
        return False

    def aoo_choices(self, creature: Creature, option: AttackOption) -> tuple[str, ...]:
        """SKL-AOO-27 (reading): the normal attack, or one with a declared critical attack (SKL-CRIT-02)."""
        return ("attack", *(f"critical -{p}" for p in range(1, 6)))

    def aoo_declaration(self, choice: str, option: AttackOption) -> tuple[Modifier | None, int]:
        if not choice.startswith("critical -"):
            return None, 0
        return self.rules.criticals.critical_attack(-int(choice.removeprefix("critical -")), option)

    def provoking_act(self, view: View, actor: str, action: Any, option: AttackOption | None) -> str | None:
        """SKL-AOO-13..21: the distracting acts — firing a ranged weapon (SKL-AOO-14, the off hand's too), the acts
        of :data:`DISTRACTING_ACTS`, the named activities (SKL-AOO-18..21); SKL-AOO-22: a feat
        ``no_provoke:<act>`` is an exception."""
        key, reason = "", ""
        if action.kind in ("attack", "bonus_attack"):
            if option is None and action.kind == "bonus_attack":
                off = self.hands.off_hand(view.creature(actor), view.state.get(actor))
                option = off.option if off is not None else None
            if option is not None and option.is_ranged and option.kind is not WeaponKind.SPELL:
                key, reason = "fire_ranged", "fires a ranged weapon (SKL-AOO-14)"
        elif action.kind == "activity":
            if action.name in DISTRACTING_ACTIVITIES:
                key, reason = action.name, DISTRACTING_ACTIVITIES[action.name]
        elif (act := self.action_provokes(action.kind, option)) is not None:
            key, reason = action.kind, act
        if not key or view.creature(actor).has_feat(f"no_provoke:{key}"):
            return None
        return f"{reason.replace(' (', ' in a threatened square (', 1)}"
