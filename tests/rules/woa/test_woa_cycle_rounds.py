"""WOA-CYCLE-09, WOA-CYCLE-26, WOA-CYCLE-29, WOA-CYCLE-30: who may react, the cycle until one side is left,
durations counted in the target's rounds of actions, and the stunned round."""

from __future__ import annotations

import pytest
from tests.rules._builders import stats
from tests.rules.woa._util import HERO, ORC, declare_all, who, woa

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.encounter.gm_actions import GmEffect
from d20combat.rulesets.worlds_of_adventure.cycle import STUNNED, rounds_of_actions
from d20combat.rulesets.worlds_of_adventure.reactions import reactions_barred as reaction_bar


def duel(dice: list[int], orc: dict[str, object] = ORC, **kw: object) -> Encounter:
    return woa([who("hero", HERO, "heroes", (2, 2)), who("orc", orc, "monsters", (3, 2))], dice, **kw)


def test_woa_cycle_09_flat_footed_makes_no_combat_reactions() -> None:
    """WOA-CYCLE-09: the surprised orc, flat-footed until it acts, may not react — unless it has Combat Reflexes
    (WOA-REACT-04); once it acted it may."""
    enc = duel([10, 3], surprise={"surprised": ["orc"]})
    declare_all(enc)
    orc = enc.state.get("orc")
    assert reaction_bar(enc.creature("orc"), orc) == "flat-footed (WOA-REACT-03)"
    quick = duel([10, 3], orc=stats("orc", hp=10, attack_bonus=3, feats=["combat_reflexes"],
                                    attacks=[{"weapon": "club"}]), surprise={"surprised": ["orc"]})
    declare_all(quick)
    assert reaction_bar(quick.creature("orc"), quick.state.get("orc")) is None
    enc.act(ax.EndTurn())
    assert enc.state.actor == "orc" and reaction_bar(enc.creature("orc"), enc.state.get("orc")) is None


def test_woa_cycle_26_the_cycle_repeats_until_one_side_is_left() -> None:
    """WOA-CYCLE-26: declare, roll, act — round after round — until one side has won; then nobody declares."""
    enc = duel([10, 3, 10, 3, 10, 3, 15, 8], orc={**ORC, "hp": 5})  # round 3: the hero hits (15 + 5) for 8
    for _ in range(2):
        declare_all(enc)
        enc.act(ax.EndTurn())
        enc.act(ax.EndTurn())
    assert enc.state.round == 3 and enc.state.declaring
    declare_all(enc, ax.Declare(standard="attack", move="move", target="orc"))
    enc.act(ax.Attack(target="orc"))
    opened = [e.round for e in enc.log if isinstance(e, ev.DeclarationsOpened)]
    assert opened == [1, 2, 3] and any(isinstance(e, ev.EncounterEnded) for e in enc.log)


def test_woa_cycle_29_30_stunned_before_its_turn_loses_this_round() -> None:
    """WOA-CYCLE-29, WOA-CYCLE-30: the hero (first) stuns the orc: 1 round of the orc's actions is this round's turn —
    the effect ends just before its turn next round, which it plays in full."""
    enc = duel([10, 3, 10, 3])
    declare_all(enc, ax.Declare(), ax.Declare(standard="attack", move="move", target="hero"))
    assert rounds_of_actions(enc.state, "orc", 1) == 2 and rounds_of_actions(enc.state, "hero", 1) == 3
    enc.gm(GmEffect(target="orc", name="stunned", rounds=1, anchor="orc", condition=STUNNED))
    enc.act(ax.EndTurn())
    assert enc.state.actor == "orc"
    with pytest.raises(IllegalAction, match=r"stunned.*WOA-CYCLE-30"):
        enc.act(ax.Attack(target="hero"))
    assert reaction_bar(enc.creature("orc"), enc.state.get("orc")) == "stunned (WOA-CYCLE-30)"
    enc.act(ax.EndTurn())
    declare_all(enc)
    enc.act(ax.EndTurn())
    turn = enc.state.turn
    assert turn is not None and turn.actor == "orc" and turn.standard and not enc.state.get("orc").has(STUNNED)


def test_woa_cycle_30_stunned_after_its_turn_loses_the_next_round() -> None:
    """WOA-CYCLE-30: the orc (20) acted before the hero stuns it: it loses next round's actions instead."""
    enc = duel([10, 19, 3, 10])  # round 2: the orc (11) before the hero (7)
    declare_all(enc)
    enc.act(ax.EndTurn())  # the orc's turn
    assert enc.state.actor == "hero"
    until = rounds_of_actions(enc.state, "orc", 1)
    assert until == 3
    enc.gm(GmEffect(target="orc", name="stunned", rounds=until - enc.state.round, anchor="orc", condition=STUNNED))
    enc.act(ax.EndTurn())
    declare_all(enc)
    assert enc.state.actor == "orc"
    with pytest.raises(IllegalAction, match=r"stunned.*WOA-CYCLE-30"):
        enc.act(ax.Move(to=(4, 2)))
    assert any("WOA-CYCLE-30" in e.text for e in enc.log if isinstance(e, ev.Note))
