"""Issue 13, item 2: the game master's writes over HTTP (``POST /api/encounters/{id}/gm``) — evented, undoable,
logged as the GM's, refused as a 422 naming the field with nothing changed, GM-only, and shown to the players only
where they would see it."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient
from tests.server.helpers import create, duel

Json = dict[str, Any]


def gm(client: TestClient, eid: str, edit: Json, version: int, dice: list[str] | None = None) -> Any:
    return client.post(f"/api/encounters/{eid}/gm", json={"edit": edit, "dice": dice or [],
                                                           "expected_version": version})


def _combatant(state: Json, cid: str) -> Json:
    return next(c for c in state["combatants"] if c["id"] == cid)


def test_gm_damage_heal_and_undo_over_http(client: TestClient) -> None:
    made = create(client, duel(), seed=1)
    eid, v = made["id"], made["version"]
    r = gm(client, eid, {"kind": "gm_damage", "target": "goblin", "amount": 2, "why": "trap"}, v)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["events"][0]["kind"] == "gm_edited" and "GM: 2 damage to goblin (trap)" in out["events"][0]["text"]
    hp = _combatant(out["state"], "goblin")["hp"]
    out = gm(client, eid, {"kind": "gm_heal", "target": "goblin", "amount": 1}, out["version"]).json()
    assert _combatant(out["state"], "goblin")["hp"] == hp + 1
    undone = client.post(f"/api/encounters/{eid}/undo", json={"expected_version": out["version"]}).json()
    assert _combatant(undone["state"], "goblin")["hp"] == hp
    log = client.get(f"/api/encounters/{eid}/log").json()
    assert any(e["kind"] == "gm_edited" for e in log)


def test_gm_refusals_name_the_field_and_change_nothing(client: TestClient) -> None:
    made = create(client, duel(), seed=1)
    eid, v = made["id"], made["version"]
    cases = [
        ({"kind": "gm_damage", "target": "nobody", "amount": 2}, "no combatant 'nobody'"),
        ({"kind": "gm_damage", "target": "goblin", "amount": 0}, "gm_damage.amount"),
        ({"kind": "gm_set_hp", "target": "goblin", "hp": 999}, "maximum"),
        ({"kind": "gm_effect", "target": "goblin", "name": "x", "rounds": 0}, "gm_effect.rounds"),
        ({"kind": "gm_effect", "target": "goblin", "name": "x", "rounds": 2, "anchor": "nobody"}, "anchor"),
        ({"kind": "gm_add_creature", "creature": {"id": "g2", "side": "goblins", "stats": "gobbo",
                                                  "position": [5, 5]}}, "edit.creature.stats"),
        ({"kind": "gm_add_creature", "creature": {"id": "g2", "side": "goblins", "stats": "goblin",
                                                  "position": [3, 2]}}, "occupied by"),
        ({"kind": "gm_damage", "target": "goblin", "amount": 1, "colour": "red"}, "colour"),
        ({"kind": "gm_fireball"}, "kind"),
    ]
    for edit, words in cases:
        r = gm(client, eid, edit, v)
        assert r.status_code == 422, (edit, r.text)
        assert words in r.text, (edit, r.text)
    assert client.get(f"/api/encounters/{eid}").json()["version"] == v


def test_gm_adds_a_creature_and_hides_it_from_the_players(client: TestClient) -> None:
    made = create(client, duel(), seed=1)
    eid, v = made["id"], made["version"]
    out = gm(client, eid, {"kind": "gm_add_creature", "creature": {
        "id": "lurker", "name": "Lurker", "side": "goblins", "stats": "goblin", "position": [8, 6],
        "initiative": 1}}, v).json()
    assert "lurker" in out["state"]["order"]
    out = gm(client, eid, {"kind": "gm_condition", "target": "lurker", "condition": "hidden"}, out["version"]).json()
    pid = client.get(f"/api/encounters/{eid}").json()["player_id"]
    seen = client.get(f"/api/play/{pid}/state").json()
    assert "lurker" not in {c["id"] for c in seen["combatants"]}
    text = str(client.get(f"/api/play/{pid}/log").json())
    assert "lurker" not in text.lower()
    gm(client, eid, {"kind": "gm_condition", "target": "lurker", "condition": "hidden", "present": False},
       out["version"])
    seen = client.get(f"/api/play/{pid}/state").json()
    assert "lurker" in {c["id"] for c in seen["combatants"]}


def test_gm_effect_over_http_is_shown_with_its_end(client: TestClient) -> None:
    made = create(client, duel(), seed=1)
    out = gm(client, made["id"], {"kind": "gm_effect", "target": "valeros", "name": "bless", "rounds": 3,
                                  "attack": 1}, made["version"]).json()
    effects = _combatant(out["state"], "valeros")["effects"]
    assert effects == [{"name": "bless", "until_round": 4, "anchor": "valeros", "ac": 0, "attack": 1, "condition": ""}]


def test_gm_writes_survive_a_restart_and_export_verifies(client: TestClient, client_factory: Any) -> None:
    made = create(client, duel(), seed=1)
    eid, v = made["id"], made["version"]
    out = gm(client, eid, {"kind": "gm_add_creature", "creature": {
        "id": "wolf", "side": "goblins", "stats": "wolf", "position": [8, 6]}}, v).json()
    out = gm(client, eid, {"kind": "gm_damage", "target": "wolf", "amount": 3}, out["version"]).json()
    again = client_factory()
    state = again.get(f"/api/encounters/{eid}/state").json()
    assert _combatant(state, "wolf")["hp"] == _combatant(out["state"], "wolf")["hp"]
    exported = again.get(f"/api/encounters/{eid}/export").json()
    r = again.post("/api/encounters/import", json=exported)
    assert r.status_code == 201, r.text


def test_the_players_never_read_a_monsters_hp_from_the_gms_writes(client: TestClient) -> None:
    made = create(client, duel(), seed=1)
    eid = made["id"]
    out = gm(client, eid, {"kind": "gm_set_hp", "target": "goblin", "hp": 3}, made["version"]).json()
    gm(client, eid, {"kind": "gm_set_hp", "target": "valeros", "hp": 5}, out["version"])
    pid = client.get(f"/api/encounters/{eid}").json()["player_id"]
    texts = [e["text"] for e in client.get(f"/api/play/{pid}/log").json()]
    goblin = [t for t in texts if "goblin" in t]
    assert any("GM: sets goblin's hp" in t for t in goblin)
    assert not any(re.search(r"hp to 3|→ 3", t) for t in goblin), goblin
    assert any("sets valeros's hp to 5" in t for t in texts)  # their own hit points the players see


def test_the_state_says_what_undo_and_redo_would_do(client: TestClient) -> None:
    """Issue 13: Undo and Redo say what they will take back or put back; nothing to redo → null (disabled)."""
    made = create(client, duel(), seed=1)
    eid = made["id"]
    start = client.get(f"/api/encounters/{eid}/state").json()["history"]
    assert start == {"undo": None, "redo": None}
    out = gm(client, eid, {"kind": "gm_damage", "target": "goblin", "amount": 1}, made["version"]).json()
    assert out["state"]["history"] == {"undo": "GM: 1 damage to goblin", "redo": None}
    undone = client.post(f"/api/encounters/{eid}/undo", json={"expected_version": out["version"]}).json()
    assert undone["state"]["history"] == {"undo": None, "redo": "GM: 1 damage to goblin"}
    pid = client.get(f"/api/encounters/{eid}").json()["player_id"]
    assert "history" not in client.get(f"/api/play/{pid}/state").json() or \
        client.get(f"/api/play/{pid}/state").json()["history"] is None


def test_a_called_save_takes_the_gms_typed_d20_and_refuses_a_wrong_die(client: TestClient) -> None:
    made = create(client, duel(), seed=1)
    eid, v = made["id"], made["version"]
    bad = gm(client, eid, {"kind": "gm_save", "target": "goblin", "save": "will", "dc": 12}, v, ["d6=3"])
    assert bad.status_code == 422 and "dice[0]" in bad.text and "d20" in bad.text
    out = gm(client, eid, {"kind": "gm_save", "target": "goblin", "save": "will", "dc": 12}, v, ["d20=20"]).json()
    texts = [e["text"] for e in out["events"]]
    assert texts[0] == "GM: calls for a Will save DC 12 from goblin"
    assert "d20 20" in texts[1] and "natural 20" in texts[1] and texts[1].endswith("succeeds")
    export = client.get(f"/api/encounters/{eid}/export").json()
    assert export["writes"][-1]["dice"] == [[20, 20]]
