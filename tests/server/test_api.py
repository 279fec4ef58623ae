"""Every route of the game master's table (docs/api.md) through FastAPI's TestClient."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.server.helpers import act, create, duel

from d20combat.server.app import STATIC


def _state(client: TestClient, eid: str, view: str = "gm") -> dict[str, Any]:
    r = client.get(f"/api/encounters/{eid}/state", params={"view": view})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def _who(state: dict[str, Any], cid: str) -> dict[str, Any]:
    return next(c for c in state["combatants"] if c["id"] == cid)


# ------------------------------------------------------------------------------------ encounters
def test_examples_lists_the_shipped_scenarios(client: TestClient) -> None:
    names = client.get("/api/examples").json()
    assert {"goblin-ambush", "ogre-charge", "off-guard-ambush", "skill-duel"} <= set(names)


def test_create_from_an_example_a_scenario_or_yaml(client: TestClient) -> None:
    made = create(client, example="goblin-ambush", seed=2)
    assert made["name"] == "Goblin ambush at the ruined chapel" and made["ruleset"] == "pathfinder-beginner"
    assert made["version"] == 1 and made["round"] == 1 and made["players"] == "heroes" and not made["ended"]
    inline = create(client, duel(), name="Practice", players="goblins")
    assert inline["name"] == "Practice" and inline["players"] == "goblins"
    yaml_text = "name: from yaml\nmap: {width: 6, height: 6}\ncombatants:\n" \
                "  - {id: a, side: x, stats: fighter, position: [0, 0]}\n" \
                "  - {id: b, side: y, stats: goblin, position: [5, 5]}\n"
    from_yaml = create(client, scenario_yaml=yaml_text, seed=1)
    assert from_yaml["name"] == "from yaml"
    listed = client.get("/api/encounters").json()
    assert [e["id"] for e in listed] == [made["id"], inline["id"], from_yaml["id"]]
    assert client.get(f"/api/encounters/{made['id']}").json() == made


def test_the_start_rolls_like_the_command_line_with_the_same_seed(client: TestClient) -> None:
    """Initiative of the table's start = ``d20combat run --seed`` (both roll SeededDice(seed))."""
    from d20combat.dice import SeededDice
    from d20combat.encounter.engine import Encounter
    from d20combat.scenario import load_battle
    from d20combat.server.service import examples_dir

    folder = examples_dir()
    assert folder is not None
    enc = Encounter(load_battle(folder / "goblin-ambush.yaml"), SeededDice(4))
    enc.start()
    made = create(client, example="goblin-ambush", seed=4)
    assert _state(client, made["id"])["order"] == list(enc.state.order)


@pytest.mark.parametrize(("body", "needle"), [
    ({}, "give exactly one of example, scenario, scenario_yaml"),
    ({"example": "goblin-ambush", "scenario_yaml": "x: 1"}, "give exactly one"),
    ({"example": "no-such"}, "example: no example 'no-such'"),
    ({"scenario": duel(map={"width": 3, "height": 3})}, "scenario.combatants[1].position"),
    ({"scenario": {"map": {"width": 4, "height": 4}}}, "scenario.combatants"),
    ({"scenario_yaml": "[1, 2"}, "scenario_yaml: not valid YAML"),
    ({"scenario_yaml": "- a list"}, "scenario_yaml: the scenario must be a mapping"),
    ({"example": "goblin-ambush", "players": "orcs"}, "players: 'orcs' is not a side"),
    ({"example": "goblin-ambush", "seed": -1}, "body.seed"),
    ({"example": "goblin-ambush", "colour": "red"}, "body.colour"),
])
def test_create_rejects_bad_input_naming_the_field(client: TestClient, body: dict[str, Any], needle: str) -> None:
    r = client.post("/api/encounters", json=body)
    assert r.status_code == 422
    assert needle in r.json()["detail"]
    assert client.get("/api/encounters").json() == []


def test_malformed_json_is_a_422_not_a_crash(client: TestClient) -> None:
    r = client.post("/api/encounters", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422 and isinstance(r.json()["detail"], str)


@pytest.mark.parametrize(("method", "path", "body"), [
    ("get", "/api/encounters/nope", None),
    ("get", "/api/encounters/nope/state", None),
    ("get", "/api/encounters/nope/decision", None),
    ("post", "/api/encounters/nope/actions", {"action": {"kind": "end_turn"}, "expected_version": 1}),
    ("post", "/api/encounters/nope/reactions", {"answer": "attack", "expected_version": 1}),
    ("post", "/api/encounters/nope/undo", {"expected_version": 1}),
    ("post", "/api/encounters/nope/redo", {"expected_version": 1}),
    ("get", "/api/encounters/nope/log", None),
    ("get", "/api/encounters/nope/export", None),
    ("get", "/api/encounters/nope/moves?combatant=x", None),
    ("post", "/api/encounters/nope/preview/move", {"combatant": "x", "to": [1, 1]}),
    ("post", "/api/encounters/nope/preview/attack", {"attacker": "x", "target": "y"}),
    ("get", "/table/nope", None),
    ("get", "/player/nope", None),
    ("get", "/api/play/nope", None),
    ("get", "/api/play/nope/state", None),
    ("get", "/api/play/nope/log", None),
])
def test_an_unknown_encounter_is_a_404(client: TestClient, method: str, path: str, body: Any) -> None:
    r = client.request(method.upper(), path, json=body)
    assert r.status_code == 404
    assert ("no players' page 'nope'" if "play" in path else "no encounter 'nope'") in r.text


# ------------------------------------------------------------------------------------ state and decision
def test_state_view_shape(client: TestClient) -> None:
    eid = create(client, example="goblin-ambush", seed=2)["id"]
    s = _state(client, eid)
    assert s["id"] == eid and s["view"] == "gm" and s["version"] == 1 and s["ruleset"] == "pathfinder-beginner"
    assert s["map"]["width"] == 20 and s["map"]["height"] == 14
    assert [2, 1] in s["map"]["walls"] and [3, 5] in s["map"]["low_walls"] and [13, 1] in s["map"]["dark"]
    assert [8, 3, 20] in s["map"]["concealing"]
    assert s["active"] == s["order"][0] == s["turn"]["actor"]
    assert s["turn"]["pools"] == {"standard": 1, "move": 1, "free": 1}
    ezren = _who(s, "ezren")
    assert ezren["position"] == [3, 13] and ezren["hp"] == ezren["max_hp"] == 8 and ezren["status"] == "ok"
    assert ezren["attacks"] and ezren["wielding"] in ezren["attacks"]
    assert client.get(f"/api/encounters/{eid}/state", params={"view": "dm"}).status_code == 422


def test_decision_lists_the_legal_actions(client: TestClient) -> None:
    eid = create(client, duel())["id"]
    d = client.get(f"/api/encounters/{eid}/decision").json()
    assert d["version"] == 1 and d["actor"] == "valeros" and d["round"] == 1 and d["prompt"] is None
    kinds = {o["kind"] for o in d["options"]}
    assert {"attack", "move", "step", "end_turn"} <= kinds
    assert {"kind": "end_turn"} in d["options"]


def test_every_option_posted_back_as_given_is_accepted(client: TestClient) -> None:
    """The decision's options come back exactly as the engine wrote them: a prone PFB fighter's ``stand_up`` has
    no fields (worlds-of-adventure's own getting up, with ``to``/``slowly``/``path``, is another kind, ``get_up``).
    Posting it back stands the fighter up."""
    scenario = duel()
    scenario["combatants"][0]["conditions"] = ["prone"]
    eid = create(client, scenario)["id"]
    d = client.get(f"/api/encounters/{eid}/decision").json()
    stand = [o for o in d["options"] if o["kind"] == "stand_up"]
    assert stand == [{"kind": "stand_up"}]
    r = act(client, eid, stand[0], d["version"])
    assert r.status_code == 200, r.text
    assert "prone" not in client.get(f"/api/encounters/{eid}/state").json()["combatants"][0]["conditions"]


def test_woa_get_up_options_come_back_with_their_fields_and_are_accepted(client: TestClient) -> None:
    """WOA-MOVE-35: a prone worlds-of-adventure hero is offered the core's ``stand_up`` (no fields) and WOA's own
    ``get_up`` to a crouch (its fields); both post back as given, and ``get_up`` rises into a crouch."""
    from tests.server.test_declarations_api import SCENARIO

    scenario = {**SCENARIO, "combatants": [{**SCENARIO["combatants"][0], "conditions": ["prone"]},
                                           SCENARIO["combatants"][1]]}
    eid = create(client, scenario, seed=3)["id"]
    for _ in range(2):  # both declare a move action (WOA-CYCLE-14)
        d = client.get(f"/api/encounters/{eid}/decision").json()
        assert act(client, eid, {"kind": "declare", "move": "move"}, d["version"]).status_code == 200
    d = client.get(f"/api/encounters/{eid}/decision").json()
    while d["actor"] != "hero":  # the orc may act first: it ends its turn
        assert act(client, eid, {"kind": "end_turn"}, d["version"]).status_code == 200
        d = client.get(f"/api/encounters/{eid}/decision").json()
    rising = [o for o in d["options"] if o["kind"] in ("stand_up", "get_up")]
    assert rising == [{"kind": "stand_up"}, {"kind": "get_up", "to": "crouching", "slowly": False, "path": [],
                      "evasive": False}]
    r = act(client, eid, rising[1], d["version"])
    assert r.status_code == 200, r.text
    assert _who(_state(client, eid), "hero")["conditions"] == ["crouching"]


def test_player_view_hides_monster_hp_and_hidden_creatures(client: TestClient) -> None:
    scn = duel(more=[
        {"id": "sneak", "side": "goblins", "stats": "goblin", "position": [8, 6], "conditions": ["hidden"],
         "initiative": 4},
        {"id": "ghost", "side": "goblins", "stats": "goblin", "position": [8, 1], "conditions": ["invisible"],
         "initiative": 3},
        {"id": "scout", "side": "heroes", "stats": "rogue", "position": [0, 7], "conditions": ["hidden"],
         "initiative": 2},
    ])
    eid = create(client, scn, seed=1)["id"]
    gm = _state(client, eid, "gm")
    assert {c["id"] for c in gm["combatants"]} == {"valeros", "goblin", "sneak", "ghost", "scout"}
    player = _state(client, eid, "player")
    assert player["view"] == "player"
    assert {c["id"] for c in player["combatants"]} == {"valeros", "goblin", "scout"}  # own hidden scout stays
    assert "sneak" not in player["order"] and "ghost" not in player["order"]
    goblin = _who(player, "goblin")
    assert goblin["hp"] is None and goblin["max_hp"] is None and goblin["status"] == "ok"
    assert _who(player, "valeros")["hp"] == 12
    # The status stays visible as the fight goes on.
    act(client, eid, {"kind": "attack", "target": "goblin"}, 1, ["d20=17", "d8=5"])
    assert _who(_state(client, eid, "player"), "goblin")["status"] == "dying"


# ------------------------------------------------------------------------------------ actions
def test_an_action_changes_the_state_and_the_version(client: TestClient) -> None:
    eid = create(client, duel())["id"]
    r = act(client, eid, {"kind": "move", "to": [2, 5]}, 1)
    assert r.status_code == 200, r.text
    result = r.json()
    assert result["version"] == 2 and result["pending"] is None
    assert {"kind": "moved", "text": "valeros moves to (2,5) — 15 ft"} in result["events"]
    assert _who(result["state"], "valeros")["position"] == [2, 5]
    assert result["state"] == _state(client, eid)


def test_a_stale_version_is_a_409_and_changes_nothing(client: TestClient) -> None:
    eid = create(client, duel())["id"]
    assert act(client, eid, {"kind": "move", "to": [2, 5]}, 1).status_code == 200
    before = _state(client, eid)
    r = act(client, eid, {"kind": "end_turn"}, 1)
    assert r.status_code == 409 and "stale" in r.json()["detail"]
    for path, body in (("undo", {"expected_version": 1}), ("redo", {"expected_version": 7}),
                       ("reactions", {"answer": "attack", "expected_version": 0})):
        assert client.post(f"/api/encounters/{eid}/{path}", json=body).status_code == 409
    assert _state(client, eid) == before


@pytest.mark.parametrize(("action", "needle"), [
    ({"kind": "move", "to": [9, 7]}, "move: no legal path to (9, 7)"),
    ({"kind": "move", "to": [50, 2]}, "outside the 10×8 map"),
    ({"kind": "attack", "target": "nobody"}, "no combatant 'nobody'"),
    ({"kind": "attack", "target": "goblin", "attack": "halberd"}, "halberd"),
    ({"kind": "step", "to": [5, 5]}, "not one square away"),
    ({"kind": "coup_de_grace", "target": "goblin"}, "action.kind: unknown action kind 'coup_de_grace'"),
    ({"kind": "attack", "target": "goblin", "critical": -2}, "no declared critical attacks"),
])
def test_an_illegal_action_is_a_422_naming_the_rule_and_changes_nothing(
        client: TestClient, action: dict[str, Any], needle: str) -> None:
    eid = create(client, duel())["id"]
    before = _state(client, eid)
    log = client.get(f"/api/encounters/{eid}/log").json()
    r = act(client, eid, action, 1)
    assert r.status_code == 422 and needle in r.json()["detail"]
    assert _state(client, eid) == before
    assert client.get(f"/api/encounters/{eid}/log").json() == log


@pytest.mark.parametrize(("action", "needle"), [
    ({"kind": "teleport"}, "body.action"),
    ({"to": [1, 1]}, "body.action"),
    ({"kind": "move", "to": "north"}, "body.action.move.to"),
    ({"kind": "move", "to": [1, 2, 3]}, "body.action.move.to"),
    ({"kind": "shield", "op": "polish"}, "body.action.shield.op"),
    ({"kind": "end_turn", "speed": 3}, "body.action.end_turn.speed"),
])
def test_a_malformed_action_is_a_422_naming_the_field(client: TestClient, action: dict[str, Any], needle: str
                                                      ) -> None:
    eid = create(client, duel())["id"]
    r = act(client, eid, action, 1)
    assert r.status_code == 422 and needle in r.json()["detail"], r.text


def test_a_field_of_another_rulesets_version_of_an_action_is_rejected(client: TestClient) -> None:
    """cast_spell exists in off-guard and skill-based with different fields: each encounter gets its own."""
    eid = create(client, duel("off-guard"))["id"]
    r = act(client, eid, {"kind": "cast_spell", "spell": "bless", "verbal": False}, 1)
    assert r.status_code == 200, r.text
    assert any("casts bless" in e["text"] for e in r.json()["events"])
    r = act(client, eid, {"kind": "cast_spell", "spell": "bless", "skill": "arcana"}, 2)
    assert r.status_code == 422 and "action.skill" in r.json()["detail"]


# ------------------------------------------------------------------------------------ typed dice
def test_typed_dice_are_used_and_explained(client: TestClient) -> None:
    eid = create(client, duel())["id"]
    r = act(client, eid, {"kind": "attack", "target": "goblin"}, 1, ["d20=17", "d8=5"])
    assert r.status_code == 200, r.text
    texts = [e["text"] for e in r.json()["events"]]
    assert any("hits: 22 = d20 17 + BAB 1" in t for t in texts)
    assert any(t.startswith("damage 8 = 1d8 5 + bonus 3") for t in texts)
    log = client.get(f"/api/encounters/{eid}/log").json()
    assert any("d20 17" in entry["text"] for entry in log if entry["kind"] == "attack_resolved")


@pytest.mark.parametrize(("dice", "needle"), [
    (["d20=21"], "dice[0] 'd20=21': a d20 cannot show 21"),
    (["d20=0"], "a d20 cannot show 0"),
    (["d20=17", "d6=3"], "dice[1] 'd6=3': damage"),
    (["d12=3"], "dice[0] 'd12=3': attack valeros->goblin: a d20 is needed, but a d12 was typed"),
    (["twenty"], "dice[0]: 'twenty' is not a typed die"),
    (["d1=1"], "there is no d1"),
])
def test_a_wrongly_typed_die_is_a_422_naming_the_die_and_changes_nothing(
        client: TestClient, dice: list[str], needle: str) -> None:
    eid = create(client, duel())["id"]
    before = _state(client, eid)
    r = act(client, eid, {"kind": "attack", "target": "goblin"}, 1, dice)
    assert r.status_code == 422 and needle in r.json()["detail"], r.text
    assert _state(client, eid) == before


def test_untyped_dice_are_rolled_reproducibly_from_the_seed_and_version(client: TestClient) -> None:
    a = create(client, duel(), seed=9)["id"]
    b = create(client, duel(), seed=9)["id"]
    ra = act(client, a, {"kind": "attack", "target": "goblin"}, 1).json()["events"]
    rb = act(client, b, {"kind": "attack", "target": "goblin"}, 1).json()["events"]
    assert ra == rb


# ------------------------------------------------------------------------------------ reactions
def test_an_attack_of_opportunity_is_asked_and_answered_through_reactions(client: TestClient) -> None:
    eid = create(client, duel("off-guard"), seed=3)["id"]
    r = act(client, eid, {"kind": "move", "to": [0, 2]}, 1)
    assert r.status_code == 200
    result = r.json()
    assert result["version"] == 2 and result["events"] == []
    prompt = result["pending"]
    assert prompt["reactor"] == "goblin" and prompt["kind"] == "attack_of_opportunity"
    assert prompt["options"] == ["attack", "decline"] and "valeros leaves (2, 2)" in prompt["trigger"]
    assert _who(result["state"], "valeros")["position"] == [2, 2]  # nothing committed yet
    assert result["state"]["pending"] == prompt
    decision = client.get(f"/api/encounters/{eid}/decision").json()
    assert decision["actor"] == "goblin" and decision["prompt"] == prompt and decision["options"] == []
    # While waiting, no other action, and only the offered answers.
    assert act(client, eid, {"kind": "end_turn"}, 2).status_code == 422
    bad = client.post(f"/api/encounters/{eid}/reactions", json={"answer": "dance", "expected_version": 2})
    assert bad.status_code == 422 and "'dance' is not one of attack, decline" in bad.json()["detail"]
    r = client.post(f"/api/encounters/{eid}/reactions",
                    json={"answer": "attack", "dice": ["d20=12"], "expected_version": 2})
    assert r.status_code == 200, r.text
    result = r.json()
    assert result["version"] == 3 and result["pending"] is None
    texts = [e["text"] for e in result["events"]]
    assert any("goblin attacks valeros" in t and "d20 12" in t for t in texts)
    assert _who(result["state"], "valeros")["position"] == [0, 2]
    none = client.post(f"/api/encounters/{eid}/reactions", json={"answer": "attack", "expected_version": 3})
    assert none.status_code == 422 and "no reaction is being asked for" in none.json()["detail"]


def test_a_skill_based_active_defense_prompt(client: TestClient) -> None:
    eid = create(client, example="skill-duel", seed=1)["id"]
    s = _state(client, eid)
    # Play the AI-free way: end turns until the ogre attacks someone within reach, or answer any prompt.
    version = s["version"]
    for _ in range(40):
        d = client.get(f"/api/encounters/{eid}/decision").json()
        if d["prompt"] is not None:
            options = d["prompt"]["options"]
            r = client.post(f"/api/encounters/{eid}/reactions",
                            json={"answer": options[0], "expected_version": d["version"]})
            assert r.status_code == 200, r.text
            return
        attacks = [o for o in d["options"] if o["kind"] in ("attack", "cast_spell")]
        choice = attacks[0] if attacks and d["actor"] == "ogre" else {"kind": "end_turn"}
        r = act(client, eid, choice, d["version"])
        assert r.status_code == 200, r.text
        version = r.json()["version"]
        if r.json()["pending"] is not None:
            assert r.json()["pending"]["options"]
            return
    pytest.fail(f"no prompt came up (version {version})")


# ------------------------------------------------------------------------------------ undo / redo
def test_undo_and_redo(client: TestClient) -> None:
    eid = create(client, duel())["id"]
    start = _state(client, eid)
    nothing = client.post(f"/api/encounters/{eid}/undo", json={"expected_version": 1})
    assert nothing.status_code == 422 and "nothing to undo" in nothing.json()["detail"]
    act(client, eid, {"kind": "move", "to": [2, 5]}, 1)
    moved = _state(client, eid)
    r = client.post(f"/api/encounters/{eid}/undo", json={"expected_version": 2})
    assert r.status_code == 200 and r.json()["events"] == [] and r.json()["version"] == 3
    assert r.json()["state"]["history"] == {"undo": None, "redo": "valeros moves to (2,5) — 15 ft"}
    assert {**r.json()["state"], "version": 1, "history": start["history"]} == start
    r = client.post(f"/api/encounters/{eid}/redo", json={"expected_version": 3})
    assert r.status_code == 200 and r.json()["version"] == 4
    assert {**r.json()["state"], "version": 2} == moved
    assert len(client.get(f"/api/encounters/{eid}/log").json()) == len(
        [e for e in client.get(f"/api/encounters/{eid}/export").json()["events"]])
    # A new action after an undo drops what could have been redone.
    client.post(f"/api/encounters/{eid}/undo", json={"expected_version": 4})
    act(client, eid, {"kind": "move", "to": [4, 4]}, 5)
    r = client.post(f"/api/encounters/{eid}/redo", json={"expected_version": 6})
    assert r.status_code == 422 and "nothing to redo" in r.json()["detail"]


def test_undo_while_a_reaction_is_asked_drops_the_action(client: TestClient) -> None:
    eid = create(client, duel("off-guard"), seed=3)["id"]
    before = _state(client, eid)
    assert act(client, eid, {"kind": "move", "to": [0, 2]}, 1).json()["pending"] is not None
    r = client.post(f"/api/encounters/{eid}/redo", json={"expected_version": 2})
    assert r.status_code == 422 and "a reaction is being asked for" in r.json()["detail"]
    r = client.post(f"/api/encounters/{eid}/undo", json={"expected_version": 2})
    assert r.status_code == 200 and r.json()["pending"] is None
    assert {**r.json()["state"], "version": 1} == before


# ------------------------------------------------------------------------------------ log, export, import
def test_log_explains_every_event(client: TestClient) -> None:
    eid = create(client, duel())["id"]
    act(client, eid, {"kind": "attack", "target": "goblin"}, 1, ["d20=3"])
    log = client.get(f"/api/encounters/{eid}/log").json()
    assert [e["seq"] for e in log] == list(range(len(log)))
    assert log[0]["kind"] == "encounter_started" and log[0]["event"]["kind"] == "encounter_started"
    miss = next(e for e in log if e["kind"] == "attack_resolved")
    assert miss["text"].startswith("valeros attacks goblin with longsword\n  misses: 8 = d20 3")
    tail = client.get(f"/api/encounters/{eid}/log", params={"since": len(log) - 2}).json()
    assert tail == log[-2:]
    assert client.get(f"/api/encounters/{eid}/log", params={"since": -1}).status_code == 422


def test_export_import_round_trip(client: TestClient) -> None:
    eid = create(client, duel(), seed=5, name="round trip")["id"]
    act(client, eid, {"kind": "attack", "target": "goblin"}, 1)
    act(client, eid, {"kind": "end_turn"}, 2)
    exported = client.get(f"/api/encounters/{eid}/export").json()
    assert "seed" not in exported and exported["name"] == "round trip" and exported["players"] == "heroes"
    assert exported["start_dice"] == []  # the duel's initiative is fixed: the start rolled nothing
    assert exported["events"][0]["kind"] == "encounter_started" and exported["scenario"]["name"] == "duel"
    assert sum(exported["batches"]) == len(exported["events"]) and len(exported["batches"]) == 3
    r = client.post("/api/encounters/import", json=exported)
    assert r.status_code == 201, r.text
    new = r.json()
    assert new["id"] != eid and new["name"] == "round trip"
    a, b = _state(client, eid), _state(client, new["id"])
    assert {**a, "id": "", "version": 0} == {**b, "id": "", "version": 0}
    assert client.get(f"/api/encounters/{new['id']}/log").json() == client.get(f"/api/encounters/{eid}/log").json()
    # The steps came along: undo works on the copy.
    r = client.post(f"/api/encounters/{new['id']}/undo", json={"expected_version": new["version"]})
    assert r.status_code == 200
    # Without the step sizes, the replayed writes give them (issue 12): undo still works on the copy.
    plain = {k: v for k, v in exported.items() if k != "batches"}
    copy = client.post("/api/encounters/import", json=plain).json()
    assert client.post(f"/api/encounters/{copy['id']}/undo", json={"expected_version": 1}).status_code == 200
    # Without the writes, nothing can be verified: refused.
    r = client.post("/api/encounters/import", json={k: v for k, v in exported.items() if k != "writes"})
    assert r.status_code == 422 and "cannot be verified" in r.json()["detail"]


@pytest.mark.parametrize(("change", "needle"), [
    (lambda x: x["events"].pop(0), "events[0] (surprise_determined): the engine would have produced "
                                   "encounter_started("),
    (lambda x: x["events"].append({"kind": "teleported"}), "events[7] (teleported): an extra event"),
    (lambda x: x["events"].append({"kind": "moved", "combatant": "goblin"}), "events[7] (moved): an extra event"),
    (lambda x: x["events"].insert(6, {"kind": "round_started", "round": "two", "surprise": False}),
     "events[6] (round_started): the engine would have produced turn_started("),
    (lambda x: x.update(batches=[2, 2]), "events[2] (initiative_rolled): batches[0] says the start made 2 "
                                              "events, but the engine made 7"),
    (lambda x: x.update(batches=[7, 1]), "batches: 2 sizes for 0 writes"),
    (lambda x: x.update(batches=[6]),
     "events[6] (turn_started): batches[0] says the start made 6 events, but the engine made 7"),
    (lambda x: x.update(players="orcs"), "players: 'orcs' is not a side"),
    (lambda x: x.update(scenario={"map": {}}), "scenario"),
    (lambda x: x.update(events=[]), "body.events"),
])
def test_import_rejects_a_bad_export(client: TestClient, change: Any, needle: str) -> None:
    eid = create(client, duel())["id"]
    exported = client.get(f"/api/encounters/{eid}/export").json()
    assert len(exported["events"]) == 7
    exported["batches"] = None  # the whole log as one step
    change(exported)
    r = client.post("/api/encounters/import", json=exported)
    assert r.status_code == 422 and needle in r.json()["detail"], r.text
    assert len(client.get("/api/encounters").json()) == 1


# ------------------------------------------------------------------------------------ previews
def test_moves_list_every_reachable_square_with_who_it_provokes(client: TestClient) -> None:
    eid = create(client, duel("off-guard"))["id"]
    moves = client.get(f"/api/encounters/{eid}/moves", params={"combatant": "valeros"}).json()
    assert moves["combatant"] == "valeros"
    by_square = {tuple(s["to"]): s for s in moves["squares"]}
    away = by_square[(0, 2)]
    assert away["cost_ft"] == 10 and away["path"] == [[1, 2], [0, 2]] and away["provokes"] == ["goblin"]
    assert (3, 2) not in by_square  # the goblin's square
    assert client.get(f"/api/encounters/{eid}/moves", params={"combatant": "x"}).status_code == 422
    assert client.get(f"/api/encounters/{eid}/moves").status_code == 422
    # In PFB nothing provokes.
    pfb = create(client, duel())["id"]
    squares = client.get(f"/api/encounters/{pfb}/moves?combatant=valeros").json()["squares"]
    assert squares and all(not s["provokes"] for s in squares)


def test_preview_move(client: TestClient) -> None:
    scn = duel("off-guard", map={"rows": ["..........", "..........", "..........", "....#.....",
                                          "..........", "..........", "..........", ".........."]},
               more=[{"id": "archer", "side": "goblins", "stats": "goblin-archer", "position": [6, 3],
                      "initiative": 1}])
    eid = create(client, scn)["id"]
    before = _state(client, eid)
    p = client.post(f"/api/encounters/{eid}/preview/move", json={"combatant": "valeros", "to": [2, 3]}).json()
    assert p["legal"] and p["reason"] is None and p["path"] == [[2, 3]] and p["cost_ft"] == 5
    assert p["provokes"] == [{"by": "goblin", "square": [2, 2]}]
    cover = {c["target"]: c for c in p["cover"]}
    assert set(cover) == {"goblin", "archer"}
    assert cover["archer"]["degree"] == "cover" and cover["archer"]["ac_bonus"] > 0 and "(4,3)" in cover["archer"][
        "reason"]
    assert cover["goblin"]["degree"] == "none" and cover["goblin"]["ac_bonus"] == 0
    far = client.post(f"/api/encounters/{eid}/preview/move", json={"combatant": "valeros", "to": [9, 7]}).json()
    assert not far["legal"] and "no legal path" in far["reason"] and far["path"] == [] and far["cost_ft"] is None
    other = client.post(f"/api/encounters/{eid}/preview/move", json={"combatant": "goblin", "to": [5, 2]}).json()
    assert not other["legal"] and "valeros's turn" in other["reason"] and other["cost_ft"] == 10
    assert _state(client, eid) == before
    r = client.post(f"/api/encounters/{eid}/preview/move", json={"combatant": "valeros", "to": [1]})
    assert r.status_code == 422 and "body.to" in r.json()["detail"]


def test_preview_attack(client: TestClient) -> None:
    eid = create(client, duel(more=[{"id": "far", "side": "goblins", "stats": "goblin", "position": [8, 7],
                                     "initiative": 1}]))["id"]
    p = client.post(f"/api/encounters/{eid}/preview/attack", json={"attacker": "valeros", "target": "goblin"}).json()
    assert p["legal"] and p["reason"] is None
    assert p["bonus"] == 5 and p["target_number"] == 15 and p["defense_name"] == "AC"
    assert {"source": "Str", "value": 3} in p["modifiers"]
    assert p["defense_explanation"] == "10 + armor 2 + shield 1 + Dex 2"
    assert p["cover"] == {"degree": "none", "reason": "no line is blocked"} and p["concealment"] == 0
    odds = p["odds"]
    assert odds["hit"] == pytest.approx(0.55) and odds["crit"] == pytest.approx(0.055)
    assert 0 < odds["drop_chance"] < odds["hit"] and odds["mean_damage"] > 0
    far = client.post(f"/api/encounters/{eid}/preview/attack", json={"attacker": "valeros", "target": "far"}).json()
    assert not far["legal"] and "beyond valeros's reach" in far["reason"] and far["odds"] is None
    theirs = client.post(f"/api/encounters/{eid}/preview/attack",
                         json={"attacker": "goblin", "target": "valeros", "attack": "short-sword-small"}).json()
    assert not theirs["legal"] and "valeros's turn" in theirs["reason"] and theirs["odds"] is not None
    r = client.post(f"/api/encounters/{eid}/preview/attack", json={"attacker": "nobody", "target": "goblin"})
    assert r.status_code == 422 and "attacker: no combatant 'nobody'" in r.json()["detail"]


# ------------------------------------------------------------------------------------ live updates and pages
def test_websocket_tells_the_new_version_after_each_change(client: TestClient) -> None:
    eid = create(client, duel())["id"]
    with client.websocket_connect(f"/api/encounters/{eid}/ws") as ws:
        act(client, eid, {"kind": "move", "to": [2, 5]}, 1)
        assert ws.receive_json() == {"type": "state", "version": 2}
        client.post(f"/api/encounters/{eid}/undo", json={"expected_version": 2})
        assert ws.receive_json() == {"type": "state", "version": 3}
        assert act(client, eid, {"kind": "move", "to": [9, 9]}, 3).status_code == 422  # no change, no message
        client.post(f"/api/encounters/{eid}/redo", json={"expected_version": 3})
        assert ws.receive_json() == {"type": "state", "version": 4}


def test_websocket_for_an_unknown_encounter_is_refused(client: TestClient) -> None:
    with pytest.raises(WebSocketDisconnect) as info, client.websocket_connect("/api/encounters/nope/ws") as ws:
        ws.receive_json()
    assert info.value.code == 4404


def test_pages_are_served(client: TestClient) -> None:
    eid = create(client, duel())["id"]
    pid = client.get(f"/api/encounters/{eid}").json()["player_id"]
    for path, name in (("/", "index.html"), (f"/table/{eid}", "table.html"), (f"/player/{pid}", "table.html")):
        r = client.get(path)
        if (STATIC / name).is_file():
            assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        else:
            assert r.status_code == 404
    assert client.get("/static/no-such-file.js").status_code == 404
    assert "/api/encounters/{eid}/actions" in client.get("/openapi.json").json()["paths"]


def test_a_yaml_value_json_cannot_hold_is_rejected(client: TestClient) -> None:
    yaml_text = "name: 2024-05-01\nmap: {width: 6, height: 6}\ncombatants:\n" \
                "  - {id: a, side: x, stats: fighter, position: [0, 0]}\n" \
                "  - {id: b, side: y, stats: goblin, position: [5, 5]}\n"
    r = client.post("/api/encounters", json={"scenario_yaml": yaml_text})
    assert r.status_code == 422 and "only JSON values" in r.json()["detail"]


def test_nan_in_an_import_is_rejected(client: TestClient) -> None:
    eid = create(client, duel())["id"]
    text = client.get(f"/api/encounters/{eid}/export").text.replace('"name":"duel"', '"name":"duel","x":NaN', 1)
    r = client.post("/api/encounters/import", content=text, headers={"content-type": "application/json"})
    assert r.status_code == 422 and "only JSON values" in r.json()["detail"]
    assert client.get(f"/api/encounters/{eid}/log").status_code == 200


def test_simulations_give_win_rates_with_intervals_and_name_the_engine(client: TestClient) -> None:
    """The designers' lab over HTTP: same seed, same numbers; the engine and why; bad input is a 422."""
    r = client.post("/api/simulations", json={"example": "ogre-charge", "n": 40, "seed": 3})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["engine"] == "fast" and body["n"] == 40
    assert sum(s["wins"] for s in body["sides"]) + body["draws"] + body["timeouts"] == 40
    assert all(s["low"] <= s["rate"] <= s["high"] for s in body["sides"])
    again = client.post("/api/simulations", json={"example": "ogre-charge", "n": 40, "seed": 3,
                                                   "engine": "reference"}).json()
    assert {k: v for k, v in again.items() if not k.startswith("engine")} == \
        {k: v for k, v in body.items() if not k.startswith("engine")}
    off = client.post("/api/simulations", json={"example": "epic-path-splash", "n": 3})
    assert off.status_code == 200 and off.json()["engine"] == "reference"
    assert "policy components the kernel does not implement" in off.json()["engine_reason"]
    refused = client.post("/api/simulations", json={"example": "epic-path-splash", "n": 3, "engine": "fast"})
    assert refused.status_code == 422 and "the fast path cannot play this scenario" in refused.json()["detail"]
    too_many = client.post("/api/simulations", json={"example": "epic-path-splash", "n": 5000})
    assert too_many.status_code == 422 and "at most 2000" in too_many.json()["detail"]
    bad = client.post("/api/simulations", json={"scenario": {"map": {"width": 3}}, "n": 5})
    assert bad.status_code == 422 and bad.json()["detail"].startswith("scenario")
    assert client.post("/api/simulations", json={"example": "ogre-charge", "n": 0}).status_code == 422
