"""What a controller can ask for. Actions are plain values; the engine validates and resolves them."""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import Any, ClassVar, Literal, Union, get_args, get_origin, get_type_hints

from d20combat.battlefield.grid import Square
from d20combat.errors import D20CombatError


class ActionFormatError(D20CombatError):
    """Action data (JSON-like) that makes no action: an unknown kind, a field the action does not have, a value of
    the wrong type or outside its list. The message names the field. Whether a well-formed action is legal now is
    the engine's question (:class:`d20combat.encounter.resolution.IllegalAction`)."""


@dataclass(frozen=True, slots=True)
class Action:
    kind: ClassVar[str] = "action"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **asdict(self)}

    def describe(self) -> str:
        fields = ", ".join(f"{k}={v}" for k, v in asdict(self).items() if v is not None)
        return f"{self.kind}({fields})" if fields else self.kind

    def label(self, name: Callable[[str], str] = str) -> str:
        """The action as a person reads it ("Attack Goblin with longsword"); ``name`` turns a combatant's id into
        its name. This default names the kind and the fields that differ from their defaults; actions override."""
        parts = []
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value == f.default or value in (None, "", ()):
                continue
            if f.name in ("target", "ally"):
                parts.append(name(value))
            elif isinstance(value, bool):
                parts.append(f.name.replace("_", " "))
            else:
                parts.append(f"{f.name.replace('_', ' ')} {_square(value) if _is_square(value) else value}")
        text = self.kind.replace("_", " ").capitalize()
        return f"{text}: {', '.join(parts)}" if parts else text


def _is_square(value: object) -> bool:
    return isinstance(value, tuple | list) and len(value) == 2 and all(isinstance(v, int) for v in value)


def _square(value: Any) -> str:
    return f"({value[0]}, {value[1]})"


def _with(attack: str | None) -> str:
    return f" with {attack}" if attack else ""


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Move up to speed with a move action (or the standard action, PFB-MOVE-06/11). Give ``to`` (the
    engine finds the cheapest legal path) or an explicit ``path`` of successive squares."""

    kind: ClassVar[str] = "move"
    to: Square | None = None
    path: tuple[Square, ...] | None = None
    draw: str | None = None
    shield: Literal["strap", "remove"] | None = None

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Move to {_square(self.to)}" if self.to is not None else "Move along a path"


@dataclass(frozen=True, slots=True)
class Step(Action):
    """The 5-foot step (PFB-MOVE-01..05)."""

    kind: ClassVar[str] = "step"
    to: Square = (0, 0)

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"5-ft step to {_square(self.to)}"


@dataclass(frozen=True, slots=True)
class MinimumMove(Action):
    """A full round to move one square whatever it costs (PFB-MOVE-25/26)."""

    kind: ClassVar[str] = "minimum_move"
    to: Square = (0, 0)

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Minimum move to {_square(self.to)}"


@dataclass(frozen=True, slots=True)
class ClimbOrSwim(Action):
    """Climb or swim along ``path`` with a move action: a Climb or Swim check against the hardest
    square's DC moves up to a quarter of your speed (at least one square); failure, no progress
    (PFB-MOVE-07, PF1 CRB default)."""

    kind: ClassVar[str] = "climb_or_swim"
    path: tuple[Square, ...] = ()

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Climb or swim to {_square(self.path[-1])}" if self.path else "Climb or swim"


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

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Attack {name(self.target)}{_with(self.attack)}" + (f" (critical attack {self.critical})"
                                                                     if self.critical else "")


@dataclass(frozen=True, slots=True)
class Charge(Action):
    """Charge (PFB-CHG): move and one melee attack with move + standard action."""

    kind: ClassVar[str] = "charge"
    target: str = ""
    attack: str | None = None
    to: Square | None = None
    draw: str | None = None

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Charge {name(self.target)}{_with(self.attack)}" + (f" to {_square(self.to)}" if self.to else "")


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Draw a weapon (PFB-ITEM-01), a move action."""

    kind: ClassVar[str] = "draw"
    attack: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Draw {self.attack}"


@dataclass(frozen=True, slots=True)
class Sheathe(Action):
    """Put the wielded weapon away (PFB-ITEM-02), a move action."""

    kind: ClassVar[str] = "sheathe"

    def label(self, name: Callable[[str], str] = str) -> str:
        return "Sheathe the weapon in hand"


@dataclass(frozen=True, slots=True)
class ShieldAction(Action):
    """Strap on or remove a shield (move action, PFB-ITEM-09/10), or drop a held one (free, PFB-ITEM-12)."""

    kind: ClassVar[str] = "shield"
    op: Literal["strap", "remove", "drop"] = "strap"

    def label(self, name: Callable[[str], str] = str) -> str:
        return {"strap": "Strap on the shield", "remove": "Take off the shield", "drop": "Drop the shield"}[self.op]


@dataclass(frozen=True, slots=True)
class DropItem(Action):
    """Drop a held item into your square or an adjacent one (free, PFB-ACT-15)."""

    kind: ClassVar[str] = "drop_item"
    item: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Drop {self.item}"


@dataclass(frozen=True, slots=True)
class DropProne(Action):
    """Drop prone in your square (free, PFB-ACT-16)."""

    kind: ClassVar[str] = "drop_prone"

    def label(self, name: Callable[[str], str] = str) -> str:
        return "Drop prone"


@dataclass(frozen=True, slots=True)
class StandUp(Action):
    """Stand up from prone (move, PFB-ACT-21)."""

    kind: ClassVar[str] = "stand_up"

    def label(self, name: Callable[[str], str] = str) -> str:
        return "Stand up"


@dataclass(frozen=True, slots=True)
class Reload(Action):
    """Reload a crossbow: light = move, heavy = full round (PFB-ITEM-08)."""

    kind: ClassVar[str] = "reload"
    attack: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Reload {self.attack}"


@dataclass(frozen=True, slots=True)
class Activity(Action):
    """Any other named activity; its cost comes from the action catalogue (data/actions.yaml)."""

    kind: ClassVar[str] = "activity"
    name: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return self.name.capitalize() if self.name else "Activity"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    kind: ClassVar[str] = "end_turn"

    def label(self, name: Callable[[str], str] = str) -> str:
        return "End the turn"


@dataclass(frozen=True, slots=True)
class Declare(Action):
    """A creature's declaration of its round in a declaration phase (WOA-CYCLE-14/15): the kinds of action it will
    take with its standard, move or full-round action (kinds of the ruleset's actions: ``attack``, ``move``,
    ``charge``, ``full_attack`` …), the creature it means to attack (``target``) and the creature it delays after
    (``after``, WOA-INIT-02). Free and swift actions and reactions are not declared (WOA-CYCLE-16). All fields
    empty: the creature declares nothing. Legal only while the creature declares; the ruleset's turn order says
    which declarations are legal and holds the creature to it on its turn."""

    kind: ClassVar[str] = "declare"
    standard: str = ""
    move: str = ""
    full_round: str = ""
    target: str | None = None
    after: str | None = None

    def text(self, name: Callable[[str], str] = str) -> str:
        """The declaration in words: "attack (Goblin) and move", "nothing"."""
        parts = [k.replace("_", " ") for k in (self.full_round, self.standard, self.move) if k]
        text = " and ".join(parts) or "nothing"
        if self.target:
            text += f" — at {name(self.target)}"
        if self.after:
            text += f", acting after {name(self.after)}"
        return text

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Declare: {self.text(name)}"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (Move, Step, MinimumMove, ClimbOrSwim, Attack, Charge, Draw, Sheathe, ShieldAction, DropItem, DropProne,
                StandUp, Reload, Activity, EndTurn, Declare)
}


def action_from_dict(data: Any, own_actions: Iterable[type[Action]] = ()) -> Action:
    """Build an action from JSON-like data; raises :class:`ActionFormatError` (a ``ValueError``) naming the field.

    ``own_actions`` are the encounter's ruleset's own action types (``ruleset.actions.types()``, or
    :meth:`d20combat.encounter.registry.ActionRegistry.from_dict`); without them only the core's kinds are
    known. There is no global registry: two rulesets may each define an action of the same kind.

    Every field is checked against the action's declared type: strings, integers (not booleans), booleans,
    squares ``[column, row]``, paths (lists of squares), a choice among listed values (``shield: strap|remove``);
    lists stand for tuples. A field left out takes its default."""
    if not isinstance(data, dict):
        raise ActionFormatError(f"an action is an object with a 'kind', not {type(data).__name__}")
    data = dict(data)
    kind = data.pop("kind", None)
    own = {c.kind: c for c in own_actions}
    cls: type[Action] | None = (own.get(kind) or ACTION_TYPES.get(kind)) if isinstance(kind, str) else None
    if cls is None:
        known = sorted({*ACTION_TYPES, *own})
        what = "missing" if kind is None else repr(kind)
        raise ActionFormatError(f"unknown action kind {what}; known: {', '.join(known)}")
    hints = _field_types(cls)
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in hints:
            raise ActionFormatError(f"{kind}.{key}: {kind} has no such field (its fields: "
                                    f"{', '.join(hints) or 'none'})")
        values[key] = _convert(f"{kind}.{key}", hints[key], value)
    try:
        return cls(**values)
    except TypeError as exc:  # a field without a default left out
        raise ActionFormatError(f"{kind}: {exc}") from None


_FIELD_TYPES: dict[type[Action], dict[str, Any]] = {}


def _field_types(cls: type[Action]) -> dict[str, Any]:
    """An action's fields and their declared types, in order (computed once per class)."""
    known = _FIELD_TYPES.get(cls)
    if known is None:
        hints = get_type_hints(cls)
        known = _FIELD_TYPES[cls] = {f.name: hints.get(f.name, Any) for f in dataclasses.fields(cls)}
    return known


def _describe(hint: Any) -> str:
    origin, args = get_origin(hint), get_args(hint)
    if hint is type(None):
        return "null"
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in args)
    if origin in (Union, types.UnionType):
        return " or ".join(_describe(a) for a in args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a list of ({_describe(args[0])})"
        return "[" + ", ".join(_describe(a) for a in args) + "]"
    return {str: "a string", int: "an integer", bool: "true or false", float: "a number"}.get(hint, str(hint))


def _convert(where: str, hint: Any, value: Any) -> Any:
    """``value`` as the declared type ``hint`` (lists become tuples), or :class:`ActionFormatError` naming ``where``."""
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any:
        return value
    if origin in (Union, types.UnionType):
        for option in args:
            try:
                return _convert(where, option, value)
            except ActionFormatError:
                continue
    elif origin is Literal:
        if any(value == a and type(value) is type(a) for a in args):
            return value
    elif origin is tuple:
        if isinstance(value, (list, tuple)):
            if len(args) == 2 and args[1] is Ellipsis:
                return tuple(_convert(f"{where}[{i}]", args[0], v) for i, v in enumerate(value))
            if len(value) == len(args):
                return tuple(_convert(f"{where}[{i}]", a, v) for i, (a, v) in enumerate(zip(args, value, strict=True)))
    elif hint is type(None):
        if value is None:
            return None
    elif hint is bool:
        if isinstance(value, bool):
            return value
    elif hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif hint is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    elif isinstance(hint, type):
        if isinstance(value, hint):
            return value
    else:
        return value
    raise ActionFormatError(f"{where}: {value!r} is not {_describe(hint)}")
