"""What the game master's table accepts, checked at the door: its errors, the shipped examples, typed dice
(``d20=17``), actions and events as JSON. Everything here refuses bad input with a message naming the field."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.scenario import ScenarioError
from d20combat.scenario.loader import parse_scenario_text

Json = dict[str, Any]


class ServiceError(Exception):
    status = 400

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class NotFound(ServiceError):
    status = 404


class Stale(ServiceError):
    status = 409


class Rejected(ServiceError):
    """Malformed or illegal input: nothing changed."""

    status = 422


# ------------------------------------------------------------------------------------------ examples
def examples_dir() -> Path | None:
    """The shipped ``examples/`` folder: ``$D20COMBAT_EXAMPLES``, the repository's (a source checkout or
    an editable install), or one installed beside the package."""
    here = Path(__file__).resolve().parent.parent  # src/d20combat
    candidates = [Path(p) for p in [os.environ.get("D20COMBAT_EXAMPLES")] if p]
    candidates += [here.parent.parent / "examples", here / "examples"]
    return next((p for p in candidates if p.is_dir()), None)


def example_names() -> list[str]:
    folder = examples_dir()
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder is not None else []


def read_example(name: str) -> Json:
    folder = examples_dir()
    names = example_names()
    if folder is None or name not in names:
        raise Rejected(f"example: no example {name!r} (known: {', '.join(names) or 'none'})")
    try:
        return parse_scenario_text((folder / f"{name}.yaml").read_text(encoding="utf-8"), name)
    except ScenarioError as exc:
        raise Rejected(f"example {name}: " + "; ".join(exc.problems)) from None


# ------------------------------------------------------------------------------------------ dice
_DIE = re.compile(r"^\s*d(\d{1,4}|%)\s*=\s*(\d{1,6})\s*$", re.IGNORECASE)


def parse_dice(texts: Iterable[str]) -> list[tuple[int, int]]:
    """``["d20=17", "d8=5"]`` → ``[(20, 17), (8, 5)]``; a malformed or impossible die is rejected by index."""
    out: list[tuple[int, int]] = []
    for i, text in enumerate(texts):
        m = _DIE.match(text)
        if m is None:
            raise Rejected(f"dice[{i}]: {text!r} is not a typed die like 'd20=17'")
        sides = 100 if m[1] == "%" else int(m[1])
        face = int(m[2])
        if m[1] == "%" and face == 0:
            face = 100  # "00" on a d% reads as 100
        if sides < 2:
            raise Rejected(f"dice[{i}] {text!r}: there is no d{sides}")
        if not 1 <= face <= sides:
            raise Rejected(f"dice[{i}] {text!r}: a d{sides} cannot show {face} (1–{sides})")
        out.append((sides, face))
    return out


def write_seed(seed: int, version: int) -> int:
    """The dice seed of the write that makes ``version``: a function of the encounter's seed and the version."""
    digest = hashlib.sha256(f"d20combat/{seed}/{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


# ------------------------------------------------------------------------------------------ actions
def action_from_data(data: Json, own_actions: tuple[type[Any], ...]) -> ax.Action:
    """An engine action from validated JSON fields (``kind`` plus the fields given), the encounter's
    ruleset's own action types first. A field the action does not have is named."""
    fields = dict(data)
    kind = str(fields.pop("kind", None))
    cls = {c.kind: c for c in own_actions}.get(kind) or ax.ACTION_TYPES.get(kind)
    if cls is not None:
        names = {f.name for f in dataclasses.fields(cls)}
        extra = sorted(set(fields) - names)
        if extra:
            raise Rejected(f"action.{extra[0]}: {kind} has no such field in this ruleset "
                           f"(its fields: {', '.join(sorted(names)) or 'none'})")
    try:
        return ax.action_from_dict(dict(data), own_actions)
    except ValueError as exc:
        raise Rejected(f"action.kind: {exc}" if cls is None else f"action: {exc}") from None


# ------------------------------------------------------------------------------------------ events
@cache
def _event_adapter(kind: str) -> TypeAdapter[Any]:
    return TypeAdapter(ev.EVENT_TYPES[kind])


def event_from_json(data: Any, where: str) -> ev.Event:
    """A stored or imported event, every field type-checked (the path of a bad one is named)."""
    if not isinstance(data, dict):
        raise Rejected(f"{where}: an event is an object with a 'kind'")
    kind = data.get("kind")
    if kind not in ev.EVENT_TYPES:
        raise Rejected(f"{where}.kind: unknown event kind {kind!r}")
    fields = {f.name for f in dataclasses.fields(ev.EVENT_TYPES[kind])}
    body = {k: v for k, v in data.items() if k != "kind"}
    extra = sorted(set(body) - fields)
    if extra:
        raise Rejected(f"{where}.{extra[0]}: not a field of {kind}")
    try:
        event: ev.Event = _event_adapter(kind).validate_python(body)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err["loc"])
        raise Rejected(f"{where}{loc}: {err['msg']}") from None
    return event


