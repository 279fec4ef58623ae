"""The console controller (``d20combat play``): scripted answers through its ask/say callables — empty answers,
typed dice as ``14`` or ``d20=14``, a stable numbering with ``0`` ending the turn, clean prompts."""

from __future__ import annotations

from collections.abc import Iterable

from typer.testing import CliRunner

from d20combat.cli import app
from d20combat.controllers.console import KIND_ORDER, ConsoleController, numbered, read_typed_die, typed_die_asker
from d20combat.dice import SeededDice
from d20combat.encounter import actions as ax
from d20combat.encounter.engine import Encounter
from d20combat.scenario import load_battle


class Script:
    """ask/say callables: answers given in order, every question and line said recorded."""

    def __init__(self, answers: Iterable[str]) -> None:
        self.answers = list(answers)
        self.asked: list[str] = []
        self.said: list[str] = []

    def ask(self, text: str) -> str:
        self.asked.append(text)
        return self.answers.pop(0)

    def say(self, text: str) -> None:
        self.said.append(text)


def _encounter() -> Encounter:
    enc = Encounter(load_battle("examples/goblin-ambush.yaml"), SeededDice(3))
    enc.start()
    return enc


def _menu_lines(said: list[str]) -> list[str]:
    return [line for line in said if line.strip()[:1].isdigit()]


def test_an_empty_answer_asks_again_without_a_json_error() -> None:
    enc = _encounter()
    script = Script(["", "   ", "0"])
    action = ConsoleController(script.ask, script.say).choose(enc)
    assert isinstance(action, ax.EndTurn)
    assert len(script.asked) == 3
    assert not any("Expecting value" in line or "line 1 column" in line for line in script.said)
    assert any("0 ends the turn" in line for line in script.said)


def test_numbering_is_stable_end_turn_is_0_across_two_creatures() -> None:
    enc = _encounter()
    menus = []
    actors = []
    for _ in range(2):
        decision = enc.decision()
        assert decision is not None
        actors.append(decision.actor)
        script = Script(["0"])
        assert isinstance(ConsoleController(script.ask, script.say).choose(enc), ax.EndTurn)
        menus.append(numbered(decision.options))
        lines = _menu_lines(script.said)
        assert lines[-1].strip() == "0. end the turn"
        enc.act(ax.EndTurn())
    assert actors[0] != actors[1]
    rank = {kind: i for i, kind in enumerate(KIND_ORDER)}
    for menu in menus:
        assert isinstance(menu[0], ax.EndTurn)
        assert sorted(menu) == list(range(len(menu)))
        ranks = [rank.get(menu[n].kind, len(rank)) for n in range(1, len(menu))]
        assert ranks == sorted(ranks)  # by kind, in the one fixed order


def test_numbers_out_of_range_words_and_bad_json_are_refused_plainly() -> None:
    enc = _encounter()
    script = Script(["999", "dance", "{not json", '{"kind": "fly"}', "²", '{"kind": "end_turn"}'])
    action = ConsoleController(script.ask, script.say).choose(enc)
    assert isinstance(action, ax.EndTurn)
    said = "\n".join(script.said)
    assert "no option 999" in said and "'dance' is not an option" in said
    assert "not valid JSON" in said and "unknown action kind 'fly'" in said
    assert "Traceback" not in said


def test_prompts_carry_no_marker_of_their_own() -> None:
    """typer.prompt adds ': ' — the questions must not add '>' or ':' again."""
    enc = _encounter()
    script = Script(["0"])
    ConsoleController(script.ask, script.say).choose(enc)
    dice = Script(["14"])
    typed_die_asker(dice.ask, dice.say)(20, "attack roll")
    for text in script.asked + dice.asked:
        assert text == text.rstrip() and not text.endswith((">", ":", "?")), text
    result = CliRunner().invoke(app, ["play", "examples/ogre-charge.yaml", "--human", "monsters", "--seed", "3"],
                                input="0\n" * 200)
    assert result.exit_code == 0, result.output[-2000:]
    assert "> :" not in result.output and ": :" not in result.output and ">:" not in result.output
    assert "(0 ends the turn), or an action as JSON: " in result.output


def test_a_typed_die_as_14_or_d20_14() -> None:
    script = Script(["d20=14", "14", "D20 = 3", "d8=5", "7", "0", "21", "twelve", "", "d%=00"])
    ask_die = typed_die_asker(script.ask, script.say)
    assert ask_die(20, "attack roll") == 14
    assert ask_die(20, "attack roll") == 14
    assert ask_die(20, "attack roll") == 3
    assert ask_die(20, "attack roll") == 7  # d8=5 refused first
    assert ask_die(20, "attack roll") == 0  # "0", "21", "twelve" refused; Enter → the computer rolls
    assert ask_die(100, "concealment") == 100
    said = "\n".join(script.said)
    assert "a d20 is asked for, not a d8" in said
    assert "a d20 shows 1–20" in said
    assert "like 14 or d20=14" in said


def test_read_typed_die_refusals() -> None:
    assert read_typed_die("d6=6", 6) == 6
    assert read_typed_die("", 6) == 0
    assert read_typed_die("d6=7", 6) == "a d6 shows 1–6"
    assert read_typed_die("d20=14", 6) == "a d6 is asked for, not a d20: type the d6's face, like d6=14"
    assert isinstance(read_typed_die("٣", 6), str)  # digits of other scripts are not faces
    assert isinstance(read_typed_die("9" * 50, 20), str)


def test_play_takes_d20_equals_face_at_the_terminal() -> None:
    result = CliRunner().invoke(app, ["play", "examples/ogre-charge.yaml", "--typed-dice", "--seed", "3"],
                                input="d8=5\nd20=17\n" + "\n" * 3000)
    assert result.exit_code == 0, result.output[-2000:]
    assert "a d20 is asked for, not a d8" in result.output
    assert "= d20 17" in result.output


def test_react_asks_again_on_an_empty_answer() -> None:
    from d20combat.encounter.prompts import ReactionPrompt

    prompt = ReactionPrompt("valeros", "attack_of_opportunity", "goblin-1 leaves (4,5), which valeros threatens",
                            ("take", "decline"))
    script = Script(["", "maybe", "decline"])
    assert ConsoleController(script.ask, script.say).react(_encounter(), prompt) == "decline"
    assert sum("choose one of: take, decline" in line for line in script.said) == 2
