"""Issue 13, "Done when": a whole session at the table as a GM plays it, at 1366×768 in Debian's Chromium.

Created from an upload on the index page; a saving throw called with a typed d20; a timed effect that ends at
the right turn; a creature added and hidden from the players; a charge previewed and made; a monster's turn
played by the AI; undo and redo; then typed dice entered in the order the dialog offers them under every ruleset
(off-guard's concealment d% after a hit included); no page overflows sideways.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect
from tests.browser.test_table import browser, call, gm_url, server  # noqa: F401  (fixtures)

SIZE = {"width": 1366, "height": 768}

SESSION = """\
name: Ambush at the mill
map:
  rows:
    - "............"
    - "............"
    - "............"
    - "............"
    - "............"
    - "............"
    - "............"
    - "............"
surprise: {surprised: []}
combatants:
  - {id: valeros, name: Valeros, side: heroes, stats: fighter, position: [1, 3], initiative: 20}
  - {id: kyra, name: Kyra, side: heroes, stats: cleric, position: [1, 5], initiative: 2}
  - {id: gob-a, side: goblins, stats: goblin, position: [8, 3], initiative: 10}
  - {id: gob-b, side: goblins, stats: goblin, position: [10, 6], initiative: 5}
"""


def _open(browser: Browser, url: str, *, gm: bool = True) -> Page:  # noqa: F811
    page = browser.new_page(viewport=SIZE)
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(gm_url(url) if gm else url)
    expect(page.locator("body[data-ready='1']")).to_be_attached()
    assert not errors, errors
    return page


def _no_overflow(page: Page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= SIZE["width"], f"{page.url}: {width} px wide in a {SIZE['width']} px window"


def _idle(page: Page) -> None:
    """No write in flight (the page ignores clicks while one is)."""
    expect(page.locator("body.busy")).to_have_count(0)


def _version(page: Page) -> str:
    return page.get_by_test_id("version").inner_text()


def _wait_version_change(page: Page, before: str) -> str:
    expect(page.get_by_test_id("version")).not_to_have_text(before)
    return _version(page)


def _active(page: Page, cid: str) -> None:
    expect(page.get_by_test_id("active")).to_contain_text(re.compile(cid, re.IGNORECASE))


def typed_roll(page: Page, faces: dict[int, int]) -> list[tuple[int, str]]:
    """Type the dice the dialog offers, one at a time in its order (a face per die size), and send them; returns
    the dice offered (sides, purpose)."""
    page.get_by_test_id("dice-mode-typed").check()
    offered: list[tuple[int, str]] = []
    for i in range(10):
        done = page.locator("[data-testid='dice-next']:has-text('Every die'), "
                            "[data-testid='dice-next']:has-text('may react')")
        die = page.get_by_test_id(f"die-{i}")
        expect(die.or_(done).first).to_be_visible()
        if not die.is_visible():
            break
        sides = int(die.get_attribute("data-sides") or 0)
        offered.append((sides, die.get_attribute("data-purpose") or ""))
        die.fill(str(faces[sides]))
        die.press("Enter")
        expect(page.get_by_test_id(f"die-{i + 1}").or_(done).first).to_be_visible()
    page.get_by_test_id("dice-submit").click()
    expect(page.get_by_test_id("dice-dialog")).to_be_hidden()
    return offered


def test_a_whole_session_at_the_table(server: str, browser: Browser, tmp_path: Path) -> None:  # noqa: F811
    # -- created from an upload on the index page
    index = _open(browser, f"{server}/")
    upload = tmp_path / "mill.yaml"
    upload.write_text(SESSION, encoding="utf-8")
    index.get_by_test_id("upload").set_input_files(str(upload))
    row = index.locator("tr", has_text="Ambush at the mill")
    expect(row).to_have_count(1)
    _no_overflow(index)
    eid = (row.get_attribute("data-testid") or "").removeprefix("encounter-")
    summary = call(server, "GET", f"/api/encounters/{eid}")
    index.close()

    page = _open(browser, f"{server}/table/{eid}")
    players = _open(browser, f"{server}/player/{summary['player_id']}", gm=False)
    _active(page, "valeros")
    _no_overflow(page)

    # -- a timed effect for 1 round on Valeros: it ends just before his turn in round 2
    page.get_by_test_id("gm-target").select_option("valeros")
    page.get_by_test_id("gm-effects").locator("summary").click()
    page.get_by_test_id("gm-effect-name").fill("bless")
    page.get_by_test_id("gm-effect-rounds").fill("1")
    page.get_by_test_id("gm-effect-attack").fill("1")
    page.get_by_test_id("gm-add-effect").click()
    expect(page.get_by_test_id("gm-effect-list")).to_contain_text("bless")
    expect(page.get_by_test_id("initiative")).to_contain_text("bless")

    # -- a saving throw called for, with the GM's physical d20 typed
    page.get_by_test_id("gm-target").select_option("gob-a")
    page.get_by_test_id("gm-saves").locator("summary").click()
    page.get_by_test_id("gm-save").select_option("will")
    page.get_by_test_id("gm-dc").fill("12")
    page.get_by_test_id("gm-d20").fill("15")
    page.get_by_test_id("gm-call-save").click()
    expect(page.get_by_test_id("gm-result")).to_contain_text("Will save")
    expect(page.get_by_test_id("log")).to_contain_text(re.compile(r"gob-a Will save: -?\d+ = d20 15.* vs DC 12"))

    # -- reinforcements: a wolf joins, hidden from the players
    page.get_by_test_id("gm-add").locator("summary").click()
    page.get_by_test_id("gm-new-id").fill("wolf")
    page.get_by_test_id("gm-new-side").fill("goblins")
    page.get_by_test_id("gm-new-stats").select_option("wolf")
    page.get_by_test_id("gm-new-c").fill("10")
    page.get_by_test_id("gm-new-r").fill("1")
    page.get_by_test_id("gm-new-init").fill("1")
    page.get_by_test_id("gm-add-creature").click()
    expect(page.get_by_test_id("initiative")).to_contain_text("wolf")
    page.get_by_test_id("gm-target").select_option("wolf")
    page.get_by_test_id("gm-conditions").locator("summary").click()
    page.get_by_test_id("gm-hide").click()
    expect(page.get_by_test_id("gm-result")).to_contain_text("hidden")
    expect(players.get_by_test_id("initiative")).to_contain_text("Valeros")
    now = str(call(server, "GET", f"/api/encounters/{eid}")["version"])
    expect(page.get_by_test_id("version")).to_have_text(now)
    expect(players.get_by_test_id("version")).to_have_text(now)
    expect(players.get_by_test_id("initiative")).not_to_contain_text("wolf")
    expect(players.get_by_test_id("map").locator("[data-testid='token-wolf']")).to_have_count(0)

    # -- undo the hide: the players see the wolf; redo: hidden again
    before = _version(page)
    page.get_by_test_id("undo").click()
    before = _wait_version_change(page, before)
    expect(players.get_by_test_id("initiative")).to_contain_text("wolf")
    page.get_by_test_id("redo").click()
    _wait_version_change(page, before)
    expect(players.get_by_test_id("initiative")).not_to_contain_text("wolf")

    # -- a charge previewed and made: Valeros charges gob-a across the field
    page.get_by_test_id("token-gob-a").click()
    charge = page.locator("[data-testid^='charge-']").first
    expect(charge).to_be_visible()
    charge.click()
    expect(page.get_by_test_id("dice-dialog")).to_be_visible()
    page.get_by_test_id("dice-submit").click()
    expect(page.get_by_test_id("dice-dialog")).to_be_hidden()
    expect(page.get_by_test_id("log")).to_contain_text("charg")
    _idle(page)
    if "valeros" in page.get_by_test_id("active").inner_text().lower():  # a charge ends the turn; if not, end it
        before = _version(page)
        page.get_by_test_id("end-turn").click()
        _wait_version_change(page, before)

    # -- the monsters' turns played by the AI, one click each, until Kyra's turn
    for _ in range(4):
        active = page.get_by_test_id("active").inner_text().lower()
        if "kyra" in active or "valeros" in active:
            break
        _idle(page)
        before = _version(page)
        page.get_by_test_id("ai-turn").click()
        _wait_version_change(page, before)
    expect(page.get_by_test_id("log")).to_contain_text(re.compile(r"gob-[ab]"))

    # -- end turns until Valeros's turn in round 2: bless ends just before it
    for _ in range(6):
        if page.get_by_test_id("round").inner_text() == "2" and "valeros" in \
                page.get_by_test_id("active").inner_text().lower():
            break
        _idle(page)
        before = _version(page)
        active = page.get_by_test_id("active").inner_text().lower()
        if "kyra" in active or "valeros" in active:
            page.get_by_test_id("end-turn").click()
        else:
            page.get_by_test_id("ai-turn").click()
        _wait_version_change(page, before)
    expect(page.get_by_test_id("round")).to_have_text("2")
    _active(page, "valeros")
    expect(page.get_by_test_id("log")).to_contain_text("valeros: bless ends")
    expect(page.get_by_test_id("initiative")).not_to_contain_text("bless")
    _no_overflow(page)
    _no_overflow(players)
    players.close()
    page.close()


def _duel(ruleset: str, fog: bool = False) -> dict:  # type: ignore[type-arg]
    rows = [".........", "...f....." if fog else ".........", ".........", "........."]
    return {"name": f"typed dice · {ruleset}", "ruleset": ruleset, "map": {"rows": rows},
            "surprise": {"surprised": []},
            "combatants": [
                {"id": "valeros", "name": "Valeros", "side": "heroes", "stats": "fighter", "position": [2, 1],
                 "initiative": 20},
                {"id": "goblin", "side": "goblins", "stats": "goblin", "position": [3, 1], "initiative": 5}]}


def test_typed_dice_in_the_offered_order_under_every_ruleset(server: str, browser: Browser) -> None:  # noqa: F811
    """The dialog offers each die in the engine's order; typing exactly those is accepted under every ruleset
    (off-guard: d20, then the concealment d% after the hit, then the damage die, CMV-CONC-08)."""
    expected = {"pathfinder-beginner": [20, 8], "off-guard": [20, 100, 8], "skill-based": [20]}
    for ruleset, sizes in expected.items():
        made = call(server, "POST", "/api/encounters", {"scenario": _duel(ruleset, fog=ruleset == "off-guard"),
                                                        "seed": 4})
        page = _open(browser, f"{server}/table/{made['id']}")
        page.get_by_test_id("token-goblin").click()
        page.get_by_test_id("attack-button").click()
        expect(page.get_by_test_id("dice-dialog")).to_be_visible()
        before = _version(page)
        offered = typed_roll(page, {20: 15, 100: 90, 8: 1, 6: 1, 4: 1, 10: 1, 12: 1})
        assert [s for s, _ in offered][: len(sizes)] == sizes, (ruleset, offered)
        assert offered[0][1] == "attack valeros->goblin"
        if ruleset == "off-guard":
            assert offered[1][1].startswith("concealment")
        _wait_version_change(page, before)
        if page.get_by_test_id("reaction").is_visible():  # skill-based: the goblin may block or dodge
            refusal = page.locator("[data-testid='reaction-none'], [data-testid='reaction-decline'], "
                                   "[data-testid='reaction-pass']").first
            before = _version(page)
            refusal.click()
            _wait_version_change(page, before)
        expect(page.get_by_test_id("log")).to_contain_text("d20 15")
        page.close()
