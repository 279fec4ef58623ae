"""WOA-SPELL-01..30: casting times, components, concentration and the disruption window, when spells take effect,
touch spells and holding the charge, maintaining, dismissing and redirecting (data/woa_spells.yaml)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules._builders import stats
from tests.rules.woa._util import declare_all, who, woa

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.encounter.gm_actions import GmCondition, GmDamage
from d20combat.encounter.resolution import Tx
from d20combat.rulesets.worlds_of_adventure.spell_data import spell_table
from d20combat.rulesets.worlds_of_adventure.spell_timing import CASTING, maneuver_disruption
from d20combat.rulesets.worlds_of_adventure.spells import CastSpell, QuickCast, SpellUpkeep, TouchSpell

SPELLS = {f"spell_{name}": 2 for name in spell_table()}
WIZ = stats("wizard", hp=30, attack_bonus=2, abilities={"int": 16, "dex": 10}, saves={"ref": 1},
            skills={"concentration": 8}, attributes=SPELLS,
            attacks=[{"weapon": "unarmed-strike"}, {"weapon": "dagger"}])
"""Initiative +1; concentration +8; save DC 10 + level + Int 3."""
BRUTE = stats("orc", hp=60, attack_bonus=3, abilities={"dex": 10}, saves={"ref": 1}, attacks=[{"weapon": "club"}])
"""Reflex +1, touch AC 10."""
CASTER_FIRST = [15, 5]
"""The initiative dice: the wizard (and its friends) roll first, the monsters' side one die."""


def fight(dice: list[int], *extra: dict[str, Any], wiz: dict[str, Any] | None = None,
          orc_at: tuple[int, int] = (3, 2), **kw: Any) -> Encounter:
    return woa([who("wizard", wiz or WIZ, "heroes", (2, 2)), *extra, who("orc", BRUTE, "monsters", orc_at)],
               dice, **kw)


def cast_round(enc: Encounter, slot: str = "standard", orc: ax.Declare | None = None, n_friends: int = 0) -> None:
    decl = ax.Declare(full_round="cast_spell") if slot == "full_round" else ax.Declare(standard="cast_spell",
                                                                                       move="move")
    declare_all(enc, decl, *[ax.Declare(move="move")] * n_friends, orc or ax.Declare(move="move"))


def since(enc: Encounter, start: int) -> list[ev.Event]:
    return enc.log[start:]


def damaged(events: list[ev.Event], target: str) -> list[ev.Damaged]:
    return [e for e in events if isinstance(e, ev.Damaged) and e.target == target]


def checks(events: list[ev.Event]) -> list[ev.SaveRolled]:
    return [e for e in events if isinstance(e, ev.SaveRolled) and e.check == "concentration"]


def pending(enc: Encounter, cid: str = "wizard") -> list[str]:
    return sorted(c for c in enc.state.get(cid).conditions if c.startswith("pending:"))


# --- casting times and when spells take effect -------------------------------------------------------------------
def test_woa_spell_01_and_14_fireball_is_full_round_and_lands_at_the_end_of_the_turn() -> None:
    """WOA-SPELL-01: fireball takes a full-round action; WOA-SPELL-14: it takes effect at the end of the caster's
    turn. Then the Reflex save for half (WOA-STAT-76): DC 10 + 3 + Int 3 = 16, the orc rolls 15 + 1."""
    enc = fight([*CASTER_FIRST, 4, 4, 4, 4, 4, 15], orc_at=(9, 9))
    cast_round(enc, "full_round")
    events = enc.act(CastSpell("fireball", "orc"))
    spent = next(e for e in events if isinstance(e, ev.BudgetSpent))
    assert spent.cost == "full-round"
    assert not damaged(events, "orc") and pending(enc) == ["pending:fireball:orc:end_of_turn:spell"]
    events = enc.act(ax.EndTurn())
    hit = damaged(events, "orc")
    assert [d.amount for d in hit] == [10] and "half of 20" in hit[0].explanation
    assert pending(enc) == []


def test_woa_spell_15_and_13_a_swift_spell_lands_at_once_without_the_drawbacks() -> None:
    """WOA-SPELL-15: a swift casting time takes effect immediately; WOA-SPELL-13: no reaction ban, no disruption."""
    enc = fight([*CASTER_FIRST, 2, 3, 4])
    declare_all(enc, ax.Declare(move="move"), ax.Declare(move="move"))
    events = enc.act(QuickCast("quickened_magic_missile", "orc"))
    assert [d.amount for d in damaged(events, "orc")] == [2 + 3 + 4 + 3]
    assert not enc.state.get("wizard").has(CASTING)
    events = enc.gm(GmDamage("wizard", 10))
    assert not checks(events)


def test_woa_spell_16_a_buff_lands_at_the_end_of_the_round() -> None:
    """WOA-SPELL-16: haste (a buff) takes effect at the end of the round, whatever its casting time."""
    enc = fight(CASTER_FIRST)
    cast_round(enc)
    enc.act(CastSpell("haste"))
    enc.act(ax.EndTurn())
    assert not enc.state.get("wizard").effects
    assert pending(enc) == ["pending:haste:-:end_of_round:spell"]
    enc.act(ax.EndTurn())  # the orc: the round ends
    assert [e.name for e in enc.state.get("wizard").effects] == ["haste"]
    assert enc.state.get("wizard").effects[0].ac == 1


def test_woa_spell_09_and_10_casting_flags_the_round_and_clears_at_its_end() -> None:
    """WOA-SPELL-09, WOA-SPELL-10: the round in which a standard or full-round spell is cast carries the flag
    ``casting`` (the reactions component forbids every reaction, dodge and block included); it ends with the
    round."""
    enc = fight(CASTER_FIRST)
    cast_round(enc)
    enc.act(CastSpell("haste"))
    assert enc.state.get("wizard").has(CASTING)
    enc.act(ax.EndTurn())
    assert enc.state.get("wizard").has(CASTING)
    enc.act(ax.EndTurn())
    assert not enc.state.get("wizard").has(CASTING)


# --- components -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("condition", "rule"), [("gagged", "WOA-SPELL-02"), ("silenced", "WOA-SPELL-02"),
                                                 ("hands_full", "WOA-SPELL-05"), ("grappling", "WOA-SPELL-05"),
                                                 ("cannot_concentrate", "WOA-SPELL-07")])
def test_woa_spell_02_05_07_what_stops_a_casting(condition: str, rule: str) -> None:
    """WOA-SPELL-02 (V: gagged, silenced), WOA-SPELL-05 (S: hands full — swimming, clinging —, grappling),
    WOA-SPELL-07 (no concentration): refused, nothing changes."""
    enc = fight(CASTER_FIRST)
    enc.gm(GmCondition("wizard", condition))
    cast_round(enc)
    before = enc.state
    with pytest.raises(IllegalAction, match=rule):
        enc.act(CastSpell("magic_missile", "orc"))
    assert enc.state is before


def test_woa_spell_05_both_hands_full_stops_somatic_components() -> None:
    """WOA-SPELL-05: a weapon in hand and a shield on the arm leave no hand free to gesture."""
    wiz = {**WIZ, "shield": "light-wooden-shield", "wielding": "dagger"}
    enc = fight(CASTER_FIRST, wiz=wiz)
    cast_round(enc)
    with pytest.raises(IllegalAction, match="no hand free"):
        enc.act(CastSpell("magic_missile", "orc"))


def test_woa_spell_06_material_components_need_the_pouch() -> None:
    """WOA-SPELL-06: without a component pouch, no spell with an M component (fireball); a V, S spell still goes."""
    enc = fight([*CASTER_FIRST, 1, 1, 1])
    enc.gm(GmCondition("wizard", "no_component_pouch"))
    cast_round(enc)
    with pytest.raises(IllegalAction, match="WOA-SPELL-06"):
        enc.act(CastSpell("haste"))
    enc.act(CastSpell("magic_missile", "orc"))


def test_woa_spell_03_a_verbal_spell_cannot_be_cast_stealthily() -> None:
    """WOA-SPELL-03: a hidden caster casting a spell with a verbal component is hidden no more: it cannot be
    whispered or mumbled."""
    enc = fight(CASTER_FIRST)
    enc.gm(GmCondition("wizard", "hidden"))
    cast_round(enc)
    enc.act(CastSpell("haste"))
    assert not enc.state.get("wizard").has("hidden")


@pytest.mark.parametrize(("pct", "spoiled"), [(20, True), (21, False)])
def test_woa_spell_04_deafened_spoils_a_verbal_spell_on_20_percent(pct: int, spoiled: bool) -> None:
    """WOA-SPELL-04: a deafened caster spoils a V spell on d% ≤ 20; the spell is spent either way (WOA-SPELL-08)."""
    enc = fight([*CASTER_FIRST, pct])
    enc.gm(GmCondition("wizard", "deafened"))
    cast_round(enc)
    enc.act(CastSpell("haste"))
    assert (pending(enc) == []) is spoiled
    assert enc.state.get("wizard").has("used:spell_haste:1")


# --- concentration and the disruption window ---------------------------------------------------------------------
@pytest.mark.parametrize(("face", "holds"), [(14, False), (15, True)])
def test_woa_spell_11_damage_during_the_turn_dc_10_damage_2_level(face: int, holds: bool) -> None:
    """WOA-SPELL-11 (worked example): a 3rd-level standard spell, 7 damage during the turn → DC 10 + 7 + 6 = 23;
    concentration +8; WOA-SPELL-08: a fizzled spell has no effect and still counts as cast."""
    enc = fight([*CASTER_FIRST, face])
    cast_round(enc)
    enc.act(CastSpell("haste"))
    events = enc.gm(GmDamage("wizard", 7))
    (check,) = checks(events)
    assert check.dc == 23 and check.total == face + 8 and check.success is holds
    assert (pending(enc) != []) is holds
    assert enc.state.get("wizard").has("used:spell_haste:1")


def test_woa_spell_11_damage_before_the_turn_is_checked_when_casting() -> None:
    """WOA-SPELL-11: damage taken before the turn of a creature that declared a casting: a check for it when it
    casts (DC 10 + 5 + 2 × 1 = 17; 8 + 8 fails): the spell fizzles, still cast."""
    enc = fight([5, 15, 8])
    cast_round(enc, orc=ax.Declare(move="move"))
    assert enc.state.actor == "orc"
    enc.gm(GmDamage("wizard", 5))
    assert enc.state.get("wizard").has("disrupted:5")
    enc.act(ax.EndTurn())
    events = enc.act(CastSpell("magic_missile", "orc"))
    (check,) = checks(events)
    assert check.dc == 17 and not check.success
    assert not damaged(events, "orc") and pending(enc) == []
    assert enc.state.get("wizard").has("used:spell_magic_missile:1")


@pytest.mark.parametrize(("after_turn", "checked"), [(True, True), (False, False)])
def test_woa_spell_11_a_full_round_spell_can_be_disrupted_after_the_turn(after_turn: bool, checked: bool) -> None:
    """WOA-SPELL-11 (AMBIGUOUS, ``woa_full_round_window_after_turn``): a full-round summons waits for the end of
    the round and can still be disrupted after the caster's turn; the other reading closes the window."""
    enc = fight([*CASTER_FIRST, 20], variants={"woa_full_round_window_after_turn": after_turn})
    cast_round(enc, "full_round")
    enc.act(CastSpell("summon_monster_iii"))
    enc.act(ax.EndTurn())
    events = enc.gm(GmDamage("wizard", 3))
    assert bool(checks(events)) is checked


def test_woa_spell_11_a_standard_spell_after_the_turn_is_out_of_the_window() -> None:
    """WOA-SPELL-11: a standard-time buff waiting for the end of the round is not disrupted after the turn."""
    enc = fight(CASTER_FIRST)
    cast_round(enc)
    enc.act(CastSpell("haste"))
    enc.act(ax.EndTurn())
    assert not checks(enc.gm(GmDamage("wizard", 3)))
    assert pending(enc) == ["pending:haste:-:end_of_round:spell"]


def test_woa_spell_12_a_successful_maneuver_dc_roll_plus_2_level() -> None:
    """WOA-SPELL-12: a caster of a 3rd-level full-round summons is successfully tripped with a maneuver roll of 19
    → DC 19 + 2 × 3 = 25; concentration 16 + 8 = 24 fails and the spell fizzles."""
    enc = fight([*CASTER_FIRST, 16])
    cast_round(enc, "full_round")
    enc.act(CastSpell("summon_monster_iii"))
    tx = Tx(enc.state, enc)
    maneuver_disruption(tx, enc.ruleset, "wizard", 19)
    (check,) = checks(tx.events)
    assert check.dc == 25 and not check.success
    assert not any(c.startswith("pending:") for c in tx.state.get("wizard").conditions)


def test_woa_spell_08_a_fizzled_spell_is_spent() -> None:
    """WOA-SPELL-08: a fizzled spell counts as cast — with one prepared, the next round's casting is refused."""
    wiz = {**WIZ, "attributes": {"spell_haste": 1}}
    enc = fight([*CASTER_FIRST, 1, *CASTER_FIRST], wiz=wiz)
    cast_round(enc)
    enc.act(CastSpell("haste"))
    enc.gm(GmDamage("wizard", 7))
    assert pending(enc) == []
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    cast_round(enc)
    with pytest.raises(IllegalAction, match="no spell haste left"):
        enc.act(CastSpell("haste"))


# --- touch spells and the held charge -----------------------------------------------------------------------------
def test_woa_spell_17_18_19_cast_then_touch_a_foe_in_the_same_round() -> None:
    """WOA-SPELL-17, WOA-SPELL-18: cast, then touch in the same round (the touch comes with the casting);
    WOA-SPELL-19: a foe needs a touch attack against touch AC (d20 12 + BAB 2 = 14 vs 10)."""
    enc = fight([*CASTER_FIRST, 12, 3, 3, 3, 3, 3])
    cast_round(enc)
    enc.act(CastSpell("shocking_grasp"))
    assert enc.state.get("wizard").has(f"holding_charge:shocking_grasp:{enc.state.round}")
    events = enc.act(TouchSpell("orc"))
    assert next(e for e in events if isinstance(e, ev.BudgetSpent)).cost == "free"
    assert [d.amount for d in damaged(events, "orc")] == [15]
    assert not any(c.startswith("holding_charge") for c in enc.state.get("wizard").conditions)


def test_woa_spell_20_a_miss_keeps_the_charge_for_later_rounds() -> None:
    """WOA-SPELL-20: missed (natural 1), the charge is held; next round the touch attack is a standard action."""
    enc = fight([*CASTER_FIRST, 1, 15, 5, 18, 2, 2, 2, 2, 2])
    cast_round(enc)
    enc.act(CastSpell("shocking_grasp"))
    enc.act(TouchSpell("orc"))
    assert any(c.startswith("holding_charge") for c in enc.state.get("wizard").conditions)
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    declare_all(enc, ax.Declare(standard="touch_spell", move="move"), ax.Declare(move="move"))
    events = enc.act(TouchSpell("orc"))
    assert next(e for e in events if isinstance(e, ev.BudgetSpent)).cost == "standard"
    assert [d.amount for d in damaged(events, "orc")] == [10]


def test_woa_spell_19_and_21_friends_are_touched_automatically_six_as_a_full_round() -> None:
    """WOA-SPELL-19: a friend is touched without a roll; WOA-SPELL-21: up to six friends as a full-round action;
    WOA-SPELL-22: touching discharges the spell (nothing is held after)."""
    friends = [who(f"ally{i}", stats(f"ally{i}", hp=20), "heroes", (1, 1 + i)) for i in range(2)]
    enc = fight([15, 14, 13, 5, 15, 14, 13, 5, 3, 3], *friends)
    cast_round(enc, n_friends=2)
    enc.act(CastSpell("cure_light_wounds"))
    enc.act(ax.EndTurn())
    for _ in range(3):
        enc.act(ax.EndTurn())
    declare_all(enc, ax.Declare(full_round="touch_spell"))
    enc.gm(GmDamage("ally0", 10))
    enc.gm(GmDamage("ally1", 10))
    events = enc.act(TouchSpell(friends=("ally0", "ally1")))
    assert next(e for e in events if isinstance(e, ev.BudgetSpent)).cost == "full-round"
    healed = [e for e in events if isinstance(e, ev.Healed)]
    assert sorted(h.target for h in healed) == ["ally0", "ally1"]
    assert not any(c.startswith("holding_charge") for c in enc.state.get("wizard").conditions)


def test_woa_spell_23_casting_another_spell_dissipates_the_charge() -> None:
    """WOA-SPELL-23: casting another spell while holding a charge: the held spell dissipates without effect."""
    enc = fight([*CASTER_FIRST, *CASTER_FIRST])
    cast_round(enc)
    enc.act(CastSpell("shocking_grasp"))
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    declare_all(enc, ax.Declare(standard="cast_spell", move="move"), ax.Declare(move="move"))
    events = enc.act(CastSpell("magic_missile", "orc"))
    assert any(isinstance(e, ev.ConditionSet) and e.condition.startswith("holding_charge") and not e.present
               and "WOA-SPELL-23" in e.reason for e in events)


@pytest.mark.parametrize(("face", "discharged"), [(18, True), (2, False)])
def test_woa_spell_24_an_unarmed_attack_while_holding(face: int, discharged: bool) -> None:
    """WOA-SPELL-24: an unarmed attack (against normal AC) that hits deals its damage and discharges the spell; a
    miss keeps the charge."""
    enc = fight([*CASTER_FIRST, *CASTER_FIRST, face, 3, 3, 3, 3, 3, 2])
    cast_round(enc)
    enc.act(CastSpell("shocking_grasp"))
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    declare_all(enc, ax.Declare(standard="attack", move="move", target="orc"), ax.Declare(move="move"))
    events = enc.act(ax.Attack("orc", "unarmed-strike"))
    # WOA-AOO-16: the unarmed attack on the armed orc provokes; the orc lets it pass
    assert enc.decision().prompt.kind == "attack_of_opportunity"  # type: ignore[union-attr]
    events += enc.respond("decline")
    holding = any(c.startswith("holding_charge") for c in enc.state.get("wizard").conditions)
    assert holding is not discharged
    assert (sum(d.amount for d in damaged(events, "orc")) > 10) is discharged


# --- maintaining, dismissing, redirecting ---------------------------------------------------------------------------
def test_woa_spell_25_27_28_maintaining_a_spell() -> None:
    """WOA-SPELL-25: concentrating to maintain is a standard action (the flag ``concentrating``, WOA-SPELL-27: no
    reactions); not concentrating on a turn ends it; WOA-SPELL-28: ceasing is free."""
    enc = fight([*CASTER_FIRST, *CASTER_FIRST])
    cast_round(enc)
    enc.act(CastSpell("silent_image"))
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    assert enc.state.get("wizard").has("maintaining:silent_image")
    declare_all(enc, ax.Declare(standard="spell_upkeep", move="move"), ax.Declare(move="move"))
    events = enc.act(SpellUpkeep("silent_image", "concentrate"))
    assert next(e for e in events if isinstance(e, ev.BudgetSpent)).cost == "standard"
    assert enc.state.get("wizard").has("concentrating")
    events = enc.act(SpellUpkeep("silent_image", "cease"))
    assert next(e for e in events if isinstance(e, ev.BudgetSpent)).cost == "free"
    assert not enc.state.get("wizard").has("maintaining:silent_image")


def test_woa_spell_25_no_concentration_ends_the_spell_at_the_end_of_the_turn() -> None:
    """WOA-SPELL-25: a turn without concentrating ends a maintained spell."""
    enc = fight([*CASTER_FIRST, *CASTER_FIRST])
    cast_round(enc)
    enc.act(CastSpell("silent_image"))
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    declare_all(enc, ax.Declare(move="move"), ax.Declare(move="move"))
    enc.act(ax.EndTurn())
    assert not enc.state.get("wizard").has("maintaining:silent_image")


def test_woa_spell_26_damage_breaks_a_maintained_spell() -> None:
    """WOA-SPELL-26 (AMBIGUOUS: the casting DC with the spell's level): 6 damage → DC 10 + 6 + 2 = 18; 5 + 8
    fails and the spell ends."""
    enc = fight([*CASTER_FIRST, *CASTER_FIRST, 5])
    cast_round(enc)
    enc.act(CastSpell("silent_image"))
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    declare_all(enc, ax.Declare(standard="spell_upkeep", move="move"), ax.Declare(move="move"))
    events = enc.gm(GmDamage("wizard", 6))
    (check,) = checks(events)
    assert check.dc == 18 and not check.success
    assert not enc.state.get("wizard").has("maintaining:silent_image")


def test_woa_spell_29_dismissing_is_a_standard_action() -> None:
    """WOA-SPELL-29: dismissing shield of faith (dismissible) is a standard action; its effect ends."""
    enc = fight([*CASTER_FIRST, *CASTER_FIRST])
    cast_round(enc)
    enc.act(CastSpell("shield_of_faith"))
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    assert [e.name for e in enc.state.get("wizard").effects] == ["shield of faith"]
    declare_all(enc, ax.Declare(standard="spell_upkeep", move="move"), ax.Declare(move="move"))
    with pytest.raises(IllegalAction, match="WOA-SPELL-29"):
        enc.act(SpellUpkeep("haste", "dismiss"))
    events = enc.act(SpellUpkeep("shield_of_faith", "dismiss"))
    assert next(e for e in events if isinstance(e, ev.BudgetSpent)).cost == "standard"
    assert not enc.state.get("wizard").effects


def test_woa_spell_30_redirecting_is_a_move_action() -> None:
    """WOA-SPELL-30: redirecting flaming sphere is a move action and needs no concentration."""
    enc = fight([*CASTER_FIRST, 3, 3, 20, *CASTER_FIRST, 4, 4, 20])
    cast_round(enc)
    enc.act(CastSpell("flaming_sphere", "orc"))
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    declare_all(enc, ax.Declare(move="move"), ax.Declare(move="move"))
    events = enc.act(SpellUpkeep("flaming_sphere", "redirect", "orc"))
    assert next(e for e in events if isinstance(e, ev.BudgetSpent)).cost == "move"
    assert not enc.state.get("wizard").has("concentrating")


def test_woa_spell_18_the_move_may_come_between_casting_and_touching() -> None:
    """WOA-SPELL-18: cast, move to the foe, then touch — all in the casting round (the touch is free)."""
    enc = fight([*CASTER_FIRST, 12, 3, 3, 3, 3, 3], orc_at=(5, 2))
    cast_round(enc)
    enc.act(CastSpell("shocking_grasp"))
    enc.act(ax.Move(to=(4, 2)))
    events = enc.act(TouchSpell("orc"))
    assert next(e for e in events if isinstance(e, ev.BudgetSpent)).cost == "free"
    assert [d.amount for d in damaged(events, "orc")] == [15]


@pytest.mark.parametrize(("action", "message"), [
    (CastSpell("wish", "orc"), "no spell 'wish'"),
    (CastSpell("magic_missile", "ghost"), "no creature 'ghost'"),
    (CastSpell("magic_missile"), "name the creature magic missile is aimed at"),
    (TouchSpell("orc"), "holds no charge"),
    (SpellUpkeep("silent_image", "concentrate"), "maintains no silent image"),
    (QuickCast("haste"), "declare it and use cast_spell"),
])
def test_woa_spell_bad_input_is_refused_and_changes_nothing(action: ax.Action, message: str) -> None:
    """Bad input names the problem; the state does not change."""
    enc = fight(CASTER_FIRST)
    cast_round(enc)
    before = enc.state
    with pytest.raises(IllegalAction, match=message):
        enc.act(action)
    assert enc.state is before


def test_woa_spell_actions_come_from_json() -> None:
    """The actions are posted as JSON like any other (lists become tuples)."""
    enc = fight(CASTER_FIRST)
    got = enc.actions.from_dict({"kind": "touch_spell", "friends": ["wizard"]})
    assert got == TouchSpell(friends=("wizard",))
    assert enc.actions.from_dict({"kind": "cast_spell", "spell": "fireball", "target": "orc"}) == \
        CastSpell("fireball", "orc")
