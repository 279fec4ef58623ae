"""SKL threatened squares and attacks of opportunity (SKL-AOO-01..29). The window is exercised through
``enc.pending`` / ``enc.respond``: a provoking action pauses until the threatening creature answers."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.skl.helpers import attacks, damage, encounter, fighter, illegal, resolve, sheet

from d20combat.battlefield.grid import Footprint
from d20combat.encounter import events as ev
from d20combat.encounter.actions import Activity, Attack, EndTurn, Move, Reload, StandUp, Step, action_from_dict
from d20combat.rulesets.skill_based import BonusAttack, CastSpell, Reserve

ORC = sheet("orc", hp=40, skills={"defense": 4}, dex=2)


def squares_threatened(block: dict[str, Any], at: tuple[int, int] = (5, 5), **variants: Any) -> set[tuple[int, int]]:
    enc = encounter([{"id": "f", "side": "x", "stats": block, "position": list(at)},
                     {"id": "o", "side": "y", "stats": sheet("o"), "position": [0, 0]}], variants=variants,
                    width=14, height=14)
    rs, creature, cs = enc.ruleset, enc.creature("f"), enc.state.get("f")
    fp = Footprint(at, creature.space)
    return {(c, r) for c in range(14) for r in range(14)
            if rs.reactions.threatened(creature, cs, fp, Footprint((c, r), 1))}


def mover_and_fighter(mover: dict[str, Any] | None = None, *, dice: list[int] | None = None,
                      f_block: dict[str, Any] | None = None, mover_at: tuple[int, int] = (6, 5),
                      extra: list[dict[str, Any]] | None = None, **kw: Any) -> Any:
    """The mover (``orc``) acts first; the fighter at (5, 5) (+6 with a longsword) threatens it."""
    return encounter([{"id": "orc", "side": "y", "stats": mover or ORC, "position": list(mover_at)},
                      {"id": "f", "side": "x", "stats": f_block or fighter("f"), "position": [5, 5]},
                      *(extra or [])], dice=dice or [], width=14, height=14, **kw)


def provoked(enc: Any, action: Any) -> str | None:
    """The trigger of the attack-of-opportunity prompt ``action`` opens, or None; the prompt is declined."""
    enc.act(action)
    if enc.pending is None or enc.pending.prompt.kind != "attack_of_opportunity":
        return None
    trigger: str = enc.pending.prompt.trigger
    enc.respond("decline")
    while enc.pending is not None:
        enc.respond("decline" if "decline" in enc.pending.prompt.options else "none")
    return trigger


# ---------------------------------------------------------------------------- threatened squares
def test_skl_aoo_03_adjacent_squares_diagonals_included() -> None:
    """SKL-AOO-03 (worked example): a Medium fighter with a longsword at (5,5) threatens the 8 squares around."""
    assert squares_threatened(fighter()) == {(c, r) for c in (4, 5, 6) for r in (4, 5, 6)} - {(5, 5)}


def test_skl_aoo_05_medium_reach_is_5_feet() -> None:
    """SKL-AOO-05: Medium reach is 5 ft: nothing 2 squares away, and no attack at 10 ft."""
    assert (7, 5) not in squares_threatened(fighter())
    enc = mover_and_fighter(mover_at=(7, 5))
    resolve(enc, EndTurn())
    assert "beyond f's reach of 5 ft" in illegal(enc, Attack("orc"))


def test_skl_aoo_06_reach_weapons_threaten_more_squares() -> None:
    """SKL-AOO-06: a reach weapon (weapon data ``reach``) threatens more than the 8 adjacent squares."""
    spear = fighter(skills={"spear": 4}, weapon="longspear")
    assert len(squares_threatened(spear)) == 16 > len(squares_threatened(fighter()))


def test_skl_aoo_08_a_reach_weapon_threatens_the_ring_two_squares_away() -> None:
    """SKL-AOO-08 (AMBIGUOUS; text L129; worked example): with a longspear the 16 squares 2 squares away, the
    corner (7,7) included (15 ft by the 5/10 rule), not the adjacent ones; ``skl_reach_inclusive`` → 24."""
    spear = fighter(skills={"spear": 4}, weapon="longspear")
    ring = squares_threatened(spear)
    assert (7, 7) in ring and (3, 3) in ring and (6, 6) not in ring and (5, 7) in ring and len(ring) == 16
    assert len(squares_threatened(spear, skl_reach_inclusive=True)) == 24
    enc = mover_and_fighter(f_block=spear, mover_at=(6, 5))
    resolve(enc, EndTurn())
    assert "beyond" in illegal(enc, Attack("orc"))
    enc = mover_and_fighter(f_block=spear, mover_at=(7, 7), dice=[2])
    resolve(enc, EndTurn())
    assert not attacks(resolve(enc, Attack("orc")))[0].hit


def test_skl_aoo_07_larger_creatures_use_their_natural_reach() -> None:
    """SKL-AOO-07 (MISSING table: the stat block's reach, PF1's size table when absent): the ogre (Large)
    reaches 10 ft."""
    ogre = sheet("ogre", skills={"club": 3}, weapon="greatclub-large", size="large")
    near = squares_threatened(ogre, at=(5, 5))
    assert (3, 5) in near and (8, 6) in near  # 2 squares straight out from its 2×2 space
    assert (2, 5) not in near


def test_skl_aoo_09_other_distances_follow_the_5_10_rule() -> None:
    """SKL-AOO-09 (MISSING rule implied: PFB's 5/10 diagonals): the ogre's 10-ft reach does not cover the
    square 2 diagonals away (15 ft), unlike a Medium reach weapon's ring."""
    ogre = sheet("ogre", skills={"club": 3}, weapon="greatclub-large", size="large")
    near = squares_threatened(ogre, at=(5, 5))
    assert (3, 3) not in near and (4, 4) in near and (3, 4) in near


def test_skl_aoo_02_threat_even_off_turn_and_with_an_empty_hand() -> None:
    """SKL-AOO-02 (AMBIGUOUS; worked example): a fighter with a bow in hand still threatens with an unarmed
    strike; ``skl_unarmed_threatens`` off → he threatens nothing."""
    archer = fighter(skills={"bow": 2, "unarmed": 1}, weapon="shortbow")
    assert len(squares_threatened(archer)) == 8
    assert squares_threatened(archer, skl_unarmed_threatens=False) == set()
    enc = mover_and_fighter(f_block=archer)  # not the fighter's turn
    assert provoked(enc, Move(to=(8, 5))) is not None


# ---------------------------------------------------------------------------- what provokes
def test_skl_aoo_10_moving_out_and_acting_in_a_threatened_square_provoke() -> None:
    """SKL-AOO-10: both kinds: leaving a threatened square, and an act performed in one."""
    assert "leaves (6, 5), a threatened square" in (provoked(mover_and_fighter(), Move(to=(9, 5))) or "")
    assert "stands up" in (provoked(_prone_orc(), StandUp()) or "")


def _prone_orc() -> Any:
    return encounter([{"id": "orc", "side": "y", "stats": ORC, "position": [6, 5], "conditions": ["prone"]},
                      {"id": "f", "side": "x", "stats": fighter("f"), "position": [5, 5]}], width=14, height=14)


def test_skl_aoo_04_an_enemy_acting_in_a_threatened_square_provokes() -> None:
    """SKL-AOO-04: the same act provokes in a threatened square and not outside one."""
    bowman = sheet("orc", skills={"bow": 2}, weapon="shortbow")
    assert provoked(mover_and_fighter(bowman, dice=[2]), Attack("f")) is not None
    assert provoked(mover_and_fighter(bowman, mover_at=(9, 5), dice=[2]), Attack("f")) is None


def test_skl_aoo_11_each_threatening_opponent_may_attack_the_leaver() -> None:
    """SKL-AOO-11 (reading: from each threatener): leaving squares two fighters threaten asks both."""
    enc = mover_and_fighter(extra=[{"id": "g", "side": "x", "stats": fighter("g"), "position": [7, 5]}])
    enc.act(Move(to=(6, 9)))
    asked = []
    while enc.pending is not None:
        asked.append(enc.pending.prompt.reactor)
        enc.respond("decline")
    assert asked == ["f", "g"] and enc.state.get("orc").position == (6, 9)


def test_skl_aoo_12_no_five_foot_step_or_withdraw_unless_the_variant() -> None:
    """SKL-AOO-12 (MISSING): no 5-foot step and no withdraw by default; ``skl_pf_actions`` adds PFB's step, a free
    action that does not provoke and forbids other movement that round."""
    enc = mover_and_fighter()
    assert "skl_pf_actions" in illegal(enc, Step((7, 5)))
    with pytest.raises(ValueError, match="unknown action kind 'withdraw'"):
        action_from_dict({"kind": "withdraw"})
    enc = mover_and_fighter(variants={"skl_pf_actions": True})
    events = resolve(enc, Step((7, 5)))
    assert enc.pending is None and enc.state.get("orc").position == (7, 5)
    assert [e.cost for e in events if isinstance(e, ev.BudgetSpent)] == ["free"]
    assert "5-foot step" in illegal(enc, Move(to=(9, 5)))


def test_skl_aoo_13_only_distracting_acts_provoke() -> None:
    """SKL-AOO-13: acts that divert attention provoke; speaking or dropping prone does not."""
    assert provoked(mover_and_fighter(), Activity("speak")) is None
    assert provoked(mover_and_fighter(), Activity("light-torch")) is not None


def test_skl_aoo_14_firing_a_ranged_weapon_provokes() -> None:
    """SKL-AOO-14 (worked example): an adjacent archer fires → the attack of opportunity comes first and the shot
    then goes ahead; an archer two squares from a longsword-wielder does not provoke."""
    bowman = sheet("orc", skills={"bow": 2}, weapon="shortbow")
    enc = mover_and_fighter(bowman, dice=[3, 2], extra=[{"id": "g", "side": "x", "stats": sheet("g"),
                                                         "position": [6, 9]}])
    enc.act(Attack("g"))
    assert enc.pending is not None and "fires a ranged weapon in a threatened square (SKL-AOO-14)" in \
        enc.pending.prompt.trigger
    events = enc.respond("attack")
    assert [(a.attacker, a.target) for a in attacks(events)] == [("f", "orc"), ("orc", "g")]
    assert provoked(mover_and_fighter(bowman, mover_at=(7, 5), dice=[2]), Attack("f")) is None


def test_skl_aoo_15_casting_a_spell_provokes() -> None:
    """SKL-AOO-15."""
    caster = sheet("orc", skills={"sorcery": 3}, weapon="ray-of-frost")
    assert "casts a spell" in (provoked(mover_and_fighter(caster, dice=[2]), CastSpell("ray-of-frost", "f")) or "")


def test_skl_aoo_16_standing_up_provokes_and_is_a_basic_action() -> None:
    """SKL-AOO-16 (MISSING: prone is PFB's posture; standing up is a basic action)."""
    enc = _prone_orc()
    assert "stands up from prone" in (provoked(enc, StandUp()) or "")
    spent = [e for e in enc.log if isinstance(e, ev.BudgetSpent)]
    assert spent[-1].cost == "basic" and not enc.state.get("orc").has("prone")


def test_skl_aoo_17_loading_a_crossbow_provokes() -> None:
    """SKL-AOO-17."""
    xbow = sheet("orc", skills={"crossbow": 2}, weapon="light-crossbow")
    enc = mover_and_fighter(xbow, dice=[2])
    resolve(enc, Attack("f"))  # the bolt goes (and provokes); now empty
    resolve(enc, EndTurn())
    resolve(enc, EndTurn())
    assert "loads a crossbow" in (provoked(enc, Reload("light-crossbow")) or "")


@pytest.mark.parametrize(("rule", "activity", "words"), [
    ("SKL-AOO-18", "retrieve-from-backpack", "retrieves a stored item"),
    ("SKL-AOO-19", "stabilize", "stabilizes a dying ally"),
    ("SKL-AOO-20", "light-torch", "lights a torch"),
    ("SKL-AOO-21", "move-heavy-object", "moves a heavy object"),
])
def test_skl_aoo_18_to_21_listed_acts_provoke(rule: str, activity: str, words: str) -> None:
    """SKL-AOO-18 retrieve a stored item, SKL-AOO-19 stabilize a dying ally, SKL-AOO-20 light a torch,
    SKL-AOO-21 move a heavy object (text, L146–L149)."""
    trigger = provoked(mover_and_fighter(), Activity(activity)) or ""
    assert words in trigger and rule in trigger


def test_skl_aoo_22_exceptions_to_provoking() -> None:
    """SKL-AOO-22: a talent (feat ``no_provoke:<act>``) exempts an act that normally provokes."""
    caster = sheet("orc", skills={"sorcery": 3}, weapon="ray-of-frost", feats=["no_provoke:cast_spell"])
    assert provoked(mover_and_fighter(caster, dice=[2]), CastSpell("ray-of-frost", "f")) is None


# ---------------------------------------------------------------------------- making the attack
def test_skl_aoo_01_an_attack_of_opportunity_is_free() -> None:
    """SKL-AOO-01: it costs no action and no reserve, only the round's one opportunity."""
    enc = mover_and_fighter(dice=[2])
    enc.act(Move(to=(9, 5)))
    events = enc.respond("attack")
    assert [(e.combatant, e.pool) for e in events if isinstance(e, ev.ReactionSpent)] == [("f", "aoo")]
    assert enc.state.get("f").reactions["reserve"] == 1 and enc.state.get("f").reactions["aoo"] == 0


def test_skl_aoo_23_a_single_melee_attack() -> None:
    """SKL-AOO-23: one melee attack; a fighter with a bow in hand strikes unarmed."""
    archer = fighter("f", skills={"bow": 2, "unarmed": 1}, weapon="shortbow")
    enc = mover_and_fighter(f_block=archer, dice=[2])
    events = resolve(enc, Move(to=(9, 5)), "attack")
    assert [(a.attacker, a.attack) for a in attacks(events)] == [("f", "unarmed-strike")]


def test_skl_aoo_24_one_per_round() -> None:
    """SKL-AOO-24 (worked example): the orc leaves (6,5) → the fighter attacks; later that round a goblin leaves
    another threatened square → no attack of opportunity; the next round it is back."""
    goblin = {"id": "gob", "side": "y", "stats": sheet("gob"), "position": [4, 5]}
    enc = mover_and_fighter(dice=[2], extra=[goblin])
    resolve(enc, Move(to=(9, 5)), "attack")
    resolve(enc, EndTurn())
    resolve(enc, EndTurn())  # the fighter
    enc.act(Move(to=(1, 5)))
    assert enc.pending is None and enc.state.get("gob").position == (1, 5)
    resolve(enc, EndTurn())
    assert enc.state.round == 2 and enc.state.get("f").reactions["aoo"] == 1


def test_skl_aoo_25_the_attack_is_optional() -> None:
    """SKL-AOO-25: declining lets the move finish untouched."""
    enc = mover_and_fighter()
    events = resolve(enc, Move(to=(9, 5)), "decline")
    assert not attacks(events) and enc.state.get("orc").position == (9, 5)
    assert enc.state.get("f").reactions["aoo"] == 1


def test_skl_aoo_26_no_iterative_attacks() -> None:
    """SKL-AOO-26 (AMBIGUOUS: no full attack): one attack per complex action, never a second at a lower bonus;
    the attack of opportunity stands apart."""
    enc = encounter([{"id": "f", "side": "x", "stats": fighter("f"), "position": [5, 5]},
                     {"id": "orc", "side": "y", "stats": ORC, "position": [6, 5]}], dice=[2])
    resolve(enc, Attack("orc"))
    assert "no complex action left" in illegal(enc, Attack("orc"))
    with pytest.raises(ValueError, match="unknown action kind"):
        action_from_dict({"kind": "full_attack", "target": "orc"})


def test_skl_aoo_27_normal_attack_bonus_even_after_attacking() -> None:
    """SKL-AOO-27 (worked example): the fighter attacked on his turn; later an adjacent enemy casts a spell → his
    attack of opportunity is still at +6. Two-weapon penalties are part of the normal bonus."""
    caster = sheet("orc", skills={"sorcery": 3, "defense": 0}, weapon="ray-of-frost")
    enc = encounter([{"id": "f", "side": "x", "stats": fighter("f"), "position": [5, 5]},
                     {"id": "orc", "side": "y", "stats": caster, "position": [6, 5]}], dice=[2, 3, 3])
    resolve(enc, Attack("orc"))
    resolve(enc, EndTurn())
    enc.act(CastSpell("ray-of-frost", "f"))
    assert enc.pending is not None
    events = enc.respond("attack")
    assert "9 = d20 3 + sword skill 4 + Str 2" in attacks(events)[0].lines[1]
    twf = fighter("f", attacks=[{"weapon": "longsword"}, {"weapon": "dagger", "off_hand": True}], weapon=None,
                  wielding="longsword")
    enc = encounter([{"id": "orc", "side": "y", "stats": ORC, "position": [6, 5]},
                     {"id": "f", "side": "x", "stats": twf, "position": [5, 5], "conditions": ["two-weapon fighting"]}],
                    dice=[2])
    events = resolve(enc, Move(to=(9, 5)), "attack")
    assert "− two-weapon primary hand 4" in attacks(events)[0].lines[1]


def test_skl_aoo_28_the_attack_interrupts_before_the_move_completes() -> None:
    """SKL-AOO-28: resolved at once, before the provoking movement goes on."""
    enc = mover_and_fighter(dice=[15, 4])
    events = resolve(enc, Move(to=(9, 5)), "attack")
    kinds = [e.kind for e in events]
    assert kinds.index("attack_resolved") < kinds.index("moved")
    assert "attacks orc" in attacks(events)[0].lines[0] and damage(events)


def test_skl_aoo_29_afterwards_the_turn_goes_on_unless_the_mover_dropped() -> None:
    """SKL-AOO-29: the provoking creature completes its turn if it can; a mover brought down stops and its turn
    ends."""
    enc = mover_and_fighter(dice=[2])
    resolve(enc, Move(to=(9, 5)), "attack")
    assert enc.state.turn is not None and enc.state.turn.actor == "orc" and enc.state.get("orc").position == (9, 5)
    frail = sheet("orc", hp=3)
    enc = mover_and_fighter(frail, dice=[15, 8], extra=[{"id": "o2", "side": "y", "stats": sheet("o2"),
                                                          "position": [0, 0]}])
    resolve(enc, Move(to=(9, 5)), "attack")
    assert enc.state.get("orc").position == (6, 5) and enc.state.turn is not None
    assert enc.state.turn.actor != "orc"


def test_skl_aoo_reserve_declared_at_the_start_of_the_turn_dodges_the_provoked_attack() -> None:
    """SKL-AOO (worked example, with SKL-RES-02): the orc declared 1 complex action in reserve → it may dodge the
    attack of opportunity its own movement provoked; undeclared, it may not."""
    enc = mover_and_fighter(dice=[10, 15])
    resolve(enc, Reserve(1))
    enc.act(Move(to=(9, 5)))
    enc.respond("attack")
    assert enc.pending is not None and enc.pending.prompt.reactor == "orc" and "dodge" in enc.pending.prompt.options
    events = enc.respond("dodge")  # 16 vs 15 + 4 + 2 = 21
    assert not attacks(events)[0].hit and enc.state.get("orc").position == (9, 5)
    enc = mover_and_fighter(dice=[10, 4])
    enc.act(Move(to=(9, 5)))
    enc.respond("attack")
    assert enc.pending is None


def test_skl_aoo_off_hand_thrown_attack_provokes_too() -> None:
    """SKL-AOO-14 with SKL-TWF-22: the off-hand throw is also firing a ranged weapon."""
    darts = sheet("orc", skills={"dart": 2}, attacks=[
        {"weapon": "dart"}, {"weapon": {"name": "dart-2", "damage": "1d4", "kind": "thrown", "hands": "light",
                                        "range_increment_ft": 20, "skill": "dart"}, "off_hand": True}],
        weapon=None, wielding="dart")
    enc = encounter([{"id": "orc", "side": "y", "stats": darts, "position": [6, 5],
                      "conditions": ["two-weapon fighting"]},
                     {"id": "f", "side": "x", "stats": fighter("f"), "position": [5, 5]}], dice=[2, 2], width=14,
                    height=14)
    resolve(enc, Attack("f"), "decline")
    assert "fires a ranged weapon" in (provoked(enc, BonusAttack("f")) or "")


def test_skl_aoo_27_a_critical_attack_may_be_declared_on_it() -> None:
    """SKL-AOO-27 (reading): the prompt offers the plain attack and each critical-attack penalty (SKL-CRIT-02)."""
    enc = mover_and_fighter(dice=[12, 5])
    enc.act(Move(to=(9, 5)))
    assert enc.pending is not None
    assert enc.pending.prompt.options == ("attack", "critical -1", "critical -2", "critical -3", "critical -4",
                                          "critical -5", "decline")
    events = enc.respond("critical -3")
    line = attacks(events)[0].lines[1]
    assert "15 = d20 12 + sword skill 4 + Str 2 − critical attack 3 vs Passive Defense 12" in line
    assert damage(events)[0].amount == 5 + 2 + 3
