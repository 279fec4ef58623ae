"""The base of every event: a frozen dataclass with a ``kind`` that serializes to one JSON line with sorted keys
(:mod:`d20combat.encounter.events` lists them all)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any, ClassVar


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = "event"
    quiet_defaults: ClassVar[tuple[str, ...]] = ()
    """Fields added to an event after logs were recorded: left out of the JSON while they hold their default, so
    every log recorded before them stays byte-identical."""

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for name in self.quiet_defaults:
            if not data.get(name):
                data.pop(name, None)
        data["kind"] = self.kind
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def explain(self) -> str:
        return ""
