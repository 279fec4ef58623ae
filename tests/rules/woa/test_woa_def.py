"""WOA-DEF: total defense — a declared standard action, +4 dodge for the round, no attacks, the consecutive-round
streak."""

from __future__ import annotations

import pytest
from tests.rules._builders import stats
from tests.rules.woa._util import HERO, ORC, declare_all, who, woa

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.rulesets.worlds_of_adventure.total_defense import TOTAL_DEFENSE, TotalDefense

DEFEND = ax.Declare(standard="total_defense", move="move")
SWING = ax.Declare(standard="attack", move="move", target="hero")


def duel(dice: list[int]) -> Encounter:
    return woa([who("hero", HERO, "heroes", (2, 2)), who("orc", ORC, "monsters", (3, 2))], dice)


def attacks(enc: Encounter) -> list[ev.AttackResolved]:
    return [e for e in enc.log if isinstance(e, ev.AttackResolved)]


def test_woa_def_01_a_standard_action_that_keeps_the_move_and_bars_attacks() -> None:
    """WOA-DEF-01: total defense is the standard action (so no attack); the move action is still there."""
    enc = duel([10, 3])  # hero 14, orc 4
    declare_all(enc, DEFEND, SWING)
    enc.act(TotalDefense())
    turn = enc.state.turn
    assert turn is not None and not turn.standard and turn.move
    assert enc.state.get("hero").has(TOTAL_DEFENSE)
    with pytest.raises(IllegalAction, match="total defense"):
        enc.act(ax.Attack(target="orc"))
    with pytest.raises(IllegalAction, match="already in total defense"):
        enc.act(TotalDefense())


def test_woa_def_02_plus_4_dodge_against_a_later_attack() -> None:
    """WOA-DEF-02: +4 dodge to AC for the rest of the round (the orc's attack after the hero's turn sees it)."""
    enc = duel([10, 3, 12, 1])  # orc's d20 12 + 3 = 15
    declare_all(enc, DEFEND, SWING)
    enc.act(TotalDefense())
    enc.act(ax.EndTurn())
    enc.act(ax.Attack(target="hero"))
    line = attacks(enc)[-1].lines[-1]
    assert "AC 16 (10 + Dex 2 + total defense 4)" in line


def test_woa_def_02_the_bonus_ends_with_the_round() -> None:
    """WOA-DEF-02: the bonus lasts for the round it was taken in, no longer."""
    enc = duel([10, 3, 15, 1])
    declare_all(enc, DEFEND)
    enc.act(TotalDefense())
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    hero = enc.state.get("hero")
    assert not hero.has(TOTAL_DEFENSE) and not any(e.name == "total defense" for e in hero.effects)


def test_woa_def_04_not_against_attacks_before_its_turn_in_the_first_round() -> None:
    """WOA-DEF-04: the orc acts first (orc 19 + 1 = 20 > hero 14): its attack meets the hero's AC without +4."""
    enc = duel([10, 19, 15, 1])
    declare_all(enc, DEFEND, SWING)
    assert enc.state.actor == "orc"
    enc.act(ax.Attack(target="hero"))
    assert "total defense" not in attacks(enc)[-1].lines[-1]


def test_woa_def_05_consecutive_rounds_cover_the_whole_round() -> None:
    """WOA-DEF-05: declared again the next round, the +4 holds from the round's start — before the hero's turn —
    and the second round's standard action is still spent on it."""
    enc = duel([10, 3, 5, 19, 15, 1])  # round 1: hero first; round 2: orc 20 before hero 9
    declare_all(enc, DEFEND)
    enc.act(TotalDefense())
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    declare_all(enc, DEFEND, SWING)
    assert enc.state.actor == "orc" and enc.state.get("hero").has(TOTAL_DEFENSE)
    enc.act(ax.Attack(target="hero"))
    assert "total defense" in attacks(enc)[-1].lines[-1]
    enc.act(ax.EndTurn())
    enc.act(TotalDefense())
    turn = enc.state.turn
    assert turn is not None and turn.actor == "hero" and not turn.standard


def test_woa_def_05_a_break_in_the_streak_restarts_it() -> None:
    """WOA-DEF-05 with DEF-04: after a round without total defense, the next one counts from the turn only."""
    enc = duel([10, 3, 5, 1, 5, 19])
    declare_all(enc, DEFEND)
    enc.act(TotalDefense())
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    declare_all(enc)  # round 2: no total defense
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    declare_all(enc, DEFEND)  # round 3: the orc (20) acts before the hero (9)
    assert enc.state.actor == "orc" and not enc.state.get("hero").has(TOTAL_DEFENSE)


def test_woa_def_03_reactions_only_dodge_or_block_unless_combat_expertise() -> None:
    """WOA-DEF-03: the condition the reactions read, and what it says (in play: test_woa_in_play's total-defense
    tests — no attack of opportunity, aid or swift action; dodge and block; Combat Expertise: everything)."""
    enc = woa([who("hero", HERO, "heroes", (2, 2)),
               who("sage", stats("sage", hp=10, feats=["combat_expertise"]), "heroes", (2, 4)),
               who("orc", ORC, "monsters", (8, 8))], [10, 3, 3])
    declare_all(enc, DEFEND)
    enc.act(TotalDefense())
    note = [e for e in enc.log if isinstance(e, ev.ConditionSet) and e.condition == TOTAL_DEFENSE][-1]
    assert "WOA-DEF-01..03" in note.reason and "dodge or block" in note.reason
