"""WOA-REACT-08..16: aid attack and aid defense; and what the AI answers to each reaction prompt."""

from __future__ import annotations

import pytest
from tests.rules.woa._react import answer, attack_line, fight, fighter, orc, prompt
from tests.rules.woa._util import declare_all, who

from d20combat.controllers.ai import TacticalAI
from d20combat.encounter import actions as ax
from d20combat.encounter.engine import Encounter


def hero_attacks(friends: list[tuple[str, tuple[int, int]]], dice: list[int], **kw: object) -> Encounter:
    """hero (2,2) attacks the orc (3,2) first; each friend rolls its own initiative (10)."""
    people = [who("hero", fighter("hero", bab=3), "heroes", (2, 2)), who("orc", orc(), "monsters", (3, 2)),
              *[who(name, fighter(name), "heroes", pos) for name, pos in friends]]
    enc = fight(people, [20, 1, *range(10, 10 - len(friends), -1), *dice], **kw)  # type: ignore[arg-type]
    declare_all(enc, ax.Declare(standard="attack", target="orc"))
    assert enc.state.actor == "hero"
    return enc


def kinds_asked(enc: Encounter, **by: str) -> list[tuple[str, str]]:
    asked = []
    while enc.pending is not None:
        p = prompt(enc)
        asked.append((p.reactor, p.kind))
        enc.respond(by.get(p.reactor, "decline" if "decline" in p.options else "none"))
    return asked


def test_woa_react_08_09_10_aid_attack_minus_2() -> None:
    """WOA-REACT-08, WOA-REACT-09, WOA-REACT-10: an ally threatening the target is asked before the roll (no roll of its
    own); the target's AC is 2 lower against that attack."""
    enc = hero_attacks([("friend", (3, 3))], [10, 3])
    enc.act(ax.Attack("orc"))
    assert prompt(enc).reactor == "friend" and prompt(enc).kind == "aid_attack"
    events = enc.respond("aid")
    assert "aid attack (friend) 2" in attack_line(events) and "vs AC 8 " in attack_line(events)


def test_woa_react_08_only_an_ally_that_threatens_the_target() -> None:
    """WOA-REACT-08: an ally out of reach of the target is not asked."""
    enc = hero_attacks([("friend", (6, 6))], [10, 3])
    events = enc.act(ax.Attack("orc"))
    assert enc.pending is None and events


def test_woa_react_11_aids_stack() -> None:
    """WOA-REACT-11: two allies aid the same attack: −4."""
    enc = hero_attacks([("f1", (3, 3)), ("f2", (4, 2))], [10, 3])
    enc.act(ax.Attack("orc"))
    events = answer(enc, f1="aid", f2="aid")
    assert "vs AC 6 " in attack_line(events)


def test_woa_react_12_not_a_ranged_attack_nor_a_reaction() -> None:
    """WOA-REACT-12: no aid for a ranged attack, nor for an attack of opportunity (not the attacker's turn)."""
    people = [who("hero", fighter("hero", bab=3, weapon="longbow"), "heroes", (2, 2)),
              who("orc", orc(), "monsters", (2, 6)), who("friend", fighter("friend"), "heroes", (2, 7))]
    enc = fight(people, [20, 1, 10, 10, 3])
    declare_all(enc, ax.Declare(standard="attack", target="orc"))
    enc.act(ax.Attack("orc"))
    assert enc.pending is None
    people = [who("hero", fighter("hero", bab=3), "heroes", (2, 2)), who("orc", orc(), "monsters", (3, 2)),
              who("orc2", orc("orc2"), "monsters", (4, 3))]
    enc = fight(people, [20, 1, 2, 10, 3], variants={"woa_monster_initiative": "individual"})
    declare_all(enc, ax.Declare(move="move"))
    enc.act(ax.Move(to=(0, 2)))  # disengages: the orc strikes; orc2 threatens the hero but is not asked to aid
    assert kinds_asked(enc, orc="attack") == [("orc", "attack_of_opportunity")]


def orc_attacks_hero(friends: list[tuple[str, tuple[int, int]]], dice: list[int], **kw: object) -> Encounter:
    people = [who("hero", fighter("hero"), "heroes", (2, 2)), who("orc", orc(), "monsters", (3, 2)),
              *[who(name, fighter(name), "heroes", pos) for name, pos in friends]]
    enc = fight(people, [1, 20, *range(2, 2 + len(friends)), *dice], **kw)  # type: ignore[arg-type]
    declare_all(enc, ax.Declare(), ax.Declare(standard="attack", target="hero"))
    assert enc.state.actor == "orc"
    return enc


def test_woa_react_13_15_aid_defense_plus_2() -> None:
    """WOA-REACT-13, WOA-REACT-15: an ally threatening the attacker gives +2 AC against that attack."""
    enc = orc_attacks_hero([("friend", (4, 2))], [10, 3])
    enc.act(ax.Attack("hero"))
    assert prompt(enc).reactor == "friend" and prompt(enc).kind == "aid_defense"
    events = enc.respond("aid")
    assert "+ aid defense (friend) 2" in attack_line(events)
    assert "vs AC 12 " in attack_line(events)


def test_woa_react_13_only_an_ally_that_threatens_the_attacker() -> None:
    """WOA-REACT-13: an ally out of reach of the attacker is not asked."""
    enc = orc_attacks_hero([("friend", (1, 2))], [10, 3])
    enc.act(ax.Attack("hero"))
    assert enc.pending is None


def test_woa_react_16_aided_defenses_stack() -> None:
    """WOA-REACT-16: two allies aid the same defense: +4."""
    enc = orc_attacks_hero([("f1", (4, 2)), ("f2", (3, 3))], [10, 3])
    enc.act(ax.Attack("hero"))
    events = answer(enc, f1="aid", f2="aid")
    assert "vs AC 14 " in attack_line(events)


@pytest.mark.parametrize(("against_reactions", "asked"), [(False, False), (True, True)])
def test_woa_react_14_aid_defense_against_an_attack_of_opportunity(against_reactions: bool, asked: bool) -> None:
    """WOA-REACT-14 (AMBIGUOUS, ``woa_aid_defense_against_reactions``): by default only against an attack made on
    the opponent's own turn — not an attack of opportunity taken on the ally's turn."""
    people = [who("hero", fighter("hero"), "heroes", (2, 2)), who("orc", orc(), "monsters", (3, 2)),
              who("friend", fighter("friend"), "heroes", (4, 2))]
    enc = fight(people, [20, 1, 5, 10, 3], variants={"woa_aid_defense_against_reactions": against_reactions})
    declare_all(enc, ax.Declare(move="move"))
    enc.act(ax.Move(to=(0, 2)))
    kinds = kinds_asked(enc, orc="attack")
    assert (("friend", "aid_defense") in kinds) is asked


# --- the AI's answers ---------------------------------------------------------------------------------------------

def ai_answer(enc: Encounter) -> str:
    return TacticalAI().react(enc, prompt(enc))


@pytest.mark.parametrize(("weapon", "expected"), [("greatsword", "block"), ("club", "none")])
def test_woa_react_ai_blocks_the_big_hit(weapon: str, expected: str) -> None:
    """The AI blocks a hit that could take a quarter of its hit points; with its last reaction it keeps it
    against a small one (for an attack of opportunity)."""
    people = [who("hero", fighter("hero", warrior=6, hp=24), "heroes", (2, 2)),
              who("orc", orc(weapon=weapon), "monsters", (3, 2))]
    enc = fight(people, [1, 20])
    declare_all(enc, ax.Declare(), ax.Declare(standard="attack", target="hero"))
    enc.act(ax.Attack("hero"))
    assert ai_answer(enc) == expected


def test_woa_react_ai_dodges_when_outnumbered() -> None:
    """The AI dodges when two or more foes threaten it."""
    people = [who("hero", fighter("hero", rogue=4), "heroes", (2, 2)), who("orc", orc(), "monsters", (3, 2)),
              who("orc2", orc("orc2"), "monsters", (1, 2))]
    enc = fight(people, [1, 20, 19], variants={"woa_monster_initiative": "individual"})
    declare_all(enc, ax.Declare(), ax.Declare(standard="attack", target="hero"), ax.Declare())
    enc.act(ax.Attack("hero"))
    assert ai_answer(enc) == "dodge"


@pytest.mark.parametrize(("hero_hp", "expected"), [(30, "none"), (12, "aid")])
def test_woa_react_ai_aids_an_ally_who_is_focused(hero_hp: int, expected: str) -> None:
    """The AI spends its last reaction aiding the defense of an ally who is the focus (down to half its hit
    points here), and keeps it otherwise."""
    people = [who("hero", fighter("hero"), "heroes", (2, 2), hp=hero_hp), who("orc", orc(), "monsters", (3, 2)),
              who("friend", fighter("friend"), "heroes", (4, 2))]
    enc = fight(people, [1, 20, 2])
    declare_all(enc, ax.Declare(), ax.Declare(standard="attack", target="hero"))
    enc.act(ax.Attack("hero"))
    assert prompt(enc).reactor == "friend"
    assert ai_answer(enc) == expected
