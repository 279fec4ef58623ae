"""The real server (``python -m d20combat.server.run``, uvicorn): a simulation whose client goes away stops;
SIGTERM stops the server within five seconds even while a simulation runs; a chunked body over the limit
is refused as it streams in."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest
from tests.server.test_long_work import stalemate

from d20combat.limits import MAX_REQUEST_BYTES

KEY = "the-test-servers-gm-key"
AUTH = {"Authorization": f"Bearer {KEY}"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Served:
    def __init__(self, db: Path) -> None:
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "d20combat.server.run", "--db", str(db), "--port", str(port), "--workers", "1",
             "--log-level", "warning", "--token", KEY], env={**os.environ, "PYTHONUNBUFFERED": "1"})
        end = time.monotonic() + 60
        while True:
            assert self.process.poll() is None, "the server exited"
            try:
                if httpx.get(f"{self.url}/api/examples", timeout=1, headers=AUTH).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < end, "the server did not start"
            time.sleep(0.1)

    def post(self, path: str, body: dict[str, Any], timeout: float = 60) -> httpx.Response:
        return httpx.post(self.url + path, json=body, timeout=timeout, headers=AUTH)

    def small_simulation_seconds(self) -> float:
        t = time.perf_counter()
        r = self.post("/api/simulations", {"example": "ogre-charge", "n": 40})
        assert r.status_code == 200 and r.json()["n"] == 40, r.text
        return time.perf_counter() - t

    def workers(self) -> list[psutil.Process]:
        """The simulation workers (not multiprocessing's resource tracker)."""
        return [p for p in psutil.Process(self.process.pid).children(recursive=True)
                if p.is_running() and "spawn_main" in " ".join(p.cmdline())]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    server = Served(tmp_path / "table.db")
    yield server
    if server.process.poll() is None:
        server.process.kill()
        server.process.wait(10)


def test_a_simulation_stops_when_its_client_goes_away(served: Served) -> None:
    served.small_simulation_seconds()  # the (only) worker started
    with pytest.raises(httpx.ReadTimeout):  # the client gives up on a simulation of hours
        served.post("/api/simulations", {"scenario": stalemate(), "n": 100_000}, timeout=1.5)
    gone = time.perf_counter()
    served.small_simulation_seconds()  # had it gone on, this would wait behind it
    assert time.perf_counter() - gone < 2.0
    worker = served.workers()
    assert len(worker) == 1 and worker[0].cpu_percent(0.5) < 50  # idle again


def test_sigterm_stops_the_server_within_five_seconds_even_during_a_simulation(served: Served) -> None:
    served.small_simulation_seconds()
    answers: list[Any] = []

    def long_request() -> None:
        try:
            answers.append(served.post("/api/simulations", {"scenario": stalemate(), "n": 100_000}))
        except httpx.HTTPError as exc:
            answers.append(exc)

    threading.Thread(target=long_request, daemon=True).start()
    time.sleep(1.0)
    workers = served.workers()
    assert workers
    # The simulation is playing: the worker keeps spending CPU (counted in CPU seconds, not a share of a busy box).
    start = sum(workers[0].cpu_times()[:2])
    deadline = time.monotonic() + 20
    while sum(workers[0].cpu_times()[:2]) - start < 0.2:
        assert time.monotonic() < deadline, "the simulation worker spent no CPU"
        time.sleep(0.1)
    t = time.perf_counter()
    served.process.send_signal(signal.SIGTERM)
    served.process.wait(5.0)  # raises TimeoutExpired if it takes longer
    assert time.perf_counter() - t < 5.0
    assert not any(w.is_running() and w.status() != psutil.STATUS_ZOMBIE for w in workers)


def test_a_chunked_body_over_the_limit_is_refused_as_it_streams_in(served: Served) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"example": "goblin-ambush"'
        for _ in range(MAX_REQUEST_BYTES // 65_536 + 2):
            yield b" " * 65_536
        yield b"}"

    r = httpx.post(served.url + "/api/encounters", content=chunks(),
                   headers={"content-type": "application/json", **AUTH}, timeout=30)
    assert r.status_code == 413 and f"over the limit of {MAX_REQUEST_BYTES}" in r.json()["detail"]
    declared = httpx.post(served.url + "/api/encounters/import", content=b" " * (MAX_REQUEST_BYTES + 1),
                          headers={"content-type": "application/json", **AUTH}, timeout=30)
    assert declared.status_code == 413
    assert declared.json()["detail"] == f"body: {MAX_REQUEST_BYTES + 1} bytes is over the limit of {MAX_REQUEST_BYTES}"
    assert httpx.get(served.url + "/api/examples", headers=AUTH).status_code == 200  # the server is fine
