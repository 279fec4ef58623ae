"""P19 reactions: who threatens what, what provokes, and how an attack of opportunity is made.

:class:`NoReactions` is the core's (PFB has none); :class:`ThreatenedSquareAoO` is the shared, parametrized
attack of opportunity from threatened squares that off-guard and skill-based both play."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from d20combat.battlefield.concealment import Vision, concealment_sources
from d20combat.battlefield.cover import CoverDegree
from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint, Square
from d20combat.battlefield.reach import within_reach
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import AttackOption, Creature
from d20combat.numbers import Modifier
from d20combat.rulesets.components.component import Component, View


class NoReactions(Component):
    """PFB-RND-02: nobody acts outside its turn; nothing provokes."""

    pool: str = "aoo"
    """The off-turn pool an attack of opportunity spends."""

    def threat_reach(self, creature: Creature, state: CombatantState) -> int:
        """How far this creature threatens (ft); 0 = it makes no attacks of opportunity (PFB-RND-02)."""
        return 0

    def can_make_aoo(self, view: View, reactor: str, target: str) -> bool:
        return False

    def movement_provokes(self, mode: str) -> bool:
        """Whether leaving a threatened square by this kind of movement provokes."""
        return False

    def threatened(self, creature: Creature, state: CombatantState, here: Footprint, square: Footprint) -> bool:
        """Does this creature, standing at ``here``, threaten ``square``? Default: within :meth:`threat_reach`."""
        reach = self.threat_reach(creature, state)
        return reach > 0 and within_reach(here, reach, square)

    def aoo_attack(self, creature: Creature, state: CombatantState) -> str | None:
        """The attack an attack of opportunity uses (None: the weapon in hand)."""
        return state.wielding

    def aoo_choices(self, creature: Creature, option: AttackOption) -> tuple[str, ...]:
        """How an attack of opportunity may be answered besides "decline" (SKL adds declared critical attacks)."""
        return ("attack",)

    def aoo_declaration(self, choice: str, option: AttackOption) -> tuple[Modifier | None, int]:
        """What an :meth:`aoo_choices` answer declares: (attack modifier, extra damage); none in PFB."""
        return None, 0

    def provokes(self, view: View, reactor: str, mover: str, reason: str,
                 leaving: tuple[Footprint, Footprint] | None = None) -> bool:
        """Whether a provocation (``reason``; for movement, ``leaving`` = the mover's footprint it leaves and the one
        it enters) offers ``reactor``, which threatens the mover and may strike it, its attack of opportunity.
        Default: always (leaving any threatened square provokes). Worlds of Adventure: only disengaging, and some
        acts only from some opponents (WOA-AOO-08..16)."""
        return True

    def spent_text(self, view: View, reactor: str, what: str) -> str:
        """The explanation of the reaction an attack of opportunity spends (default: ``what``)."""
        return what

    def provoking_act(self, view: View, actor: str, action: Any, option: AttackOption | None) -> str | None:
        """A reason if ``action`` (an :class:`~d20combat.encounter.actions.Action`) provokes in a threatened
        square; by default :meth:`action_provokes` by the action's kind."""
        return self.action_provokes(action.kind, option)

    def action_provokes(self, action_kind: str, option: AttackOption | None) -> str | None:
        """A reason if taking this action in a threatened square provokes, else None."""
        return None


# ---------------------------------------------------------------------------------------------------------------
# Shared: attacks of opportunity from threatened squares (Epic Path's; off-guard and skill-based play them)


def held_attack(creature: Creature, state: CombatantState) -> AttackOption | None:
    """The attack of what the creature holds (``wielding``), if it has one: None for an empty hand or a wielded
    name its sheet lacks."""
    if state.wielding is None:
        return None
    try:
        return creature.attack(state.wielding)
    except KeyError:
        return None


def melee_weapon_in_hand(creature: Creature, state: CombatantState) -> AttackOption | None:
    """The melee weapon the creature holds ready, if any: an unarmed creature (EP-AOO-02) or one holding a bow
    threatens nothing (EP-AOO-17: an attack of opportunity is a melee attack)."""
    option = held_attack(creature, state)
    return None if option is None or option.is_ranged else option


def vision_of(creature: Creature, state: CombatantState) -> Vision:
    """How a creature sees now (PFB-CONC-04, 15..17): its senses, blinded, seeing the invisible."""
    return Vision(low_light=creature.sheet.low_light_vision, darkvision_ft=creature.sheet.darkvision_ft,
                  blinded=state.has("blinded"), sees_invisible=state.has("sees_invisible"))


def totally_concealed(view: View, observer: str, target: str) -> bool:
    """Whether ``target`` has total concealment from ``observer`` (line of effect without line of sight:
    darkness it cannot see in, invisibility, blindness) by the core's vision test (PFB-CONC-12, CMV-CONC-12)."""
    oc, os_ = view.creature(observer), view.state.get(observer)
    tc, ts = view.creature(target), view.state.get(target)
    sources = concealment_sources(view.game_map, Footprint(os_.position, oc.space), vision_of(oc, os_),
                                  Footprint(ts.position, tc.space), defender_invisible=ts.has("invisible"))
    return any(src.total for src in sources)


def creature_squares(view: View, exclude: tuple[str, ...]) -> dict[Square, str]:
    """Every square a creature on the map stands in (but those of ``exclude``), with its name: what may give cover."""
    out: dict[Square, str] = {}
    for cid, c in view.state.combatants.items():
        if cid in exclude or c.has("fled"):
            continue
        creature = view.creature(cid)
        for sq in Footprint(c.position, creature.space).squares():
            out[sq] = creature.name
    return out


class ThreatenedSquareAoO(NoReactions):
    """Attacks of opportunity from threatened squares, as Epic Path has them (EP-AOO-01, EP-AOO-05, EP-AOO-12)
    and the texts that borrow them play them (CMV-COV-08's "reaction attack", SKL-AOO-01): a creature threatens
    the squares its melee attack reaches; an enemy that leaves one by a provoking movement, or does a provoking act
    in one, may be struck once with that melee attack, at the normal bonus, from an off-turn pool refreshed every
    round.

    The parameters are what the systems that use it differ on:

    - ``per_round`` and ``pool`` — how many a round, and the name of the off-turn pool they spend
      (EP-AOO-12: one a round). The economy refreshes it from :meth:`round_pools` at the start of each round
      (``StandardMoveEconomy.round_reactions``).
    - ``provoking_moves`` — the movement modes that provoke on leaving a threatened square (EP-AOO-06/08: a
      move and a charge; EP-AOO-07: a 5-foot step does not).
    - ``provoking_acts`` — action kind → the reason shown: acts that provoke when taken in a threatened square
      (EP-AOO-09 lists none; CMV reads it so). Acts a table of kinds cannot describe (a ranged
      attack, a feat's exception) belong in an override of :meth:`provoking_act`.
    - ``may_react`` — who may make one at all: ``may_react(creature, state)`` (None: anyone; the engine asks
      ``injury.can_act`` anyway). CMV: not off-guard, helpless, stunned or cowering (CMV-COND-39, CMV-HELP-04).
    - ``not_against_cover`` / ``not_against_total_concealment`` — none against an opponent with cover
      relative to the reactor (CMV-COV-08, found as for the attack itself by the cover area) or with total
      concealment from it (CMV-CONC-16).
    - ``only_while_able`` — the threatened-area rule's one switch: a creature that cannot act threatens
      nothing (SKL-AOO-02); otherwise threat is the weapon's alone (EP-AOO-01: also when it is not its turn).

    The threatened area is where the threatening attack reaches: :meth:`threat_option` (the melee weapon in
    hand, EP-AOO-01/02) within :meth:`threat_reach`, by the attack area's ``in_melee_reach``; a system with
    another threatening attack (an unarmed strike, a reach weapon's ring) overrides those two small methods.
    What an attack of opportunity may declare besides a plain attack (SKL's critical attacks) is
    :meth:`aoo_choices` / :meth:`aoo_declaration`, as in :class:`NoReactions` (a plain attack).
    """

    def __init__(self, *, per_round: int = 1, pool: str = "aoo",
                 provoking_moves: Iterable[str] = ("move", "charge"),
                 provoking_acts: Mapping[str, str] | None = None,
                 may_react: Callable[[Creature, CombatantState], bool] | None = None,
                 not_against_cover: bool = False, not_against_total_concealment: bool = False,
                 only_while_able: bool = False) -> None:
        self.per_round = per_round
        self.pool = pool
        self.provoking_moves: frozenset[str] = frozenset(provoking_moves)
        self.provoking_acts: Mapping[str, str] = dict(provoking_acts or {})
        self.may_react = may_react
        self.not_against_cover = not_against_cover
        self.not_against_total_concealment = not_against_total_concealment
        self.only_while_able = only_while_able

    # --- how many, and who -----------------------------------------------------------------------------------
    def round_pools(self, creature: Creature, state: CombatantState) -> dict[str, int]:
        """The off-turn pool every creature gets back at the start of a round (EP-AOO-12: one a round)."""
        return {self.pool: self.per_round} if self.per_round else {}

    def can_react(self, creature: Creature, state: CombatantState) -> bool:
        """Whether this creature may make an attack of opportunity at all now (``may_react``)."""
        return self.may_react is None or self.may_react(creature, state)

    def can_make_aoo(self, view: View, reactor: str, target: str) -> bool:
        """``reactor`` may strike ``target``: it may react, and (where the system says so) the target has neither
        total concealment from it nor cover relative to it."""
        rc, rstate = view.creature(reactor), view.state.get(reactor)
        if not self.can_react(rc, rstate):
            return False
        if self.not_against_total_concealment and totally_concealed(view, reactor, target):
            return False
        if not self.not_against_cover:
            return True
        tc, tstate = view.creature(target), view.state.get(target)
        a_fp, t_fp = Footprint(rstate.position, rc.space), Footprint(tstate.position, tc.space)
        cover = self.rules.cover
        fact = cover.find_cover(view.game_map, a_fp, t_fp, ranged=False, reach_attack=rc.reach_ft > 5,
                                adjacent=footprint_distance_ft(a_fp, t_fp) == 5,
                                creature_squares=creature_squares(view, (reactor, target))
                                if cover.creatures_give_cover(False) else {})
        return fact.degree is CoverDegree.NONE

    # --- the threatened area -----------------------------------------------------------------------------------
    def threat_option(self, creature: Creature, state: CombatantState) -> AttackOption | None:
        """The attack a creature threatens with: the melee weapon in hand (EP-AOO-01/02)."""
        return melee_weapon_in_hand(creature, state)

    def threat_reach(self, creature: Creature, state: CombatantState) -> int:
        """How far the threatening attack reaches (ft): the creature's reach (EP-AOO-03/04); 0 = no threat."""
        return creature.reach_ft if self.threat_option(creature, state) is not None else 0

    def threatened(self, creature: Creature, state: CombatantState, here: Footprint, square: Footprint) -> bool:
        """Does this creature, standing at ``here``, threaten ``square``: its threatening attack reaches it."""
        if self.only_while_able and not self.rules.injury.can_act(creature, state):
            return False
        option = self.threat_option(creature, state)
        return option is not None and self.threat_reach(creature, state) > 0 and \
            self.rules.attack.in_melee_reach(creature, option, here, square)

    def aoo_attack(self, creature: Creature, state: CombatantState) -> str | None:
        """The threatening attack itself (EP-AOO-12/14/17: a single basic melee attack at the normal bonus)."""
        option = self.threat_option(creature, state)
        return option.name if option is not None else state.wielding

    # --- what provokes -----------------------------------------------------------------------------------------
    def movement_provokes(self, mode: str) -> bool:
        """Leaving a threatened square by one of ``provoking_moves`` (EP-AOO-06/08)."""
        return mode in self.provoking_moves

    def action_provokes(self, action_kind: str, option: AttackOption | None) -> str | None:
        """The reason, if this kind of act provokes in a threatened square (``provoking_acts``)."""
        return self.provoking_acts.get(action_kind)
