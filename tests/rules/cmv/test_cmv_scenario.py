"""The off-guard example scenario, the map fields CMV added (elevation, narrow squares, narrow openings,
improved cover, concealment degrees) and the ruleset's options model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from d20combat.cli import app
from d20combat.rulesets import RULESETS, get_ruleset
from d20combat.rulesets.off_guard import OffGuard, OffGuardOptions
from d20combat.scenario import ScenarioError, battle_from_data, load_battle

from ._util import FIGHTER, armored, cmv

EXAMPLE = "examples/off-guard-ambush.yaml"
runner = CliRunner()


def test_example_scenario_plays_to_the_end_with_explained_numbers(tmp_path: Path) -> None:
    """CMV-COND-40, CMV-SIT-06, CMV-COV-08, CMV-CONC-10, CMV-INJ-03, CMV-INJ-12: the example exercises off-guard
    (the surprised back line), flanking, a reaction attack, stacked concealment and the damage-taken model,
    and replays from its log."""
    log = tmp_path / "ambush.jsonl"
    result = runner.invoke(app, ["run", EXAMPLE, "--seed", "1", "--log", str(log)])
    assert result.exit_code == 0, result.output
    out = result.output
    for needle in ("is off-guard (surprised (CMV-COND-40))", "flanking with", "attack of opportunity",
                   "blur (20%) — added: 40%", "is bloodied (damage", "death save", "higher ground 1",
                   " vs AC ", "Result after"):
        assert needle in out, needle
    header, first = (json.loads(line) for line in log.read_text().splitlines()[:2])
    assert header["d20combat_log"] == 2 and first["kind"] == "encounter_started"  # issue 12: a verifiable log
    replayed = runner.invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output
    assert out[out.index("Result after"):].split("event log:")[0].strip() in replayed.output


def test_example_scenario_validates() -> None:
    battle = load_battle(EXAMPLE)
    assert battle.ruleset.id == "off-guard"
    assert battle.game_map.elevation[(13, 1)] == 5


def test_off_guard_is_a_registered_ruleset() -> None:
    assert RULESETS["off-guard"] is OffGuard
    assert isinstance(get_ruleset("off-guard"), OffGuard)


def test_unknown_variant_options_are_rejected() -> None:
    with pytest.raises(ValidationError):
        OffGuardOptions.model_validate({"cmv_no_such_option": True})
    with pytest.raises(ValidationError):
        OffGuardOptions.model_validate({"cmv_concealment_stack": "multiply"})


def test_every_cmv_option_is_documented_with_a_rule_id() -> None:
    for name, field in OffGuardOptions.model_fields.items():
        assert field.description and ("CMV-" in field.description or "PFB-" in field.description), name


def test_map_fields_load_and_are_checked() -> None:
    """CMV-SIT-04, CMV-SIT-10, CMV-COV-18, CMV-COV-23, CMV-CONC-18: the scenario map takes elevation, narrow
    squares, narrow openings, improved cover and per-square miss chances; squares off the map are reported."""
    data = {"ruleset": "off-guard", "map": {
        "width": 6, "height": 4, "elevation": [[1, 1, 5]], "narrow": [[2, 2]], "narrow_openings": [[3, 0]],
        "improved_cover": [{"from": [4, 0], "to": [5, 0]}], "concealment": [[0, 3, 40]]},
        "combatants": [{"id": "a", "side": "h", "stats": FIGHTER, "position": [0, 0]},
                       {"id": "b", "side": "f", "stats": armored("b", 2), "position": [5, 3]}]}
    gm = battle_from_data(data).game_map
    assert gm.elevation == {(1, 1): 5} and gm.narrow == {(2, 2)} and gm.narrow_openings == {(3, 0)}
    assert gm.improved_cover == {(4, 0), (5, 0)} and gm.concealing[(0, 3)] == 40
    assert not gm.is_passable((3, 0))
    bad = json.loads(json.dumps(data))
    bad["map"]["elevation"] = [[9, 9, 5]]
    with pytest.raises(ScenarioError, match=r"map.elevation\[0\]: square \(9, 9\) is outside"):
        battle_from_data(bad)


@pytest.mark.parametrize(("variants", "limit"), [({}, 1), ({"max_free_actions": 2}, 2)])
def test_inherited_free_action_limit(variants: dict[str, object], limit: int) -> None:
    """PFB-ACT-13 inherited: one free action a turn unless the GM allows more."""
    enc = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1]},
               {"id": "t", "side": "f", "stats": armored("t", 2), "position": [6, 6]}], variants=variants)
    assert enc.state.turn is not None and enc.state.turn.pools["free"] == limit


@pytest.mark.parametrize(("variants", "face", "free"), [({}, 14, False), ({"cmv_held_escape_dc": 12}, 14, True)])
def test_cmv_cond_35_escape_dc_when_the_hold_names_none(variants: dict[str, object], face: int, free: bool) -> None:
    """CMV-COND-35 (MISSING escape rules): a hold without its own DC uses cmv_held_escape_dc (15 by default):
    d20 14 + Str 0 fails against 15 and succeeds against 12."""
    from d20combat.rulesets.off_guard import Escape

    enc = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1], "conditions": ["held"]},
               {"id": "t", "side": "f", "stats": armored("t", 2), "position": [2, 1]}], dice=(face,), variants=variants)
    enc.act(Escape())
    assert ("held" not in enc.state.get("a").conditions) is free
