"""The warband example shows the combat-reaction economy in an explained battle (issue 16's "done when"): with
``--seed 1`` the log has declarations, a re-rolled initiative, a block and a dodge, each with the budget left."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from d20combat.cli import app


def test_warband_seed_1_shows_declarations_reroll_block_and_dodge_with_the_budget_left() -> None:
    """WOA-REACT-02/22/23/32 in play: blocks and dodges are explained with the reactions left."""
    result = CliRunner().invoke(app, ["run", "examples/woa-warband.yaml", "--seed", "1"])
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    assert "Round 2 — declarations: " in out and "Round 2 — initiative: " in out
    assert re.search(r"reacts: blocks \S+'s attack: DR \d+ = ½ warrior level \d+ .*; \d+ reactions? left", out)
    assert re.search(r"reacts: dodges \S+'s attack: \+\d+ dodge AC \(½ (warrior|rogue) level \d+.*\); \d+ reactions? "
                     r"left", out)
    assert re.search(r"− block DR \d+", out)  # the block's damage reduction in the damage line


def test_warband_seed_1_opens_with_wrens_surprise_shot() -> None:
    """WOA-CYCLE-07: the orcs are caught by surprise; Wren's nocked shortbow looses the surprise attack before round
    1, the orcs' turns pass, then round 1 of the combat begins with the declarations."""
    out = CliRunner().invoke(app, ["run", "examples/woa-warband.yaml", "--seed", "1"]).output
    phase = out[out.index("=== Round 1 (surprise attacks) ==="):out.index("=== Round 2 (round 1 of this combat) ===")]
    assert "wren attacks orc-" in phase and "declares" not in phase
    assert "(chief caught by surprise: nothing to do before round 1 (WOA-CYCLE-07), turn passes)" in phase
    assert out.index("Round 1 — declarations: ") > out.index("=== Round 2 (round 1 of this combat) ===")
