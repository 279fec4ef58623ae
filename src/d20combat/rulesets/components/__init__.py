"""Policy components: one module per policy area of ``rules-diff.md`` §3, each holding the core's
implementation (PFB's rule where PFB states one) and the implementations two or more rulesets share.

A ruleset composes one component per area (:class:`d20combat.rulesets.base.Policies`)."""

from d20combat.rulesets.components.actions import ActionSet, ActionSpec, Handler
from d20combat.rulesets.components.active_defense import NoActiveDefense
from d20combat.rulesets.components.attack import D20Attack
from d20combat.rulesets.components.component import (
    HOOKS,
    AttackInfo,
    BudgetError,
    Component,
    RuleError,
    View,
)
from d20combat.rulesets.components.concealment import StrongestConcealment
from d20combat.rulesets.components.conditions import NamedConditions
from d20combat.rulesets.components.cover import CornerCover
from d20combat.rulesets.components.criticals import ThreatAndConfirm
from d20combat.rulesets.components.damage import HitPointDamage
from d20combat.rulesets.components.defense import ArmorClass
from d20combat.rulesets.components.economy import StandardMoveEconomy, TurnAllowance
from d20combat.rulesets.components.injury import HitPoints
from d20combat.rulesets.components.movement import GridMovement
from d20combat.rulesets.components.reactions import NoReactions, ThreatenedSquareAoO
from d20combat.rulesets.components.saves import D20Saves, Explained, SaveKind
from d20combat.rulesets.components.sheets import CoreSheets
from d20combat.rulesets.components.surprise import StealthSurprise
from d20combat.rulesets.components.tactics import CoreTactics
from d20combat.rulesets.components.turn_order import TurnOrder

__all__ = [
    "HOOKS",
    "ActionSet",
    "ActionSpec",
    "ArmorClass",
    "AttackInfo",
    "BudgetError",
    "Component",
    "CoreSheets",
    "CoreTactics",
    "CornerCover",
    "D20Attack",
    "D20Saves",
    "Explained",
    "GridMovement",
    "Handler",
    "HitPointDamage",
    "HitPoints",
    "NamedConditions",
    "NoActiveDefense",
    "NoReactions",
    "RuleError",
    "SaveKind",
    "StandardMoveEconomy",
    "StealthSurprise",
    "StrongestConcealment",
    "ThreatAndConfirm",
    "ThreatenedSquareAoO",
    "TurnAllowance",
    "TurnOrder",
    "View",
]
