"""The policy components the kernel implements, chosen by data at compile time.

For each policy area, :data:`KERNEL_COMPONENTS` lists the component classes the kernel has an implementation
of — the core component first, then the others (off-guard's :class:`StackingConcealment`, …). Each entry names
the policies the kernel replays *as the battle runs* (a subclass that overrides one of them changes the
procedure, so it is refused) and a small ``compile`` function that writes the component's flags and parameters
into the kernel's parameter arrays (the knobs ``kn`` and the map planes). A ruleset made of supported
components plays fast whatever ruleset it is; the kernel switches on those flags, never on a ruleset.

Policies a static input decides (attack modifiers, threat ranges, natural results, Armor Class per context) are
not listed: :func:`compile_battle` asks the component itself, so a component may change them and still play fast.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from d20combat.battlefield.cover import low_obstacle
from d20combat.encounter.battle import Battle
from d20combat.rulesets.base import Ruleset
from d20combat.rulesets.components import (
    HOOKS,
    ActionSet,
    ArmorClass,
    Component,
    CoreSheets,
    CoreTactics,
    CornerCover,
    D20Attack,
    D20Saves,
    GridMovement,
    HitPointDamage,
    HitPoints,
    NamedConditions,
    NoActiveDefense,
    NoReactions,
    StandardMoveEconomy,
    StealthSurprise,
    StrongestConcealment,
    ThreatAndConfirm,
    TurnOrder,
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
from d20combat.rulesets.off_guard.saves import TableSaves
from d20combat.rulesets.off_guard.tactics import CmvTactics
from d20combat.rulesets.skill_based.action_set import SkillActions
from d20combat.rulesets.skill_based.active_defense import BlockAndDodge
from d20combat.rulesets.skill_based.attack import WeaponSkillAttack
from d20combat.rulesets.skill_based.concealment import NoConcealment
from d20combat.rulesets.skill_based.criticals import DeclaredCriticalAttack
from d20combat.rulesets.skill_based.damage import ArmorRatingDamage
from d20combat.rulesets.skill_based.defense import PassiveDefense
from d20combat.rulesets.skill_based.economy import ComplexBasicEconomy
from d20combat.rulesets.skill_based.reactions import SkillAttacksOfOpportunity
from d20combat.rulesets.skill_based.saves import SkillSaves
from d20combat.rulesets.skill_based.tactics import SkillTactics
from d20combat.simulation.fast.components_skill import armor_rating as skill_armor_rating
from d20combat.simulation.fast.components_skill import block_and_dodge as skill_block_and_dodge
from d20combat.simulation.fast.components_skill import complex_basic as skill_complex_basic
from d20combat.simulation.fast.components_skill import no_concealment as skill_no_concealment
from d20combat.simulation.fast.components_skill import skill_actions, skill_aoo, skill_tactics
from d20combat.simulation.fast.components_skill import weapon_skill_attack as skill_weapon_attack
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

ComponentCompiler = Callable[[Any, Battle, I64, I64], None]
"""(the component, the battle, the knobs ``kn``, the map planes ``light``) → writes the component's parameters."""


@dataclass(frozen=True)
class KernelComponent:
    """One component class the kernel implements."""

    cls: type[Component]
    dynamic: tuple[str, ...] = ()
    """The policies of it the kernel replays as the battle runs (a subclass must not override them)."""
    compile: ComponentCompiler | None = None
    """Writes the component's flags and parameters into the kernel's arrays (None: nothing to write)."""


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


_CONCEALMENT = ("concealment_sources", "combine")
_REACTIONS = ("threat_reach", "can_make_aoo", "movement_provokes", "threatened", "provoking_act", "action_provokes")
_ATTACK = ("attack_problem", "situational_attack_modifiers", "holds", "in_melee_reach")
_ACTIVE_DEFENSE = ("active_defense_options", "before_attack_roll", "attack_rolled", "resolve_active_defense")
_ECONOMY = ("allowance", "turn_pools", "pay", "round_reactions", "settled_turn_pools")
_INJURY = ("health", "is_helpless", "can_act", "cannot_act_reason", "out_of_fight", "strenuous", "strain",
           "settle_strain", "owe_strain")
_CMV_INJURY = ("sync", "die", "survive", "set_damage", "drop_held_items")
_TABLE = ("active", "rows_of", "bloodied_by_damage", "save_modifiers", "saving_throw", "is_off_guard",
          "can_react", "adjusted", "ability_delta")

KERNEL_COMPONENTS: dict[str, tuple[KernelComponent, ...]] = {
    "sheets": (KernelComponent(CoreSheets),),
    "turn_order": (KernelComponent(TurnOrder),),
    "surprise": (KernelComponent(StealthSurprise, ("determine",)),),
    "conditions": (KernelComponent(NamedConditions, ("active",)), KernelComponent(ConditionTable, _TABLE)),
    # Saves are asked by the GM's calls and by procedures the kernel replays itself (off-guard's death saves).
    "saves": (KernelComponent(D20Saves), KernelComponent(TableSaves), KernelComponent(SkillSaves)),
    "economy": (KernelComponent(StandardMoveEconomy, _ECONOMY, _standard_move),
                KernelComponent(MinorMajorEconomy, (*_ECONOMY, "pay_escaping"), _minor_major)),
    "movement": (KernelComponent(GridMovement, ("speed_ft",), _grid_movement),
                 KernelComponent(HalfSpeedUnlessAided, ("speed_ft", "speed"), _half_speed)),
    "attack": (KernelComponent(D20Attack, _ATTACK),
               KernelComponent(SituationalModifiers, (*_ATTACK, "higher_ground", "threatens_target", "flanking",
                                                      "opening_between"), _situational)),
    "defense": (KernelComponent(ArmorClass, ("total", "is_flat_footed")),
                KernelComponent(OffGuardDefense, ("total", "is_flat_footed"), _off_guard)),
    "active_defense": (KernelComponent(NoActiveDefense, _ACTIVE_DEFENSE),
                       KernelComponent(VerbalComponentFumble, _ACTIVE_DEFENSE, _verbal_fumble)),
    "criticals": (KernelComponent(ThreatAndConfirm, ("critical_attack",)),),
    "damage": (KernelComponent(HitPointDamage, ("mitigate",)),),
    "injury": (KernelComponent(HitPoints, _INJURY),
               KernelComponent(DamageTaken, (*_INJURY, *_CMV_INJURY), _damage_taken)),
    "cover": (KernelComponent(CornerCover, ("find_cover",)),
              KernelComponent(SoftAndImprovedCover, ("find_cover", "cover_modifier", "creatures_give_cover",
                                                     "_cover_map", "_openings", "_best_for_attacker"),
                              _soft_and_improved)),
    "concealment": (KernelComponent(StrongestConcealment, _CONCEALMENT, _strongest),
                    KernelComponent(StackingConcealment, _CONCEALMENT, _stacking)),
    "reactions": (KernelComponent(NoReactions, _REACTIONS),
                  KernelComponent(ThreatenedSquareAoO, (*_REACTIONS, "round_pools", "can_react", "threat_option",
                                                        "aoo_attack", "aoo_choices", "aoo_declaration"),
                                  _threatened_squares)),
    "actions": (KernelComponent(ActionSet, ("forbidden", "candidates")),
                KernelComponent(CmvActions, ("forbidden", "candidates", "escape", "guide", "blind_move", "cast_spell",
                                             "gm_attack"), _cmv_actions)),
    "tactics": (KernelComponent(CoreTactics, ("ai_suggestion",)),
                KernelComponent(CmvTactics, ("ai_suggestion", "flee"), _cmv_tactics)),
}
"""area → the component classes the kernel implements (the core's first)."""

# Skill-based's components (issue 14; compile steps in components_skill.py, kernel code in kernel_skill_*.py).
KERNEL_COMPONENTS["criticals"] += (KernelComponent(DeclaredCriticalAttack, ("critical_attack", "damage_factor")),)
KERNEL_COMPONENTS["damage"] += (KernelComponent(ArmorRatingDamage, ("mitigate",), skill_armor_rating),)
KERNEL_COMPONENTS["defense"] += (KernelComponent(PassiveDefense, ("total", "is_flat_footed", "helpless_reading")),)
KERNEL_COMPONENTS["concealment"] += (KernelComponent(NoConcealment, _CONCEALMENT, skill_no_concealment),)
KERNEL_COMPONENTS["attack"] += (KernelComponent(WeaponSkillAttack, _ATTACK, skill_weapon_attack),)
KERNEL_COMPONENTS["economy"] += (KernelComponent(
    ComplexBasicEconomy, (*_ECONOMY, "allowance", "start_of_round", "end_of_turn", "per_round_surprise", "hold",
                          "_spent_reserve"), skill_complex_basic),)
KERNEL_COMPONENTS["active_defense"] += (KernelComponent(
    BlockAndDodge, (*_ACTIVE_DEFENSE, "active_defense_prompt", "reaction_preference", "available_defenses",
                    "defense_rolls", "pool_for", "ranged_in_melee", "hint", "_spend", "_ranged_block"),
    skill_block_and_dodge),)
KERNEL_COMPONENTS["actions"] += (KernelComponent(
    SkillActions, ("forbidden", "candidates", "start_of_turn", "end_of_round"), skill_actions),)
KERNEL_COMPONENTS["reactions"] += (KernelComponent(
    SkillAttacksOfOpportunity, (*_REACTIONS, "round_pools", "can_react", "threat_option", "aoo_attack", "aoo_choices",
                                "aoo_declaration", "engaged"), skill_aoo),)
KERNEL_COMPONENTS["tactics"] += (KernelComponent(
    SkillTactics, ("ai_suggestion", "_can_attack", "_expected_damage", "_strike_choices"), skill_tactics),)


STATIC: dict[str, tuple[str, ...]] = {
    "sheets": ("check_stat_block", "complete_sheet"),
    "turn_order": ("initiative_modifiers", "initiative_state_modifiers"),
    "attack": ("attack_modifiers", "natural", "effective_face", "into_melee_penalty", "ranged_limits",
               "ranged_needs_clearance"),
    "criticals": ("crit_profile", "threatens", "damage_factor"),
    "damage": ("damage_strength", "precision_dice", "armor_rating"),
    "cover": ("cover_mode", "cover_modifier", "creatures_give_cover"),
}
"""area → the policies a static input decides: the scenario loader (sheets) or :func:`compile_battle` asks the
component itself for them, so a subclass of a supported component may override these — and only these, unless
the kernel class replays one as the battle runs (``dynamic``) — and still play fast."""


def kernel_component(area: str, component: Component) -> KernelComponent | None:
    """The kernel's implementation of this component: that of the most specific supported class it is an
    instance of (a subclass of StackingConcealment is judged against StackingConcealment), or None."""
    mro = type(component).__mro__
    found = [kc for kc in KERNEL_COMPONENTS[area] if isinstance(component, kc.cls)]
    return min(found, key=lambda kc: mro.index(kc.cls), default=None)


def _overridden(area: str, cls: type, kc: KernelComponent) -> list[str]:
    """What ``cls`` changes of the kernel class ``kc.cls`` beyond the area's :data:`STATIC` policies: the replayed
    policies and hooks it overrides (in their order), then every other method it defines or overrides between
    itself and ``kc.cls`` (sorted; ``__init__`` and other dunders aside — the compile steps read its data).
    Classes are compared exactly: a subclass that changes, say, how a threat is judged (WOA's ``threat``) is
    named even though the core's list of replayed policies never mentions that method."""
    watched = (*kc.dynamic, *HOOKS)
    changed = [name for name in watched if getattr(cls, name) is not getattr(kc.cls, name)]
    static = set(STATIC.get(area, ())) - set(kc.dynamic)
    defined: set[str] = set()
    for klass in cls.__mro__:
        if klass is kc.cls:
            break
        defined |= {name for name, value in vars(klass).items()
                    if not (name.startswith("__") and name.endswith("__"))
                    and (callable(value) or isinstance(value, (property, staticmethod, classmethod)))}
    return changed + sorted(defined - static - set(changed))


def unsupported_components(ruleset: Ruleset) -> list[str]:
    """The components of this ruleset the kernel does not implement, each as ``area=Class (what it changes)``
    (empty: the fast path replays it exactly). A subclass of a supported class plays as it only when all it
    changes is among the area's :data:`STATIC` policies."""
    found: list[str] = []
    for area, component in ruleset.components():
        cls = type(component)
        kc = kernel_component(area, component)
        if kc is None:
            found.append(f"{area}={cls.__name__}")
            continue
        changed = _overridden(area, cls, kc)
        if kc.cls is ActionSet and isinstance(component, ActionSet) and (component.own or component.vetoes):
            changed.append("own actions" if component.own else "vetoes")
        if changed:
            found.append(f"{area}={cls.__name__} ({', '.join(changed)})")
    return found


def compile_components(battle: Battle, kn: I64, planes: I64) -> None:
    """Every component's parameters into the kernel's arrays (the battle's components are all supported)."""
    for area, component in battle.ruleset.components():
        kc = kernel_component(area, component)
        if kc is not None and kc.compile is not None:
            kc.compile(component, battle, kn, planes)
