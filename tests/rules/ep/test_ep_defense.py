"""Epic Path's fighting defensively (EP-DEF-01..04, 11) and total defense (EP-DEF-12..18)."""

from __future__ import annotations

import pytest
from tests.rules.ep._util import ac, assert_illegal, bonus, ep, stats, texts

from d20combat.encounter import actions as ax
from d20combat.encounter.engine import Encounter
from d20combat.rulesets.epic_path.melee import FightDefensively, FullAttack, TotalDefense

GUARD = stats("guard", attack_bonus=5, attacks=[{"weapon": "club"}])


def duel(ranks: int = 0, dice: tuple[int, ...] = (), **kw: object) -> Encounter:
    hero = stats("hero", attack_bonus=5, attacks=[{"weapon": "club"}], attributes={"acrobatics_ranks": ranks})
    return ep([{"id": "h", "side": "a", "stats": hero, "position": [2, 2]},
               {"id": "g", "side": "b", "stats": GUARD, "position": [3, 2]}], dice=dice, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(("ranks", "dodge"), [(0, 2), (4, 2), (5, 3)])
def test_ep_def_02_03_04_fighting_defensively_minus_4_attack_plus_2_or_3_dodge(ranks: int, dodge: int) -> None:
    """EP-DEF-02, EP-DEF-03: −4 on attacks, +2 dodge to AC; EP-DEF-04: +3 with at least 5 ranks of Acrobatics."""
    enc = duel(ranks)
    before_attack, before_ac = bonus(enc, "h", "g"), ac(enc, "g", "h")
    events = enc.act(FightDefensively())
    assert bonus(enc, "h", "g") == before_attack - 4
    assert ac(enc, "g", "h") == before_ac + dodge
    assert f"+{dodge} dodge" in texts(events)


def test_ep_def_01_declared_at_the_start_of_the_turn() -> None:
    """EP-DEF-01, EP-DEF-11: fighting defensively is declared before anything else in the turn (before the first attack
    of a full attack too)."""
    enc = duel(dice=[1])
    enc.act(FullAttack("g"))
    assert_illegal(enc, FightDefensively(), r"start of the turn.*EP-DEF-01")
    moved = duel()
    moved.act(ax.Step((1, 2)))
    assert_illegal(moved, FightDefensively(), "start of the turn")


def test_ep_def_02_11_the_penalty_covers_attacks_of_opportunity_until_the_next_turn() -> None:
    """EP-DEF-02 (reading: attacks of opportunity too) and EP-DEF-11: the modifiers last until the start of the
    creature's next turn, then end."""
    enc = duel(dice=[8])
    enc.act(FightDefensively())
    enc.act(ax.EndTurn())
    enc.act(ax.Move(to=(6, 2)))  # the guard walks away from the hero
    assert enc.pending is not None and enc.pending.prompt.reactor == "h"
    events = enc.respond("attack")
    assert "misses: 9 = d20 8 + BAB 5 − fighting defensively 4 vs AC 10" in texts(events)
    enc.act(ax.EndTurn())
    assert enc.state.get("h").effects == ()


@pytest.mark.parametrize(("ranks", "dodge"), [(0, 4), (5, 6)])
def test_ep_def_12_13_14_15_18_total_defense(ranks: int, dodge: int) -> None:
    """EP-DEF-12: a full-round action; EP-DEF-13, EP-DEF-14: +4 dodge (+6 with 5 ranks of Acrobatics); EP-DEF-15:
    from the
    start; EP-DEF-18: the turn ends at once."""
    enc = duel(ranks)
    before = ac(enc, "g", "h")
    events = enc.act(TotalDefense())
    assert any(getattr(e, "cost", "") == "full-round" for e in events)
    assert enc.state.turn is not None and enc.state.turn.actor == "g"
    assert ac(enc, "g", "h") == before + dodge
    assert "the turn ends (EP-DEF-18)" in texts(events)


def test_ep_def_12_total_defense_needs_the_full_round_outside_the_surprise_round() -> None:
    """EP-DEF-12: after the standard action is spent there is no total defense; in the surprise round (one action)
    it costs that action (EP-SURP-22 reading)."""
    enc = duel(dice=[1])
    enc.act(ax.Attack("g"))
    assert_illegal(enc, TotalDefense(), "needs the standard and the move action")
    surprise = duel(surprise={"surprised": ["g"]})
    assert surprise.state.surprise_round
    events = surprise.act(TotalDefense())
    assert any(getattr(e, "cost", "") == "standard" for e in events)


@pytest.mark.parametrize("reading", ["full-round", "standard"])
def test_ep_def_12_option_total_defense_after_a_move(reading: str) -> None:
    """EP-DEF-12 (AMBIGUOUS, option ep_total_defense_action): after a move action total defense, a full-round
    action, is refused (default); read as the L147 list's standard action it is taken, costs the standard action
    and still ends the turn (EP-DEF-18)."""
    enc = duel(variants={"ep_total_defense_action": reading})
    enc.act(ax.Move(to=(2, 3)))
    enc.respond("decline")  # the guard lets the attack of opportunity go
    if reading == "full-round":
        assert_illegal(enc, TotalDefense(), "needs the standard and the move action")
        return
    before = ac(enc, "g", "h")
    events = enc.act(TotalDefense())
    assert any(getattr(e, "cost", "") == "standard" for e in events)
    assert ac(enc, "g", "h") == before + 4
    assert "the turn ends (EP-DEF-18)" in texts(events)
    assert enc.state.turn is not None and enc.state.turn.actor == "g"


def test_ep_def_16_not_with_fighting_defensively() -> None:
    """EP-DEF-16: total defense cannot be combined with fighting defensively."""
    enc = duel()
    enc.act(FightDefensively())
    assert_illegal(enc, TotalDefense(), r"fighting defensively \(EP-DEF-16\)")


def test_ep_def_17_no_attacks_of_opportunity_in_total_defense() -> None:
    """EP-DEF-17: while in total defense the creature makes no attacks, attacks of opportunity included."""
    enc = duel()
    enc.act(TotalDefense())
    enc.act(ax.Move(to=(6, 2)))
    assert enc.pending is None and enc.state.get("g").position == (6, 2)


def defender(level: int | None = 3) -> Encounter:
    hero = stats("hero", attack_bonus=4, abilities={"str": 14}, attacks=[{"weapon": "club"}],
                 attributes={"level": level} if level is not None else {})
    return ep([{"id": "h", "side": "a", "stats": hero, "position": [2, 2]},
               {"id": "g", "side": "b", "stats": GUARD, "position": [3, 2]}], dice=[14, 3],
              variants={"max_free_actions": 2})


def test_ep_def_05_06_09_an_offensive_ability_without_attack_roll_needs_a_check() -> None:
    """EP-DEF-05: fighting defensively, an offensive ability with no attack roll needs Maneuver Offense against
    DC 15 + level; EP-DEF-06: one check per action; EP-DEF-09: on a failure the action is wasted and the
    creature still fights defensively."""
    enc = defender()
    enc.act(FightDefensively())
    events = enc.act(ax.Activity("breathe-fire"))
    line = "h fights defensively: breathe-fire needs Maneuver Offense 16 = d20 14 + BAB 4 + Str 2 − fighting " \
           "defensively 4 vs DC 18 (15 + level 3, EP-DEF-05) — fails"
    assert line in texts(events) and texts(events).count("needs Maneuver Offense") == 1
    assert any(e.name == "fighting defensively" for e in enc.state.get("h").effects)
    assert enc.state.turn is not None and enc.state.turn.pools["standard"] == 0


def test_ep_def_07_08_no_check_with_an_attack_roll_free_actions_or_without_defensive_fighting() -> None:
    """EP-DEF-07: attacks (with an attack roll) need no such check; EP-DEF-08: nor free actions (speaking); and
    without fighting defensively there is none."""
    enc = defender()
    enc.act(FightDefensively())
    enc.act(ax.Activity("speak"))
    events = enc.act(ax.Attack("g"))
    assert "needs Maneuver Offense" not in texts(events)
    plain = defender()
    assert "needs Maneuver Offense" not in texts(plain.act(ax.Activity("breathe-fire")))
