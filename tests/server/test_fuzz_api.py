"""Issue 12, item 6: a hypothesis fuzz of the HTTP API as a game master (or a hostile client) uses it.

A state machine plays real encounters of every ruleset through the API, mixing legal actions with mutated
ones (a field replaced by a huge, negative, wrong-typed or nested value, a kind of another ruleset),
typed dice right and wrong, answers to reaction prompts, undo/redo with fresh and stale versions, and
previews of anything. Whatever it sends:

- the answer is never a 5xx, and never the service's safety net ("could not resolve");
- each request takes bounded CPU time;
- a refused write changes nothing (same version, same state);
- what is accepted keeps the invariants: every creature on the map on a passable square, no two creatures
  that can act sharing a square between actions, hit points within their maximum, the player view
  showing no enemy's hit points;
- and the state served equals the state a fresh server rebuilds from the database.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from tests.server.helpers import duel, gm_headers

from d20combat.server.app import create_app

CPU_BUDGET_S = 1.0
"""CPU seconds one request may take (the server runs in this process: process time counts its threads)."""

SCENARIOS: list[dict[str, Any]] = [
    {"example": "goblin-ambush"},
    {"example": "off-guard-ambush"},
    {"example": "skill-duel"},
    {"scenario": duel("off-guard")},
    {"scenario": duel("skill-based")},
]

HOSTILE_INTS = st.sampled_from([-1, 0, 1, 7, 250, 9999, 2**31, 2**63, -(2**63), 10**30])
HOSTILE_TEXT = st.one_of(st.text(max_size=12), st.sampled_from(["", "a" * 5000, "../../etc", "\x00", "☃" * 50]))
HOSTILE = st.one_of(HOSTILE_INTS, HOSTILE_TEXT, st.none(), st.booleans(),
                    st.floats(allow_nan=False, allow_infinity=False), st.lists(HOSTILE_INTS, max_size=3),
                    st.just([[[[[]]]]]), st.just({"kind": "move"}))
DICE = st.lists(st.one_of(st.builds(lambda f: f"d20={f}", st.integers(-2, 25)),
                          st.builds(lambda s, f: f"d{s}={f}", st.sampled_from([4, 6, 8, 12, 100, 1, 0, 99999]),
                                    st.integers(0, 120)),
                          HOSTILE_TEXT), max_size=4)
FOREIGN_KINDS = ["cast_spell", "feint", "coup_de_grace", "reserve", "total_defense", "nonsense", "", "move"]


class TableFuzz(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(_TMP.mktemp("fuzz"))
        app = create_app(self.dir / "table.db")
        self.client = TestClient(app, headers=gm_headers(app))
        self.client.__enter__()
        self.eid = ""
        self.map: tuple[int, int] = (0, 0)

    # ------------------------------------------------------------------ plumbing
    def call(self, method: str, url: str, **kwargs: Any) -> Any:
        start = time.process_time()
        r = self.client.request(method, url, **kwargs)
        spent = time.process_time() - start
        assert r.status_code < 500, (method, url, kwargs, r.status_code, r.text[:500])
        assert "could not resolve" not in r.text, r.text[:500]
        assert spent < CPU_BUDGET_S, f"{method} {url} took {spent:.2f} CPU s"
        return r

    def state(self, view: str = "gm") -> dict[str, Any]:
        out: dict[str, Any] = self.call("GET", f"/api/encounters/{self.eid}/state", params={"view": view}).json()
        return out

    def version(self) -> int:
        return int(self.state()["version"])

    def write(self, url: str, body: dict[str, Any]) -> Any:
        before = self.state()
        r = self.call("POST", f"/api/encounters/{self.eid}/{url}", json=body)
        event(f"{url} → {r.status_code}")  # pytest --hypothesis-show-statistics shows the mix
        if r.status_code != 200:
            assert r.status_code in (404, 409, 422), r.text
            assert self.state() == before, "a refused write changed the encounter"
        else:
            assert r.json()["version"] == before["version"] + 1
        return r

    # ------------------------------------------------------------------ setup
    @initialize(which=st.sampled_from(SCENARIOS), seed=st.integers(0, 2**20))
    def start(self, which: dict[str, Any], seed: int) -> None:
        r = self.call("POST", "/api/encounters", json={**which, "seed": seed})
        assert r.status_code == 201, r.text
        self.eid = r.json()["id"]
        m = self.state()["map"]
        self.map = (m["width"], m["height"])

    # ------------------------------------------------------------------ rules
    @rule(pick=st.integers(0, 10_000), dice=DICE)
    def legal_action(self, pick: int, dice: list[str]) -> None:
        decision = self.call("GET", f"/api/encounters/{self.eid}/decision").json()
        if not decision["options"]:
            return
        action = decision["options"][pick % len(decision["options"])]
        self.write("actions", {"action": action, "dice": dice, "expected_version": decision["version"]})

    @rule(pick=st.integers(0, 10_000), value=HOSTILE, field_pick=st.integers(0, 100))
    def mutated_action(self, pick: int, value: Any, field_pick: int) -> None:
        decision = self.call("GET", f"/api/encounters/{self.eid}/decision").json()
        options = decision["options"] or [{"kind": "end_turn"}]
        action = dict(options[pick % len(options)])
        fields = sorted(action)
        action[fields[field_pick % len(fields)]] = value
        self.write("actions", {"action": action, "dice": [], "expected_version": decision["version"]})

    @rule(kind=st.sampled_from(FOREIGN_KINDS), aim=HOSTILE, to=HOSTILE)
    def foreign_action(self, kind: str, aim: Any, to: Any) -> None:
        self.write("actions", {"action": {"kind": kind, "target": aim, "to": to}, "dice": [],
                               "expected_version": self.version()})

    @rule(pick=st.integers(0, 10), junk=HOSTILE_TEXT, dice=DICE, honest=st.booleans())
    def answer(self, pick: int, junk: str, dice: list[str], honest: bool) -> None:
        decision = self.call("GET", f"/api/encounters/{self.eid}/decision").json()
        prompt = decision["prompt"]
        answer = prompt["options"][pick % len(prompt["options"])] if prompt and honest else junk
        self.write("reactions", {"answer": answer, "dice": dice, "expected_version": decision["version"]})

    @rule(what=st.sampled_from(["undo", "redo"]), stale=st.booleans())
    def undo_redo(self, what: str, stale: bool) -> None:
        self.write(what, {"expected_version": self.version() - (1 if stale else 0)})

    @rule(who=st.integers(0, 50), junk=HOSTILE_TEXT, to=st.tuples(HOSTILE_INTS, HOSTILE_INTS),
          attack=st.one_of(st.none(), HOSTILE_TEXT))
    def previews(self, who: int, junk: str, to: tuple[int, int], attack: str | None) -> None:
        ids = [c["id"] for c in self.state()["combatants"]] + [junk]
        a, t = ids[who % len(ids)], ids[(who // 3) % len(ids)]
        self.call("GET", f"/api/encounters/{self.eid}/moves", params={"combatant": a})
        self.call("POST", f"/api/encounters/{self.eid}/preview/move", json={"combatant": a, "to": list(to)})
        self.call("POST", f"/api/encounters/{self.eid}/preview/attack",
                  json={"attacker": a, "target": t, "attack": attack})

    @precondition(lambda self: bool(self.eid))
    @rule(since=HOSTILE_INTS)
    def read_log(self, since: int) -> None:
        self.call("GET", f"/api/encounters/{self.eid}/log", params={"since": since})

    # ------------------------------------------------------------------ invariants
    @invariant()
    def the_state_is_possible(self) -> None:
        if not self.eid:
            return
        gm = self.state()
        width, height = self.map
        walls = {tuple(sq) for sq in gm["map"]["walls"]}
        occupied: dict[tuple[int, int], str] = {}
        for c in gm["combatants"]:
            if c["status"] in ("fled",) or c["position"] is None:
                continue
            col, row = c["position"]
            for dc in range(c["size"]):
                for dr in range(c["size"]):
                    sq = (col + dc, row + dr)
                    assert 0 <= sq[0] < width and 0 <= sq[1] < height, f"{c['id']} off the map at {sq}"
                    assert sq not in walls, f"{c['id']} inside a wall at {sq}"
                    able = c["status"] == "ok" and not {"helpless", "unconscious"} & set(c["conditions"])
                    if able and not gm["pending"]:
                        assert sq not in occupied, f"{c['id']} and {occupied[sq]} share {sq}"
                        occupied[sq] = c["id"]
            assert c["hp"] <= c["max_hp"] or "temporary" in " ".join(c["labels"]), c
        players = self.call("GET", f"/api/encounters/{self.eid}").json()["players"]
        for c in self.state("player")["combatants"]:
            if c["side"] != players:
                assert c["hp"] is None and c["max_hp"] is None, f"the player view shows {c['id']}'s hit points"

    def teardown(self) -> None:
        try:
            if self.eid:  # what the server serves is what a restart rebuilds from the database
                served = self.state()
                again = create_app(self.dir / "table.db")
                fresh = TestClient(again, headers=gm_headers(again))
                with fresh:
                    rebuilt = fresh.get(f"/api/encounters/{self.eid}/state").json()
                fresh.app.state.store.close()  # type: ignore[attr-defined]
                assert rebuilt == served
        finally:
            self.client.__exit__(None, None, None)
            self.client.app.state.store.close()  # type: ignore[attr-defined]


_TMP: pytest.TempPathFactory


@pytest.fixture(autouse=True)
def _tmp(tmp_path_factory: pytest.TempPathFactory) -> None:
    global _TMP
    _TMP = tmp_path_factory


TableFuzz.TestCase.settings = settings(max_examples=20, stateful_step_count=30, deadline=None,
                                       suppress_health_check=list(HealthCheck), derandomize=True)
test_table_fuzz = TableFuzz.TestCase
