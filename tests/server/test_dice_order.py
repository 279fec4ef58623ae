"""Issue 13, item 1: the dice dialog offers the dice in the engine's order, every die named.

Under off-guard the concealment d% comes after a hit (CMV-CONC-08), so the old dialog's d%-first entry was
always refused; the page now asks the engine (POST …/preview/dice) for the next die as the GM types.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from tests.server.helpers import act, create, duel


def _fogged_duel() -> dict[str, Any]:
    scenario = duel("off-guard")
    scenario["map"] = {"rows": [".........", "...f.....", ".........", "........."]}
    scenario["combatants"][0]["position"] = [2, 1]
    scenario["combatants"][1]["position"] = [3, 1]  # the goblin stands in fog: 20 % concealment
    return scenario


def _probe(client: TestClient, eid: str, **body: Any) -> dict[str, Any]:
    r = client.post(f"/api/encounters/{eid}/preview/dice", json=body)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_cmv_conc_08_the_dialog_is_offered_d20_then_d_percent_then_damage(client: TestClient) -> None:
    eid = create(client, _fogged_duel(), seed=1)["id"]
    attack = {"kind": "attack", "target": "goblin"}
    first = _probe(client, eid, action=attack)
    assert first["next"]["sides"] == 20 and first["next"]["purpose"] == "attack valeros->goblin"
    second = _probe(client, eid, action=attack, dice=["d20=17"])
    assert second["next"]["sides"] == 100 and second["next"]["purpose"].startswith("concealment")
    third = _probe(client, eid, action=attack, dice=["d20=17", "50"])
    assert third["next"]["sides"] == 8 and third["next"]["purpose"] == "damage longsword"
    dropped = _probe(client, eid, action=attack, dice=["d20=17", "d100=50", "d8=6"])
    assert dropped["next"]["purpose"] == "death save goblin"  # the goblin drops: its save is the next die
    done = _probe(client, eid, action=attack, dice=["d20=17", "d100=50", "d8=6", "d20=12"])
    assert done["complete"] and [d["sides"] for d in done["typed"]] == [20, 100, 8, 20]
    # The dice the probe offered are exactly what the write accepts, in that order.
    version = client.get(f"/api/encounters/{eid}").json()["version"]
    r = act(client, eid, attack, version, ["d20=17", "d100=50", "d8=6", "d20=12"])
    assert r.status_code == 200, r.text


def test_the_old_dialogs_order_is_refused_naming_the_expected_die(client: TestClient) -> None:
    eid = create(client, _fogged_duel(), seed=1)["id"]
    wrong = _probe(client, eid, action={"kind": "attack", "target": "goblin"}, dice=["d100=50"])
    assert "the engine rolls a d20 here (attack valeros->goblin), but a d100 was typed" in wrong["error"]
    bad = client.post(f"/api/encounters/{eid}/preview/dice",
                      json={"action": {"kind": "attack", "target": "goblin"}, "dice": ["20", "d7=x"]})
    assert bad.status_code == 422 and "dice[1]" in bad.json()["detail"]
    both = client.post(f"/api/encounters/{eid}/preview/dice", json={"answer": "attack",
                                                                   "action": {"kind": "end_turn"}})
    assert both.status_code == 422 and "exactly one of action, answer" in both.json()["detail"]


def test_the_probe_changes_nothing_and_needs_the_gm_key(client: TestClient, anon: TestClient) -> None:
    eid = create(client, _fogged_duel(), seed=1)["id"]
    before = client.get(f"/api/encounters/{eid}/state").json()
    _probe(client, eid, action={"kind": "attack", "target": "goblin"}, dice=["d20=17", "50", "6"])
    assert client.get(f"/api/encounters/{eid}/state").json() == before
    r = anon.post(f"/api/encounters/{eid}/preview/dice", json={"action": {"kind": "end_turn"}})
    assert r.status_code == 401


def test_the_attack_preview_shows_the_weapons_damage_dice_and_threat_range(client: TestClient) -> None:
    """Issue 13, item 1: the GM sees which dice to pick up before rolling: Valeros's longsword 1d8+3, 19-20/×2."""
    eid = create(client, duel(), seed=1)["id"]
    p = client.post(f"/api/encounters/{eid}/preview/attack", json={"attacker": "valeros", "target": "goblin"}).json()
    assert p["weapon"]["name"] == "longsword"
    assert p["weapon"]["threat"] == "19-20/×2"
    assert p["weapon"]["damage"].startswith("1d8")


def test_the_charge_preview_lists_its_end_squares_with_the_engines_verdict(client: TestClient) -> None:
    """Issue 13, item 2 (PFB-CHG-09): the closest squares to attack from, each legal or not, with its line."""
    scenario = duel()
    scenario["map"] = {"width": 12, "height": 8}
    scenario["combatants"][1]["position"] = [8, 2]  # 30 ft away: a charge
    eid = create(client, scenario, seed=1)["id"]
    p = client.post(f"/api/encounters/{eid}/preview/charge", json={"attacker": "valeros", "target": "goblin"}).json()
    assert p["ends"] and any(e["legal"] for e in p["ends"])
    legal = next(e for e in p["ends"] if e["legal"])
    assert legal["path"][-1] == legal["to"] and legal["reason"] is None
    version = client.get(f"/api/encounters/{eid}").json()["version"]
    r = act(client, eid, {"kind": "charge", "target": "goblin", "to": legal["to"]}, version)
    assert r.status_code == 200, r.text
    wrong = client.post(f"/api/encounters/{eid}/preview/charge", json={"attacker": "valeros", "target": "nobody"})
    assert wrong.status_code == 422
