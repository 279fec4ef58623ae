"""The compile steps of the core's and off-guard's kernel components (:data:`.components.KERNEL_COMPONENTS`): each
writes its component's flags and parameters into the kernel's knobs ``kn`` and map planes, or refuses — naming
it — what the kernel does not model (skill-based's are in :mod:`.components_skill`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from d20combat.battlefield.cover import low_obstacle
from d20combat.encounter.battle import Battle
from d20combat.rulesets.components import (
    GridMovement,
    NoReactions,
    StandardMoveEconomy,
    StrongestConcealment,
)
from d20combat.rulesets.components.reactions import ThreatenedSquareAoO
from d20combat.rulesets.off_guard.action_set import CmvActions
from d20combat.rulesets.off_guard.actions import CoupDeGrace
from d20combat.rulesets.off_guard.active_defense import VerbalComponentFumble
from d20combat.rulesets.off_guard.attack import SituationalModifiers
from d20combat.rulesets.off_guard.concealment import StackingConcealment, concealing_areas
from d20combat.rulesets.off_guard.conditions import ConditionTable
from d20combat.rulesets.off_guard.coup_de_grace import CoupDeGraceRules
from d20combat.rulesets.off_guard.cover import SoftAndImprovedCover
from d20combat.rulesets.off_guard.defense import OffGuardDefense
from d20combat.rulesets.off_guard.economy import MinorMajorEconomy
from d20combat.rulesets.off_guard.injury import DamageTaken
from d20combat.rulesets.off_guard.movement import HalfSpeedUnlessAided
from d20combat.rulesets.off_guard.tactics import CmvTactics
from d20combat.simulation.fast.layout import (
    AREA_PLANE,
    CONC_ADD,
    CONC_INDEPENDENT,
    CONC_STRONGEST,
    ELEVATION_PLANE,
    K_AOO,
    K_AOO_NOT_COVER,
    K_AOO_PER_ROUND,
    K_AOO_TABLE,
    K_ATK_BLOODIED_UP,
    K_ATK_CMV,
    K_BLOODIED_UP,
    K_CDG_KEEPS,
    K_CDG_REMOVES_MISS,
    K_CONC_AREAS,
    K_CONC_STACK,
    K_COVER_CMV,
    K_DEATH_CON,
    K_DEF_CMV,
    K_DYING_GM,
    K_ECON_CMV,
    K_HIGHER_MELEE_ONLY,
    K_INJURY_CMV,
    K_MOVE_CMV,
    K_PASS_STABLE,
    K_SOFT_RANGED_ONLY,
    K_STRAIN,
    K_TACTICS_CMV,
    K_UNSEEN,
    LOW_RUN_PLANE,
    NARROW_PLANE,
    NotCompilable,
)

I64 = npt.NDArray[np.int64]


def _strongest(component: StrongestConcealment, battle: Battle, kn: I64, planes: I64) -> None:
    """PFB-CONC-07: the strongest source counts."""
    kn[K_CONC_STACK] = CONC_STRONGEST


MIN_INDEPENDENT_PERCENT = 8
"""``independent`` stacking is exact in 64-bit integers for up to 8 sources below the cap: any source of at
least 8 % gets there (0.92⁹ < ½)."""


def _stacking(component: StackingConcealment, battle: Battle, kn: I64, planes: I64) -> None:
    """CMV-CONC-07/10/15 (variants ``cmv_concealment_stack``, ``cmv_terrain_areas_stack``): every source counts,
    added or combined, capped at 50 %; with areas stacking, each connected area of concealing terrain is one
    source (its labels in the map plane ``AREA_PLANE``). The magical sources (``blur``, ``concealed:N``) and
    invisibility come from conditions, which a compiled battle never has (starting conditions are refused and
    no supported component adds one)."""
    opts = component.opts
    gm = battle.game_map
    independent = opts.cmv_concealment_stack == "independent"
    weak = sorted({p for p in gm.concealing.values() if 0 < p < MIN_INDEPENDENT_PERCENT})
    if independent and weak:
        raise NotCompilable(f"concealing terrain of {weak[0]} % with cmv_concealment_stack=independent (the kernel "
                            f"combines sources of at least {MIN_INDEPENDENT_PERCENT} % exactly)")
    kn[K_CONC_STACK] = CONC_INDEPENDENT if independent else CONC_ADD
    kn[K_CONC_AREAS] = int(opts.cmv_terrain_areas_stack)
    for label, area in enumerate(concealing_areas(gm.concealing)):
        for c, r in area:
            if 0 <= c < planes.shape[1] and 0 <= r < planes.shape[2]:
                planes[AREA_PLANE, c, r] = label


def _table_of(component: Any, area: str) -> ConditionTable:
    """The condition table a component reads: the kernel knows off-guard's own (its rows, its derived
    injury conditions), not a subclass's."""
    table = component.table
    if type(table) is not ConditionTable:
        raise NotCompilable(f"the {area} component reads a condition table of class {type(table).__name__}; the "
                            f"kernel replays ConditionTable's")
    return table


def _minor_major(component: MinorMajorEconomy, battle: Battle, kn: I64, planes: I64) -> None:
    """CMV-INJ-06, CMV-COND-21, CMV-INJ-17: a staggered creature's single action; no actions while dying, stable
    or dead. Its off-turn pools are the reaction attacks of the reactions area (CMV-COV-08)."""
    _table_of(component, "economy")
    _round_pools(component.reactions, battle, kn)
    kn[K_ECON_CMV] = 1


def _standard_move(component: StandardMoveEconomy, battle: Battle, kn: I64, planes: I64) -> None:
    """PFB-ACT-05/06/13; with ``aoo`` (Epic Path's scaffold), the attacks of opportunity refreshed each round
    (EP-AOO-12)."""
    _round_pools(component.aoo, battle, kn)


def _round_pools(aoo: ThreatenedSquareAoO | None, battle: Battle, kn: I64) -> None:
    """The economy's ``round_reactions``: the round pools of the ruleset's own reactions component, every
    creature's the same (``ReactionsSet`` each round); those of another component are refused."""
    if aoo is None:
        return
    if aoo is not battle.ruleset.reactions:
        raise NotCompilable("the economy refreshes the attacks of opportunity (EP-AOO-12, CMV-COV-08) of another "
                            "component than the ruleset's reactions")
    kn[K_AOO_PER_ROUND] = aoo.per_round


def _threatened_squares(component: ThreatenedSquareAoO, battle: Battle, kn: I64, planes: I64) -> None:
    """EP-AOO-01..17 (off-guard's CMV-COV-08): attacks of opportunity from the squares a melee weapon in hand
    threatens, provoked by moves and charges, by anyone able to act (``may_react`` None, Epic Path) or only by
    those off-guard's table lets react (ConditionTable.can_react: not off-guard nor helpless), never against
    total concealment, nor against cover where the component says so. The kernel plays those readings: other
    provoking moves or acts, another ``may_react`` and ``only_while_able`` are refused."""
    may_react = component.may_react
    if may_react is not None and (getattr(may_react, "__func__", None) is not ConditionTable.can_react or
                                  type(getattr(may_react, "__self__", None)) is not ConditionTable):
        raise NotCompilable("the reaction attacks' may_react is neither anyone (None, EP-AOO) nor off-guard's "
                            "ConditionTable.can_react")
    if component.provoking_moves != frozenset({"move", "charge"}) or component.provoking_acts:
        raise NotCompilable("reaction attacks provoked by other moves or acts than moving and charging")
    if component.only_while_able:
        raise NotCompilable("reaction attacks with only_while_able (SKL-AOO-02) are not in the kernel")
    kn[K_AOO] = 1
    kn[K_AOO_NOT_COVER] = int(component.not_against_cover)
    kn[K_AOO_TABLE] = int(may_react is not None)


def _damage_taken(component: DamageTaken, battle: Battle, kn: I64, planes: I64) -> None:
    """CMV-INJ: damage taken against the stat block's hp, with the variants of its death saves."""
    table = _table_of(component, "injury")
    opts = component.opts
    kn[K_INJURY_CMV] = 1
    kn[K_DEATH_CON] = int(table.opts.cmv_death_save_bonus == "con")
    kn[K_PASS_STABLE] = int(opts.cmv_death_save_pass == "stable")
    kn[K_DYING_GM] = int(opts.cmv_dying == "gm")
    kn[K_BLOODIED_UP] = int(table.opts.cmv_bloodied_rounding == "up")
    kn[K_STRAIN] = int(opts.cmv_staggered_strenuous_damage)


def _off_guard(component: OffGuardDefense, battle: Battle, kn: I64, planes: I64) -> None:
    """CMV-COND-37..41, CMV-SIT-10/11: off-guard in place of flat-footed (its Armor Class is tabled by the
    compile step, which asks the component), the surprised off-guard until they act, an unseen attacker's
    target off-guard, squeezing −4 on the narrow squares of the map plane ``NARROW_PLANE``."""
    _table_of(component, "defense")
    kn[K_DEF_CMV] = 1
    kn[K_UNSEEN] = int(component.opts.cmv_surprise_unseen_attacker)
    _narrow(battle, planes)


def _narrow(battle: Battle, planes: I64) -> None:
    """The narrow squares, where a creature squeezes (CMV-SIT-10), into the map plane ``NARROW_PLANE``."""
    for c, r in battle.game_map.narrow:
        if 0 <= c < planes.shape[1] and 0 <= r < planes.shape[2]:
            planes[NARROW_PLANE, c, r] = 1


def _situational(component: SituationalModifiers, battle: Battle, kn: I64, planes: I64) -> None:
    """CMV-SIT-01/04/06/10, CMV-INJ-02: bloodied −1, squeezing −4, higher ground +1, flanking +2 (the rest of
    the table's attack rows and what the conditions forbid never occur in a compiled battle). A map with narrow
    openings (CMV-COV-23: only long piercing weapons strike through) is refused."""
    table = _table_of(component, "attack")
    gm = battle.game_map
    if gm.narrow_openings:
        raise NotCompilable("the map has narrow openings (CMV-COV-23), which the kernel's attack does not judge")
    kn[K_ATK_CMV] = 1
    kn[K_ATK_BLOODIED_UP] = int(table.opts.cmv_bloodied_rounding == "up")
    kn[K_HIGHER_MELEE_ONLY] = int(component.opts.cmv_higher_ground_melee_only)
    _narrow(battle, planes)
    for (c, r), height in gm.elevation.items():
        if 0 <= c < planes.shape[1] and 0 <= r < planes.shape[2]:
            planes[ELEVATION_PLANE, c, r] = height


def _grid_movement(component: GridMovement, battle: Battle, kn: I64, planes: I64) -> None:
    """PFB-CHG-05: the kernel's charge moves up to double speed and leaves the rest of the turn; another reading
    (EP-MOVE-16/23: up to speed, the charge ends the turn) is refused by name."""
    if component.charge_speed_multiple != 2 or component.charge_ends_turn:
        raise NotCompilable(f"movement: a charge of {component.charge_speed_multiple} × speed"
                            f"{' that ends the turn' if component.charge_ends_turn else ''} (the kernel plays 2 × "
                            f"speed, the turn going on)")


def _half_speed(component: HalfSpeedUnlessAided, battle: Battle, kn: I64, planes: I64) -> None:
    """CMV-INJ-07: staggered creatures move at half speed (blinded, fatigued and guided creatures, the other
    rows and the aid, never occur in a compiled battle)."""
    _grid_movement(component, battle, kn, planes)
    _table_of(component, "movement")
    kn[K_MOVE_CMV] = 1


def _verbal_fumble(component: VerbalComponentFumble, battle: Battle, kn: I64, planes: I64) -> None:
    """CMV-COND-08: only a deafened caster's spell fumbles; no compiled battle has a deafened creature (no
    starting conditions, no kernel component that deafens), so nothing is rolled, as in the reference."""
    _table_of(component, "active_defense")


def _soft_and_improved(component: SoftAndImprovedCover, battle: Battle, kn: I64, planes: I64) -> None:
    """CMV-COV-01..07/11/14..17: best corner of any attacker square, soft cover from creatures, any line in
    adjacent melee, low obstacles only within 30 ft of the target (each run of low walls labelled in the map
    plane ``LOW_RUN_PLANE``). Refused: improved cover (+8, CMV-COV-18) and narrow openings (CMV-COV-23) on the
    map, and dropping a low obstacle on a tie of distances (variant of CMV-COV-07)."""
    gm = battle.game_map
    if gm.improved_cover:
        raise NotCompilable("the map has improved cover (CMV-COV-18), which the kernel's cover does not grade")
    if gm.narrow_openings:
        raise NotCompilable("the map has narrow openings (CMV-COV-23), which the kernel's cover does not judge")
    if not component.opts.cmv_low_obstacle_tie_keeps_cover:
        raise NotCompilable("cmv_low_obstacle_tie_keeps_cover=false (CMV-COV-07) is not in the kernel's cover")
    kn[K_COVER_CMV] = 1
    kn[K_SOFT_RANGED_ONLY] = int(component.opts.cmv_soft_cover_ranged_only)
    planes[LOW_RUN_PLANE] = -1
    label = 0
    for square in sorted(gm.low_walls):
        c, r = square
        if planes[LOW_RUN_PLANE, c, r] != -1:
            continue
        for x, y in low_obstacle(gm.low_walls, square):
            planes[LOW_RUN_PLANE, x, y] = label
        label += 1


def _cdg_rules(component: CmvActions) -> CoupDeGraceRules:
    for spec in component.own:
        if spec.type is CoupDeGrace:
            rules = getattr(spec.handler, "__self__", None)
            if type(rules) is CoupDeGraceRules:
                return rules
    raise NotCompilable("the actions area's coup de grace is not CoupDeGraceRules.strike")


def _cmv_actions(component: CmvActions, battle: Battle, kn: I64, planes: I64) -> None:
    """CMV's own actions (coup de grace, escape, guide, blind move, spells, the GM's ruling) and the moves the
    conditions forbid (held, exhausted, afraid — none occurs in a compiled battle). Of its actions the kernel's
    AI takes only the coup de grace, as CmvTactics suggests it (CMV-CDG-01..11); its variants are read here."""
    _table_of(component, "actions")
    opts = _cdg_rules(component).opts
    if opts.cmv_cdg_flat_minus_nine:
        raise NotCompilable("cmv_cdg_flat_minus_nine (CMV-CDG-05) is not in the kernel's coup de grace")
    kn[K_CDG_REMOVES_MISS] = int(opts.cmv_cdg_find_removes_miss_chance)
    kn[K_CDG_KEEPS] = int(opts.cmv_cdg_survivor_keeps_state)


def _cmv_tactics(component: CmvTactics, battle: Battle, kn: I64, planes: I64) -> None:
    """CMV-CDG-01: the AI finishes a helpless foe with a coup de grace when no standing foe threatens it (nobody
    does without reaction attacks; dazed, held and afraid creatures, the rest of its advice, never occur). Its
    coup de grace is the actions area's, against off-guard's damage-taken injury."""
    rs = battle.ruleset
    _table_of(component, "tactics")
    if not isinstance(rs.actions, CmvActions) or type(rs.injury) is not DamageTaken:
        raise NotCompilable("off-guard's tactics need its actions (the coup de grace) and its damage-taken injury")
    if type(rs.reactions) not in (NoReactions, ThreatenedSquareAoO):
        raise NotCompilable("off-guard's tactics with another reactions component are not in the kernel")
    kn[K_TACTICS_CMV] = 1
