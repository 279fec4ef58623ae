"""Typed modifiers and the stacking rule that turns a list of them into a total with its breakdown.

Every number the engine shows can say where it came from: "17 = d20 9 + BAB 5 + Str 3".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

UNTYPED = ""


@dataclass(frozen=True, slots=True)
class Modifier:
    """``value`` from ``source``; ``type`` is the bonus type ("dodge", "armor", …) or "" for untyped."""

    value: int
    source: str
    type: str = UNTYPED

    def label(self) -> str:
        return f"{self.source} {abs(self.value)}"


StackingPolicy = Callable[[Sequence[Modifier]], tuple[tuple[Modifier, ...], tuple[Modifier, ...]]]
"""A stacking rule: modifiers -> (those that count, those that are dropped)."""


# Types whose bonuses always add up; everything else is "same type: only the highest".
_ALWAYS_STACK = frozenset({UNTYPED, "dodge"})


def core_stacking(mods: Sequence[Modifier]) -> tuple[tuple[Modifier, ...], tuple[Modifier, ...]]:
    """The shared default (rules-diff §2.0, PFB-AC-02): bonuses of one named type don't stack
    (the highest counts); untyped and dodge bonuses and every penalty add up."""
    best: dict[str, Modifier] = {}
    kept: list[Modifier] = []
    dropped: list[Modifier] = []
    for mod in mods:
        if mod.value < 0 or mod.type in _ALWAYS_STACK:
            kept.append(mod)
            continue
        current = best.get(mod.type)
        if current is None:
            best[mod.type] = mod
            kept.append(mod)
        elif mod.value > current.value:
            kept[kept.index(current)] = mod
            dropped.append(current)
            best[mod.type] = mod
        else:
            dropped.append(mod)
    return tuple(kept), tuple(dropped)


@dataclass(frozen=True, slots=True)
class Total:
    """A number with its parts: ``value = base + sum(parts)``."""

    value: int
    base: int
    base_label: str
    parts: tuple[Modifier, ...] = ()
    dropped: tuple[Modifier, ...] = ()

    def explain(self) -> str:
        """``"17 = d20 9 + BAB 5 + Str 3 − range 2"``; zero parts are left out."""
        text = f"{self.value} = {self.base_label} {self.base}" if self.base_label else f"{self.value} = {self.base}"
        for mod in self.parts:
            if mod.value == 0:
                continue
            text += f" {'+' if mod.value > 0 else '−'} {mod.source} {abs(mod.value)}"
        return text

    def explain_parts(self) -> str:
        """``"10 + armor 4 + Dex 1"`` (no leading total), for target numbers such as AC."""
        return self.explain().split(" = ", 1)[1]


def total(
    base: int,
    mods: Iterable[Modifier],
    *,
    base_label: str = "",
    stacking: StackingPolicy = core_stacking,
) -> Total:
    kept, dropped = stacking(tuple(mods))
    return Total(base + sum(m.value for m in kept), base, base_label, kept, dropped)
