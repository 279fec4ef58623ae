"""Issue 16: a worlds-of-adventure round at the GM's table, 1366×768 in Debian's Chromium.

The declaration step for the whole table before initiative (WOA-CYCLE-14): the Declare card for the creature
declaring now, built from the kinds the engine offers (standard / move / full-round, the foe, delay after, nothing);
the tracker marking who has declared what and who is still to declare; the AI declaring for a monster; the last
declaration's initiative dice typed; the round's re-rolled order shown (WOA-CYCLE-02/17); a declaration whose foe
fell ruled by default (WOA-CYCLE-25) and the GM's override; the players' page showing only their own side's
declarations.
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect
from tests.browser.test_session import _idle, _no_overflow, _open
from tests.browser.test_table import browser, call, server  # noqa: F401  (fixtures)

CROSSROADS = """\
name: Crossroads
ruleset: worlds-of-adventure
map:
  rows:
    - "............"
    - "............"
    - "............"
    - "............"
    - "............"
    - "............"
combatants:
  - {id: valeros, name: Valeros, side: heroes, stats: fighter, position: [2, 2]}
  - {id: merisiel, name: Merisiel, side: heroes, stats: rogue, position: [2, 4]}
  - {id: orc, name: orc, side: orcs, stats: goblin, count: 2, positions: [[3, 2], [3, 4]]}
"""


def _chip(page: Page, testid: str, text: str) -> None:
    expect(page.get_by_test_id(testid)).to_contain_text(text)


def _state(base: str, eid: str) -> dict:  # type: ignore[type-arg]
    out: dict = call(base, "GET", f"/api/encounters/{eid}/state")  # type: ignore[type-arg]
    return out


def test_a_round_of_declarations_at_the_table(server: str, browser: Browser) -> None:  # noqa: F811
    created = call(server, "POST", "/api/encounters", {"scenario_yaml": CROSSROADS, "seed": 2})
    eid, pid = created["id"], created["player_id"]
    page = _open(browser, f"{server}/table/{eid}")
    card = page.get_by_test_id("declare-card")
    expect(card).to_be_visible()
    expect(page.get_by_test_id("declare-title")).to_have_text("Declare — Valeros, round 1")
    _chip(page, "declaring-valeros", "declaring…")
    _chip(page, "declaring-orc-2", "to declare")
    expect(page.get_by_test_id("end-turn")).to_be_disabled()
    expect(page.get_by_test_id("reroll")).to_contain_text("declarations (4 to go)")
    _no_overflow(page)
    page.screenshot(path="/tmp/woa-declare.png")

    # -- Valeros: an attack at orc-1 and a move, from the card's kinds
    page.get_by_test_id("declare-standard").select_option("attack")
    page.get_by_test_id("declare-move").select_option("move")
    page.get_by_test_id("declare-target").select_option("orc-1")
    page.get_by_test_id("declare-submit").click()
    _idle(page)
    _chip(page, "declared-valeros", "declared: attack and move — at orc-1")
    expect(page.get_by_test_id("declare-title")).to_have_text("Declare — Merisiel, round 1")
    # a refused declaration says why and changes nothing
    page.get_by_test_id("declare-full_round").select_option("charge")
    page.get_by_test_id("declare-move").select_option("move")
    page.get_by_test_id("declare-submit").click()
    expect(page.get_by_test_id("error-text")).to_contain_text("a full-round action takes the whole round")
    expect(page.get_by_test_id("declare-title")).to_have_text("Declare — Merisiel, round 1")
    page.get_by_test_id("declare-nothing").click()
    _idle(page)
    _chip(page, "declared-merisiel", "declared: nothing")

    # -- the AI declares for orc-1; orc-2's declaration (the last) rolls initiative: the GM types the dice
    page.get_by_test_id("declare-ai").click()
    _idle(page)
    _chip(page, "declared-orc-1", "declared:")
    expect(page.get_by_test_id("declare-title")).to_have_text("Declare — orc-2, round 1")
    page.get_by_test_id("declare-option-0").click()
    expect(page.get_by_test_id("dice-dialog")).to_be_visible()
    page.get_by_test_id("dice-mode-typed").check()
    for i, face in enumerate((5, 1, 20)):  # Valeros, Merisiel, then one roll for the orcs (WOA-CYCLE-20)
        die = page.get_by_test_id(f"die-{i}")
        expect(die).to_be_visible()
        assert die.get_attribute("data-sides") == "20"
        die.fill(str(face))
        die.press("Enter")
    page.get_by_test_id("dice-submit").click()
    expect(page.get_by_test_id("dice-dialog")).to_be_hidden()
    _idle(page)
    expect(card).to_be_hidden()
    reroll = page.get_by_test_id("reroll")
    expect(reroll).to_contain_text(
        re.compile(r"Round 1 initiative \(re-rolled\): orc-\d 22, orc-\d 22, Valeros 6, Merisiel 4"))
    expect(page.get_by_test_id("init-value-valeros")).to_have_attribute("title", re.compile(r"= d20 5 \+ Dex 1"))

    # -- the players' page: their own side's declarations only, none of the orcs'
    players = _open(browser, f"{server}/player/{pid}", gm=False)
    _chip(players, "declared-valeros", "attack and move — at orc-1")
    expect(players.get_by_test_id("declared-orc-1")).to_have_count(0)
    expect(players.get_by_test_id("declare-card")).to_be_hidden()
    expect(players.get_by_test_id("log-entry").filter(has_text="orc-1 declares")).to_have_count(0)
    expect(players.get_by_test_id("log-entry").filter(has_text="valeros declares")).to_have_count(1)
    expect(players.get_by_test_id("reroll")).to_contain_text("re-rolled")

    # -- the orcs act first; orc-1 falls before Valeros's turn (the GM's hand), orc-2 waits
    for _ in range(2):
        st = _state(server, eid)
        if st["active"] == "orc-1":
            edit = {"kind": "gm_damage", "target": "orc-1", "amount": 40}
            call(server, "POST", f"/api/encounters/{eid}/gm", {"edit": edit, "expected_version": st["version"]})
        else:
            call(server, "POST", f"/api/encounters/{eid}/actions", {"action": {"kind": "end_turn"},
                                                                    "expected_version": st["version"]})
    expect(page.get_by_test_id("active")).to_have_text("Valeros")
    # WOA-CYCLE-25: the default ruling — the same action at the foe nearest the declared one
    _chip(page, "declared-valeros", "ruled: attack and move — at orc-2")
    expect(page.get_by_test_id("declared-valeros")).to_have_attribute("title", re.compile("orc-1 is out of the fight"))
    # the GM's override: a move action only
    page.get_by_test_id("rule-valeros").click()
    expect(page.get_by_test_id("ruling-card")).to_be_visible()
    page.get_by_role("button", name="a move action only").click()
    _idle(page)
    expect(page.get_by_test_id("ruling-card")).to_be_hidden()
    _chip(page, "declared-valeros", "ruled: move")
    expect(page.get_by_test_id("log-entry").filter(has_text="GM: rules valeros's declaration: move")).to_have_count(1)
    assert _state(server, eid)["declarations"][0]["by_gm"] is True
    _no_overflow(page)
    page.screenshot(path="/tmp/woa-ruled.png")

    # -- the rest of the round by the AI, then round 2 opens with a new declaration step
    page.get_by_test_id("ai-turn").click()
    _idle(page)
    for _ in range(6):
        if _state(server, eid)["declaring"]:
            break
        page.get_by_test_id("ai-turn").click()
        _idle(page)
    expect(page.get_by_test_id("declare-title")).to_contain_text("round 2")
    expect(page.get_by_test_id("reroll")).to_contain_text("Round 2: declarations")
    players.close()
    page.close()


def test_the_surprise_attacks_before_round_1_at_the_table(server: str, browser: Browser) -> None:  # noqa: F811
    """WOA-CYCLE-07: with the orcs caught by surprise the page opens on the surprise attacks — the badge says so, it
    is Merisiel's turn (the higher initiative modifier), no Declare card —; once the aware have passed, the Declare
    card opens for the combat's round 1 (the engine's round 2: the header shows "combat round 1")."""
    ambush = CROSSROADS.replace("combatants:", "surprise: {surprised: [orc-1, orc-2]}\ncombatants:")
    eid = call(server, "POST", "/api/encounters", {"scenario_yaml": ambush, "seed": 2})["id"]
    page = _open(browser, f"{server}/table/{eid}")
    expect(page.get_by_test_id("surprise")).to_have_text("surprise attacks")
    expect(page.get_by_test_id("active")).to_have_text("Merisiel")
    expect(page.get_by_test_id("declare-card")).to_be_hidden()
    _no_overflow(page)
    for _ in range(2):  # Merisiel and Valeros let their attacks go; the orcs' turns pass
        st = _state(server, eid)
        call(server, "POST", f"/api/encounters/{eid}/actions", {"action": {"kind": "end_turn"},
                                                                "expected_version": st["version"]})
    page.reload()
    _idle(page)
    expect(page.get_by_test_id("surprise")).to_be_hidden()
    expect(page.get_by_test_id("declare-title")).to_have_text("Declare — Valeros, round 1")
    expect(page.locator("#combat-round")).to_have_text("combat round 1")
