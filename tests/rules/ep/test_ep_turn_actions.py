"""Epic Path's action economy, holding and readying (EP-ACT-01..06, EP-ACT-17..41, EP-ACT-47..61)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.ep._util import FIGHTER, assert_illegal, stats, texts
from tests.rules.ep._util import ep as _ep

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.encounter.gm_actions import GmRemoveCreature
from d20combat.rulesets.epic_path.economy import IMMEDIATE, PART_OF_MOVE, locked
from d20combat.rulesets.epic_path.turn_actions import Hold, ImmediateAction, Ready, SwiftAction


def ep(*args: Any, **kw: Any) -> Encounter:
    """The first round as it starts: every creature Flat-Footed until it acts (EP-SURP-20), as these tests need."""
    return _ep(*args, alert=False, **kw)


def duel(dice: list[int] | None = None, **a: Any) -> Encounter:
    """a (a fighter) at (0, 0) acts first; b (hp 60) adjacent; c far away acts last."""
    return ep([{"id": "a", "side": "x", "stats": FIGHTER, "position": [0, 0], **a},
               {"id": "b", "side": "y", "stats": stats("b", hp=60, attacks=[{"weapon": "club"}]), "position": [1, 0]},
               {"id": "c", "side": "y", "stats": stats("c"), "position": [9, 9]}], dice=dice or [])


def pools(enc: Encounter) -> dict[str, int]:
    assert enc.state.turn is not None
    return {k: v for k, v in enc.state.turn.pools.items() if v and k != PART_OF_MOVE}


def actor(enc: Encounter) -> str:
    assert enc.state.turn is not None
    return enc.state.turn.actor


def spent(events: list[ev.Event]) -> list[str]:
    return [e.cost for e in events if isinstance(e, ev.BudgetSpent) and e.cost != "none"]


def test_ep_act_01_02_a_turn_holds_standard_move_swift_and_free() -> None:
    """EP-ACT-01: one standard, one move, one swift action and the free actions a turn; EP-ACT-02 (AMBIGUOUS, no
    option — the reading from the headings, docs/epic-path/time-and-turn.md says why): the
    types are paid as such (standard, move, swift, full-round, free; immediate and AoO off-turn)."""
    enc = duel()
    assert pools(enc) == {"standard": 1, "move": 1, "swift": 1, "free": 1}
    assert spent(enc.act(SwiftAction("enter a stance"))) == ["swift"]
    assert spent(enc.act(ax.Activity("open-door"))) == ["move"]
    assert spent(enc.act(ax.Activity("drink-potion"))) == ["standard"]
    assert spent(enc.act(ax.Activity("speak"))) == ["free"]
    assert pools(enc) == {}


def test_ep_act_03_05_full_round_locks_until_the_next_turn() -> None:
    """EP-ACT-03: a full-round action takes every action of the turn; EP-ACT-05: no immediate action and no attack
    of opportunity until the creature's next turn."""
    enc = duel([1])
    assert spent(enc.act(ax.Activity("lift-gate"))) == ["full-round"]
    assert pools(enc) == {"free": 1} and locked(enc.state.get("a"))
    assert_illegal(enc, ax.Activity("open-door"), "no move action left")
    assert_illegal(enc, SwiftAction("smite"), "no swift action left")
    enc.act(ax.EndTurn())
    assert_illegal(enc, ImmediateAction("feather fall", by="a"), "full-round action: no immediate action")
    enc.act(ax.Move(to=(2, 1)))  # b leaves a's threatened square: a is locked, nobody is asked
    assert enc.pending is None and enc.state.get("b").position == (2, 1)
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    assert actor(enc) == "a" and not locked(enc.state.get("a"))


def test_ep_act_17_18_one_standard_action_a_round() -> None:
    """EP-ACT-17: standard actions on your own turn; EP-ACT-18: never a second standard action in a round."""
    enc = duel([1])
    enc.act(ax.Attack("b"))
    assert_illegal(enc, ax.Attack("b"), "standard action is already used")
    assert_illegal(enc, Ready(trigger="b"), "standard action is already used")


def test_ep_act_19_20_21_typical_standard_and_move_actions() -> None:
    """EP-ACT-19: drinking a potion or readying is a standard action; EP-ACT-20: moving up to speed is a move action;
    EP-ACT-21: standing up is a move action."""
    enc = duel(conditions=["prone"])
    assert spent(enc.act(ax.StandUp())) == ["move"]
    assert spent(enc.act(Ready(trigger="b"))) == ["standard"]
    enc2 = three()
    assert spent(enc2.act(ax.Move(to=(0, 5)))) == ["move"]


def test_ep_act_23_a_standard_action_converts_down_to_a_move_or_a_swift() -> None:
    """EP-ACT-23: the standard action may be spent as a second move action or as a swift action."""
    enc = duel()
    enc.act(ax.Activity("open-door"))
    assert spent(enc.act(ax.Activity("close-door"))) == ["standard-as-move"]
    enc2 = duel()
    enc2.act(SwiftAction("smite"))
    assert spent(enc2.act(SwiftAction("rage"))) == ["move-as-swift"]
    assert spent(enc2.act(SwiftAction("castigate"))) == ["standard-as-swift"]


def test_ep_act_24_25_26_never_converted_up() -> None:
    """EP-ACT-24, EP-ACT-26: with the standard spent, a move and a swift action never make a standard one;
    EP-ACT-25: a swift
    action is never converted into a move."""
    enc = duel([1])
    enc.act(ax.Attack("b"))
    assert pools(enc)["move"] == 1 and pools(enc)["swift"] == 1
    assert_illegal(enc, ax.Activity("drink-potion"), "never make one")
    enc.act(ax.Activity("open-door"))
    assert_illegal(enc, ax.Activity("close-door"), "a swift action is never converted up")


def test_ep_act_31_32_33_swift_actions() -> None:
    """EP-ACT-31: one swift action a turn; EP-ACT-32: three when the standard and the move are degraded; EP-ACT-33:
    entering a stance is a swift action."""
    enc = duel()
    for _ in range(3):
        enc.act(SwiftAction("enter a stance"))
    assert_illegal(enc, SwiftAction("enter a stance"), "at most three a turn")
    assert_illegal(enc, SwiftAction(""), "give a name")


def test_ep_act_34_35_37_one_immediate_action_a_round_its_own_budget() -> None:
    """EP-ACT-34: an immediate action at any time, also out of turn; EP-ACT-35: one a round, not the swift action's;
    EP-ACT-37: an attack of opportunity does not use it."""
    enc = duel([1])
    enc.act(SwiftAction("smite"))
    enc.act(ImmediateAction("feather fall"))
    assert_illegal(enc, ImmediateAction("feather fall"), "one a round")
    enc.act(ax.EndTurn())
    enc.act(ax.Move(to=(2, 1)))     # b provokes: a strikes (d20 1, a miss)
    enc.respond("attack")
    assert enc.state.get("a").reactions[IMMEDIATE] == 0 and enc.state.get("a").reactions["aoo"] == 0
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    assert enc.state.get("a").reactions[IMMEDIATE] == 1  # a new round
    other = duel([1])
    other.act(ax.EndTurn())
    other.act(ax.Move(to=(2, 1)))
    other.respond("attack")
    events = other.act(ImmediateAction("feather fall", by="a"))  # on b's turn
    assert any(isinstance(e, ev.ReactionSpent) and e.combatant == "a" for e in events)


def test_ep_act_36_no_immediate_action_while_flat_footed() -> None:
    """EP-ACT-36: c has not acted yet, so it is Flat-Footed and cannot take an immediate action."""
    enc = duel()
    assert_illegal(enc, ImmediateAction("feather fall", by="c"), "flat-footed: no immediate action")
    assert_illegal(enc, ImmediateAction("feather fall", by="nobody"), "no creature 'nobody'")


def test_ep_act_38_39_41_free_actions_gm_limit_and_dialogue() -> None:
    """EP-ACT-38: the GM limits free actions (``max_free_actions``); EP-ACT-39: on your own turn; EP-ACT-41: most
    dialogue is a free action."""
    enc = duel()
    enc.act(ax.Activity("speak"))
    assert_illegal(enc, ax.Activity("speak"), "no free action left")
    chatty = ep([{"id": "a", "side": "x", "stats": FIGHTER, "position": [0, 0]},
                 {"id": "b", "side": "y", "stats": stats("b"), "position": [5, 5]}], variants={"max_free_actions": 3})
    for _ in range(3):
        assert spent(chatty.act(ax.Activity("speak"))) == ["free"]
    chatty.act(ax.EndTurn())
    assert pools(chatty)["free"] == 3 and actor(chatty) == "b"


# --- holding ------------------------------------------------------------------------------------------------------
def three() -> Encounter:
    """h (25), m (17), z (10)."""
    return ep([{"id": "h", "side": "x", "stats": stats("h"), "position": [0, 0], "initiative": 25},
               {"id": "m", "side": "y", "stats": stats("m"), "position": [9, 9], "initiative": 17},
               {"id": "z", "side": "y", "stats": stats("z"), "position": [9, 0], "initiative": 10}])


def test_ep_act_47_48_49_50_51_hold_then_act_right_after_the_creature() -> None:
    """EP-ACT-47: holding costs no action; EP-ACT-49: the holder is passed over; EP-ACT-48, EP-ACT-50: it acts
    right after m
    has finished, before z, never inside m's turn; EP-ACT-51: its initiative becomes 17 − 1 = 16 for good."""
    enc = three()
    events = enc.act(Hold(after="m"))
    assert spent(events) == [] and actor(enc) == "m"
    assert "16 = m's 17 − 1" in texts(events)
    events = enc.act(ax.EndTurn())
    ended = [i for i, e in enumerate(events) if isinstance(e, ev.TurnEnded) and e.combatant == "m"]
    started = [i for i, e in enumerate(events) if isinstance(e, ev.TurnStarted) and e.combatant == "h"]
    assert ended and started and ended[0] < started[0] and actor(enc) == "h"
    assert pools(enc)["standard"] == 1 and enc.state.get("h").initiative == 16
    enc.act(ax.EndTurn())
    assert actor(enc) == "z"
    enc.act(ax.EndTurn())
    assert enc.state.round == 2 and actor(enc) == "m" and enc.state.order == ("m", "h", "z")


@pytest.mark.parametrize(("reading", "later"), [("after_that_creature", ("m", "h", "z")),
                                              ("tie_break", ("m", "z", "h"))])
def test_ep_act_51_option_the_holders_tie_in_later_rounds(reading: str, later: tuple[str, ...]) -> None:
    """EP-ACT-51 (AMBIGUOUS, option ep_hold_tie_in_later_rounds): h (25, initiative +0) holds until after m (17): its
    number becomes 16, which z (initiative +2) already has. This round h acts right after m either way; from round
    2 it stays right after m (default), or the tie-breakers place it — z's higher initiative modifier first
    (EP-INIT-05)."""
    enc = ep([{"id": "h", "side": "x", "stats": stats("h"), "position": [0, 0], "initiative": 25},
              {"id": "m", "side": "y", "stats": stats("m"), "position": [9, 9], "initiative": 17},
              {"id": "z", "side": "y", "stats": stats("z", abilities={"dex": 14}), "position": [9, 0],
               "initiative": 16}], variants={"ep_hold_tie_in_later_rounds": reading})
    enc.act(Hold(after="m"))
    enc.act(ax.EndTurn())                                    # m
    assert actor(enc) == "h" and enc.state.get("h").initiative == 16
    enc.act(ax.EndTurn())                                    # h
    assert actor(enc) == "z"
    events = enc.act(ax.EndTurn())                           # z; round 2
    assert enc.state.round == 2 and enc.state.order == later
    if reading == "tie_break":
        assert "h's initiative 16 ties with z: the tie-breakers place it (EP-ACT-51" in texts(events)


def test_ep_act_50_hold_until_after_a_creature_that_already_acted() -> None:
    """EP-ACT-50: holding until after a creature that acted earlier in the round means acting after it next round,
    one action a round."""
    enc = three()
    enc.act(ax.EndTurn())                      # h
    enc.act(Hold(after="h"))                   # m holds until after h
    assert actor(enc) == "z" and enc.state.order == ("h", "m", "z")
    enc.act(ax.EndTurn())                      # z; round 2
    assert enc.state.round == 2 and actor(enc) == "h"
    enc.act(ax.EndTurn())
    assert actor(enc) == "m" and enc.state.get("m").initiative == 24


def test_ep_act_52_a_hold_held_all_the_way_around_is_lost() -> None:
    """EP-ACT-52: held until the count comes round again, the held action is lost; the creature takes its new
    round's action at its old initiative."""
    enc = three()
    enc.act(Hold())
    assert any(e.name.startswith("holding its action") for e in enc.state.get("h").effects)
    enc.act(ax.EndTurn())
    events = enc.act(ax.EndTurn())
    assert any(isinstance(e, ev.EffectEnded) and e.target == "h" and "EP-ACT-52" in e.name for e in events)
    assert actor(enc) == "h" and enc.state.get("h").initiative == 25 and pools(enc)["standard"] == 1


def test_ep_act_49_hold_is_declared_before_acting() -> None:
    """EP-ACT-49: a creature holds instead of acting; bad targets are refused."""
    enc = duel()
    enc.act(SwiftAction("smite"))
    assert_illegal(enc, Hold(after="b"), "before it does anything")
    enc2 = duel()
    assert_illegal(enc2, Hold(after="a"), "after itself")
    assert_illegal(enc2, Hold(after="ghost"), "no creature 'ghost'")


# --- readying -----------------------------------------------------------------------------------------------------
def ambusher() -> Encounter:
    """r (20, a fighter with a club) readies against o (15) and a (12), both adjacent; ally p (18)."""
    return ep([{"id": "r", "side": "x", "stats": FIGHTER, "position": [1, 1], "initiative": 20},
               {"id": "p", "side": "x", "stats": stats("p"), "position": [1, 2], "initiative": 18},
               {"id": "o", "side": "y", "stats": stats("o", hp=60), "position": [2, 1], "initiative": 15},
               {"id": "a", "side": "y", "stats": stats("a", hp=60), "position": [0, 1], "initiative": 12}],
              dice=[15, 3, 15, 3, 15, 3])


def test_ep_act_54_57_60_ready_an_attack_that_interrupts() -> None:
    """EP-ACT-54: readying costs the standard action; EP-ACT-57: when the trigger happens (o starts its turn) the
    attack resolves at once as an interrupt; EP-ACT-60: r's initiative does not change."""
    enc = ambusher()
    assert spent(enc.act(Ready(trigger="o"))) == ["standard"]
    enc.act(ax.EndTurn())
    events = enc.act(ax.EndTurn())  # p ends; o's turn starts
    attacks = [e for e in events if isinstance(e, ev.AttackResolved)]
    assert [(e.attacker, e.target) for e in attacks] == [("r", "o")] and attacks[0].hit
    assert actor(enc) == "o" and enc.state.get("r").initiative == 20 and "EP-ACT-57" in texts(events)


def test_ep_act_55_56_the_readied_action_and_its_trigger() -> None:
    """EP-ACT-55: only what a standard action can do (an attack here); EP-ACT-56: a clear trigger is required."""
    enc = ambusher()
    assert_illegal(enc, Ready(), "name the creature whose turn")
    assert_illegal(enc, Ready(trigger="ghost"), "no creature 'ghost'")
    assert_illegal(enc, Ready(trigger="o", attack="halberd"), "no attack 'halberd'")
    enc.act(ax.Activity("drink-potion"))
    assert_illegal(enc, Ready(trigger="o"), "standard action is already used")


def test_ep_act_58_a_trigger_is_literal_even_for_an_ally() -> None:
    """EP-ACT-58: "when any creature starts its turn" fires on the ally p too."""
    enc = ambusher()
    enc.act(Ready(trigger="any", target=""))
    events = enc.act(ax.EndTurn())
    assert [(e.attacker, e.target) for e in events if isinstance(e, ev.AttackResolved)] == [("r", "p")]


def test_ep_act_59_unfired_readied_action_is_lost() -> None:
    """EP-ACT-59: the count reaches r again before the trigger happened (p left the fight before its turn): the
    readied action is lost."""
    enc = ambusher()
    enc.act(Ready(trigger="p", target="o"))
    enc.gm(GmRemoveCreature("p"))
    for _ in range(3):
        enc.act(ax.EndTurn())
    assert actor(enc) == "r" and enc.state.round == 2
    assert not any(e.name.startswith("readied") for e in enc.state.get("r").effects)
    assert not any(isinstance(e, ev.AttackResolved) for e in enc.log)


def test_ep_act_61_trigger_in_the_next_round_and_still_a_turn() -> None:
    """EP-ACT-61: z (10) readies in round 1 against o (15); the trigger comes in round 2, before z's turn: the attack
    resolves and z still takes its whole round-2 turn."""
    enc = ep([{"id": "o", "side": "y", "stats": stats("o", hp=60), "position": [2, 1], "initiative": 15},
              {"id": "z", "side": "x", "stats": FIGHTER, "position": [1, 1], "initiative": 10}], dice=[15, 3])
    enc.act(ax.EndTurn())                     # o, round 1
    enc.act(Ready(trigger="o"))               # z readies
    events = enc.act(ax.EndTurn())            # round 2: o starts its turn → the readied attack
    assert enc.state.round == 2 and [e.attacker for e in events if isinstance(e, ev.AttackResolved)] == ["z"]
    enc.act(ax.EndTurn())                     # o
    assert actor(enc) == "z" and pools(enc)["standard"] == 1


# --- part of a move action ---------------------------------------------------------------------------------------
def armed(**kw: Any) -> Encounter:
    """w (a fighter, club in hand) far from anyone; its turn first."""
    return ep([{"id": "w", "side": "x", "stats": {**FIGHTER, "wielding": "club"}, "position": [0, 0], **kw},
               {"id": "e", "side": "y", "stats": stats("e"), "position": [9, 9]}])


def test_ep_act_27_30_draw_as_part_of_the_move() -> None:
    """EP-ACT-27: walking and drawing a weapon take one move action; EP-ACT-30: drawing, sheathing, drawing a potion,
    picking up an item are such activities; only one rides on each move action."""
    enc = armed()
    enc.act(ax.Move(to=(0, 4)))
    events = enc.act(ax.Sheathe())
    assert spent(events) == ["part-of-move"]
    assert "carried by the move action taken" in texts(events) and enc.state.get("w").wielding is None
    assert pools(enc) == {"standard": 1, "swift": 1, "free": 1}
    assert spent(enc.act(ax.Draw("club"))) == ["standard-as-move"]   # the rider is used: the next costs an action
    potion = armed()
    potion.act(ax.Move(to=(0, 4)))
    assert spent(potion.act(ax.Activity("draw-potion"))) == ["part-of-move"]


def test_ep_act_28_rides_on_a_move_action_without_movement() -> None:
    """EP-ACT-28: standing up from prone (a move action, no movement) can carry drawing a weapon."""
    enc = armed(conditions=["prone"])
    enc.act(ax.Sheathe())                       # pays the move action itself …
    assert spent(enc.act(ax.StandUp())) == ["standard-as-move"]
    assert spent(enc.act(ax.Draw("club"))) == ["part-of-move"]  # … and standing up carries the draw


def test_ep_act_29_not_after_a_move_degraded_to_swift_or_a_full_round() -> None:
    """EP-ACT-29: no "part of a move" activity in a round whose move action went to a swift action or whose
    actions went to a full-round action: an actual move action must be taken."""
    enc = armed()
    enc.act(SwiftAction("smite"))
    enc.act(SwiftAction("rage"))                # the move action spent as a swift one
    assert spent(enc.act(ax.Sheathe())) == ["standard-as-move"]
    full = armed()
    full.act(ax.Activity("lift-gate"))
    assert_illegal(full, ax.Sheathe(), "no move action left")


def test_ep_act_06_loading_a_heavy_crossbow_is_a_full_round_action() -> None:
    """EP-ACT-06: loading a heavy crossbow is one of the full-round actions: it takes the turn's actions and locks the
    creature's reactions until its next turn (EP-ACT-05)."""
    bow = {**FIGHTER, "attacks": [{"weapon": "heavy-crossbow"}], "wielding": "heavy-crossbow"}
    enc = ep([{"id": "x", "side": "x", "stats": bow, "position": [0, 0]},
              {"id": "y", "side": "y", "stats": stats("y"), "position": [9, 9]}], dice=[1])
    enc.act(ax.Attack("y"))                    # the crossbow starts loaded: the shot empties it (d20 1, a miss)
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    assert spent(enc.act(ax.Reload("heavy-crossbow"))) == ["full-round"]
    assert locked(enc.state.get("x")) and pools(enc) == {"free": 1}
