"""Builders for the worlds-of-adventure ruleset tests: the shared ones (``tests/rules/_builders.py``) and a WOA
encounter whose round opens with everyone's declarations (the initiative dice come after them)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tests.rules._builders import encounter, stats

from d20combat.encounter import actions as ax
from d20combat.encounter.engine import Encounter

HERO = stats("hero", hp=30, attack_bonus=5, abilities={"dex": 14}, saves={"ref": 4},
             attacks=[{"weapon": "longsword"}])
"""Initiative +4 (base Ref 2 + Dex 2)."""
ORC = stats("orc", hp=10, attack_bonus=3, abilities={"dex": 10}, saves={"ref": 1}, attacks=[{"weapon": "club"}])
"""Initiative +1 (base Ref 1 + Dex 0)."""


def who(cid: str, block: dict[str, Any], side: str, pos: tuple[int, int], **extra: Any) -> dict[str, Any]:
    return {"id": cid, "stats": block, "side": side, "position": list(pos), **extra}


def woa(combatants: list[dict[str, Any]], dice: Iterable[int] = (), **kw: Any) -> Encounter:
    """A worlds-of-adventure encounter (``encounter``'s keywords: rows, width, height, variants, start…)."""
    return encounter("worlds-of-adventure", combatants, dice, **kw)


def pass_surprise_attacks(enc: Encounter) -> None:
    """The aware let their surprise attacks go (WOA-CYCLE-07): each passes its turn; round 1 of the combat begins."""
    while enc.state.surprise_round and not enc.state.ended:
        enc.act(ax.EndTurn())


def declare_all(enc: Encounter, *declarations: ax.Declare) -> None:
    """Each declaring creature in turn declares the next of ``declarations`` (nothing when they run out); the
    surprise attacks before round 1, if any, are passed first."""
    pass_surprise_attacks(enc)
    given = list(declarations)
    while enc.state.declaring:
        enc.act(given.pop(0) if given else ax.Declare())
