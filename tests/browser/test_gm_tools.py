"""Issue 13, item 2 in a real browser: the GM tools card deals damage, heals, adds a condition and a timed effect,
hides a creature from the players, and adds a creature from the bestiary by picking its square on the map."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect
from tests.browser.test_table import browser, call, gm_url, server  # noqa: F401  (fixtures)

DUEL = {
    "name": "gm tools", "map": {"width": 10, "height": 8},
    "combatants": [
        {"id": "valeros", "name": "Valeros", "side": "heroes", "stats": "fighter", "position": [2, 2],
         "initiative": 20},
        {"id": "goblin", "side": "goblins", "stats": "goblin", "position": [5, 2], "initiative": 5},
    ],
    "surprise": {"surprised": []},
}


def _hp(base: str, eid: str, cid: str) -> int:
    state = call(base, "GET", f"/api/encounters/{eid}/state")
    hp: int = next(c for c in state["combatants"] if c["id"] == cid)["hp"]
    return hp


def test_the_gm_tools_card_edits_the_table(server: str, browser: Browser) -> None:  # noqa: F811
    made = call(server, "POST", "/api/encounters", {"scenario": DUEL, "seed": 3})
    eid = made["id"]
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(gm_url(f"{server}/table/{eid}"))
    expect(page.get_by_test_id("gm-tools")).to_be_visible()
    expect(page.get_by_test_id("undo")).to_be_disabled()
    expect(page.get_by_test_id("redo")).to_be_disabled()
    # issue 13, item 6: each creature's effective numbers, explained, under its tracker row
    page.get_by_test_id("stats-toggle-valeros").click()
    expect(page.get_by_test_id("stats-valeros")).to_contain_text("AC")
    expect(page.get_by_test_id("stats-valeros").get_by_test_id("stat-will")).to_have_attribute(
        "title", re.compile(r"Will [+−]\d"))
    page.get_by_test_id("gm-target").select_option("goblin")
    page.get_by_test_id("gm-amount").fill("2")
    page.get_by_test_id("gm-damage").click()
    expect(page.get_by_test_id("gm-result")).to_contain_text("2 damage to goblin")
    assert _hp(server, eid, "goblin") == 4
    page.get_by_test_id("gm-heal").click()
    expect(page.get_by_test_id("gm-result")).to_contain_text("heals goblin 2")
    expect(page.get_by_test_id("log")).to_contain_text("GM: heals goblin 2")
    expect(page.get_by_test_id("undo")).to_have_attribute("title", re.compile("undo: GM: heals goblin 2"))
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("redo")).to_have_attribute("title", re.compile("redo: GM: heals goblin 2"))
    page.get_by_test_id("redo").click()
    expect(page.get_by_test_id("redo")).to_be_disabled()

    page.get_by_test_id("gm-conditions").locator("summary").click()
    page.get_by_test_id("gm-condition").fill("prone")
    page.get_by_test_id("gm-add-condition").click()
    expect(page.get_by_test_id("initiative")).to_contain_text("prone")

    page.get_by_test_id("gm-effects").locator("summary").click()
    page.get_by_test_id("gm-effect-name").fill("bless")
    page.get_by_test_id("gm-effect-rounds").fill("2")
    page.get_by_test_id("gm-effect-attack").fill("1")
    page.get_by_test_id("gm-add-effect").click()
    expect(page.get_by_test_id("gm-effect-list")).to_contain_text("bless")

    page.get_by_test_id("gm-hide").click()
    expect(page.get_by_test_id("gm-result")).to_contain_text("hidden")
    players = browser.new_page(viewport={"width": 1366, "height": 768})
    players.goto(f"{server}/player/{made['player_id']}")
    expect(players.get_by_test_id("initiative")).to_contain_text("Valeros")
    expect(players.get_by_test_id("initiative")).not_to_contain_text("goblin")

    page.get_by_test_id("gm-add").locator("summary").click()
    page.get_by_test_id("gm-new-id").fill("wolf")
    page.get_by_test_id("gm-new-side").fill("goblins")
    page.get_by_test_id("gm-new-stats").select_option("wolf")
    page.get_by_test_id("gm-pick").click()
    x, y = page.evaluate("""() => {
        const svg = document.getElementById("map");
        const layer = svg.querySelector("g.terrain") || svg;
        const p = new DOMPoint(18 + 34 * 7 + 17, 18 + 34 * 6 + 17).matrixTransform(layer.getScreenCTM());
        return [p.x, p.y];
    }""")
    page.mouse.click(x, y)
    expect(page.get_by_test_id("gm-result")).to_contain_text("square")
    page.get_by_test_id("gm-add-creature").click()
    expect(page.get_by_test_id("gm-result")).to_contain_text("joins the battle")
    expect(page.get_by_test_id("initiative")).to_contain_text("wolf")
    page.close()
    players.close()
