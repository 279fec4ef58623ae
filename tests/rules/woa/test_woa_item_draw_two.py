"""WOA-ITEM-06: the Two-Weapon Fighting feat draws two light or one-handed weapons in the time of one. The off-hand
weapon put away is the condition ``off_hand_sheathed``; without the feat it takes a draw of its own."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules._builders import stats
from tests.rules.woa._util import ORC, declare_all, who, woa

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.rulesets.worlds_of_adventure.two_weapons import OFF_HAND_AWAY, TwoWeaponAttack


def fighter(feats: tuple[str, ...] = (), main: str = "longsword") -> dict[str, Any]:
    """Starts with a dagger in hand; a main weapon and a short sword (light, off hand) put away."""
    return stats("fighter", hp=30, attack_bonus=0, abilities={"dex": 14}, feats=list(feats),
                 attacks=[{"weapon": "dagger"}, {"weapon": main}, {"weapon": "short-sword", "off_hand": True}])


def fight(block: dict[str, Any], declared: ax.Declare | None = None) -> Encounter:
    enc = woa([who("hero", block, "heroes", (2, 2), conditions=[OFF_HAND_AWAY]),
               who("orc", {**ORC, "hp": 40}, "monsters", (3, 2))], [10, 3])
    declare_all(enc, declared or ax.Declare(move="move"))
    assert enc.state.actor == "hero"
    return enc


def spent(events: list[ev.Event]) -> list[str]:
    return [e.cost for e in events if isinstance(e, ev.BudgetSpent)]


def test_woa_item_06_without_the_feat_each_weapon_takes_its_own_draw() -> None:
    """WOA-ITEM-06 (its converse, WOA-ITEM-01): without Two-Weapon Fighting the longsword is drawn (a move action)
    and the short sword stays put away; it takes a second draw, into the off hand (the longsword stays in hand)."""
    enc = fight(fighter(), ax.Declare(standard="move", move="move"))
    events = enc.act(ax.Draw("longsword"))
    assert spent(events) == ["move"] and enc.state.get("hero").wielding == "longsword"
    assert enc.state.get("hero").has(OFF_HAND_AWAY)
    events = enc.act(ax.Draw("short-sword"))
    assert len(spent(events)) == 1 and not enc.state.get("hero").has(OFF_HAND_AWAY)
    assert enc.state.get("hero").wielding == "longsword"
    assert any("draws short-sword into its off hand" in e.text for e in events if isinstance(e, ev.Note))


def test_woa_item_06_with_the_feat_both_in_the_time_of_one() -> None:
    """WOA-ITEM-06: with Two-Weapon Fighting, drawing the longsword (one-handed) draws the short sword (light) too —
    one move action."""
    enc = fight(fighter(("two_weapon_fighting",)))
    events = enc.act(ax.Draw("longsword"))
    assert spent(events) == ["move"] and enc.state.get("hero").wielding == "longsword"
    assert not enc.state.get("hero").has(OFF_HAND_AWAY)
    assert any(isinstance(e, ev.ConditionSet) and "in the time of one (WOA-ITEM-06)" in e.reason for e in events)


def test_woa_item_06_not_with_a_two_handed_weapon() -> None:
    """WOA-ITEM-06: only light or one-handed weapons — a greatsword drawn with the feat leaves the short sword
    put away."""
    enc = fight(fighter(("two_weapon_fighting",), main="greatsword"))
    enc.act(ax.Draw("greatsword"))
    assert enc.state.get("hero").has(OFF_HAND_AWAY)


def test_woa_item_06_the_off_hand_weapon_put_away_cannot_attack() -> None:
    """WOA-ITEM-06 with WOA-TWF-01: the two-weapon attack is refused while the off-hand weapon is put away, and
    nothing changes."""
    enc = fight(fighter(), ax.Declare(full_round="two_weapon_attack"))
    before = enc.state
    with pytest.raises(IllegalAction, match="off-hand short-sword is put away"):
        enc.act(TwoWeaponAttack(target="orc"))
    assert enc.state is before
