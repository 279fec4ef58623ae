"""Issue 13, item 2: the GM lets the AI take a monster's turn (one click) or play until the players' side acts."""

from __future__ import annotations

from fastapi.testclient import TestClient
from tests.server.helpers import create


def _summary(client: TestClient, eid: str) -> dict[str, object]:
    out: dict[str, object] = client.get(f"/api/encounters/{eid}").json()
    return out


def test_the_ai_plays_until_the_players_side_is_to_act_and_each_action_undoes_alone(client: TestClient) -> None:
    eid = create(client, example="goblin-ambush", seed=3, players="heroes")["id"]
    state = client.get(f"/api/encounters/{eid}/state").json()
    version = state["version"]
    sides = {c["id"]: c["side"] for c in state["combatants"]}
    if sides[state["active"]] == "heroes":  # a hero starts: the AI plays this one turn first
        r = client.post(f"/api/encounters/{eid}/ai", json={"expected_version": version, "until": "turn"})
        assert r.status_code == 200, r.text
        assert r.json()["state"]["active"] != state["active"] or r.json()["state"]["ended"]
        version = r.json()["version"]
        refused = client.post(f"/api/encounters/{eid}/ai", json={"expected_version": version - 1})
        assert refused.status_code == 409
    state = client.get(f"/api/encounters/{eid}/state").json()
    if state["ended"] or sides[state["active"]] == "heroes":
        return
    r = client.post(f"/api/encounters/{eid}/ai", json={"expected_version": state["version"], "until": "players"})
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["events"], "the AI played something"
    assert after["state"]["ended"] or sides[after["state"]["active"]] == "heroes" or after["pending"] is not None
    writes = after["version"] - state["version"]
    assert writes >= 1
    undone = client.post(f"/api/encounters/{eid}/undo", json={"expected_version": after["version"]})
    assert undone.status_code == 200 and undone.json()["version"] == after["version"] + 1


def test_the_ai_will_not_play_the_players_own_creature_until_the_players(client: TestClient) -> None:
    eid = create(client, example="goblin-ambush", seed=3, players="heroes")["id"]
    state = client.get(f"/api/encounters/{eid}/state").json()
    sides = {c["id"]: c["side"] for c in state["combatants"]}
    r = client.post(f"/api/encounters/{eid}/ai", json={"expected_version": state["version"], "until": "players"})
    if sides[state["active"]] == "heroes":
        assert r.status_code == 422 and "players' side" in r.json()["detail"]
    else:
        assert r.status_code == 200


def test_the_ai_route_needs_the_gm_key(client: TestClient, anon: TestClient) -> None:
    eid = create(client, example="goblin-ambush", seed=3)["id"]
    assert anon.post(f"/api/encounters/{eid}/ai", json={"expected_version": 1}).status_code == 401


def test_the_decision_offers_each_action_in_words(client: TestClient) -> None:
    """Issue 13, item 6: the skill-based reserve reads as words, not 'reserve (count=1, offhand=0)'."""
    eid = create(client, example="skill-duel", seed=1)["id"]
    d = client.get(f"/api/encounters/{eid}/decision").json()
    assert len(d["labels"]) == len(d["options"]) and all("=" not in t for t in d["labels"])
    reserve = [t for o, t in zip(d["options"], d["labels"], strict=True) if o["kind"] == "reserve"]
    assert not reserve or reserve[0].startswith("Hold ")


def test_the_turns_pools_read_as_words_in_each_ruleset(client: TestClient) -> None:
    """Issue 13, item 6: no 'free 999 · declare 1 · twf_switch 1' — off-guard reads major/minor, skill-based
    hides its bookkeeping pools."""
    seen = {}
    for example in ("goblin-ambush", "off-guard-ambush", "skill-duel"):
        eid = create(client, example=example, seed=1)["id"]
        turn = client.get(f"/api/encounters/{eid}/state").json()["turn"]
        seen[example] = turn["pool_labels"]
        assert all("999" not in t and "_" not in t and "declare" not in t for t in turn["pool_labels"])
    assert any("standard" in t for t in seen["goblin-ambush"])
    assert any("major" in t or "minor" in t for t in seen["off-guard-ambush"])
    assert any("complex" in t or "basic" in t for t in seen["skill-duel"])
