"""WOA-INIT: the special initiative actions declared with the round — delay after a named creature, refocus."""

from __future__ import annotations

import pytest
from tests.rules.woa._util import HERO, ORC, declare_all, who, woa

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.rulesets.worlds_of_adventure import Refocus


def three(dice: list[int]) -> Encounter:
    return woa([who("hero", HERO, "heroes", (1, 1)), who("ally", ORC, "heroes", (1, 3)),
                who("orc", ORC, "monsters", (8, 8))], dice, variants={"woa_monster_initiative": "individual"})


def test_woa_init_01_and_03_a_delay_is_declared_with_the_round() -> None:
    """WOA-INIT-01: delay is declared in the declaration step; WOA-INIT-03: the delayer still declares its action."""
    enc = three([18, 10, 5])
    declare_all(enc, ax.Declare(move="move", after="ally"))
    assert enc.state.declarations["hero"] == {"move": "move", "after": "ally"}


def test_woa_init_02_and_04_beating_the_named_creature_acts_right_after_it() -> None:
    """WOA-INIT-02, WOA-INIT-04: hero 22 beats ally 11, delays after it: acts right after the ally (the orc at 15
    first)."""
    enc = three([18, 10, 14])
    declare_all(enc, ax.Declare(move="move", after="ally"))
    assert enc.state.order == ("orc", "ally", "hero")
    notes = [e for e in enc.log if isinstance(e, ev.OrderSet)][-1].tie_breaks
    assert any("WOA-INIT-02" in n for n in notes)


def test_woa_init_05_rolling_lower_than_the_named_creature_changes_nothing() -> None:
    """WOA-INIT-05: hero 7 is below the ally's 16: the delay has no effect."""
    enc = three([3, 15, 1])
    declare_all(enc, ax.Declare(move="move", after="ally"))
    assert enc.state.order == ("ally", "hero", "orc")


def test_woa_init_02_a_delay_names_another_creature_of_the_fight() -> None:
    """WOA-INIT-02: name another character."""
    enc = three([18, 10, 5])
    for bad, msg in ((ax.Declare(after="hero"), "after another one"), (ax.Declare(after="ghost"), "no creature")):
        with pytest.raises(IllegalAction, match=msg):
            enc.act(bad)


def test_woa_init_26_refocus_is_a_declared_standard_action() -> None:
    """WOA-INIT-26: refocus is a standard action (declared as such)."""
    enc = woa([who("hero", HERO, "heroes", (1, 1)), who("orc", ORC, "monsters", (8, 8))], [10, 3])
    declare_all(enc, ax.Declare(standard="refocus", move="move"))
    turn = enc.state.turn
    assert turn is not None and turn.actor == "hero"
    enc.act(Refocus())
    turn = enc.state.turn
    assert turn is not None and not turn.standard and enc.state.get("hero").has("refocused")
    with pytest.raises(IllegalAction):
        enc.act(Refocus())


def test_woa_init_26_refocus_needs_its_declaration() -> None:
    """WOA-INIT-26 with WOA-CYCLE-21: a refocus not declared is refused."""
    enc = woa([who("hero", HERO, "heroes", (1, 1)), who("orc", ORC, "monsters", (8, 8))], [10, 3])
    declare_all(enc, ax.Declare(move="move"))
    with pytest.raises(IllegalAction, match="declared move"):
        enc.act(Refocus())


def test_woa_init_27_next_round_the_die_counts_as_20() -> None:
    """WOA-INIT-27: the round after refocusing, initiative = 20 + modifier, no die rolled for it; only once."""
    enc = woa([who("hero", HERO, "heroes", (1, 1)), who("orc", ORC, "monsters", (8, 8))], [10, 3, 19, 2, 5])
    declare_all(enc, ax.Declare(standard="refocus", move="move"))
    enc.act(Refocus())
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    declare_all(enc)  # round 2: hero's die is 20; the orc rolls 19
    rolled = [e for e in enc.log if isinstance(e, ev.InitiativeRolled)]
    hero2 = [e for e in rolled if e.combatant == "hero"][-1]
    assert hero2.total == 24 and "refocused" in hero2.explanation
    assert [e for e in rolled if e.combatant == "orc"][-1].total == 20
    assert enc.state.order == ("hero", "orc") and not enc.state.get("hero").has("refocused")
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    declare_all(enc)  # round 3: rolled again (2 + 4 = 6, the orc 5 + 1)
    assert [e for e in enc.log if isinstance(e, ev.InitiativeRolled)][-2].total == 6
