"""Issue 15, item 2: what the API gives the GM's page for Epic Path, and what it keeps from the players.

The map's impeded and blocked squares, each creature's action points, the round of the current combat, the
decision's ``offers`` (action point with this round's benefit, hold, ready, a splash weapon at a square, each
checked by the engine), the move previews' reasons on that terrain; the players' view without the other side's
action points and without invisible or faded foes.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from tests.server.helpers import act, create, duel

Json = dict[str, Any]

ROOM = {
    "name": "junk room", "ruleset": "epic-path",
    "map": {"rows": ["............", "....%%......", "....%%......", "......B.....", "......B.....",
                     "............", "............", "............"]},
    "surprise": {"surprised": []},
    "combatants": [
        {"id": "valeros", "name": "Valeros", "side": "heroes", "stats": "fighter", "position": [2, 5],
         "initiative": 20},
        {"id": "lem", "name": "Lem", "side": "heroes", "position": [1, 1], "initiative": 18,
         "stats": {"abilities": {"dex": 16}, "attack_bonus": 2, "hp": 18,
                   "attacks": [{"weapon": "alchemists-fire"}, {"weapon": "dagger"}], "wielding": "alchemists-fire"}},
        {"id": "gob-a", "name": "goblin", "side": "goblins", "stats": "goblin", "position": [3, 6],
         "initiative": 10},
        {"id": "gob-b", "name": "goblin", "side": "goblins", "stats": "goblin", "position": [9, 2],
         "initiative": 5},
    ],
}


def _offers(client: TestClient, eid: str) -> dict[str, Json]:
    d = client.get(f"/api/encounters/{eid}/decision").json()
    return {o["kind"]: o for o in d["offers"]}


def _state(client: TestClient, eid: str) -> Json:
    out: Json = client.get(f"/api/encounters/{eid}/state").json()
    return out


def test_the_map_lists_impeded_and_blocked_squares(client: TestClient) -> None:
    """EP-MOVE-05/11: `%` and `B` reach the page as their own lists."""
    eid = create(client, ROOM)["id"]
    m = _state(client, eid)["map"]
    assert m["impeded"] == [[4, 1], [4, 2], [5, 1], [5, 2]]
    assert m["blocked"] == [[6, 3], [6, 4]]
    assert m["walls"] == [] and m["difficult"] == []


def test_action_points_and_the_benefit_offered_this_round(client: TestClient) -> None:
    """EP-MISC-22/23: one point on entering the combat; the offer says what it buys in combat round 1."""
    eid = create(client, ROOM)["id"]
    st = _state(client, eid)
    assert {c["id"]: c["action_points"] for c in st["combatants"]} == {"valeros": 1, "lem": 1, "gob-a": 1, "gob-b": 1}
    assert st["combat_round"] == 1 == st["round"]
    ap = _offers(client, eid)["action_point"]
    assert ap["legal"] and ap["action"] == {"kind": "action_point"}
    assert "action point in combat round 1: an extra move action" in ap["detail"]
    assert _state(client, eid)["version"] == st["version"]  # offering it changed nothing
    r = act(client, eid, {"kind": "action_point"}, st["version"])
    assert r.status_code == 200, r.text
    after = r.json()["state"]
    assert next(c for c in after["combatants"] if c["id"] == "valeros")["action_points"] == 0
    assert after["turn"]["pools"]["move"] == 2
    ap = _offers(client, eid)["action_point"]
    assert not ap["legal"] and "no action point left" in ap["reason"] and ap["detail"] == ""


def test_hold_and_ready_are_offered_with_their_choices_and_refused_once_the_turn_began(client: TestClient) -> None:
    """EP-ACT-49 (hold before acting), EP-ACT-54 (ready: a standard action)."""
    eid = create(client, ROOM)["id"]
    offers = _offers(client, eid)
    assert offers["hold"]["legal"] and offers["hold"]["choices"]["after"] == ["lem", "gob-a", "gob-b"]
    ready = offers["ready"]
    assert ready["legal"] and ready["choices"]["trigger"] == ["any", "lem", "gob-a", "gob-b"]
    assert ready["choices"]["attack"] and ready["action"]["attack"] in ready["choices"]["attack"]
    assert "throw_splash" not in offers  # Valeros holds no flask
    v = _state(client, eid)["version"]
    assert act(client, eid, {"kind": "attack", "target": "gob-a"}, v, ["d20=2"]).status_code == 200
    offers = _offers(client, eid)
    assert not offers["hold"]["legal"] and "before it does anything" in offers["hold"]["reason"]
    assert not offers["ready"]["legal"] and "standard action is already used" in offers["ready"]["reason"]


def test_a_flask_in_hand_is_offered_at_a_square(client: TestClient) -> None:
    """EP-SPLASH-11: the throw at a square, a ranged attack against AC 5."""
    eid = create(client, ROOM)["id"]
    v = _state(client, eid)["version"]
    assert act(client, eid, {"kind": "end_turn"}, v).status_code == 200
    splash = _offers(client, eid)["throw_splash"]
    assert splash["legal"] and splash["action"]["attack"] == "alchemists-fire"
    v = _state(client, eid)["version"]
    r = act(client, eid, {"kind": "throw_splash", "attack": "alchemists-fire", "square": [9, 3]}, v,
            ["d20=1", "d8=3", "d20=1"])
    assert r.status_code == 200, r.text
    assert any("it lands in (9, 2), 1 square from (9, 3)" in e["text"] for e in r.json()["events"])


def test_move_previews_name_impeded_and_blocked_terrain(client: TestClient) -> None:
    """EP-MOVE-05/11: the reachable squares leave them out; a square asked for says why in words."""
    eid = create(client, ROOM)["id"]
    squares = {tuple(q["to"]) for q in client.get(f"/api/encounters/{eid}/moves?combatant=valeros").json()["squares"]}
    assert (3, 4) in squares and (4, 2) not in squares and (6, 4) not in squares
    url = f"/api/encounters/{eid}/preview/move"
    r = client.post(url, json={"combatant": "valeros", "to": [4, 2]}).json()
    assert not r["legal"] and "impeded terrain" in r["reason"] and "full-round action moves 5 ft" in r["reason"]
    r = client.post(url, json={"combatant": "valeros", "to": [6, 4]}).json()
    assert not r["legal"] and "blocked terrain" in r["reason"]


def test_a_creature_in_impeded_terrain_reaches_no_square_by_a_move(client: TestClient) -> None:
    """EP-MOVE-05: no ordinary movement out of impeded terrain; the wade is offered instead."""
    scn = {**ROOM, "combatants": [{**ROOM["combatants"][0], "position": [4, 2]}, *ROOM["combatants"][1:]]}
    eid = create(client, scn)["id"]
    assert client.get(f"/api/encounters/{eid}/moves?combatant=valeros").json()["squares"] == []
    r = client.post(f"/api/encounters/{eid}/preview/move", json={"combatant": "valeros", "to": [2, 4]}).json()
    assert not r["legal"] and "stands in impeded terrain" in r["reason"]
    kinds = {o["kind"] for o in client.get(f"/api/encounters/{eid}/decision").json()["options"]}
    assert "impeded_move" in kinds and "move" not in kinds


def test_players_see_their_own_action_points_only_and_no_invisible_or_faded_foe(client: TestClient,
                                                                                anon: TestClient) -> None:
    """The players' view: the other side's action points are the GM's; invisible and faded foes stay unseen
    (EP-CONC-14/37)."""
    scn = {**ROOM, "combatants": [*ROOM["combatants"],
                                  {"id": "ghost", "name": "Ghost", "side": "goblins", "stats": "goblin",
                                   "position": [9, 6], "initiative": 3, "conditions": ["invisible"]},
                                  {"id": "shade", "name": "Shade", "side": "goblins", "stats": "goblin",
                                   "position": [10, 6], "initiative": 2, "conditions": ["faded"]}]}
    summary = create(client, scn)
    st = anon.get(f"/api/play/{summary['player_id']}/state").json()
    aps = {c["id"]: c["action_points"] for c in st["combatants"]}
    assert aps == {"valeros": 1, "lem": 1, "gob-a": None, "gob-b": None}
    assert "ghost" not in st["order"] and "shade" not in st["order"]
    gm = {c["id"]: c["action_points"] for c in _state(client, summary["id"])["combatants"]}
    assert gm["ghost"] == 1 and gm["shade"] == 1
    assert anon.get(f"/api/encounters/{summary['id']}/decision").status_code == 401  # the offers are the GM's


def test_the_combat_round_restarts_after_the_surprise_round(client: TestClient) -> None:
    """EP-SURP-23: the round after the surprise round is still combat round 1 for action points; ``round`` keeps
    counting and ``combat_round`` says which round of this combat it is."""
    eid = create(client, {**ROOM, "surprise": {"surprised": ["gob-a", "gob-b"]}})["id"]
    st = _state(client, eid)
    assert st["surprise_round"] and (st["round"], st["combat_round"]) == (1, 1)
    for _ in range(10):
        if st["round"] == 2:
            break
        assert act(client, eid, {"kind": "end_turn"}, st["version"]).status_code == 200
        st = _state(client, eid)
    assert not st["surprise_round"] and (st["round"], st["combat_round"]) == (2, 1)
    assert "combat round 1:" in _offers(client, eid)["action_point"]["detail"]


def test_other_rulesets_get_no_offers(client: TestClient) -> None:
    """The offers come from the actions a ruleset registers: none of these kinds outside epic-path."""
    for ruleset in ("pathfinder-beginner", "off-guard", "skill-based"):
        eid = create(client, duel(ruleset))["id"]
        assert client.get(f"/api/encounters/{eid}/decision").json()["offers"] == [], ruleset
        assert all(c["action_points"] is None for c in _state(client, eid)["combatants"])
