"""Issue 12, "Done when": each reproduction of the report, sent to the server as the tester sent it, answers a
4xx in under a second of CPU, with a small body naming the field and the limit, and a peak well under 200 MB.

(The library-level versions of each limit are in tests/test_limits.py; tampered imports in
test_import_verified.py; cancellation and SIGTERM in test_long_work.py and test_server_process.py.)
"""

from __future__ import annotations

import gc
import json
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.helpers import duel, gm_headers

from d20combat.server.app import create_app


def _with(**changes: Any) -> dict[str, Any]:
    scenario = duel()
    for key, value in changes.items():
        if key == "map":
            scenario["map"] = {**scenario["map"], **value}
        elif key == "goblin":
            scenario["combatants"][1] = {**scenario["combatants"][1], **value}
        else:
            scenario[key] = value
    return scenario


def _many(n: int) -> dict[str, Any]:
    side = [{"id": f"c{i}", "side": "heroes" if i % 2 else "goblins", "stats": "goblin",
             "position": [i % 200, i // 200]} for i in range(n)]
    return {"name": "crowd", "map": {"width": 200, "height": 200}, "combatants": side}


def _rect(corner: int) -> dict[str, Any]:
    return _with(map={"walls": [{"from": [0, 0], "to": [corner, corner]}]})


INLINE_HUGE_DICE = {"name": "brute", "hp": 10, "attacks": [{"weapon": {"name": "maul", "damage": "1000d1000"}}]}

CASES: list[tuple[str, Callable[[], dict[str, Any]], int, str]] = [
    ("wall rectangle to (1000, 1000) on 10x8", lambda: {"scenario": _rect(1000)}, 422, "leaves the 10×8 map"),
    ("wall rectangle to (3000, 3000) on 10x8", lambda: {"scenario": _rect(3000)}, 422, "leaves the 10×8 map"),
    ("1000 rows of 1000 squares", lambda: {"scenario": _with(map={"width": None, "height": None,
                                                                  "rows": ["." * 1000] * 1000})}, 422, "200"),
    ("100000 rows of 1 square", lambda: {"scenario": _with(map={"width": None, "height": None,
                                                                "rows": ["."] * 100_000})}, 422, "200"),
    ("40,000 combatants", lambda: {"scenario": _many(40_000)}, 422, "combatants"),
    ("a 20 MB description", lambda: {"scenario": _with(description="x" * 20_000_000)}, 413, "over the limit"),
    ("a 5 MB name", lambda: {"scenario": _with(name="x" * 5_000_000)}, 413, "over the limit"),
    ("a 3 MB description (under the body limit)", lambda: {"scenario": _with(description="x" * 3_000_000)}, 422,
     "description"),
    ("an inline weapon of 1000d1000", lambda: {"scenario": _with(goblin={"stats": INLINE_HUGE_DICE})}, 422,
     "1000"),
    ("hp -5", lambda: {"scenario": _with(goblin={"hp": -5})}, 422, "starts_down"),
    ("hp 0", lambda: {"scenario": _with(goblin={"hp": 0})}, 422, "starts_down"),
    ("ragged rows", lambda: {"scenario": _with(map={"width": None, "height": None,
                                                    "rows": ["....", "...", "...."]})}, 422, "rows[1]"),
    ("unknown equipment", lambda: {"scenario": _with(goblin={"stats": {"hp": 5, "armor": "chainshirt",
                                                                       "attacks": [{"weapon": "longsowrd"}]}})},
     422, "did you mean 'longsword'"),
    ("a panicked condition with no such source", lambda: {"scenario": _with(goblin={
        "conditions": ["panicked:nobody:abc"]})}, 422, "nobody"),
]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    app = create_app(Path(tmp_path_factory.mktemp("repro")) / "t.db")
    with TestClient(app, headers=gm_headers(app)) as c:
        yield c
    app.state.store.close()


@pytest.mark.parametrize(("what", "body", "status", "needle"), CASES, ids=[c[0] for c in CASES])
def test_each_reproduction_is_refused_fast_small_and_named(client: TestClient, what: str,
                                                           body: Callable[[], dict[str, Any]], status: int,
                                                           needle: str) -> None:
    payload = body()
    encoded = json.dumps(payload).encode()  # as the tester's client sent it: encoding it is not the server's work
    gc.collect()  # nor is collecting the garbage of the tests before this one (a full collection walks it all)
    start = time.process_time()
    answer = client.post("/api/encounters", content=encoded, headers={"content-type": "application/json"})
    cpu = time.process_time() - start
    assert answer.status_code == status, answer.text[:500]
    assert needle in answer.json()["detail"], answer.json()["detail"][:500]
    assert len(answer.content) < 10_000, f"{len(answer.content):,} bytes of error"
    assert cpu < 1.0, f"{what}: {cpu:.2f} CPU s"
    tracemalloc.start()
    try:
        client.post("/api/encounters", json=payload)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 200 * 2**20, f"{what}: {peak / 2**20:.0f} MiB"


def test_the_readme_sized_honest_scenario_still_plays(client: TestClient) -> None:
    """The limits refuse the hostile, not the ordinary: the duel is created and answers its state fast."""
    made = client.post("/api/encounters", json={"scenario": duel(), "seed": 1})
    assert made.status_code == 201
    start = time.process_time()
    assert client.get(f"/api/encounters/{made.json()['id']}/state").status_code == 200
    assert time.process_time() - start < 0.5
