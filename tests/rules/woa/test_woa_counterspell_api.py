"""WOA-INIT-22/23 through the HTTP API: the declaration's options list the ready at the caster, the turn's options
list the readied counterspell (``ready`` with ``counterspell: true``), posted like any action; the caster's fireball
is then ruined."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.helpers import act, create, gm_headers

from d20combat.server.app import create_app


def caster(name: str, **attributes: int) -> dict[str, Any]:
    return {"name": name, "hp": 30, "attack_bonus": 2, "abilities": {"int": 16, "dex": 10}, "saves": {"ref": 1},
            "skills": {"spellcraft": 9}, "attributes": attributes, "attacks": [{"weapon": "dagger"}]}


SCENARIO: dict[str, Any] = {
    "ruleset": "worlds-of-adventure", "map": {"width": 12, "height": 12}, "surprise": {"surprised": []},
    "combatants": [
        {"id": "wizard", "side": "heroes", "position": [1, 1], "stats": caster("wizard", spell_fireball=1)},
        {"id": "shaman", "side": "monsters", "position": [10, 10], "stats": caster("shaman", spell_fireball=1)},
    ],
}


@pytest.fixture
def gm(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(tmp_path / "table.db")
    with TestClient(app, headers=gm_headers(app)) as client:
        yield client
    app.state.store.close()


def decision(client: TestClient, eid: str) -> dict[str, Any]:
    out: dict[str, Any] = client.get(f"/api/encounters/{eid}/decision").json()
    return out


def test_woa_init_22_23_a_readied_counterspell_through_the_api(gm: TestClient) -> None:
    """WOA-INIT-22/23: declare ready at the shaman, ready the counterspell from the turn's options, and the shaman's
    fireball (Spellcraft 12 + 9 = 21 vs 18) is ruined."""
    eid = create(gm, SCENARIO, seed=1)["id"]
    d = decision(gm, eid)
    ready = {"kind": "declare", "standard": "ready", "move": "move", "full_round": "", "target": "shaman",
             "after": None}
    assert d["phase"] == "declare" and ready in d["options"]
    assert act(gm, eid, ready, d["version"]).status_code == 200
    d = decision(gm, eid)
    r = act(gm, eid, {"kind": "declare", "full_round": "cast_spell"}, d["version"], ["d20=15", "d20=5"])
    assert r.status_code == 200, r.text
    d = decision(gm, eid)
    assert d["actor"] == "wizard" and d["phase"] == "turn"
    offered = [o for o in d["options"] if o["kind"] == "ready" and o.get("counterspell") is True]
    assert offered == [{**offered[0], "trigger": "shaman", "counterspell": True}]
    r = act(gm, eid, {"kind": "ready", "trigger": "shaman", "counterspell": True}, d["version"])
    assert r.status_code == 200, r.text
    assert act(gm, eid, {"kind": "end_turn"}, decision(gm, eid)["version"]).status_code == 200
    d = decision(gm, eid)
    assert d["actor"] == "shaman"
    r = act(gm, eid, {"kind": "cast_spell", "spell": "fireball", "target": "wizard"}, d["version"], ["d20=12"])
    assert r.status_code == 200, r.text
    texts = [e["text"] for e in r.json()["events"]]
    assert any("ruined by wizard's counterspell" in t for t in texts)
