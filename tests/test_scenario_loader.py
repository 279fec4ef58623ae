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


# ------------------------------------------------------------------- issue 12: clear scenario errors
def test_ragged_rows_name_the_first_row_that_differs() -> None:
    problems = _problems(_base(map={"rows": ["." * 10] * 3 + ["." * 7, "." * 3]}))
    assert problems[0] == "map.rows[3]: 7 squares, but row 0 has 10; every row must be as long as the first"


def test_rows_may_be_shorter_than_a_given_width() -> None:
    battle = battle_from_data(_base(map={"width": 20, "height": 8, "rows": ["." * 20, "." * 12]}))
    assert (battle.game_map.width, battle.game_map.height) == (20, 8)
    assert _problems(_base(map={"width": 20, "rows": ["." * 21]}))[0].startswith("map.rows: 21×1 rows do not fit")


def test_a_stat_block_needs_at_least_one_hit_point() -> None:
    for hp in (0, -5):
        data = _base()
        data["combatants"][0]["stats"] = {"hp": hp}
        assert _problems(data) == ["combatants[0].stats.hp: Input should be greater than or equal to 1"]


def test_a_combatant_starts_at_or_below_0_hp_only_on_purpose_and_never_above_its_maximum() -> None:
    """Issue 12: hp 0 or -5 (a typo) would end the battle in round 1, so it is refused unless the scenario
    says starts_down: true (the rules tests and GMs start creatures dying on purpose)."""
    data = _base()
    for hp in (0, -5):
        data["combatants"][1]["hp"] = hp
        assert _problems(data) == [f"combatants[1].hp: {hp} would start b disabled, dying or dead; a combatant "
                                   "starts with at least 1 hp (to start one down on purpose, add starts_down: true)"]
    data["combatants"][1]["hp"] = -1
    data["combatants"][1]["starts_down"] = True
    assert battle_from_data(data).placements["b"].hp == -1
    data["combatants"][1]["hp"] = 99
    assert _problems(data)[0].startswith("combatants[1].hp: 99 is more than the maximum")


def test_unknown_equipment_is_named_by_path_with_a_suggestion() -> None:
    data = _base()
    data["combatants"][1]["stats"] = {"hp": 5, "armor": "chainshirt", "shield": "buckler-x",
                                      "attacks": [{"weapon": "longsowrd"}, {"weapon": "dagger"}]}
    assert _problems(data) == [
        "combatants[1].stats.attacks[0].weapon: unknown weapon 'longsowrd' — did you mean 'longsword'?",
        "combatants[1].stats.armor: unknown armor 'chainshirt' — did you mean 'chain-shirt'?",
        "combatants[1].stats.shield: unknown shield 'buckler-x' — did you mean 'buckler'?",
    ]


def test_unknown_bestiary_name_and_wielding_suggest_the_closest() -> None:
    data = _base()
    data["combatants"][1]["stats"] = "goblin archer"
    data["combatants"][0]["wielding"] = "longswrd"
    problems = _problems(data)
    assert "combatants[1].stats: no stat block named 'goblin archer' in the bestiary — did you mean " \
           "'goblin-archer'?" in problems
    assert "combatants[0].wielding: 'longswrd' is not one of its attacks — did you mean 'longsword'?" in problems


def test_an_inline_stat_block_is_named_after_its_combatant() -> None:
    data = _base()
    data["combatants"][1] = {"id": "boss", "side": "goblins", "position": [5, 5],
                             "stats": {"hp": 14, "attacks": [{"weapon": "dagger"}]}}
    assert battle_from_data(data).creatures["boss"].sheet.name == "boss"
    data["combatants"][1]["name"] = "Grukk"
    assert battle_from_data(data).creatures["boss"].sheet.name == "Grukk"


def test_inline_stat_block_errors_have_no_union_noise() -> None:
    data = _base()
    data["combatants"][1]["stats"] = {"hp": "lots", "armor": {"name": "hide"}, "wielding": "axe",
                                      "attacks": [{"weapon": {"name": "claw"}}]}
    problems = _problems(data)
    assert problems == [
        "combatants[1].stats.hp: Input should be a valid integer, unable to parse string as an integer",
        "combatants[1].stats.armor.armor_bonus: Field required",
        "combatants[1].stats.attacks[0].weapon.damage: Field required",
    ]
    data["combatants"][1]["stats"] = {"hp": 5, "wielding": "axe", "attacks": [{"weapon": "dagger"}]}
    assert _problems(data) == ["combatants[1].stats: wielding 'axe' is not one of its attacks ['dagger']"]
    data["combatants"][1]["stats"] = 7
    assert _problems(data) == ["combatants[1].stats: Input should be a valid dictionary or instance of StatBlock"]
    data["combatants"][1]["stats"] = "goblin"
    data["map"] = {"walls": [[1, 2, 3], {"from": [0, 0]}], "width": 5, "height": 5}
    assert _problems(data) == ["map.walls[0]: Tuple should have at most 2 items after validation, not 3",
                               "map.walls[1].to: Field required"]


@pytest.mark.parametrize(("condition", "problem"), [
    ("panicked:nobody:abc", "'panicked:nobody:abc': the source of the fear, 'nobody', is not a combatant's id"),
    ("frightened:g:12", "'frightened:g:12': the source of the fear, 'g', is not a combatant's id — did you mean "
                        "'g-2'?"),
    ("panicked:a:abc", "'panicked:a:abc': the Will DC 'abc' is not a whole number from 0 to 1000"),
    ("shaken:a:12:3", "'shaken:a:12:3': shaken takes a source and a Will DC at most, e.g. 'shaken:valeros:12'"),
    ("held:x", "'held:x': an escape DC 'x' is not a whole number from 0 to 1000"),
    ("concealed:120", "'concealed:120': a miss chance '120' is not a whole number from 0 to 100"),
    ("wound_points:-2", "'wound_points:-2': a count '-2' is not a whole number from 0 to 1000"),
    (":12", "':12' has no condition name"),
])
def test_condition_arguments_are_checked(condition: str, problem: str) -> None:
    data = _base(ruleset="off-guard")
    data["combatants"][1] = {"id": "g", "side": "goblins", "stats": "goblin", "count": 2, "positions": [[5, 5], [6, 6]],
                             "conditions": [condition]}
    assert _problems(data) == [f"combatants[1].conditions[0]: {problem}"]


@pytest.mark.parametrize("condition", ["panicked:a:12", "frightened:g-2", "shaken", "panicked::15", "held:18",
                                       "concealed:30", "wound_points:2", "prone", "two-weapon fighting"])
def test_good_condition_arguments_are_accepted(condition: str) -> None:
    data = _base(ruleset="off-guard")
    data["combatants"][1] = {"id": "g", "side": "goblins", "stats": "goblin", "count": 2, "positions": [[5, 5], [6, 6]],
                             "conditions": [condition]}
    assert condition in battle_from_data(data).placements["g-1"].conditions
