"""PFB-MOVE-07: climbing and swimming (the Climb and Swim rules are MISSING in the text; the engine
uses the PF1 CRB default the inventory proposes)."""

from __future__ import annotations

import pytest
from tests.conftest import make_encounter

from d20combat.encounter import actions as ax
from d20combat.encounter.engine import IllegalAction

ROWS = ["....ww....", "....ww....", "...^......", ".........."]



def test_pfb_move_07_ordinary_movement_cannot_enter_water_or_climb_surfaces() -> None:
    """PFB-MOVE-07: water and climbing surfaces are not entered by an ordinary move."""
    enc = make_encounter([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [3, 0]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [9, 3]},
    ], rows=ROWS)
    assert enc.check(ax.Move(to=(4, 0))) is not None
    assert enc.check(ax.Move(to=(3, 2))) is not None
    assert (6, 0) in enc.move_options("f")  # around the water is fine


def test_pfb_move_07_swim_check_moves_a_quarter_speed() -> None:
    """PFB-MOVE-07: Swim check (d20 + skill) vs DC 10 as a move action; speed 30 → 1 square (quarter, ≥ 5 ft)."""
    enc = make_encounter([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [3, 0]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [9, 3]},
    ], rows=ROWS, dice=[10])
    with pytest.raises(IllegalAction, match="quarter"):
        enc.act(ax.ClimbOrSwim(path=((4, 0), (5, 0))))
    events = enc.act(ax.ClimbOrSwim(path=((4, 0),)))
    assert enc.state.get("f").position == (4, 0)
    assert any(e.explain() == "f swim check 10 = d20 10 +0 vs DC 10: success" for e in events)
    assert enc.state.turn is not None and not enc.state.turn.move


def test_pfb_move_07_failed_climb_makes_no_progress_and_natural_20_is_not_automatic() -> None:
    """PFB-MOVE-07 with PFB-NAT-05: Climb DC 15; a fighter (Climb +0) rolling a natural 14 fails and
    stays; the check is a skill check, so only the total counts."""
    enc = make_encounter([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [3, 1]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [9, 3]},
    ], rows=ROWS, dice=[14, 20])
    enc.act(ax.ClimbOrSwim(path=((3, 2),)))
    assert enc.state.get("f").position == (3, 1)
    enc.act(ax.ClimbOrSwim(path=((3, 2),)))  # the standard action as a second move; 20 + 0 ≥ 15
    assert enc.state.get("f").position == (3, 2)


def test_pfb_move_07_climb_or_swim_needs_such_a_square() -> None:
    """PFB-MOVE-07: a path with no water or climbing square is an ordinary move, not a skill move."""
    enc = make_encounter([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [0, 3]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [9, 3]},
    ], rows=ROWS)
    before = enc.state
    with pytest.raises(IllegalAction, match="move instead"):
        enc.act(ax.ClimbOrSwim(path=((1, 3),)))
    assert enc.state is before
