"""WOA-ACT: the action economy — standard, move, full-round, free, swift and immediate actions; restricted activity;
Table: Actions in Combat."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from tests.conftest import ScriptedDice
from tests.rules._builders import stats
from tests.rules.woa._util import HERO, ORC, declare_all, who, woa

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.rulesets.components.reactions import ThreatenedSquareAoO
from d20combat.rulesets.worlds_of_adventure import WorldsOfAdventure
from d20combat.rulesets.worlds_of_adventure.actions import (
    ImmediateAction,
    Speak,
    StartFullRound,
    SwiftAction,
    actions_table,
    provokes,
)
from d20combat.rulesets.worlds_of_adventure.economy import WoaAllowance, WoaEconomy
from d20combat.rulesets.worlds_of_adventure.run import Run


def duel(dice: list[int], hero: dict[str, Any] | None = None, **kw: Any) -> Encounter:
    """Hero at (1, 1), the orc far off at (9, 9); hero first with the initiative dice [15, 1]."""
    return woa([who("hero", hero or HERO, "heroes", (1, 1)), who("orc", ORC, "monsters", (9, 9))], [15, 1, *dice],
               **kw)


class BudgetedWoa(WorldsOfAdventure):
    """WOA with a combat-reaction budget of ``per_round`` a round in the pool ``reactions`` (the reactions area's
    part, WOA-REACT-02, stands in here as the shared threatened-square component)."""

    per_round = 2

    @classmethod
    def compose(cls, options: Any) -> Any:
        return super().compose(options).replace(reactions=ThreatenedSquareAoO(
            per_round=cls.per_round, pool="reactions", may_react=lambda c, s: not s.has("running")))


def budgeted(per_round: int, dice: list[int], combatants: list[dict[str, Any]] | None = None, **kw: Any
             ) -> Encounter:
    base = woa(combatants or [who("hero", HERO, "heroes", (1, 1)), who("orc", ORC, "monsters", (9, 9))], [],
               start=False, **kw)
    ruleset = type("Budgeted", (BudgetedWoa,), {"per_round": per_round})(base.battle.ruleset.options.model_dump())
    enc = Encounter(replace(base.battle, ruleset=ruleset), ScriptedDice([15, 1, *dice]))
    enc.start()
    return enc


def pools(enc: Encounter) -> dict[str, int]:
    turn = enc.state.turn
    assert turn is not None
    return {k: v for k, v in turn.pools.items() if v}


# --- standard, move, full-round (WOA-ACT-01/02/07/09) ------------------------------------------------------------
def test_woa_act_01_a_standard_and_a_move_action_in_either_order() -> None:
    """WOA-ACT-01: attack (standard) then move, or move then attack; a full-round action takes the round."""
    enc = duel([])
    declare_all(enc, ax.Declare(standard="move", move="move"))
    enc.act(ax.Move(to=(2, 1)))
    assert pools(enc) == {"standard": 1, "free": 3}
    enc.act(ax.Move(to=(3, 1)))
    assert pools(enc) == {"free": 3}


def test_woa_act_01_and_09_a_full_round_action_consumes_the_whole_round() -> None:
    """WOA-ACT-01, WOA-ACT-09: after a run (full-round), no standard or move action is left."""
    enc = duel([])
    declare_all(enc, ax.Declare(full_round="run"))
    enc.act(Run(to=(5, 1)))
    assert pools(enc) == {"free": 3}
    with pytest.raises(IllegalAction):
        enc.act(ax.Activity("open-door"))


def test_woa_act_02_and_07_the_standard_action_as_a_second_move_action() -> None:
    """WOA-ACT-02, WOA-ACT-07: a double move (the move action never stands in for a standard one)."""
    enc = duel([])
    declare_all(enc, ax.Declare(standard="move", move="move"))
    enc.act(ax.Move(to=(7, 1)))
    enc.act(ax.Move(to=(11, 1)))
    assert enc.state.get("hero").position == (11, 1)
    spent = [e.cost for e in enc.log if isinstance(e, ev.BudgetSpent)]
    assert spent[-2:] == ["move", "standard-as-move"]


def test_woa_act_02_a_move_never_buys_a_standard_action() -> None:
    """WOA-ACT-02: only the standard action converts (a move then two standard actions is refused)."""
    enc = duel([])
    declare_all(enc, ax.Declare(standard="move", move="move"))
    enc.act(ax.Activity("drink-potion"))
    with pytest.raises(IllegalAction, match="standard"):
        enc.act(ax.Activity("use-wand"))


# --- Table: Actions in Combat (WOA-ACT-04/05/06/21/32/33) --------------------------------------------------------
def test_woa_act_04_five_action_types_and_the_immediate_swift_action() -> None:
    """WOA-ACT-04: standard, move, full-round, free and swift (immediate = a swift action off-turn, WOA-ACT-19; none =
    part of another action, WOA-ACT-21) — every row of the table is one of them."""
    table = actions_table()
    types = {row.type for row in [*table.kinds.values(), *table.activities.values()]}
    assert types == {"standard", "move", "full-round", "free", "swift", "immediate", "none"}


@pytest.mark.parametrize(("name", "cost"), [
    ("drink-potion", "standard"), ("combat-maneuver", "standard"), ("concentrate-on-spell", "standard"),
    ("pick-up-item", "move"), ("draw-item", "move"), ("stow-item", "move"), ("climb", "move"),
    ("use-skill", "standard"), ("use-special-ability", "standard")])
def test_woa_act_05_06_32_33_the_table_gives_each_activity_its_cost(name: str, cost: str) -> None:
    """WOA-ACT-05 (standard actions), WOA-ACT-06 (move actions), WOA-ACT-32 (skills) and WOA-ACT-33 (special
    abilities): the activity is paid as the table says."""
    enc = duel([])
    declare_all(enc, ax.Declare(standard="move", move="move"))
    events = enc.act(ax.Activity(name))
    assert [e.cost for e in events if isinstance(e, ev.BudgetSpent)] == [cost]


def test_woa_act_31_a_feat_costs_its_action_a_passive_feat_none() -> None:
    """WOA-ACT-31: Whirlwind Attack is used as a full-round action; a passive feat (Combat Reflexes) costs nothing
    and changes an existing action (the flat-footed immediate action, WOA-ACT-20)."""
    enc = duel([])
    declare_all(enc)
    events = enc.act(ax.Activity("whirlwind-attack"))
    assert [e.cost for e in events if isinstance(e, ev.BudgetSpent)] == ["full-round"]
    orc = stats("orc", hp=10, saves={"ref": 1}, attacks=[{"weapon": "club"}], feats=["Combat Reflexes"])
    enc2 = budgeted(1, [], [who("hero", HERO, "heroes", (1, 1)), who("orc", orc, "monsters", (9, 9))],
                    surprise={"surprised": ["orc"]})
    declare_all(enc2)
    enc2.act(ImmediateAction("feather fall", by="orc"))
    assert pools(enc2) == {"standard": 1, "move": 1, "free": 3}


def test_woa_act_05_an_activity_not_in_the_table_is_refused_by_name() -> None:
    """WOA-ACT-05: the table lists the activities; an unknown one is refused, naming the table; nothing changes."""
    enc = duel([])
    declare_all(enc)
    before = enc.state
    with pytest.raises(IllegalAction, match="Table: Actions in Combat"):
        enc.act(ax.Activity("juggle"))
    assert enc.state is before


def test_woa_act_21_stealth_while_moving_takes_no_action() -> None:
    """WOA-ACT-21: Stealth while moving is part of the move: no action spent."""
    enc = duel([])
    declare_all(enc)
    events = enc.act(ax.Activity("stealth-while-moving"))
    assert not [e for e in events if isinstance(e, ev.BudgetSpent)] and pools(enc) == {"standard": 1, "move": 1,
                                                                                       "free": 3}
    assert "WOA-ACT-21" in " ".join(e.explain() for e in events)


def test_woa_act_05_the_table_marks_provoking_actions() -> None:
    """WOA-ACT-05 (table): drinking a potion and standing up provoke; drawing a weapon and a short step do not."""
    assert provokes(ax.Activity("drink-potion")) and provokes(ax.StandUp())
    assert not provokes(ax.Draw("club")) and not provokes(ax.Step((1, 1)))


# --- free actions (WOA-ACT-13) -----------------------------------------------------------------------------------
def test_woa_act_13_free_actions_on_the_fly_within_the_dms_limit() -> None:
    """WOA-ACT-13: free actions need no declaration (declared nothing, still speaks) and the DM's limit holds
    (woa_free_action_limit 3 by default; 99 lifts it)."""
    enc = duel([])
    declare_all(enc)
    for _ in range(3):
        enc.act(Speak("Over here!"))
    with pytest.raises(IllegalAction, match="free action"):
        enc.act(Speak("And here!"))
    lifted = duel([], variants={"woa_free_action_limit": 99})
    declare_all(lifted)
    for _ in range(5):
        lifted.act(Speak("Over here!"))


# --- swift and immediate actions (WOA-ACT-03/10/14..20) -----------------------------------------------------------
def test_woa_act_14_a_swift_action_uses_up_a_combat_reaction() -> None:
    """WOA-ACT-14: the swift action spends one combat reaction (2 → 1), not the turn's actions."""
    enc = budgeted(2, [])
    declare_all(enc)
    assert enc.state.get("hero").reactions["reactions"] == 2
    events = enc.act(SwiftAction("quickened shield"))
    assert enc.state.get("hero").reactions["reactions"] == 1
    assert pools(enc) == {"standard": 1, "move": 1, "free": 3}
    spent = [e for e in events if isinstance(e, ev.ReactionSpent)]
    assert spent and "WOA-ACT-14" in spent[0].reaction and "1 left" in spent[0].reaction


def test_woa_act_03_and_15_swift_actions_are_limited_by_the_reactions_left() -> None:
    """WOA-ACT-03/15: one or more swift actions — two with two reactions, then none (0 left: no dodge or AoO)."""
    enc = budgeted(2, [])
    declare_all(enc)
    enc.act(SwiftAction("a"))
    enc.act(SwiftAction("b"))
    before = enc.state
    with pytest.raises(IllegalAction, match="WOA-ACT-14/15"):
        enc.act(SwiftAction("c"))
    assert enc.state is before and enc.state.get("hero").reactions["reactions"] == 0


def test_woa_act_16_swift_actions_are_not_declared() -> None:
    """WOA-ACT-16: declared an attack and a move only, a swift action may still be taken at any time of the turn."""
    enc = budgeted(1, [])
    declare_all(enc, ax.Declare(standard="attack", move="move", target="orc"))
    enc.act(ax.Move(to=(2, 1)))
    enc.act(SwiftAction("quickened shield"))
    assert enc.state.get("hero").reactions["reactions"] == 0


def test_woa_act_10_swift_and_free_actions_during_a_full_round_action() -> None:
    """WOA-ACT-10: after a full-round action (a run), a free action and a swift action (one reaction) remain."""
    enc = budgeted(1, [])
    declare_all(enc, ax.Declare(full_round="run"))
    enc.act(Run(to=(5, 1)))
    enc.act(Speak("Charge!"))
    assert enc.state.get("hero").has("running")


def test_woa_act_10_a_swift_action_with_a_declared_full_round_action() -> None:
    """WOA-ACT-10: declared a full-round action, the creature still takes a swift action before it."""
    enc = budgeted(1, [])
    declare_all(enc, ax.Declare(full_round="run"))
    enc.act(SwiftAction("quickened shield"))
    enc.act(Run(to=(5, 1)))
    assert enc.state.get("hero").reactions["reactions"] == 0 and enc.state.get("hero").position == (5, 1)


def test_woa_act_17_18_a_swift_action_is_the_turns_own() -> None:
    """WOA-ACT-17, WOA-ACT-18: a swift action is taken by the creature whose turn it is — it names no other
    creature, unlike an immediate action."""
    with pytest.raises(ValueError, match="no such field"):
        ax.action_from_dict({"kind": "swift_action", "name": "x", "by": "orc"}, [SwiftAction])
    assert ax.action_from_dict({"kind": "immediate_action", "name": "x", "by": "orc"}, [ImmediateAction]) == \
        ImmediateAction("x", by="orc")


def test_woa_act_19_an_immediate_action_off_turn_uses_a_combat_reaction() -> None:
    """WOA-ACT-19: on the hero's turn, the orc takes an immediate action: its reaction is spent."""
    enc = budgeted(1, [])
    declare_all(enc)
    enc.act(ImmediateAction("feather fall", by="orc"))
    assert enc.state.get("orc").reactions["reactions"] == 0
    with pytest.raises(IllegalAction, match="no combat reaction left"):
        enc.act(ImmediateAction("again", by="orc"))


def test_woa_act_20_no_immediate_action_while_flat_footed_without_combat_reflexes() -> None:
    """WOA-ACT-20: the surprised (flat-footed) orc cannot; with Combat Reflexes it can."""
    for feats, ok in (([], False), (["Combat Reflexes"], True)):
        orc = stats("orc", hp=10, attack_bonus=3, saves={"ref": 1}, attacks=[{"weapon": "club"}], feats=feats)
        enc = budgeted(1, [], [who("hero", HERO, "heroes", (1, 1)), who("orc", orc, "monsters", (9, 9))],
                       surprise={"surprised": ["orc"]})
        declare_all(enc)
        assert enc.state.get("orc").has("flat_footed")
        if ok:
            enc.act(ImmediateAction("feather fall", by="orc"))
        else:
            with pytest.raises(IllegalAction, match="WOA-ACT-20"):
                enc.act(ImmediateAction("feather fall", by="orc"))


# --- restricted activity (WOA-ACT-22..26) ------------------------------------------------------------------------
def slowed(dice: list[int], per_round: int = 3) -> Encounter:
    return budgeted(per_round, dice, [who("hero", HERO, "heroes", (1, 1), conditions=["slowed"]),
                                      who("orc", ORC, "monsters", (9, 9))])


def test_woa_act_22_restricted_activity_one_standard_or_move_action() -> None:
    """WOA-ACT-22: slowed, a move action leaves no standard action; free actions remain."""
    enc = slowed([])
    declare_all(enc, ax.Declare(standard="move", move="move"))
    enc.act(ax.Move(to=(2, 1)))
    with pytest.raises(IllegalAction, match="WOA-ACT-22"):
        enc.act(ax.Move(to=(3, 1)))
    enc.act(Speak("Slowly now"))


def test_woa_act_23_restricted_activity_no_full_round_action() -> None:
    """WOA-ACT-23: slowed, no run."""
    enc = slowed([])
    declare_all(enc, ax.Declare(full_round="run"))
    with pytest.raises(IllegalAction, match="WOA-ACT-23"):
        enc.act(Run(to=(3, 1)))


@pytest.mark.parametrize(("normal", "halved"), [(3, 1), (1, 0), (4, 2)])
def test_woa_act_24_restricted_activity_halves_the_combat_reactions(normal: int, halved: int) -> None:
    """WOA-ACT-24: 3 → 1, 1 → 0, 4 → 2 (rounded down); the unrestricted orc keeps its own."""
    enc = slowed([], per_round=normal)
    assert enc.state.get("hero").reactions["reactions"] == halved
    assert enc.state.get("orc").reactions["reactions"] == normal


def test_woa_act_25_start_and_complete_a_full_round_action() -> None:
    """WOA-ACT-25: slowed, a standard action starts disabling a trap in round 1; a standard action completes it in
    round 2 (and only it)."""
    enc = slowed([15, 1])
    declare_all(enc, ax.Declare(standard="start_full_round"))
    enc.act(StartFullRound("disable-trap"))
    assert pools(enc) == {"free": 3}
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    declare_all(enc)
    with pytest.raises(IllegalAction, match="WOA-ACT-25"):
        enc.act(ax.Activity("light-torch"))
    events = enc.act(ax.Activity("disable-trap"))
    assert [e.cost for e in events if isinstance(e, ev.BudgetSpent)] == ["full-round, completed with a standard "
                                                                         "action"]
    assert not any(e.name.startswith("starting") for e in enc.state.get("hero").effects)


def test_woa_act_25_without_a_start_no_full_round_action_and_none_to_start_unrestricted() -> None:
    """WOA-ACT-25: starting a full-round action is only for restricted activity."""
    enc = duel([])
    declare_all(enc, ax.Declare(standard="start_full_round"))
    with pytest.raises(IllegalAction, match="only under restricted activity"):
        enc.act(StartFullRound("disable-trap"))


@pytest.mark.parametrize("what", ["full_attack", "run", "charge"])
def test_woa_act_26_no_start_for_a_full_attack_or_movement(what: str) -> None:
    """WOA-ACT-26: not a full attack, nor any action involving movement (run, charge)."""
    enc = slowed([])
    declare_all(enc, ax.Declare(standard="start_full_round"))
    with pytest.raises(IllegalAction, match="WOA-ACT-26"):
        enc.act(StartFullRound(what))


# --- speaking (WOA-ACT-28..30) -----------------------------------------------------------------------------------
def test_woa_act_28_speaking_is_free_even_off_turn() -> None:
    """WOA-ACT-28: on the hero's turn the orc shouts; the hero's actions are untouched."""
    enc = duel([])
    declare_all(enc)
    events = enc.act(Speak("Intruders!", by="orc"))
    assert "off-turn" in " ".join(e.explain() for e in events)
    assert pools(enc) == {"standard": 1, "move": 1, "free": 3}


def test_woa_act_29_a_flat_footed_creature_cannot_speak() -> None:
    """WOA-ACT-29: the surprised orc cannot warn its friends."""
    enc = duel([], surprise={"surprised": ["orc"]})
    declare_all(enc)
    with pytest.raises(IllegalAction, match="WOA-ACT-29"):
        enc.act(Speak("Alarm!", by="orc"))


def test_woa_act_30_a_long_speech_takes_the_round() -> None:
    """WOA-ACT-30: more than a sentence or two is a full-round action, and never off-turn."""
    enc = duel([])
    declare_all(enc)
    enc.act(Speak("Hear me, all of you…", long=True))
    assert pools(enc) == {"free": 3}
    with pytest.raises(IllegalAction, match="WOA-ACT-30"):
        enc.act(Speak("Long story", by="orc", long=True))


# --- the economy as a pure function ------------------------------------------------------------------------------
def test_woa_act_15_pay_refuses_a_swift_action_with_no_reaction_left() -> None:
    """WOA-ACT-15: the economy's pay, given 0 reactions left, refuses; with none budgeted it records the swift."""
    from d20combat.encounter.state import TurnState
    from d20combat.rulesets.components import BudgetError

    econ = WoaEconomy()
    turn = TurnState("hero")
    with pytest.raises(BudgetError, match="WOA-ACT-14/15"):
        econ.pay("swift", turn, WoaAllowance(reactions_left=0), surprise_round=False)
    assert econ.pay("swift", turn, WoaAllowance(reactions_left=None), surprise_round=False)[1] == {}
