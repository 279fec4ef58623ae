"""The declaration phase (rules-diff §4.1; WOA-CYCLE-02/05/14..16/21/28) as a shared mechanism: a test ruleset,
Pathfinder Beginner with :class:`DeclareThenRoll` as its turn order, declares every round, then rolls initiative,
then plays the turns each held to its declaration. Worlds of Adventure composes the same component."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules._builders import stats

from d20combat.controllers import Scripted, TacticalAI, play
from d20combat.controllers.console import ConsoleController, numbered
from d20combat.dice import ScriptedDice, SeededDice
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.rulesets import RULESETS, PathfinderBeginner, Policies, register_ruleset
from d20combat.rulesets.components.declaration import DeclareThenRoll
from d20combat.scenario import battle_from_data


class DeclaringPathfinder(PathfinderBeginner):
    """Pathfinder Beginner whose rounds open with everyone's declarations (the mechanism WOA composes)."""

    id = "test-pfb-declaring"

    @classmethod
    def compose(cls, options: Any) -> Policies:
        return super().compose(options).replace(turn_order=DeclareThenRoll())


if DeclaringPathfinder.id not in RULESETS:
    register_ruleset(DeclaringPathfinder)

FIGHTER = stats("fighter", hp=30, attack_bonus=5, attacks=[{"weapon": "longsword"}])
GOBLIN = stats("goblin", hp=6, attack_bonus=2, attacks=[{"weapon": "club"}])


def battle(dice: list[int] | None = None, *, seed: int | None = None, goblins: int = 1,
           apart: bool = False) -> Encounter:
    combatants = [{"id": "hero", "stats": FIGHTER, "side": "heroes", "position": [2, 2]}]
    for i in range(goblins):
        combatants.append({"id": f"gob{i + 1}", "stats": GOBLIN, "side": "monsters",
                           "position": [9, 2 + 2 * i] if apart else [3, 2 + 2 * i]})
    data = {"ruleset": DeclaringPathfinder.id, "map": {"width": 12, "height": 12}, "combatants": combatants,
            "surprise": {"surprised": []}}
    src = SeededDice(seed) if seed is not None else ScriptedDice(dice or [])
    enc = Encounter(battle_from_data(data), src)
    enc.start()
    return enc


def test_woa_cycle_14_the_round_opens_with_declarations_before_any_initiative() -> None:
    """WOA-CYCLE-14: each character declares its actions, and only then does everyone roll initiative."""
    enc = battle()
    assert not [e for e in enc.log if isinstance(e, ev.InitiativeRolled)]
    opened = [e for e in enc.log if isinstance(e, ev.DeclarationsOpened)]
    assert opened and opened[0].declarers == ["hero", "gob1"]
    d = enc.decision()
    assert d is not None and d.phase == "declare" and d.actor == "hero"
    assert all(isinstance(o, ax.Declare) for o in d.options)
    assert ax.Declare(standard="attack", move="move", target="gob1") in d.options
    assert enc.state.turn is None


def test_woa_cycle_02_initiative_is_rolled_after_the_last_declaration() -> None:
    """WOA-CYCLE-02: declare, then roll; the turn order follows the new rolls."""
    enc = battle([3, 15])  # hero d20 3, goblin d20 15
    enc.act(ax.Declare(standard="attack", move="move", target="gob1"))
    assert enc.state.declaring == ("gob1",)
    events = enc.act(ax.Declare(standard="attack", move="move", target="hero"))
    kinds = [e.kind for e in events]
    assert kinds.index("declared") < kinds.index("initiative_rolled") < kinds.index("order_set")
    assert enc.state.order == ("gob1", "hero")
    assert enc.state.turn is not None and enc.state.turn.actor == "gob1"
    assert enc.state.declarations["hero"] == {"standard": "attack", "move": "move", "target": "gob1"}


def test_woa_cycle_05_every_round_declares_and_rolls_again() -> None:
    """WOA-CYCLE-05: steps 2–4 repeat every round, initiative re-rolled each time."""
    enc = battle([3, 15, 18, 2])
    enc.act(ax.Declare(move="move"))
    enc.act(ax.Declare(move="move"))
    assert enc.state.order == ("gob1", "hero")
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    assert enc.state.round == 2 and enc.state.declaring == ("hero", "gob1")  # the scenario's order
    assert enc.state.declarations == {}
    enc.act(ax.Declare())
    enc.act(ax.Declare())
    assert enc.state.order == ("hero", "gob1")  # round 2: hero rolled 18, the goblin 2
    rolled = [e for e in enc.log if isinstance(e, ev.InitiativeRolled)]
    assert len(rolled) == 4 and "(round 2)" in rolled[-1].explanation


def test_woa_cycle_21_a_turn_carries_out_its_declaration() -> None:
    """WOA-CYCLE-21/28: the creature resolves the actions it declared, not others; free actions need no
    declaration (WOA-CYCLE-16)."""
    enc = battle([15, 3, 2], goblins=2)
    enc.act(ax.Declare(move="move"))
    enc.act(ax.Declare())
    enc.act(ax.Declare())
    assert enc.state.turn is not None and enc.state.turn.actor == "hero"
    before = enc.state
    with pytest.raises(IllegalAction, match="declared move this round, not attack"):
        enc.act(ax.Attack("gob1"))
    assert enc.state is before
    assert enc.check(ax.Move(to=(2, 5))) is None
    assert enc.check(ax.EndTurn()) is None


def test_woa_cycle_21_a_declared_attack_is_at_the_declared_foe() -> None:
    """WOA-CYCLE-21: an attack declared at one foe is not made at another."""
    enc = battle([15, 3, 2], goblins=2)
    enc.act(ax.Declare(standard="attack", move="move", target="gob2"))
    enc.act(ax.Declare())
    enc.act(ax.Declare())
    assert enc.check(ax.Attack("gob1")) is not None and "at gob2" in (enc.check(ax.Attack("gob1")) or "")
    enc.act(ax.Move(to=(2, 3)))  # the declared move, then the declared attack
    assert enc.check(ax.Attack("gob2")) is None


@pytest.mark.parametrize(("declaration", "problem"), [
    (ax.Declare(full_round="charge", standard="attack", target="gob1"), "full-round action takes the whole round"),
    (ax.Declare(standard="fly"), "'fly' is not a standard action"),
    (ax.Declare(standard="attack", move="move"), "name the foe of the attack"),
    (ax.Declare(standard="attack", target="nobody"), "no creature 'nobody'"),
    (ax.Declare(standard="attack", target="hero"), "hero is not a foe"),
    (ax.Declare(move="move", target="gob1"), "a target goes with an action aimed at a foe"),
    (ax.Declare(after="gob1"), "delaying"),
])
def test_a_wrong_declaration_is_refused_and_changes_nothing(declaration: ax.Declare, problem: str) -> None:
    enc = battle()
    before, log = enc.state, list(enc.log)
    with pytest.raises(IllegalAction, match=problem):
        enc.act(declaration)
    assert enc.state is before and enc.log == log


def test_only_the_declaring_creature_declares_and_only_declarations_while_declaring() -> None:
    enc = battle([15, 3])
    with pytest.raises(IllegalAction, match="declares its round's actions first"):
        enc.act(ax.EndTurn())
    with pytest.raises(IllegalAction, match="declares its round's actions first"):
        enc.act(ax.Attack("gob1"))
    enc.act(ax.Declare())
    enc.act(ax.Declare())
    with pytest.raises(IllegalAction, match="nothing is declared now"):
        enc.act(ax.Declare())


def test_a_declaration_is_undone_like_an_action() -> None:
    enc = battle([15, 3])
    enc.act(ax.Declare(move="move"))
    assert enc.undo()
    assert enc.state.declaring == ("hero", "gob1") and enc.state.declarations == {}
    assert enc.redo()
    assert enc.state.declarations == {"hero": {"move": "move"}}


def test_declarations_are_explained_and_serialize() -> None:
    enc = battle([15, 3])
    events = enc.act(ax.Declare(standard="attack", move="move", target="gob1"))
    assert events[0].explain() == "hero declares attack and move — at gob1"
    assert ev.event_from_dict(events[0].to_dict()) == events[0]
    assert ax.action_from_dict({"kind": "declare", "full_round": "charge", "target": "gob1"}) == \
        ax.Declare(full_round="charge", target="gob1")


def test_the_ai_declares_what_it_then_does() -> None:
    """The tactical AI declares the action it would take first (a charge from afar), then carries it out."""
    enc = battle(seed=3, apart=True)
    ai = TacticalAI()
    hero = ai.choose(enc)
    assert hero == ax.Declare(full_round="charge", target="gob1")
    enc.act(hero)
    enc.act(ai.choose(enc))
    first = enc.state.turn
    assert first is not None
    if first.actor == "hero":
        assert isinstance(ai.choose(enc), ax.Charge)


def test_whole_battles_play_to_the_end_and_replay_byte_identically() -> None:
    """Same seed, same decisions ⇒ the same log; every round declares, then rolls."""
    logs = []
    for _ in range(2):
        enc = battle(seed=11, goblins=3)
        play(enc, TacticalAI())
        assert enc.state.ended
        logs.append([e.to_json() for e in enc.log])
        rounds = [e for e in enc.log if isinstance(e, ev.RoundStarted)]
        opened = [e for e in enc.log if isinstance(e, ev.DeclarationsOpened)]
        assert len(opened) == len(rounds)
    assert logs[0] == logs[1]


def test_scripted_and_console_controllers_answer_the_declaration() -> None:
    enc = battle([15, 3])
    menu = numbered(enc.decision().options)  # type: ignore[union-attr]
    assert menu[0] == ax.Declare()
    said: list[str] = []
    console = ConsoleController(ask=lambda _q: "0", say=said.append)
    assert console.choose(enc) == ax.Declare()
    assert any("declares its actions for round 1" in line for line in said)
    play(enc, {"heroes": Scripted([ax.Declare()]), "monsters": Scripted([ax.Declare()])}, max_actions=2)
    assert enc.state.turn is not None


def test_the_rulesets_that_roll_once_declare_nothing() -> None:
    """PFB-INIT-01 (rolled once): no declaration phase, a declare action refused."""
    from tests.conftest import make_encounter

    enc = make_encounter([{"id": "a", "stats": FIGHTER, "side": "heroes", "position": [1, 1]},
                          {"id": "b", "stats": GOBLIN, "side": "monsters", "position": [2, 1]}])
    assert not [e for e in enc.log if isinstance(e, ev.DeclarationsOpened)]
    with pytest.raises(IllegalAction, match="nothing is declared now"):
        enc.act(ax.Declare())
    assert enc.decision().phase == "turn"  # type: ignore[union-attr]


def test_a_declaring_battle_log_verifies_and_rebuilds_byte_identically(tmp_path: Any) -> None:
    """Each declaration is a write: the verified replay re-runs it and rebuilds the same log."""
    from d20combat.replay import encounter_from_log, log_text, read_log

    enc = battle(seed=5, goblins=2)
    play(enc, TacticalAI())
    text = log_text(enc)
    assert '"kind":"declare"' in text.replace(" ", "")
    path = tmp_path / "battle.log"
    path.write_text(text, encoding="utf-8")
    again = encounter_from_log(read_log(path))
    assert log_text(again) == text
