"""The game master's table in a real browser: Playwright driving Debian's Chromium against a live server.

One encounter (the demo, goblin-ambush, with a fixed seed) is played through the page: move a token by
clicking along a legal path, attack with a typed d20 in the dice dialog (a wrong face first: the 422
is shown), read the explained result in the log, undo it, and check that the players' screen follows
live and hides the monsters' hp.
"""

from __future__ import annotations

import json
import os
import re
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("D20COMBAT_CHROMIUM", "/usr/bin/chromium")
"""Debian's Chromium (Playwright cannot download its own browsers here); ``D20COMBAT_CHROMIUM`` names another."""
if not Path(CHROMIUM).exists() and not os.environ.get("CI"):
    # tests/conftest.py repeats this reason at the end of the run (the "browser tests skipped" prefix).
    pytest.skip(f"browser tests skipped: {CHROMIUM} is missing (apt-get install chromium; Playwright cannot "
                f"download browsers here); CI installs it", allow_module_level=True)

import uvicorn  # noqa: E402
from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402

from d20combat.server.app import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
SEED = 2
KEY: list[str] = []
"""The server's GM key (one server per module)."""
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--no-first-run", "--disable-sync"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("table") / "table.db"
    port = _free_port()
    app = create_app(db)
    KEY.append(app.state.token)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("the server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        yield b
        b.close()


def call(base: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json", "Authorization": f"Bearer {KEY[-1]}"})
    with urllib.request.urlopen(req, timeout=10) as res:
        return json.loads(res.read())


def gm_url(url: str) -> str:
    """The GM's link: the key in the address sets the cookie (and the server redirects it away)."""
    return url + ("&" if "?" in url else "?") + f"token={KEY[-1]}"


def open_page(browser: Browser, url: str, *, gm: bool = True) -> Page:
    """A page in its own browser context: the GM's (with the key's cookie) or a player's (nothing)."""
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    page.set_default_timeout(8000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(gm_url(url) if gm else url)
    assert "token=" not in page.url
    expect(page.locator("body[data-ready='1']")).to_be_attached()
    assert not errors, errors
    return page


def hp_text(page: Page, cid: str) -> str:
    return page.get_by_test_id(f"hp-{cid}").inner_text().strip()


def test_gm_table_move_attack_undo_and_player_view(server: str, browser: Browser) -> None:
    # the index lists the examples and links to both views
    index = open_page(browser, server + "/")
    expect(index.get_by_test_id("example-select").locator("option[value='goblin-ambush']")).to_be_attached()
    summary = call(server, "POST", "/api/encounters", {"example": "goblin-ambush", "seed": SEED})
    eid = summary["id"]
    index.reload()
    expect(index.get_by_test_id(f"open-table-{eid}")).to_have_attribute("href", f"/table/{eid}")
    expect(index.get_by_test_id(f"open-player-{eid}")).to_have_attribute("href", f"/player/{summary['player_id']}")
    index.close()

    api = f"/api/encounters/{eid}"
    state = call(server, "GET", f"{api}/state")
    actor = state["active"]
    me = next(c for c in state["combatants"] if c["id"] == actor)
    page = open_page(browser, f"{server}/table/{eid}")
    expect(page.get_by_test_id("version")).to_have_text(str(state["version"]))
    expect(page.get_by_test_id(f"token-{actor}")).to_have_class(re.compile(r"\bactive\b"))
    expect(page.get_by_test_id(f"init-{actor}")).to_have_class(re.compile(r"\bactive\b"))
    expect(page.get_by_test_id("terrain").locator("[data-terrain='wall']").first).to_be_attached()
    expect(page.get_by_test_id("terrain").locator("[data-terrain='dark']").first).to_be_attached()

    # 1. move: click the token, the reachable squares are shaded with their cost; hover shows the path
    moves = call(server, "GET", f"{api}/moves?combatant={actor}")["squares"]
    safe = [q for q in moves if not q["provokes"] and 10 <= q["cost_ft"] <= 20]
    assert safe, "no square to move to without provoking"
    dest = min(safe, key=lambda q: (q["cost_ft"], q["to"]))
    c, r = dest["to"]
    page.get_by_test_id(f"token-{actor}").click()
    expect(page.get_by_test_id(f"reach-{c}-{r}")).to_have_attribute("data-cost", str(dest["cost_ft"]))
    expect(page.get_by_test_id("overlay").locator("[data-testid^='reach-']")).to_have_count(len(moves))
    page.get_by_test_id(f"sq-{c}-{r}").hover()
    expect(page.get_by_test_id("path")).to_be_attached()
    page.get_by_test_id(f"sq-{c}-{r}").click()
    preview = page.get_by_test_id("move-preview")
    expect(preview).to_contain_text(f"to ({c},{r})")
    expect(preview).to_contain_text(f"{dest['cost_ft']} ft")
    expect(page.get_by_test_id("move-provokes")).to_contain_text("no attack of opportunity")
    page.screenshot(path=str(_artifact("table.png")), full_page=True)
    page.get_by_test_id("map").screenshot(path=str(_artifact("map.png")))
    page.get_by_test_id("move-here").click()
    expect(page.get_by_test_id(f"token-{actor}")).to_have_attribute("data-position", f"{c},{r}")
    expect(page.get_by_test_id("log-entry").last).to_contain_text(f"({c},{r})")

    # 2. attack: click an enemy, read the breakdown and the odds, type the d20 in the dice dialog
    options = call(server, "GET", f"{api}/decision")["options"]
    attacks = [o for o in options if o["kind"] == "attack"]
    assert attacks, f"{actor} has no legal attack after moving"
    target = attacks[0]["target"]
    hp_before = hp_text(page, target)
    page.get_by_test_id(f"token-{target}").click()
    attack_preview = page.get_by_test_id("attack-preview")
    expect(page.get_by_test_id("attack-odds")).to_contain_text("hit")
    expect(page.get_by_test_id("attack-target-number")).to_have_text(re.compile(r"^\d+$"))
    expect(attack_preview).to_contain_text(me["name"])
    expect(page.get_by_test_id("attack-breakdown")).to_contain_text("attack bonus")
    expect(page.get_by_test_id("attack-weapon")).to_contain_text(re.compile(r"damage \d+d\d+.*threat \d+"))
    page.screenshot(path=str(_artifact("attack.png")), full_page=True)

    page.get_by_test_id("attack-button").click()
    dialog = page.get_by_test_id("dice-dialog")
    expect(dialog).to_be_visible()
    page.get_by_test_id("dice-mode-typed").check()
    # issue 13: the engine names the first die (the attack's d20), then each next one as faces are typed
    first_die = page.get_by_test_id("die-0")
    expect(first_die).to_have_attribute("data-sides", "20")
    expect(first_die).to_have_attribute("data-purpose", f"attack {actor}->{target}")
    first_die.fill("25")  # a d20 cannot show 25: said at once, and the server's 422 if sent; nothing changes
    first_die.press("Enter")
    expect(page.get_by_test_id("dice-error")).to_contain_text("cannot show 25")
    page.get_by_test_id("dice-submit").click()
    expect(page.get_by_test_id("dice-error")).to_contain_text("422")
    expect(page.get_by_test_id("dice-error")).to_contain_text("d20")
    version_before = page.get_by_test_id("version").inner_text()
    first_die.fill("17")
    first_die.dispatch_event("change")
    # a hit (or a threat) asks for its next die; a miss needs no other
    expect(page.locator("[data-testid='die-1'], [data-testid='dice-next']:has-text('Every die')").first
           ).to_be_visible()
    page.get_by_test_id("dice-submit").click()
    expect(dialog).to_be_hidden()
    attack_line = page.get_by_test_id("log").locator("[data-testid='log-entry']", has_text="d20 17")
    expect(attack_line).to_have_count(1)
    expect(attack_line).to_contain_text(f"{actor} attacks {target}")
    expect(page.get_by_test_id("version")).not_to_have_text(version_before)
    after_attack = page.get_by_test_id("version").inner_text()

    # 3. the players' screen: no monster hp, no controls; it follows the GM live
    player = open_page(browser, f"{server}/player/{summary['player_id']}", gm=False)
    expect(player.get_by_test_id("version")).to_have_text(after_attack)
    seen = call(server, "GET", f"{api}/state?view=player")
    players_side = summary["players"]
    for cr in seen["combatants"]:
        cell = player.get_by_test_id(f"hp-{cr['id']}")
        if cr["side"] == players_side:
            expect(cell).to_contain_text(re.compile(r"\d"))
        else:
            expect(cell).not_to_contain_text(re.compile(r"\d"))
    expect(player.get_by_test_id("end-turn")).to_be_hidden()
    expect(player.get_by_test_id("log")).to_be_visible()  # the players' log: no scenario, no monster hp
    assert not re.search(r"hp -?\d+ → -?\d+", player.get_by_test_id("log").inner_text())
    expect(player.get_by_test_id(f"token-{target}").locator("rect.hpbar")).to_have_count(
        0 if me["side"] == players_side else 1)

    # 4. undo the attack: the log loses it, the target's hp is back, the move stays; the player view follows
    page.get_by_test_id("undo").click()
    expect(attack_line).to_have_count(0)
    expect(page.get_by_test_id(f"hp-{target}")).to_have_text(hp_before)
    expect(page.get_by_test_id(f"token-{actor}")).to_have_attribute("data-position", f"{c},{r}")
    undone = page.get_by_test_id("version").inner_text()
    assert undone != after_attack
    expect(player.get_by_test_id("version")).to_have_text(undone)
    assert call(server, "GET", f"{api}/state")["version"] == int(undone)

    # 5. issue 13: the AI takes the rest of this turn in one click; the turn passes on
    page.get_by_test_id("ai-turn").click()
    expect(page.get_by_test_id("version")).not_to_have_text(undone)
    assert call(server, "GET", f"{api}/state")["active"] != actor
    player.close()
    page.close()


def _artifact(name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / name



SAMPLER = {
    "name": "Terrain sampler",
    "ruleset": "off-guard",
    "map": {"rows": ["............", ".##..==..ww.", ".#...~~..ww.", "..**..ff.^^.", "..**..ff....",
                     "....o...ddDD", "........ddDD", "............"]},
    "combatants": [
        {"id": "valeros", "name": "Valeros", "side": "heroes", "stats": "fighter", "position": [4, 3],
         "initiative": 30},
        {"id": "ogre", "name": "Ogre", "side": "monsters", "stats": "ogre", "position": [5, 4], "initiative": 20},
        {"id": "goblin", "name": "goblin", "side": "monsters", "stats": "goblin", "position": [10, 6],
         "initiative": 10, "conditions": ["hidden"]},
    ],
}


def test_terrain_large_token_hidden_creature_and_stale_write(server: str, browser: Browser) -> None:
    made = call(server, "POST", "/api/encounters", {"scenario": SAMPLER, "seed": 1})
    eid = made["id"]
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.set_default_timeout(8000)
    page.route_web_socket("**/ws", lambda ws: None)  # no live updates: this page's version goes stale
    page.goto(gm_url(f"{server}/table/{eid}"))
    expect(page.locator("body[data-ready='1']")).to_be_attached()
    terrain = page.get_by_test_id("terrain")
    for kind in ("wall", "low-wall", "difficult", "bushes", "fog", "pit", "water", "climb", "dim", "dark"):
        expect(terrain.locator(f"[data-terrain='{kind}']").first).to_be_attached()
    ogre = page.get_by_test_id("token-ogre").locator("circle.body")
    expect(ogre).to_have_attribute("r", str(2 * 34 * 0.42))  # Large: a 2×2 token
    expect(page.get_by_test_id("token-goblin")).to_have_class(re.compile(r"\bhidden-creature\b"))

    player = open_page(browser, f"{server}/player/{made['player_id']}", gm=False)
    expect(player.get_by_test_id("token-ogre")).to_be_attached()
    expect(player.get_by_test_id("token-goblin")).to_have_count(0)
    expect(player.get_by_test_id("init-goblin")).to_have_count(0)
    # the players' page has no key: the GM's API answers 401, the players' routes serve it
    assert player.evaluate("fetch('/api/encounters').then(r => r.status)") == 401
    assert player.evaluate(f"fetch('/api/encounters/{eid}/state').then(r => r.status)") == 401
    # the GM reveals the hidden goblin: the players' screen shows it (live), and hides it again
    page.get_by_test_id("reveal-goblin").click()
    expect(player.get_by_test_id("token-goblin")).to_be_attached()
    expect(page.get_by_test_id("reveal-goblin")).to_have_text("revealed")
    page.get_by_test_id("reveal-goblin").click()
    expect(player.get_by_test_id("token-goblin")).to_have_count(0)
    player.close()

    # someone else acts: the page's next write is stale, the 409 is shown and the page catches up
    api = f"/api/encounters/{eid}"
    version = call(server, "GET", f"{api}/state")["version"]
    call(server, "POST", f"{api}/actions", {"action": {"kind": "end_turn"}, "expected_version": version})
    page.get_by_test_id("end-turn").click()
    expect(page.get_by_test_id("error-text")).to_contain_text("409")
    expect(page.get_by_test_id("active")).to_have_text("Ogre")
    page.close()


def test_index_page_uploads_renames_exports_and_deletes(server: str, browser: Browser, tmp_path: Path) -> None:
    """Issue 13, item 2: encounters are managed from the index page: upload a scenario, rename, export, delete."""
    page = open_page(browser, f"{server}/")
    scenario = tmp_path / "bridge.yaml"
    scenario.write_text("name: Bridge fight\nmap: {width: 8, height: 5}\nsurprise: {surprised: []}\n"
                        "combatants:\n  - {id: val, side: heroes, stats: fighter, position: [1, 1]}\n"
                        "  - {id: gob, side: goblins, stats: goblin, position: [5, 3]}\n", encoding="utf-8")
    page.get_by_test_id("upload").set_input_files(str(scenario))
    row = page.locator("tr", has_text="Bridge fight")
    expect(row).to_have_count(1)
    eid = row.get_attribute("data-testid").removeprefix("encounter-")  # type: ignore[union-attr]
    page.once("dialog", lambda d: d.accept("Bridge at dusk"))
    page.get_by_test_id(f"rename-{eid}").click()
    expect(page.locator("tr", has_text="Bridge at dusk")).to_have_count(1)
    with page.expect_download() as got:
        page.get_by_test_id(f"export-{eid}").click()
    exported = json.loads(Path(got.value.path()).read_text())
    assert exported["name"] == "Bridge at dusk" and exported["events"]
    bad = tmp_path / "bad.yaml"
    bad.write_text("map: {width: 8, height: 5}\ncombatants: []\n", encoding="utf-8")
    page.get_by_test_id("upload").set_input_files(str(bad))
    expect(page.get_by_test_id("error")).to_contain_text("bad.yaml")
    page.once("dialog", lambda d: d.accept())
    page.get_by_test_id(f"delete-{eid}").click()
    expect(page.locator("tr", has_text="Bridge at dusk")).to_have_count(0)
    assert all(s["id"] != eid for s in call(server, "GET", "/api/encounters"))
    page.close()


def test_a_charge_is_previewed_and_made_from_the_map(server: str, browser: Browser) -> None:
    """Issue 13, item 2: clicking a distant enemy offers 'Charge from (c, r)' for each legal end square."""
    scenario = {"name": "Charge lane", "map": {"width": 12, "height": 6}, "surprise": {"surprised": []},
                "combatants": [{"id": "val", "side": "heroes", "stats": "fighter", "position": [1, 2],
                                "initiative": 30},
                               {"id": "gob", "side": "goblins", "stats": "goblin", "position": [8, 2],
                                "initiative": 1}]}
    made = call(server, "POST", "/api/encounters", {"scenario": scenario, "seed": 1})
    page = open_page(browser, f"{server}/table/{made['id']}")
    page.get_by_test_id("token-gob").click()
    charge = page.locator("[data-testid^='charge-']").first
    expect(charge).to_be_visible()
    charge.click()
    expect(page.get_by_test_id("dice-dialog")).to_be_visible()
    page.get_by_test_id("dice-submit").click()
    expect(page.get_by_test_id("dice-dialog")).to_be_hidden()
    expect(page.get_by_test_id("log")).to_contain_text("charg")
    page.close()
