"""WOA-MOVE: moving in feet on the 5-ft grid, the double move, the short step, running, postures and crawling."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules._builders import ac, stats
from tests.rules.woa._util import HERO, ORC, declare_all, who, woa
from tests.rules.woa.test_woa_act import budgeted, pools

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.rulesets.worlds_of_adventure.actions import is_movement, provokes
from d20combat.rulesets.worlds_of_adventure.postures import Crawl, Crouch, GetUp, QuickStand, rise_ft
from d20combat.rulesets.worlds_of_adventure.run import Run, endurance_dc


def solo(dice: tuple[int, ...] | list[int] = (), hero: dict[str, Any] | None = None, *, rows: list[str] | None = None,
         conditions: tuple[str, ...] = (), **kw: Any) -> Encounter:
    """The hero at (1, 1), the orc far off (10, 10); the hero acts first ([15, 1] initiative), then ``dice``."""
    extra = {"conditions": list(conditions)} if conditions else {}
    if rows is not None:  # the rows given, widened and lengthened with floor to 12 × 12
        rows = [r.ljust(12, ".") for r in rows] + ["." * 12] * (12 - len(rows))
    return woa([who("hero", hero or HERO, "heroes", (1, 1), **extra), who("orc", kw.pop("orc", ORC), "monsters",
                                                                            (10, 10))],
               [15, 1, *dice], rows=rows, **kw)


def moved(enc: Encounter) -> list[ev.Moved]:
    return [e for e in enc.log if isinstance(e, ev.Moved)]


# --- moving (WOA-MOVE-01/14/16) ----------------------------------------------------------------------------------
def test_woa_move_01_and_14_a_move_action_moves_up_to_the_speed() -> None:
    """WOA-MOVE-01/14: speed 30 → 30 ft (6 squares) with the move action; 35 ft is refused."""
    enc = solo()
    declare_all(enc, ax.Declare(standard="move", move="move"))
    with pytest.raises(IllegalAction, match="30 ft"):
        enc.act(ax.Move(to=(8, 1)))
    enc.act(ax.Move(to=(7, 1)))
    assert moved(enc)[-1].cost_ft == 30


def test_woa_move_14_feet_on_the_5_ft_grid_with_5_10_diagonals() -> None:
    """WOA-MOVE-14, rules-diff §2.4: three diagonals cost 5 + 10 + 5 = 20 ft."""
    enc = solo()
    declare_all(enc, ax.Declare(move="move"))
    enc.act(ax.Move(to=(4, 4)))
    assert moved(enc)[-1].cost_ft == 20


def test_woa_move_16_a_double_move_covers_twice_the_speed() -> None:
    """WOA-MOVE-16: both actions spent moving: 60 ft."""
    enc = solo()
    declare_all(enc, ax.Declare(standard="move", move="move"))
    enc.act(ax.Move(to=(7, 1)))
    enc.act(ax.Move(to=(7, 7)))
    assert sum(m.cost_ft for m in moved(enc)) == 60


# --- the short step (WOA-MOVE-02/08/15/26..33) -------------------------------------------------------------------
def test_woa_move_02_the_short_step_is_a_special_free_action() -> None:
    """WOA-MOVE-02: it spends no action, not even one of the free actions."""
    enc = solo()
    declare_all(enc)
    enc.act(ax.Step((2, 2)))
    assert pools(enc) == {"standard": 1, "move": 1, "free": 3} and enc.state.get("hero").position == (2, 2)


def test_woa_act_08_and_move_30_draw_step_attack() -> None:
    """WOA-ACT-08, WOA-MOVE-30: a move action that moves nowhere (reload), a short step, then the standard action."""
    hero = {**HERO, "attacks": [{"weapon": "longsword"}, {"weapon": "light-crossbow"}], "wielding": "light-crossbow"}
    enc = woa([who("hero", hero, "heroes", (1, 1)), who("orc", ORC, "monsters", (6, 1))], [15, 1, 12, 3],
              )
    declare_all(enc, ax.Declare(standard="attack", move="move", target="orc"))
    enc.act(ax.Activity("stow-item"))
    enc.act(ax.Step((2, 1)))
    enc.act(ax.Attack("orc", "light-crossbow"))
    assert enc.state.get("hero").position == (2, 1)


def test_woa_move_15_and_26_no_short_step_in_a_round_with_other_movement() -> None:
    """WOA-MOVE-15, WOA-MOVE-26: after a move action spent moving, no short step; after a short step, no move."""
    enc = solo()
    declare_all(enc, ax.Declare(standard="move", move="move"))
    enc.act(ax.Move(to=(3, 1)))
    with pytest.raises(IllegalAction, match="WOA-MOVE-15"):
        enc.act(ax.Step((4, 1)))
    enc2 = solo()
    declare_all(enc2, ax.Declare(move="move"))
    enc2.act(ax.Step((2, 1)))
    with pytest.raises(IllegalAction):
        enc2.act(ax.Move(to=(4, 1)))


def test_woa_move_27_the_short_step_covers_the_reach() -> None:
    """WOA-MOVE-27: 5 ft for a Medium humanoid (two squares refused); 10 ft for a creature with 10-ft reach."""
    enc = solo()
    declare_all(enc)
    with pytest.raises(IllegalAction, match="5-ft step"):
        enc.act(ax.Step((3, 1)))
    ogre = stats("ogre", hp=30, reach_ft=10, attacks=[{"weapon": "club"}])
    enc2 = solo(hero=ogre)
    declare_all(enc2)
    enc2.act(ax.Step((3, 1)))
    assert enc2.state.get("hero").position == (3, 1) and moved(enc2)[-1].cost_ft == 10


def test_woa_move_28_a_short_step_never_provokes() -> None:
    """WOA-MOVE-28: stepping out of a foe's threatened square asks no attack of opportunity (a move would)."""
    two = [who("hero", HERO, "heroes", (2, 2)), who("orc", {**ORC, "wielding": "club"}, "monsters", (3, 2))]
    enc = budgeted(1, [], two)
    declare_all(enc, ax.Declare(move="move"))
    enc.act(ax.Step((1, 2)))
    assert enc.pending is None and enc.state.get("hero").position == (1, 2)
    enc2 = budgeted(1, [], [dict(c) for c in two])
    declare_all(enc2, ax.Declare(move="move"))
    enc2.act(ax.Move(to=(0, 2)))
    assert enc2.pending is not None  # the control: leaving the square by a move provokes


def test_woa_move_29_one_short_step_a_round() -> None:
    """WOA-MOVE-29."""
    enc = solo()
    declare_all(enc)
    enc.act(ax.Step((2, 1)))
    with pytest.raises(IllegalAction, match="WOA-MOVE-29"):
        enc.act(ax.Step((3, 1)))


@pytest.mark.parametrize(("rows", "why"), [
    (["....", ".~..", "...."], "difficult terrain"),
    (["....", "..~.", "...."], "difficult terrain"),
    (["....", "..D.", "...."], "darkness")])
def test_woa_move_31_no_short_step_hampered_by_difficult_terrain_or_darkness(rows: list[str], why: str) -> None:
    """WOA-MOVE-31: not out of difficult terrain (the hero stands in it), not into it, not into darkness."""
    enc = solo(rows=rows)
    declare_all(enc)
    with pytest.raises(IllegalAction, match=f"{why}.*WOA-MOVE-31"):
        enc.act(ax.Step((2, 1)))


def test_woa_move_33_no_short_step_without_a_listed_land_speed() -> None:
    """WOA-MOVE-33: a creature that only flies (land speed 0) takes no short step, though it may fly."""
    bat = stats("bat", hp=5, speed_ft=0, fly_speed_ft=40, attacks=[{"weapon": "club"}])
    enc = solo(hero=bat)
    declare_all(enc)
    with pytest.raises(IllegalAction, match="WOA-MOVE-33"):
        enc.act(ax.Step((2, 1)))


def test_woa_move_10_normal_movement_needs_no_check_climbing_does() -> None:
    """WOA-MOVE-10: walking rolls nothing; climbing a wall square needs a Climb check (the core's climb, DC 15)."""
    enc = solo([20], rows=["...", ".^^", "..."])
    declare_all(enc, ax.Declare(move="move"))
    enc.act(ax.ClimbOrSwim(path=((2, 1),)))
    assert any(isinstance(e, ev.Note) and "climb check" in e.text for e in enc.log)
    enc2 = solo()
    declare_all(enc2, ax.Declare(move="move"))
    assert not [e for e in enc2.act(ax.Move(to=(4, 1))) if isinstance(e, ev.Note)]


def test_woa_move_11_move_and_attack_in_one_round() -> None:
    """WOA-MOVE-11: a move action and a standard attack; or a short step and a full round's actions."""
    enc = woa([who("hero", HERO, "heroes", (1, 1)), who("orc", ORC, "monsters", (6, 1))], [15, 1, 15, 3])
    declare_all(enc, ax.Declare(standard="attack", move="move", target="orc"))
    enc.act(ax.Move(to=(5, 1)))
    enc.act(ax.Attack("orc", "longsword"))
    assert [e for e in enc.log if isinstance(e, ev.AttackResolved)]
    enc2 = solo()
    declare_all(enc2, ax.Declare(standard="move", move="move"))
    enc2.act(ax.Step((2, 1)))
    enc2.act(ax.Activity("light-torch"))
    assert pools(enc2) == {"free": 3}


def test_woa_move_32_no_short_step_slower_than_the_step() -> None:
    """WOA-MOVE-32: speed 5, reach 10: moving 10 ft would take a move action."""
    snail = stats("snail", hp=10, reach_ft=10, speed_ft=5, attacks=[{"weapon": "club"}])
    enc = solo(hero=snail)
    declare_all(enc)
    with pytest.raises(IllegalAction, match="WOA-MOVE-32"):
        enc.act(ax.Step((2, 1)))


# --- running (WOA-MOVE-17..24) -----------------------------------------------------------------------------------
def test_woa_move_17_run_four_times_the_speed_in_a_straight_line() -> None:
    """WOA-MOVE-17: speed 30 → 120 ft; 125 ft is refused. 24 squares need a bigger map: 20 squares on a diagonal
    line cost 150 ft, refused; 11 squares straight (55 ft) are fine."""
    enc = solo(width=30, height=30)
    declare_all(enc, ax.Declare(full_round="run"))
    with pytest.raises(IllegalAction, match="120 ft"):
        enc.act(Run(to=(26, 1)))
    enc.act(Run(to=(25, 1)))
    assert enc.state.get("hero").position == (25, 1) and sum(m.cost_ft for m in moved(enc)) == 120


def test_woa_move_17_a_run_goes_around_nothing() -> None:
    """WOA-MOVE-17: a straight line: a wall on it refuses the run."""
    enc = solo(rows=["........", "...#....", "........"])
    declare_all(enc, ax.Declare(full_round="run"))
    with pytest.raises(IllegalAction, match="WOA-MOVE-17"):
        enc.act(Run(to=(6, 1)))


def test_woa_move_18_running_costs_2_ac_until_the_next_turn() -> None:
    """WOA-MOVE-18: −2 AC while running."""
    archer = {**ORC, "attacks": [{"weapon": "longbow"}]}
    enc = solo(orc=archer)
    before = ac(enc, "orc", "hero", "longbow")
    declare_all(enc, ax.Declare(full_round="run"))
    enc.act(Run(to=(5, 1)))
    assert ac(enc, "orc", "hero", "longbow") == before - 2


def test_woa_move_19_running_brings_the_condition_that_bars_reactions() -> None:
    """WOA-MOVE-19: the runner is ``running`` (the reactions area bars every reaction on it) until its next turn."""
    enc = solo([15, 1])
    declare_all(enc, ax.Declare(full_round="run"))
    enc.act(Run(to=(5, 1)))
    assert enc.state.get("hero").has("running")
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    declare_all(enc)
    assert not enc.state.get("hero").has("running")


def test_woa_move_20_no_short_step_with_a_run() -> None:
    """WOA-MOVE-20, WOA-ACT-12: no step after a run, no run after a step."""
    enc = solo()
    declare_all(enc, ax.Declare(full_round="run"))
    enc.act(Run(to=(5, 1)))
    with pytest.raises(IllegalAction):
        enc.act(ax.Step((6, 1)))
    enc2 = solo()
    declare_all(enc2, ax.Declare(full_round="run"))
    enc2.act(ax.Step((2, 1)))
    with pytest.raises(IllegalAction, match="WOA-MOVE-20"):
        enc2.act(Run(to=(6, 1)))


def test_woa_move_21_the_endurance_dc_after_con_score_rounds() -> None:
    """WOA-MOVE-21: Con 12 → rounds 1–12 free; round 13 DC 10, 14 DC 11, 15 DC 12."""
    assert [endurance_dc(12, n) for n in (1, 12, 13, 14, 15)] == [None, None, 10, 11, 12]


def run_rounds(enc: Encounter, rounds: int, first: int = 1) -> None:
    for n in range(rounds):
        declare_all(enc, ax.Declare(full_round="run"))
        x = first + 4 * (n + 1)
        enc.act(Run(to=(x % 28, 1 + 2 * ((n + 1) % 2))))
        enc.act(ax.EndTurn())
        enc.act(ax.EndTurn())


def test_woa_move_21_22_23_run_con_rounds_then_check_fail_and_rest() -> None:
    """WOA-MOVE-21, WOA-MOVE-22, WOA-MOVE-23: Con 2 → two rounds free; the third needs Endurance DC 10 (d20 12 + 2
    passes); the fourth DC 11 (d20 3 + 2 fails): it stops running and rests — no run, no double move."""
    runner = stats("runner", hp=20, abilities={"con": 2}, skills={"endurance": 2}, attacks=[{"weapon": "club"}])
    enc = woa([who("hero", runner, "heroes", (1, 1)), who("orc", ORC, "monsters", (29, 29))],
              [15, 1, 15, 1, 15, 1, 12, 15, 1, 3, 15, 1], width=30, height=30)
    run_rounds(enc, 3)
    notes = [e.text for e in enc.log if isinstance(e, ev.Note) and "Endurance" in e.text]
    assert len(notes) == 1 and "DC 10" in notes[0] and "keeps running" in notes[0]
    declare_all(enc, ax.Declare(full_round="run"))
    x, y = enc.state.get("hero").position
    enc.act(Run(to=(x + 4, y)))
    assert enc.state.get("hero").position == (x, y) and enc.state.get("hero").has("running") is False
    assert any("DC 11" in e.text and "rest" in e.text for e in enc.log if isinstance(e, ev.Note))
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    declare_all(enc, ax.Declare(standard="move", move="move"))
    with pytest.raises(IllegalAction, match="WOA-MOVE-23"):
        enc.act(Run(to=(x + 4, y)))
    enc.act(ax.Move(to=(x + 2, y)))
    with pytest.raises(IllegalAction, match="WOA-MOVE-23"):
        enc.act(ax.Move(to=(x + 4, y)))


def test_woa_move_24_no_run_across_difficult_terrain() -> None:
    """WOA-MOVE-24."""
    enc = solo(rows=["........", "...~....", "........"])
    declare_all(enc, ax.Declare(full_round="run"))
    with pytest.raises(IllegalAction, match="difficult"):
        enc.act(Run(to=(6, 1)))


# --- postures (WOA-MOVE-34..45) ----------------------------------------------------------------------------------
def test_woa_move_34_dropping_prone_or_into_a_crouch_is_free() -> None:
    """WOA-MOVE-34: each spends one free action, nothing else."""
    enc = solo()
    declare_all(enc)
    enc.act(Crouch())
    assert enc.state.get("hero").has("crouching")
    enc.act(ax.DropProne())
    assert enc.state.get("hero").has("prone") and not enc.state.get("hero").has("crouching")
    assert pools(enc) == {"standard": 1, "move": 1, "free": 1}


def test_woa_move_35_36_the_distance_getting_up_counts_as() -> None:
    """WOA-MOVE-35, WOA-MOVE-36: speed 30, step 5: crouch→stand 15, prone→crouch 15, prone→stand 30; speed 20: 10
    and 20; a 10-ft step with speed 15: max(7, 10) = 10 and max(15, 20) = 20."""
    assert [rise_ft(30, 5, "crouching", "standing"), rise_ft(30, 5, "prone", "crouching"),
            rise_ft(30, 5, "prone", "standing")] == [15, 15, 30]
    assert [rise_ft(20, 5, "crouching", "standing"), rise_ft(20, 5, "prone", "standing")] == [10, 20]
    assert [rise_ft(15, 10, "crouching", "standing"), rise_ft(15, 10, "prone", "standing")] == [10, 20]


def test_woa_move_37_stand_from_a_crouch_and_move_on() -> None:
    """WOA-MOVE-37: speed 30: stand from a crouch (15 ft) and move 15 ft more with the same move action; 20 ft more
    is refused."""
    enc = solo(conditions=("crouching",))
    declare_all(enc, ax.Declare(move="move"))
    with pytest.raises(IllegalAction, match="15 ft left of the move action after getting up 15 ft"):
        enc.act(GetUp(path=((2, 1), (3, 1), (4, 1), (5, 1))))
    enc.act(GetUp(path=((2, 1), (3, 1), (4, 1))))
    hero = enc.state.get("hero")
    assert hero.position == (4, 1) and not hero.has("crouching") and pools(enc) == {"standard": 1, "free": 3}


def test_woa_move_37_getting_up_from_prone_is_a_move_action() -> None:
    """WOA-MOVE-37: prone → standing (30 ft at speed 30) takes the move action."""
    enc = solo(conditions=("prone",))
    declare_all(enc, ax.Declare(move="move"))
    events = enc.act(GetUp())
    assert not enc.state.get("hero").has("prone")
    assert [e.cost for e in events if isinstance(e, ev.BudgetSpent)] == ["move"]
    assert any(isinstance(e, ev.Moved) and e.cost_ft == 30 for e in events)


def test_woa_move_38_no_short_step_after_getting_up() -> None:
    """WOA-MOVE-38: getting up counts as movement."""
    enc = solo(conditions=("crouching",))
    declare_all(enc, ax.Declare(move="move"))
    enc.act(GetUp())
    with pytest.raises(IllegalAction, match="WOA-MOVE-15/26/38"):
        enc.act(ax.Step((2, 1)))


def test_woa_move_39_getting_up_is_marked_as_provoking() -> None:
    """WOA-MOVE-39: Table: Actions in Combat marks getting up (and the quick get-up, WOA-MOVE-45) as provoking, and
    as movement; crouching does not provoke."""
    assert provokes(GetUp()) and provokes(GetUp(to="crouching")) and provokes(QuickStand())
    assert is_movement(GetUp()) and not provokes(Crouch())


def test_woa_move_40_prone_to_standing_is_one_rise() -> None:
    """WOA-MOVE-40: standing up from prone in one action is one rise (one provoking action), not a rise into a
    crouch and another to standing."""
    enc = solo(conditions=("prone",))
    declare_all(enc, ax.Declare(move="move"))
    events = enc.act(GetUp())
    assert len([e for e in events if isinstance(e, ev.Moved) and e.mode == "rise"]) == 1


def test_woa_move_42_getting_up_slowly_spends_twice_the_distance() -> None:
    """WOA-MOVE-42: speed 30, slowly from prone: 60 ft — two move actions."""
    enc = solo(conditions=("prone",))
    declare_all(enc, ax.Declare(standard="move", move="move"))
    events = enc.act(GetUp(slowly=True))
    assert [e.cost for e in events if isinstance(e, ev.BudgetSpent)] == ["move", "standard-as-move"]
    assert any(isinstance(e, ev.Moved) and e.cost_ft == 60 for e in events)
    assert "WOA-MOVE-42" in " ".join(e.explain() for e in events)


def test_woa_move_43_acrobatics_dc_30_gets_up_as_a_free_action() -> None:
    """WOA-MOVE-43: Acrobatics +12, d20 18 → 30: up, a free action."""
    acrobat = stats("acrobat", hp=20, skills={"acrobatics": 12}, attacks=[{"weapon": "club"}])
    enc = solo([18], hero=acrobat, conditions=("prone",))
    declare_all(enc)
    enc.act(QuickStand())
    assert not enc.state.get("hero").has("prone") and pools(enc) == {"standard": 1, "move": 1, "free": 2}


def test_woa_move_44_a_failed_quick_get_up_loses_the_next_move_action() -> None:
    """WOA-MOVE-44: d20 17 + 12 = 29: still prone, and the move action is gone."""
    acrobat = stats("acrobat", hp=20, skills={"acrobatics": 12}, attacks=[{"weapon": "club"}])
    enc = solo([17], hero=acrobat, conditions=("prone",))
    declare_all(enc)
    enc.act(QuickStand())
    assert enc.state.get("hero").has("prone") and pools(enc) == {"standard": 1, "free": 2}


def test_woa_move_44_after_the_move_action_the_next_turns_is_lost() -> None:
    """WOA-MOVE-44: the move action already spent, the next turn starts without one."""
    acrobat = stats("acrobat", hp=20, skills={"acrobatics": 0}, attacks=[{"weapon": "club"}])
    enc = solo([5, 15, 1], hero=acrobat, conditions=("prone",))
    declare_all(enc, ax.Declare(move="move"))
    enc.act(ax.Sheathe())
    enc.act(QuickStand())
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    declare_all(enc)
    assert enc.state.turn is not None and enc.state.turn.actor == "hero"
    assert pools(enc) == {"standard": 1, "free": 3}


# --- crawling (WOA-MOVE-46/47) -----------------------------------------------------------------------------------
def test_woa_move_46_crawling_covers_the_short_step_as_a_move_action() -> None:
    """WOA-MOVE-46: prone, 5 ft for a move action; 10 ft is refused."""
    enc = solo(conditions=("prone",))
    declare_all(enc, ax.Declare(move="move"))
    with pytest.raises(IllegalAction, match="WOA-MOVE-46"):
        enc.act(Crawl((3, 1)))
    events = enc.act(Crawl((2, 1)))
    assert enc.state.get("hero").position == (2, 1)
    assert [e.cost for e in events if isinstance(e, ev.BudgetSpent)] == ["move"]


def test_woa_move_46_crawling_needs_prone_or_crouching() -> None:
    """WOA-MOVE-46: a standing creature walks."""
    enc = solo()
    declare_all(enc, ax.Declare(move="move"))
    with pytest.raises(IllegalAction, match="prone or crouching"):
        enc.act(Crawl((2, 1)))


def test_woa_move_47_a_crouching_crawler_counts_as_prone_for_the_round() -> None:
    """WOA-MOVE-47: crouching, crawls: prone until its next turn."""
    enc = solo([15, 1], conditions=("crouching",))
    declare_all(enc, ax.Declare(move="move"))
    enc.act(Crawl((2, 1)))
    assert enc.state.get("hero").has("prone")
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    declare_all(enc)
    assert not enc.state.get("hero").has("prone") and enc.state.get("hero").has("crouching")


# --- speed (WOA-MOVE-03/06/07/09/12) -----------------------------------------------------------------------------
def speed_of(block: dict[str, Any]) -> int:
    enc = solo(hero=block)
    return enc.speed_ft("hero")


def test_woa_move_03_race_sets_the_base_land_speed() -> None:
    """WOA-MOVE-03: a dwarf moves 20 ft, a human 30 ft."""
    assert speed_of(stats("dwarf", race="dwarf", attacks=[{"weapon": "club"}])) == 20
    assert speed_of(stats("human", race="human", attacks=[{"weapon": "club"}])) == 30


def test_woa_move_06_barbarian_fast_movement_unless_in_heavy_armor() -> None:
    """WOA-MOVE-06: a human barbarian: 30 + 10 = 40 ft; in heavy armor, no bonus (the armor's own speed rule
    applies)."""
    barbarian = stats("barbarian", race="human", attributes={"barbarian_level": 1}, attacks=[{"weapon": "club"}])
    assert speed_of(barbarian) == 40
    heavy = {**barbarian, "armor": "full-plate"}
    assert speed_of(heavy) == speed_of({**heavy, "attributes": {}})


def test_woa_move_07_monk_speed_only_without_armor() -> None:
    """WOA-MOVE-07: the monk's bonus (its amount from the class table) counts only without armor of any sort."""
    monk = stats("monk", race="human", attributes={"monk_speed_bonus": 10}, attacks=[{"weapon": "club"}])
    assert speed_of(monk) == 40
    assert speed_of({**monk, "armor": "leather"}) == 30


def test_woa_move_09_speed_bonuses_of_the_same_type_do_not_stack() -> None:
    """WOA-MOVE-09: two enhancement bonuses (10 and 30) → the higher only; a barbarian's bonus adds."""
    block = stats("x", race="human", attributes={"speed_bonus_enhancement": 30, "barbarian_level": 2},
                  attacks=[{"weapon": "club"}])
    assert speed_of(block) == 70
    enc = solo(hero=block)
    assert "barbarian" in enc.ruleset.movement.describe_speed(enc.creature("hero"), enc.state.get("hero"))


def test_woa_move_12_haste_grants_an_extra_move_action() -> None:
    """WOA-MOVE-12: hasted, three move actions' worth of movement (90 ft at speed 30) — or a move and a full-round
    action."""
    enc = solo(conditions=("hasted",))
    declare_all(enc, ax.Declare(standard="move", move="move"))
    for to in ((7, 1), (7, 7), (1, 7)):
        enc.act(ax.Move(to=to))
    assert sum(m.cost_ft for m in moved(enc)) == 90
    enc2 = solo(conditions=("hasted",))
    declare_all(enc2, ax.Declare(full_round="run"))
    enc2.act(Run(to=(9, 1)))
    assert pools(enc2) == {"move": 1, "free": 3}


# --- the provoking readings of getting up (WOA-MOVE-40/45, AMBIGUOUS) ----------------------------------------------
def adjacent_orc(hero: dict[str, Any], dice: list[int], **kw: Any) -> Encounter:
    """The prone hero at (2,2) next to an orc with a club and a reaction (initiative: the hero first)."""
    return woa([who("hero", hero, "heroes", (2, 2), conditions=["prone"]),
                who("orc", {**ORC, "wielding": "club"}, "monsters", (3, 2))], [15, 1, *dice], **kw)


@pytest.mark.parametrize(("reading", "second_asked"), [("action", True), ("round", False)])
def test_woa_move_40_rising_in_two_actions_of_a_round_provokes_per_the_option(reading: str,
                                                                              second_asked: bool) -> None:
    """WOA-MOVE-40 (AMBIGUOUS, option ``woa_rise_one_aoo``): prone → crouch, then crouch → standing in the same
    round next to the orc. The first rise provokes (the orc is asked); reading 'action' (the default): the second
    rise provokes again; 'round': it does not (one continuous rise)."""
    enc = adjacent_orc(HERO, [], variants={"woa_rise_one_aoo": reading})
    declare_all(enc, ax.Declare(standard="move", move="move"))
    enc.act(GetUp(to="crouching"))
    assert enc.pending is not None and enc.pending.prompt.reactor == "orc"
    enc.respond("decline")
    enc.act(GetUp())
    assert (enc.pending is not None) is second_asked
    if enc.pending is not None:
        enc.respond("decline")
    assert not enc.state.get("hero").has("crouching") and not enc.state.get("hero").has("prone")


ACROBAT = stats("acrobat", hp=20, skills={"acrobatics": 12}, attacks=[{"weapon": "longsword"}])
"""Acrobatics +12 (AC 10)."""


@pytest.mark.parametrize(("face", "reading", "asked"), [(18, True, True), (5, True, True), (18, False, True),
                                                        (5, False, False)])
def test_woa_move_45_a_quick_get_up_provokes_whatever_its_outcome_by_default(face: int, reading: bool,
                                                                            asked: bool) -> None:
    """WOA-MOVE-45 (AMBIGUOUS, option ``woa_failed_quick_stand_provokes``): the quick get-up provokes — after its
    Acrobatics check is rolled — whatever its outcome (default); the other reading provokes only a success."""
    enc = adjacent_orc(ACROBAT, [face], variants={"woa_failed_quick_stand_provokes": reading})
    declare_all(enc)
    enc.act(QuickStand())
    assert (enc.pending is not None) is asked
    if enc.pending is not None:
        assert enc.pending.prompt.reactor == "orc"
        enc.respond("decline")
    assert enc.state.get("hero").has("prone") is (face + 12 < 30)


@pytest.mark.parametrize(("skill", "face", "ac_text"), [
    (12, 18, "vs AC 30 (Acrobatics check in place of AC 10 (WOA-MOVE-45) 30)"), (2, 1, "vs AC 10 (10)")])
def test_woa_move_45_the_acrobatics_result_stands_in_for_ac_against_the_aoo(skill: int, face: int,
                                                                          ac_text: str) -> None:
    """WOA-MOVE-45: the Acrobatics result (d20 18 + 12 = 30) is the AC the orc's attack of opportunity meets — the
    better of it and AC 10 (d20 1 + 2 = 3 is worse: AC 10 stays); the mark is gone once the attack is over."""
    enc = adjacent_orc({**ACROBAT, "skills": {"acrobatics": skill}}, [face, 15, 3])
    declare_all(enc)
    enc.act(QuickStand())
    events = enc.respond("attack")
    line = "\n".join(next(e for e in events if isinstance(e, ev.AttackResolved)).lines)
    assert ac_text in line
    assert not any(c.startswith("evasive_ac:") for c in enc.state.get("hero").conditions)


def test_woa_move_13_a_monk_spends_a_ki_point_for_an_extra_move_action() -> None:
    """WOA-MOVE-13: ki 1: an extra move action this round (three moves: 90 ft); the point is gone next round."""
    from d20combat.rulesets.worlds_of_adventure.move_actions import SpendKi

    monk = stats("monk", hp=20, attributes={"ki_points": 1}, attacks=[{"weapon": "club"}])
    enc = solo([15, 1], hero=monk)
    declare_all(enc, ax.Declare(standard="move", move="move"))
    enc.act(SpendKi())
    with pytest.raises(IllegalAction, match="WOA-MOVE-13"):
        enc.act(SpendKi())
    for to in ((7, 1), (7, 7), (1, 7)):
        enc.act(ax.Move(to=to))
    assert sum(m.cost_ft for m in moved(enc)) == 90
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    declare_all(enc)
    assert enc.state.get("hero").reactions["ki"] == 0
    with pytest.raises(IllegalAction, match="no ki point left"):
        enc.act(SpendKi())


@pytest.mark.parametrize(("action", "message"), [
    (Run(to=(40, 1)), "off the map"),
    (GetUp(), "nothing to rise from"),
    (Crawl((2, 1)), "prone or crouching"),
    (ax.Step((5, 5)), "not within the 5-ft step"),
    (QuickStand(), "not prone")])
def test_woa_move_bad_input_is_refused_by_name_and_changes_nothing(action: ax.Action, message: str) -> None:
    """WOA-MOVE-17/35/46/27/43: what is wrong is named; the state is untouched."""
    enc = solo()
    declare_all(enc, ax.Declare(full_round="run") if isinstance(action, Run) else ax.Declare(move="move"))
    before = enc.state
    with pytest.raises(IllegalAction, match=message):
        enc.act(action)
    assert enc.state is before


def test_woa_move_35_a_posture_to_rise_to_is_standing_or_crouching() -> None:
    """WOA-MOVE-35: ``get_up.to`` is checked when the action is read."""
    from d20combat.encounter.registry import ActionRegistry

    enc = solo()
    with pytest.raises(ValueError, match=r"get_up\.to"):
        ActionRegistry(enc.ruleset).from_dict({"kind": "get_up", "to": "sitting"})
    assert ActionRegistry(enc.ruleset).from_dict({"kind": "get_up", "to": "crouching"}) == GetUp(to="crouching")
