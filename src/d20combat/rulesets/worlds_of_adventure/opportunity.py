"""Attacks of opportunity (WOA-AOO-01..30): the shared threatened-square machinery (:class:`ThreatenedSquareAoO`)
parametrized with Worlds of Adventure's provocations.

- An attack of opportunity is one melee attack at the normal bonus that spends a combat reaction (WOA-AOO-01/17);
  it interrupts the provoking movement or act, which goes on if it still can (WOA-AOO-18).
- The threatened area is where the melee weapon in hand reaches, never the creature's own space; unarmed, a
  creature threatens nothing unless it has Improved Unarmed Strike (WOA-AOO-02..04).
- Moving *into* a threatened area (engaging) or *within* it does not provoke; leaving it does (disengaging), unless
  the opponent left behind is still within the mover's own threatened area (WOA-AOO-07..10). A creature that sees in
  all directions (``all_around_vision`` feat) never provokes by disengaging (WOA-AOO-29).
- Ignoring a threat: a creature that moved within opponent X's threatened area this round (a short step excepted)
  and then attacks another opponent provokes from X (WOA-AOO-11).
- Standing up provokes from every opponent that threatens you (WOA-AOO-14); an unarmed attack on an armed opponent
  provokes from it, unless Improved Unarmed Strike (WOA-AOO-16).
- A short step never provokes (WOA-AOO-19: its movement is not a provoking movement); the defensive disengage
  (:mod:`.disengage`) moves at half speed without provoking from the opponents left (WOA-AOO-20..22).
- None against an opponent with cover or total concealment from the reactor (WOA-AOO-27/28).
"""

from __future__ import annotations

from typing import Any

from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint
from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import AttackOption, Creature
from d20combat.rulesets.components.component import View
from d20combat.rulesets.components.reactions import ThreatenedSquareAoO, melee_weapon_in_hand
from d20combat.rulesets.worlds_of_adventure.reactions import (
    POOL,
    left_text,
    reaction_budget,
    reaction_kind_barred,
    reactions_left,
)

DISENGAGE = "defensive disengage"
"""The movement mode of the defensive disengage (WOA-AOO-20)."""

WITHIN = "within:"
"""Pool-name prefix of the per-round record "moved within X's threatened area" (WOA-AOO-11): ``within:<id>`` = 1 in
the creature's reaction pools, cleared with them at the start of each round."""

FROM = " — from "
"""Where a provoking act's reason names the opponents it provokes (those opponents only)."""

MOVED_FT = "moved_ft"
"""The feet a creature moved this round (a per-round record in its reaction pools, cleared with them): WOA-AOO-24's
Wind Stance reads it (:func:`wind_stance`)."""
WIND_STANCE = "wind_stance_ac"
WIND_STANCE_FT = 10
"""WOA-AOO-24 (AMBIGUOUS, garbled "move 10 feet or move"): the inventory's reading — a round in which the creature
moved at least 10 ft."""
ROSE_TO_CROUCH = "rose into a crouch this round"
"""An effect marking a rise from prone into a crouch, until the creature's next turn (WOA-MOVE-40)."""
IMPROVED_UNARMED_STRIKE = "improved_unarmed_strike"
ALL_AROUND_VISION = "all_around_vision"
SIZE_RANK = {"small": 0, "medium": 1, "large": 2, "large-long": 2}


def wind_stance(creature: Creature, state: CombatantState, min_ft: int = WIND_STANCE_FT
                ) -> tuple[int, str] | None:
    """WOA-AOO-24: the Wind Stance feat's AC bonus in a round in which the creature moved at least ``min_ft`` feet
    (option ``woa_wind_stance_min_ft``, default 10) — the amount is MISSING (feat chapter): the stat block's
    ``attributes: {wind_stance_ac: N}`` — with why, or None."""
    bonus = int(creature.sheet.attributes.get(WIND_STANCE, 0))
    moved = state.reactions.get(MOVED_FT, 0)
    if bonus <= 0 or moved < max(min_ft, 1):
        return None
    return bonus, f"Wind Stance: moved {moved} ft this round (WOA-AOO-24)"


def continues_a_rise(state: CombatantState, rise_one_aoo: str) -> bool:
    """WOA-MOVE-40 (AMBIGUOUS, option ``woa_rise_one_aoo``): under "round", standing up from a crouch reached from
    prone earlier this round continues one rise, which provoked then — no second attack of opportunity."""
    return rise_one_aoo == "round" and not state.has("prone") \
        and any(e.name == ROSE_TO_CROUCH for e in state.effects)


def is_unarmed(option: AttackOption | None) -> bool:
    """An unarmed strike (the weapons table's ``unarmed-strike``, or a weapon of the unarmed skill)."""
    return option is not None and (option.name == "unarmed-strike" or option.weapon.skill == "unarmed")


def foes_of(view: View, cid: str) -> list[str]:
    side = view.creature(cid).side
    return [o for o, c in view.state.combatants.items()
            if view.creature(o).side != side and "fled" not in c.conditions and "removed" not in c.conditions]


def footprint(view: View, cid: str) -> Footprint:
    return Footprint(view.state.get(cid).position, view.creature(cid).space)


def entering_space_provokes(mover: Creature, occupant: Creature, occupant_state: CombatantState) -> str | None:
    """WOA-AOO-12: why entering ``occupant``'s space provokes from it — even by a short step — or None: it is a size
    larger or more; or the mover's size and armed with a one- or two-handed (not light) melee weapon; or a size
    smaller and armed with a reach weapon. (The core's movement never enters an enemy's space; the maneuvers of
    part 2 that do — overrun — ask this.)"""
    m, o = SIZE_RANK[mover.sheet.size.value], SIZE_RANK[occupant.sheet.size.value]
    weapon = melee_weapon_in_hand(occupant, occupant_state)
    armed = weapon is not None and not is_unarmed(weapon)
    if o > m:
        return f"enters the space of a larger creature (WOA-AOO-12){FROM}{occupant.id}"
    if o == m and armed and weapon is not None and weapon.weapon.hands != "light":
        return f"enters the space of a creature armed with {weapon.name} (WOA-AOO-12){FROM}{occupant.id}"
    if o == m - 1 and armed and weapon is not None and weapon.weapon.reach:
        return f"enters the space of a creature with the reach weapon {weapon.name} (WOA-AOO-12){FROM}{occupant.id}"
    return None


def provoke_failed_maneuver(enc: Any, tx: Any, actor: str, target: str, maneuver: str) -> bool:
    """WOA-AOO-15: a failed maneuver provokes an attack of opportunity from its target only; the attack of
    opportunity is a plain melee attack and provokes nothing in turn (no chains). For the maneuvers of part 2.
    Returns False if ``actor`` can no longer act afterwards."""
    from d20combat.encounter import attack_actions  # the engine's layer, imported when a maneuver runs

    return attack_actions.provoke(enc, tx, actor, f"fails to {maneuver} {target} (WOA-AOO-15){FROM}{target}", set())


class WoaAttacksOfOpportunity(ThreatenedSquareAoO):
    """WOA-AOO-01..22/26..30 on the shared :class:`ThreatenedSquareAoO`: one attack of opportunity costs one combat
    reaction (WOA-AOO-01, WOA-REACT-02/05); disengaging, ignoring a threat, standing up and an unarmed attack on an
    armed foe provoke; engaging and moving within do not; none through cover or total concealment."""

    def __init__(self, *, short_step_ignores_threat: bool = False, reactions_at_bab_0: int = 1,
                 rise_one_aoo: str = "action") -> None:
        self.rise_one_aoo = rise_one_aoo
        """WOA-MOVE-40 (AMBIGUOUS, option ``woa_rise_one_aoo``): when a rise from prone in two actions provokes once."""
        self.short_step_ignores_threat = short_step_ignores_threat
        """WOA-AOO-11 (AMBIGUOUS, option ``woa_short_step_ignores_threat``): a short step within X's area counts."""
        self.reactions_at_bab_0 = reactions_at_bab_0
        """WOA-REACT-02 (AMBIGUOUS, option ``woa_reactions_at_bab_0``): the base reaction at BAB +0 (1 or 0)."""
        super().__init__(per_round=0, pool=POOL, provoking_moves=("move", "charge", DISENGAGE,
                                                                   "run", "crawl"),  # WOA-AOO-08: any movement
                         provoking_acts={"stand_up": "stands up (WOA-AOO-14)",
                                         "get_up": "gets up (WOA-AOO-14)"},
                         may_react=lambda creature, state: reaction_kind_barred(
                             creature, state, "attack_of_opportunity") is None,  # WOA-DEF-03 too
                         not_against_cover=True, not_against_total_concealment=True)

    # --- the budget ----------------------------------------------------------------------------------------
    def round_pools(self, creature: Creature, state: CombatantState) -> dict[str, int]:
        """WOA-REACT-02/04: every round the combat-reaction budget comes back (the dodge cap with it)."""
        pools = {POOL: reaction_budget(creature, at_bab_0=self.reactions_at_bab_0)[0]}
        pools.update(self.rules.active_defense.round_pools(creature, state)
                     if hasattr(self.rules.active_defense, "round_pools") else {})
        return pools

    def spent_text(self, view: View, reactor: str, what: str) -> str:
        """WOA-AOO-01: the attack of opportunity spends a combat reaction; the budget left is told."""
        return f"{what}; {left_text(reactions_left(view.state.get(reactor)) - 1)}"

    # --- the threatened area (WOA-AOO-02..04) ------------------------------------------------------------------
    def threat_option(self, creature: Creature, state: CombatantState) -> AttackOption | None:
        """WOA-AOO-02/04: the melee weapon in hand; an unarmed strike threatens only with Improved Unarmed Strike."""
        option = melee_weapon_in_hand(creature, state)
        if is_unarmed(option) and not creature.has_feat(IMPROVED_UNARMED_STRIKE):
            return None
        return option

    def threatened(self, creature: Creature, state: CombatantState, here: Footprint, square: Footprint) -> bool:
        """WOA-AOO-03/13: a reach weapon does not threaten the squares right around its wielder (the "donut")."""
        if not super().threatened(creature, state, here, square):
            return False
        option = self.threat_option(creature, state)
        return not (option is not None and option.weapon.reach and footprint_distance_ft(here, square) <= 5)

    # --- what provokes -------------------------------------------------------------------------------------------
    def provokes(self, view: View, reactor: str, mover: str, reason: str,
                 leaving: tuple[Footprint, Footprint] | None = None) -> bool:
        if leaving is not None:
            return self.disengages(view, reactor, mover, leaving[1])
        _, sep, names = reason.rpartition(FROM)
        return not sep or reactor in names.split(", ")

    def disengages(self, view: View, reactor: str, mover: str, to: Footprint) -> bool:
        """WOA-AOO-07..10/13/29: leaving for ``to`` takes ``mover`` out of ``reactor``'s threatened area while
        ``reactor`` is not within the mover's own; moving within it, or into it, does not provoke."""
        rc, rs = view.creature(reactor), view.state.get(reactor)
        r_fp = Footprint(rs.position, rc.space)
        if self.threatened(rc, rs, r_fp, to):
            return False  # WOA-AOO-10: still within its threatened area
        mc, ms = view.creature(mover), view.state.get(mover)
        option = self.threat_option(rc, rs)
        if option is not None and option.weapon.reach and footprint_distance_ft(r_fp, to) <= 5 \
                and SIZE_RANK[rc.sheet.size.value] >= SIZE_RANK[mc.sheet.size.value]:
            return True  # WOA-AOO-13: approaching a reach wielder of your size or larger, into the donut
        if mc.has_feat(ALL_AROUND_VISION):
            return False  # WOA-AOO-29
        return not self.threatened(mc, ms, to, r_fp)  # WOA-AOO-09: still engaged from the mover's side

    def provoking_act(self, view: View, actor: str, action: Any, option: AttackOption | None) -> str | None:
        """WOA-AOO-11/14/16: standing up (from all), an unarmed attack on an armed foe (from it), an attack on
        another foe after moving within X's threatened area (from X); the reason names whom it provokes."""
        if action.kind in self.provoking_acts:
            if getattr(action, "evasive", False):
                return None  # WOA-MOVE-41: an evasive get-up provokes from its handler, after its Acrobatics check
            if continues_a_rise(view.state.get(actor), self.rise_one_aoo):
                return None  # WOA-MOVE-40: the rise began from prone this round and provoked then
            return self.provoking_acts[action.kind]
        target = getattr(action, "target", None)
        if action.kind not in ("attack", "full_attack") or not isinstance(target, str) \
                or target not in view.state.combatants:
            return None
        state = view.state.get(actor)
        reactors: list[str] = []
        whys: list[str] = []
        tc, ts = view.creature(target), view.state.get(target)
        if is_unarmed(option) and not view.creature(actor).has_feat(IMPROVED_UNARMED_STRIKE) \
                and (armed := melee_weapon_in_hand(tc, ts)) is not None and not is_unarmed(armed):
            reactors.append(target)
            whys.append(f"attacks {target}, armed with {armed.name}, unarmed (WOA-AOO-16)")
        ignored = [foe for foe in foes_of(view, actor)
                   if foe != target and state.reactions.get(WITHIN + foe, 0) > 0]
        if ignored:
            reactors.extend(ignored)
            whys.append(f"attacks {target}, ignoring the threat of {', '.join(ignored)} it moved within "
                        f"(WOA-AOO-11)")
        return f"{'; '.join(whys)}{FROM}{', '.join(reactors)}" if reactors else None

    # --- the per-round record of threatened areas moved within (WOA-AOO-11) ----------------------------------
    def after_action(self, view: View, actor: str) -> None:
        """Record every opponent whose threatened area ``actor`` moved within this action (not by a short step)."""
        events = getattr(view, "events", ())
        squares = [tuple(p) for e in events if isinstance(e, ev.Moved) and e.combatant == actor
                   and (self.short_step_ignores_threat or e.mode not in ("step", "short step")) for p in e.path]
        moved = sum(e.cost_ft for e in events if isinstance(e, ev.Moved) and e.combatant == actor)
        if actor not in view.state.combatants or not (squares or moved):
            return
        mc = view.creature(actor)
        state = view.state.get(actor)
        pools = dict(state.reactions)
        if moved:  # WOA-AOO-24: the feet moved this round (Wind Stance reads them)
            pools[MOVED_FT] = pools.get(MOVED_FT, 0) + moved
        for foe in foes_of(view, actor):
            if pools.get(WITHIN + foe, 0) > 0:
                continue
            fc, fs = view.creature(foe), view.state.get(foe)
            f_fp = Footprint(fs.position, fc.space)
            if any(self.threatened(fc, fs, f_fp, Footprint((int(sq[0]), int(sq[1])), mc.space)) for sq in squares):
                pools[WITHIN + foe] = 1
        if pools != dict(state.reactions):
            view.emit(ev.ReactionsSet(actor, pools))
