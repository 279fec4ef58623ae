"""The HTTP API plays Epic Path: an epic-path encounter is created (from the showcase example or a scenario), its
decision offers Epic Path's own actions, an action point, fighting defensively and an attack go through
``/actions`` with typed dice, the AI plays a turn, and ``/api/simulations`` plays the Epic Path examples on the
reference engine, naming the components the fast path lacks."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from tests.server.helpers import act, create, duel


def _texts(result: dict[str, Any]) -> str:
    return "\n".join(e["text"] for e in result["events"])


def test_an_epic_path_example_is_created_with_its_ambush(client: TestClient) -> None:
    """EP-SURP-03: the showcase example starts over HTTP with the same ambush check the command line rolls at the
    same seed, and a surprise round."""
    summary = create(client, example="epic-path-ambush", seed=1)
    assert summary["ruleset"] == "epic-path"
    log = client.get(f"/api/encounters/{summary['id']}/log").json()
    surprise = next(entry for entry in log if entry["kind"] == "surprise_determined")
    assert "ambush check" in surprise["text"] and "a surprise round (EP-SURP-03)" in surprise["text"]
    assert any(entry["kind"] == "round_started" and "surprise" in entry["text"] for entry in log)


def test_epic_path_actions_through_the_api(client: TestClient) -> None:
    """EP-DEF-02, EP-DEF-03, EP-MISC-22: Valeros's decision offers fighting defensively, total defense and the
    action point; he fights defensively (−4 to attack, +2 dodge), attacks with typed dice (d20 17: 17 + BAB 1 +
    Str 3 + Weapon Focus 1 − 4 = 18), then spends his action point; an illegal second point is a 422 naming the
    problem and changes nothing."""
    scenario = duel("epic-path")
    scenario["combatants"][1]["stats"] = {"name": "goblin", "hp": 40, "attacks": [{"weapon": "club"}]}
    eid = create(client, scenario)["id"]
    decision = client.get(f"/api/encounters/{eid}/decision").json()
    kinds = {o["kind"] for o in decision["options"]}
    assert {"fight_defensively", "total_defense", "attack", "end_turn"} <= kinds
    r = act(client, eid, {"kind": "fight_defensively"}, decision["version"])
    assert r.status_code == 200, r.text
    assert "−4 on all attacks (EP-DEF-02), +2 dodge (EP-DEF-03)" in _texts(r.json())
    r = act(client, eid, {"kind": "attack", "target": "goblin"}, r.json()["version"], ["d20=17", "d8=5"])
    assert r.status_code == 200, r.text
    assert "18 = d20 17 + BAB 1 + Str 3 + Weapon Focus 1 − fighting defensively 4" in _texts(r.json())
    r = act(client, eid, {"kind": "action_point"}, r.json()["version"])
    assert r.status_code == 200, r.text
    assert "spends an action point" in _texts(r.json())
    version = r.json()["version"]
    again = act(client, eid, {"kind": "action_point"}, version)
    assert again.status_code == 422 and "action point" in again.text
    assert client.get(f"/api/encounters/{eid}").json()["version"] == version


def test_the_ai_plays_an_epic_path_turn(client: TestClient) -> None:
    """The tactical AI plays Epic Path through ``/ai``: the showcase's first creature takes its turn."""
    summary = create(client, example="epic-path-ambush", seed=1)
    eid = summary["id"]
    r = client.post(f"/api/encounters/{eid}/ai", json={"expected_version": summary["version"], "until": "turn"})
    assert r.status_code == 200, r.text
    assert r.json()["version"] > summary["version"] and r.json()["events"]


def test_simulations_play_epic_path_on_the_reference_engine(client: TestClient) -> None:
    """``POST /api/simulations`` plays an Epic Path example on the reference engine (same seed, same numbers) and
    says which components the fast path lacks; asking for the fast path is a 422 naming them."""
    r = client.post("/api/simulations", json={"example": "epic-path-splash", "n": 3, "seed": 2})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["engine"] == "reference" and body["n"] == 3
    assert "EpTactics" in body["engine_reason"] and "EpInitiative" in body["engine_reason"]
    assert sum(s["wins"] for s in body["sides"]) + body["draws"] + body["timeouts"] == 3
    again = client.post("/api/simulations", json={"example": "epic-path-splash", "n": 3, "seed": 2}).json()
    assert again == body
    refused = client.post("/api/simulations", json={"example": "epic-path-splash", "n": 3, "engine": "fast"})
    assert refused.status_code == 422 and "EpInitiative" in refused.json()["detail"]
