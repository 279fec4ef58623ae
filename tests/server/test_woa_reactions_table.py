"""Issue 16 at the GM's table: each creature's combat reactions left this round and its budget (WOA-REACT-02) in the
state — every creature for the GM, the players' own side for them — generic over the reactions component's per-round
pool; the reaction prompts asked before an attack roll (block, dodge) with the budget left; and the AI answering the
reaction being asked for, whichever side's (``POST /ai`` with ``until: "reaction"``)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from tests.server.helpers import act, create, duel


def _scenario(warrior: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "name": "the ford", "ruleset": "worlds-of-adventure", "map": {"width": 10, "height": 6},
        "combatants": [
            {"id": "brenna", "name": "Brenna", "side": "heroes", "position": [2, 2],
             "stats": {"name": "warrior", "hp": 30, "attack_bonus": 6, "shield": "heavy-wooden-shield",
                       "attributes": {"warrior_level": 6}, "attacks": [{"weapon": "longsword"}],
                       **(warrior or {})}},
            {"id": "orc", "name": "Orc", "side": "orcs", "position": [3, 2],
             "stats": {"name": "orc", "hp": 8, "attack_bonus": 2, "attacks": [{"weapon": "greataxe"}]}},
        ],
    }


def _version(client: TestClient, eid: str) -> int:
    return int(client.get(f"/api/encounters/{eid}/state").json()["version"])


def _reactions(state: dict[str, Any]) -> dict[str, Any]:
    return {c["id"]: c["reactions"] for c in state["combatants"]}


def _orc_attacks(client: TestClient, warrior: dict[str, Any] | None = None) -> dict[str, Any]:
    """Both declare; the orc rolls 20 and attacks Brenna: the answer is Brenna's combat-reaction prompt."""
    created = create(client, _scenario(warrior), seed=1)
    eid = created["id"]
    r = act(client, eid, {"kind": "declare", "standard": "attack", "move": "move", "target": "orc"},
            _version(client, eid))
    assert r.status_code == 200, r.text
    r = act(client, eid, {"kind": "declare", "standard": "attack", "move": "move", "target": "brenna"},
            _version(client, eid), ["d20=2", "d20=20"])
    assert r.status_code == 200, r.text
    r = act(client, eid, {"kind": "attack", "target": "brenna"}, _version(client, eid))
    assert r.status_code == 200, r.text
    assert r.json()["pending"]["reactor"] == "brenna"
    return {**created, **r.json()}


def test_the_state_lists_each_creatures_reactions_left_and_its_budget(client: TestClient) -> None:
    """WOA-REACT-02: 1, +1 at BAB +6 — Brenna (BAB +6) has 2, the orc (BAB +2) 1; the GM sees both."""
    got = _orc_attacks(client)
    assert _reactions(got["state"]) == {"orc": {"pool": "reactions", "left": 1, "budget": 1},
                                        "brenna": {"pool": "reactions", "left": 2, "budget": 2}}


def test_combat_reflexes_adds_one_to_the_budget_shown(client: TestClient) -> None:
    """WOA-REACT-04: +1 with Combat Reflexes."""
    got = _orc_attacks(client, {"feats": ["Combat Reflexes"]})
    assert _reactions(got["state"])["brenna"] == {"pool": "reactions", "left": 3, "budget": 3}


def test_the_block_prompt_tells_the_budget_left_and_blocking_spends_one(client: TestClient) -> None:
    """WOA-REACT-02/22/23: the prompt's detail says "2 reactions left" and the block's DR; answering block spends one
    (the tracker's 1/2) and the damage is reduced by the block."""
    got = _orc_attacks(client)
    prompt = got["pending"]
    assert prompt["kind"] == "combat_reaction" and "block" in prompt["options"]
    assert prompt["detail"].startswith("2 reactions left; ") and "block: DR 5" in prompt["detail"]
    r = client.post(f"/api/encounters/{got['id']}/reactions",
                    json={"answer": "block", "dice": ["d20=15", "d12=9"], "expected_version": got["version"]})
    assert r.status_code == 200, r.text
    texts = "\n".join(e["text"] for e in r.json()["events"])
    assert "blocks orc's attack: DR 5" in texts and "1 reaction left" in texts
    assert "damage 4 = 1d12 9 − block DR 5" in texts and "→ brenna hp 30 → 26" in texts
    assert _reactions(r.json()["state"])["brenna"] == {"pool": "reactions", "left": 1, "budget": 2}


def test_the_players_see_only_their_own_sides_reactions(client: TestClient, anon: TestClient) -> None:
    """A foe's reactions left are the GM's: the players' view leaves them null."""
    got = _orc_attacks(client)
    players = anon.get(f"/api/play/{got['player_id']}/state").json()
    assert _reactions(players) == {"orc": None, "brenna": {"pool": "reactions", "left": 2, "budget": 2}}


def test_the_ai_answers_the_reaction_asked_for_on_either_side(client: TestClient) -> None:
    """The GM lets the AI answer Brenna's prompt (the players' side): one answer, one write; the attack goes on."""
    got = _orc_attacks(client)
    eid = got["id"]
    r = client.post(f"/api/encounters/{eid}/ai", json={"until": "reaction", "expected_version": got["version"]})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["pending"] is None
    assert any(e["text"].startswith("orc attacks brenna with greataxe") for e in body["events"])
    again = client.post(f"/api/encounters/{eid}/ai", json={"until": "reaction", "expected_version": body["version"]})
    assert again.status_code == 422 and "no reaction is being asked for" in again.json()["detail"]
    assert _version(client, eid) == body["version"]


def test_a_ruleset_without_a_per_round_budget_shows_none_and_epic_paths_aoo_shows(client: TestClient) -> None:
    """Generic: PFB has no reactions (PFB-RND-02) — null; epic-path's attack of opportunity is one a round
    (EP-AOO-12), its pool ``aoo``."""
    pfb = client.get(f"/api/encounters/{create(client, duel())['id']}/state").json()
    assert set(_reactions(pfb).values()) == {None}
    ep = client.get(f"/api/encounters/{create(client, duel('epic-path'))['id']}/state").json()
    assert _reactions(ep)["valeros"] == {"pool": "aoo", "left": 1, "budget": 1}
