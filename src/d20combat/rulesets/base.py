"""The ruleset seam: a ruleset is a composition of small policy components, one per policy area.

``rules-diff.md`` §3 names the areas where the five texts differ (turn order, action economy, cover…);
:class:`Policies` holds one component per area, and a ruleset is its id, its options model and a
``compose(options)`` that picks the components — a table of what its text changes. The core asks an
area's component (``ruleset.cover.find_cover(...)``), never which ruleset it runs. Components live in
``d20combat.rulesets.components`` (the core's and the shared ones) or in the ruleset's own package.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields, replace
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from d20combat.numbers import StackingPolicy, core_stacking
from d20combat.rulesets.components import (
    HOOKS,
    ActionSet,
    ArmorClass,
    AttackInfo,
    BudgetError,
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
    RuleError,
    StandardMoveEconomy,
    StealthSurprise,
    StrongestConcealment,
    ThreatAndConfirm,
    TurnAllowance,
    TurnOrder,
    View,
)

__all__ = ["AREAS", "AttackInfo", "BudgetError", "NoOptions", "Policies", "RuleError", "Ruleset", "TurnAllowance",
           "View"]


class NoOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass(frozen=True)
class Policies:
    """One component per policy area (rules-diff §3). The defaults are the core's: PFB's rule where PFB
    states one. The round-procedure hooks run on the components in this order."""

    stacking: StackingPolicy = core_stacking
    """P1 bonus stacking: which bonus types stack."""
    sheets: CoreSheets = field(default_factory=CoreSheets)
    """What a stat block must carry, and what the rules give every creature."""
    turn_order: TurnOrder = field(default_factory=TurnOrder)
    """P2 turn order: initiative."""
    surprise: StealthSurprise = field(default_factory=StealthSurprise)
    """P4 surprise: who is surprised."""
    conditions: NamedConditions = field(default_factory=NamedConditions)
    """P15 conditions: the condition table and its procedures."""
    saves: D20Saves = field(default_factory=D20Saves)
    """Saving throws and checks: their modifiers, natural 1 and 20, the explained bonus."""
    economy: StandardMoveEconomy = field(default_factory=StandardMoveEconomy)
    """P5 action economy: the turn's pools, paying for actions, off-turn pools."""
    movement: GridMovement = field(default_factory=GridMovement)
    """P6 movement: speed and movement knobs."""
    attack: D20Attack = field(default_factory=D20Attack)
    """P8 attack: modifiers, natural results, reach and range, legality."""
    defense: ArmorClass = field(default_factory=ArmorClass)
    """P9 defense: the target number, flat-footed."""
    active_defense: NoActiveDefense = field(default_factory=NoActiveDefense)
    """P10 active defense: responses around the attack roll."""
    criticals: ThreatAndConfirm = field(default_factory=ThreatAndConfirm)
    """P11 criticals."""
    damage: HitPointDamage = field(default_factory=HitPointDamage)
    """P12/P13 damage and mitigation."""
    injury: HitPoints = field(default_factory=HitPoints)
    """P14 injury and death: health states, who can act, dying."""
    cover: CornerCover = field(default_factory=CornerCover)
    """P17 cover."""
    concealment: StrongestConcealment = field(default_factory=StrongestConcealment)
    """P18 concealment."""
    reactions: NoReactions = field(default_factory=NoReactions)
    """P19 reactions: threatened squares, provocation, attacks of opportunity."""
    actions: ActionSet = field(default_factory=ActionSet)
    """The ruleset's own actions and vetoes."""
    tactics: CoreTactics = field(default_factory=CoreTactics)
    """P20 AI tactics the ruleset's rules recommend."""

    def replace(self, **changes: Any) -> Policies:
        """These policies with some areas swapped (a ruleset that changes one policy of another)."""
        return replace(self, **changes)


AREAS: tuple[str, ...] = tuple(f.name for f in fields(Policies))
_RULE_ID = re.compile(r"\b(?:PFB|CMV|SKL|EP|WOA)-[A-Z]+(?:-\d+[a-z]?(?:\.\.\d+|/\d+)*)?")


def compress_rule_ids(cited: Iterable[str]) -> tuple[str, ...]:
    """Rule IDs as docstrings cite them ("CMV-COND-17/19", "PFB-AC-01..06", "PFB-ATK") → one entry per rule
    area, its numbers sorted with runs joined: ("CMV-COND-17/19", "PFB-AC-01..06", …)."""
    numbers: dict[str, set[int]] = {}
    for token in cited:
        head, _, rest = token.rpartition("-") if token.count("-") >= 2 else (token, "", "")
        area = head if rest else token
        found = numbers.setdefault(area, set())
        for part in rest.split("/") if rest else ():
            lo, _, hi = part.partition("..")
            lo_n = int(re.sub(r"\D", "", lo) or 0)
            found.update(range(lo_n, int(hi) + 1) if hi else (lo_n,))
    out: list[str] = []
    for area in sorted(numbers):
        runs: list[str] = []
        ordered = sorted(numbers[area])
        i = 0
        while i < len(ordered):
            j = i
            while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
                j += 1
            runs.append(f"{ordered[i]:02d}" + (f"..{ordered[j]:02d}" if j > i + 1 else
                                                (f"/{ordered[j]:02d}" if j == i + 1 else "")))
            i = j + 1
        out.append(f"{area}-{'/'.join(runs)}" if runs else area)
    return tuple(out)


class Ruleset:
    """A named composition of policy components. Subclasses set ``id``, ``title``, ``Options`` and
    :meth:`compose`; nothing else."""

    id: ClassVar[str] = "core"
    title: ClassVar[str] = "core defaults"
    Options: ClassVar[type[BaseModel]] = NoOptions

    stacking: StackingPolicy
    sheets: CoreSheets
    turn_order: TurnOrder
    surprise: StealthSurprise
    conditions: NamedConditions
    saves: D20Saves
    economy: StandardMoveEconomy
    movement: GridMovement
    attack: D20Attack
    defense: ArmorClass
    active_defense: NoActiveDefense
    criticals: ThreatAndConfirm
    damage: HitPointDamage
    injury: HitPoints
    cover: CornerCover
    concealment: StrongestConcealment
    reactions: NoReactions
    actions: ActionSet
    tactics: CoreTactics

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        self.options = self.Options.model_validate(options or {})
        self.policies = self.compose(self.options)
        for area in AREAS:
            setattr(self, area, getattr(self.policies, area))
        for _, component in self.components():
            component.bind(self)
        self._hooks: dict[str, tuple[Callable[..., None], ...]] = {
            hook: tuple(getattr(c, hook) for _, c in self.components()
                        if getattr(type(c), hook) is not getattr(Component, hook))
            for hook in HOOKS
        }

    @classmethod
    def compose(cls, options: Any) -> Policies:
        """The components this ruleset plays with, built from its options (the core's by default)."""
        return Policies()

    def components(self) -> list[tuple[str, Component]]:
        """(area, component) for every area with a component (all but stacking), in hook order."""
        return [(area, c) for area in AREAS if isinstance(c := getattr(self.policies, area), Component)]

    def composition(self) -> list[tuple[str, str, tuple[str, ...]]]:
        """(area, component class, the rule IDs its docstrings cite) — the table of what this ruleset plays."""
        rows: list[tuple[str, str, tuple[str, ...]]] = []
        for area in AREAS:
            value = getattr(self.policies, area)
            cls = value if not isinstance(value, Component) else type(value)
            name = getattr(cls, "__qualname__", repr(cls))
            docs = [getattr(cls, "__doc__", None) or ""]
            if isinstance(cls, type):
                docs += [getattr(f, "__doc__", None) or "" for f in vars(cls).values() if callable(f)]
            rows.append((area, name, compress_rule_ids(i for d in docs for i in _RULE_ID.findall(d))))
        return rows

    # --- P3 round procedure: each hook runs on every component that takes part in it, in area order ----
    def start_of_round(self, view: View, round_no: int) -> None:
        for hook in self._hooks["start_of_round"]:
            hook(view, round_no)

    def start_of_turn(self, view: View, actor: str) -> None:
        for hook in self._hooks["start_of_turn"]:
            hook(view, actor)

    def end_of_turn(self, view: View, actor: str) -> None:
        for hook in self._hooks["end_of_turn"]:
            hook(view, actor)

    def end_of_round(self, view: View, round_no: int) -> None:
        for hook in self._hooks["end_of_round"]:
            hook(view, round_no)

    def after_damage(self, view: View, target: str, amount: int, hp_before: int) -> None:
        for hook in self._hooks["after_damage"]:
            hook(view, target, amount, hp_before)

    def after_attack(self, view: View, attack: AttackInfo, hit: bool) -> None:
        for hook in self._hooks["after_attack"]:
            hook(view, attack, hit)

    def after_action(self, view: View, actor: str) -> None:
        for hook in self._hooks["after_action"]:
            hook(view, actor)
