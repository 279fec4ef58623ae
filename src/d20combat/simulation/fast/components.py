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
from d20combat.rulesets.off_guard.active_defense import VerbalComponentFumble
from d20combat.rulesets.off_guard.attack import SituationalModifiers
from d20combat.rulesets.off_guard.concealment import StackingConcealment
from d20combat.rulesets.off_guard.conditions import ConditionTable
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
from d20combat.simulation.fast.components_cmv import (
    _cmv_actions,
    _cmv_tactics,
    _damage_taken,
    _grid_movement,
    _half_speed,
    _minor_major,
    _off_guard,
    _situational,
    _soft_and_improved,
    _stacking,
    _standard_move,
    _strongest,
    _threatened_squares,
    _verbal_fumble,
)
from d20combat.simulation.fast.components_skill import armor_rating as skill_armor_rating
from d20combat.simulation.fast.components_skill import block_and_dodge as skill_block_and_dodge
from d20combat.simulation.fast.components_skill import complex_basic as skill_complex_basic
from d20combat.simulation.fast.components_skill import no_concealment as skill_no_concealment
from d20combat.simulation.fast.components_skill import skill_actions, skill_aoo, skill_tactics
from d20combat.simulation.fast.components_skill import weapon_skill_attack as skill_weapon_attack

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


SHOWN = 2
"""At most this many changed policies named per component (the rest counted), so that a refusal naming every
component of a ruleset the kernel lacks stays short enough to be read — and printed whole."""


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
            shown = changed if len(changed) <= SHOWN else [*changed[:SHOWN - 1], f"+{len(changed) - SHOWN + 1} more"]
            found.append(f"{area}={cls.__name__} ({', '.join(shown)})")
    return found


def compile_components(battle: Battle, kn: I64, planes: I64) -> None:
    """Every component's parameters into the kernel's arrays (the battle's components are all supported)."""
    for area, component in battle.ruleset.components():
        kc = kernel_component(area, component)
        if kc is not None and kc.compile is not None:
            kc.compile(component, battle, kn, planes)
