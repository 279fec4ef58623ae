"""The time-and-turn example (examples/epic-path-long-fight.yaml): an ambush, a fight that crosses the 10-round
Maximum Encounter Length, action points spent by the AI; and the AI's action-point tactics."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.rules.ep._util import FIGHTER, stats
from tests.rules.ep._util import ep as _ep
from typer.testing import CliRunner

from d20combat.cli import app
from d20combat.controllers.ai import TacticalAI
from d20combat.encounter import actions as ax
from d20combat.encounter.engine import Encounter
from d20combat.rulesets.epic_path.turn_actions import SpendActionPoint


def ep(*args: Any, **kw: Any) -> Encounter:
    """The first round as it starts: every creature Flat-Footed until it acts (EP-SURP-20), as these tests need."""
    return _ep(*args, alert=False, **kw)

EXAMPLE = "examples/epic-path-long-fight.yaml"
runner = CliRunner()


def test_ep_time_06_example_crosses_the_reset_and_spends_action_points(tmp_path: Path) -> None:
    """EP-SURP-03, EP-SURP-26, EP-SURP-29, EP-TIME-06, EP-TIME-07, EP-TIME-08, EP-MISC-23, EP-MISC-25: seed 3 gives
    a surprise round (Cole surprised, Aldo aware thanks to his Spot checks), a new combat after round 10 with
    initiative re-rolled and fresh action points, and action points spent before and after the reset; the log
    replays."""
    log = tmp_path / "ford.jsonl"
    result = runner.invoke(app, ["run", EXAMPLE, "--seed", "3", "--log", str(log)])
    assert result.exit_code == 0, result.output
    out = result.output
    for needle in ("ambush check 11 = d20 8 + preparation 2 + hiding places 1 ≥ 10", "(surprise round)",
                   "one step easier: it was spot-checking", "Maximum Encounter Length, EP-TIME-06",
                   "(re-rolled for the new combat, EP-TIME-07)", "gains a fresh action point: 1 (EP-TIME-08)",
                   "action point in combat round", "Combat ends"):
        assert needle in out, needle
    reset = out.index("Maximum Encounter Length")
    assert "spends an action point" in out[:reset] and "spends an action point" in out[reset:]
    lines = log.read_text().splitlines()
    assert json.loads(lines[1])["kind"] == "encounter_started"
    replayed = runner.invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output


def test_ep_misc_23_ai_spends_the_action_point_for_a_standard_action() -> None:
    """EP-MISC-23, EP-ACT-53: the AI keeps its point in round 1 (it buys only a move action) and spends it in round 2
    after its attack, with the foe still in reach."""
    enc = ep([{"id": "a", "side": "x", "stats": FIGHTER, "position": [0, 0]},
              {"id": "b", "side": "y", "stats": stats("b", hp=80, attacks=[{"weapon": "club"}]), "position": [1, 0]}],
             dice=[2, 2, 2, 2])
    ai = TacticalAI()
    enc.act(ai.choose(enc))                    # round 1: attack (d20 2, a miss)
    assert not isinstance(ai.choose(enc), SpendActionPoint)
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())                      # b
    enc.act(ai.choose(enc))                    # round 2: attack
    assert isinstance(ai.choose(enc), SpendActionPoint)
    enc.act(SpendActionPoint())
    assert isinstance(ai.choose(enc), ax.Attack)
