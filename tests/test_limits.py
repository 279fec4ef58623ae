"""Every input bounded before any work (issue 12, item 1, first part): dice expressions and scenario text are
refused fast, with bounded memory, by an error naming the input and the limit (``d20combat.limits``)."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from d20combat.dice import parse_dice
from d20combat.dice.expression import DiceSyntaxError
from d20combat.limits import MAX_DICE_COUNT, MAX_DICE_SIDES, MAX_NESTING, MAX_SCENARIO_BYTES, MAX_YAML_VALUES
from d20combat.scenario.loader import ScenarioError, parse_scenario_text

ALIAS_BOMB = "\n".join(
    ["a: &a [x, x, x, x, x, x, x, x, x]"]
    + [f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
       f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]" for i in range(8)]
    + ["map: {width: 5, height: 5}", "combatants: *i"])
"""The "billion laughs" in YAML: about 400 bytes that expand to 9^9 items."""


def _fast_and_small(call: Callable[[], object], error: type[Exception], needle: str) -> None:
    tracemalloc.start()
    start = time.process_time()
    with pytest.raises(error, match=needle):
        call()
    elapsed = time.process_time() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert elapsed < 1.0, f"{elapsed:.2f} s"
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

    client = TestClient(create_app(db_path=str(tmp_path) + "/t.db"))
    start = time.process_time()
    answer = client.post("/api/encounters", json={"scenario_yaml": ALIAS_BOMB})
    assert answer.status_code == 422 and "expand to more than" in answer.text
    assert time.process_time() - start < 1.0
