"""Epic Path's maneuvers after a charge and out of a grapple: escaping a grapple (EP-MAN-03), the charging bull rush
(EP-MAN-04) from the standard action an action point grants after a charge (EP-MOVE-24), and no critical hit on a
maneuver (EP-CRIT-16)."""

from __future__ import annotations

import pytest
from tests.rules.ep._util import assert_illegal, ep, remaining, texts
from tests.rules.ep.test_ep_maneuvers import BRUTE, DUMMY

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.rulesets.epic_path.maneuvers import GRAPPLED, EscapeGrapple, Maneuver
from d20combat.rulesets.epic_path.turn_actions import SpendActionPoint


def charged(dice: list[int]) -> Encounter:
    """b charges d from 15 ft away and misses (a natural 1); its turn is then over (EP-MOVE-23)."""
    enc = ep([{"id": "b", "side": "a", "stats": BRUTE, "position": [0, 2]},
              {"id": "d", "side": "b", "stats": DUMMY, "position": [4, 2]}], dice=[1, *dice])
    enc.act(ax.Charge("d"))
    return enc


def test_ep_move_24_an_action_point_after_a_charge_grants_one_standard_action() -> None:
    """EP-MOVE-24: the charge ends the turn — no maneuver — unless an action point is spent, which grants one
    standard action (and only that: no move action)."""
    enc = charged([10, 10])
    assert_illegal(enc, Maneuver("d", "trip"), "standard action")
    enc.act(SpendActionPoint())
    assert enc.state.turn is not None and enc.state.turn.pools == {"standard": 1}
    enc.act(Maneuver("d", "trip"))
    assert enc.state.get("d").has("prone")
    assert_illegal(enc, Maneuver("d", "trip"), "standard action")


@pytest.mark.parametrize(("charge", "ok"), [(True, True), (False, False)])
def test_ep_man_04_a_charging_bull_rush_gets_plus_2(charge: bool, ok: bool) -> None:
    """EP-MAN-04: charging, +2 on the Maneuver Offense roll to bull rush: d20 6 + BAB 4 + Str 3 + 2 = 15 against
    Maneuver Defense 15 succeeds; without the charge 13 fails."""
    if charge:
        enc = charged([6])
        enc.act(SpendActionPoint())
    else:
        enc = ep([{"id": "b", "side": "a", "stats": BRUTE, "position": [2, 2]},
                  {"id": "d", "side": "b", "stats": DUMMY, "position": [3, 2]}], dice=[6])
    text = texts(enc.act(Maneuver("d", "bull rush")))
    assert ("+ charging (EP-MAN-04) 2" in text) is charge
    assert ("succeeds by 0" in text) is ok and ("fails" in text) is not ok


def test_ep_man_04_only_the_bull_rush() -> None:
    """EP-MAN-04: the +2 is for a bull rush only, not for a trip after the charge."""
    enc = charged([6])
    enc.act(SpendActionPoint())
    text = texts(enc.act(Maneuver("d", "trip")))
    assert "charging" not in text and "fails" in text


def grappled(dice: list[int], variants: dict[str, object] | None = None) -> Encounter:
    """b grapples d (d20 8 + 7 = 15 against 15), then d's turn begins."""
    enc = ep([{"id": "b", "side": "a", "stats": BRUTE, "position": [2, 2]},
              {"id": "d", "side": "b", "stats": DUMMY, "position": [3, 2]}], dice=[8, *dice], variants=variants)
    events = enc.act(Maneuver("d", "grapple"))
    assert enc.state.get("d").has(GRAPPLED) and "grappled by b" in texts(events)
    enc.act(ax.EndTurn())
    return enc


@pytest.mark.parametrize(("face", "ok"), [(14, True), (13, False)])
def test_ep_man_03_escape_a_grapple_is_a_standard_action(face: int, ok: bool) -> None:
    """EP-MAN-03 (AMBIGUOUS, default offense_vs_defense): a standard action; d20 + d's Maneuver Offense (BAB 2 +
    Str 1) against b's Maneuver Defense 17 (10 + BAB 4 + Str 3); only once a turn (the standard action is spent)."""
    enc = grappled([face])
    events = enc.act(EscapeGrapple("b"))
    spent = [e for e in events if isinstance(e, ev.BudgetSpent)]
    assert spent and spent[0].cost == "standard"
    assert f"Maneuver Offense {face + 3} = d20 {face} + BAB 2 + Str 1 vs Maneuver Defense 17" in texts(events)
    assert enc.state.get("d").has(GRAPPLED) is not ok
    if not ok:
        assert_illegal(enc, EscapeGrapple("b"), "standard action")


@pytest.mark.parametrize(("face", "ok"), [(12, True), (11, False)])
def test_ep_man_03_option_defense_roll(face: int, ok: bool) -> None:
    """EP-MAN-03, option ep_grapple_escape = defense_roll: d20 + d's Maneuver Defense − 10 (BAB 2 + Str 1 + Dex 2)
    against b's Maneuver Defense 17."""
    enc = grappled([face], {"ep_grapple_escape": "defense_roll"})
    text = texts(enc.act(EscapeGrapple("b")))
    assert f"Maneuver Defense {face + 5} = d20 {face} + BAB 2 + Str 1 + Dex 2 vs Maneuver Defense 17" in text
    assert enc.state.get("d").has(GRAPPLED) is not ok


def test_ep_man_03_bad_escapes_are_refused() -> None:
    """EP-MAN-03: only a grappled creature escapes, from a named creature; nothing is spent."""
    enc = grappled([])
    assert_illegal(enc, EscapeGrapple("nobody"), "no creature 'nobody'")
    assert enc.state.turn is not None and enc.state.turn.pools["standard"] == 1
    free = ep([{"id": "b", "side": "a", "stats": BRUTE, "position": [2, 2]},
               {"id": "d", "side": "b", "stats": DUMMY, "position": [3, 2]}])
    assert_illegal(free, EscapeGrapple("d"), "not grappled")


def test_ep_crit_16_a_maneuver_never_scores_a_critical_hit() -> None:
    """EP-CRIT-16: a natural 20 on Maneuver Offense is just 20 + the bonus: no threat, no confirmation roll, no
    damage — the next die is left for the next roll."""
    enc = ep([{"id": "b", "side": "a", "stats": BRUTE, "position": [2, 2]},
              {"id": "d", "side": "b", "stats": DUMMY, "position": [3, 2]}], dice=[20, 20])
    events = enc.act(Maneuver("d", "trip"))
    assert "Maneuver Offense 27 = d20 20 + BAB 4" in texts(events)
    assert not [e for e in events if isinstance(e, (ev.AttackResolved, ev.Damaged))]
    assert "critical" not in texts(events).lower() and remaining(enc) == 1
