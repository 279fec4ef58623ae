"""Long work is bounded, cancellable and fair: simulations play in worker processes within a time budget,
stop within two seconds of a cancel, never hold up the table; one encounter's rebuild never stalls another;
request bodies are bounded. (The real server — disconnects, SIGTERM — is in test_server_process.py.)"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.helpers import create, gm_headers

from d20combat.controllers import TacticalAI
from d20combat.limits import MAX_REQUEST_BYTES
from d20combat.server import jobs
from d20combat.server import service as service_module
from d20combat.server.app import create_app
from d20combat.server.inputs import read_example
from d20combat.server.jobs import Lab
from d20combat.server.service import Service
from d20combat.server.simulations import MAX_N
from d20combat.server.store import Store
from d20combat.simulation.runner import simulate_outcomes


def stalemate(max_rounds: int = 10_000) -> dict[str, Any]:
    """Two fighters walled apart: every encounter plays to max_rounds (about 0.13 s each on the fast path)."""
    return {"name": "walled apart", "map": {"width": 10, "height": 5, "walls": [[5, r] for r in range(5)]},
            "combatants": [{"id": "a", "side": "x", "stats": "fighter", "position": [1, 2]},
                           {"id": "b", "side": "y", "stats": "fighter", "position": [8, 2]}],
            "max_rounds": max_rounds}


def wait_for(check: Callable[[], Any], timeout: float, what: str) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        out = check()
        if out:
            return out
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {timeout} s")


@pytest.fixture(scope="module")
def lab_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One worker, so that "the worker is free again" is something a small simulation can show."""
    app = create_app(tmp_path_factory.mktemp("lab") / "table.db", lab=Lab(workers=1))
    with TestClient(app, headers=gm_headers(app)) as client:
        yield client
    app.state.store.close()


def start_job(client: TestClient, body: dict[str, Any]) -> str:
    r = client.post("/api/simulations/jobs", json=body)
    assert r.status_code == 202, r.text
    jid: str = r.json()["id"]
    return jid


def job(client: TestClient, jid: str) -> dict[str, Any]:
    r = client.get(f"/api/simulations/jobs/{jid}")
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def small_simulation_seconds(client: TestClient) -> float:
    t = time.perf_counter()
    r = client.post("/api/simulations", json={"example": "ogre-charge", "n": 40, "seed": 3})
    assert r.status_code == 200 and r.json()["n"] == 40 and r.json()["stopped"] is None, r.text
    return time.perf_counter() - t


def test_a_job_shows_its_progress_and_stops_within_two_seconds_of_a_delete(lab_client: TestClient) -> None:
    jid = start_job(lab_client, {"scenario": stalemate(), "n": 100_000})  # hours, if nothing stopped it
    running = wait_for(lambda: (j := job(lab_client, jid))["played"] >= 3 and j, 60, "three encounters played")
    assert running["status"] == "running" and running["n"] == 100_000 and running["result"] is None
    t = time.perf_counter()
    r = lab_client.delete(f"/api/simulations/jobs/{jid}")
    stopped_in = time.perf_counter() - t
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["status"] == "cancelled" and stopped_in < 2.0, (body, stopped_in)
    assert "DELETE" in body["detail"]
    result = body["result"]  # what it finished is kept
    assert result["stopped"] == "cancelled" and result["n"] == body["played"] >= 3
    assert result["n_requested"] == 100_000 and result["timeouts"] == result["n"]
    assert small_simulation_seconds(lab_client) < 2.0  # the (only) worker is free again
    assert job(lab_client, jid)["status"] == "cancelled"
    assert lab_client.delete(f"/api/simulations/jobs/{jid}").json()["status"] == "cancelled"
    missing = lab_client.get("/api/simulations/jobs/nope")
    assert missing.status_code == 404 and "no simulation job" in missing.json()["detail"]


def test_the_table_never_waits_behind_a_simulation(lab_client: TestClient) -> None:
    eid = create(lab_client, example="goblin-ambush", seed=1)["id"]
    jid = start_job(lab_client, {"scenario": stalemate(), "n": 100_000})
    wait_for(lambda: job(lab_client, jid)["played"] >= 1, 60, "the simulation running")
    latencies = []
    for _ in range(20):
        t = time.perf_counter()
        assert lab_client.get(f"/api/encounters/{eid}/state").status_code == 200
        latencies.append(time.perf_counter() - t)
    assert job(lab_client, jid)["status"] == "running"
    assert max(latencies) < 0.5, latencies
    assert lab_client.delete(f"/api/simulations/jobs/{jid}").json()["status"] == "cancelled"


def test_over_its_time_budget_a_simulation_answers_with_the_encounters_it_finished(
        lab_client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    lab = lab_client.app.state.service.lab  # type: ignore[attr-defined]
    small_simulation_seconds(lab_client)  # the worker started
    monkeypatch.setattr(lab, "budget", 2.0)
    t = time.perf_counter()
    r = lab_client.post("/api/simulations", json={"scenario": stalemate(), "n": 100_000, "seed": 5})
    took = time.perf_counter() - t
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["stopped"] == "time budget" and 1 <= body["n"] < 100_000 and body["n_requested"] == 100_000
    assert sum(s["wins"] for s in body["sides"]) + body["draws"] + body["timeouts"] == body["n"]
    assert took < 2.0 + 2.0, took
    # One reference encounter of 10,000 rounds (about 7 s) is stopped between actions: nothing finished.
    t = time.perf_counter()
    r = lab_client.post("/api/simulations", json={"scenario": stalemate(), "n": 1, "engine": "reference"})
    took = time.perf_counter() - t
    assert r.status_code == 422 and "not one encounter finished within the time budget of 2 s" in r.json()["detail"]
    assert took < 2.0 + 2.0, took
    monkeypatch.undo()
    assert small_simulation_seconds(lab_client) < 2.0


def test_simulations_waiting_for_a_worker_are_bounded(lab_client: TestClient) -> None:
    ids = [start_job(lab_client, {"scenario": stalemate(), "n": 100_000}) for _ in range(1 + jobs.MAX_WAITING)]
    wait_for(lambda: job(lab_client, ids[0])["status"] == "running", 60, "the first job running")
    assert {job(lab_client, jid)["status"] for jid in ids[1:]} == {"queued"}
    busy = lab_client.post("/api/simulations", json={"scenario": stalemate(), "n": 10})
    assert busy.status_code == 503 and "waiting for a worker" in busy.json()["detail"]
    t = time.perf_counter()
    for jid in reversed(ids):
        assert lab_client.delete(f"/api/simulations/jobs/{jid}").json()["status"] == "cancelled"
    assert time.perf_counter() - t < 4.0
    assert small_simulation_seconds(lab_client) < 2.0


def test_n_is_bounded_in_the_schema(lab_client: TestClient) -> None:
    schema = lab_client.get("/openapi.json").json()["components"]["schemas"]["SimulateIn"]["properties"]["n"]
    assert schema["maximum"] == MAX_N and schema["minimum"] == 1 and "2,000" in schema["description"]
    r = lab_client.post("/api/simulations/jobs", json={"example": "ogre-charge", "n": MAX_N + 1})
    assert r.status_code == 422 and r.json()["detail"].startswith("body.n: ")
    r = lab_client.post("/api/simulations/jobs", json={"example": "epic-path-splash", "n": 5000})
    assert r.status_code == 422 and "at most 2000" in r.json()["detail"]


def test_a_halted_run_gives_the_first_encounters_of_the_full_run() -> None:
    scenario = read_example("ogre-charge")
    full = simulate_outcomes(scenario, 12, seed=3)
    for engine in ("fast", "reference"):
        asked = 0

        def halt() -> bool:
            nonlocal asked
            asked += 1
            return asked > 5

        if engine == "fast":  # asked once per encounter on the fast path
            assert simulate_outcomes(scenario, 12, seed=3, engine=engine, halt=halt) == full[:5]
        else:  # and between actions on the reference engine: the encounter it stops in counts for nothing
            assert simulate_outcomes(scenario, 12, seed=3, engine=engine, halt=halt) == []
    assert simulate_outcomes(scenario, 12, seed=3, engine="reference", halt=lambda: False) == full


def test_rebuilding_one_encounter_does_not_stall_another(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(tmp_path / "table.db")
    first = Service(store)
    slow, quick = first.create(example="goblin-ambush", seed=1)["id"], first.create(example="ogre-charge")["id"]
    service = Service(store)  # a restart: both must be rebuilt from the store
    real = service_module.rebuild
    rebuilt: list[str] = []

    def rebuild(row: Any, *args: Any, **kwargs: Any) -> Any:
        rebuilt.append(row.id)
        if row.id == slow:
            time.sleep(2.0)  # a huge encounter
        return real(row, *args, **kwargs)

    monkeypatch.setattr(service_module, "rebuild", rebuild)
    seen: list[Any] = []
    readers = [threading.Thread(target=lambda: seen.append(service._get(slow))) for _ in range(2)]
    for reader in readers:
        reader.start()
    wait_for(lambda: rebuilt, 5, "the slow rebuild started")
    t = time.perf_counter()
    assert service.state(quick)["name"]
    assert time.perf_counter() - t < 0.5
    for reader in readers:
        reader.join()
    assert rebuilt.count(slow) == 1 and seen[0] is seen[1]  # the second reader waited for the first's rebuild
    with pytest.raises(service_module.NotFound):
        service.state("nope")
    assert not service._loading
    store.close()


def test_a_body_over_the_limit_is_refused_with_413(client: TestClient) -> None:
    big = b"{" + b" " * MAX_REQUEST_BYTES + b"}"
    r = client.post("/api/encounters/import", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert r.json() == {"detail": f"body: {len(big)} bytes is over the limit of {MAX_REQUEST_BYTES}"}

    def chunks(total: int) -> Iterator[bytes]:  # no Content-Length: counted as it streams in
        yield b'{"example": "goblin-ambush"'
        for _ in range(total // 65_536):
            yield b" " * 65_536
        yield b"}"

    r = client.post("/api/encounters", content=chunks(MAX_REQUEST_BYTES + 65_536),
                    headers={"content-type": "application/json"})
    assert r.status_code == 413, r.text
    assert r.json()["detail"].startswith("body: ") and f"over the limit of {MAX_REQUEST_BYTES}" in r.json()["detail"]
    r = client.post("/api/encounters", content=chunks(65_536 * 2), headers={"content-type": "application/json"})
    assert r.status_code == 201, r.text  # a streamed body under the limit is read as usual
    assert client.post("/", content=big).status_code == 413


def test_the_import_of_a_long_battle_fits_under_the_body_limit(client: TestClient) -> None:
    """Twelve creatures fighting across a wall for 50 rounds: every write of a long evening."""
    scenario = {**stalemate(50), "combatants": [
        {"id": f"{side}{i}", "side": side, "stats": stats,
         "position": [1 + i // 5 if side == "x" else 8 - i // 5, i % 5]}
        for side, stats in (("x", "fighter"), ("y", "goblin")) for i in range(6)]}
    service = client.app.state.service  # type: ignore[attr-defined]
    eid = create(client, scenario, seed=2)["id"]
    ai = TacticalAI()
    while not (live := service._get(eid)).enc.state.ended:
        enc = live.enc
        if enc.pending is not None:
            service.respond(eid, ai.react(enc, enc.pending.prompt), [], live.version)
        else:
            service.act(eid, ai.choose(enc).to_dict(), [], live.version)
    exported = client.get(f"/api/encounters/{eid}/export")
    assert service._get(eid).enc.state.round == 50
    assert len(exported.content) < MAX_REQUEST_BYTES / 10, len(exported.content)
    r = client.post("/api/encounters/import", content=exported.content, headers={"content-type": "application/json"})
    assert r.status_code == 201, r.text
