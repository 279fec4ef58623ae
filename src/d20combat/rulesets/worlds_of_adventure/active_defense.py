"""Combat reactions before the attack roll (WOA-REACT-05, -08..36, WOA-AOO-26/30): the window the engine opens
before every attack roll (``before_attack_roll``) asks, in turn, the defender (dodge, block or none), each of the
defender's allies that may aid its defense, then each of the attacker's allies that may aid the attack. Each answer
spends a combat reaction (:func:`~.reactions.spend_reaction`); what was chosen is kept in ``view.scratch`` for this
one attack, where the armor class (:func:`situational_ac`: dodge, aid ±2, stacking) and the damage
(:func:`block_reduction`: the block's DR) read it. The after-roll window stays unused.

The AI answers from the order of the options: the ruleset puts first what a sensible creature does — block the big
hit, dodge when outnumbered, aid an ally who is focused, and otherwise keep its last reaction for an attack of
opportunity (:meth:`WoaActiveDefense.reaction_preference`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from d20combat.battlefield.grid import Footprint
from d20combat.encounter import events as ev
from d20combat.encounter.prompts import ReactionPrompt
from d20combat.encounter.state import CombatantState, EncounterState
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier
from d20combat.rulesets.components.active_defense import NoActiveDefense
from d20combat.rulesets.components.component import AttackInfo, View
from d20combat.rulesets.worlds_of_adventure.aid import AID, aid_attack_helpers, aid_defense_helpers
from d20combat.rulesets.worlds_of_adventure.block import block_problem, block_value
from d20combat.rulesets.worlds_of_adventure.dodge import DODGES, dodge_cap, dodge_problem, dodge_value
from d20combat.rulesets.worlds_of_adventure.feint import OPENING as FEINT_OPENING
from d20combat.rulesets.worlds_of_adventure.reactions import can_react, left_text, reactions_left, spend_reaction

KEY = "woa_reactions"
"""The ``view.scratch`` key of the reactions chosen against the attack being resolved."""

DEFEND = "combat_reaction"
"""The defender's prompt: dodge, block or none (WOA-REACT-29/31, -18/21, -36: one of them)."""
AID_DEFENSE = "aid_defense"
AID_ATTACK = "aid_attack"
KINDS = (DEFEND, AID_DEFENSE, AID_ATTACK)


@dataclass
class Chosen:
    """What was chosen against one attack: AC modifiers (dodge, aids) and a block's DR."""

    attack: AttackInfo
    ac: list[Modifier] = field(default_factory=list)
    block: tuple[int, str] | None = None


def chosen_for(view: View | None, attack: AttackInfo | None) -> Chosen | None:
    if view is None or attack is None:
        return None
    chosen = getattr(view, "scratch", {}).get(KEY)
    return chosen if isinstance(chosen, Chosen) and chosen.attack is attack else None


def situational_ac(view: View | None, attack: AttackInfo | None) -> list[Modifier]:
    """The AC changes the combat reactions made against this attack bring (dodge, aid defense, aid attack)."""
    chosen = chosen_for(view, attack)
    return list(chosen.ac) if chosen is not None else []


def block_reduction(view: View | None, attack: AttackInfo | None) -> tuple[int, str] | None:
    """The DR of a block made against this attack, with why (WOA-REACT-22/23), or None."""
    chosen = chosen_for(view, attack)
    return chosen.block if chosen is not None else None


def unexpected(view: View, rules: Any, attack: AttackInfo) -> str | None:
    """WOA-CYCLE-12: why the defender does not expect this attack — and so can neither dodge nor block it — or None:
    the way it is made catches the defender unaware (the attack component's ``flat_footed_against``: the first
    attack with a just-drawn hidden weapon, WOA-ITEM-09) or the defender cannot see the attacker (the concealment
    component's ``flat_footed_against``)."""
    if rules.attack.flat_footed_against(view, attack):
        return "a surprise attack it does not expect (WOA-CYCLE-12)"
    if rules.concealment.flat_footed_against(view, attack.attacker, attack.target):
        return "an attack it cannot see coming (WOA-CYCLE-12)"
    return None


def _average_damage(creature: Creature, attack: AttackInfo) -> float:
    """The attack's average damage (its dice, bonus and Strength), for the AI's "big hit"."""
    return attack.option.dice.mean + attack.option.bonus + creature.str_mod


class WoaActiveDefense(NoActiveDefense):
    """WOA-REACT-05/08..36: dodge, block, aid defense and aid attack, each a combat reaction announced before the
    attack roll with no roll of its own, against any attack the reactor may answer (WOA-AOO-26/30: attacks of
    opportunity too)."""

    def __init__(self, *, aid_defense_against_reactions: bool = False, dodge_feat_value: int = 1,
                 block_round_up: bool = False, feint_bars_block: bool = False) -> None:
        self.block_round_up = block_round_up
        """WOA-REACT-22 (AMBIGUOUS, option ``woa_block_rounding``): the block value rounds up."""
        self.feint_bars_block = feint_bars_block
        """WOA-FEINT-06 (AMBIGUOUS, option ``woa_feint_bars_block``): a feinted foe cannot block the feinter's next
        melee attack either."""
        self.aid_defense_against_reactions = aid_defense_against_reactions
        """WOA-REACT-14 (AMBIGUOUS): aid defense also against an attack made as a combat reaction."""
        self.dodge_feat_value = dodge_feat_value
        """WOA-REACT-37 (MISSING): the dodge bonus the Dodge feat gives a creature with no warrior or rogue level."""

    def round_pools(self, creature: Creature, state: CombatantState) -> dict[str, int]:
        """WOA-REACT-33: the dodges armor allows this round."""
        cap = dodge_cap(creature)
        return {DODGES: cap} if cap is not None else {}

    # --- what the defender may do ----------------------------------------------------------------------------
    def defenses(self, view: View, attack: AttackInfo) -> dict[str, tuple[int, str]]:
        """The defender's choices against this attack: "dodge" → (AC, why), "block" → (DR, why)."""
        target = attack.target
        creature, state = view.creature(target), view.state.get(target)
        if can_react(creature, state) is not None or not self.rules.injury.can_act(creature, state):
            return {}
        if unexpected(view, self.rules, attack) is not None:  # WOA-CYCLE-12: no dodge or block
            return {}
        out: dict[str, tuple[int, str]] = {}
        feinted = not attack.ranged and any(e.name == FEINT_OPENING + attack.attacker for e in state.effects)
        if dodge_problem(view, attack, target, self.dodge_feat_value) is None \
                and not feinted:  # WOA-FEINT-06: the feinted melee attack cannot be dodged
            out["dodge"] = dodge_value(creature, self.dodge_feat_value)
        if block_problem(view, attack, target, round_up=self.block_round_up) is None \
                and not (self.feint_bars_block and feinted):
            value = block_value(view, target, attack.ranged, round_up=self.block_round_up)
            assert value is not None
            out["block"] = value
        return out

    def before_attack_roll(self, view: View, attack: AttackInfo) -> str | None:
        chosen = Chosen(attack)
        view.scratch[KEY] = chosen
        trigger = f"{attack.attacker} attacks {attack.target} with {attack.option.name}"
        options = self.defenses(view, attack)
        if options:
            left = reactions_left(view.state.get(attack.target))
            order = self._defender_order(view, attack, options)
            detail = "; ".join([left_text(left)] + [
                f"dodge: +{v} AC ({why})" if k == "dodge" else f"block: DR {v} ({why})"
                for k, (v, why) in options.items()])
            answer = view.ask(ReactionPrompt(attack.target, DEFEND, trigger, order, detail=detail))
            if answer == "dodge":
                value, why = options["dodge"]
                text = f"dodges {attack.attacker}'s attack: +{value} dodge AC ({why}, WOA-REACT-32)"
                spend_reaction(view, attack.target, text)
                dodges = view.state.get(attack.target).reactions.get(DODGES)
                if dodges is not None:
                    armor = view.creature(attack.target).armor_category
                    view.emit(ev.ReactionSpent(attack.target, DODGES, f"{dodges - 1} more dodge"
                                               f"{'s' if dodges != 2 else ''} this round in {armor} armor "
                                               f"(WOA-REACT-33)"))
                chosen.ac.append(Modifier(value, "dodge reaction", "dodge"))
            elif answer == "block":
                value, why = options["block"]
                spend_reaction(view, attack.target, f"blocks {attack.attacker}'s attack: DR {value} = {why} "
                                                    f"(WOA-REACT-22/23)")
                chosen.block = (value, why)
                if "with a shield" in why:
                    view.emit(ev.Note(f"{attack.target}'s shield takes {attack.attacker}'s {attack.option.name}: it "
                                      "suffers the attack's detrimental effects, acid, fire… (WOA-REACT-25)"))
        for helper in aid_defense_helpers(view, self.rules, attack,
                                          against_reactions=self.aid_defense_against_reactions):
            focused = self._focused(view, attack.target, attack.attacker)
            keep = reactions_left(view.state.get(helper)) <= 1 and not focused
            answer = view.ask(ReactionPrompt(
                helper, AID_DEFENSE, trigger, ("none", "aid") if keep else ("aid", "none"),
                detail=f"+{AID} to {attack.target}'s AC against this attack; "
                       f"{left_text(reactions_left(view.state.get(helper)))}"))
            if answer == "aid":
                spend_reaction(view, helper, f"aids {attack.target}'s defense against {attack.attacker}: "
                                             f"+{AID} AC (WOA-REACT-15)")
                chosen.ac.append(Modifier(AID, f"aid defense ({helper})"))
        for helper in aid_attack_helpers(view, self.rules, attack):
            focused = self._focused(view, attack.target, attack.target, ours=helper)
            keep = reactions_left(view.state.get(helper)) <= 1 and not focused
            answer = view.ask(ReactionPrompt(
                helper, AID_ATTACK, trigger, ("none", "aid") if keep else ("aid", "none"),
                detail=f"−{AID} to {attack.target}'s AC against this attack; "
                       f"{left_text(reactions_left(view.state.get(helper)))}"))
            if answer == "aid":
                spend_reaction(view, helper, f"aids {attack.attacker}'s attack on {attack.target}: "
                                             f"−{AID} AC (WOA-REACT-10)")
                chosen.ac.append(Modifier(-AID, f"aid attack ({helper})"))
        return None

    # --- the AI's choices (the order of the options) -----------------------------------------------------------
    def _threatening(self, view: View, cid: str, side_of: str) -> int:
        """How many creatures of ``side_of``'s side (``side_of`` itself included) threaten ``cid``."""
        side = view.creature(side_of).side
        c_fp = Footprint(view.state.get(cid).position, view.creature(cid).space)
        n = 0
        for other, st in view.state.combatants.items():
            oc = view.creature(other)
            if other == cid or oc.side != side or "fled" in st.conditions or "removed" in st.conditions:
                continue
            if self.rules.injury.can_act(oc, st) and self.rules.reactions.threatened(
                    oc, st, Footprint(st.position, oc.space), c_fp):
                n += 1
        return n

    def _focused(self, view: View, cid: str, by: str, *, ours: str | None = None) -> bool:
        """``cid`` is the focus of the fight: two or more of ``by``'s side threaten it, or it is down to half its
        hit points (``ours``: the side counting is the helper's)."""
        state = view.state.get(cid)
        if state.hp * 2 <= view.creature(cid).sheet.hp:
            return True
        return self._threatening(view, cid, ours or by) >= 2

    def _defender_order(self, view: View, attack: AttackInfo, options: dict[str, tuple[int, str]]
                        ) -> tuple[str, ...]:
        """Block the big hit (its average is a quarter of the hit points left or more), dodge when outnumbered;
        else spend a spare reaction on the larger of the two, and keep the last one."""
        target = attack.target
        state = view.state.get(target)
        big = _average_damage(view.creature(attack.attacker), attack) * 4 >= max(state.hp, 1)
        outnumbered = self._threatening(view, target, attack.attacker) >= 2
        spare = reactions_left(state) >= 2
        if "block" in options and big:
            first = ["block"]
        elif "dodge" in options and (outnumbered or big):
            first = ["dodge"]
        elif spare:
            first = [max(options, key=lambda k: options[k][0])]
        else:
            first = ["none"]
        rest = [k for k in ("block", "dodge") if k in options and k not in first]
        return tuple(first + rest + ([] if "none" in first else ["none"]))

    def reaction_preference(self, state: EncounterState, prompt: ReactionPrompt) -> str:
        """What a sensible creature answers: the first option, which :meth:`before_attack_roll` ordered."""
        return prompt.options[0]
