"""Spell rules checked in play (they were only asserted on helpers): the Reflex save against an area spell counts
the shield (WOA-STAT-66), a helpless creature fails it (WOA-STAT-63), and haste's extra move action comes from the
cast spell (WOA-MOVE-12)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.woa._util import ORC, declare_all, who, woa
from tests.rules.woa.test_woa_ai_spells import mage
from tests.rules.woa.test_woa_spells import CASTER_FIRST, cast_round, fight

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.rulesets.worlds_of_adventure.spells import CastSpell


def fireball_saves(target: dict[str, Any], conditions: tuple[str, ...] = (), face: int = 6) -> ev.SaveRolled:
    """The mage's fireball (DC 17) at an orc 7 squares off (a lookout far away keeps the fight going); the orc's
    Reflex d20 is 6."""
    enc = woa([who("mage", mage(spell_fireball=1), "heroes", (0, 2)),
               who("orc", {**ORC, "hp": 100, **target}, "monsters", (7, 2), conditions=list(conditions)),
               who("lookout", {**ORC, "hp": 100}, "monsters", (13, 13))],
              [20, 1, 3, 4, *[6] * 5, face, *[6] * 6], width=14, height=14)
    declare_all(enc, ax.Declare(full_round="cast_spell"))
    enc.act(CastSpell("fireball", "orc"))
    enc.act(ax.EndTurn())
    return next(e for e in enc.log if isinstance(e, ev.SaveRolled) and e.target == "orc")


@pytest.mark.parametrize(("shield", "total"), [(True, 9), (False, 7)])
def test_woa_stat_66_the_shield_counts_on_reflex_against_an_area_spell(shield: bool, total: int) -> None:
    """WOA-STAT-66: a strapped heavy shield (+2) adds to the Reflex save against the fireball: 6 + 1 + 2 = 9."""
    save = fireball_saves({"shield": "heavy-wooden-shield"} if shield else {})
    assert save.total == total
    assert ("shield vs an area attack 2" in save.explanation) is shield


def test_woa_stat_63_a_helpless_creature_fails_its_reflex_save() -> None:
    """WOA-STAT-63: an unconscious orc fails the Reflex save as if the die showed 1: d20 18 + 1 = 19 against DC 17
    succeeds awake, fails asleep."""
    assert fireball_saves({}, face=18).success
    assert not fireball_saves({}, ("unconscious",), face=18).success


def test_woa_move_12_haste_gives_an_extra_move_action() -> None:
    """WOA-MOVE-12: the wizard casts haste (it lands at the end of the round, WOA-SPELL-16): next round it has two
    move actions (the ``hasted`` condition its buff carries), and the condition ends with the spell."""
    enc = fight([*CASTER_FIRST, *CASTER_FIRST, *CASTER_FIRST])
    cast_round(enc)
    enc.act(CastSpell("haste"))
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    assert enc.state.get("wizard").has("hasted")
    declare_all(enc, ax.Declare(move="move"), ax.Declare(move="move"))
    turn = enc.state.turn
    assert turn is not None and turn.actor == "wizard" and turn.pools["move"] == 2


@pytest.mark.parametrize(("conditions", "success"), [((), True), (("paralyzed",), False)])
def test_woa_stat_63_the_gms_reflex_save_fails_a_helpless_creature(conditions: tuple[str, ...],
                                                                   success: bool) -> None:
    """WOA-STAT-63: the GM calls a Reflex save (DC 15) and the orc rolls 18 + 1 = 19: it succeeds — unless it is
    paralyzed (helpless), when it fails as on a natural 1."""
    from d20combat.encounter import gm_actions as gm

    enc = woa([who("hero", {**ORC, "name": "hero"}, "heroes", (0, 0)),
               who("orc", ORC, "monsters", (5, 5), conditions=list(conditions)),
               who("lookout", ORC, "monsters", (9, 9))], [18])
    rolled = next(e for e in enc.gm(gm.GmSave("orc", "ref", 15)) if isinstance(e, ev.SaveRolled))
    assert rolled.total == 19 and rolled.success is success
