"""End-to-end smoke: the demo battle runs to the end."""

from d20combat.controllers import TacticalAI, play
from d20combat.dice import SeededDice
from d20combat.encounter.engine import Encounter
from d20combat.scenario import load_battle


def test_demo_battle_runs_to_the_end() -> None:
    """PFB-RND-07: the combat ends by itself when one side is out."""
    enc = Encounter(load_battle("examples/goblin-ambush.yaml"), SeededDice(3))
    play(enc, TacticalAI())
    assert enc.state.ended
    assert enc.state.winner in ("heroes", "goblins")
