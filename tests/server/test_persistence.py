"""Everything survives a restart: a new app on the same SQLite file rebuilds each encounter from its
stored events — state, log, version, undo/redo history, an open reaction prompt, and the dice."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.helpers import act, create, duel, gm_headers
from typer.testing import CliRunner

from d20combat.server.store import Store


def _snapshot(client: TestClient, eid: str) -> dict[str, Any]:
    return {"summary": client.get(f"/api/encounters/{eid}").json(),
            "gm": client.get(f"/api/encounters/{eid}/state").json(),
            "player": client.get(f"/api/encounters/{eid}/state?view=player").json(),
            "decision": client.get(f"/api/encounters/{eid}/decision").json(),
            "log": client.get(f"/api/encounters/{eid}/log").json(),
            "export": client.get(f"/api/encounters/{eid}/export").json()}


def test_a_restart_gives_the_same_state_log_and_history(client_factory: Callable[[], TestClient]) -> None:
    first = client_factory()
    eid = create(first, example="goblin-ambush", seed=2)["id"]
    version = 1
    for _ in range(6):  # a few turns: whatever is legal first, then the end of the turn
        d = first.get(f"/api/encounters/{eid}/decision").json()
        option = next((o for o in d["options"] if o["kind"] in ("attack", "move")), {"kind": "end_turn"})
        version = act(first, eid, option, version).json()["version"]
        version = act(first, eid, {"kind": "end_turn"}, version).json()["version"]
    version = first.post(f"/api/encounters/{eid}/undo", json={"expected_version": version}).json()["version"]
    before = _snapshot(first, eid)

    second = client_factory()
    assert _snapshot(second, eid) == before
    assert [e["id"] for e in second.get("/api/encounters").json()] == [eid]
    # The undone step is still there to redo.
    r = second.post(f"/api/encounters/{eid}/redo", json={"expected_version": version})
    assert r.status_code == 200 and r.json()["version"] == version + 1


def test_an_open_reaction_prompt_survives_a_restart(client_factory: Callable[[], TestClient]) -> None:
    first = client_factory()
    eid = create(first, duel("off-guard"), seed=3)["id"]
    prompt = act(first, eid, {"kind": "move", "to": [0, 2]}, 1).json()["pending"]
    second = client_factory()
    assert second.get(f"/api/encounters/{eid}/decision").json()["prompt"] == prompt
    r = second.post(f"/api/encounters/{eid}/reactions", json={"answer": "decline", "expected_version": 2})
    assert r.status_code == 200, r.text
    assert next(c for c in r.json()["state"]["combatants"] if c["id"] == "valeros")["position"] == [0, 2]


def test_the_dice_go_on_as_if_there_had_been_no_restart(tmp_path: Path,
                                                        client_factory: Callable[[], TestClient]) -> None:
    """Two encounters with one seed and the same decisions roll the same, restart or not."""
    from d20combat.server.app import create_app

    plan: list[dict[str, Any]] = [{"kind": "attack", "target": "goblin"}, {"kind": "end_turn"},
                                  {"kind": "end_turn"}, {"kind": "attack", "target": "goblin"}]
    app = create_app(tmp_path / "straight.db")
    with TestClient(app, headers=gm_headers(app)) as straight:
        sid = create(straight, duel(), seed=11)["id"]
        expected = [act(straight, sid, a, n).json()["events"] for n, a in enumerate(plan, 1)]
    got = []
    eid = create(client_factory(), duel(), seed=11)["id"]
    for n, a in enumerate(plan, 1):
        got.append(act(client_factory(), eid, a, n).json()["events"])  # a fresh app for every step
    assert got == expected


def test_the_store_keeps_batches_and_uses_wal(db: Path, client: TestClient) -> None:
    eid = create(client, duel())["id"]
    act(client, eid, {"kind": "move", "to": [2, 5]}, 1)
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        rows = raw.execute("SELECT seq FROM batches WHERE encounter_id = ? ORDER BY seq", (eid,)).fetchall()
    assert [r[0] for r in rows] == [0, 1]
    store = Store(db)
    row = store.get(eid)
    assert row is not None and row.version == 2 and row.head == 2 and row.pending is None and row.seed >= 0
    store.close()


def test_serve_creates_the_demo_encounter_in_an_empty_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    import d20combat.server.run
    from d20combat.cli import app

    served: list[Any] = []
    monkeypatch.setattr(d20combat.server.run, "serve", lambda web, **kw: served.append((web, kw)))
    db = tmp_path / "demo.db"
    runner = CliRunner()
    result = runner.invoke(app, ["serve", "--db", str(db), "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert "demo encounter: Goblin ambush at the ruined chapel" in result.output
    assert served and served[0][1]["port"] == 8123 and served[0][1]["host"] == "127.0.0.1"
    result = runner.invoke(app, ["serve", "--db", str(db)])  # not empty any more: no second demo
    assert "demo encounter" not in result.output
    result = runner.invoke(app, ["serve", "--db", str(tmp_path / "empty.db"), "--no-demo"])
    assert "demo encounter" not in result.output
    store = Store(db)
    assert store.count() == 1
    store.close()
    store = Store(tmp_path / "empty.db")
    assert store.count() == 0
    store.close()


@pytest.mark.parametrize("example", ["goblin-ambush", "off-guard-ambush", "skill-duel"])
def test_a_whole_battle_played_through_the_api_with_restarts(client_factory: Callable[[], TestClient],
                                                             example: str) -> None:
    """The tactical AI picks every action and answer; they go through HTTP; the app restarts every 25 writes."""
    from d20combat.controllers import TacticalAI

    ai = TacticalAI()
    client = client_factory()
    eid = create(client, example=example, seed=4)["id"]
    version, prompts = 1, 0
    for n in range(600):
        if n and n % 25 == 0:
            client = client_factory()
        enc = client.app.state.service._get(eid).enc  # type: ignore[attr-defined]
        if enc.state.ended:
            break
        if enc.pending is not None:
            prompts += 1
            answer = ai.react(enc, enc.pending.prompt)
            r = client.post(f"/api/encounters/{eid}/reactions", json={"answer": answer, "expected_version": version})
        else:
            r = act(client, eid, ai.choose(enc).to_dict(), version)
        assert r.status_code == 200, r.text
        version = r.json()["version"]
    summary = client.get(f"/api/encounters/{eid}").json()
    assert summary["ended"] and summary["winner"] is not None
    assert _snapshot(client_factory(), eid) == _snapshot(client, eid)
    if example != "goblin-ambush":
        assert prompts > 0  # reactions were asked and answered through /reactions
