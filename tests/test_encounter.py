"""Whole-encounter behaviour: typed dice, undo/redo, decisions, and the sample scenarios."""

from __future__ import annotations

import pytest
from tests.conftest import make_encounter

from d20combat.controllers import TacticalAI, play
from d20combat.dice import DiceError, SeededDice, TypedDice
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.scenario import load_battle


def _duel() -> Encounter:
    return make_encounter([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [2, 1]},
    ])


def test_typed_dice_explain_the_physical_roll() -> None:
    enc = _duel()
    enc.dice = TypedDice()
    enc.dice.enter(15, sides=20)
    enc.dice.enter(5, sides=8)
    events = enc.act(ax.Attack("g"))
    attack = next(e for e in events if isinstance(e, ev.AttackResolved))
    assert "20 = d20 15 + BAB 1 + Str 3 + Weapon Focus 1" in attack.lines[1]
    assert next(e for e in events if isinstance(e, ev.Damaged)).amount == 8


def test_a_wrong_typed_die_is_rejected_and_nothing_changes() -> None:
    enc = _duel()
    dice = TypedDice()
    enc.dice = dice
    with pytest.raises(DiceError):
        dice.enter(21, sides=20)  # no d20 shows 21
    dice.enter(25)  # typed without naming the die: checked when the d20 is rolled
    before, log_len = enc.state, len(enc.log)
    with pytest.raises(DiceError, match="cannot show 25"):
        enc.act(ax.Attack("g"))
    assert enc.state is before and len(enc.log) == log_len
    # A d6 typed where the d20 is asked for is also refused, naming both dice.
    dice._queue.clear()
    dice.enter(4, sides=6)
    with pytest.raises(DiceError, match="a d20 is needed, but a d6 was typed"):
        enc.act(ax.Attack("g"))
    assert enc.state is before


def test_undo_restores_the_state_and_redo_replays_it() -> None:
    enc = make_encounter([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [2, 1]},
    ], dice=[10, 3])
    start, log_len = enc.state, len(enc.log)
    enc.act(ax.Attack("g"))
    after = enc.state
    assert after.get("g").hp < start.get("g").hp
    assert enc.undo()
    assert enc.state is start and len(enc.log) == log_len
    assert enc.redo()
    assert enc.state == after
    assert not enc.redo()


def test_illegal_actions_name_the_rule() -> None:
    enc = _duel()
    before = enc.state
    with pytest.raises(IllegalAction, match="PFB-ITEM-01"):
        enc.act(ax.Attack("g", "shortbow"))  # the bow is not in hand
    with pytest.raises(IllegalAction, match="outside"):
        enc.act(ax.Move(to=(40, 40)))
    with pytest.raises(IllegalAction, match="no combatant"):
        enc.act(ax.Attack("nobody"))
    assert enc.state is before


def test_decision_lists_legal_options_only() -> None:
    enc = _duel()
    decision = enc.decision()
    assert decision is not None and decision.actor == "f"
    kinds = {type(a) for a in decision.options}
    assert ax.Attack in kinds and ax.Move in kinds and ax.EndTurn in kinds
    assert all(enc.check(a) is None for a in decision.options)
    assert not any(isinstance(a, ax.Charge) for a in decision.options)  # already adjacent


def test_ogre_charge_scenario_exercises_charge_cover_and_concealment() -> None:
    """Across a few seeds the sample battle shows a charge, cover and concealment being applied."""
    seen_charge = seen_cover = seen_concealment = False
    for seed in range(12):
        enc = play(Encounter(load_battle("examples/ogre-charge.yaml"), SeededDice(seed)), TacticalAI())
        assert enc.state.ended
        for e in enc.log:
            if isinstance(e, ev.Moved) and e.mode == "charge":
                seen_charge = True
            if isinstance(e, ev.AttackResolved):
                text = "\n".join(e.lines)
                seen_cover |= "cover: +4 AC" in text
                seen_concealment |= "concealment d%" in text
    assert seen_charge and seen_cover and seen_concealment


def test_demo_battle_is_won_by_someone_within_the_round_limit() -> None:
    winners = set()
    for seed in range(6):
        enc = play(Encounter(load_battle("examples/goblin-ambush.yaml"), SeededDice(seed)), TacticalAI())
        assert enc.state.ended and enc.state.winner is not None, enc.state.end_reason
        winners.add(enc.state.winner)
    assert winners <= {"heroes", "goblins"}


def test_a_dropped_shield_cannot_be_strapped_back_on() -> None:
    """PFB-ITEM-12: a shield held in the hand can be dropped (free); it then gives nothing and stays down."""
    enc = make_encounter([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [5, 5]},
    ])
    enc.act(ax.ShieldAction("remove"))
    enc.act(ax.ShieldAction("drop"))
    assert enc.state.get("f").shield_state == "dropped"
    before = enc.state
    with pytest.raises(IllegalAction, match="dropped"):
        enc.act(ax.ShieldAction("strap"))
    assert enc.state is before


@pytest.mark.parametrize("path", sorted(str(p) for p in __import__("pathlib").Path("examples").glob("*.yaml")))
def test_every_example_plays_to_the_end(path: str) -> None:
    """Each shipped scenario (one per ruleset at least) is played to its end by the AI, reproducibly."""
    logs = []
    for _ in range(2):
        enc = play(Encounter(load_battle(path), SeededDice(4)), TacticalAI())
        assert enc.state.ended, path
        logs.append([e.to_json() for e in enc.log])
    assert logs[0] == logs[1]
