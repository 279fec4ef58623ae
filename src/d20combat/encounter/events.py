"""Events: the only way state changes. The event log *is* the encounter (replay, undo, save).

Each event is a frozen dataclass with a ``kind``; it serializes to one JSON line with sorted keys,
so the same seed and the same decisions give a byte-identical log.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from d20combat.encounter.event_base import Event as Event
from d20combat.encounter.round_events import DeclarationRuled as DeclarationRuled
from d20combat.encounter.round_events import DeclarationsOpened as DeclarationsOpened
from d20combat.encounter.round_events import Declared as Declared


@dataclass(frozen=True, slots=True)
class EncounterStarted(Event):
    kind: ClassVar[str] = "encounter_started"
    scenario: dict[str, Any]


@dataclass(frozen=True, slots=True)
class SurpriseDetermined(Event):
    kind: ClassVar[str] = "surprise_determined"
    quiet_defaults: ClassVar[tuple[str, ...]] = ("round", "verdict")
    surprised: list[str]
    details: list[str]
    round: bool = False
    """A surprise round although nobody is surprised (EP-SURP-17)."""
    verdict: str = ""
    """Why, naming no hidden creature (EP's ambush check): shown whoever reads."""

    def explain(self) -> str:
        why = f" {self.verdict}" if self.verdict else ""
        if not self.surprised and self.round:
            return "Nobody is surprised, but there is a surprise round (EP-SURP-17)." + why
        if not self.surprised:
            return "Nobody is surprised: no surprise round." + why
        return "Surprised: " + ", ".join(self.surprised) + ". " + " ".join(self.details)


@dataclass(frozen=True, slots=True)
class InitiativeRolled(Event):
    kind: ClassVar[str] = "initiative_rolled"
    combatant: str
    total: int
    explanation: str

    def explain(self) -> str:
        return f"{self.combatant} initiative {self.explanation}"


@dataclass(frozen=True, slots=True)
class OrderSet(Event):
    kind: ClassVar[str] = "order_set"
    quiet_defaults: ClassVar[tuple[str, ...]] = ("turn_index_shift",)
    order: list[str]
    tie_breaks: list[str]
    turn_index_shift: int = 0
    """How the current turn's index moves with a new order during a round (a creature held its action and
    moved, EP-ACT-50): the next creature to act stays the one it was."""


@dataclass(frozen=True, slots=True)
class EncounterClockSet(Event):
    """The round of the engine that is "round 1" of the current combat changes: after a surprise round
    (EP-SURP-23), or when the Maximum Encounter Length starts a new combat (EP-TIME-06/13)."""

    kind: ClassVar[str] = "encounter_clock_set"
    first_round: int
    reason: str = ""

    def explain(self) -> str:
        return self.reason


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    kind: ClassVar[str] = "round_started"
    round: int
    surprise: bool


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    kind: ClassVar[str] = "turn_started"
    combatant: str
    index: int
    pools: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TurnPoolsSet(Event):
    """The turn's pools once its start-of-turn steps are settled (a fear ended, a condition lifted…), when they
    differ from those :class:`TurnStarted` announced (issue 11, CMV-COND-28/29)."""

    kind: ClassVar[str] = "turn_pools_set"
    combatant: str
    pools: dict[str, int]
    reason: str = ""

    def explain(self) -> str:
        pools = ", ".join(f"{k} {v}" for k, v in sorted(self.pools.items()))
        return f"{self.combatant}'s actions this turn: {pools}" + (f" ({self.reason})" if self.reason else "")


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    kind: ClassVar[str] = "turn_ended"
    combatant: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class BudgetSpent(Event):
    """An action paid from the turn's budget (PFB-ACT-06). ``cost``: standard, move, standard-as-move,
    full-round, free, or none."""

    kind: ClassVar[str] = "budget_spent"
    combatant: str
    action: str
    cost: str
    spend: dict[str, int] = field(default_factory=dict)

    def explain(self) -> str:
        return f"{self.combatant}: {self.action} ({self.cost} action)" if self.cost != "none" else ""


@dataclass(frozen=True, slots=True)
class ReactionsSet(Event):
    """A creature's off-turn resources for the round (attacks of opportunity, reserve…)."""

    kind: ClassVar[str] = "reactions_set"
    combatant: str
    pools: dict[str, int]


@dataclass(frozen=True, slots=True)
class ReactionSpent(Event):
    kind: ClassVar[str] = "reaction_spent"
    combatant: str
    pool: str
    reaction: str

    def explain(self) -> str:
        return f"{self.combatant} reacts: {self.reaction}"


@dataclass(frozen=True, slots=True)
class Moved(Event):
    kind: ClassVar[str] = "moved"
    combatant: str
    path: list[list[int]]
    cost_ft: int
    diagonals: int
    mode: str

    def explain(self) -> str:
        end = self.path[-1] if self.path else None
        return f"{self.combatant} {self.mode}s to ({end[0]},{end[1]}) — {self.cost_ft} ft" if end else ""


@dataclass(frozen=True, slots=True)
class AttackResolved(Event):
    kind: ClassVar[str] = "attack_resolved"
    attacker: str
    target: str
    attack: str
    hit: bool
    critical: bool
    lines: list[str]

    def explain(self) -> str:
        return "\n".join(self.lines)


@dataclass(frozen=True, slots=True)
class Damaged(Event):
    kind: ClassVar[str] = "damaged"
    target: str
    amount: int
    source: str
    explanation: str

    def explain(self) -> str:
        return self.explanation


@dataclass(frozen=True, slots=True)
class Healed(Event):
    kind: ClassVar[str] = "healed"
    target: str
    amount: int
    source: str

    def explain(self) -> str:
        return f"{self.target} heals {self.amount} ({self.source})"


_FEARS = ("shaken", "frightened", "panicked")


def condition_label(text: str) -> str:
    """A condition as a person reads it, never its engine syntax: ``"panicked:valeros:12"`` →
    ``"panicked (by valeros, Will DC 12)"``, ``"held:18"`` → ``"held (escape DC 18)"``, ``"concealed:30"`` →
    ``"concealed (30%)"``, ``"flat_footed"`` → ``"flat-footed"``; anything else ``"name (arg, arg)"``."""
    name, *raw = text.split(":")
    name = name.strip().replace("_", "-")
    args = [a.strip() for a in raw if a.strip()]
    if not args:
        return name
    if name in _FEARS:
        parts = [f"by {args[0]}"] + [f"Will DC {a}" if a.isdigit() else a for a in args[1:]]
    elif name == "held" and args[0].isdigit():
        parts = [f"escape DC {args[0]}", *args[1:]]
    elif name == "concealed" and args[0].isdigit():
        parts = [f"{args[0]}%", *args[1:]]
    elif name == "wound-points":
        return f"wound points {' '.join(args)}"
    else:
        parts = args
    return f"{name} ({', '.join(parts)})"


@dataclass(frozen=True, slots=True)
class ConditionSet(Event):
    kind: ClassVar[str] = "condition_set"
    target: str
    condition: str
    present: bool
    reason: str = ""

    def explain(self) -> str:
        verb = "is" if self.present else "is no longer"
        return f"{self.target} {verb} {condition_label(self.condition)}" + (f" ({self.reason})" if self.reason else "")


@dataclass(frozen=True, slots=True)
class Stabilized(Event):
    kind: ClassVar[str] = "stabilized"
    target: str
    explanation: str

    def explain(self) -> str:
        return self.explanation


@dataclass(frozen=True, slots=True)
class EffectAdded(Event):
    kind: ClassVar[str] = "effect_added"
    quiet_defaults: ClassVar[tuple[str, ...]] = ("condition",)
    target: str
    name: str
    anchor: str
    until_round: int
    ac: int = 0
    attack: int = 0
    condition: str = ""
    """A condition the effect brings while it lasts (``blur`` → ``concealed:20``), set alongside and lifted when it
    ends (issue 13: the GM's timed effects)."""

    def explain(self) -> str:
        parts = [f"AC {self.ac:+d}" if self.ac else "", f"attack {self.attack:+d}" if self.attack else "",
                 condition_label(self.condition) if self.condition else ""]
        what = ", ".join(p for p in parts if p)
        return (f"{self.target}: {self.name}" + (f" ({what})" if what else "")
                + f" until just before {self.anchor}'s turn in round {self.until_round}")


@dataclass(frozen=True, slots=True)
class EffectEnded(Event):
    kind: ClassVar[str] = "effect_ended"
    target: str
    name: str

    def explain(self) -> str:
        return f"{self.target}: {self.name} ends"


@dataclass(frozen=True, slots=True)
class GmEdited(Event):
    """The first event of every write the game master makes by hand (issue 13): who did it and what, in words.
    The events after it are the edit itself (damage, a condition, an effect, a creature added…)."""

    kind: ClassVar[str] = "gm_edited"
    by: str
    text: str
    target: str = ""

    def explain(self) -> str:
        return f"{self.by}: {self.text}"


@dataclass(frozen=True, slots=True)
class CreatureAdded(Event):
    """A creature joins the battle mid-fight (the GM's reinforcements): its completed stat block (what the
    ruleset's sheet step made of it), where it stands, and its place in the initiative order."""

    kind: ClassVar[str] = "creature_added"
    combatant: str
    name: str
    side: str
    sheet: dict[str, Any]
    position: list[int]
    hp: int
    wielding: str | None
    initiative: int
    order: list[str]
    """The initiative order with it (its place decided by ``initiative``; ties after those already there)."""
    sneaky: bool = False

    def explain(self) -> str:
        return (f"{self.name} ({self.side}) joins the battle at ({self.position[0]},{self.position[1]}), "
                f"initiative {self.initiative}")


@dataclass(frozen=True, slots=True)
class CreatureRemoved(Event):
    """The GM takes a creature off the table (it leaves the order; undo puts it back)."""

    kind: ClassVar[str] = "creature_removed"
    combatant: str

    def explain(self) -> str:
        return f"{self.combatant} is removed from the battle"


@dataclass(frozen=True, slots=True)
class SaveRolled(Event):
    """A saving throw or skill check the GM called for (issue 13): the d20, its total with every modifier, the DC."""

    kind: ClassVar[str] = "save_rolled"
    target: str
    check: str
    """``fort``, ``ref``, ``will`` (a saving throw) or a skill's name (a check)."""
    dc: int
    total: int
    success: bool
    explanation: str

    def explain(self) -> str:
        return self.explanation


@dataclass(frozen=True, slots=True)
class EquipmentChanged(Event):
    kind: ClassVar[str] = "equipment_changed"
    combatant: str
    wielding: str | None
    shield_state: str
    loaded: list[str]
    note: str

    def explain(self) -> str:
        return f"{self.combatant} {self.note}"


@dataclass(frozen=True, slots=True)
class Note(Event):
    """Something worth telling that changes nothing (a speech, a failed dying check's roll…)."""

    kind: ClassVar[str] = "note"
    text: str

    def explain(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class EncounterEnded(Event):
    kind: ClassVar[str] = "encounter_ended"
    winner: str | None
    reason: str

    def explain(self) -> str:
        return f"Combat ends: {self.reason}"


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        EncounterStarted, SurpriseDetermined, InitiativeRolled, OrderSet, RoundStarted, TurnStarted,
        TurnPoolsSet, TurnEnded, BudgetSpent, ReactionsSet, ReactionSpent, Moved, AttackResolved, Damaged, Healed,
        ConditionSet, Stabilized,
        EffectAdded, EffectEnded, EquipmentChanged, Note, EncounterEnded, GmEdited, CreatureAdded, CreatureRemoved,
        SaveRolled, EncounterClockSet, DeclarationsOpened, Declared,
        DeclarationRuled,
    )
}


def event_from_dict(data: dict[str, Any]) -> Event:
    data = dict(data)
    kind = data.pop("kind")
    cls = EVENT_TYPES[kind]
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in data.items() if k in names})
