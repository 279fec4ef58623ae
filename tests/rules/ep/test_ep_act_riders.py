"""Epic Path's actions of the turn not covered elsewhere: a full-round action's effect at the end of the turn
(EP-ACT-04), the first strike from either weapon (EP-ACT-10), the move and standard actions making the full attack
(EP-ACT-22), a free action riding on an attack — Cleaving Finish (EP-ACT-40) — and the log of an action point spent
on the creature's own turn."""

from __future__ import annotations

from tests.rules.ep._util import assert_illegal, ep, stats, texts
from tests.rules.ep.test_ep_melee import GUARD, VETERAN, attack_lines

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.rulesets.epic_path.feats import CLEAVED, CleavingFinish
from d20combat.rulesets.epic_path.initiative import ACTION_POINTS
from d20combat.rulesets.epic_path.melee import FullAttack, TotalDefense
from d20combat.rulesets.epic_path.turn_actions import FULL_ROUND_PENDING, SpendActionPoint


def scene(dice: list[int], veteran: dict[str, object] = VETERAN, guard_hp: int = 20) -> Encounter:
    return ep([{"id": "v", "side": "a", "stats": veteran, "position": [2, 2]},
               {"id": "g", "side": "b", "stats": {**GUARD, "hp": guard_hp}, "position": [3, 2]},
               {"id": "h", "side": "b", "stats": GUARD, "position": [2, 3]}], dice=dice)


# --------------------------------------------------------------------------------------------- EP-ACT-04
def test_ep_act_04_a_full_round_action_takes_effect_at_the_end_of_the_turn() -> None:
    """EP-ACT-04: lifting a gate (a full-round activity) is under way while the turn lasts and takes effect when it
    ends, before the next creature's turn."""
    enc = scene([])
    taken = enc.act(ax.Activity("lift-gate"))
    assert "takes effect" not in texts(taken)
    assert any(e.name == FULL_ROUND_PENDING + "lift-gate" for e in enc.state.get("v").effects)
    ended = enc.act(ax.EndTurn())
    kinds = [type(e) for e in ended]
    note = next(i for i, e in enumerate(ended) if "lift-gate takes effect at the end of its turn" in e.explain())
    assert note < kinds.index(ev.TurnEnded) and "EP-ACT-04" in ended[note].explain()
    assert not any(e.name.startswith(FULL_ROUND_PENDING) for e in enc.state.get("v").effects)


def test_ep_act_04_only_full_round_actions_wait_and_total_defense_applies_at_once() -> None:
    """EP-ACT-04: a standard activity waits for nothing; total defense, the exception (EP-DEF-15), gives its AC in
    the same action, before its turn ends."""
    enc = scene([])
    enc.act(ax.Activity("cast-spell"))
    assert "takes effect" not in texts(enc.act(ax.EndTurn()))
    enc = scene([])
    events = enc.act(TotalDefense())
    added = next(i for i, e in enumerate(events) if isinstance(e, ev.EffectAdded) and e.ac == 4)
    ended = next(i for i, e in enumerate(events) if isinstance(e, ev.TurnEnded))
    assert added < ended and "takes effect" not in texts(events)


# --------------------------------------------------------------------------------------------- EP-ACT-10, 22
TWO_WEAPONS = {**VETERAN, "attacks": [{"weapon": "club"}, {"weapon": "dagger", "off_hand": True}]}


def test_ep_act_10_the_first_strike_may_come_from_either_weapon() -> None:
    """EP-ACT-10: with a club in hand and a dagger in the other, the first attack of the full attack with the dagger,
    the next with the club; a weapon in neither hand must still be drawn."""
    sheathed = scene([])
    assert_illegal(sheathed, FullAttack("g", "dagger"), "must draw dagger")
    enc = scene([15, 2, 15, 3], TWO_WEAPONS)
    first = enc.act(FullAttack("g", "dagger"))
    second = enc.act(FullAttack("g", "club"))
    assert [e.attack for e in [*first, *second] if isinstance(e, ev.AttackResolved)] == ["dagger", "club"]
    assert attack_lines(second) == ["hits: 21 = d20 15 + BAB 11 − second attack 5 vs AC 10 (10)"]


def test_ep_act_22_the_move_and_the_standard_action_make_the_full_attack() -> None:
    """EP-ACT-22: the full attack takes the standard action with its first attack and the move action with its
    second: nothing of either is left, so no move action (drawing a weapon) afterwards."""
    enc = scene([1, 1])
    enc.act(FullAttack("g"))
    assert enc.state.turn is not None and enc.state.turn.pools["standard"] == 0 and enc.state.turn.pools["move"] == 1
    spent = [e for e in enc.act(FullAttack("h")) if isinstance(e, ev.BudgetSpent)]
    assert spent[0].cost == "move"
    assert enc.state.turn is not None and enc.state.turn.pools["move"] == 0
    assert_illegal(enc, ax.Draw("dagger"), "move action")


# --------------------------------------------------------------------------------------------- EP-ACT-40
CLEAVER = {**VETERAN, "feats": ["cleaving_finish"]}


def test_ep_act_40_cleaving_finish_an_extra_attack_after_a_foe_drops() -> None:
    """EP-ACT-40: the attack drops g (club 3 on 3 hp); Cleaving Finish, a free action, attacks h at once; one a
    turn."""
    enc = scene([15, 3, 12, 2], CLEAVER, guard_hp=3)
    enc.act(ax.Attack("g"))
    assert enc.state.get("g").hp <= 0
    assert_illegal(enc, CleavingFinish("g"), "already down")
    events = enc.act(CleavingFinish("h"))
    assert [e.target for e in events if isinstance(e, ev.AttackResolved)] == ["h"]
    assert "dropped g: Cleaving Finish grants an extra melee attack on h" in texts(events)
    assert [e.cost for e in events if isinstance(e, ev.BudgetSpent)] == ["free"]
    assert enc.state.get("h").hp == 18
    assert any(e.name == CLEAVED for e in enc.state.get("v").effects)
    assert_illegal(enc, CleavingFinish("h"), "one extra attack a turn")


def test_ep_act_40_cleaving_finish_needs_a_dropped_foe_and_the_feat() -> None:
    """EP-ACT-40: a hit that leaves the foe standing grants nothing; without the feat nothing either."""
    enc = scene([15, 3], CLEAVER)
    enc.act(ax.Attack("g"))
    assert_illegal(enc, CleavingFinish("h"), "only after an attack of this turn drops a foe")
    plain = scene([15, 3], guard_hp=3)
    plain.act(ax.Attack("g"))
    assert_illegal(plain, CleavingFinish("h"), "lacks the feat")


def test_ep_act_40_the_drop_must_be_this_turn() -> None:
    """EP-ACT-40: a foe dropped in an earlier turn grants no Cleaving Finish in the next one."""
    enc = scene([15, 3, 10, 10, 10], CLEAVER, guard_hp=3)  # then g's dying checks
    enc.act(ax.Attack("g"))
    while enc.state.turn is not None and enc.state.round == 1:
        enc.act(ax.EndTurn())
    while enc.state.turn is not None and enc.state.turn.actor != "v":
        enc.act(ax.EndTurn())
    assert_illegal(enc, CleavingFinish("h"), "only after an attack of this turn drops a foe")


# --------------------------------------------------------------------------------------------- action points
def test_ep_action_point_spent_on_its_own_turn_is_explained_as_spending() -> None:
    """EP-MISC-22: the log says the creature spends an action point (not that it reacts), what it buys and how
    many are left."""
    enc = ep([{"id": "a", "side": "x", "stats": stats("a"), "position": [0, 0]},
              {"id": "b", "side": "y", "stats": stats("b"), "position": [9, 9]}])
    text = texts(enc.act(SpendActionPoint()))
    assert "a spends an action point: action point in combat round 1" in text and "0 left" in text
    assert "reacts" not in text and enc.state.get("a").reactions[ACTION_POINTS] == 0
