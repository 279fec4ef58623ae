"""Issue 13: the GM's battle map at 1366×768 — zoom and pan, keyboard stepping, waypoints, the 5-ft step from the
map, tokens sharing a square side by side, elevation and torches drawn, clicks on squares out of reach explained,
and a warning before the surprise round's only action is spent on a move.

Reuses the server and browser fixtures of test_table.py (one server per module).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from test_table import browser, call, gm_url, server  # noqa: F401  (pytest fixtures)

ROWS = [
    "..........",
    "..........",
    "..........",
    "..........",
    ".........t",
    "~~~~~~~~~~",
    "......#DDD",
    ".......DDD",
]


def scenario(**extra: Any) -> dict[str, Any]:
    return {
        "name": "map tools", "ruleset": "pathfinder-beginner",
        "map": {"rows": ROWS, "elevation": [[4, 0, 10]]},
        "combatants": [
            {"id": "valeros", "name": "Valeros", "side": "heroes", "stats": "fighter", "position": [1, 1],
             "initiative": 20},
            {"id": "kyra", "name": "Kyra", "side": "heroes", "stats": "cleric", "position": [1, 2],
             "initiative": 10},
            {"id": "goblin", "side": "goblins", "stats": "goblin", "position": [8, 3], "initiative": 5},
            {"id": "hurt", "name": "hurt goblin", "side": "goblins", "stats": "goblin", "position": [4, 1],
             "initiative": 4, "hp": -1, "starts_down": True},
        ],
        "surprise": {"surprised": []},
        **extra,
    }


def create(server: str, **extra: Any) -> str:  # noqa: F811
    eid: str = call(server, "POST", "/api/encounters", {"scenario": scenario(**extra)})["id"]
    return eid


def state(server: str, eid: str) -> Any:  # noqa: F811
    return call(server, "GET", f"/api/encounters/{eid}/state")


def where(server: str, eid: str, cid: str) -> list[int]:  # noqa: F811
    pos: list[int] = next(c for c in state(server, eid)["combatants"] if c["id"] == cid)["position"]
    return pos


def open_table(browser: Browser, server: str, eid: str) -> Page:  # noqa: F811
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.set_default_timeout(8000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(gm_url(f"{server}/table/{eid}"))
    expect(page.locator("body[data-ready='1']")).to_be_attached()
    page.wait_for_load_state("networkidle")
    assert not errors, errors
    return page


def idle(page: Page) -> None:
    expect(page.locator("body.busy")).to_have_count(0)


def view_box(page: Page) -> list[float]:
    return [float(v) for v in (page.get_by_test_id("map").get_attribute("viewBox") or "").split()]


def no_overflow(page: Page) -> None:
    sw, iw = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert sw <= iw, f"horizontal overflow: {sw} > {iw}"


def test_zoom_and_pan(server: str, browser: Browser) -> None:  # noqa: F811
    eid = create(server)
    page = open_table(browser, server, eid)
    full = view_box(page)
    assert full[:2] == [0, 0] and page.get_by_test_id("zoom-level").inner_text() == "100%"
    box = page.get_by_test_id("map").bounding_box()
    assert box is not None
    page.get_by_test_id("zoom-in").click()
    expect(page.get_by_test_id("zoom-level")).to_have_text("125%")
    zoomed = view_box(page)
    assert zoomed[2] == pytest.approx(full[2] / 1.25) and zoomed[3] == pytest.approx(full[3] / 1.25)
    assert page.get_by_test_id("map").bounding_box() == box  # the map keeps its place and size in the page
    # Ctrl+wheel zooms about the pointer: the map point under it stays put
    x, y = box["x"] + box["width"] * 0.25, box["y"] + box["height"] * 0.25
    before = page.evaluate(f"D20.mapView.toMap({x}, {y})")
    page.mouse.move(x, y)
    page.keyboard.down("Control")
    page.mouse.wheel(0, -100)
    page.keyboard.up("Control")
    expect(page.get_by_test_id("zoom-level")).to_have_text("156%")
    after = page.evaluate(f"D20.mapView.toMap({x}, {y})")
    assert after == pytest.approx(before, abs=0.5)
    # a drag pans (and is not a click: nothing gets selected)
    start = view_box(page)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 - 60, box["y"] + box["height"] / 2 - 40, steps=5)
    page.mouse.up()
    panned = view_box(page)
    assert panned[0] > start[0] and panned[1] > start[1] and panned[2:] == start[2:]
    expect(page.get_by_test_id("move-preview")).to_have_count(0)
    # the wheel pans too once zoomed in
    page.mouse.wheel(0, 80)
    assert view_box(page)[1] > panned[1]
    # clicks still land on the right square when zoomed, and redraws keep the zoom
    page.get_by_test_id("sq-3-3").click()
    expect(page.get_by_test_id("move-preview").locator("h2")).to_have_text("Move Valeros to (3,3)")
    assert view_box(page)[2] == pytest.approx(start[2])
    # keys: + zooms in, 0 back to the whole map, − never below it
    page.keyboard.press("Escape")
    page.keyboard.press("+")
    expect(page.get_by_test_id("zoom-level")).to_have_text("195%")
    page.keyboard.press("0")
    expect(page.get_by_test_id("zoom-level")).to_have_text("100%")
    assert view_box(page) == full
    expect(page.get_by_test_id("zoom-out")).to_be_disabled()
    no_overflow(page)
    page.close()


def test_keyboard_steps_the_destination_and_enter_moves(server: str, browser: Browser) -> None:  # noqa: F811
    eid = create(server)
    page = open_table(browser, server, eid)
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("cursor")).to_have_attribute("data-square", "2,1")
    expect(page.get_by_test_id("move-preview").locator("h2")).to_have_text("Move Valeros to (2,1)")
    page.keyboard.press("l")
    page.keyboard.press("j")
    expect(page.get_by_test_id("cursor")).to_have_attribute("data-square", "3,2")
    page.keyboard.press("PageDown")  # down and right
    expect(page.get_by_test_id("cursor")).to_have_attribute("data-square", "4,3")
    page.keyboard.press("k")
    page.keyboard.press("Home")  # up and left
    expect(page.get_by_test_id("cursor")).to_have_attribute("data-square", "3,1")
    expect(page.get_by_test_id("move-cost")).to_have_text("10 ft along (2,1) → (3,1)")
    page.keyboard.press("?")
    help_text = page.get_by_test_id("keys-help").inner_text()
    assert "h k l j" in help_text and "PgDn" in help_text and "u is undo" not in help_text
    page.keyboard.press("?")
    version = state(server, eid)["version"]
    page.keyboard.press("Enter")
    idle(page)
    expect(page.get_by_test_id("version")).to_have_text(str(version + 1))
    assert where(server, eid, "valeros") == [3, 1]
    page.close()


def test_waypoints_make_a_non_cheapest_path(server: str, browser: Browser) -> None:  # noqa: F811
    eid = create(server)
    page = open_table(browser, server, eid)
    page.get_by_test_id("token-valeros").click()
    expect(page.get_by_test_id("reach-3-1")).to_be_attached()
    page.get_by_test_id("sq-3-1").click(modifiers=["Shift"])
    expect(page.get_by_test_id("waypoint-1")).to_have_attribute("data-square", "3,1")
    page.get_by_test_id("sq-2-3").click()
    expect(page.get_by_test_id("move-via")).to_contain_text("through (3,1)")
    cost = page.get_by_test_id("move-cost")
    expect(cost).to_contain_text("20 ft along (2,1) → (3,1) →")
    # clear: the cheapest path again; the waypoint mode button adds one by a plain click
    page.get_by_test_id("clear-waypoints").click()
    expect(cost).to_have_text("10 ft along (1,2) → (2,3)")
    page.get_by_test_id("waypoint-mode").click()
    expect(page.get_by_test_id("waypoint-mode")).to_have_attribute("aria-pressed", "true")
    page.get_by_test_id("sq-3-1").click()
    page.get_by_test_id("waypoint-mode").click()
    expect(cost).to_contain_text("20 ft along (2,1) → (3,1) →")
    version = state(server, eid)["version"]
    page.get_by_test_id("move-here").click()
    idle(page)
    expect(page.get_by_test_id("version")).to_have_text(str(version + 1))
    assert where(server, eid, "valeros") == [2, 3]
    moved = [e for e in call(server, "GET", f"/api/encounters/{eid}/log") if e["kind"] == "moved"]
    assert moved and "20 ft" in moved[-1]["text"]
    page.close()


def test_five_foot_step_from_the_map(server: str, browser: Browser) -> None:  # noqa: F811
    eid = create(server)
    page = open_table(browser, server, eid)
    page.get_by_test_id("token-valeros").click()
    expect(page.get_by_test_id("step-2-1")).to_be_attached()
    expect(page.get_by_test_id("step-1-3")).to_have_count(0)  # two squares away
    page.get_by_test_id("sq-2-1").click()
    expect(page.get_by_test_id("step-here")).to_be_visible()
    expect(page.get_by_test_id("move-here")).to_be_visible()  # distinct from the move
    page.get_by_test_id("sq-3-1").click()
    expect(page.get_by_test_id("step-here")).to_have_count(0)
    page.get_by_test_id("sq-2-2").click()
    page.get_by_test_id("step-here").click()
    idle(page)
    st = state(server, eid)
    assert st["turn"]["stepped"] and not st["turn"]["moved"] and where(server, eid, "valeros") == [2, 2]
    assert any("step" in e["text"].lower() for e in call(server, "GET", f"/api/encounters/{eid}/log")[-3:])
    # after a step no other movement this round: the page says why (the engine's reason)
    page.get_by_test_id("token-valeros").click()
    page.get_by_test_id("sq-3-3").click()
    expect(page.get_by_test_id("move-reason")).to_contain_text("5-foot step")
    page.close()


def test_clicks_out_of_reach_say_why(server: str, browser: Browser) -> None:  # noqa: F811
    eid = create(server)
    page = open_table(browser, server, eid)
    reason = page.get_by_test_id("move-reason")
    page.get_by_test_id("sq-6-6").click()  # no selection needed: a click is about the current actor
    expect(reason).to_have_text("Not allowed: the destination: (6,6) is a wall")
    page.get_by_test_id("token-kyra").click()
    expect(reason).to_have_text("Not allowed: the destination: (1,2) is occupied by Kyra")
    page.get_by_test_id("sq-1-7").click()
    expect(reason).to_contain_text("(1,7) is 30 ft away")
    expect(reason).to_contain_text("costs 35 ft through difficult terrain")
    expect(page.get_by_test_id("move-here")).to_be_disabled()
    page.close()


def test_tokens_side_by_side_elevation_and_torches(server: str, browser: Browser) -> None:  # noqa: F811
    eid = create(server)
    version = state(server, eid)["version"]
    r = call(server, "POST", f"/api/encounters/{eid}/actions",
             {"action": {"kind": "move", "to": [4, 1]}, "dice": [], "expected_version": version})
    assert r["state"]["version"] == version + 1
    page = open_table(browser, server, eid)
    hero = page.get_by_test_id("token-valeros")
    down = page.get_by_test_id("token-hurt")
    expect(hero).to_have_attribute("data-position", "4,1")
    expect(down).to_have_attribute("data-position", "4,1")
    expect(hero).to_have_attribute("data-shared", "2")
    a = hero.locator("circle.body").bounding_box()
    b = down.locator("circle.body").bounding_box()
    assert a and b
    overlap_x = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    overlap_y = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    assert overlap_x <= 0 or overlap_y <= 0, (a, b)
    cell = page.get_by_test_id("sq-4-1").bounding_box()
    assert cell
    for t in (a, b):  # both inside their square
        assert cell["x"] - 1 <= t["x"] and t["x"] + t["width"] <= cell["x"] + cell["width"] + 1
    # elevation and the torch, with their legend entries; the darkness stays drawn
    expect(page.get_by_test_id("elev-4-0")).to_have_attribute("data-height", "10")
    expect(page.get_by_test_id("terrain")).to_contain_text("▲10")
    expect(page.get_by_test_id("light-9-4")).to_have_attribute("data-bright", "20")
    expect(page.get_by_test_id("terrain").locator("[data-terrain='dark']")).to_have_count(6)
    expect(page.get_by_test_id("legend-torch")).to_be_visible()
    expect(page.get_by_test_id("legend")).to_contain_text("raised ground")
    assert "torch" in (page.get_by_test_id("sq-9-4").locator("title").text_content() or "")
    page.close()


def test_surprise_round_move_asks_first(server: str, browser: Browser) -> None:  # noqa: F811
    """PFB-SURP-05: in the surprise round a creature has only one action; moving asks before spending it."""
    eid = create(server, surprise={"surprised": ["goblin"]})
    assert state(server, eid)["surprise_round"]
    page = open_table(browser, server, eid)
    expect(page.locator("#surprise")).to_be_visible()
    page.get_by_test_id("sq-3-3").click()
    version = state(server, eid)["version"]
    page.get_by_test_id("move-here").click()
    warning = page.get_by_test_id("surprise-warning")
    expect(warning).to_contain_text("only action this round")
    expect(page.get_by_test_id("move-here")).to_have_text("Move anyway")
    assert state(server, eid)["version"] == version  # nothing spent yet
    page.get_by_test_id("move-here").click()
    idle(page)
    expect(page.get_by_test_id("version")).to_have_text(re.compile(rf"^{version + 1}$|^{version + 2}$"))
    assert where(server, eid, "valeros") == [3, 3]
    page.close()
