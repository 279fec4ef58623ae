"""WOA-CYCLE: awareness, declarations, initiative re-rolled every round, ties, invalidated declarations."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules._builders import ac, stats
from tests.rules.woa._util import HERO, ORC, declare_all, pass_surprise_attacks, who, woa

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, IllegalAction


def duel(dice: list[int], **kw: Any) -> Encounter:
    return woa([who("hero", HERO, "heroes", (2, 2)), who("orc", ORC, "monsters", (3, 2))], dice, **kw)


def rolled(enc: Encounter) -> list[ev.InitiativeRolled]:
    return [e for e in enc.log if isinstance(e, ev.InitiativeRolled)]


def test_woa_cycle_01_the_dm_says_who_is_aware() -> None:
    """WOA-CYCLE-01: the scenario (the DM) names the unaware; they are surprised."""
    enc = duel([10, 10], surprise={"surprised": ["orc"]})
    assert enc.state.surprised == frozenset({"orc"})


def test_woa_cycle_06_nobody_is_surprised_when_nobody_is_unaware() -> None:
    """WOA-CYCLE-06 (reading): with everyone aware, nobody is surprised."""
    enc = duel([10, 10])
    assert enc.state.surprised == frozenset()


def test_woa_cycle_02_and_14_declare_then_roll() -> None:
    """WOA-CYCLE-02/14: the declarations come first, then the initiative checks."""
    enc = duel([10, 10])
    assert not rolled(enc) and enc.state.declaring == ("hero", "orc")
    declare_all(enc)
    kinds = [e.kind for e in enc.log]
    assert kinds.index("declared") < kinds.index("initiative_rolled")


def test_woa_cycle_07_no_surprise_round_the_surprised_act_in_round_1() -> None:
    """WOA-CYCLE-07: there is no surprise round: after the surprise attacks round 1 is a whole round for everyone,
    the surprised included (the engine's round 2 is the combat's round 1)."""
    enc = duel([10, 19], surprise={"surprised": ["orc"]})
    assert enc.state.surprise_round and enc.state.actor == "hero"  # the surprise attacks come first
    declare_all(enc, ax.Declare(), ax.Declare(standard="attack", target="hero"))  # hero passes its attack
    assert not enc.state.surprise_round and enc.state.first_round == 2
    assert enc.state.actor == "hero"  # orc: 19 + 1 − 20 = 0 < hero 14
    enc.act(ax.EndTurn())
    turn = enc.state.turn
    assert turn is not None and turn.actor == "orc" and turn.standard


def test_woa_cycle_03_and_10_flat_footed_takes_minus_20_once() -> None:
    """WOA-CYCLE-03, WOA-CYCLE-10: surprised (flat-footed) → −20 on the round-1 initiative check, not −40."""
    enc = duel([10, 19], surprise={"surprised": ["orc"]})
    declare_all(enc)
    orc = next(e for e in rolled(enc) if e.combatant == "orc")
    assert orc.total == 19 + 1 - 20 and "flat-footed 20" in orc.explanation


def test_woa_cycle_08_flat_footed_until_it_has_had_a_chance_to_act() -> None:
    """WOA-CYCLE-08: the surprised orc is flat-footed until its turn in round 1, then not (no −20 in round 2)."""
    enc = duel([10, 19, 5, 5], surprise={"surprised": ["orc"]})
    assert enc.state.get("orc").has("flat_footed")
    declare_all(enc)
    enc.act(ax.EndTurn())  # hero
    assert not enc.state.get("orc").has("flat_footed")
    enc.act(ax.EndTurn())  # orc
    declare_all(enc)
    orc = [e for e in rolled(enc) if e.combatant == "orc"][-1]
    assert orc.total == 5 + 1


@pytest.mark.parametrize(("loses_dex", "expected"), [(False, 12), (True, 10)])
def test_woa_cycle_11_flat_footed_alone_keeps_dex_by_default(loses_dex: bool, expected: int) -> None:
    """WOA-CYCLE-11 (AMBIGUOUS, option ``woa_flat_footed_loses_dex``): an unexpected attack costs Dex; being
    flat-footed alone does not, by default."""
    enc = woa([who("orc", ORC, "monsters", (3, 2)), who("hero", HERO, "heroes", (2, 2))], [10, 10],
              surprise={"surprised": ["hero"]}, variants={"woa_flat_footed_loses_dex": loses_dex})
    pass_surprise_attacks(enc)  # round 1: no longer a surprise attack, still flat-footed (WOA-CYCLE-07/08)
    assert enc.state.get("hero").has("flat_footed")
    assert ac(enc, "orc", "hero") == expected  # 10 + Dex 2


def test_woa_cycle_15_and_16_what_is_declared_and_what_is_not() -> None:
    """WOA-CYCLE-15: standard, move and full-round actions are declared; WOA-CYCLE-16: free actions are not."""
    enc = duel([15, 3])
    decision = enc.decision()
    assert decision is not None
    options = decision.options
    assert ax.Declare(full_round="charge", target="orc") in options
    assert ax.Declare(standard="attack", move="move", target="orc") in options
    assert ax.Declare(standard="refocus", move="move") in options
    declare_all(enc, ax.Declare(move="move"))
    assert enc.check(ax.Attack("orc")) is not None  # not declared
    assert enc.check(ax.Activity("speak")) is None  # a free action


def test_woa_cycle_17_to_19_initiative_is_the_universal_reflex_bonus() -> None:
    """WOA-CYCLE-17: d20 + Reflex; WOA-CYCLE-18: no resistance bonus; WOA-CYCLE-19: base Reflex and Dex count."""
    cloaked = stats("cloaked", hp=10, abilities={"dex": 16}, saves={"ref": 7}, attributes={"ref_resistance": 2},
                    attacks=[{"weapon": "club"}])
    enc = woa([who("a", cloaked, "heroes", (1, 1)), who("o", ORC, "monsters", (5, 5))], [10, 10])
    declare_all(enc)
    a = next(e for e in rolled(enc) if e.combatant == "a")
    assert a.total == 10 + (7 - 3 - 2) + 3  # base Ref 4 − resistance 2, Dex 3
    assert "Ref base 2" in a.explanation and "Dex 3" in a.explanation


@pytest.mark.parametrize(("mode", "dice", "orcs"),
                         [("side", [12, 7, 5, 3], (8, 8)), ("individual", [12, 7, 9], (8, 10))])
def test_woa_cycle_20_one_check_for_the_monsters(mode: str, dice: list[int], orcs: tuple[int, int]) -> None:
    """WOA-CYCLE-20: by default one check for all the monsters (each adds its modifier); per creature as an
    option."""
    enc = woa([who("hero", HERO, "heroes", (1, 1)), who("o1", ORC, "monsters", (6, 6)),
               who("o2", ORC, "monsters", (6, 8))], dice, variants={"woa_monster_initiative": mode})
    declare_all(enc)
    got = {e.combatant: e.total for e in rolled(enc)}
    assert (got["o1"], got["o2"]) == orcs and got["hero"] == 16


def test_woa_cycle_04_and_21_highest_acts_first() -> None:
    """WOA-CYCLE-04/21: the turns count down from the highest result."""
    enc = duel([3, 15])
    declare_all(enc)
    assert enc.state.order == ("orc", "hero")  # 16 > 7


def test_woa_cycle_22_ties_go_to_the_higher_modifier() -> None:
    """WOA-CYCLE-22: hero 11 + 4 = 15 ties orc 14 + 1 = 15: the hero (+4) acts first, no dice rolled."""
    enc = duel([11, 14])
    declare_all(enc)
    assert enc.state.order == ("hero", "orc")
    notes = [e for e in enc.log if isinstance(e, ev.OrderSet)][-1].tie_breaks
    assert any("WOA-CYCLE-22" in n for n in notes)


def test_woa_cycle_23_then_at_random() -> None:
    """WOA-CYCLE-23: same result and same modifier → a random order (a d20 each, re-rolled while equal)."""
    enc = woa([who("a", ORC, "heroes", (1, 1)), who("b", ORC, "monsters", (6, 6))], [10, 10, 4, 17])
    declare_all(enc)
    assert enc.state.order == ("b", "a")


def test_woa_cycle_05_and_26_every_round_again() -> None:
    """WOA-CYCLE-05/26: declare, roll, resolve — in every round until the fight ends."""
    enc = woa([who("hero", HERO, "heroes", (1, 1)), who("orc", ORC, "monsters", (8, 8))], [3, 15, 18, 2])
    declare_all(enc)
    assert enc.state.order == ("orc", "hero")
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    assert enc.state.round == 2 and enc.state.declaring
    declare_all(enc)
    assert enc.state.order == ("hero", "orc")


def test_woa_cycle_24_resolved_one_after_another_in_initiative_order() -> None:
    """WOA-CYCLE-24 (reading): the actions are 'simultaneous' in the story only; the engine resolves them in order,
    so an orc dropped before its turn does not act."""
    weak = stats("orc", hp=1, attack_bonus=3, saves={"ref": 1}, attacks=[{"weapon": "club"}])
    enc = woa([who("hero", HERO, "heroes", (2, 2)), who("orc", weak, "monsters", (3, 2))], [15, 3, 12, 5])
    declare_all(enc, ax.Declare(standard="attack", move="move", target="orc"),
                ax.Declare(standard="attack", move="move", target="hero"))
    enc.act(ax.Attack("orc"))
    assert enc.state.ended and enc.state.winner == "heroes"


@pytest.mark.parametrize(("policy", "expected"), [
    ("similar", {"standard": "attack", "move": "move", "target": "orc2"}),
    ("move_only", {"move": "move"}),
    ("nothing", {}),
])
def test_woa_cycle_25_an_invalidated_declaration_is_ruled(policy: str, expected: dict[str, str]) -> None:
    """WOA-CYCLE-25: the declared foe is already down when the turn comes: a similar action (the foe next to it),
    a move action only, or nothing this round (option ``woa_invalidated_action``)."""
    weak = stats("orc", hp=1, attack_bonus=3, saves={"ref": 1}, attacks=[{"weapon": "club"}])
    enc = woa([who("hero", HERO, "heroes", (2, 2)), who("ally", HERO, "heroes", (2, 3)),
               who("orc", weak, "monsters", (3, 2)), who("orc2", ORC, "monsters", (3, 3))],
              [15, 10, 3, 1, 2, 12, 5], variants={"woa_invalidated_action": policy, "woa_monster_initiative": "side"})
    declare_all(enc, ax.Declare(standard="attack", move="move", target="orc"),
                ax.Declare(standard="attack", move="move", target="orc"))
    assert enc.state.actor == "hero"
    enc.act(ax.Attack("orc"))  # d20 12 + 5 hits; damage 5: the orc is down
    while enc.pending is not None:  # the aid reactions asked before the roll (WOA-REACT-08/13): none taken
        enc.respond("none")
    enc.act(ax.EndTurn())
    assert enc.state.actor == "ally"
    assert dict(enc.state.declarations["ally"]) == expected
    ruled = [e for e in enc.log if isinstance(e, ev.DeclarationRuled)]
    assert ruled and "WOA-CYCLE-25" in ruled[-1].reason
    if policy == "nothing":
        with pytest.raises(IllegalAction, match="declared nothing"):
            enc.act(ax.Attack("orc2"))


def test_woa_cycle_28_the_whole_round_on_its_turn() -> None:
    """WOA-CYCLE-28: a creature performs its whole round's actions (move and attack) on its turn, then the next acts."""
    enc = woa([who("hero", HERO, "heroes", (1, 2)), who("orc", ORC, "monsters", (3, 2))], [15, 3, 10, 3])
    declare_all(enc, ax.Declare(standard="attack", move="move", target="orc"))
    enc.act(ax.Move(to=(2, 2)))
    enc.act(ax.Attack("orc"))
    assert enc.state.actor == "hero"
    enc.act(ax.EndTurn())
    assert enc.state.actor == "orc"


def test_the_ai_plays_a_whole_battle_declaring_every_round_and_replays_it() -> None:
    """The tactical AI declares each round (WOA-CYCLE-14), carries it out, and the same seed gives the same log."""
    from d20combat.controllers import TacticalAI, play
    from d20combat.dice import SeededDice
    from d20combat.encounter.engine import Encounter
    from d20combat.scenario import battle_from_data

    data = {"ruleset": "worlds-of-adventure", "map": {"width": 12, "height": 12},
            "combatants": [who("hero", HERO, "heroes", (1, 1)), who("ally", HERO, "heroes", (1, 3)),
                           who("o1", ORC, "monsters", (9, 9)), who("o2", ORC, "monsters", (9, 7)),
                           who("o3", ORC, "monsters", (7, 9))]}
    logs = []
    for _ in range(2):
        enc = Encounter(battle_from_data(data), SeededDice(21))
        play(enc, TacticalAI())
        assert enc.state.ended
        logs.append([e.to_json() for e in enc.log])
        assert sum(isinstance(e, ev.AttackResolved) for e in enc.log) > 3
        assert sum(isinstance(e, ev.DeclarationsOpened) for e in enc.log) == enc.state.round
    assert logs[0] == logs[1]
