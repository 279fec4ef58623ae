"""The tactical AI casts spells, touches with a held charge and drinks potions under worlds-of-adventure
(``ai_spells.py``): it declares the casting (a full-round one alone, a standard one with a move action,
WOA-CYCLE-14/15, WOA-SPELL-01) and casts it on its turn — a Reflex-save area spell at a group of foes never catching
an ally, a buff before melee, the single target it most likely fells, a touch spell at an adjacent foe (the charge
held after a miss, WOA-SPELL-20); no casting while threatened when casting provokes; a healing potion when low and
not threatened (WOA-ITEM-21)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.woa._util import ORC, declare_all, who, woa

from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.controllers import TacticalAI
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.rulesets.worlds_of_adventure.ai_spells import choose_spell_action
from d20combat.rulesets.worlds_of_adventure.disengage import DefensiveDisengage
from d20combat.rulesets.worlds_of_adventure.items import DrinkPotion
from d20combat.rulesets.worlds_of_adventure.spells import CastSpell, TouchSpell, holding


def mage(**spells: int) -> dict[str, Any]:
    """Int 18 (save DC 14 + level), Con 14, BAB +2, a dagger (a hand free to gesture); ``spells``: attribute → count."""
    return {"name": "mage", "hp": 20, "attack_bonus": 2, "abilities": {"dex": 14, "int": 18, "con": 14},
            "saves": {"ref": 2}, "attacks": [{"weapon": "dagger"}],
            "attributes": dict(spells)}


FIGHTER = {"name": "fighter", "hp": 30, "attack_bonus": 5, "abilities": {"str": 16},
           "attacks": [{"weapon": "longsword"}]}


def ai_declares(enc: Encounter) -> ax.Action:
    action = TacticalAI().choose(enc)
    assert isinstance(action, ax.Declare)
    return action


def test_fireball_at_the_group_declared_full_round_and_landing_on_foes_only() -> None:
    """WOA-SPELL-01/14: the mage declares the full-round fireball alone, casts it at the orc whose burst catches
    both grouped orcs (not the lone one, not the ally 30 ft away), and at the end of its turn it lands on them."""
    enc = woa([who("mage", mage(spell_fireball=1, spell_magic_missile=1), "heroes", (0, 2)),
               who("ally", FIGHTER, "heroes", (1, 2)),
               who("a", ORC, "monsters", (7, 2)), who("b", ORC, "monsters", (8, 3)),
               who("c", ORC, "monsters", (7, 11))],
              [20, 1, 1, 1, 2, 3, *[6] * 5, 1, 1], width=14, height=14)
    assert ai_declares(enc) == ax.Declare(full_round="cast_spell")
    enc.act(ax.Declare(full_round="cast_spell"))
    declare_all(enc)
    assert enc.state.actor == "mage"
    cast = TacticalAI().choose(enc)
    assert isinstance(cast, CastSpell) and cast.spell == "fireball" and cast.target in ("a", "b")
    enc.act(cast)
    enc.act(ax.EndTurn())
    hurt = {e.target for e in enc.log if isinstance(e, ev.Damaged)}
    assert hurt == {"a", "b"}
    assert enc.state.get("ally").hp == 30 and enc.state.get("mage").hp == 20


def test_never_a_burst_that_catches_an_ally() -> None:
    """With the ally fighting beside the grouped orcs the fireball goes to the lone orc instead."""
    enc = woa([who("mage", mage(spell_fireball=1), "heroes", (0, 2)), who("ally", FIGHTER, "heroes", (8, 2)),
               who("a", ORC, "monsters", (7, 2)), who("b", ORC, "monsters", (8, 3)),
               who("c", ORC, "monsters", (7, 11))], width=14, height=14)
    assert choose_spell_action(enc, "mage") == CastSpell("fireball", "c")


def test_magic_missile_at_the_foe_it_most_likely_fells() -> None:
    """A standard casting is declared with a move action; the target is the foe with the fewest hit points left."""
    enc = woa([who("mage", mage(spell_magic_missile=2), "heroes", (0, 0)),
               who("a", ORC, "monsters", (6, 0)), who("b", ORC, "monsters", (9, 6), hp=4)])
    assert choose_spell_action(enc, "mage") == CastSpell("magic_missile", "b")
    assert ai_declares(enc) == ax.Declare(standard="cast_spell", move="move")


def test_a_buff_on_the_ally_before_melee_and_not_twice() -> None:
    """WOA-SPELL-16: shield of faith on the fighter (the better attack) while no foe threatens it; once it is
    pending on the fighter, on the mage itself (and still so once the fighter's has landed at the round's end)."""
    enc = woa([who("mage", mage(spell_shield_of_faith=3), "heroes", (0, 0)),
               who("ally", FIGHTER, "heroes", (1, 0)), who("orc", ORC, "monsters", (9, 9))],
              [20, 1, 20, 1])
    assert choose_spell_action(enc, "mage") == CastSpell("shield_of_faith", "ally")
    assert ai_declares(enc) == ax.Declare(standard="cast_spell", move="move")
    declare_all(enc, ax.Declare(standard="cast_spell", move="move"))
    enc.act(CastSpell("shield_of_faith", "ally"))
    assert choose_spell_action(enc, "mage") == CastSpell("shield_of_faith", None)
    enc.act(ax.EndTurn())
    while enc.state.round == 1:
        enc.act(ax.EndTurn())
    assert any(e.name == "shield of faith" for e in enc.state.get("ally").effects)
    assert choose_spell_action(enc, "mage") == CastSpell("shield_of_faith", None)


def test_no_buff_on_a_creature_already_in_melee() -> None:
    enc = woa([who("mage", mage(spell_shield_of_faith=1), "heroes", (0, 0)),
               who("ally", FIGHTER, "heroes", (5, 5)), who("orc", ORC, "monsters", (6, 5))])
    assert choose_spell_action(enc, "mage") == CastSpell("shield_of_faith", None)


def test_touch_spell_at_the_adjacent_foe_holding_the_charge_after_a_miss() -> None:
    """WOA-SPELL-17..20: shocking grasp cast next to the orc, the free touch in the casting round misses (a 1): the
    charge is held, no second free touch this turn; next round it declares the touch (a standard action)."""
    enc = woa([who("mage", mage(spell_shocking_grasp=1, spell_magic_missile=1), "heroes", (2, 2)),
               who("orc", ORC, "monsters", (3, 2))], [20, 1, 1])
    assert choose_spell_action(enc, "mage") == CastSpell("magic_missile", "orc")
    enc = woa([who("mage", mage(spell_shocking_grasp=1), "heroes", (2, 2)),
               who("orc", ORC, "monsters", (3, 2))], [20, 1, 1, 20, 1])
    assert ai_declares(enc) == ax.Declare(standard="cast_spell", move="move")
    declare_all(enc, ax.Declare(standard="cast_spell", move="move"))
    ai = TacticalAI()
    assert ai.choose(enc) == CastSpell("shocking_grasp")
    enc.act(CastSpell("shocking_grasp"))
    assert ai.choose(enc) == TouchSpell("orc")
    enc.act(TouchSpell("orc"))
    assert holding(enc.state.get("mage").conditions) is not None
    assert not isinstance(ai.choose(enc), TouchSpell)
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    assert enc.state.declaring and enc.state.declaring[0] == "mage"
    assert ai_declares(enc) == ax.Declare(standard="touch_spell", move="move")


def test_threatened_where_casting_provokes_it_disengages_first_or_does_not_cast(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Next to an orc the mage casts its magic missile while casting provokes nothing. When the reactions component
    says casting provokes (a ruling), it still declares the casting and on its turn first takes the defensive
    disengage (WOA-AOO-20: half speed, no attack of opportunity) to a square the orc does not threaten, then casts;
    slowed (no defensive disengage, WOA-AOO-22) it casts nothing and declares an attack instead."""
    enc = woa([who("mage", mage(spell_magic_missile=1), "heroes", (2, 2)), who("orc", ORC, "monsters", (3, 2))],
              [20, 1])
    assert choose_spell_action(enc, "mage") == CastSpell("magic_missile", "orc")
    monkeypatch.setitem(enc.ruleset.reactions.provoking_acts, "cast_spell", "casts a spell")
    assert ai_declares(enc) == ax.Declare(standard="cast_spell", move="move")
    declare_all(enc, ax.Declare(standard="cast_spell", move="move"))
    ai = TacticalAI()
    first = ai.choose(enc)
    assert isinstance(first, DefensiveDisengage)
    enc.act(first)
    here = enc.footprint("mage")
    assert footprint_distance_ft(here, enc.footprint("orc")) > 5
    assert not any(isinstance(e, ev.AttackResolved) for e in enc.log)
    assert ai.choose(enc) == CastSpell("magic_missile", "orc")
    slowed = woa([who("mage", mage(spell_magic_missile=1), "heroes", (2, 2), conditions=["slowed"]),
                  who("orc", ORC, "monsters", (3, 2))])
    monkeypatch.setitem(slowed.ruleset.reactions.provoking_acts, "cast_spell", "casts a spell")
    assert choose_spell_action(slowed, "mage") is None
    assert ai_declares(slowed).standard == "attack"


def test_drinks_a_healing_potion_when_low_and_not_threatened() -> None:
    """WOA-ITEM-21/24: at 5 of 20 hp with a potion of cure light wounds and no foe near, it declares and drinks it
    (healed at once); at full hp, or with the orc next to it, it does not."""
    block = mage(potion_cure_light_wounds=1, spell_magic_missile=1)
    enc = woa([who("mage", block, "heroes", (0, 0), hp=5), who("orc", ORC, "monsters", (9, 9))], [20, 1, 4])
    assert choose_spell_action(enc, "mage") == DrinkPotion("cure_light_wounds")
    assert ai_declares(enc) == ax.Declare(standard="drink_potion", move="move")
    declare_all(enc, ax.Declare(standard="drink_potion", move="move"))
    enc.act(TacticalAI().choose(enc))
    assert enc.state.get("mage").hp == 10
    healthy = woa([who("mage", block, "heroes", (0, 0)), who("orc", ORC, "monsters", (9, 9))])
    assert choose_spell_action(healthy, "mage") == CastSpell("magic_missile", "orc")
    pressed = woa([who("mage", block, "heroes", (0, 0), hp=5), who("orc", ORC, "monsters", (1, 0))])
    assert not isinstance(choose_spell_action(pressed, "mage"), DrinkPotion)
