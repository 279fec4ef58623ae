"""The tactical AI's declarations under worlds-of-adventure (WOA-CYCLE-14/15, WOA-INIT-26/27): it attacks the foe it
can reach, moves twice when no foe is reachable this round, refocuses when it acted late and is losing, declares a
move action and an attack when it must first stand up, and declares nothing only when nothing else is possible."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.woa._util import HERO, ORC, declare_all, who, woa

from d20combat.controllers import TacticalAI, play
from d20combat.dice import SeededDice
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.rulesets.worlds_of_adventure.declare_ai import DOUBLE_MOVE, NOTHING, REFOCUS, choose_declaration
from d20combat.rulesets.worlds_of_adventure.special_initiative import Refocus


def declared_by_ai(enc: Encounter) -> ax.Action:
    action = TacticalAI().choose(enc)
    assert isinstance(action, ax.Declare)
    return action


def test_attacks_the_foe_it_can_reach() -> None:
    """WOA-CYCLE-15: next to a foe it declares an attack at that foe (and a move action)."""
    enc = woa([who("hero", HERO, "heroes", (2, 2)), who("orc", ORC, "monsters", (3, 2)),
               who("far", ORC, "monsters", (10, 10))])
    assert declared_by_ai(enc) == ax.Declare(standard="attack", move="move", target="orc")


def test_moves_twice_when_no_foe_is_reachable_this_round() -> None:
    """WOA-CYCLE-15: 100 ft from its only foe (beyond a move and beyond a charge) it declares two moves, not an
    attack it cannot make — and on its turn it moves 60 ft."""
    enc = woa([who("hero", HERO, "heroes", (0, 0)), who("orc", ORC, "monsters", (20, 0))], [10, 1], width=25,
              height=5)
    assert declared_by_ai(enc) == DOUBLE_MOVE
    enc.act(DOUBLE_MOVE)
    enc.act(ax.Declare(move="move"))  # the orc; then hero 10 + 4, orc 1 + 1: the hero acts first
    assert enc.state.actor == "hero"
    ai = TacticalAI()
    for _ in range(6):
        if enc.state.actor != "hero":
            break
        enc.act(ai.choose(enc))
    assert enc.state.get("hero").position == (12, 0)


def _round_two(hero_hp: int, orc_at: tuple[int, int] = (9, 2)) -> Encounter:
    """Round 1: the orc (a roll of 20) acts before the hero (a roll of 1); both only move in place. Round 2 opens."""
    enc = woa([who("hero", HERO, "heroes", (2, 2), hp=hero_hp), who("orc", ORC, "monsters", orc_at)], [1, 20, 10, 10])
    declare_all(enc, ax.Declare(move="move"), ax.Declare(move="move"))
    assert enc.state.order == ("orc", "hero")
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    assert enc.state.round == 2 and enc.state.actor == "hero"
    return enc


def test_refocuses_when_it_acted_late_and_is_losing() -> None:
    """WOA-INIT-26/27: it acted after its foe, has 5 of 30 hp against an unhurt orc and no foe within reach: it
    declares a refocus (and a move); on its turn it refocuses first."""
    enc = _round_two(hero_hp=5)
    assert declared_by_ai(enc) == REFOCUS
    enc.act(REFOCUS)
    enc.act(ax.Declare(move="move"))
    enc.act(ax.EndTurn()) if enc.state.actor == "orc" else None
    assert enc.state.actor == "hero"
    assert isinstance(TacticalAI().choose(enc), Refocus)


@pytest.mark.parametrize("why", ["unhurt", "in reach"])
def test_does_not_refocus_when_not_losing_or_when_a_foe_is_in_reach(why: str) -> None:
    """WOA-INIT-26: refocusing costs the standard action: not while winning, not with a foe to hit now."""
    enc = _round_two(hero_hp=30) if why == "unhurt" else _round_two(hero_hp=5, orc_at=(3, 2))
    chosen = declared_by_ai(enc)
    assert chosen != REFOCUS and (chosen.standard == "attack" or chosen.full_round == "charge")


def test_a_prone_creature_declares_a_move_action_to_stand_and_an_attack() -> None:
    """WOA-CYCLE-15 (L274: a move action may be spent standing up): prone next to a foe, it declares a move action
    and an attack at the foe — not nothing, which would forbid standing up."""
    enc = woa([who("hero", HERO, "heroes", (2, 2), conditions=["prone"]), who("orc", ORC, "monsters", (3, 2))])
    assert declared_by_ai(enc) == ax.Declare(standard="attack", move="move", target="orc")


def test_nothing_only_when_nothing_is_possible() -> None:
    """WOA-CYCLE-14: with no foe left fighting nothing is declared; in whole battles the AI never declares nothing
    while a foe fights on."""
    enc = woa([who("hero", HERO, "heroes", (2, 2)), who("orc", ORC, "monsters", (3, 2)),
               who("ghost", ORC, "monsters", (8, 8), hp=1)])
    assert choose_declaration(_without_foes(enc), "hero") == NOTHING
    for seed in range(1, 4):
        battle = woa([who("hero", HERO, "heroes", (1, 1)), who("ally", HERO, "heroes", (1, 3)),
                      who("orc", ORC, "monsters", (9, 1)), who("orc2", ORC, "monsters", (9, 3))])
        battle.dice = SeededDice(seed)
        play(battle, TacticalAI())
        assert battle.state.ended
        declared = [e for e in battle.log if isinstance(e, ev.Declared)]
        assert declared and all(e.declaration for e in declared), [e.explain() for e in declared if not e.declaration]


def _without_foes(enc: Encounter) -> Any:
    """A view of ``enc`` in which the hero has no foe fighting (its enemies list is empty)."""

    class NoFoes:
        def __getattr__(self, name: str) -> Any:
            return getattr(enc, name)

        def enemies(self, cid: str, state: Any = None) -> list[str]:
            return []

    return NoFoes()
