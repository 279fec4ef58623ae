"""What a controller can ask for. Actions are plain values; the engine validates and resolves them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any, ClassVar, Literal

from d20combat.battlefield.grid import Square


@dataclass(frozen=True, slots=True)
class Action:
    kind: ClassVar[str] = "action"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **asdict(self)}

    def describe(self) -> str:
        fields = ", ".join(f"{k}={v}" for k, v in asdict(self).items() if v is not None)
        return f"{self.kind}({fields})" if fields else self.kind


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Move up to speed with a move action (or the standard action, PFB-MOVE-06/11). Give ``to`` (the
    engine finds the cheapest legal path) or an explicit ``path`` of successive squares."""

    kind: ClassVar[str] = "move"
    to: Square | None = None
    path: tuple[Square, ...] | None = None
    draw: str | None = None
    shield: Literal["strap", "remove"] | None = None


@dataclass(frozen=True, slots=True)
class Step(Action):
    """The 5-foot step (PFB-MOVE-01..05)."""

    kind: ClassVar[str] = "step"
    to: Square = (0, 0)


@dataclass(frozen=True, slots=True)
class MinimumMove(Action):
    """A full round to move one square whatever it costs (PFB-MOVE-25/26)."""

    kind: ClassVar[str] = "minimum_move"
    to: Square = (0, 0)


@dataclass(frozen=True, slots=True)
class ClimbOrSwim(Action):
    """Climb or swim along ``path`` with a move action: a Climb or Swim check against the hardest
    square's DC moves up to a quarter of your speed (at least one square); failure, no progress
    (PFB-MOVE-07, PF1 CRB default)."""

    kind: ClassVar[str] = "climb_or_swim"
    path: tuple[Square, ...] = ()


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """A melee or ranged attack, a standard action (PFB-ATK-01/03). ``square`` is the square guessed
    for a target with total concealment (PFB-CONC-12)."""

    kind: ClassVar[str] = "attack"
    target: str = ""
    attack: str | None = None
    square: Square | None = None
    critical: int = 0
    """A declared critical attack's penalty (−1..−5), for rulesets that have them (SKL)."""


@dataclass(frozen=True, slots=True)
class Charge(Action):
    """Charge (PFB-CHG): move and one melee attack with move + standard action."""

    kind: ClassVar[str] = "charge"
    target: str = ""
    attack: str | None = None
    to: Square | None = None
    draw: str | None = None


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Draw a weapon (PFB-ITEM-01), a move action."""

    kind: ClassVar[str] = "draw"
    attack: str = ""


@dataclass(frozen=True, slots=True)
class Sheathe(Action):
    """Put the wielded weapon away (PFB-ITEM-02), a move action."""

    kind: ClassVar[str] = "sheathe"


@dataclass(frozen=True, slots=True)
class ShieldAction(Action):
    """Strap on or remove a shield (move action, PFB-ITEM-09/10), or drop a held one (free, PFB-ITEM-12)."""

    kind: ClassVar[str] = "shield"
    op: Literal["strap", "remove", "drop"] = "strap"


@dataclass(frozen=True, slots=True)
class DropItem(Action):
    """Drop a held item into your square or an adjacent one (free, PFB-ACT-15)."""

    kind: ClassVar[str] = "drop_item"
    item: str = ""


@dataclass(frozen=True, slots=True)
class DropProne(Action):
    """Drop prone in your square (free, PFB-ACT-16)."""

    kind: ClassVar[str] = "drop_prone"


@dataclass(frozen=True, slots=True)
class StandUp(Action):
    """Stand up from prone (move, PFB-ACT-21)."""

    kind: ClassVar[str] = "stand_up"


@dataclass(frozen=True, slots=True)
class Reload(Action):
    """Reload a crossbow: light = move, heavy = full round (PFB-ITEM-08)."""

    kind: ClassVar[str] = "reload"
    attack: str = ""


@dataclass(frozen=True, slots=True)
class Activity(Action):
    """Any other named activity; its cost comes from the action catalogue (data/actions.yaml)."""

    kind: ClassVar[str] = "activity"
    name: str = ""


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    kind: ClassVar[str] = "end_turn"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (Move, Step, MinimumMove, ClimbOrSwim, Attack, Charge, Draw, Sheathe, ShieldAction, DropItem, DropProne,
                StandUp, Reload, Activity, EndTurn)
}


def action_from_dict(data: dict[str, Any], own_actions: Iterable[type[Action]] = ()) -> Action:
    """Build an action from JSON-like data; raises ``ValueError`` naming the problem.

    ``own_actions`` are the encounter's ruleset's own action types (``ruleset.actions.types()``, or
    :meth:`d20combat.encounter.registry.ActionRegistry.from_dict`); without them only the core's kinds are
    known. There is no global registry: two rulesets may each define an action of the same kind."""
    data = dict(data)
    kind = data.pop("kind", None)
    own = {c.kind: c for c in own_actions}
    cls: type[Action] | None = own.get(str(kind)) or ACTION_TYPES.get(str(kind))
    if cls is None:
        known = sorted({*ACTION_TYPES, *own})
        raise ValueError(f"unknown action kind {kind!r}; known: {', '.join(known)}")
    for key in ("to", "square"):
        if data.get(key) is not None:
            data[key] = tuple(data[key])
    if data.get("path") is not None:
        data["path"] = tuple(tuple(p) for p in data["path"])
    try:
        return cls(**data)
    except TypeError as exc:
        raise ValueError(f"{kind}: {exc}") from None
