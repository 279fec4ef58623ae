"""The designers' lab: Monte Carlo runs, reproducible parallelism, statistics, sweeps, CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from d20combat.cli import app
from d20combat.dice import SeededDice
from d20combat.encounter.engine import Encounter
from d20combat.rules.armor_class import DefenseContext, armor_class
from d20combat.scenario import battle_from_data, read_scenario_data
from d20combat.simulation import Outcome, encounter_seed, simulate_outcomes, summarize, wilson
from d20combat.simulation.runner import encounter_seeds, sides_of
from d20combat.simulation.sweep import SweepError, apply_variant, grid, parse_vary

OGRE = read_scenario_data("examples/ogre-charge.yaml")
runner = CliRunner()


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_encounter_seeds_depend_only_on_the_master_seed_and_the_index() -> None:
    assert encounter_seed(7, 3) == encounter_seed(7, 3)
    assert len({encounter_seed(7, i) for i in range(100)}) == 100
    assert encounter_seed(7, 3) != encounter_seed(8, 3)


def test_a_chunks_seeds_at_once_are_the_seeds_one_by_one() -> None:
    """``encounter_seeds`` (numpy's SeedSequence mixing over arrays of indices) gives exactly
    ``encounter_seed``'s seeds: small, zero, 32-bit-edge and multi-word master seeds, at 0 and near 2³²."""
    for seed in (0, 1, 42, 2**32 - 1, 2**32, 2**64 + 7, 12345678901234567890123):
        for start, stop in ((0, 40), (977, 1003), (2**32 - 3, 2**32)):
            assert encounter_seeds(seed, start, stop) == [encounter_seed(seed, i) for i in range(start, stop)]
    assert encounter_seeds(3, 5, 5) == []


def test_same_seed_same_results_for_one_two_and_dask_workers() -> None:
    one = simulate_outcomes(OGRE, 12, seed=3, workers=1)
    two = simulate_outcomes(OGRE, 12, seed=3, workers=2)
    dask = simulate_outcomes(OGRE, 12, seed=3, workers=2, dask="local")
    assert one == two == dask
    assert simulate_outcomes(OGRE, 12, seed=4, workers=1) != one


def test_outcome_matches_a_reference_encounter() -> None:
    """Encounter i of a run is the encounter played with encounter_seed(seed, i) — nothing else."""
    from d20combat.controllers import TacticalAI, play

    outcome = simulate_outcomes(OGRE, 3, seed=9)[2]
    enc = play(Encounter(battle_from_data(OGRE), SeededDice(encounter_seed(9, 2))), TacticalAI())
    assert outcome.winner == enc.state.winner and outcome.rounds == enc.state.round
    assert outcome.dealt == tuple(enc.state.get(c).damage_dealt for c in enc.battle.creatures)


def test_summarize_counts_wins_draws_timeouts_and_damage() -> None:
    def o(winner: str | None, timeout: bool, rounds: int) -> Outcome:
        return Outcome(winner, timeout, rounds, 4, (3, 5), (5, 3), (False, True), (False, False))

    outcomes = [o("a", False, 2), o("a", False, 4), o("b", False, 3), o(None, True, 100), o(None, False, 5)]
    summary = summarize(outcomes, {"x": "a", "y": "b"}, seed=1)
    assert summary.side("a").wins == 2 and summary.side("a").rate == pytest.approx(0.4)
    assert summary.side("a").low == pytest.approx(wilson(2, 5)[0])
    assert summary.timeouts == 1 and summary.draws == 1
    assert summary.rounds_median == 4 and summary.rounds_histogram[100] == 1
    assert summary.combatants[1].downed_rate == 1.0 and summary.combatants[0].dealt_mean == 3
    assert "win_rate,a,0.400000" in summary.to_csv()


def test_bad_runs_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        simulate_outcomes(OGRE, 0)
    with pytest.raises(ValueError, match="workers"):
        simulate_outcomes(OGRE, 5, workers=0)


def test_vary_specs_parse_and_refuse_nonsense() -> None:
    assert parse_vary("goblin.count=2..10").values == tuple(range(2, 11))
    assert parse_vary("ogre.ac=14..20:2").values == (14, 16, 18, 20)
    assert parse_vary("ogre.hp=20,30,40").values == (20, 30, 40)
    for bad in ("ogre", "ogre.ac", "ogre.ac=9..3", "ogre.colour=1..2", "ogre.ac=x..y", "ogre.ac=1..2:0"):
        with pytest.raises(SweepError):
            parse_vary(bad)
    assert len(grid([parse_vary("a.hp=1..3"), parse_vary("b.ac=10,12")])) == 6


def test_variants_change_what_they_say() -> None:
    data = read_scenario_data("examples/goblin-ambush.yaml")
    more = apply_variant(data, [(parse_vary("goblin.count=5..5"), 5)])
    battle = battle_from_data(more)
    assert sum(1 for cid in battle.creatures if cid.startswith("goblin-")) == 5
    harder = battle_from_data(apply_variant(OGRE, [(parse_vary("ogre.ac=20..20"), 20)]))
    ogre = harder.creatures["ogre"]
    state = Encounter(harder, SeededDice(0)).initial.get("ogre")
    assert armor_class(ogre, state, DefenseContext()).value == 20
    tough = battle_from_data(apply_variant(OGRE, [(parse_vary("ogre.hp=50..50"), 50)]))
    assert tough.placements["ogre"].hp == 50
    with pytest.raises(SweepError, match="no combatant 'dragon'"):
        apply_variant(OGRE, [(parse_vary("dragon.hp=1..2"), 1)])
    assert sides_of(OGRE)["ogre"] == "monsters"


def test_cli_simulate_writes_json_csv_and_a_plot(tmp_path: Path) -> None:
    out, csv_out, png = tmp_path / "r.json", tmp_path / "r.csv", tmp_path / "r.png"
    result = runner.invoke(app, ["simulate", "examples/ogre-charge.yaml", "-n", "10", "--seed", "2",
                                 "--out", str(out), "--plot", str(png)])
    assert result.exit_code == 0, result.output
    assert "95 % interval" in result.output and "per combatant" in result.output
    data = json.loads(out.read_text())
    assert data["n"] == 10 and {s["side"] for s in data["sides"]} == {"heroes", "monsters"}
    assert png.stat().st_size > 10_000
    assert runner.invoke(app, ["simulate", "examples/ogre-charge.yaml", "-n", "10", "--seed", "2",
                               "--out", str(csv_out)]).exit_code == 0
    assert csv_out.read_text().startswith("kind,name,value,low,high")


def test_cli_sweep_names_the_deadly_variant(tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    result = runner.invoke(app, ["sweep", "examples/ogre-charge.yaml", "--vary", "ogre.hp=5,60", "-n", "8",
                                 "--side", "heroes", "--threshold", "0.5", "--out", str(out)])
    assert result.exit_code == 0, result.output
    rows = json.loads(out.read_text())["rows"]
    assert [r["ogre.hp"] for r in rows] == [5, 60]
    assert rows[0]["heroes_win_rate"] > rows[1]["heroes_win_rate"]
    assert "becomes deadly for heroes at ogre.hp=60" in result.output


def test_cli_refuses_bad_input_clearly(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "examples/ogre-charge.yaml", "-n", "0"])
    assert result.exit_code == 2
    result = runner.invoke(app, ["simulate", "examples/ogre-charge.yaml", "-n", "3", "--out", str(tmp_path / "x.txt")])
    assert result.exit_code == 2 and "use a .json or .csv file" in result.output
    result = runner.invoke(app, ["sweep", "examples/ogre-charge.yaml", "--vary", "ogre.colour=1..2", "-n", "2"])
    assert result.exit_code == 2 and "unknown field 'colour'" in result.output
    result = runner.invoke(app, ["sweep", "examples/ogre-charge.yaml", "--vary", "ogre.hp=5,6", "-n", "2",
                                 "--side", "elves"])
    assert result.exit_code == 2 and "the sides are" in result.output


def test_deadly_verdict_says_whether_the_interval_settles_it() -> None:
    from d20combat.simulation.sweep import deadly_verdict

    rows = [{"n": 2, "heroes_win_rate": 0.8, "heroes_low": 0.77, "heroes_high": 0.83},
            {"n": 5, "heroes_win_rate": 0.49, "heroes_low": 0.42, "heroes_high": 0.56},
            {"n": 6, "heroes_win_rate": 0.41, "heroes_low": 0.389, "heroes_high": 0.432}]
    noisy = deadly_verdict(rows, ["n"], "heroes", 0.5)
    assert noisy.startswith("the encounter becomes deadly for heroes at n=5: win rate 49.0% < 50%")
    assert "the interval still reaches 50%" in noisy
    sure = deadly_verdict([rows[0], rows[2]], ["n"], "heroes", 0.5)
    assert "at n=6" in sure and "95 % interval 38.9% – 43.2%; the whole interval is below" in sure
    assert deadly_verdict(rows[:1], ["n"], "heroes", 0.5) == "heroes keep a win rate of at least 50% in every variant"
