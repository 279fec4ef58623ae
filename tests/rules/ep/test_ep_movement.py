"""Epic Path movement (EP-MOVE): squares, difficult, impeded and blocked terrain, and the charge."""

from __future__ import annotations

import pytest
from tests.rules.ep._util import FIGHTER, assert_illegal, ep, stats, texts

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.rulesets.epic_path.movement import ImpededMove
from d20combat.rulesets.epic_path.stances import StartStance
from d20combat.scenario import ScenarioError, battle_from_data

GUARD = stats("guard", attack_bonus=5, attacks=[{"weapon": "club"}])
"""Melee +5, club 1d6, 20 hp, speed 30."""


def moves(events: list[ev.Event]) -> list[ev.Moved]:
    return [e for e in events if isinstance(e, ev.Moved)]


def test_ep_move_01_a_square_is_five_feet() -> None:
    """EP-MOVE-01: 30 ft of speed buys 6 squares, not 7."""
    enc = ep([{"id": "a", "side": "a", "stats": FIGHTER, "position": [0, 0]},
              {"id": "b", "side": "b", "stats": GUARD, "position": [11, 11]}])
    assert (6, 0) in enc.move_options("a") and (7, 0) not in enc.move_options("a")
    assert moves(enc.act(ax.Move(to=(6, 0))))[0].cost_ft == 30


def test_ep_move_02_difficult_terrain_costs_double() -> None:
    """EP-MOVE-02 (worked example): 2 normal squares (10 ft), then difficult terrain: the other 20 ft buy 2
    difficult squares — 4 squares in all."""
    rows = ["...~~~~~", "........"]
    enc = ep([{"id": "a", "side": "a", "stats": FIGHTER, "position": [0, 0]},
              {"id": "b", "side": "b", "stats": GUARD, "position": [7, 1]}], rows=rows)
    opts = enc.move_options("a")
    assert opts[(3, 0)].cost_ft == 20 and opts[(4, 0)].cost_ft == 30
    assert (5, 0) not in opts and (6, 1) in opts


def test_ep_move_03_04_no_charge_through_nor_step_into_difficult_terrain() -> None:
    """EP-MOVE-03, EP-MOVE-19: no charge across difficult terrain (nothing may hinder the charge); EP-MOVE-04: no
    5-foot step into it."""
    rows = ["a.~..b..", "........"]
    enc = ep([{"id": "a", "side": "a", "stats": FIGHTER, "position": [0, 0]},
              {"id": "b", "side": "b", "stats": GUARD, "position": [5, 0]}],
             rows=[r.replace("a", ".").replace("b", ".") for r in rows])
    assert_illegal(enc, ax.Charge("b", to=(4, 0)), "difficult terrain")
    enc2 = ep([{"id": "a", "side": "a", "stats": FIGHTER, "position": [1, 0]},
               {"id": "b", "side": "b", "stats": GUARD, "position": [7, 1]}],
              rows=[r.replace("a", ".").replace("b", ".") for r in rows])
    assert_illegal(enc2, ax.Step((2, 0)), "terrain that slows")


IMPEDED_ROWS = ["....%%..", "....%%..", "........"]


def test_ep_move_05_impeded_terrain_a_full_round_for_five_feet() -> None:
    """EP-MOVE-05 (worked example: speed 40 → still 5 ft): a creature moves 5 ft into impeded terrain with a
    full-round action; ordinary movement does not enter it."""
    fast = stats("fast", speed_ft=40, attacks=[{"weapon": "club"}])
    enc = ep([{"id": "a", "side": "a", "stats": fast, "position": [3, 0]},
              {"id": "b", "side": "b", "stats": GUARD, "position": [7, 2]}], rows=IMPEDED_ROWS)
    assert_illegal(enc, ax.Move(to=(4, 0)), r"impeded terrain.*EP-MOVE-05")
    assert_illegal(enc, ax.Move(path=((4, 0), (5, 0), (6, 0))), r"\(4, 0\) is impeded terrain")
    assert enc.move_options("a")[(6, 0)].path[0] == (3, 1)  # around the impeded squares, not through them
    assert_illegal(enc, ax.Step((4, 0)), r"impeded terrain.*EP-MOVE-05")
    events = enc.act(ImpededMove((4, 0)))
    assert moves(events)[0].cost_ft == 5 and moves(events)[0].mode == "wade"
    spent = [e for e in events if isinstance(e, ev.BudgetSpent)]
    assert spent[0].cost == "full-round" and enc.state.get("a").position == (4, 0)
    assert_illegal(enc, ImpededMove((5, 0)), "needs both|standard")
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    # In impeded terrain now: leaving it, too, is the full-round impeded move (not a move, not a step).
    assert_illegal(enc, ax.Move(to=(3, 2)), r"stands in impeded terrain")
    assert_illegal(enc, ax.Step((3, 0)), r"stands in impeded terrain")
    enc.act(ImpededMove((3, 1)))
    assert enc.state.get("a").position == (3, 1)


def test_ep_move_05_impeded_move_needs_impeded_terrain_and_one_square() -> None:
    """EP-MOVE-05: the impeded move is 5 ft, and only through impeded terrain."""
    enc = ep([{"id": "a", "side": "a", "stats": FIGHTER, "position": [2, 2]},
              {"id": "b", "side": "b", "stats": GUARD, "position": [7, 2]}], rows=IMPEDED_ROWS)
    assert_illegal(enc, ImpededMove((1, 2)), "neither .* is impeded terrain")
    assert_illegal(enc, ImpededMove((4, 0)), "not one square away")


def test_ep_move_06_impeded_movement_provokes() -> None:
    """EP-MOVE-06: the 5 ft through impeded terrain is no 5-foot step: leaving a threatened square provokes."""
    enc = ep([{"id": "a", "side": "a", "stats": FIGHTER, "position": [3, 0]},
              {"id": "b", "side": "b", "stats": GUARD, "position": [2, 0]}], rows=IMPEDED_ROWS, dice=[15, 4])
    enc.act(ImpededMove((4, 0)))
    assert enc.pending is not None and enc.pending.prompt.reactor == "b"
    events = enc.respond("attack")
    assert any(isinstance(e, ev.AttackResolved) and e.hit for e in events)
    assert enc.state.get("a").position == (4, 0) and enc.state.get("a").hp == 16


def test_ep_move_07_no_charge_through_impeded_terrain() -> None:
    """EP-MOVE-07: the charge line may not cross impeded terrain, nor start in it."""
    enc = ep([{"id": "a", "side": "a", "stats": FIGHTER, "position": [2, 0]},
              {"id": "b", "side": "b", "stats": GUARD, "position": [7, 0]}], rows=IMPEDED_ROWS)
    assert_illegal(enc, ax.Charge("b", to=(6, 0)), r"impeded terrain.*EP-MOVE-07")
    inside = ep([{"id": "a", "side": "a", "stats": FIGHTER, "position": [4, 1]},
                 {"id": "b", "side": "b", "stats": GUARD, "position": [4, 4]}],
                rows=[*IMPEDED_ROWS, "........", "........"])
    assert_illegal(inside, ax.Charge("b", to=(4, 3)), r"stands in impeded terrain.*EP-MOVE-07")


def test_ep_move_08_moving_through_impeded_terrain_ends_the_stance() -> None:
    """EP-MOVE-08 (AMBIGUOUS, reading: moving into or within impeded terrain ends it, standing there does not)."""
    enc = ep([{"id": "a", "side": "a", "stats": FIGHTER, "position": [3, 0]},
              {"id": "b", "side": "b", "stats": GUARD, "position": [7, 2]}], rows=IMPEDED_ROWS)
    enc.act(StartStance("stealth"))
    assert [e.name for e in enc.state.get("a").effects] == ["stance: stealth"]
    events = enc.act(ImpededMove((4, 0)))
    assert not [e.name for e in enc.state.get("a").effects if e.name.startswith("stance")]
    assert "stance stealth ends: moving through impeded terrain (EP-MOVE-08)" in texts(events)


@pytest.mark.parametrize("reading", ["moving", "standing"])
def test_ep_move_08_option_standing_in_impeded_terrain(reading: str) -> None:
    """EP-MOVE-08 (AMBIGUOUS, option ep_impeded_ends_stances): a creature that starts a stance while standing in impeded
    terrain keeps it into its next turn when only moving there ends stances (default); under 'standing' the
    stance ends as that turn begins in impeded terrain."""
    enc = ep([{"id": "a", "side": "a", "stats": FIGHTER, "position": [4, 0]},
              {"id": "b", "side": "b", "stats": GUARD, "position": [7, 2]}], rows=IMPEDED_ROWS,
             variants={"ep_impeded_ends_stances": reading})
    enc.act(StartStance("stealth"))
    enc.act(ax.EndTurn())
    events = enc.act(ax.EndTurn())  # b's turn; a's begins
    assert enc.state.turn is not None and enc.state.turn.actor == "a"
    stances = [e.name for e in enc.state.get("a").effects if e.name.startswith("stance")]
    if reading == "moving":
        assert stances == ["stance: stealth"]
    else:
        assert stances == []
        assert "stance stealth ends: its turn begins in impeded terrain (EP-MOVE-08" in texts(events)


def test_ep_move_10_11_13_blocked_terrain_is_impassable_but_may_let_sight_through() -> None:
    """EP-MOVE-10, EP-MOVE-11: blocked terrain (``B``, a portcullis) is entered by no movement, impeded or not;
    EP-MOVE-13: unlike a wall it need not block sight — a bow shoots through it."""
    rows = ["...B....", "...B....", "...B...."]
    archer = {**FIGHTER, "wielding": "longbow"}
    enc = ep([{"id": "a", "side": "a", "stats": archer, "position": [2, 1]},
              {"id": "b", "side": "b", "stats": GUARD, "position": [6, 1]}], rows=rows, dice=[18, 3])
    assert (3, 1) not in enc.move_options("a") and (4, 1) not in enc.move_options("a")
    assert_illegal(enc, ax.Step((3, 1)), "cannot be entered")
    assert_illegal(enc, ax.Charge("b", "club", to=(5, 1)), "blocked terrain")
    events = enc.act(ax.Attack("b", "longbow"))
    assert any(isinstance(e, ev.AttackResolved) and e.hit for e in events)
    walled = ep([{"id": "a", "side": "a", "stats": archer, "position": [2, 1]},
                 {"id": "b", "side": "b", "stats": GUARD, "position": [6, 1]}],
                rows=[r.replace("B", "#") for r in rows])
    assert_illegal(walled, ax.Attack("b", "longbow"), "total cover")


def test_ep_move_10_map_layers_impeded_and_blocked_by_area_and_bad_input() -> None:
    """EP-MOVE-05, EP-MOVE-10: ``impeded`` and ``blocked`` are map fields as well as map characters; an area off the
    map is
    refused with its field path."""
    data = {"ruleset": "epic-path", "map": {"width": 6, "height": 4, "impeded": [{"from": [1, 1], "to": [2, 2]}],
                                            "blocked": [[5, 0]]},
            "combatants": [{"id": "a", "side": "a", "stats": FIGHTER, "position": [0, 0], "initiative": 2},
                           {"id": "b", "side": "b", "stats": GUARD, "position": [0, 3], "initiative": 1}]}
    gm = battle_from_data(data).game_map
    assert gm.impeded == {(1, 1), (2, 1), (1, 2), (2, 2)} and gm.blocked == {(5, 0)}
    assert gm.is_blocked((5, 0)) and not gm.is_solid((5, 0)) and not gm.is_passable((1, 1))
    data["map"]["impeded"] = [[9, 9]]
    with pytest.raises(ScenarioError, match=r"map.impeded\[0\]: square \(9, 9\) is outside"):
        battle_from_data(data)


def charge_scene(distance: int, **extra: object) -> object:
    """``a`` at (0, 0), ``b`` in the same row with ``distance`` squares between their squares' near edges…"""
    return ep([{"id": "a", "side": "a", "stats": FIGHTER, "position": [0, 1]},
               {"id": "b", "side": "b", "stats": GUARD, "position": [distance + 1, 1]}], width=16, height=4,
              **extra)  # type: ignore[arg-type]


@pytest.mark.parametrize(("gap", "ok"), [(1, False), (2, True), (6, True), (7, False)])
def test_ep_move_16_a_charge_moves_at_least_ten_feet_and_at_most_speed(gap: int, ok: bool) -> None:
    """EP-MOVE-16 (worked example, speed 30): 5 ft → no charge; 10 to 30 ft → a charge; 35 ft → beyond speed (not
    double speed, as in PF)."""
    enc = charge_scene(gap, dice=[2])
    action = ax.Charge("b", to=(gap, 1))
    if ok:
        events = enc.act(action)
        assert moves(events)[0].cost_ft == gap * 5
    else:
        assert_illegal(enc, action, "at least 10 ft|within reach" if gap == 1 else r"more than 30 ft, its speed")


def test_ep_move_14_15_atk_24_the_charge_moves_then_makes_one_attack() -> None:
    """EP-MOVE-14, EP-MOVE-15, EP-ATK-24: the movement comes first, then one melee attack at +2 — never the extra
    attacks
    of a high base attack bonus."""
    fighter = stats("fighter", attack_bonus=11, attacks=[{"weapon": "club"}])
    enc = ep([{"id": "a", "side": "a", "stats": fighter, "position": [0, 1]},
              {"id": "b", "side": "b", "stats": GUARD, "position": [5, 1]}], dice=[3, 4])
    events = enc.act(ax.Charge("b", to=(4, 1)))
    kinds = [type(e).__name__ for e in events if isinstance(e, (ev.Moved, ev.AttackResolved))]
    assert kinds == ["Moved", "AttackResolved"]
    assert "d20 3 + BAB 11 + charge 2" in texts(events)


def test_ep_move_18_charge_movement_provokes() -> None:
    """EP-MOVE-18: the charge's movement provokes as normal."""
    enc = ep([{"id": "a", "side": "a", "stats": FIGHTER, "position": [1, 1]},
              {"id": "g", "side": "b", "stats": GUARD, "position": [1, 0]},
              {"id": "b", "side": "b", "stats": GUARD, "position": [5, 1]}])
    enc.act(ax.Charge("b", to=(4, 1)))
    assert enc.pending is not None and enc.pending.prompt.reactor == "g"


def test_ep_move_20_21_the_line_crosses_no_creature_not_even_an_ally() -> None:
    """EP-MOVE-21 (worked example): an ally on the straight line forbids the charge; EP-MOVE-20: an occupied
    closest square too."""
    enc = ep([{"id": "a", "side": "a", "stats": FIGHTER, "position": [0, 1]},
              {"id": "ally", "side": "a", "stats": FIGHTER, "position": [2, 1]},
              {"id": "b", "side": "b", "stats": GUARD, "position": [5, 1]}])
    assert_illegal(enc, ax.Charge("b", to=(4, 1)), r"crosses a creature's square \(2,1\)")
    blocked = ep([{"id": "a", "side": "a", "stats": FIGHTER, "position": [0, 1]},
                  {"id": "ally", "side": "a", "stats": FIGHTER, "position": [4, 1]},
                  {"id": "b", "side": "b", "stats": GUARD, "position": [5, 1]}])
    assert_illegal(blocked, ax.Charge("b", to=(4, 1)), "occupied")


def test_ep_move_22_no_charge_without_a_line_to_the_opponent() -> None:
    """EP-MOVE-22: an opponent behind a wall cannot be charged."""
    rows = ["..#...", "..#...", "..#..."]
    enc = ep([{"id": "a", "side": "a", "stats": FIGHTER, "position": [0, 1]},
              {"id": "b", "side": "b", "stats": GUARD, "position": [5, 1]}], rows=rows)
    assert_illegal(enc, ax.Charge("b"), "charge")


def test_ep_move_23_25_a_charge_ends_the_turn_not_even_a_free_action_after() -> None:
    """EP-ACT-44: a charge counts as movement, so no 5-foot step after it. EP-MOVE-23, EP-MOVE-25 (worked
    example): after the charge no free action (drawing, speaking) — the move and swift actions left are lost; only
    ending the turn remains."""
    enc = charge_scene(3, dice=[2])
    events = enc.act(ax.Charge("b", to=(3, 1)))
    assert "the charge ends the turn" in texts(events)
    assert_illegal(enc, ax.Activity("speak"), "no free action left")
    assert_illegal(enc, ax.Step((2, 0)), "5-foot step")
    assert_illegal(enc, ax.DropProne(), "free action")
    assert [type(a) for a in enc.legal_actions()] == [ax.EndTurn]


@pytest.mark.parametrize(("bab", "ok"), [(0, False), (1, True)])
def test_ep_move_17_drawing_a_weapon_during_a_charge_needs_bab_1(bab: int, ok: bool) -> None:
    """EP-MOVE-17: with a base attack bonus of at least +1 the charger may draw its weapon during the charge."""
    unarmed = stats("drawer", attack_bonus=bab, attacks=[{"weapon": "club"}], wielding=None)
    enc = ep([{"id": "a", "side": "a", "stats": unarmed, "position": [0, 1]},
              {"id": "b", "side": "b", "stats": GUARD, "position": [4, 1]}], dice=[2])
    action = ax.Charge("b", to=(3, 1), draw="club")
    if ok:
        enc.act(action)
        assert enc.state.get("a").wielding == "club"
    else:
        assert_illegal(enc, action, r"\+1 or higher")


@pytest.mark.parametrize(("face", "end"), [(12, (5, 0)), (11, (4, 0))])
def test_ep_move_09_the_gm_may_allow_a_skill_check_to_move_farther(face: int, end: tuple[int, int]) -> None:
    """EP-MOVE-09: where the GM allows it (ep_impeded_skill, DC and distance options), an Acrobatics check moves the
    creature farther through impeded terrain in the full round; on a failure it moves the usual 5 ft. Without the
    allowance, moving farther is refused."""
    agile = stats("agile", skills={"acrobatics": 3}, attacks=[{"weapon": "club"}])
    variants = {"ep_impeded_skill": "acrobatics", "ep_impeded_skill_dc": 15, "ep_impeded_skill_ft": 10}
    enc = ep([{"id": "a", "side": "a", "stats": agile, "position": [3, 0]},
              {"id": "b", "side": "b", "stats": GUARD, "position": [7, 2]}], rows=IMPEDED_ROWS, dice=[face],
             variants=variants)
    assert_illegal(enc, ImpededMove((4, 0), further=((5, 0), (6, 0))), "more than the 10 ft")
    events = enc.act(ImpededMove((4, 0), further=((5, 0),)))
    assert f"acrobatics check {face + 3} = d20 {face} + Acrobatics 3 vs DC 15" in texts(events)
    assert enc.state.get("a").position == end
    plain = ep([{"id": "a", "side": "a", "stats": agile, "position": [3, 0]},
                {"id": "b", "side": "b", "stats": GUARD, "position": [7, 2]}], rows=IMPEDED_ROWS)
    assert_illegal(plain, ImpededMove((4, 0), further=((5, 0),)), r"ep_impeded_skill, EP-MOVE-09")
