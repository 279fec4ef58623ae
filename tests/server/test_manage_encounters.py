"""Issue 13, item 2: the GM renames, exports, imports and deletes encounters (API; the index page uses these)."""

from __future__ import annotations

from fastapi.testclient import TestClient
from tests.server.helpers import create, duel


def test_rename_needs_the_current_version_and_a_name(client: TestClient) -> None:
    made = create(client, duel(), seed=1)
    eid = made["id"]
    r = client.patch(f"/api/encounters/{eid}", json={"name": "Bridge fight", "expected_version": made["version"]})
    assert r.status_code == 200 and r.json()["name"] == "Bridge fight" and r.json()["version"] == made["version"] + 1
    stale = client.patch(f"/api/encounters/{eid}", json={"name": "x", "expected_version": made["version"]})
    assert stale.status_code == 409
    empty = client.patch(f"/api/encounters/{eid}", json={"name": "  ", "expected_version": r.json()["version"]})
    assert empty.status_code == 422
    assert client.get(f"/api/encounters/{eid}").json()["name"] == "Bridge fight"


def test_delete_forgets_the_encounter_and_survives_a_restart(client_factory: object, client: TestClient) -> None:
    keep = create(client, duel(), seed=1)["id"]
    gone = create(client, duel(), seed=2)["id"]
    assert client.delete(f"/api/encounters/{gone}").status_code == 204
    assert client.get(f"/api/encounters/{gone}").status_code == 404
    assert client.delete(f"/api/encounters/{gone}").status_code == 404
    assert [s["id"] for s in client.get("/api/encounters").json()] == [keep]
    fresh = client_factory()  # type: ignore[operator]
    assert [s["id"] for s in fresh.get("/api/encounters").json()] == [keep]


def test_players_cannot_rename_or_delete(client: TestClient, anon: TestClient) -> None:
    made = create(client, duel(), seed=1)
    eid = made["id"]
    assert anon.delete(f"/api/encounters/{eid}").status_code == 401
    assert anon.patch(f"/api/encounters/{eid}", json={"name": "x", "expected_version": 1}).status_code == 401
    assert client.get(f"/api/encounters/{eid}").status_code == 200
