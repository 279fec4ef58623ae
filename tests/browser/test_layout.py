"""Issue 13, item 3: the GM's table fits the screen (no sideways overflow, the current actor's choices above
the fold, the tracker beside or above the map on a tablet, a TV-sized players' view) and has keyboard
shortcuts (static/keys.js).

Reuses the server and browser fixtures of test_table.py (one server per module). Set ``D20COMBAT_SCREENS=1``
to also (re)write the PNGs in docs/screens/ (the GM's and the players' page at 1366×768, 768×1024 and
1920×1080).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from test_table import ROOT, SEED, browser, call, gm_url, server  # noqa: F401  (pytest fixtures)

WIDTHS = (360, 390, 768, 1366, 1440, 1920)
HEIGHTS = {360: 740, 390: 844, 768: 1024, 1366: 768, 1440: 900, 1920: 1080}
SCREENS = ROOT / "docs" / "screens"


@pytest.fixture(scope="module")
def encounter(server: str) -> dict:  # noqa: F811
    return call(server, "POST", "/api/encounters", {"example": "goblin-ambush", "seed": SEED})


def _open(browser: Browser, url: str, width: int, height: int, *, gm: bool = True) -> Page:  # noqa: F811
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(8000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(gm_url(url) if gm else url)
    expect(page.locator("body[data-ready='1'], body.index").first).to_be_attached()
    page.wait_for_load_state("networkidle")
    assert not errors, errors
    return page


def _idle(page: Page) -> None:
    """The page's own guard ignores clicks while a request is under way (body.busy): wait it out."""
    expect(page.locator("body.busy")).to_have_count(0)


def _widths(page: Page) -> tuple[int, int]:
    return page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")


@pytest.mark.parametrize("width", WIDTHS)
def test_no_horizontal_overflow(server: str, browser: Browser, encounter: dict, width: int) -> None:  # noqa: F811
    pages = {"gm": (f"{server}/table/{encounter['id']}", True),
             "players": (f"{server}/player/{encounter['player_id']}", False),
             "index": (f"{server}/", True)}
    measured = {}
    for name, (url, gm) in pages.items():
        page = _open(browser, url, width, HEIGHTS[width], gm=gm)
        if name == "gm":  # the widest state: the active creature selected, its reachable squares shown
            state = call(server, "GET", f"/api/encounters/{encounter['id']}/state")
            page.get_by_test_id(f"token-{state['active']}").click()
            expect(page.get_by_test_id("overlay").locator("[data-testid^='reach-']").first).to_be_attached()
        measured[name] = _widths(page)
        page.close()
    print(f"width {width}: {measured}")
    over = {name: sw for name, (sw, iw) in measured.items() if sw > iw}
    assert not over, f"horizontal overflow at {width}px: {over}"


def _select_and_preview_move(server: str, page: Page, encounter: dict) -> None:  # noqa: F811
    api = f"/api/encounters/{encounter['id']}"
    actor = call(server, "GET", f"{api}/state")["active"]
    moves = call(server, "GET", f"{api}/moves?combatant={actor}")["squares"]
    dest = min((q for q in moves if not q["provokes"]), key=lambda q: (q["cost_ft"], q["to"]))
    c, r = dest["to"]
    page.get_by_test_id(f"token-{actor}").click()
    expect(page.get_by_test_id(f"reach-{c}-{r}")).to_be_attached()
    page.get_by_test_id(f"sq-{c}-{r}").hover()
    page.get_by_test_id(f"sq-{c}-{r}").click()
    expect(page.get_by_test_id("move-here")).to_be_visible()


def _inside(page: Page, testid: str) -> None:
    box = page.get_by_test_id(testid).bounding_box()
    vp = page.viewport_size
    assert box and vp, testid
    assert box["x"] >= 0 and box["y"] >= 0, (testid, box)
    assert box["x"] + box["width"] <= vp["width"] and box["y"] + box["height"] <= vp["height"], (testid, box, vp)


def test_the_map_and_the_move_button_fit_1366x768(server: str, browser: Browser, encounter: dict) -> None:  # noqa: F811
    page = _open(browser, f"{server}/table/{encounter['id']}", 1366, 768)
    _select_and_preview_move(server, page, encounter)
    _inside(page, "move-here")
    _inside(page, "map")
    assert page.evaluate("window.scrollY") == 0
    page.close()


def test_the_tracker_stays_beside_or_above_the_map_on_a_tablet(server: str, browser: Browser,  # noqa: F811
                                                                encounter: dict) -> None:
    for url, gm in ((f"{server}/table/{encounter['id']}", True), (f"{server}/player/{encounter['player_id']}", False)):
        page = _open(browser, url, 768, 1024, gm=gm)
        tracker = page.get_by_test_id("initiative").bounding_box()
        map_box = page.get_by_test_id("map").bounding_box()
        assert tracker and map_box
        beside = tracker["x"] >= map_box["x"] + map_box["width"] - 1
        above = tracker["y"] + tracker["height"] <= map_box["y"] + 1
        assert beside or above, (url, tracker, map_box)
        page.close()


def test_the_players_view_scales_up_on_a_tv(server: str, browser: Browser, encounter: dict) -> None:  # noqa: F811
    sizes = {}
    for width, height in ((1366, 768), (1920, 1080)):
        page = _open(browser, f"{server}/player/{encounter['player_id']}", width, height, gm=False)
        sizes[width] = page.evaluate("parseFloat(getComputedStyle(document.querySelector('table.tracker')).fontSize)")
        page.close()
    assert sizes[1920] >= 1.25 * sizes[1366], sizes


def test_keyboard_shortcuts(server: str, browser: Browser) -> None:  # noqa: F811
    made = call(server, "POST", "/api/encounters", {"example": "goblin-ambush", "seed": SEED})
    page = _open(browser, f"{server}/table/{made['id']}", 1366, 768)
    help_box = page.get_by_test_id("keys-help")
    expect(help_box).to_be_hidden()
    page.keyboard.press("?")
    expect(help_box).to_be_visible()
    expect(help_box).to_contain_text("end turn")
    page.keyboard.press("?")
    expect(help_box).to_be_hidden()

    # Enter confirms the preview's primary button: the move happens
    _select_and_preview_move(server, page, made)
    version = page.get_by_test_id("version").inner_text()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("version")).not_to_have_text(version)
    moved = page.get_by_test_id("version").inner_text()
    _idle(page)

    # u undoes it, r redoes it
    page.keyboard.press("u")
    expect(page.get_by_test_id("version")).not_to_have_text(moved)
    undone = page.get_by_test_id("version").inner_text()
    _idle(page)
    page.keyboard.press("r")
    expect(page.get_by_test_id("version")).not_to_have_text(undone)

    # e ends the turn
    _idle(page)
    active = page.get_by_test_id("active").inner_text()
    version = page.get_by_test_id("version").inner_text()
    page.keyboard.press("e")
    expect(page.get_by_test_id("version")).not_to_have_text(version)
    expect(page.get_by_test_id("active")).not_to_have_text(active)
    _idle(page)

    # keys are left alone while typing (the attack's weapon choice) and while a dialog is open (the dice)
    state = call(server, "GET", f"/api/encounters/{made['id']}/state")
    side = next(c["side"] for c in state["combatants"] if c["id"] == state["active"])
    enemy = next(c["id"] for c in state["combatants"] if c["side"] != side)
    page.get_by_test_id(f"token-{enemy}").click()
    expect(page.get_by_test_id("attack-preview")).to_be_visible()
    version = page.get_by_test_id("version").inner_text()
    page.get_by_test_id("attack-choice").focus()
    page.keyboard.press("e")
    page.evaluate("document.getElementById('dice').showModal()")  # as the page opens it before a roll
    expect(page.get_by_test_id("dice-dialog")).to_be_visible()
    page.keyboard.press("e")
    page.keyboard.press("?")
    page.wait_for_timeout(500)
    expect(page.get_by_test_id("version")).to_have_text(version)
    expect(help_box).to_be_hidden()
    page.close()

    player = _open(browser, f"{server}/player/{made['player_id']}", 1366, 768, gm=False)
    player.keyboard.press("?")
    expect(player.get_by_test_id("keys-help")).to_have_count(0)
    player.close()


@pytest.mark.skipif(not os.environ.get("D20COMBAT_SCREENS"), reason="set D20COMBAT_SCREENS=1 to write docs/screens/")
def test_screenshots(server: str, browser: Browser, encounter: dict) -> None:  # noqa: F811
    SCREENS.mkdir(parents=True, exist_ok=True)
    for width, height in ((1366, 768), (768, 1024), (1920, 1080)):
        page = _open(browser, f"{server}/table/{encounter['id']}", width, height)
        _select_and_preview_move(server, page, encounter)
        _save(page, SCREENS / f"gm-{width}x{height}.png")
        page.close()
        player = _open(browser, f"{server}/player/{encounter['player_id']}", width, height, gm=False)
        _save(player, SCREENS / f"players-{width}x{height}.png")
        player.close()


def _save(page: Page, path: Path) -> None:
    """A viewport screenshot, reduced to a 256-colour palette when Pillow is installed (commit-sized PNGs)."""
    png = page.screenshot()
    try:
        from PIL import Image
    except ImportError:
        path.write_bytes(png)
    else:
        import io
        Image.open(io.BytesIO(png)).convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(
            path, optimize=True)
    assert path.stat().st_size <= 300_000, (path, path.stat().st_size)
