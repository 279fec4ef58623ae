"""EP-COND-05 / EP-MISC-16: being knocked prone breaks the active stance at that moment — not at the next edge
of a turn (the states' ``after_action`` asks the stance rules after every action and GM write)."""

from __future__ import annotations

from tests.rules.ep._util import ep, stats, texts

from d20combat.encounter.engine import Encounter
from d20combat.encounter.gm_actions import GmCondition
from d20combat.rulesets.epic_path.maneuvers import Maneuver
from d20combat.rulesets.epic_path.stances import active_stances

BRUTE = stats("brute", attack_bonus=4, abilities={"str": 16}, attacks=[{"weapon": "club"}])
DUMMY = stats("dummy", attack_bonus=2, abilities={"str": 12, "dex": 14}, attacks=[{"weapon": "club"}])


def duel(dice: list[int]) -> Encounter:
    return ep([{"id": "b", "side": "a", "stats": BRUTE, "position": [2, 2]},
               {"id": "d", "side": "b", "stats": DUMMY, "position": [3, 2],
                "effects": [{"name": "stance: guard", "rounds": 10}]}], dice=dice)


def test_ep_cond_05_a_trip_breaks_the_stance_at_once() -> None:
    """EP-COND-05, EP-MISC-16: the trip that knocks ``d`` prone ends its stance in the same action, on the
    tripper's turn."""
    enc = duel([18])
    assert active_stances(enc.state.get("d")) == ["guard"]
    assert enc.state.turn is not None and enc.state.turn.actor == "b"
    events = enc.act(Maneuver("d", "trip"))
    assert enc.state.get("d").has("prone")
    assert active_stances(enc.state.get("d")) == []
    assert "d's stance guard ends: prone (EP-MISC-16)" in texts(events)
    assert enc.state.turn is not None and enc.state.turn.actor == "b"


def test_ep_cond_05_a_failed_trip_keeps_the_stance() -> None:
    """EP-COND-05: no prone, no broken stance."""
    enc = duel([2])
    enc.act(Maneuver("d", "trip"))
    assert active_stances(enc.state.get("d")) == ["guard"]


def test_ep_misc_16_the_gm_knocking_prone_breaks_the_stance_at_once() -> None:
    """EP-MISC-16: a GM's write that knocks the creature prone ends its stance in that write."""
    enc = duel([])
    events = enc.gm(GmCondition("d", "prone", True))
    assert active_stances(enc.state.get("d")) == []
    assert "d's stance guard ends: prone (EP-MISC-16)" in texts(events)
