"""The Epic Path splash example (splash weapons on impeded terrain) and the AI's Epic Path habits."""

from __future__ import annotations

from pathlib import Path

from tests.rules.ep._util import ep, stats
from typer.testing import CliRunner

from d20combat.cli import app
from d20combat.controllers import TacticalAI
from d20combat.encounter import actions as ax
from d20combat.rulesets.epic_path.melee import FightDefensively, FullAttack
from d20combat.rulesets.epic_path.movement import ImpededMove
from d20combat.rulesets.epic_path.splash import ThrowSplash

EXAMPLE = "examples/epic-path-splash.yaml"
runner = CliRunner()
GOBLIN = stats("goblin", attack_bonus=1, hp=6, attacks=[{"weapon": "club"}])


def test_example_plays_to_the_end_with_splash_full_attacks_and_replays(tmp_path: Path) -> None:
    """EP-SPLASH-02, EP-SPLASH-05, EP-SPLASH-08, EP-ACT-07, EP-DEF-03, EP-MOVE-23: the example's battle throws
    alchemist's fire into the
    goblins (splash and Reflex saves), full-attacks, fights defensively and charges; its log replays."""
    log = tmp_path / "splash.jsonl"
    result = runner.invoke(app, ["run", EXAMPLE, "--seed", "7", "--log", str(log)])
    assert result.exit_code == 0, result.output
    out = result.output
    for needle in ("lem throws alchemists-fire at", "(EP-SPLASH-05/06): splash 1", "Reflex save",
                   "second attack", "fights defensively", "the charge ends the turn", "Result after"):
        assert needle in out, needle
    assert "%%%%" in out and "B" in out  # the map shows impeded and blocked terrain
    replayed = runner.invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output
    assert out[out.index("Result after"):].split("event log:")[0].strip() in replayed.output


def test_ai_throws_a_splash_weapon_into_the_group_never_on_a_friend() -> None:
    """The AI aims its splash weapon at the foe with the most other foes within 5 ft, and never where the splash
    would reach a friend."""
    lem = stats("lem", attack_bonus=2, attacks=[{"weapon": "alchemists-fire"}, {"weapon": "dagger"}],
                wielding="alchemists-fire")
    enc = ep([{"id": "lem", "side": "a", "stats": lem, "position": [0, 5]},
              {"id": "ally", "side": "a", "stats": GOBLIN, "position": [6, 1]},
              {"id": "lone", "side": "b", "stats": GOBLIN, "position": [3, 5]},
              {"id": "g1", "side": "b", "stats": GOBLIN, "position": [6, 8]},
              {"id": "g2", "side": "b", "stats": GOBLIN, "position": [7, 8]},
              {"id": "g3", "side": "b", "stats": GOBLIN, "position": [6, 9]},
              {"id": "near_friend", "side": "b", "stats": GOBLIN, "position": [6, 2]},
              {"id": "nf2", "side": "b", "stats": GOBLIN, "position": [7, 2]}])
    action = TacticalAI().choose(enc)
    assert isinstance(action, ThrowSplash) and action.target == "g1"


def test_ai_fights_defensively_when_outmatched_and_full_attacks_otherwise() -> None:
    """The AI fights defensively when the foes on it may take a third of its hit points a round; a veteran with two
    attacks and no such danger takes the full attack."""
    vet = stats("vet", attack_bonus=6, hp=12, attacks=[{"weapon": "club"}])
    ogre = stats("ogre", attack_bonus=8, hp=30, abilities={"str": 20}, attacks=[{"weapon": "greatclub-large"}])
    enc = ep([{"id": "vet", "side": "a", "stats": vet, "position": [2, 2]},
              {"id": "ogre", "side": "b", "stats": ogre, "position": [3, 2]}])
    assert isinstance(TacticalAI().choose(enc), FightDefensively)
    easy = ep([{"id": "vet", "side": "a", "stats": {**vet, "hp": 60}, "position": [2, 2]},
               {"id": "g", "side": "b", "stats": GOBLIN, "position": [3, 2]}])
    assert isinstance(TacticalAI().choose(easy), FullAttack)


def test_ai_avoids_impeded_squares_and_wades_out_when_caught_in_them() -> None:
    """The AI's moves go around impeded terrain (EP-MOVE-05: a move never enters it); caught in it, the AI wades
    5 ft toward the nearest foe."""
    rows = ["........", "..%%%...", "..%%%...", "..%%%...", "........"]
    fighter = stats("f", attack_bonus=3, attacks=[{"weapon": "club"}])
    enc = ep([{"id": "f", "side": "a", "stats": fighter, "position": [1, 2]},
              {"id": "g", "side": "b", "stats": GOBLIN, "position": [6, 2]}], rows=rows)
    action = TacticalAI().choose(enc)
    assert isinstance(action, ax.Move | ax.Charge)
    path = enc.move_options("f")[action.to].path if isinstance(action, ax.Move) and action.to else ()
    assert not any(enc.battle.game_map.is_impeded(sq) for sq in path)
    stuck = ep([{"id": "f", "side": "a", "stats": fighter, "position": [3, 2]},
                {"id": "g", "side": "b", "stats": GOBLIN, "position": [7, 2]}], rows=rows)
    assert TacticalAI().choose(stuck) == ImpededMove((4, 2))
