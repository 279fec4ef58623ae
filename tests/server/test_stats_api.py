"""Issue 13, item 6: the state API's combatants carry their effective stats with explanations — every creature's in
the GM's view, only the players' own characters' in the players' view (a monster's numbers are the GM's) — and
static/stats.js draws them for the tracker."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.helpers import create, duel

from d20combat.server import stats as stats_module
from d20combat.server.models import StateView

STATS_JS = Path(stats_module.__file__).with_name("static") / "stats.js"


def _lurking() -> dict[str, Any]:
    """The duel of the players' tests with a hidden goblin ("Skulker") the heroes cannot see."""
    return duel("off-guard", more=[
        {"id": "skulker", "name": "Skulker", "side": "goblins", "stats": "goblin", "position": [6, 2],
         "initiative": 3, "conditions": ["hidden"]},
        {"id": "kyra", "name": "Kyra", "side": "heroes", "stats": "cleric", "position": [1, 2], "initiative": 4,
         "conditions": ["fatigued"]}])


def _player_state(client: TestClient, anon: TestClient, eid: str) -> dict[str, Any]:
    pid = client.get(f"/api/encounters/{eid}").json()["player_id"]
    out: dict[str, Any] = anon.get(f"/api/play/{pid}/state").json()
    return out


def test_the_gm_sees_every_creatures_stats(client: TestClient) -> None:
    eid = create(client, _lurking(), seed=1)["id"]
    state = client.get(f"/api/encounters/{eid}/state").json()
    StateView.model_validate(state)
    by_id = {c["id"]: c["stats"] for c in state["combatants"]}
    assert set(by_id) == {"valeros", "goblin", "skulker", "kyra"} and all(by_id.values())
    assert by_id["goblin"]["saves"]["fort"] == {"value": 3, "explain": "Fort +3 = base 2 + Con 1"}
    assert by_id["kyra"]["abilities"]["wis"] == {"value": 2, "explain": "Wis +2 (16, fatigued −2)"}
    assert by_id["kyra"]["speed"] == {"value": 15, "explain": "speed 15 ft (20, fatigued −5 ft)"}
    assert by_id["valeros"]["ac"] == {"value": 17, "explain": "AC 17 = 10 + armor 4 + shield 2 + Dex 1"}
    assert set(by_id["valeros"]["defenses"]) == {"off-guard", "touch"}


def test_the_players_see_only_their_own_characters_stats(client: TestClient, anon: TestClient) -> None:
    eid = create(client, _lurking(), seed=1)["id"]
    state = _player_state(client, anon, eid)
    StateView.model_validate(state)
    by_id = {c["id"]: c["stats"] for c in state["combatants"]}
    assert set(by_id) == {"valeros", "goblin", "kyra"}
    assert by_id["goblin"] is None
    assert by_id["valeros"]["saves"]["will"] == {"value": 1, "explain": "Will +1 = Wis 1"}
    assert by_id["kyra"]["abilities"]["con"]["explain"] == "Con +1 (14, fatigued −2)"
    text = json.dumps(state)
    assert "base 2" not in text and "Skulker" not in text and "skulker" not in text  # the goblins' printed saves
    assert client.get(f"/api/encounters/{eid}/state", params={"view": "player"}).json()["combatants"] == \
        state["combatants"]


def test_an_explanation_naming_an_unseen_creature_is_cut_to_its_number(
        client: TestClient, anon: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hero's numbers may one day name their source ("hexed by Skulker"): the players' view keeps the number and
    drops the words when the source is a creature they cannot see."""
    real = stats_module.effective_stats

    def hexed(enc: Any, cid: str) -> dict[str, Any]:
        out = real(enc, cid)
        out["ac"] = {**out["ac"], "explain": out["ac"]["explain"] + " (hexed by Skulker)"}
        return out

    monkeypatch.setattr(stats_module, "effective_stats", hexed)
    eid = create(client, _lurking(), seed=1)["id"]
    valeros = next(c for c in _player_state(client, anon, eid)["combatants"] if c["id"] == "valeros")
    assert valeros["stats"]["ac"] == {"value": 17, "explain": "AC 17"}
    assert valeros["stats"]["saves"]["will"]["explain"] == "Will +1 = Wis 1"
    gm = next(c for c in client.get(f"/api/encounters/{eid}/state").json()["combatants"] if c["id"] == "valeros")
    assert gm["stats"]["ac"]["explain"].endswith("(hexed by Skulker)")


def test_the_openapi_schema_documents_the_stats(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    assert "stats" in schemas["CombatantView"]["properties"]
    assert set(schemas["StatsOut"]["required"]) == {"abilities", "ac", "defenses", "speed", "saves"}


NODE_RENDER = """
const { renderStats } = require(process.argv[1]);
function el(tag) {
  return { tag, children: [], dataset: {}, className: "", textContent: "", title: "",
           append(...xs) { this.children.push(...xs); } };
}
const doc = { createElement: el };
const stats = JSON.parse(process.argv[2]);
function walk(n, out) {
  if (typeof n === "string") { out.push(["text", n]); return out; }
  out.push([n.tag, n.textContent, n.title, n.dataset.testid || ""]);
  n.children.forEach((c) => walk(c, out));
  return out;
}
console.log(JSON.stringify({ tree: walk(renderStats(stats, doc), []), none: renderStats(null, doc) }));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_stats_js_renders_every_number_with_its_explanation(client: TestClient) -> None:
    eid = create(client, _lurking(), seed=1)["id"]
    kyra = next(c for c in client.get(f"/api/encounters/{eid}/state").json()["combatants"] if c["id"] == "kyra")
    run = subprocess.run(["node", "-e", NODE_RENDER, str(STATS_JS), json.dumps(kyra["stats"])],
                         capture_output=True, text=True, timeout=30, check=True)
    out = json.loads(run.stdout)
    assert out["none"] is None
    spans = {testid: (text, title) for tag, text, title, testid in (n for n in out["tree"] if n[0] == "span")}
    assert spans["stat-ac"] == ("AC 16", "AC 16 = 10 + armor 5 + shield 2 − Dex 1")
    assert spans["stat-speed"] == ("15 ft", "speed 15 ft (20, fatigued −5 ft)")
    assert spans["stat-wis"] == ("Wis +2", "Wis +2 (16, fatigued −2)")
    assert spans["stat-will"][0] == "Will +2" and spans["stat-touch"][0] == "touch 9"
    written = [text for tag, text, *_ in out["tree"] if tag == "li"]
    assert "Str +1 (14, fatigued −2)" in written and len(written) == 1 + 2 + 1 + 4 + 6
