"""Epic Path's showcase example (examples/epic-path-ambush.yaml): ``d20combat run examples/epic-path-ambush.yaml
--seed 1`` shows an ambush check with a surprise round, an action point spent, a splash weapon that misses and
scatters, and the 10-round reset (Maximum Encounter Length) — the four things issue 15 asks one run to show."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from d20combat.cli import app
from d20combat.controllers import TacticalAI, play
from d20combat.dice import SeededDice
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.scenario import load_battle

EXAMPLE = "examples/epic-path-ambush.yaml"
runner = CliRunner()


def _played(seed: int) -> Encounter:
    return play(Encounter(load_battle(EXAMPLE), SeededDice(seed)), TacticalAI())


def _point_spent(e: ev.Event) -> bool:
    """An action point spent on the creature's own turn: the pool lowered silently and explained by a note
    ("<x> spends an action point: <benefit>; N left", EP-MISC-23)."""
    return isinstance(e, ev.Note) and " spends an action point: " in e.text


def test_ep_surp_03_showcase_seed_1_has_an_ambush_a_point_a_scatter_and_the_reset() -> None:
    """EP-SURP-03, EP-SURP-29, EP-MISC-23, EP-SPLASH-17, EP-SPLASH-19, EP-TIME-06, EP-TIME-07, EP-TIME-08: at seed 1
    the ambush check succeeds (a surprise round, some knights surprised), creatures spend action points, a thrown
    flask misses and scatters onto a square whose occupants take splash only, and after round 10 a new combat
    begins with initiative re-rolled and a fresh action point for every survivor."""
    enc = _played(1)
    log = enc.log
    surprise = next(e for e in log if isinstance(e, ev.SurpriseDetermined))
    assert surprise.surprised and surprise.verdict.startswith("ambush check")
    assert next(e for e in log if isinstance(e, ev.RoundStarted)).surprise
    assert set(surprise.surprised) <= {"aldo", "cole", "pip"}
    spent = [e for e in log if _point_spent(e)]
    assert spent
    # a miss that scatters: the throw's note says "misses", the next event is the d8 scatter, nobody takes direct
    # damage from it, and the creatures by the landing square are splashed
    scatters = [i for i, e in enumerate(log) if isinstance(e, ev.Note) and e.text.lstrip().startswith("scatter d8")]
    assert scatters
    for i in scatters:
        throw = log[i - 1]
        assert (isinstance(throw, ev.AttackResolved) and not throw.hit) or (
            isinstance(throw, ev.Note) and "misses" in throw.text)
    resets = [e for e in log if isinstance(e, ev.EncounterClockSet) and "EP-TIME-06" in e.reason]
    assert resets
    first_reset = log.index(resets[0])
    rerolled = [e for e in log[first_reset:] if isinstance(e, ev.InitiativeRolled)]
    assert rerolled and all("EP-TIME-07" in e.explanation for e in rerolled)
    assert any(_point_spent(e) for e in log[:first_reset])
    assert enc.state.ended


def test_ep_time_06_showcase_run_explains_the_four_and_replays(tmp_path: Path) -> None:
    """EP-SURP-03, EP-MISC-23, EP-SPLASH-18, EP-TIME-06: the CLI's explained battle at seed 1 prints each of the
    four with its numbers, and its log replays."""
    log = tmp_path / "ambush.jsonl"
    result = runner.invoke(app, ["run", EXAMPLE, "--seed", "1", "--log", str(log)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "(surprise round)" in out and "ambush check " in out and "≥ 10: a surprise round (EP-SURP-03)" in out
    assert "spends an action point" in out and "(EP-MISC-23, data/ep_action_points.yaml)" in out
    assert "scatter d8 " in out and "clockwise from short" in out and "no direct-hit damage" in out
    assert "Maximum Encounter Length, EP-TIME-06" in out and "gains a fresh action point" in out
    assert "%%" in out  # the impeded drift heaps are drawn on the map
    kinds = [json.loads(line).get("kind") for line in log.read_text().splitlines()]
    assert "surprise_determined" in kinds and "encounter_clock_set" in kinds
    replayed = runner.invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output


def test_ep_move_05_showcase_nobody_walks_into_the_drift_heaps() -> None:
    """EP-MOVE-05: the AI's moves go around the impeded drift heaps; no creature's move ends in one (a full-round
    5-ft wade would be an ``ImpededMove``, which the AI takes only when already caught in impeded terrain)."""
    enc = _played(1)
    game_map = enc.battle.game_map
    moves = [e for e in enc.log if isinstance(e, ev.Moved)]
    assert moves
    assert not any(game_map.is_impeded((sq[0], sq[1])) for e in moves for sq in e.path)


def test_ep_time_13_the_round_headers_name_the_round_of_the_current_combat() -> None:
    """EP-SURP-23 and EP-TIME-13: after the surprise round, and again after a reset, the explained battle names the
    round of the current combat next to the engine's round ("=== Round 12 (round 1 of this combat) ===")."""
    from d20combat.render import describe_event

    enc = _played(1)
    clock = [e for e in enc.log if isinstance(e, ev.EncounterClockSet)]
    assert clock and clock[-1].first_round > 2
    last = clock[-1].first_round
    header = describe_event(enc, ev.RoundStarted(last, False))
    assert header.strip() == f"=== Round {last} (round 1 of this combat) ==="
    assert "of this combat" not in describe_event(enc, ev.RoundStarted(1, True))
