"""The command line: run, replay, validate, schema — and clear errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from d20combat.cli import app

runner = CliRunner()


def test_run_prints_an_explained_battle_and_replay_rebuilds_it(tmp_path: Path) -> None:
    log = tmp_path / "battle.jsonl"
    result = runner.invoke(app, ["run", "examples/goblin-ambush.yaml", "--seed", "3", "--log", str(log)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Initiative order:" in out and "=== Round 1 ===" in out
    assert " = d20 " in out and " vs AC " in out  # explained numbers
    assert "Result after" in out
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert next(r for r in records if "kind" in r)["kind"] == "encounter_started"  # after the log's header
    replayed = runner.invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output
    summary_run = out[out.index("Result after"):].split("event log:")[0].strip()
    assert summary_run in replayed.output


def test_same_seed_same_log(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (a, b):
        assert runner.invoke(app, ["run", "examples/ogre-charge.yaml", "--seed", "7", "--quiet",
                                   "--log", str(path)]).exit_code == 0
    assert a.read_bytes() == b.read_bytes()


def test_validate_reports_every_problem(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("map: {width: 20, height: 20}\ncombatants:\n"
                   "  - {id: a, side: x, stats: fighter, position: [1, 1]}\n"
                   "  - {id: b, side: y, stats: goblin, position: [31, 4]}\n"
                   "  - {id: c, side: y, stats: nobody, position: [2, 2]}\n")
    result = runner.invoke(app, ["validate", str(bad)])
    assert result.exit_code == 1
    assert "combatants[1].position: square (31, 4) is outside the 20×20 map" in result.output
    assert "combatants[2].stats: no stat block named 'nobody'" in result.output
    assert "Traceback" not in result.output
    ok = runner.invoke(app, ["validate", "examples/goblin-ambush.yaml"])
    assert ok.exit_code == 0 and "ok" in ok.output


def test_missing_file_and_bad_log(tmp_path: Path) -> None:
    result = runner.invoke(app, ["run", str(tmp_path / "nope.yaml")])
    assert result.exit_code == 2 and "cannot read" in result.output
    junk = tmp_path / "junk.jsonl"
    junk.write_text("not json\n")
    result = runner.invoke(app, ["replay", str(junk)])
    assert result.exit_code == 2 and "line 1" in result.output


def test_schema_command_prints_json_schema() -> None:
    result = runner.invoke(app, ["schema"])
    assert result.exit_code == 0
    assert json.loads(result.output)["title"] == "Scenario"


def test_ruleset_override_runs_the_demo_under_every_ruleset() -> None:
    """Issue 5: `run --ruleset` plays the same scenario under another ruleset when its stat blocks allow."""
    for ruleset in ("off-guard", "skill-based"):
        result = runner.invoke(app, ["run", "examples/goblin-ambush.yaml", "--ruleset", ruleset, "--seed", "2"])
        assert result.exit_code == 0, result.output
        assert f"ruleset {ruleset}" in result.output and "Result after" in result.output
    skl = runner.invoke(app, ["run", "examples/goblin-ambush.yaml", "--ruleset", "skill-based", "--seed", "2"])
    assert "Passive Defense" in skl.output


def test_ruleset_override_refuses_stat_blocks_it_cannot_use(tmp_path: Path) -> None:
    scenario = tmp_path / "brute.yaml"
    scenario.write_text("map: {width: 8, height: 8}\ncombatants:\n"
                        "  - {id: a, side: x, position: [1, 1], stats: {name: brute, hp: 10, "
                        "attacks: [{weapon: longsword}], wielding: longsword}}\n"
                        "  - {id: b, side: y, stats: goblin, position: [5, 5]}\n")
    assert runner.invoke(app, ["run", str(scenario), "--quiet"]).exit_code == 0  # fine under PFB
    result = runner.invoke(app, ["run", str(scenario), "--ruleset", "skill-based"])
    assert result.exit_code == 2
    assert "combatants[0].stats: no 'sword' skill rating" in result.output
    assert "needed by the skill-based ruleset" in result.output
    result = runner.invoke(app, ["run", str(scenario), "--ruleset", "chess"])
    assert result.exit_code == 2 and "unknown ruleset 'chess'" in result.output


def test_play_at_the_terminal_a_side_chooses_by_number_or_json() -> None:
    """The console controller answers the same decisions as the AI: here the monsters only end their turns
    (typed as JSON), one bad answer is refused, and the AI's heroes win."""
    answers = "dance\n" + '{"kind": "end_turn"}\n' * 200
    result = runner.invoke(app, ["play", "examples/ogre-charge.yaml", "--human", "monsters", "--seed", "3"],
                           input=answers)
    assert result.exit_code == 0, result.output[-2000:]
    assert "choose an action" in result.output and "not an option" in result.output
    assert "heroes win" in result.output


def test_play_with_typed_dice_uses_the_typed_face_and_rolls_on_enter() -> None:
    """--typed-dice asks for every die: an impossible face is asked again, Enter lets the computer roll."""
    answers = "25\n17\n" + "\n" * 3000
    result = runner.invoke(app, ["play", "examples/ogre-charge.yaml", "--typed-dice", "--seed", "3"], input=answers)
    assert result.exit_code == 0, result.output[-2000:]
    assert "a d20 shows 1–20" in result.output
    assert "initiative 19 = d20 17" in result.output or "= d20 17" in result.output
    assert "Result after" in result.output


def test_play_refuses_an_unknown_side() -> None:
    result = runner.invoke(app, ["play", "examples/ogre-charge.yaml", "--human", "elves"])
    assert result.exit_code == 2 and "the sides are heroes, monsters" in result.output
