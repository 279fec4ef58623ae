"""The declaration phase through the HTTP API (WOA-CYCLE-14): the decision says ``phase: declare`` and offers
``declare`` actions; each is posted like an action; the AI declares and plays; the players see only whom they may."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from tests.server.helpers import act, create

SCENARIO: dict[str, Any] = {
    "ruleset": "worlds-of-adventure", "map": {"width": 10, "height": 10},
    "combatants": [
        {"id": "hero", "side": "heroes", "position": [1, 1],
         "stats": {"name": "hero", "hp": 20, "attack_bonus": 4, "attacks": [{"weapon": "longsword"}]}},
        {"id": "orc", "side": "monsters", "position": [6, 6],
         "stats": {"name": "orc", "hp": 8, "attack_bonus": 2, "attacks": [{"weapon": "club"}]}},
    ],
}


def test_declarations_are_a_decision_posted_like_actions(client: TestClient) -> None:
    eid = create(client, SCENARIO, seed=3)["id"]
    d = client.get(f"/api/encounters/{eid}/decision").json()
    assert d["phase"] == "declare" and d["actor"] == "hero"
    assert {"kind": "declare", "standard": "", "move": "", "full_round": "charge", "target": "orc",
            "after": None} in d["options"]
    assert any(label.startswith("Declare:") for label in d["labels"])
    state = client.get(f"/api/encounters/{eid}/state").json()
    assert state["active"] == "hero" and state["declaring"] == ["hero", "orc"] and state["turn"] is None
    bad = act(client, eid, {"kind": "end_turn"}, d["version"])
    assert bad.status_code == 422 and "declares its round's actions first" in bad.text
    r = act(client, eid, {"kind": "declare", "full_round": "charge", "target": "orc"}, d["version"])
    assert r.status_code == 200, r.text
    assert client.get(f"/api/encounters/{eid}/decision").json()["actor"] == "orc"


def test_the_ai_declares_and_plays_on_the_servers_ai_route(client: TestClient) -> None:
    eid = create(client, SCENARIO, seed=3)["id"]
    version = client.get(f"/api/encounters/{eid}/state").json()["version"]
    r = client.post(f"/api/encounters/{eid}/ai", json={"expected_version": version, "until": "action"})
    assert r.status_code == 200, r.text
    kinds = [e["kind"] for e in r.json()["events"]]
    assert kinds == ["declared"]
