"""WOA-REACT-01..07: the combat-reaction budget, its bars, and spending it."""

from __future__ import annotations

import pytest
from tests.rules.woa._react import fighter, hero_vs_orc, left, orc, orc_first, prompt, spent

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.resolution import Tx
from d20combat.rulesets.components.component import RuleError
from d20combat.rulesets.worlds_of_adventure.reactions import BARS, POOL, spend_reaction


@pytest.mark.parametrize(("bab", "budget"), [(0, 1), (5, 1), (6, 2), (10, 2), (11, 3), (15, 3), (16, 4), (20, 4)])
def test_woa_react_02_budget_by_bab(bab: int, budget: int) -> None:
    """WOA-REACT-02: 1 combat reaction, +1 each at BAB +6, +11 and +16 — BAB 0 has 1 (the reading)."""
    enc = hero_vs_orc(fighter("hero", bab=bab), [1, 20])
    assert left(enc, "hero") == budget
    assert left(enc, "orc") == 1


def test_woa_react_02_refreshed_every_round() -> None:
    """WOA-REACT-02: the budget is set at the start of every round (a ReactionsSet), whatever was spent."""
    enc = hero_vs_orc(fighter("hero", warrior=4, bab=4), [1, 20, 10, 3, 1, 20])
    orc_first(enc)
    enc.act(ax.Attack("hero"))
    enc.respond("block")
    assert left(enc, "hero") == 0
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    assert left(enc, "hero") == 1
    assert any(isinstance(e, ev.ReactionsSet) and e.combatant == "hero" and e.pools[POOL] == 1
               for e in enc.log[-8:])


def test_woa_react_01_reactions_are_not_actions_of_a_turn() -> None:
    """WOA-REACT-01: a reaction is made on another creature's turn and costs none of that turn's actions."""
    enc = hero_vs_orc(fighter("hero", warrior=4), [1, 20, 10, 3])
    orc_first(enc)
    assert enc.state.actor == "orc"
    enc.act(ax.Attack("hero"))
    assert prompt(enc).reactor == "hero"
    events = enc.respond("dodge")
    assert [e.combatant for e in spent(events)] == ["hero"]
    turn = enc.state.turn
    assert turn is not None and turn.actor == "orc" and turn.pools.get("move") == 1


def test_woa_react_03_no_reactions_while_flat_footed() -> None:
    """WOA-REACT-03: a flat-footed (surprised) warrior is not asked to block or dodge."""
    enc = hero_vs_orc(fighter("hero", warrior=4), [1, 20, 10, 3], surprise={"surprised": ["hero"]})
    orc_first(enc)
    events = enc.act(ax.Attack("hero"))
    assert enc.pending is None and not spent(events)


def test_woa_react_04_combat_reflexes_one_more_and_while_flat_footed() -> None:
    """WOA-REACT-04: Combat Reflexes gives one more reaction and allows them while flat-footed."""
    enc = hero_vs_orc(fighter("hero", warrior=4, bab=11, feats=["Combat Reflexes"]), [1, 20, 10, 3],
                      surprise={"surprised": ["hero"]})
    assert left(enc, "hero") == 4
    orc_first(enc)
    enc.act(ax.Attack("hero"))
    assert prompt(enc).reactor == "hero" and "dodge" in prompt(enc).options


@pytest.mark.parametrize(("condition", "rule"), [(c, why.rpartition("(")[2].rstrip(")")) for c, why in BARS])
def test_woa_react_bars_on_every_reaction(condition: str, rule: str) -> None:
    """WOA-REACT-03, WOA-REACT-05 with the collected bars (casting, readying, running, grappling, drinking, reading,
    stunned): a creature so marked is asked nothing and spends nothing."""
    enc = hero_vs_orc(fighter("hero", warrior=4), [1, 20, 10, 3], hero_extra={"conditions": [condition]})
    orc_first(enc)
    enc.act(ax.Attack("hero"))
    assert enc.pending is None, rule


def test_woa_react_05_one_pool_for_the_five_kinds() -> None:
    """WOA-REACT-05: blocks, dodges, aids and attacks of opportunity spend the same pool: a warrior that blocked
    with its one reaction makes no attack of opportunity that round."""
    enc = hero_vs_orc(fighter("hero", warrior=4), [1, 20, 10, 3])
    orc_first(enc, ax.Declare(), ax.Declare(standard="attack", move="move", target="hero"))
    enc.act(ax.Attack("hero"))
    enc.respond("block")
    events = enc.act(ax.Move(to=(6, 2)))  # the orc disengages from the hero: no reaction left to strike it
    assert enc.pending is None and not spent(events, "hero")


def test_woa_react_06_07_any_other_reaction_spends_from_the_budget() -> None:
    """WOA-REACT-06, WOA-REACT-07: a swift or immediate action (or a feat's reaction) spends one combat reaction through
    the same function; barred or spent, it is refused and nothing changes."""
    enc = hero_vs_orc(fighter("hero", bab=6), [1, 20])
    tx = Tx(enc.state, enc)
    spend_reaction(tx, "hero", "a swift action")
    spend_reaction(tx, "hero", "an immediate action")
    assert [e.reaction for e in tx.events] == ["a swift action; 1 reaction left",
                                               "an immediate action; 0 reactions left"]
    with pytest.raises(RuleError, match="no combat reaction left"):
        spend_reaction(tx, "hero", "a third")
    flat = hero_vs_orc(fighter("hero", bab=6), [1, 20], surprise={"surprised": ["hero"]})
    tx = Tx(flat.state, flat)
    with pytest.raises(RuleError, match=r"flat-footed \(WOA-REACT-03\)"):
        spend_reaction(tx, "hero", "a swift action")
    assert not tx.events


def test_woa_react_budget_left_is_explained() -> None:
    """WOA-REACT-02: every reaction spent says how many are left ("…; 1 reaction left")."""
    enc = hero_vs_orc(fighter("hero", warrior=4, bab=6), [1, 20, 10, 3])
    orc_first(enc)
    enc.act(ax.Attack("hero"))
    assert "2 reactions left" in prompt(enc).detail
    events = enc.respond("dodge")
    assert spent(events)[0].explain().endswith("; 1 reaction left")


def test_woa_react_orc_block_is_off_turn() -> None:
    """WOA-REACT-01: the reaction belongs to the defender, whatever the order."""
    enc = hero_vs_orc(fighter("hero", bab=3), [20, 1, 10, 3], orc_block=orc(warrior=2))
    orc_first(enc, ax.Declare(standard="attack", target="orc"), ax.Declare())
    assert enc.state.actor == "hero"
    enc.act(ax.Attack("orc"))
    assert prompt(enc).reactor == "orc" and prompt(enc).options[-1] == "none"
