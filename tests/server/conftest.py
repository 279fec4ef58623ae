"""Builders for the server tests: an app on a temporary SQLite file, small inline scenarios."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.server.helpers import gm_headers

from d20combat.server.app import create_app


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "table.db"


@pytest.fixture
def client_factory(db: Path) -> Iterator[Callable[[], TestClient]]:
    """A new app (a fresh process, as far as the server knows) on the same database file."""
    opened: list[TestClient] = []

    def make() -> TestClient:
        app = create_app(db)
        client = TestClient(app, headers=gm_headers(app))
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for client in opened:
        client.__exit__(None, None, None)
        client.app.state.store.close()  # type: ignore[attr-defined]


@pytest.fixture
def client(client_factory: Callable[[], TestClient]) -> TestClient:
    """The game master: every request carries the key."""
    return client_factory()


@pytest.fixture
def anon(client: TestClient) -> TestClient:
    """Anyone else (a player): the same app, no key."""
    return TestClient(client.app)
