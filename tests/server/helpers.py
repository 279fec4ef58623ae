"""Small inline scenarios and request shortcuts for the server tests."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient


def gm_headers(app: FastAPI) -> dict[str, str]:
    """The game master's key as an Authorization header."""
    return {"Authorization": f"Bearer {app.state.token}"}


def duel(ruleset: str = "pathfinder-beginner", **extra: Any) -> dict[str, Any]:
    """A fighter next to a goblin, the fighter first (fixed initiative), nobody surprised."""
    return {
        "name": "duel", "ruleset": ruleset, "map": {"width": 10, "height": 8},
        "combatants": [
            {"id": "valeros", "name": "Valeros", "side": "heroes", "stats": "fighter", "position": [2, 2],
             "initiative": 20},
            {"id": "goblin", "side": "goblins", "stats": "goblin", "position": [3, 2], "initiative": 5},
            *extra.pop("more", []),
        ],
        "surprise": {"surprised": []},
        **extra,
    }


def create(client: TestClient, scenario: dict[str, Any] | None = None, **body: Any) -> dict[str, Any]:
    if scenario is not None:
        body["scenario"] = scenario
    r = client.post("/api/encounters", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def act(client: TestClient, eid: str, action: dict[str, Any], version: int, dice: list[str] | None = None
        ) -> Any:
    return client.post(f"/api/encounters/{eid}/actions",
                       json={"action": action, "dice": dice or [], "expected_version": version})
