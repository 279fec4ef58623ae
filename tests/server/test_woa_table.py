"""The declaration phase at the GM's table (worlds-of-adventure, WOA-CYCLE-14/25): the state lists who declared what
(the GM all, the players only their own side), the re-rolled initiative of the round, the ruling on a declaration
that can no longer be carried out, and the GM's override of it (``gm_rule_declaration``, a GM write)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from tests.server.helpers import act, create

SCENARIO: dict[str, Any] = {
    "name": "woa table", "ruleset": "worlds-of-adventure", "map": {"width": 12, "height": 8},
    "combatants": [
        {"id": "hero", "name": "Hero", "side": "heroes", "position": [1, 1],
         "stats": {"name": "hero", "hp": 20, "attack_bonus": 4, "abilities": {"dex": 14}, "saves": {"ref": 3},
                   "attacks": [{"weapon": "longsword"}]}},
        {"id": "ally", "name": "Ally", "side": "heroes", "position": [1, 3],
         "stats": {"name": "ally", "hp": 20, "attack_bonus": 4, "attacks": [{"weapon": "longsword"}]}},
        {"id": "orc", "side": "orcs", "count": 2, "positions": [[2, 1], [2, 3]],
         "stats": {"name": "orc", "hp": 8, "attack_bonus": 2, "attacks": [{"weapon": "club"}]}},
    ],
}


def _version(client: TestClient, eid: str) -> int:
    return int(client.get(f"/api/encounters/{eid}/state").json()["version"])


def _declare(client: TestClient, eid: str, declaration: dict[str, Any], dice: list[str] | None = None) -> Any:
    r = act(client, eid, {"kind": "declare", **declaration}, _version(client, eid), dice)
    assert r.status_code == 200, r.text
    return r.json()


def _gm(client: TestClient, eid: str, edit: dict[str, Any]) -> Any:
    return client.post(f"/api/encounters/{eid}/gm", json={"edit": edit, "expected_version": _version(client, eid)})


def _round_one(client: TestClient) -> str:
    """Everyone declares; the orcs roll 20 (one roll for their side, WOA-CYCLE-20) and act first."""
    eid = create(client, SCENARIO, seed=1)["id"]
    _declare(client, eid, {"standard": "attack", "move": "move", "target": "orc-1"})
    _declare(client, eid, {"standard": "attack", "move": "move", "target": "orc-2"})
    _declare(client, eid, {"standard": "attack", "move": "move", "target": "hero"})
    _declare(client, eid, {"move": "move"}, dice=["d20=2", "d20=1", "d20=20"])
    return eid


def test_the_gm_sees_every_declaration_the_players_only_their_sides(client: TestClient) -> None:
    """WOA-CYCLE-14: declarations are simultaneous — the players' view and log never show a foe's."""
    eid = create(client, SCENARIO, seed=1)
    gid, pid = eid["id"], eid["player_id"]
    _declare(client, gid, {"standard": "attack", "move": "move", "target": "orc-1"})
    _declare(client, gid, {"move": "move"})
    _declare(client, gid, {"full_round": "charge", "target": "hero"})
    gm = client.get(f"/api/encounters/{gid}/state").json()
    assert [(d["combatant"], d["text"]) for d in gm["declarations"]] == [
        ("hero", "attack and move — at orc-1"), ("ally", "move"), ("orc-1", "charge — at Hero")]
    assert gm["declaring"] == ["orc-2"] and gm["initiative_rolls"] == []
    players = client.get(f"/api/play/{pid}/state").json()
    assert [d["combatant"] for d in players["declarations"]] == ["hero", "ally"]
    log = client.get(f"/api/play/{pid}/log").json()
    declared = [e["text"] for e in log if e["kind"] == "declared"]
    assert declared == ["hero declares attack and move — at orc-1", "ally declares move"]
    assert any(e["kind"] == "declared" and e["event"]["combatant"] == "orc-1"
               for e in client.get(f"/api/encounters/{gid}/log").json())


def test_the_reroll_of_the_round_is_in_the_state_in_the_order_of_play(client: TestClient) -> None:
    """WOA-CYCLE-02/17/20: after the last declaration everyone rolls; the state lists the totals, highest first."""
    eid = _round_one(client)
    state = client.get(f"/api/encounters/{eid}/state").json()
    rolls = state["initiative_rolls"]
    assert [r["combatant"] for r in rolls] == state["order"][:4]
    assert rolls[0]["combatant"] in ("orc-1", "orc-2") and rolls[0]["total"] == 20
    hero = next(r for r in rolls if r["combatant"] == "hero")
    assert hero["total"] == 2 + 2 + 3 - 2 and hero["explanation"].startswith("5 = d20 2")
    assert len(state["declarations"]) == 4 and state["declaring"] == []


def _orc_down_before_the_heros_turn(client: TestClient) -> str:
    """The orcs act first (in the order their tie fell); orc-1 is felled by the GM on its turn."""
    eid = _round_one(client)
    for _ in range(2):
        active = client.get(f"/api/encounters/{eid}/state").json()["active"]
        assert active in ("orc-1", "orc-2")
        if active == "orc-1":
            r = _gm(client, eid, {"kind": "gm_damage", "target": "orc-1", "amount": 30, "why": "a falling stone"})
        else:
            r = act(client, eid, {"kind": "end_turn"}, _version(client, eid))
        assert r.status_code == 200, r.text
    return eid


def test_an_invalidated_declaration_is_ruled_and_shown(client: TestClient) -> None:
    """WOA-CYCLE-25: the hero's foe is down when its turn comes — the default ruling (a similar action at the foe
    nearest the declared one) is in the state with its reason."""
    eid = _orc_down_before_the_heros_turn(client)
    state = client.get(f"/api/encounters/{eid}/state").json()
    assert state["active"] == "hero"
    hero = next(d for d in state["declarations"] if d["combatant"] == "hero")
    assert hero["declared"] == "attack and move — at orc-1" and hero["declaration"]["target"] == "orc-2"
    assert "orc-1 is out of the fight" in hero["ruled"] and "WOA-CYCLE-25" in hero["ruled"] and not hero["by_gm"]


def test_the_gm_overrides_the_ruling(client: TestClient) -> None:
    """WOA-CYCLE-25: the GM rules otherwise — a move action only; the hero is held to it; undo takes it back."""
    eid = _orc_down_before_the_heros_turn(client)
    before = _version(client, eid)
    r = _gm(client, eid, {"kind": "gm_rule_declaration", "target": "hero", "move": "move", "why": "stunned"})
    assert r.status_code == 200, r.text
    assert [e["kind"] for e in r.json()["events"]] == ["gm_edited", "declaration_ruled"]
    hero = next(d for d in r.json()["state"]["declarations"] if d["combatant"] == "hero")
    assert hero["text"] == "move" and hero["by_gm"] and "the GM's ruling" in hero["ruled"]
    refused = act(client, eid, {"kind": "attack", "target": "orc-2"}, _version(client, eid))
    assert refused.status_code == 422 and "declared move this round, not attack" in refused.text
    assert client.post(f"/api/encounters/{eid}/undo", json={"expected_version": before + 1}).status_code == 200
    hero = next(d for d in client.get(f"/api/encounters/{eid}/state").json()["declarations"]
                if d["combatant"] == "hero")
    assert hero["declaration"]["target"] == "orc-2" and not hero["by_gm"]


def test_the_gms_ruling_is_checked_and_refused_naming_the_problem(client: TestClient) -> None:
    eid = _orc_down_before_the_heros_turn(client)
    version = _version(client, eid)
    cases = [({"target": "hero", "standard": "attack", "move": "move", "foe": "orc-1"}, "orc-1 is not a foe"),
             ({"target": "hero", "standard": "fly"}, "'fly' is not a standard action to declare"),
             ({"target": "orc-2", "move": "move"}, "orc-2's turn this round is over"),
             ({"target": "ghost"}, "gm_rule_declaration.target: no combatant 'ghost'")]
    for edit, words in cases:
        r = _gm(client, eid, {"kind": "gm_rule_declaration", **edit})
        assert r.status_code == 422 and words in r.json()["detail"], (edit, r.text)
    assert _version(client, eid) == version


def test_no_ruling_before_a_creature_declares_and_not_in_a_ruleset_that_declares_nothing(client: TestClient) -> None:
    eid = create(client, SCENARIO, seed=1)["id"]
    r = _gm(client, eid, {"kind": "gm_rule_declaration", "target": "hero", "move": "move"})
    assert r.status_code == 422 and "hero has not declared yet this round" in r.json()["detail"]
    pfb = create(client, {**SCENARIO, "ruleset": "pathfinder-beginner"}, seed=1)["id"]
    r = _gm(client, pfb, {"kind": "gm_rule_declaration", "target": "hero", "move": "move"})
    assert r.status_code == 422 and "declared nothing this round" in r.json()["detail"]


def test_players_cannot_rule_a_declaration(client: TestClient, anon: TestClient) -> None:
    """The ruling is a GM write: without the GM's key it is refused before anything is read; the players' routes
    write nothing."""
    created = create(client, SCENARIO, seed=1)
    eid, pid = created["id"], created["player_id"]
    _declare(client, eid, {"move": "move"})
    edit = {"kind": "gm_rule_declaration", "target": "hero", "move": ""}
    version = _version(client, eid)
    assert anon.post(f"/api/encounters/{eid}/gm", json={"edit": edit, "expected_version": version}
                     ).status_code == 401
    assert anon.post(f"/api/play/{pid}/gm", json={"edit": edit, "expected_version": version}).status_code in (404, 405)
    assert _version(client, eid) == version


def test_the_ruling_survives_export_and_verified_import(client: TestClient) -> None:
    eid = _orc_down_before_the_heros_turn(client)
    assert _gm(client, eid, {"kind": "gm_rule_declaration", "target": "hero"}).status_code == 200
    export = client.get(f"/api/encounters/{eid}/export").json()
    r = client.post("/api/encounters/import", json=export)
    assert r.status_code == 201, r.text
    hero = next(d for d in client.get(f"/api/encounters/{r.json()['id']}/state").json()["declarations"]
                if d["combatant"] == "hero")
    assert hero["text"] == "nothing" and hero["by_gm"]


def test_a_fixed_initiative_is_refused_naming_the_field(client: TestClient) -> None:
    """WOA-CYCLE-02/17: initiative is rolled anew every round; a scenario's fixed one is a 422 naming the field."""
    combatants = [dict(c) for c in SCENARIO["combatants"]]
    combatants[1]["initiative"] = 12
    r = client.post("/api/encounters", json={"scenario": {**SCENARIO, "combatants": combatants}})
    assert r.status_code == 422
    assert "combatants[1].initiative: worlds-of-adventure rolls initiative anew every round" in r.json()["detail"]


def test_the_woa_examples_are_offered_and_start_with_a_declaration(client: TestClient) -> None:
    """The duel opens on the declarations; the warband (the orcs caught by surprise) on Wren's surprise shot
    (WOA-CYCLE-07), the declarations once the aware have had theirs."""
    assert {"woa-warband", "woa-caster-duel"} <= set(client.get("/api/examples").json())
    eid = create(client, example="woa-caster-duel", seed=1)["id"]
    assert client.get(f"/api/encounters/{eid}/decision").json()["phase"] == "declare"
    eid = create(client, example="woa-warband", seed=1)["id"]
    d = client.get(f"/api/encounters/{eid}/decision").json()
    assert d["phase"] == "turn" and d["actor"] == "wren"
    for _ in range(4):  # wren, brenna, torvald, aldric pass; the orcs' turns pass by themselves
        assert act(client, eid, {"kind": "end_turn"}, _version(client, eid)).status_code == 200
    d = client.get(f"/api/encounters/{eid}/decision").json()
    assert d["phase"] == "declare" and d["actor"] == "brenna"


def test_the_surprise_attacks_come_before_round_1_at_the_table(client: TestClient) -> None:
    """WOA-CYCLE-07: with the orcs caught by surprise the table opens on the surprise attacks — the page's badge
    reads "surprise attacks" (PFB's reads "surprise round") — with the hero's turn, not a declaration; attacking an
    aware creature or moving is refused with the rule named; passing leads to round 1's declarations."""
    eid = create(client, {**SCENARIO, "surprise": {"surprised": ["orc-1", "orc-2"]}}, seed=1)["id"]
    st = client.get(f"/api/encounters/{eid}/state").json()
    assert st["surprise_round"] and st["surprise_phase"] == "surprise attacks" and st["combat_round"] == 1
    decision = client.get(f"/api/encounters/{eid}/decision").json()
    assert decision["actor"] == "hero" and decision["phase"] == "turn"
    r = act(client, eid, {"kind": "move", "to": [1, 2]}, _version(client, eid))
    assert r.status_code in (400, 409, 422) and "WOA-CYCLE-07" in r.text
    for _ in range(2):
        assert act(client, eid, {"kind": "end_turn"}, _version(client, eid)).status_code == 200
    st = client.get(f"/api/encounters/{eid}/state").json()
    assert not st["surprise_round"] and st["round"] == 2 and st["combat_round"] == 1 and st["declaring"]


def test_pfb_calls_its_surprise_phase_a_surprise_round(client: TestClient) -> None:
    """PFB-SURP-04: the same field under the baseline names its surprise round."""
    pfb = {**SCENARIO, "ruleset": "pathfinder-beginner", "surprise": {"surprised": ["orc-1", "orc-2"]}}
    eid = create(client, pfb, seed=1)["id"]
    st = client.get(f"/api/encounters/{eid}/state").json()
    assert st["surprise_round"] and st["surprise_phase"] == "surprise round"
