"""Every front door of the command line plays Epic Path: ``run`` (and ``--ruleset epic-path``), ``play`` with a
person typing Epic Path's own actions, ``simulate`` and ``sweep`` on the reference engine (the fast path refuses
the ruleset and names the components it lacks), and ``odds`` with damage averaging and additive critical
multipliers, checked against a hand computation."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import yaml
from typer.testing import CliRunner

from d20combat.cli import app

runner = CliRunner()
SPLASH = "examples/epic-path-splash.yaml"


def test_run_plays_the_demo_under_epic_path() -> None:
    """EP-SURP-20, EP-INIT-05: ``run --ruleset epic-path`` plays a shipped example under Epic Path: every creature
    starts Flat-Footed until it acts, and the battle ends with the summary."""
    result = runner.invoke(app, ["run", "examples/goblin-ambush.yaml", "--ruleset", "epic-path", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "ruleset epic-path" in result.output
    assert "(has not acted yet in the encounter (EP-SURP-20))" in result.output
    assert "Result after" in result.output


def test_play_a_person_takes_total_defense_from_the_menu() -> None:
    """EP-DEF-12, EP-DEF-13, EP-DEF-18: at the terminal the goblins' player is offered Epic Path's own actions
    (fight defensively, total defense) and takes total defense as JSON; it ends the goblin's turn; the rest end
    their turns and the AI's heroes win."""
    answers = '{"kind": "total_defense"}\n' + '{"kind": "end_turn"}\n' * 300
    result = runner.invoke(app, ["play", SPLASH, "--human", "goblins", "--seed", "3"], input=answers)
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    assert "fight_defensively" in out and "total_defense" in out
    assert "takes total defense: +4 dodge to AC (EP-DEF-13)" in out and "the turn ends (EP-DEF-18)" in out
    assert "heroes win" in out


def test_simulate_plays_epic_path_on_the_reference_engine_and_says_why(tmp_path: Path) -> None:
    """``simulate`` plays the Epic Path examples on the reference engine and names the components the fast path
    lacks; ``--engine fast`` is refused with the same reason; the same seed gives the same results."""
    out = tmp_path / "r.json"
    result = runner.invoke(app, ["simulate", "examples/epic-path-ambush.yaml", "-n", "2", "--seed", "1",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "engine: reference (this battle uses policy components the kernel does not implement:" in result.stderr
    assert "tactics=EpTactics" in result.stderr and "economy=EpEconomy" in result.stderr
    assert "encounters/s on the reference engine (the fast path does not implement its" in result.stderr
    data = json.loads(out.read_text())
    assert data["n"] == 2 and {s["side"] for s in data["sides"]} == {"knights", "bandits"}
    again = runner.invoke(app, ["simulate", "examples/epic-path-ambush.yaml", "-n", "2", "--seed", "1"])
    assert again.exit_code == 0, again.output
    assert again.stdout.split("per combatant")[0] == result.stdout.split("per combatant")[0]
    fast = runner.invoke(app, ["simulate", SPLASH, "-n", "2", "--engine", "fast"])
    assert fast.exit_code == 2 and "the fast path cannot play this scenario" in fast.output
    assert "EpInitiative" in fast.output


def test_sweep_varies_an_epic_path_example(tmp_path: Path) -> None:
    """``sweep`` plays every variant of an Epic Path example on the reference engine: a 5-hp Grukk goes down
    more often than a 200-hp one."""
    out = tmp_path / "s.json"
    result = runner.invoke(app, ["sweep", SPLASH, "--vary", "boss.hp=5,200", "-n", "2", "--side", "goblins",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    rows = json.loads(out.read_text())["rows"]
    assert [r["boss.hp"] for r in rows] == [5, 200]
    assert "on the reference engine" in result.stderr


def _odds_scenario(tmp_path: Path, average: bool) -> Path:
    axe = {"name": "axe", "damage": "1d10", "crit_mult": 3, "qualities": ["increased-multiplier"]}
    data = {"name": "odds", "ruleset": "epic-path", "map": {"width": 6, "height": 4},
            "variants": {"ep_average_damage": {"a": "all"}} if average else {},
            "combatants": [
                {"id": "a", "side": "x", "position": [1, 1],
                 "stats": {"hp": 20, "attack_bonus": 5, "abilities": {"str": 14}, "attacks": [{"weapon": axe}],
                           "wielding": "axe"}},
                {"id": "t", "side": "y", "position": [2, 1],
                 "stats": {"hp": 30, "attack_bonus": 1, "attacks": [{"weapon": "club"}]}}]}
    path = tmp_path / f"odds-{average}.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_odds_with_additive_multipliers_and_averaged_damage_match_a_hand_computation(tmp_path: Path) -> None:
    """EP-CRIT-12, EP-DMG-05, EP-DMG-08: a 1d10 axe ×3 with one 'increase' → ×4, +7 (BAB 5 + Str 2) against AC 10.

    By hand: a hit on a natural 3..20 → 9/10; a threat on 20 and a confirmation on 3..20 → crit 1/20 × 9/10 =
    9/200. Averaged (every die, rounded down once): a hit 1d10 → ⌊5.5⌋ = 5, + 2 = 7; a critical 4d10 → 22, + 8 =
    30; the mean 171/200 × 7 + 9/200 × 30 = 1467/200. Rolled: a hit 5.5 + 2 = 7.5, a critical 4 × 5.5 + 8 = 30; the
    mean 171/200 × 15/2 + 9/200 × 30 = 3105/400 = 621/80."""
    averaged = runner.invoke(app, ["odds", str(_odds_scenario(tmp_path, True)), "--attacker", "a", "--target", "t"])
    assert averaged.exit_code == 0, averaged.output
    out = averaged.output
    assert "critical 20/x4" in out and "damage as Epic Path deals it: a hit 7, a critical 30" in out
    p_hit, p_crit = Fraction(9, 10), Fraction(9, 200)
    mean = (p_hit - p_crit) * 7 + p_crit * 30
    assert mean == Fraction(1467, 200) and "1467/200" in out and "9/200" in out and "9/10" in out
    rolled = runner.invoke(app, ["odds", str(_odds_scenario(tmp_path, False)), "--attacker", "a", "--target", "t"])
    assert rolled.exit_code == 0, rolled.output
    mean = (p_hit - p_crit) * Fraction(15, 2) + p_crit * 30
    assert mean == Fraction(621, 80) and "621/80" in rolled.output and "critical 20/x4" in rolled.output


def test_odds_flags_form_under_epic_path() -> None:
    """EP-CRIT-05, EP-CRIT-09: the flags form under ``--ruleset epic-path`` asks Epic Path's policies: +5 vs AC 12
    hits on 7..20 (7/10); a 20/×3 threat confirmed on 7..20 → crit 1/20 × 7/10 = 7/200; 1d10+2 → mean
    (133/200) × 7.5 + (7/200) × 22.5 = 231/40."""
    result = runner.invoke(app, ["odds", "--bonus", "5", "--ac", "12", "--damage", "1d10+2", "--crit", "20/x3",
                                 "--ruleset", "epic-path"])
    assert result.exit_code == 0, result.output
    assert "Epic Path policies" in result.output
    p_hit, p_crit = Fraction(7, 10), Fraction(7, 200)
    assert (p_hit - p_crit) * Fraction(15, 2) + p_crit * Fraction(45, 2) == Fraction(231, 40)
    assert "7/10" in result.output and "7/200" in result.output and "231/40" in result.output
