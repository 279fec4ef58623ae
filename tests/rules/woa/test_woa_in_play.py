"""Rules that were only asserted on helpers or in log text, now checked in play (the engine offers, or does not
offer, the reaction; the AC the attack meets): WOA-AOO-08 (running and crawling out of a threatened area provoke),
WOA-DEF-02/03 (total defense's +4 is a dodge bonus; only dodge and block reactions), WOA-ITEM-17 and WOA-SPELL-27
(no combat reactions in a round of handling an item or maintaining a spell), WOA-FEINT-06 (no dodging the feinted
attack)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.woa._react import fight, fighter, orc
from tests.rules.woa._util import declare_all, who

from d20combat.encounter import actions as ax
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.rules.armor_class import DefenseContext
from d20combat.rulesets.worlds_of_adventure.actions import SwiftAction
from d20combat.rulesets.worlds_of_adventure.items import Manipulate
from d20combat.rulesets.worlds_of_adventure.postures import Crawl
from d20combat.rulesets.worlds_of_adventure.run import Run
from d20combat.rulesets.worlds_of_adventure.total_defense import TotalDefense


def offered(enc: Encounter) -> tuple[str, str] | None:
    return (enc.pending.prompt.kind, enc.pending.prompt.reactor) if enc.pending is not None else None


def hero_by_orc(hero: dict[str, Any], *, conditions: tuple[str, ...] = (), **kw: Any) -> Encounter:
    """hero (2,2) next to the orc (3,2), initiative: the hero first."""
    return fight([who("hero", hero, "heroes", (2, 2), conditions=list(conditions)),
                  who("orc", orc(), "monsters", (3, 2))], [20, 1, *[10, 3] * 4], width=12, height=12, **kw)


@pytest.mark.parametrize(("declared", "action", "conditions"), [
    (ax.Declare(move="move"), ax.Move(to=(0, 2)), ()),
    (ax.Declare(full_round="run"), Run(to=(2, 9)), ()),
    (ax.Declare(move="move"), Crawl(to=(1, 2)), ("prone",)),
])
def test_woa_aoo_08_disengaging_provokes_however_the_creature_moves(declared: ax.Declare, action: ax.Action,
                                                                   conditions: tuple[str, ...]) -> None:
    """WOA-AOO-08: leaving the orc's threatened area provokes its attack of opportunity — walking, running (WOA-MOVE-17)
    or crawling (WOA-MOVE-46) alike."""
    enc = hero_by_orc(fighter("hero", bab=3), conditions=conditions)
    declare_all(enc, declared)
    enc.act(action)
    assert offered(enc) == ("attack_of_opportunity", "orc")


@pytest.mark.parametrize(("feats", "asked"), [([], False), (["combat_expertise"], True)])
def test_woa_def_03_no_attack_of_opportunity_in_total_defense(feats: list[str], asked: bool) -> None:
    """WOA-DEF-03: the warrior in total defense is not offered the attack of opportunity when the orc disengages —
    unless it has Combat Expertise."""
    enc = hero_by_orc(fighter("hero", warrior=4, bab=3, feats=feats))
    declare_all(enc, ax.Declare(standard="total_defense"), ax.Declare(move="move"))
    enc.act(TotalDefense())
    enc.act(ax.EndTurn())
    enc.act(ax.Move(to=(6, 2)))
    assert (offered(enc) == ("attack_of_opportunity", "hero")) is asked


def test_woa_def_03_total_defense_still_dodges_and_blocks() -> None:
    """WOA-DEF-03: against the orc's attack the warrior in total defense is asked to dodge or block."""
    enc = hero_by_orc(fighter("hero", warrior=4, bab=3))
    declare_all(enc, ax.Declare(standard="total_defense"), ax.Declare(standard="attack", target="hero"))
    enc.act(TotalDefense())
    enc.act(ax.EndTurn())
    enc.act(ax.Attack("hero"))
    assert enc.pending is not None and {"dodge", "block"} <= set(enc.pending.prompt.options)


def test_woa_def_03_no_aid_and_no_swift_action_in_total_defense() -> None:
    """WOA-DEF-03: in total defense the warrior neither aids its ally's attack on the orc (it is not asked) nor takes
    a swift action."""
    ally = fighter("ally", bab=3)
    enc = fight([who("hero", fighter("hero", warrior=4, bab=3), "heroes", (2, 2)),
                 who("ally", ally, "heroes", (3, 3)), who("orc", orc(), "monsters", (3, 2))],
                [20, 15, 1, 12, 3, 12, 3], width=12, height=12)
    declare_all(enc, ax.Declare(standard="total_defense"), ax.Declare(standard="attack", target="orc"))
    enc.act(TotalDefense())
    with pytest.raises(IllegalAction, match="WOA-DEF-03"):
        enc.act(SwiftAction("quickened thought"))
    enc.act(ax.EndTurn())
    assert enc.state.actor == "ally"
    enc.act(ax.Attack("orc"))
    assert offered(enc) is None  # no aid-attack prompt for the hero


def test_woa_def_02_total_defense_is_a_dodge_bonus_lost_when_unaware() -> None:
    """WOA-DEF-02: the +4 is a dodge bonus: AC 14 against an expected attack, 10 against one the warrior does not
    expect (every dodge bonus is lost, WOA-STAT-42)."""
    enc = hero_by_orc(fighter("hero", warrior=4, bab=3))
    declare_all(enc, ax.Declare(standard="total_defense"))
    enc.act(TotalDefense())
    d, creature, state = enc.ruleset.defense, enc.creature("hero"), enc.state.get("hero")
    assert d.total(creature, state, DefenseContext(), []).value == 14
    assert d.total(creature, state, DefenseContext(flat_footed=True), []).value == 10


@pytest.mark.parametrize(("ruling", "asked"), [(True, False), (False, True)])
def test_woa_item_17_no_reactions_in_a_round_of_handling_an_item(ruling: bool, asked: bool) -> None:
    """WOA-ITEM-17 (the DM's call, option ``woa_item_costs_reactions``): the hero opened a door this round — by default
    it makes no combat reaction (no attack of opportunity when the orc disengages); ruled otherwise it does."""
    enc = hero_by_orc(fighter("hero", warrior=4, bab=3), variants={"woa_item_costs_reactions": ruling})
    declare_all(enc, ax.Declare(move="move"), ax.Declare(move="move"))
    enc.act(Manipulate("door"))
    enc.act(ax.EndTurn())
    enc.act(ax.Move(to=(6, 2)))
    assert (offered(enc) == ("attack_of_opportunity", "hero")) is asked


def test_woa_spell_27_no_reactions_while_concentrating() -> None:
    """WOA-SPELL-27: a creature maintaining a spell this round (the ``concentrating`` mark its casting sets) makes no
    attack of opportunity."""
    enc = hero_by_orc(fighter("hero", warrior=4, bab=3), conditions=("concentrating",))
    declare_all(enc, ax.Declare(), ax.Declare(move="move"))
    assert enc.state.get("hero").has("concentrating")
    enc.act(ax.EndTurn())
    enc.act(ax.Move(to=(6, 2)))
    assert offered(enc) is None


@pytest.mark.parametrize("feinted", [True, False])
def test_woa_feint_06_the_feinted_attack_cannot_be_dodged(feinted: bool) -> None:
    """WOA-FEINT-06: after a successful feint (15 + Dex 2 = 17 against 5 + BAB 2 + Wis 1 = 8) the warrior 4 duelist
    is not offered the dodge against the hero's melee attack (block stays, the literal reading); without the feint
    it is offered both."""
    from tests.rules._builders import stats
    from tests.rules.woa._util import HERO

    from d20combat.rulesets.worlds_of_adventure.feint import Feint

    duelist = stats("duelist", hp=20, attack_bonus=2, abilities={"dex": 14, "wis": 12},
                    attributes={"warrior_level": 4}, attacks=[{"weapon": "club"}])
    enc = fight([who("hero", HERO, "heroes", (2, 2)), who("foe", duelist, "monsters", (3, 2))],
                [10, 3, 15, 5, 6, 4])
    declare_all(enc, ax.Declare(standard="attack", move="feint" if feinted else "move", target="foe"))
    if feinted:
        enc.act(Feint(target="foe"))
    enc.act(ax.Attack(target="foe"))
    assert enc.pending is not None and enc.pending.prompt.reactor == "foe"
    options = set(enc.pending.prompt.options)
    assert "block" in options and ("dodge" in options) is not feinted
