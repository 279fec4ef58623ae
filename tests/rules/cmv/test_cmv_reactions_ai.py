"""CMV reaction attacks (Epic Path's attacks of opportunity borrowed behind cmv_reaction_attack_rules, for
CMV-COV-08, CMV-CONC-16, CMV-COND-39) and the ruleset's own tactics for the AI."""

from __future__ import annotations

import pytest

from d20combat.controllers import TacticalAI, play
from d20combat.dice import SeededDice
from d20combat.encounter import actions as ax
from d20combat.encounter.engine import Encounter
from d20combat.rulesets.off_guard import CoupDeGrace, Escape

from ._util import FIGHTER, armored, cmv, resolved

T15 = armored("target", 5)


def walker(variants=None, *, guard=FIGHTER, dice=(), walker_stats=T15):
    return cmv([{"id": "t", "side": "f", "stats": walker_stats, "position": [2, 1]},
                {"id": "a", "side": "h", "stats": guard, "position": [1, 1]}], dice=dice, variants=variants)


def test_cmv_cov_08_leaving_a_threatened_square_provokes_one_reaction_attack_a_round() -> None:
    """CMV-COV-08 (proposed: EP's rules): leaving a square the fighter threatens provokes; the attack uses the
    weapon in hand at its full bonus; once its reaction is spent, the fighter makes no second one this round."""
    enc = walker(dice=(15, 3))
    enc.act(ax.Move(to=(4, 1)))
    assert enc.pending is not None and enc.pending.prompt.kind == "attack_of_opportunity"
    events = enc.respond("attack")
    assert resolved(events).hit and enc.state.get("t").hp == 17
    assert enc.state.get("a").reactions["aoo"] == 0
    enc.act(ax.Move(to=(2, 2)))  # back past the fighter and away again (standard as a move)
    assert enc.pending is None


def test_cmv_cov_08_a_five_foot_step_does_not_provoke_a_charge_does() -> None:
    """CMV-COV-08 (EP-AOO-06/08): a 5-foot step never provokes; the movement of a charge does."""
    enc = walker()
    enc.act(ax.Step((3, 1)))
    assert enc.pending is None and enc.state.get("t").position == (3, 1)
    charge = cmv([{"id": "t", "side": "f", "stats": T15, "position": [2, 1]},
                  {"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1]},
                  {"id": "b", "side": "h", "stats": FIGHTER, "position": [2, 6]}])
    charge.act(ax.Charge("b", to=(2, 5)))
    assert charge.pending is not None and charge.pending.prompt.reactor == "a"


@pytest.mark.parametrize(("variants", "offered"), [({}, True), ({"cmv_reaction_attack_rules": "none"}, False)])
def test_cmv_cov_08_variant_reaction_attack_rules(variants: dict[str, object], offered: bool) -> None:
    """CMV-COV-08 (MISSING): 'reaction attack' = EP's attack of opportunity by default; with
    cmv_reaction_attack_rules = none there are no such attacks (and no reaction pool)."""
    enc = walker(variants)
    enc.act(ax.Move(to=(4, 1)))
    assert (enc.pending is not None) is offered
    assert ("aoo" in enc.state.get("a").reactions) is offered


def test_cmv_cov_08_only_a_melee_weapon_in_hand_threatens() -> None:
    """CMV-COV-08 (EP-AOO-01/02): a fighter holding a bow threatens nothing."""
    archer = cmv([{"id": "t", "side": "f", "stats": T15, "position": [2, 1]},
                  {"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1], "wielding": "longbow"}])
    archer.act(ax.Move(to=(4, 1)))
    assert archer.pending is None


def test_cmv_cond_39_the_dazed_may_react_the_stunned_may_not() -> None:
    """CMV-COND-05, CMV-COND-14, CMV-COND-39: a dazed guard still makes its reaction attack, a stunned one doesn't."""
    for cond, offered in (("dazed", True), ("stunned", False)):
        enc = cmv([{"id": "t", "side": "f", "stats": T15, "position": [2, 1]},
                   {"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1], "conditions": [cond]}])
        enc.act(ax.Move(to=(4, 1)))
        assert (enc.pending is not None) is offered


def test_cmv_ai_delivers_a_coup_de_grace_when_safe() -> None:
    """CMV-CDG-01 (AI): a helpless foe in reach and no standing foe threatening → the AI's coup de grace."""
    enc = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1]},
               {"id": "g", "side": "f", "stats": T15, "position": [2, 1], "conditions": ["asleep"]},
               {"id": "w", "side": "f", "stats": T15, "position": [9, 9]}])
    assert TacticalAI().choose(enc) == CoupDeGrace("g", square=(2, 1))
    threatened = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1]},
                      {"id": "g", "side": "f", "stats": T15, "position": [2, 1], "conditions": ["asleep"]},
                      {"id": "w", "side": "f", "stats": T15, "position": [0, 1]}])
    choice = TacticalAI().choose(threatened)
    assert isinstance(choice, ax.Attack) and choice.target == "w"


def test_cmv_ai_struggles_when_held_and_passes_when_dazed() -> None:
    """CMV-COND-36, CMV-COND-05 (AI): held → escape; dazed → end the turn."""
    held = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1], "conditions": ["held"]},
                {"id": "t", "side": "f", "stats": T15, "position": [2, 1]}])
    assert TacticalAI().choose(held) == Escape()
    dazed = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1], "conditions": ["dazed"]},
                 {"id": "t", "side": "f", "stats": T15, "position": [2, 1]}])
    assert TacticalAI().choose(dazed) == ax.EndTurn()


def test_cmv_ai_shoots_a_crossbow_lying_prone() -> None:
    """CMV-COND-43, CMV-COND-45 (AI): prone with a loaded crossbow and only distant foes, it stays down (+4 AC
    against their arrows) and shoots instead of standing up."""
    enc = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1], "wielding": "light-crossbow",
                "conditions": ["prone"]},
               {"id": "t", "side": "f", "stats": T15, "position": [6, 1]}])
    choice = TacticalAI().choose(enc)
    assert isinstance(choice, ax.Attack) and choice.attack == "light-crossbow"


def test_cmv_ai_battle_plays_to_the_end_and_is_reproducible() -> None:
    """The tactical AI plays an off-guard battle to its end; same seed, same log."""
    def run(seed: int) -> str:
        base = cmv([{"id": "f", "side": "h", "stats": "fighter", "position": [4, 5]},
                    {"id": "r", "side": "h", "stats": "rogue", "position": [6, 5]},
                    {"id": "g", "side": "g", "stats": "goblin", "position": [5, 5]},
                    {"id": "l", "side": "g", "stats": "goblin-leader", "position": [5, 8], "conditions": ["blur"]},
                    {"id": "a", "side": "g", "stats": "goblin-archer", "position": [9, 2]}], start=False)
        enc = Encounter(base.battle, SeededDice(seed))
        play(enc, TacticalAI())
        assert enc.state.ended
        return "\n".join(e.to_json() for e in enc.log)

    one = run(4)
    assert one == run(4)
    assert "flanking with" in one
    kinds = {e.split('"kind":"')[1].split('"')[0] for e in one.splitlines()}
    assert {"attack_resolved", "condition_set"} <= kinds
