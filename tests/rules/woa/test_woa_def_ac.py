"""WOA-DEF-02..05: total defense's AC — its +4 dodge bonus, when it starts to count, and the reactions it leaves
(the total-defense *action* is the special attacks' area; these are the AC numbers it uses)."""

from __future__ import annotations

import pytest
from tests.rules._builders import stats
from tests.rules.woa._util import declare_all, who, woa

from d20combat.encounter.engine import Encounter
from d20combat.numbers import Modifier
from d20combat.rules.armor_class import DefenseContext
from d20combat.rulesets.worlds_of_adventure.defense import total_defense_allows, total_defense_dodge


def ready(**kw: object) -> Encounter:
    block = stats("hero", attacks=[{"weapon": "club"}], armor={"name": "scale", "armor_bonus": 5}, **kw)
    enc = woa([who("hero", block, "heroes", (1, 1)), who("orc", stats("orc", attacks=[{"weapon": "club"}]),
                                                          "monsters", (8, 8))], [20, 1])
    declare_all(enc)
    return enc


def ac(enc: Encounter, *extra: Modifier, unaware: bool = False) -> int:
    return enc.ruleset.defense.total(enc.creature("hero"), enc.state.get("hero"),
                                     DefenseContext(flat_footed=unaware), list(extra)).value


@pytest.mark.parametrize(("streak", "turn_reached", "expected"), [
    (1, False, 15),   # WOA-DEF-04: first round, an enemy acting before the defender's turn
    (1, True, 19),    # WOA-DEF-02: +4 once its turn has come
    (2, False, 19),   # WOA-DEF-05: second consecutive round: the whole round
    (0, True, 15),    # not in total defense
])
def test_woa_def_02_04_05_the_plus_4_and_when_it_counts(streak: int, turn_reached: bool, expected: int) -> None:
    """WOA-DEF-02/04/05: AC 15, total defense declared (initiative 12): an enemy at 18 attacks AC 15 in the first
    round, one at 8 attacks AC 19; in the next round of total defense AC 19 whatever the initiative."""
    enc = ready()
    bonus = total_defense_dodge(declared=streak > 0, streak=streak, turn_reached=turn_reached)
    assert ac(enc, *([bonus] if bonus else [])) == expected


def test_woa_def_02_a_dodge_bonus_stacking_and_lost_unaware() -> None:
    """WOA-DEF-02: the +4 is a dodge bonus — it stacks with the dodge reaction (+3: AC 15 + 4 + 3 = 22) and is lost
    with every dodge bonus against an attack the defender does not expect."""
    enc = ready()
    bonus = total_defense_dodge(declared=True, streak=2, turn_reached=True)
    assert bonus is not None and bonus.type == "dodge"
    dodge = Modifier(3, "dodge reaction", "dodge")
    assert ac(enc, bonus, dodge) == 22
    assert ac(enc, bonus, dodge, unaware=True) == 15


@pytest.mark.parametrize(("reaction", "expertise", "allowed"), [
    ("dodge", False, True), ("block", False, True),
    ("attack_of_opportunity", False, False), ("aid_attack", False, False), ("aid_defense", False, False),
    ("swift", False, False), ("immediate", False, False),
    ("attack_of_opportunity", True, True), ("aid_defense", True, True),
])
def test_woa_def_03_reactions_in_total_defense(reaction: str, expertise: bool, allowed: bool) -> None:
    """WOA-DEF-03: in total defense combat reactions only dodge or block — no attack of opportunity, aid, swift
    or immediate action — unless the creature has Combat Expertise."""
    enc = ready(feats=["combat_expertise"] if expertise else [])
    assert total_defense_allows(reaction, enc.creature("hero")) is allowed
