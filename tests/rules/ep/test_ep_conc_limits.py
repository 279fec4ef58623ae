"""The limits of invisibility (EP-CONC-31, EP-CONC-32, EP-CONC-34, EP-CONC-36): objects picked up, tracks, an
invisible light source, divination. The Average DC is data/ep_dc_ladder.yaml's 15 + CR (an assumption)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.ep._util import armored, ep, stats, texts

from d20combat.encounter import actions as ax
from d20combat.rulesets.epic_path import Spot
from d20combat.rulesets.epic_path.invisibility import (
    carried_item_visible,
    carried_light,
    divination_unhindered_by,
    leaves_tracks,
)

LOOKER = stats("looker", attack_bonus=5, skills={"perception": 5}, attacks=[{"weapon": "club"}])
"""Perception +5."""
SPOOK = armored("spook", 0, hp=30, skills={"stealth": 6}, attributes={"cr": 2})
"""CR 2: Average DC 17."""


def scene(conds: tuple[str, ...] = ("invisible", "light"), *, spook_at: tuple[int, int] = (8, 0),
          dice: list[int] | None = None, rows: list[str] | None = None, first: str = "s",
          looker_conds: tuple[str, ...] = ()) -> Any:
    s = {"id": "s", "side": "f", "stats": SPOOK, "position": list(spook_at), "conditions": list(conds)}
    looker = {"id": "l", "side": "h", "stats": LOOKER, "position": [0, 0], "conditions": list(looker_conds)}
    return ep([s, looker] if first == "s" else [looker, s], dice=dice or [], rows=rows)


# --- EP-CONC-34: an invisible light source ----------------------------------------------------------------

def test_ep_conc_34_the_light_of_an_invisible_creature_is_noticed_at_once() -> None:
    """EP-CONC-34: at the start of its turn the looker notices the light of the invisible s, 40 ft away — a clue,
    not its square (no pinpointing yet)."""
    enc = scene()
    events = enc.act(ax.EndTurn())
    assert enc.state.get("l").has("noticed_light:s")
    assert "notices the light of an invisible creature" in texts(events) and "EP-CONC-34" in texts(events)
    assert not any(c.startswith("pinpointing") for c in enc.state.get("l").conditions)


@pytest.mark.parametrize(("conds", "found"), [(("invisible", "light"), True), (("invisible",), False),
                                              (("invisible", "light:30:30"), True)])
def test_ep_conc_34_the_light_prompts_a_search_beyond_30_ft(conds: tuple[str, ...], found: bool) -> None:
    """EP-CONC-34: the light lets the looker search for s at 40 ft (a Spot reaches only 30 ft, EP-CONC-20):
    Perception 17 = d20 12 + 5 against the Average DC 17 of CR 2, since s made no Stealth check; without the
    light nothing is found."""
    enc = scene(conds, dice=[12])
    enc.act(ax.EndTurn())
    events = enc.act(Spot())
    assert ("finds 1 square" if found else "finds nothing") in texts(events)
    assert enc.state.get("l").has("pinpointing:s:8:0") is found


def test_ep_conc_34_opposed_by_its_stealth_when_it_made_one() -> None:
    """EP-CONC-34: a carrier that made a Stealth check (stealth:22) masks itself and the light: 17 fails, 22
    finds it."""
    miss = scene(("invisible", "light", "stealth:22"), dice=[12])
    miss.act(ax.EndTurn())
    assert "finds nothing" in texts(miss.act(Spot()))
    hit = scene(("invisible", "light", "stealth:22"), dice=[17])
    hit.act(ax.EndTurn())
    assert "finds 1 square" in texts(hit.act(Spot()))


def test_ep_conc_34_only_sight_notices_the_light() -> None:
    """EP-CONC-34: noticeable by sight — a blinded looker and a looker behind a wall notice nothing."""
    blind = scene(looker_conds=("blinded",))
    blind.act(ax.EndTurn())
    assert not blind.state.get("l").has("noticed_light:s")
    walled = scene(rows=["....#....", ".........", "........."])
    walled.act(ax.EndTurn())
    assert not walled.state.get("l").has("noticed_light:s")


def test_ep_conc_34_light_conditions_read() -> None:
    """EP-CONC-34: ``light`` is a torch (20/20 ft), ``light:B:D`` other radii; a malformed one is no light."""
    enc = scene(("invisible", "light:10:5"))
    assert carried_light(enc.state.get("s")) == (10, 5)
    assert carried_light(scene(("invisible", "light")).state.get("s")) == (20, 20)
    assert carried_light(scene(("invisible", "light:x")).state.get("s")) is None


# --- EP-CONC-31, 32, 36: state facts --------------------------------------------------------------------

def test_ep_conc_31_objects_picked_up_by_an_invisible_creature() -> None:
    """EP-CONC-31: a visible object picked up stays visible; a small one hidden on the person becomes effectively
    invisible; flour keeps it tracked; anything a visible creature carries is seen."""
    enc = scene(("invisible",))
    s, l_ = enc.state.get("s"), enc.state.get("l")
    assert carried_item_visible(s, small=False, hidden_on_person=False)[0]
    assert carried_item_visible(s, small=True, hidden_on_person=False)[0]
    hidden = carried_item_visible(s, small=True, hidden_on_person=True)
    assert not hidden[0] and "EP-CONC-31" in hidden[1]
    assert carried_item_visible(s, small=False, hidden_on_person=True)[0]
    assert carried_item_visible(s, small=True, hidden_on_person=True, coated=True)[0]
    assert carried_item_visible(l_, small=True, hidden_on_person=True)[0]


def test_ep_conc_32_invisible_creatures_leave_tracks() -> None:
    """EP-CONC-32: an invisible creature leaves tracks; (reading) an incorporeal one, weightless, does not."""
    ok, why = leaves_tracks(scene(("invisible",)).state.get("s"))
    assert ok and "EP-CONC-32" in why
    assert not leaves_tracks(scene(("invisible", "incorporeal")).state.get("s"))[0]


def test_ep_conc_36_invisibility_does_not_thwart_divination() -> None:
    """EP-CONC-36: every concealing state of the creature is named as no bar to a divination."""
    assert divination_unhindered_by(scene(("invisible", "blur")).state.get("s")) == ["invisible", "blur"]
    assert divination_unhindered_by(scene(("faded:3",)).state.get("s")) == ["faded"]
    assert divination_unhindered_by(scene(()).state.get("s")) == []
