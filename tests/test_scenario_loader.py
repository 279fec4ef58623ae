"""The scenario format: every problem reported by field path, never a traceback; the JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from d20combat.scenario import Scenario, ScenarioError, battle_from_data, load_battle
from d20combat.scenario.loader import parse_scenario_text


def _base(**extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "map": {"width": 20, "height": 20},
        "combatants": [
            {"id": "a", "side": "heroes", "stats": "fighter", "position": [1, 1]},
            {"id": "b", "side": "goblins", "stats": "goblin", "position": [5, 5]},
        ],
    }
    data.update(extra)
    return data


def _problems(data: dict[str, Any]) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        battle_from_data(data)
    return info.value.problems


def test_position_outside_the_map_is_named_by_path() -> None:
    data = _base()
    data["combatants"].append({"id": "c", "side": "goblins", "stats": "goblin", "position": [31, 4]})
    assert _problems(data) == ["combatants[2].position: square (31, 4) is outside the 20×20 map"]


def test_every_error_is_listed_not_just_the_first() -> None:
    data = _base()
    data["combatants"][0]["stats"] = "dragon"
    data["combatants"][1]["position"] = [99, 0]
    data["combatants"].append({"id": "c", "side": "goblins", "stats": "goblin", "position": [1, 1]})
    problems = _problems(data)
    assert any(p.startswith("combatants[0].stats: no stat block named 'dragon'") for p in problems)
    assert "combatants[1].position: square (99, 0) is outside the 20×20 map" in problems
    assert len(problems) == 2  # (1, 1) is free because 'a' was rejected


def test_schema_errors_carry_field_paths() -> None:
    data = _base()
    data["combatants"][1]["position"] = "north"
    data["combatants"][0]["hp"] = "lots"
    data["max_rounds"] = 0
    problems = _problems(data)
    assert any(p.startswith("combatants[1].position") for p in problems)
    assert any(p.startswith("combatants[0].hp") for p in problems)
    assert any(p.startswith("max_rounds") for p in problems)


def test_overlapping_large_creature_and_walls() -> None:
    data = _base()
    data["map"]["walls"] = [[6, 6]]
    data["combatants"].append({"id": "ogre", "side": "goblins", "stats": "ogre", "position": [5, 6]})
    problems = _problems(data)
    assert problems == ["combatants[2].position: square (5, 6) is a wall or pit"] or problems == [
        "combatants[2].position: square (6, 6) is a wall or pit"]


def test_unknown_ruleset_and_bad_variant() -> None:
    assert _problems(_base(ruleset="chess"))[0].startswith("ruleset: unknown ruleset 'chess'")
    problems = _problems(_base(variants={"pfb_dying": "sometimes", "no_such_option": True}))
    assert any(p.startswith("variants.pfb_dying") for p in problems)
    assert any(p.startswith("variants.no_such_option") for p in problems)


def test_one_side_only_and_duplicate_ids() -> None:
    data = _base()
    data["combatants"][1]["side"] = "heroes"
    assert _problems(data) == ["combatants: at least two sides are needed, got ['heroes']"]
    data = _base()
    data["combatants"][1]["id"] = "a"
    assert _problems(data) == ["combatants[1].id: 'a' is used twice"]


def test_bad_map_rows_and_bad_yaml() -> None:
    problems = _problems(_base(map={"rows": ["..X.", "...."]}))
    assert problems[0].startswith("map.rows")
    with pytest.raises(ScenarioError) as info:
        parse_scenario_text("map: [unclosed")
    assert "not valid YAML" in str(info.value)
    with pytest.raises(ScenarioError):
        parse_scenario_text("- just a list")


def test_count_needs_one_position_per_copy() -> None:
    data = _base()
    data["combatants"][1] = {"id": "g", "side": "goblins", "stats": "goblin", "count": 3, "positions": [[5, 5]]}
    assert _problems(data) == ["combatants[1].positions: 3 creature(s) need 3 position(s), got 1"]


def test_examples_load_and_json_round_trip(tmp_path: Path) -> None:
    for path in Path("examples").glob("*.yaml"):
        battle = load_battle(path)
        assert len(battle.creatures) >= 2
    as_json = tmp_path / "s.json"
    as_json.write_text(json.dumps(_base()), encoding="utf-8")
    assert set(load_battle(as_json).creatures) == {"a", "b"}


def test_json_schema_is_published() -> None:
    schema = Scenario.model_json_schema(by_alias=True)
    assert "combatants" in schema["properties"] and "map" in schema["required"]
