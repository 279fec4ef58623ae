"""Issue 16: combat reactions on the GM's page, 1366×768 in Debian's Chromium (WOA-REACT-02/22/23).

The tracker shows each creature's combat reactions left this round and its budget ("reactions 1/1"; the GM all, the
players' page its own side); the block prompt asked before the orc's attack roll appears in the prompt panel with its
detail (the block's DR and "1 reaction left"); the GM answers block with typed dice: the tracker shows 0/1 and the
damage line subtracts the block's DR. The "AI answers" button lets the tactical AI answer a prompt, whichever side's.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect
from tests.browser.test_session import _idle, _no_overflow, _open
from tests.browser.test_table import browser, call, server  # noqa: F401  (fixtures)

FORD = """\
name: The ford
ruleset: worlds-of-adventure
map:
  rows:
    - ".........."
    - ".........."
    - ".........."
    - ".........."
    - ".........."
combatants:
  - id: brenna
    name: Brenna
    side: heroes
    position: [2, 2]
    stats: {name: warrior, hp: 30, attack_bonus: 3, shield: heavy-wooden-shield, attributes: {warrior_level: 2},
            attacks: [{weapon: longsword}]}
  - id: orc
    name: Orc
    side: orcs
    position: [3, 2]
    stats: {name: orc, hp: 8, attack_bonus: 2, attacks: [{weapon: greataxe}]}
"""


def _version(base: str, eid: str) -> int:
    return int(call(base, "GET", f"/api/encounters/{eid}/state")["version"])


def _orc_attacks(base: str) -> dict[str, Any]:
    """Both declare, the orc's side rolls 20 and attacks Brenna: her combat-reaction prompt waits."""
    created: dict[str, Any] = call(base, "POST", "/api/encounters", {"scenario_yaml": FORD, "seed": 1})
    eid = created["id"]
    for who, foe, dice in (("brenna", "orc", []), ("orc", "brenna", ["d20=2", "d20=20"])):
        call(base, "POST", f"/api/encounters/{eid}/actions", {
            "action": {"kind": "declare", "standard": "attack", "move": "move", "target": foe}, "dice": dice,
            "expected_version": _version(base, eid)})
        assert who
    result = call(base, "POST", f"/api/encounters/{eid}/actions", {
        "action": {"kind": "attack", "target": "brenna"}, "dice": [], "expected_version": _version(base, eid)})
    assert result["pending"]["reactor"] == "brenna"
    return created


def _chip(page: Page, testid: str, text: str) -> None:
    expect(page.get_by_test_id(testid)).to_have_text(text)


def test_the_gm_blocks_and_the_tracker_counts_the_reaction(server: str, browser: Browser) -> None:  # noqa: F811
    created = _orc_attacks(server)
    eid, pid = created["id"], created["player_id"]
    page = _open(browser, f"{server}/table/{eid}")
    _chip(page, "reactions-brenna", "reactions 1/1")
    _chip(page, "reactions-orc", "reactions 1/1")
    panel = page.get_by_test_id("reaction")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("Reaction — Brenna")
    expect(page.get_by_test_id("reaction-trigger")).to_have_text("orc attacks brenna with greataxe")
    detail = page.get_by_test_id("reaction-detail")
    expect(detail).to_contain_text("1 reaction left")
    expect(detail).to_contain_text("block: DR 3 (½ warrior level 2 with a shield + its AC bonus 2)")
    expect(page.get_by_test_id("reaction-budget")).to_have_text(
        "Brenna: 1 of 1 reactions left this round; answering spends one")
    block = page.get_by_test_id("reaction-block")
    expect(block).to_have_attribute("title", "block: DR 3 (½ warrior level 2 with a shield + its AC bonus 2)")
    expect(page.get_by_test_id("reaction-dodge")).to_be_visible()
    expect(page.get_by_test_id("reaction-none")).to_be_visible()
    expect(page.get_by_test_id("reaction-ai")).to_be_visible()
    _no_overflow(page)
    page.screenshot(path="/tmp/woa-block-prompt.png")

    # the players' page: Brenna's budget (their side), never the orc's
    player = _open(browser, f"{server}/player/{pid}", gm=False)
    _chip(player, "reactions-brenna", "reactions 1/1")
    expect(player.get_by_test_id("reactions-orc")).to_have_count(0)
    expect(player.get_by_test_id("reaction-budget")).to_contain_text("Brenna: 1 of 1 reactions left")
    expect(player.get_by_test_id("reaction-ai")).to_have_count(0)

    # block, with the orc's attack and damage dice typed: a hit for 9 − DR 3
    block.click()
    dialog = page.get_by_test_id("dice-dialog")
    expect(dialog).to_be_visible()
    page.get_by_test_id("dice-mode-typed").check()
    page.get_by_test_id("die-0").fill("15")
    page.get_by_test_id("die-0").dispatch_event("change")
    expect(page.get_by_test_id("die-1")).to_have_attribute("data-sides", "12")
    page.get_by_test_id("die-1").fill("9")
    page.get_by_test_id("die-1").dispatch_event("change")
    page.get_by_test_id("dice-submit").click()
    expect(dialog).to_be_hidden()
    _idle(page)
    expect(panel).to_be_hidden()
    _chip(page, "reactions-brenna", "reactions 0/1")
    expect(page.get_by_test_id("reactions-brenna")).to_have_class("chip reactions spent")
    _chip(page, "reactions-orc", "reactions 1/1")
    log = page.get_by_test_id("log")
    expect(log.locator("[data-testid='log-entry']", has_text="blocks orc's attack: DR 3")).to_contain_text(
        "0 reactions left")
    expect(log.locator("[data-testid='log-entry']", has_text="damage 6 = 1d12 9 − block DR 3")).to_contain_text(
        "brenna hp 30 → 24")
    _chip(player, "reactions-brenna", "reactions 0/1")
    _no_overflow(page)
    page.locator("#tracker").scroll_into_view_if_needed()
    page.locator("#tracker").screenshot(path="/tmp/woa-block-tracker.png")


def test_the_ai_answers_the_players_prompt_for_the_gm(server: str, browser: Browser) -> None:  # noqa: F811
    created = _orc_attacks(server)
    page = _open(browser, f"{server}/table/{created['id']}")
    expect(page.get_by_test_id("reaction")).to_be_visible()
    page.get_by_test_id("reaction-ai").click()
    _idle(page)
    expect(page.get_by_test_id("reaction")).to_be_hidden()
    expect(page.get_by_test_id("log").locator("[data-testid='log-entry']",
                                              has_text="orc attacks brenna with greataxe")).to_have_count(1)
    state = call(server, "GET", f"/api/encounters/{created['id']}/state")
    assert state["pending"] is None
    brenna = next(c for c in state["combatants"] if c["id"] == "brenna")
    _chip(page, "reactions-brenna", f"reactions {brenna['reactions']['left']}/1")
