"""Issue 15, item 2: an Epic Path session at the GM's table, 1366×768 in Debian's Chromium.

Impeded (`%`) and blocked (`B`) terrain drawn with a legend and named by a click; an action point spent with its
benefit shown first (EP-MISC-23); a full attack begun and severed by a move (EP-ACT-13); a splash weapon thrown at
a square that misses and scatters, the d8 counted clockwise from the thrower's side and the splash shown on the
map (EP-SPLASH-11/17/18); a stance started (EP-MISC-15); a readied attack that fires at the start of the
trigger's turn with typed dice (EP-ACT-57); a held action (EP-ACT-49..51); the players' page showing their own
action points only.
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect
from tests.browser.test_session import SIZE, _idle, _no_overflow, _open, typed_roll
from tests.browser.test_table import browser, call, server  # noqa: F401  (fixtures)

CELL = 34

JUNK_ROOM = """\
name: Junk room
ruleset: epic-path
map:
  rows:
    - "............"
    - "....%%......"
    - "....%%......"
    - "......B....."
    - "......B....."
    - "............"
    - "............"
    - "............"
surprise: {surprised: []}
combatants:
  - {id: valeros, name: Valeros, side: heroes, position: [2, 5], initiative: 20,
     stats: {race: human, abilities: {str: 17, dex: 13, con: 14}, attack_bonus: 6, hp: 40, armor: chain-shirt,
             attacks: [{weapon: longsword, bonus: 1}], wielding: longsword}}
  - {id: lem, name: Lem, side: heroes, position: [1, 1], initiative: 18,
     stats: {race: halfling, size: small, abilities: {str: 8, dex: 16}, attack_bonus: 2, hp: 18,
             attacks: [{weapon: alchemists-fire}, {weapon: dagger}], wielding: alchemists-fire}}
  - {id: kyra, name: Kyra, side: heroes, position: [2, 7], initiative: 15,
     stats: {race: human, abilities: {str: 13}, attack_bonus: 3, hp: 24, attacks: [{weapon: heavy-mace}],
             wielding: heavy-mace}}
  - {id: gob-a, name: goblin, side: goblins, stats: goblin, position: [3, 6], initiative: 10}
  - {id: gob-b, name: goblin, side: goblins, stats: goblin, position: [9, 2], initiative: 5}
"""


def _active(page: Page, name: str) -> None:
    expect(page.get_by_test_id("active")).to_have_text(re.compile(name, re.IGNORECASE))


def _log(page: Page, text: str) -> None:
    expect(page.get_by_test_id("log-entry").filter(has_text=text).first).to_be_attached()


def test_an_epic_path_session(server: str, browser: Browser) -> None:  # noqa: F811
    created = call(server, "POST", "/api/encounters", {"scenario_yaml": JUNK_ROOM, "seed": 4})
    page = _open(browser, f"{server}/table/{created['id']}")
    players = _open(browser, f"{server}/player/{created['player_id']}", gm=False)
    _active(page, "Valeros")
    assert page.viewport_size == SIZE

    # -- EP-MOVE-05/11: impeded and blocked squares drawn apart from walls and difficult ground, with a legend
    expect(page.get_by_test_id("impeded-4-1")).to_have_attribute("data-terrain", "impeded")
    expect(page.get_by_test_id("blocked-6-3")).to_have_attribute("data-terrain", "blocked")
    expect(page.get_by_test_id("legend-impeded")).to_contain_text("full-round action moves 5 ft")
    expect(page.get_by_test_id("legend-blocked")).to_be_visible()
    assert "impeded terrain" in (page.get_by_test_id("sq-5-2").locator("title").text_content() or "")
    expect(players.get_by_test_id("impeded-5-2")).to_be_attached()

    # -- the reachable squares leave them out; a click on one says why
    page.get_by_test_id("token-valeros").click()
    expect(page.get_by_test_id("reach-3-4")).to_be_attached()
    expect(page.get_by_test_id("reach-4-2")).to_have_count(0)
    expect(page.get_by_test_id("reach-6-4")).to_have_count(0)
    page.get_by_test_id("sq-4-2").click()
    expect(page.get_by_test_id("move-reason")).to_contain_text("impeded terrain")
    expect(page.get_by_test_id("move-reason")).to_contain_text("full-round action moves 5 ft")
    page.get_by_test_id("sq-6-4").click()
    expect(page.get_by_test_id("move-reason")).to_contain_text("blocked terrain")
    page.get_by_test_id("move-cancel").click()

    # -- EP-MISC-22/23: the action point, its benefit this round shown before it is spent
    expect(page.get_by_test_id("ap-valeros")).to_have_text("AP 1")
    expect(page.get_by_test_id("ep-ap-benefit")).to_contain_text("combat round 1: an extra move action")
    _idle(page)
    page.get_by_test_id("ep-action-point").click()
    _log(page, "action point in combat round 1: an extra move action")
    expect(page.get_by_test_id("ap-valeros")).to_have_text("AP 0")
    page.get_by_test_id("stats-toggle-valeros").click()
    expect(page.get_by_test_id("stats-ap-valeros")).to_contain_text("action points: 0")
    page.get_by_test_id("stats-toggle-valeros").click()
    expect(page.get_by_test_id("ep-action-point")).to_be_disabled()
    expect(page.get_by_test_id("turn-info")).to_contain_text("2 move")

    # -- EP-ACT-07..13: a full attack begun (a miss, typed), then severed: the move action spent on a move instead
    _idle(page)
    page.locator("[data-kind='full_attack']").first.click()
    offered = typed_roll(page, {20: 2})
    assert offered[0][0] == 20
    _log(page, "a full attack of 2 attacks begun")
    expect(page.locator("[data-kind='full_attack']")).to_have_count(1)  # the next attack is offered…
    page.get_by_test_id("token-valeros").click()
    page.get_by_test_id("sq-2-3").click()
    _idle(page)
    page.get_by_test_id("move-here").click()
    _log(page, "valeros moves to (2,3)")
    expect(page.locator("[data-kind='full_attack']")).to_have_count(0)  # …and gone once the move is taken
    _idle(page)
    page.get_by_test_id("end-turn").click()
    _active(page, "Lem")

    # -- EP-SPLASH-11/17/18: alchemist's fire at the square (9,3), AC 5: a natural 1 misses, d8 3 scatters it
    _idle(page)
    page.get_by_test_id("ep-throw-square").click()
    expect(page.get_by_test_id("ep-throw-square")).to_have_attribute("aria-pressed", "true")
    page.get_by_test_id("sq-9-3").click()
    offered = typed_roll(page, {20: 1, 8: 3})
    assert [sides for sides, _ in offered[:2]] == [20, 8], offered
    assert "scatter" in offered[1][1]
    _log(page, "scatter d8 3")
    scatter = page.get_by_test_id("scatter")
    expect(scatter).to_have_attribute("data-aim", "(9,3)")
    # from (9,3) the thrower at (1,1) is west: 1 = west (short), counted clockwise 2 = north-west, 3 = north
    expect(scatter).to_have_attribute("data-land", "(9,2)")
    land = page.get_by_test_id("scatter-land")
    assert (land.get_attribute("x"), land.get_attribute("y")) == (str(9 * CELL + 1), str(2 * CELL + 1))
    one, three = page.get_by_test_id("d8-1"), page.get_by_test_id("d8-3")
    assert float(one.get_attribute("x") or 0) < 9.5 * CELL - 5  # 1 on the aimed square's west side
    assert float(three.get_attribute("y") or 0) < 3.5 * CELL - 5  # 3 on its north side
    expect(page.get_by_test_id("d8-3")).to_have_class(re.compile("rolled"))
    expect(page.get_by_test_id("splashed-10-1")).to_be_attached()
    _log(page, "gob-b is in or next to (9, 2)")
    _idle(page)
    page.get_by_test_id("end-turn").click()
    _active(page, "Kyra")

    # -- EP-MISC-15/20: Kyra starts a stance (a swift action, a named effect for 10 rounds)
    page.get_by_test_id("ep-stance-name").fill("tiger")
    _idle(page)
    page.get_by_test_id("ep-start-stance").click()
    expect(page.get_by_test_id("effect-kyra-stance: tiger")).to_be_visible()
    expect(page.get_by_test_id("ep-drop-stance")).to_be_visible()

    # -- EP-ACT-54..57: Kyra readies an attack for the start of goblin gob-a's turn; it fires, dice typed
    page.get_by_test_id("ep-ready-trigger").select_option("gob-a")
    _idle(page)
    page.get_by_test_id("ep-ready").click()
    expect(page.get_by_test_id("effect-kyra-readied")).to_be_visible()
    _idle(page)
    page.get_by_test_id("end-turn").click()
    expect(page.get_by_test_id("dice-title")).to_contain_text("readied attack fires")
    offered = typed_roll(page, {20: 15, 8: 4})
    assert offered[0] == (20, "attack kyra->gob-a"), offered
    _log(page, "kyra's readied attack on gob-a interrupts")
    _active(page, "gob-a")
    expect(page.get_by_test_id("effect-kyra-readied")).to_have_count(0)

    # -- EP-ACT-49..51: the goblin holds its action until gob-b has acted
    page.get_by_test_id("ep-hold-after").select_option("gob-b")
    _idle(page)
    page.get_by_test_id("ep-hold").click()
    _active(page, "gob-b")
    _log(page, "holds its action and acts right after gob-b")
    rows = page.get_by_test_id("initiative").locator("tbody tr")
    ids = [r.get_attribute("data-testid") for r in rows.all()]
    assert ids.index("init-gob-a") == ids.index("init-gob-b") + 1, ids
    expect(page.get_by_test_id("init-gob-a").locator("td.num")).to_have_text("4")

    # -- the players see their own action points, not the goblins'
    expect(players.get_by_test_id("ap-valeros")).to_have_text("AP 0")
    expect(players.get_by_test_id("ap-gob-a")).to_have_count(0)
    expect(players.get_by_test_id("ep-card")).to_be_hidden()
    _no_overflow(page)
    _no_overflow(players)
    page.close()
    players.close()


def test_the_ambush_the_surprise_round_and_the_combat_round(server: str, browser: Browser) -> None:  # noqa: F811
    """EP-SURP-03/20/23: the ambush check in the log, the surprise round's banner, flat-footed until a creature
    acts; after the surprise round the header says which round of the combat it is (round 2 = combat round 1)."""
    created = call(server, "POST", "/api/encounters", {"example": "epic-path-long-fight", "seed": 3})
    page = _open(browser, f"{server}/table/{created['id']}")
    expect(page.get_by_test_id("surprise")).to_be_visible()
    expect(page.locator(".ev-surprise_determined")).to_contain_text("ambush check 11")
    expect(page.get_by_test_id("cond-cole-flat_footed")).to_be_visible()
    expect(page.get_by_test_id("combat-round")).to_be_hidden()
    expect(page.get_by_test_id("ap-aldo")).to_have_text("AP 1")
    for _ in range(8):
        if page.get_by_test_id("round").inner_text() == "2":
            break
        _idle(page)
        before = page.get_by_test_id("version").inner_text()
        page.get_by_test_id("end-turn").click()
        expect(page.get_by_test_id("version")).not_to_have_text(before)
    expect(page.get_by_test_id("round")).to_have_text("2")
    expect(page.get_by_test_id("surprise")).to_be_hidden()
    expect(page.get_by_test_id("combat-round")).to_have_text("combat round 1")
    _no_overflow(page)
    page.close()
