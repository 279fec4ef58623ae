"""Total defense (WOA-DEF-01..05): a declared standard action for +4 dodge to AC for the round, no attacks.

- WOA-DEF-01: a standard action (declared as such), so no attack or full attack that round; the move action stays.
- WOA-DEF-02: +4 dodge to AC (a dodge bonus stacks with the other dodge bonuses) for the rest of the round.
- WOA-DEF-03: while in total defense the creature carries the condition :data:`TOTAL_DEFENSE`; the combat
  reactions read it and allow only dodging and blocking (no attacks of opportunity, aid, swift or immediate
  actions) unless it has Combat Expertise (:func:`.reactions.reaction_kind_barred`, read by the attacks of
  opportunity, aid and the swift/immediate actions).
- WOA-DEF-04: the first round, the +4 counts from the creature's turn to the end of the round only.
- WOA-DEF-05: declared again the next round, the +4 counts for that whole round, from the declarations on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from d20combat.encounter import events as ev
from d20combat.encounter.actions import Action
from d20combat.rulesets.components import ActionSet, ActionSpec, RuleError, View
from d20combat.rulesets.worlds_of_adventure.cycle import TOTAL_DEFENSE
from d20combat.rulesets.worlds_of_adventure.reactions import TOTAL_DEFENSE_EFFECT

DEFENDED_LAST_ROUND = "total_defense_streak"
"""Took total defense in the round just ended: declared again, the +4 holds the whole round (WOA-DEF-05)."""
DODGE_BONUS = 4


@dataclass(frozen=True, slots=True)
class TotalDefense(Action):
    """WOA-DEF-01: defend yourself as a standard action."""

    kind: ClassVar[str] = "total_defense"

    def label(self, name: Callable[[str], str] = str) -> str:
        return "Total defense"


class WoaTotalDefense(ActionSet):
    """WOA-DEF-01..05."""

    def __init__(self) -> None:
        super().__init__(own=[ActionSpec(TotalDefense, self.take)])

    def take(self, enc: Any, tx: View, actor: str, a: TotalDefense, dry: bool) -> None:
        c = tx.state.get(actor)
        if any(e.name == TOTAL_DEFENSE_EFFECT for e in c.effects):
            if not c.has(DEFENDED_LAST_ROUND) or tx.state.turn is None or not tx.state.turn.standard:
                raise RuleError(f"total defense: {actor} is already in total defense this round")
            # WOA-DEF-05: the streak's bonus holds since the declarations; the standard action is spent on it.
            enc.pay(tx, actor, "total defense (held since the round began, WOA-DEF-05)", "standard", dry)
            return
        enc.pay(tx, actor, "total defense", "standard", dry)  # WOA-DEF-01
        if dry:
            return
        self._defend(tx, actor, tx.state.round, "from its turn to the end of the round (WOA-DEF-02/04)")

    @staticmethod
    def _defend(view: View, actor: str, round_no: int, when: str) -> None:
        view.emit(ev.EffectAdded(actor, TOTAL_DEFENSE_EFFECT, actor, round_no + 1, ac=DODGE_BONUS))
        view.emit(ev.ConditionSet(actor, TOTAL_DEFENSE, True,
                                  f"total defense: +{DODGE_BONUS} dodge to AC {when}; no attacks, and its combat "
                                  "reactions only dodge or block (WOA-DEF-01..03)"))

    def forbidden(self, view: View, actor: str, action: Any) -> str | None:
        """WOA-DEF-01: in total defense, no attack this round."""
        if action.kind in ("attack", "full_attack", "charge", "two_weapon_attack") \
                and view.state.get(actor).has(TOTAL_DEFENSE):
            return f"{actor} is in total defense this round: no attacks (WOA-DEF-01)"
        return None

    def after_declarations(self, view: View, round_no: int) -> None:
        """WOA-DEF-05: a creature that took total defense last round and declared it again has the +4 from the
        round's start, before anyone's turn."""
        for cid, declared in view.state.declarations.items():
            c = view.state.get(cid)
            if declared.get("standard") == "total_defense" and c.has(DEFENDED_LAST_ROUND):
                self._defend(view, cid, round_no, "for the whole round: total defense on consecutive rounds "
                                                  "(WOA-DEF-05)")

    def end_of_round(self, view: View, round_no: int) -> None:
        """WOA-DEF-02: the bonus lasts to the end of the round; the streak is remembered for one round."""
        for cid, c in view.state.combatants.items():
            defended = any(e.name == TOTAL_DEFENSE_EFFECT for e in c.effects)
            if defended:
                view.emit(ev.EffectEnded(cid, TOTAL_DEFENSE_EFFECT))
                view.emit(ev.ConditionSet(cid, TOTAL_DEFENSE, False, "the round of total defense ends (WOA-DEF-02)"))
            if defended != c.has(DEFENDED_LAST_ROUND):
                view.emit(ev.ConditionSet(cid, DEFENDED_LAST_ROUND, defended,
                                          "took total defense this round (WOA-DEF-05)" if defended else
                                          "no total defense this round: the streak ends (WOA-DEF-05)"))
