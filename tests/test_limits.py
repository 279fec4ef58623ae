"""Every input bounded before any work (issue 12, items 1 and 5): dice expressions, scenario text and every part of
a scenario (map, areas, combatants, strings, lists, numbers) are refused fast, with bounded memory, by an error
naming the field and the limit (``d20combat.limits``)."""

from __future__ import annotations

import gc
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from d20combat.dice import parse_dice
from d20combat.dice.expression import DiceSyntaxError
from d20combat.limits import (
    MAX_AREA_ENTRIES,
    MAX_AREA_SQUARES,
    MAX_COMBATANTS,
    MAX_CONDITION_CHARS,
    MAX_DICE_COUNT,
    MAX_DICE_SIDES,
    MAX_HP,
    MAX_LIST_ITEMS,
    MAX_MAP_SIDE,
    MAX_NAME_CHARS,
    MAX_NESTING,
    MAX_PROBLEMS,
    MAX_SCENARIO_BYTES,
    MAX_SIDES,
    MAX_TEXT_CHARS,
    MAX_YAML_VALUES,
)
from d20combat.scenario import Scenario, battle_from_data
from d20combat.scenario.loader import ScenarioError, parse_scenario_text

ALIAS_BOMB = "\n".join(
    ["a: &a [x, x, x, x, x, x, x, x, x]"]
    + [f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
       f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]" for i in range(8)]
    + ["map: {width: 5, height: 5}", "combatants: *i"])
"""The "billion laughs" in YAML: about 400 bytes that expand to 9^9 items."""


def _fast_and_small(call: Callable[[], object], error: type[Exception], needle: str | None) -> None:
    """Refused in under a second of CPU, and (a second run, traced: tracing slows Python down several times) with
    a peak of under 50 MiB allocated. (The garbage of earlier tests is collected first: a full collection that
    happens to fall inside the call walks the whole test session's heap, which is not the call's work.)"""
    gc.collect()
    start = time.process_time()
    with pytest.raises(error, match=needle):
        call()
    elapsed = time.process_time() - start
    assert elapsed < 1.0, f"{elapsed:.2f} s"
    tracemalloc.start()
    try:
        with pytest.raises(error, match=needle):
            call()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 50 * 2**20, f"{peak / 2**20:.0f} MiB"


@pytest.mark.parametrize("text", ["1000d1000", "20000d6", "99999999d99999999", "500d6", "1d100000", "2d6+99999"])
def test_oversized_dice_are_refused_fast_naming_the_limit(text: str) -> None:
    _fast_and_small(lambda: parse_dice.__wrapped__(text), DiceSyntaxError, "at most")


def test_long_or_deep_dice_text_is_refused_before_parsing() -> None:
    _fast_and_small(lambda: parse_dice.__wrapped__("1d6+" * 5000 + "1"), DiceSyntaxError, "at most 64 characters")
    assert parse_dice.__wrapped__("(" * 31 + "1" + ")" * 31).bonus == 1  # nesting that fits the text limit is fine


def test_dice_at_the_limits_still_parse() -> None:
    assert parse_dice(f"{MAX_DICE_COUNT}d{MAX_DICE_SIDES}+5").count == MAX_DICE_COUNT
    assert parse_dice("1d100").sides == 100


def test_a_yaml_alias_bomb_is_refused_before_it_expands() -> None:
    assert len(ALIAS_BOMB) < 600
    _fast_and_small(lambda: parse_scenario_text(ALIAS_BOMB), ScenarioError, f"more than {MAX_YAML_VALUES:,} values")


def test_a_few_anchors_and_aliases_are_fine() -> None:
    data = parse_scenario_text("stats: &s fighter\ncombatants: [{id: a, stats: *s}, {id: b, stats: *s}]\n")
    assert [c["stats"] for c in data["combatants"]] == ["fighter", "fighter"]


def test_deep_nesting_and_oversized_text_are_refused() -> None:
    deep_yaml = "a: " + "[" * (MAX_NESTING + 5) + "]" * (MAX_NESTING + 5)
    _fast_and_small(lambda: parse_scenario_text(deep_yaml), ScenarioError, f"deeper than {MAX_NESTING}")
    deep_json = "[" * 100_000 + "]" * 100_000
    _fast_and_small(lambda: parse_scenario_text(deep_json, json_hint=True), ScenarioError, "deeper than")
    assert parse_scenario_text('{"name": "a \\" [[[[", "map": {}}', json_hint=True)["name"] == 'a " [[[['
    big = "name: " + "x" * (MAX_SCENARIO_BYTES + 1)
    _fast_and_small(lambda: parse_scenario_text(big), ScenarioError, "larger than")


def test_the_server_answers_an_alias_bomb_with_a_422(tmp_path: object) -> None:
    from d20combat.server.app import create_app

    app = create_app(db_path=str(tmp_path) + "/t.db")
    client = TestClient(app, headers={"Authorization": f"Bearer {app.state.token}"})
    start = time.process_time()
    answer = client.post("/api/encounters", json={"scenario_yaml": ALIAS_BOMB})
    assert answer.status_code == 422 and "expand to more than" in answer.text
    assert time.process_time() - start < 1.0


# ------------------------------------------------------------------------------------ scenario contents
def _scenario(**extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "map": {"width": 10, "height": 8},
        "combatants": [{"id": "a", "side": "heroes", "stats": "fighter", "position": [1, 1]},
                       {"id": "b", "side": "goblins", "stats": "goblin", "position": [5, 5]}],
    }
    data.update(extra)
    return data


def _refused(data: dict[str, Any], *needles: str) -> list[str]:
    """The scenario is refused fast and small; the problems contain every needle (the field and the limit)."""
    battle_from_data(_scenario())  # imports and the catalog, loaded once, are not the scenario's cost
    got: list[list[str]] = []

    def call() -> None:
        try:
            battle_from_data(data)
        except ScenarioError as exc:
            got.append(exc.problems)
            raise

    _fast_and_small(call, ScenarioError, None)
    text = "\n".join(got[-1])
    for needle in needles:
        assert needle in text, text
    return got[0]


@pytest.mark.parametrize(("rows", "needle"), [
    (["." * 1000] * 1000, f"map.rows: List should have at most {MAX_MAP_SIDE} items"),
    (["."] * 100_000, f"map.rows: List should have at most {MAX_MAP_SIDE} items"),
    (["." * 1000], f"map.rows[0]: String should have at most {MAX_MAP_SIDE} characters"),
], ids=["1000x1000", "100000x1", "one-long-row"])
def test_map_rows_are_bounded_like_width_and_height(rows: list[str], needle: str) -> None:
    _refused(_scenario(map={"rows": rows}), needle)


@pytest.mark.parametrize("n", [300, 50_000, 100_000])
def test_many_rows_as_yaml_text_are_refused_fast(n: int) -> None:
    battle_from_data(_scenario())
    text = "map:\n  rows:\n" + "    - .\n" * n + "combatants: []\n"
    assert len(text) < MAX_SCENARIO_BYTES
    _fast_and_small(lambda: battle_from_data(parse_scenario_text(text)), ScenarioError,
                    f"map.rows: List should have at most {MAX_MAP_SIDE} items" if n < MAX_YAML_VALUES
                    else f"expand to more than {MAX_YAML_VALUES:,} values")


def test_a_long_flat_yaml_list_is_refused_while_parsing() -> None:
    _fast_and_small(lambda: parse_scenario_text("a: [" + "1," * 300_000 + "]"), ScenarioError,
                    f"more than {MAX_YAML_VALUES:,} values")


@pytest.mark.parametrize("corner", [1000, 3000, 10**12])
def test_a_huge_rectangle_is_one_error_without_expanding(corner: int) -> None:
    wall = {"from": [0, 0], "to": [corner, corner]}
    problems = _refused(_scenario(map={"width": 10, "height": 8, "walls": [wall]}),
                        f"map.walls[0]: the rectangle (0,0)–({corner},{corner}) leaves the 10×8 map")
    assert len(problems) == 1


def test_area_lists_are_bounded_in_entries_and_squares() -> None:
    many = [[1, 1]] * (MAX_AREA_ENTRIES + 1)
    _refused(_scenario(map={"width": 10, "height": 8, "fog": many}),
             f"map.fog: List should have at most {MAX_AREA_ENTRIES} items")
    whole = {"from": [0, 0], "to": [MAX_MAP_SIDE - 1, MAX_MAP_SIDE - 1]}
    _refused(_scenario(map={"width": MAX_MAP_SIDE, "height": MAX_MAP_SIDE, "dim": [whole] * MAX_AREA_ENTRIES}),
             f"map.dim: the areas up to entry 1 cover more than {MAX_AREA_SQUARES:,} squares")


def test_the_problems_listed_are_bounded() -> None:
    outside = [[50, 50]] * MAX_AREA_ENTRIES
    problems = _refused(_scenario(map={"width": 10, "height": 8, "fog": outside}),
                        "map.fog[0]: square (50, 50) is outside the 10×8 map")
    assert len(problems) == MAX_PROBLEMS + 1
    assert problems[-1] == f"… and {MAX_AREA_ENTRIES - MAX_PROBLEMS:,} more"


def test_40000_combatants_are_refused() -> None:
    crowd = [{"id": f"g{i}", "side": f"s{i % 2}", "stats": "goblin", "position": [0, 0]} for i in range(40_000)]
    _refused(_scenario(combatants=crowd), f"combatants: List should have at most {MAX_COMBATANTS} items")


def test_copies_of_a_count_count_as_combatants() -> None:
    data = _scenario()
    data["combatants"] += [{"id": f"h{i}", "side": "goblins", "stats": "goblin", "count": 100,
                            "positions": [[0, 0]] * 100} for i in range(3)]
    _refused(data, f"combatants: 302 creatures with every copy of a count, more than {MAX_COMBATANTS}")


def test_sides_are_bounded() -> None:
    sides = [{"id": f"c{i}", "side": f"s{i}", "stats": "goblin", "position": [i % 10, i // 10]}
             for i in range(MAX_SIDES + 1)]
    _refused(_scenario(combatants=sides), f"combatants: {MAX_SIDES + 1} sides, more than {MAX_SIDES}")


def test_a_20_mb_description_and_a_5_mb_name_are_refused() -> None:
    _refused(_scenario(description="x" * 20_000_000), f"description: String should have at most {MAX_TEXT_CHARS}")
    data = _scenario()
    data["combatants"][0]["name"] = "n" * 5_000_000
    _refused(data, f"combatants[0].name: String should have at most {MAX_NAME_CHARS} characters")


@pytest.mark.parametrize(("field", "value", "needle"), [
    ("id", "a" * 200, f"combatants[0].id: String should have at most {MAX_NAME_CHARS}"),
    ("side", "s" * 200, f"combatants[0].side: String should have at most {MAX_NAME_CHARS}"),
    ("stats", "f" * 200, f"combatants[0].stats: String should have at most {MAX_NAME_CHARS}"),
    ("wielding", "w" * 200, f"combatants[0].wielding: String should have at most {MAX_NAME_CHARS}"),
    ("conditions", ["p" * 200], f"combatants[0].conditions[0]: String should have at most {MAX_CONDITION_CHARS}"),
    ("conditions", ["prone"] * 10_000, f"combatants[0].conditions: List should have at most {MAX_LIST_ITEMS}"),
    ("stats", {"name": "n" * 200, "hp": 5}, f"combatants[0].stats.name: String should have at most {MAX_NAME_CHARS}"),
    ("stats", {"hp": 5, "attacks": [{"weapon": {"name": "w" * 200, "damage": "1d6"}}]},
     f"combatants[0].stats.attacks[0].weapon.name: String should have at most {MAX_NAME_CHARS}"),
    ("stats", {"hp": 5, "feats": ["f"] * 10_000},
     f"combatants[0].stats.feats: Tuple should have at most {MAX_LIST_ITEMS}"),
    ("stats", {"hp": 10**9}, f"combatants[0].stats.hp: Input should be less than or equal to {MAX_HP}"),
    ("stats", {"hp": 5, "sneak_attack_dice": 10**9}, "combatants[0].stats.sneak_attack_dice: Input should be less"),
    ("hp", -(10**9), f"combatants[0].hp: Input should be greater than or equal to {-MAX_HP}"),
], ids=lambda v: str(v)[:20] if isinstance(v, str) else None)
def test_every_string_list_and_number_of_a_combatant_is_bounded(field: str, value: Any, needle: str) -> None:
    data = _scenario()
    data["combatants"][0][field] = value
    _refused(data, needle)


def test_a_number_with_too_many_digits_is_a_scenario_error() -> None:
    _fast_and_small(lambda: parse_scenario_text("map: {width: " + "9" * 5000 + "}"), ScenarioError, "not valid YAML")
    _fast_and_small(lambda: parse_scenario_text('{"map": ' + "9" * 5000 + "}", json_hint=True), ScenarioError,
                    "not valid JSON")


def test_the_json_schema_carries_the_limits() -> None:
    schema = Scenario.model_json_schema(by_alias=True)
    defs = schema["$defs"]
    assert schema["properties"]["combatants"]["maxItems"] == MAX_COMBATANTS
    assert schema["properties"]["description"]["maxLength"] == MAX_TEXT_CHARS
    assert schema["properties"]["name"]["maxLength"] == MAX_NAME_CHARS
    rows = defs["MapSpec"]["properties"]["rows"]["anyOf"][0]
    assert rows["maxItems"] == MAX_MAP_SIDE and rows["items"]["maxLength"] == MAX_MAP_SIDE
    assert defs["MapSpec"]["properties"]["width"]["anyOf"][0]["maximum"] == MAX_MAP_SIDE
    assert defs["MapSpec"]["properties"]["walls"]["maxItems"] == MAX_AREA_ENTRIES
    combatant = defs["CombatantSpec"]["properties"]
    assert combatant["id"]["maxLength"] == MAX_NAME_CHARS
    assert combatant["conditions"]["maxItems"] == MAX_LIST_ITEMS
    assert combatant["conditions"]["items"]["maxLength"] == MAX_CONDITION_CHARS
    assert {"maxLength": MAX_NAME_CHARS, "type": "string"} in combatant["stats"]["oneOf"]
    block = defs["StatBlock"]["properties"]
    assert block["hp"]["minimum"] == 1 and block["hp"]["maximum"] == MAX_HP
    assert block["attacks"]["maxItems"] == MAX_LIST_ITEMS
