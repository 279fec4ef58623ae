"""``d20combat odds``: both forms, and one-line errors with exit code 2 for bad input."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from d20combat.cli import app

runner = CliRunner()
DUEL = "examples/odds-duel.yaml"


def test_flags_form_prints_probabilities_distribution_round_and_kill_odds() -> None:
    result = runner.invoke(app, ["odds", "--bonus", "+8", "--ac", "18", "--damage", "1d8+5", "--crit", "19-20/x2",
                                 "--iteratives", "+8/+3", "--concealment", "20", "--hp", "30", "--rounds", "4"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "44.00%" in out and "11/25" in out  # P(hit) = 0.8 × 11/20
    assert "11/250" in out  # P(crit) = 0.8 × 2/20 × 11/20
    assert "2299/500" in out  # the exact mean damage of one attack
    assert "+8/+3" in out and "7.106" in out  # the full attack's mean per round
    assert "within rounds" in out and "expected rounds to bring it down: 5.195" in out


def test_flags_form_without_hp_has_no_kill_table_and_negative_bonus_parses() -> None:
    result = runner.invoke(app, ["odds", "--bonus", "-2", "--ac", "30", "--damage", "1d4"])
    assert result.exit_code == 0, result.output
    assert "5.00%" in result.output  # only a natural 20
    assert "within rounds" not in result.output


def test_scenario_form_goes_through_the_engine() -> None:
    result = runner.invoke(app, ["odds", DUEL, "--attacker", "valeros", "--target", "ogre", "--rounds", "3"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "attack +5 (BAB 1 + Str 3 + Weapon Focus 1)" in out
    assert "AC 18" in out and "19-20/x2" in out
    assert "40.00%" in out  # +5 vs 18: 13..20
    assert "Target of 30 hp" in out  # the ogre's own hit points by default
    archer = runner.invoke(app, ["odds", DUEL, "--attacker", "archer", "--target", "Valeros", "--hp", "5"])
    assert archer.exit_code == 0, archer.output
    assert "concealment 20 %" in archer.output and "cover" in archer.output and "into melee" in archer.output


@pytest.mark.parametrize(("args", "message"), [
    (["--bonus", "5", "--ac", "15", "--damage", "2d6+1d8"], "damage"),
    (["--bonus", "5", "--ac", "15", "--damage", "banana"], "damage"),
    (["--bonus", "5", "--ac", "15", "--damage", "1d8", "--crit", "19/20x"], "crit"),
    (["--bonus", "5", "--ac", "15", "--damage", "1d8", "--concealment", "150"], "concealment"),
    (["--bonus", "5", "--ac", "15", "--damage", "1d8", "--hp", "0"], "hp"),
    (["--bonus", "5", "--ac", "15", "--damage", "1d8", "--rounds", "0"], "rounds"),
    (["--bonus", "5", "--ac", "15", "--damage", "1d8", "--iteratives", "+5/x"], "iteratives"),
    (["--bonus", "5", "--ac", "15", "--damage", "1d8", "--ruleset", "nope"], "nope"),
    (["--bonus", "5", "--damage", "1d8"], "--ac"),
    (["--bonus", "5", "--ac", "15", "--damage", "1d8", "--attacker", "x"], "SCENARIO"),
    ([DUEL, "--attacker", "valeros", "--target", "nobody"], "nobody"),
    ([DUEL, "--attacker", "valeros"], "--target"),
    ([DUEL, "--attacker", "valeros", "--target", "archer"], "beyond valeros's reach"),
    ([DUEL, "--attacker", "valeros", "--target", "ogre", "--attack", "club"], "no attack named"),
    ([DUEL, "--attacker", "valeros", "--target", "ogre", "--bonus", "3"], "--bonus"),
    (["missing.yaml", "--attacker", "a", "--target", "b"], "cannot read"),
])
def test_bad_input_is_one_line_with_exit_code_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["odds", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert ("Traceback" not in result.output and result.exception is None) or isinstance(result.exception, SystemExit)
    assert len(result.output.strip().splitlines()) == 1, result.output
