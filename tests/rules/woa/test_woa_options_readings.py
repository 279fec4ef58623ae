"""The AMBIGUOUS readings of WOA-1.md made options by W10: each tested with its default (the proposed reading) and
with the alternative."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.woa._util import HERO, ORC, declare_all, who, woa

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev


def _initiative(variants: dict[str, Any]) -> int:
    enc = woa([who("hero", HERO, "heroes", (1, 1), conditions=["refocused", "flat_footed"]),
               who("orc", ORC, "monsters", (8, 8))], [3], variants=variants)
    declare_all(enc)
    return [e for e in enc.log if isinstance(e, ev.InitiativeRolled) and e.combatant == "hero"][-1].total


@pytest.mark.parametrize(("ignores", "expected"), [(False, 20 + 4 - 20), (True, 20 + 4)])
def test_woa_init_27_refocus_20_is_no_natural_20(ignores: bool, expected: int) -> None:
    """WOA-INIT-27 (AMBIGUOUS): a refocused, flat-footed hero (initiative +4): the die counts as 20 and −20
    flat-footed still applies (the reading: 4); ``woa_refocus_ignores_penalties`` → 24."""
    assert _initiative({"woa_refocus_ignores_penalties": ignores}) == expected


# --- WOA-STAT-76: a superior success's quarter ----------------------------------------------------------------------
@pytest.mark.parametrize(("quarter_of", "expected"), [("full", 5), ("half", 2)])
def test_woa_stat_76_superior_success_quarter_of_what(quarter_of: str, expected: int) -> None:
    """WOA-STAT-76 (AMBIGUOUS): a 6d6 fireball rolling 21 (least 6), saved with a superior success: ¼ of the full
    roll = 5 (the reading); ¼ of the halved damage (10) = 2 with ``woa_superior_quarter_of: half``."""
    from d20combat.rulesets import get_ruleset
    from d20combat.rulesets.worlds_of_adventure.saves import Degree, WoaSaves, half_damage_on_save

    amount, why = half_damage_on_save(Degree.SUPERIOR, 21, 6, 36, quarter_of=quarter_of)
    assert amount == expected and "WOA-STAT-76" in why
    ruleset = get_ruleset("worlds-of-adventure")
    saves = ruleset.compose(ruleset.Options(woa_superior_quarter_of=quarter_of)).saves
    assert isinstance(saves, WoaSaves) and saves.superior_quarter_of == quarter_of


# --- WOA-SPELL-26: the maintenance concentration DC ------------------------------------------------------------------
@pytest.mark.parametrize(("with_level", "dc", "kept"), [(True, 18, False), (False, 16, True)])
def test_woa_spell_26_maintenance_dc_with_the_spells_level(with_level: bool, dc: int, kept: bool) -> None:
    """WOA-SPELL-26 (AMBIGUOUS): 6 damage to a wizard maintaining silent image (level 1): DC 10 + 6 + 2 × 1 = 18
    (the reading), 9 + 8 = 17 fails and the spell ends; without the level (``woa_maintenance_dc_level: false``)
    DC 16, kept."""
    from tests.rules.woa.test_woa_spells import CASTER_FIRST, cast_round, checks, fight

    from d20combat.encounter.gm_actions import GmDamage
    from d20combat.rulesets.worlds_of_adventure.spells import CastSpell

    enc = fight([*CASTER_FIRST, *CASTER_FIRST, 9], variants={"woa_maintenance_dc_level": with_level})
    cast_round(enc)
    enc.act(CastSpell("silent_image"))
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    declare_all(enc, ax.Declare(standard="spell_upkeep", move="move"), ax.Declare(move="move"))
    (check,) = checks(enc.gm(GmDamage("wizard", 6)))
    assert check.dc == dc and check.success is kept
    assert enc.state.get("wizard").has("maintaining:silent_image") is kept


# --- WOA-REACT-02: a reaction at BAB +0 ------------------------------------------------------------------------------
@pytest.mark.parametrize(("at_bab_0", "bab", "budget"), [(1, 0, 1), (0, 0, 0), (0, 1, 1), (0, 6, 2)])
def test_woa_react_02_at_least_one_reaction_at_bab_0(at_bab_0: int, bab: int, budget: int) -> None:
    """WOA-REACT-02 (AMBIGUOUS): every creature has at least 1 combat reaction, BAB +0 included (the reading);
    ``woa_reactions_at_bab_0: 0`` → none at BAB +0, BAB +1 and up unchanged."""
    from tests.rules.woa._react import fighter, hero_vs_orc, left

    enc = hero_vs_orc(fighter("hero", bab=bab), [1, 20], variants={"woa_reactions_at_bab_0": at_bab_0})
    assert left(enc, "hero") == budget


# --- WOA-REACT-22: the block value's rounding -----------------------------------------------------------------------
@pytest.mark.parametrize(("rounding", "extra", "dr"), [
    ("down", {"weapon": "longsword"}, 2), ("up", {"weapon": "longsword"}, 3),    # ⅓ × 8 = 2.67
    ("down", {"weapon": "dagger"}, 2), ("up", {"weapon": "dagger"}, 2),          # ¼ × 8 = 2 either way
    ("down", {"weapon": "greatsword"}, 4), ("up", {"weapon": "greatsword"}, 4),  # ½ × 8 = 4
])
def test_woa_react_22_block_value_rounding(rounding: str, extra: dict[str, str], dr: int) -> None:
    """WOA-REACT-22 (AMBIGUOUS): warrior 8 blocking with a longsword: ⅓ × 8 rounds down to DR 2 (the reading), up
    to 3 with ``woa_block_rounding: up``; exact fractions do not change."""
    from tests.rules.woa._react import fighter, hero_vs_orc, orc, orc_first, prompt

    enc = hero_vs_orc(fighter("hero", warrior=8, **extra), [1, 20, 18, 6], orc_block=orc(bab=10),
                      variants={"woa_block_rounding": rounding})
    orc_first(enc)
    enc.act(ax.Attack("hero"))
    assert f"block: DR {dr} " in prompt(enc).detail
    hit = [e for e in enc.respond("block") if isinstance(e, ev.Damaged) and e.target == "hero"]
    assert [d.amount for d in hit] == [max(6 - dr, 0)]


# --- WOA-AOO-11: a short step does not ignore a threat ---------------------------------------------------------------
@pytest.mark.parametrize(("counts", "offered"), [(False, []), (True, ["a"])])
def test_woa_aoo_11_a_short_step_and_ignoring_a_threat(counts: bool, offered: list[str]) -> None:
    """WOA-AOO-11 (AMBIGUOUS) / WOA-AOO-19: after a short step within orc A's area, attacking orc B provokes nothing
    (the reading); with ``woa_short_step_ignores_threat`` it provokes from A (only)."""
    from tests.rules.woa._react import fight, fighter, orc
    from tests.rules.woa.test_woa_aoo import offered as offered_by

    enc = fight([who("hero", fighter("hero", bab=3), "heroes", (2, 2)), who("a", orc("a"), "monsters", (3, 2)),
                 who("b", orc("b"), "monsters", (2, 4))], [20, 1, 2, 10, 3],
                variants={"woa_monster_initiative": "individual", "woa_short_step_ignores_threat": counts})
    declare_all(enc, ax.Declare(standard="attack", move="move", target="b"))
    assert enc.state.actor == "hero"
    enc.act(ax.Step(to=(2, 3)))
    enc.act(ax.Attack("b"))
    assert offered_by(enc) == offered


# --- WOA-FEINT-06: a feinted foe may still block ---------------------------------------------------------------------
@pytest.mark.parametrize(("bars", "can_block"), [(False, True), (True, False)])
def test_woa_feint_06_a_feinted_foe_may_still_block(bars: bool, can_block: bool) -> None:
    """WOA-FEINT-06 (AMBIGUOUS): the feint takes Dex, dodge and shield, not the block — a feinted warrior (level 4,
    club) may still block the hero's next melee attack (the literal reading); ``woa_feint_bars_block`` → it may not."""
    from tests.rules.woa.test_woa_feint import FEINT, duelist, fight

    from d20combat.rulesets.worlds_of_adventure.feint import Feint

    enc = fight([10, 3, 15, 5, 6, 4], foe=duelist(attributes={"warrior_level": 4}),
                variants={"woa_feint_bars_block": bars})
    declare_all(enc, FEINT)
    enc.act(Feint(target="foe"))
    assert enc.state.get("foe").has("feinted")
    enc.act(ax.Attack(target="foe"))
    offered = enc.pending.prompt.options if enc.pending is not None else ()
    assert ("block" in offered) is can_block


# --- WOA-SPELL-24: the held charge's unarmed attack ------------------------------------------------------------------
@pytest.mark.parametrize(("touch", "discharged"), [(False, False), (True, True)])
def test_woa_spell_24_unarmed_attack_while_holding_against_normal_ac(touch: bool, discharged: bool) -> None:
    """WOA-SPELL-24 (AMBIGUOUS): holding shocking grasp, the wizard punches an orc in armor (AC 14, touch AC 10):
    10 + BAB 2 = 12 misses normal AC (the reading: the charge stays held); with ``woa_held_charge_touch_ac`` it
    hits touch AC and discharges."""
    from tests.rules._builders import armored
    from tests.rules.woa.test_woa_spells import CASTER_FIRST, WIZ, cast_round

    from d20combat.rulesets.worlds_of_adventure.spells import CastSpell

    brute = armored("orc", 4, hp=60, attack_bonus=3, saves={"ref": 1})
    enc = woa([who("wizard", WIZ, "heroes", (2, 2)), who("orc", brute, "monsters", (3, 2))],
              [*CASTER_FIRST, *CASTER_FIRST, 10, 3, 3, 3, 3, 3, 2], variants={"woa_held_charge_touch_ac": touch})
    cast_round(enc)
    enc.act(CastSpell("shocking_grasp"))
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    declare_all(enc, ax.Declare(standard="attack", move="move", target="orc"), ax.Declare(move="move"))
    events = enc.act(ax.Attack("orc", "unarmed-strike"))
    assert enc.decision().prompt.kind == "attack_of_opportunity"  # type: ignore[union-attr]  # WOA-AOO-16
    events += enc.respond("decline")
    (resolved,) = [e for e in events if isinstance(e, ev.AttackResolved)]
    assert resolved.hit is discharged and f"vs AC {10 if touch else 14} " in resolved.lines[-1]
    assert any(c.startswith("holding_charge") for c in enc.state.get("wizard").conditions) is not discharged


# --- WOA-REACT-17: who is a warrior (a documented reading, no option) -----------------------------------------------
@pytest.mark.parametrize(("attributes", "can_block"), [({"fighter_level": 8}, False), ({"warrior_level": 8}, True)])
def test_woa_react_17_only_the_warrior_level_counts(attributes: dict[str, int], can_block: bool) -> None:
    """WOA-REACT-17 (MISSING/AMBIGUOUS, the reading): the stat block's ``warrior_level`` is the warrior level; a
    class level under another name (here ``fighter_level``) does not make a warrior — it cannot block."""
    from tests.rules.woa._react import fighter, hero_vs_orc, orc, orc_first

    enc = hero_vs_orc(fighter("hero", attributes=attributes), [1, 20, 18, 6], orc_block=orc(bab=10))
    orc_first(enc)
    enc.act(ax.Attack("hero"))
    offered = enc.pending.prompt.options if enc.pending is not None else ()  # no dodge either: no level of it
    assert ("block" in offered) is can_block
