"""EP-MOVE-12: teleportation passes through blocked terrain, given line of sight and line of effect — the pathing
hook ``movement.teleport_problem`` a teleporting ability asks."""

from __future__ import annotations

from tests.rules.ep._util import FIGHTER, ep, stats

from d20combat.encounter.engine import Encounter
from d20combat.rulesets.epic_path.movement import teleport_problem

ROWS = ["...B....", "...B....", "...B...."]
"""A portcullis (blocked terrain, sight passes) across the whole map: walking cannot get past it."""


def scene(rows: list[str] = ROWS, **a: object) -> Encounter:
    return ep([{"id": "a", "side": "a", "stats": FIGHTER, "position": [2, 1], **a},
               {"id": "b", "side": "b", "stats": stats("b"), "position": [7, 2]}], rows=rows)


def problem(enc: Encounter, to: tuple[int, int], range_ft: int = 30) -> str | None:
    return teleport_problem(enc.view(), "a", to, range_ft)


def test_ep_move_12_teleport_through_blocked_terrain() -> None:
    """EP-MOVE-12: no walk reaches (5, 1) beyond the portcullis, a teleport does."""
    enc = scene()
    assert (5, 1) not in enc.move_options("a")
    assert problem(enc, (5, 1)) is None


def test_ep_move_12_not_without_line_of_effect() -> None:
    """EP-MOVE-12: a wall (``#``) blocks sight and effect: no teleport past it; nor when the teleporter is blind."""
    walled = scene([r.replace("B", "#") for r in ROWS])
    assert "no line of sight or effect" in (problem(walled, (5, 1)) or "")
    blind = scene(conditions=["blinded"])
    assert "blinded" in (problem(blind, (5, 1)) or "")


def test_ep_move_12_the_destination_must_be_open_and_in_range() -> None:
    """EP-MOVE-12: not into blocked terrain, an occupied square, off the map or beyond the range."""
    enc = scene()
    assert "cannot be occupied" in (problem(enc, (3, 1)) or "")
    assert "occupied" in (problem(enc, (7, 2)) or "")
    assert "off the map" in (problem(enc, (9, 1)) or "")
    assert "beyond the range of 10 ft" in (problem(enc, (5, 1), 10) or "")
