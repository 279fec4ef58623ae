"""Issue 13, item 2 (waypoints) and item 6 (reasons for clicks): ``POST …/preview/move`` with ``via`` finds the
cheapest legal path through the waypoints in order (PFB-MOVE-06..24), the move is then made with that explicit
path, and a square the mover cannot reach says why in words."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from tests.server.helpers import act, create

ROWS = [
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "~~~~~~~~~~",
    "......#...",
    "..........",
]


def scenario(ruleset: str = "pathfinder-beginner", goblin: tuple[int, int] = (8, 3)) -> dict[str, Any]:
    return {
        "name": "waypoints", "ruleset": ruleset, "map": {"rows": ROWS},
        "combatants": [
            {"id": "valeros", "name": "Valeros", "side": "heroes", "stats": "fighter", "position": [1, 1],
             "initiative": 20},
            {"id": "kyra", "name": "Kyra", "side": "heroes", "stats": "fighter", "position": [1, 2],
             "initiative": 10},
            {"id": "goblin", "side": "goblins", "stats": "goblin", "position": list(goblin), "initiative": 5},
        ],
        "surprise": {"surprised": []},
    }


def preview(client: TestClient, eid: str, to: list[int], via: list[list[int]] | None = None,
            who: str = "valeros") -> dict[str, Any]:
    body: dict[str, Any] = {"combatant": who, "to": to}
    if via is not None:
        body["via"] = via
    r = client.post(f"/api/encounters/{eid}/preview/move", json=body)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def assert_walkable(start: list[int], path: list[list[int]]) -> None:
    here = start
    for step in path:
        assert max(abs(step[0] - here[0]), abs(step[1] - here[1])) == 1, (here, step)
        here = step


def test_via_takes_the_cheapest_path_through_the_waypoints_in_order(client: TestClient) -> None:
    """PFB-MOVE-06/16: the detour through (3,1) costs 10 ft there and 15 ft (two diagonals) on to (1,3)."""
    eid = create(client, scenario())["id"]
    direct = preview(client, eid, [3, 1])
    assert direct["legal"] and direct["cost_ft"] == 10
    p = preview(client, eid, [2, 3], via=[[3, 1]])
    assert p["legal"] and p["reason"] is None
    assert p["path"][:2] == [[2, 1], [3, 1]] and p["path"][-1] == [2, 3]
    assert_walkable([1, 1], p["path"])
    assert p["cost_ft"] == 10 + 10  # (3,1) → (2,3): one diagonal (the first: 5 ft) and one straight
    cheapest = preview(client, eid, [2, 3])
    assert cheapest["legal"] and cheapest["cost_ft"] < p["cost_ft"]
    # two waypoints, in the order given: a different path from the same waypoints reversed
    there = preview(client, eid, [1, 3], via=[[3, 1], [3, 3]])
    assert there["legal"] and there["cost_ft"] == 30
    assert there["path"].index([3, 1]) < there["path"].index([3, 3])
    back = preview(client, eid, [1, 3], via=[[3, 3], [3, 1]])  # 15 + 10 + 15 ft
    assert not back["legal"] and "5 ft of the move's 30 ft are left" in back["reason"]


def test_the_diagonal_counter_runs_on_across_waypoints(client: TestClient) -> None:
    """PFB-MOVE-16a: the second diagonal costs 10 ft even when a waypoint sits between the two."""
    eid = create(client, scenario())["id"]
    p = preview(client, eid, [3, 3], via=[[2, 2]])
    assert p["legal"] and p["path"] == [[2, 2], [3, 3]] and p["cost_ft"] == 15
    assert preview(client, eid, [3, 3])["cost_ft"] == 15


def test_the_move_is_made_with_the_previewed_path(client: TestClient) -> None:
    eid = create(client, scenario())["id"]
    state = client.get(f"/api/encounters/{eid}/state").json()
    p = preview(client, eid, [2, 3], via=[[3, 1]])
    assert client.get(f"/api/encounters/{eid}/state").json() == state  # a preview changes nothing
    r = act(client, eid, {"kind": "move", "path": p["path"]}, state["version"])
    assert r.status_code == 200, r.text
    after = client.get(f"/api/encounters/{eid}/state").json()
    me = next(c for c in after["combatants"] if c["id"] == "valeros")
    assert me["position"] == [2, 3] and after["version"] == state["version"] + 1
    moved = [e for e in client.get(f"/api/encounters/{eid}/log").json() if e["kind"] == "moved"]
    assert moved and "20" in moved[-1]["text"]


def test_an_ally_may_be_a_waypoint_but_not_the_end(client: TestClient) -> None:
    """PFB-MOVE-12: an ally's square may be passed, not ended in."""
    eid = create(client, scenario())["id"]
    p = preview(client, eid, [1, 3], via=[[1, 2]])
    assert p["legal"] and p["path"] == [[1, 2], [1, 3]] and p["cost_ft"] == 10
    end = preview(client, eid, [1, 2])
    assert not end["legal"] and "(1,2) is occupied by Kyra" in end["reason"]


def test_refused_waypoints_say_why(client: TestClient) -> None:
    eid = create(client, scenario())["id"]
    wall = preview(client, eid, [1, 3], via=[[6, 6]])
    assert not wall["legal"] and wall["reason"] == "waypoint 1: (6,6) is a wall" and wall["path"] == []
    enemy = preview(client, eid, [1, 3], via=[[8, 3]])
    assert not enemy["legal"] and "waypoint 1: (8,3) is occupied by goblin" in enemy["reason"]
    far = preview(client, eid, [1, 3], via=[[8, 1]])
    assert not far["legal"] and far["cost_ft"] is None
    assert far["reason"].startswith("waypoint 1 (8,1) is 35 ft away") and "costs 35 ft" in far["reason"]
    # the first leg uses 25 of the 30 ft: the destination is then out of reach
    late = preview(client, eid, [1, 3], via=[[6, 1]])
    assert not late["legal"] and "5 ft of the move's 30 ft are left" in late["reason"]
    off = preview(client, eid, [1, 3], via=[[10, 1]])
    assert off["reason"] == "waypoint 1: (10,1) is off the 10×8 map"
    same = preview(client, eid, [1, 1])
    assert not same["legal"] and "ends where it starts" in same["reason"]
    back = preview(client, eid, [1, 1], via=[[1, 1]])
    assert not back["legal"] and "ends where it starts" in back["reason"]
    # the destination given as the last waypoint too (the GM marked it): the same path as without it
    marked = preview(client, eid, [3, 1], via=[[3, 1]])
    assert marked["legal"] and marked["path"] == [[2, 1], [3, 1]] and marked["cost_ft"] == 10


def test_reasons_for_squares_out_of_reach(client: TestClient) -> None:
    """Issue 13, item 6: a wall, an occupied square and difficult terrain are named, not 'no legal path'."""
    eid = create(client, scenario())["id"]
    wall = preview(client, eid, [6, 6])
    assert wall["reason"] == "the destination: (6,6) is a wall"
    goblin = preview(client, eid, [8, 3])
    assert goblin["reason"] == "the destination: (8,3) is occupied by goblin"
    # (1,7) is 30 ft away, but row 5 is difficult terrain: 35 ft
    mud = preview(client, eid, [1, 7])
    assert not mud["legal"] and mud["path"] == []
    assert "(1,7) is 30 ft away" in mud["reason"] and "a move covers 30 ft" in mud["reason"]
    assert "costs 35 ft through difficult terrain" in mud["reason"]
    boxed = create(client, {**scenario(), "map": {"rows": ["..........", "...###....", "...#.#....", "...###....",
                                                            "..........", "..........", "..........",
                                                            ".........."]}})["id"]
    shut = preview(client, boxed, [4, 2])
    assert "no way there within 120 ft" in shut["reason"]
    big = create(client, {**scenario(), "map": {"width": 200, "height": 200}})["id"]
    far = preview(client, big, [199, 199])  # not searched: 198 diagonals (99 × 5 + 99 × 10 ft, PFB-MOVE-16b)
    assert far["reason"] == ("the destination (199,199) is 1485 ft away, no legal path within this move: "
                             "a move covers 30 ft")


def test_via_provocations_are_those_of_the_path_taken(client: TestClient) -> None:
    """A detour past the goblin provokes (off-guard: leaving a threatened square) where the cheapest path does not."""
    eid = create(client, scenario("off-guard", goblin=(5, 3)))["id"]
    direct = preview(client, eid, [2, 3])
    assert direct["legal"] and direct["provokes"] == []
    p = preview(client, eid, [2, 3], via=[[4, 2]])
    assert p["legal"] and [4, 2] in p["path"]
    assert {pr["by"] for pr in p["provokes"]} == {"goblin"} and [4, 2] in [pr["square"] for pr in p["provokes"]]


def test_bad_via_is_refused_naming_the_field(client: TestClient) -> None:
    eid = create(client, scenario())["id"]
    r = client.post(f"/api/encounters/{eid}/preview/move", json={"combatant": "valeros", "to": [1, 3], "via": [[1]]})
    assert r.status_code == 422 and "body.via" in r.json()["detail"]
    many = [[1, 2]] * 21
    r = client.post(f"/api/encounters/{eid}/preview/move", json={"combatant": "valeros", "to": [1, 3], "via": many})
    assert r.status_code == 422 and "body.via" in r.json()["detail"]
