"""Issue 13, items 4 and 5: the GM's key, the players' routes and what players see.

A client without the key (a player) cannot write, undo, import, delete or read anything of the GM's through any
route, error message or WebSocket; the players' routes show only the creatures the players' side sees (not
hidden, invisible, or in darkness none of them sees through), no other side's hit points or anything computed
from them, never the scenario event nor the seed. A hypothesis test plays random games of the three rulesets'
examples with hidden, invisible and benighted monsters and checks every players' answer after every write.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect
from tests.server.helpers import act, create, duel, gm_headers

from d20combat.controllers import TacticalAI
from d20combat.encounter.visibility import visible_to
from d20combat.server.app import create_app
from d20combat.server.inputs import read_example

Json = dict[str, Any]


def _pid(client: TestClient, eid: str) -> str:
    pid: str = client.get(f"/api/encounters/{eid}").json()["player_id"]
    return pid


def _lurking() -> Json:
    """A duel with a hidden skulker, an invisible ghost and a goblin in darkness the fighter cannot see."""
    scn = duel(more=[
        {"id": "skulker", "name": "Skulker", "side": "goblins", "stats": "goblin", "position": [6, 2],
         "initiative": 3, "conditions": ["hidden"]},
        {"id": "ghost", "name": "Ghost", "side": "goblins", "stats": "goblin", "position": [6, 5],
         "initiative": 2, "conditions": ["invisible"]},
        {"id": "gloom", "name": "Gloomer", "side": "goblins", "stats": "goblin", "position": [9, 7],
         "initiative": 1}])
    scn["map"] = {"rows": ["." * 10] * 7 + ["........DD"]}
    return scn


# ------------------------------------------------------------------------------------------ the key
GM_ROUTES = [
    ("GET", "/api/examples", None), ("GET", "/api/encounters", None),
    ("POST", "/api/encounters", {"example": "goblin-ambush"}),
    ("POST", "/api/encounters/import", {"scenario": {}, "name": "x", "players": "x", "events": [{}]}),
    ("GET", "/api/encounters/{eid}", None), ("GET", "/api/encounters/{eid}/state", None),
    ("GET", "/api/encounters/{eid}/state?view=player", None), ("GET", "/api/encounters/{eid}/decision", None),
    ("POST", "/api/encounters/{eid}/actions", {"action": {"kind": "end_turn"}, "expected_version": 1}),
    ("POST", "/api/encounters/{eid}/reactions", {"answer": "none", "expected_version": 1}),
    ("POST", "/api/encounters/{eid}/undo", {"expected_version": 1}),
    ("POST", "/api/encounters/{eid}/redo", {"expected_version": 1}),
    ("POST", "/api/encounters/{eid}/reveal", {"combatant": "skulker"}),
    ("POST", "/api/encounters/{eid}/gm", {"edit": {"kind": "gm_damage", "target": "skulker", "amount": 1},
                                          "expected_version": 1}),
    ("GET", "/api/encounters/{eid}/log", None), ("GET", "/api/encounters/{eid}/export", None),
    ("GET", "/api/encounters/{eid}/moves?combatant=skulker", None),
    ("POST", "/api/encounters/{eid}/preview/move", {"combatant": "skulker", "to": [1, 1]}),
    ("POST", "/api/encounters/{eid}/preview/attack", {"attacker": "valeros", "target": "skulker"}),
    ("POST", "/api/simulations", {"example": "goblin-ambush", "n": 1}),
    ("POST", "/api/simulations/jobs", {"example": "goblin-ambush", "n": 1}),
    ("GET", "/api/simulations/jobs/x", None), ("DELETE", "/api/simulations/jobs/x", None),
    ("DELETE", "/api/encounters/{eid}", None), ("GET", "/", None), ("GET", "/table/{eid}", None),
]


@pytest.mark.parametrize(("method", "path", "body"), GM_ROUTES)
def test_without_the_key_nothing_of_the_gms_answers(client: TestClient, anon: TestClient, method: str, path: str,
                                                    body: Any) -> None:
    eid = create(client, _lurking(), seed=1)["id"]
    url = path.format(eid=eid)
    before = client.get(f"/api/encounters/{eid}").json()
    r = anon.request(method, url, json=body)
    assert r.status_code == 401 and "game master's key" in r.text
    wrong = anon.request(method, url, json=body, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 403 and "wrong" in wrong.text
    for answer in (r, wrong):  # the refusal names nothing of the encounter
        assert not re.search(r"skulker|ghost|gloom|valeros|goblin|hp|seed", answer.text, re.I)
    assert client.get(f"/api/encounters/{eid}").json() == before  # and changed nothing
    assert len(client.get("/api/encounters").json()) == 1


def test_the_gm_link_sets_an_httponly_strict_cookie(client: TestClient, anon: TestClient) -> None:
    key = client.app.state.token  # type: ignore[attr-defined]
    assert anon.get("/?token=nope", follow_redirects=False).status_code == 403
    r = anon.get(f"/?token={key}&x=1", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/?x=1"  # the key leaves the address bar
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict") and key in cookie
    assert anon.get("/api/encounters").status_code == 200  # the cookie is the key now
    assert anon.get("/").status_code == 200


def test_a_gm_websocket_needs_the_key(client: TestClient, anon: TestClient) -> None:
    eid = create(client, duel())["id"]
    with pytest.raises(WebSocketDisconnect) as info, anon.websocket_connect(f"/api/encounters/{eid}/ws") as ws:
        ws.receive_json()
    assert info.value.code == 4401
    with client.websocket_connect(f"/api/encounters/{eid}/ws"):
        pass


def test_host_and_origin_are_checked(client: TestClient) -> None:
    assert client.get("/api/encounters", headers={"Host": "evil.example"}).status_code == 421
    assert client.get("/player/x", headers={"Host": "rebound.example:8000"}).status_code == 421
    for host in ("localhost:8000", "127.0.0.1", "[::1]:9"):
        assert client.get("/api/encounters", headers={"Host": host}).status_code == 200
    body = {"example": "goblin-ambush"}
    assert client.post("/api/encounters", json=body, headers={"Origin": "http://evil.example"}).status_code == 403
    ok = client.post("/api/encounters", json=body, headers={"Origin": "http://testserver"})
    assert ok.status_code == 201
    pid = _pid(client, ok.json()["id"])
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(
            f"/api/play/{pid}/ws", headers={"Origin": "http://evil.example"}) as ws:
        ws.receive_json()
    with client.websocket_connect(f"/api/play/{pid}/ws", headers={"Origin": "http://testserver"}):
        pass


def test_allowed_hosts_are_configurable(tmp_path: Path) -> None:
    app = create_app(tmp_path / "t.db", hosts=["table.lan", "0.0.0.0"])
    with TestClient(app, headers=gm_headers(app), base_url="http://table.lan") as c:
        assert c.get("/api/encounters").status_code == 200
        assert c.get("/api/encounters", headers={"Host": "192.168.1.9:8000"}).status_code == 200  # every address
        assert c.get("/api/encounters", headers={"Host": "testserver"}).status_code == 421
    app.state.store.close()


# ------------------------------------------------------------------------------------------ the players' routes
def test_the_players_routes_read_only_what_the_players_see(client: TestClient, anon: TestClient) -> None:
    eid = create(client, _lurking(), seed=1)["id"]
    pid = _pid(client, eid)
    assert pid != eid and eid not in pid
    summary = anon.get(f"/api/play/{pid}").json()
    assert "id" not in summary and summary["player_id"] == pid
    state = anon.get(f"/api/play/{pid}/state").json()
    assert state["id"] == pid and state["view"] == "player"
    assert {c["id"] for c in state["combatants"]} == {"valeros", "goblin"}
    assert next(c for c in state["combatants"] if c["id"] == "goblin")["hp"] is None
    assert next(c for c in state["combatants"] if c["id"] == "valeros")["hp"] is not None
    text = json.dumps([state, anon.get(f"/api/play/{pid}/log").json(), summary])
    assert not re.search(r"skulker|ghost|gloom|encounter_started|seed", text, re.I)
    assert client.get(f"/api/encounters/{eid}/state", params={"view": "player"}).json()["combatants"] == \
        state["combatants"]
    for method in ("POST", "PUT", "DELETE", "PATCH"):  # nothing under /api/play writes
        for path in (f"/api/play/{pid}", f"/api/play/{pid}/state", f"/api/play/{pid}/actions"):
            assert anon.request(method, path, json={}).status_code in (404, 405)
    assert anon.get("/api/play/nope/state").json() == {"detail": "no players' page 'nope'"}
    assert anon.get(f"/player/{pid}").status_code == 200 and anon.get(f"/player/{eid}").status_code == 404
    with anon.websocket_connect(f"/api/play/{pid}/ws") as ws:  # tells only the new version
        act(client, eid, {"kind": "end_turn"}, 1)
        assert ws.receive_json() == {"type": "state", "version": 2}


def test_the_gm_reveals_a_creature(client: TestClient, anon: TestClient) -> None:
    eid = create(client, _lurking(), seed=1)["id"]
    pid = _pid(client, eid)
    r = client.post(f"/api/encounters/{eid}/reveal", json={"combatant": "skulker"})
    assert r.status_code == 200 and r.json()["state"]["revealed"] == ["skulker"]
    assert "skulker" in {c["id"] for c in anon.get(f"/api/play/{pid}/state").json()["combatants"]}
    client.post(f"/api/encounters/{eid}/reveal", json={"combatant": "skulker", "revealed": False})
    assert "skulker" not in {c["id"] for c in anon.get(f"/api/play/{pid}/state").json()["combatants"]}


def test_sight_follows_the_rules_darkvision_and_light() -> None:
    """The predicate in the engine's terms: the goblin archer in the chapel's darkness is unseen by the heroes
    (no darkvision), but the goblins (darkvision) see heroes in the dark; bushes do not hide."""
    from d20combat.encounter.engine import Encounter
    from d20combat.scenario import battle_from_data
    from d20combat.server.live import idle_dice

    data = read_example("goblin-ambush")
    enc = Encounter(battle_from_data(data, "x"), idle_dice())
    seen = visible_to(enc, "heroes")
    assert "archer-1" not in seen and "leader" in seen and "goblin-1" in seen  # (15,2) is dark, (12,3) is not
    data["combatants"][0]["position"] = [14, 2]  # Valeros walks into the dark, next to the archer
    enc = Encounter(battle_from_data(data, "x"), idle_dice())
    assert "valeros" in visible_to(enc, "goblins")  # darkvision


# ------------------------------------------------------------------------------------------ the seed
def test_the_seed_never_leaves_and_an_import_rolls_afresh(client: TestClient) -> None:
    eid = create(client, example="goblin-ambush", seed=7)["id"]
    exported = client.get(f"/api/encounters/{eid}/export").json()
    assert "seed" not in exported and exported["start_dice"]
    service = client.app.state.service  # type: ignore[attr-defined]
    copies = [client.post("/api/encounters/import", json=exported).json()["id"] for _ in range(2)]
    seeds = {service._get(c).seed for c in copies} | {service._get(eid).seed}
    assert len(seeds) == 3  # each import draws its own seed: the file predicts nothing to come
    for c in copies:
        assert client.get(f"/api/encounters/{c}/state").json()["order"] == \
            client.get(f"/api/encounters/{eid}/state").json()["order"]


# ------------------------------------------------------------------------------------------ random games
EXAMPLES = ["goblin-ambush", "off-guard-ambush", "skill-duel"]


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[FastAPI, TestClient, TestClient]]:
    app = create_app(tmp_path_factory.mktemp("sight") / "t.db")
    with TestClient(app, headers=gm_headers(app)) as gm:
        yield app, gm, TestClient(app)
    app.state.store.close()


def _scenario(name: str, data: st.DataObject) -> tuple[Json, str]:
    scn = copy.deepcopy(read_example(name))
    players = scn["combatants"][0]["side"]
    rows = list(scn["map"].get("rows") or [])
    for c in scn["combatants"]:
        if c["side"] == players:
            continue
        how = data.draw(st.sampled_from(["seen", "hidden", "invisible", "dark"]), label=f"{c['id']}")
        if how in ("hidden", "invisible"):
            c["conditions"] = [*c.get("conditions", []), how]
        elif how == "dark" and rows:
            for col, row in c.get("positions") or [c["position"]]:
                line = rows[row].ljust(col + 1, ".")
                rows[row] = line[:col] + "D" + line[col + 1:]
    if rows:
        scn["map"]["rows"] = rows
    return scn, players


def _words(app: FastAPI, eid: str) -> tuple[list[str], dict[str, Any]]:
    """The ids and names the players must never read now (names no seen creature shares), and the live game."""
    live = app.state.service._get(eid)
    enc = live.enc
    seen = visible_to(enc, live.players, revealed=live.revealed)
    unseen = [c for c in enc.state.combatants if c not in seen]
    seen_names = {enc.creature(c).name.lower() for c in seen} | {c.lower() for c in seen}
    words = set(unseen) | {enc.creature(c).name for c in unseen if enc.creature(c).name.lower() not in seen_names}
    others = [c for c in enc.state.combatants if enc.creature(c).side != live.players]
    return sorted(words), {"live": live, "others": others}


def _check_players(app: FastAPI, anon: TestClient, eid: str, pid: str) -> None:
    words, game = _words(app, eid)
    title = game["live"].name.lower()
    state = anon.get(f"/api/play/{pid}/state").json()
    log = anon.get(f"/api/play/{pid}/log").json()
    summary = anon.get(f"/api/play/{pid}").json()
    for c in state["combatants"]:
        if c["id"] in game["others"]:
            assert c["hp"] is None and c["max_hp"] is None
    state.pop("name"), summary.pop("name")
    text = json.dumps([state, log, summary])
    for w in words:
        if w.lower() in title:
            continue
        assert not re.search(rf"(?<![\w]){re.escape(w)}(?![\w])", text, re.I), (w, text[:3000])
    assert all(e["kind"] != "encounter_started" for e in log)
    assert "seed" not in text and "drop_chance" not in text
    for cid in game["others"]:
        assert not re.search(rf"{re.escape(cid)} hp -?\d+ →", text), cid


@pytest.mark.parametrize("example", EXAMPLES)
@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_random_games_never_show_the_players_an_unseen_creature(
        table: tuple[FastAPI, TestClient, TestClient], example: str, data: st.DataObject) -> None:
    app, gm, anon = table
    scn, _ = _scenario(example, data)
    made = create(gm, scn, seed=data.draw(st.integers(0, 2**20), label="seed"))
    eid, pid, version = made["id"], made["player_id"], made["version"]
    ai = TacticalAI()
    _check_players(app, anon, eid, pid)
    for _ in range(data.draw(st.integers(1, 14), label="writes")):
        decision = gm.get(f"/api/encounters/{eid}/decision").json()
        if decision["actor"] is None:
            break
        enc = app.state.service._get(eid).enc
        smart = data.draw(st.booleans(), label="ai")
        if decision["prompt"] is not None:
            options = decision["prompt"]["options"]
            answer = ai.react(enc, enc.pending.prompt) if smart else data.draw(st.sampled_from(options))
            r = gm.post(f"/api/encounters/{eid}/reactions", json={"answer": answer, "expected_version": version})
        else:
            action = ai.choose(enc).to_dict() if smart else data.draw(st.sampled_from(decision["options"]))
            r = act(gm, eid, action, version)
        assert r.status_code == 200, r.text
        version = r.json()["version"]
        _check_players(app, anon, eid, pid)
        if data.draw(st.integers(0, 9), label="undo") == 0:
            version = gm.post(f"/api/encounters/{eid}/undo", json={"expected_version": version}).json()["version"]
            _check_players(app, anon, eid, pid)
