"""Every front door of the command line plays worlds-of-adventure: ``run`` prints each round's declarations and
re-rolled initiative (WOA-CYCLE-02/14/17), ``play`` asks a person to declare, ``simulate`` plays on the reference
engine (the fast path refuses naming WOA's components), ``odds`` answers through WOA's policies; a scenario's fixed
initiative is refused naming the field; both WOA examples play to the end."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from d20combat.cli import app

runner = CliRunner()
WARBAND = "examples/woa-warband.yaml"
DUEL = "examples/woa-caster-duel.yaml"


@pytest.mark.parametrize("example", [WARBAND, DUEL])
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_each_example_plays_to_the_end(example: str, seed: int) -> None:
    result = runner.invoke(app, ["run", example, "--seed", str(seed), "--quiet"])
    assert result.exit_code == 0, result.output[-2000:]
    assert re.search(r"Result after \d+ round\(s\): (.+ win|no side stands)", result.output), result.output[-500:]


def test_run_prints_each_rounds_declarations_and_reroll() -> None:
    """WOA-CYCLE-02/14/17/20: every round a declarations line and an initiative line in the order of play, each
    total explained (d20 + the Reflex save's universal part; the orcs' one roll; −20 flat-footed in round 1)."""
    result = runner.invoke(app, ["run", WARBAND, "--seed", "1"])
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    for n in (1, 2, 3):
        assert f"Round {n} — declarations: Brenna " in out
        assert f"Round {n} — initiative: " in out
    assert re.search(r"Round 1 — initiative: .*Ghash -\d+ = d20 \d+ \+ Ref base 1 − flat-footed 20 \(one roll for "
                     r"the orcs, WOA-CYCLE-20\)", out)
    line = next(x for x in out.splitlines() if "Round 2 — initiative:" in x)
    totals = [int(t) for t in re.findall(r"(?:^|, )[A-Za-z0-9-]+ (-?\d+) = d20", line.split(": ", 1)[1])]
    assert len(totals) == 9 and totals == sorted(totals, reverse=True)
    assert "Surprised: chief, orc-1, orc-2, orc-3, orc-4." in out


def test_play_asks_a_person_to_declare() -> None:
    """WOA-CYCLE-14: at the terminal the warband's player declares each of its creatures' rounds from a numbered
    list (0 declares nothing), then the AI's orcs declare and initiative is rolled."""
    answers = "0\n" * 4 + '{"kind": "end_turn"}\n' * 60
    result = runner.invoke(app, ["play", DUEL, "--human", "caster", "--seed", "2"], input=answers)
    out = result.output
    assert "isolde declares its actions for round 1 (before initiative):" in out
    assert "0. declare nothing" in out and "Declare: attack and move — at marcus" in out
    assert "isolde declares nothing" in out
    assert "Round 1 — declarations: Isolde nothing; Marcus " in out
    assert "Round 1 — initiative: " in out


def test_simulate_plays_on_the_reference_engine_and_the_fast_path_names_woas_components() -> None:
    result = runner.invoke(app, ["simulate", DUEL, "-n", "6", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "engine: reference" in result.output and "6 encounters" in result.output
    fast = runner.invoke(app, ["simulate", DUEL, "-n", "6", "--engine", "fast"])
    assert fast.exit_code != 0
    assert "the fast path cannot play this scenario" in fast.output
    assert "turn_order=WoaRoundCycle" in fast.output and "defense=WoaArmorClass" in fast.output


def test_odds_through_woas_policies(tmp_path: Path) -> None:
    """``odds`` on a WOA scenario pair: the attack's numbers through WOA's composed policies."""
    data = yaml.safe_load(Path(DUEL).read_text(encoding="utf-8"))
    data["combatants"][1]["position"] = [15, 4]  # Marcus next to Isolde
    path = tmp_path / "close.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    result = runner.invoke(app, ["odds", str(path), "--attacker", "marcus", "--target", "isolde"])
    assert result.exit_code == 0, result.output
    assert "attack +6 (BAB 4 + Str 2)" in result.output and "AC 15 (10 + armor 1 + Dex 3 + dodge 1" in result.output


def test_a_fixed_initiative_is_refused_naming_the_field(tmp_path: Path) -> None:
    """WOA-CYCLE-02/17: initiative is rolled anew every round, so a scenario's ``initiative:`` is refused with the
    field and the reason (and the same scenario plays under a ruleset that rolls once)."""
    data = yaml.safe_load(Path(DUEL).read_text(encoding="utf-8"))
    data["combatants"][2]["initiative"] = 15
    path = tmp_path / "fixed.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    for command in (["run", str(path)], ["validate", str(path)], ["simulate", str(path), "-n", "2"]):
        result = runner.invoke(app, command)
        assert result.exit_code != 0, command
        assert "combatants[2].initiative: worlds-of-adventure rolls initiative anew every round" in result.output
    result = runner.invoke(app, ["run", str(path), "--ruleset", "pathfinder-beginner", "--quiet"])
    assert result.exit_code == 0, result.output


def test_caster_duel_shows_spells_saves_timing_and_blocks() -> None:
    """WOA-CYCLE-14/17, WOA-SPELL-01/14/16, WOA-REACT-22/23: with seed 1 the caster duel prints the AI's declarations
    (a full-round casting declared alone), the re-rolled order every round, the fireball cast and its Reflex saves
    at the end of the caster's turn, a buff landing at the end of the round, and blocks with the budget left; the
    same seed plays the same log."""
    result = runner.invoke(app, ["run", DUEL, "--seed", "1"])
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    assert "isolde declares cast spell\n" in out and "isolde declares cast spell and move" in out
    for n in (1, 2, 3):
        assert f"Round {n} — declarations: Isolde cast spell" in out and f"Round {n} — initiative: " in out
    assert "casts fireball (full-round): no combat reactions this round (WOA-SPELL-09/10)" in out
    assert "fireball takes effect at the end of its turn (WOA-SPELL-14)" in out
    assert re.search(r"marcus Ref save: \d+ = d20 \d+ .* vs DC 17 \(10 \+ level 3 \+ Int 4\)", out)
    assert "shield of faith takes effect at the end of the round (WOA-SPELL-16" in out
    assert re.search(r"reacts: blocks \w+'s attack: DR \d+ = ½ warrior level \d .*; \d reactions? left", out)
    again = runner.invoke(app, ["run", DUEL, "--seed", "1"])
    assert again.output == out
