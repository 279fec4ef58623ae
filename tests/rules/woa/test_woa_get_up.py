"""WOA-MOVE-35..42: WOA's own getting up is its own action kind, ``get_up`` (``to``/``slowly``/``path``), beside the
core's ``stand_up`` (no fields), which WOA rules as ``get_up`` to standing at once."""

from __future__ import annotations

import pytest
from tests.rules.woa._util import declare_all
from tests.rules.woa.test_woa_move import moved, solo

from d20combat.controllers.ai import TacticalAI
from d20combat.encounter import actions as ax
from d20combat.encounter.engine import IllegalAction
from d20combat.encounter.registry import ActionRegistry
from d20combat.rulesets.worlds_of_adventure.actions import provokes
from d20combat.rulesets.worlds_of_adventure.postures import GetUp


def test_woa_move_35_get_up_is_a_kind_of_its_own_and_stand_up_keeps_no_fields() -> None:
    """WOA-MOVE-35..42: ``get_up`` carries the text's choices; the core's ``stand_up`` still has no field, so
    ``to`` on it is refused, naming the field."""
    enc = solo()
    registry = ActionRegistry(enc.ruleset)
    assert GetUp.kind == "get_up" != ax.StandUp.kind
    assert registry.from_dict({"kind": "stand_up"}) == ax.StandUp()
    assert registry.from_dict({"kind": "get_up", "slowly": True}) == GetUp(slowly=True)
    with pytest.raises(ValueError, match=r"stand_up\.to: stand_up has no such field"):
        registry.from_dict({"kind": "stand_up", "to": "crouching"})


def test_woa_move_36_the_cores_stand_up_is_ruled_as_getting_up() -> None:
    """WOA-MOVE-36/38: ``stand_up`` from prone under WOA counts as moving max(speed 30, 2 × step 5) = 30 ft (a
    ``rise``), one move action, and rules out the short step — as ``get_up`` does."""
    for action in (ax.StandUp(), GetUp()):
        enc = solo(conditions=("prone",))
        declare_all(enc, ax.Declare(move="move"))
        enc.act(action)
        rise = moved(enc)[-1]
        assert (rise.mode, rise.cost_ft) == ("rise", 30)
        assert "prone" not in enc.state.get("hero").conditions
        with pytest.raises(IllegalAction, match="WOA-MOVE-15/26/38"):
            enc.act(ax.Step((2, 1)))


def test_woa_move_35_a_prone_creature_is_offered_standing_up_and_the_crouch_once_each() -> None:
    """WOA-MOVE-35/36: the options of a prone creature: ``stand_up`` (the core's) and ``get_up`` to a crouch, no
    second "stand up"; a standing creature is offered neither."""
    enc = solo(conditions=("prone",))
    declare_all(enc, ax.Declare(move="move"))
    rising = [a for a in enc.legal_actions() if a.kind in ("stand_up", "get_up")]
    assert rising == [ax.StandUp(), GetUp(to="crouching")]
    enc2 = solo()
    declare_all(enc2, ax.Declare(move="move"))
    assert not [a for a in enc2.legal_actions() if a.kind in ("stand_up", "get_up")]


def test_woa_move_37_the_ai_gets_up_from_prone() -> None:
    """WOA-MOVE-37: a prone creature run by the AI gets up with its move action (it used to end its turn: the core's
    ``stand_up`` was not an action of WOA)."""
    enc = solo(conditions=("prone",))
    declare_all(enc, ax.Declare(move="move"))
    assert TacticalAI().choose(enc) == ax.StandUp()


def test_woa_move_39_get_up_provokes_and_is_covered_by_a_declared_move() -> None:
    """WOA-MOVE-39, WOA-CYCLE-21: the table marks ``get_up`` as provoking movement, and a declared move action may
    be spent on it."""
    assert provokes(GetUp()) and provokes(ax.StandUp())
    enc = solo(conditions=("prone",))
    declare_all(enc, ax.Declare(move="move"))
    enc.act(GetUp(to="crouching"))
    assert enc.state.get("hero").has("crouching")
