"""SKL Passive Defense, block and dodge (SKL-DEF-01..08), reserve actions (SKL-RES-01..06) and ranged weapons
in melee (SKL-RNG-01..03). Reaction prompts are answered through ``enc.pending`` / ``enc.respond``."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.skl.helpers import (
    attacks,
    damage,
    duel,
    encounter,
    fighter,
    illegal,
    notes,
    resolve,
    sheet,
)

from d20combat.controllers import TacticalAI
from d20combat.encounter import events as ev
from d20combat.encounter.actions import Activity, Attack, Draw, EndTurn, Move
from d20combat.rulesets.skill_based import CastSpell, Reserve
from d20combat.rulesets.skill_based.active_defense import BlockAndDodge


def _target_number(enc: Any, attacker: str, target: str) -> tuple[int, str]:
    plan = enc.plan_attack(attacker, target)
    return enc.target_ac(plan, enc.state)


def _last_line(events: list[ev.Event]) -> str:
    return attacks(events)[0].lines[-1]


# ---------------------------------------------------------------------------- DEF
@pytest.mark.parametrize(("dex", "armor", "pd"), [(3, None, 13), (-1, None, 9), (0, "full-plate", 10)])
def test_skl_def_01_passive_defense_is_10_plus_dex(dex: int, armor: str | None, pd: int) -> None:
    """SKL-DEF-01 (worked examples): Dex +3 → 13; Dex −1 → 9; heavy armor and a shield leave it unchanged."""
    target = sheet("b", dex=dex, armor=armor, shield="heavy-steel-shield")
    enc = duel(fighter(), target)
    value, parts = _target_number(enc, "a", "b")
    assert value == pd and parts.startswith("10")
    assert enc.ruleset.defense.name == "Passive Defense"


def test_skl_def_02_block_or_dodge_spends_a_held_complex_action() -> None:
    """SKL-DEF-02: the defender spends a complex action from its reserve to try to negate the attack."""
    enc = duel(fighter(), sheet("b", skills={"defense": 9}), dice=[12, 15])
    enc.act(Attack("b"))
    prompt = enc.pending.prompt if enc.pending else None
    assert prompt is not None and prompt.reactor == "b" and prompt.kind == "active_defense"
    assert prompt.options == ("dodge", "block", "none")  # the better bonus first
    events = enc.respond("dodge")
    assert [(e.combatant, e.pool) for e in events if isinstance(e, ev.ReactionSpent)] == [("b", "reserve")]
    assert enc.state.get("b").reactions["reserve"] == 0 and not attacks(events)[0].hit


def test_skl_def_03_an_empty_hand_blocks_unless_the_variant_needs_an_item() -> None:
    """SKL-DEF-03 (AMBIGUOUS): an empty hand blocks as an unarmed strike; ``skl_block_needs_item`` wants a weapon or
    shield in hand."""
    bare = sheet("b", weapon=None, skills={"unarmed": 3}, str=1)
    enc = duel(fighter(), bare, dice=[12, 14])
    enc.act(Attack("b"))
    assert enc.pending is not None and "block" in enc.pending.prompt.options
    events = enc.respond("block")
    assert "18 = d20 14 + unarmed skill 3 + Str 1 vs attack 18: negates the attack" in _last_line(events)
    enc = duel(fighter(), bare, dice=[12], variants={"skl_block_needs_item": True})
    enc.act(Attack("b"))
    assert enc.pending is not None and enc.pending.prompt.options == ("dodge", "none")
    shielded = sheet("b", weapon=None, shield={"name": "kite", "shield_bonus": 2, "skill": "shield"},
                     skills={"shield": 2})
    enc = duel(fighter(), shielded, dice=[12], variants={"skl_block_needs_item": True})
    enc.act(Attack("b"))
    assert enc.pending is not None and "block" in enc.pending.prompt.options


def test_skl_def_04_block_roll_is_d20_plus_weapon_skill_plus_strength() -> None:
    """SKL-DEF-04 (worked example): attack 17; block d20 8 + sword skill 5 + Str 2 = 15 < 17 → not negated.
    A shield names its skill; without one it uses the skill of the weapon in the other hand."""
    defender = sheet("b", skills={"sword": 5, "defense": 4}, str=2, dex=3)
    enc = duel(fighter(), defender, dice=[11, 8, 4])
    events = resolve(enc, Attack("b"), "block")
    assert "15 = d20 8 + sword skill 5 + Str 2 vs attack 17: fails" in _last_line(events)
    assert attacks(events)[0].hit and damage(events)
    named = sheet("b", skills={"sword": 5, "shield": 1}, shield={"name": "kite", "shield_bonus": 2, "skill": "shield"})
    active_defense = duel(fighter(), named).ruleset.active_defense
    assert isinstance(active_defense, BlockAndDodge)
    rolls = active_defense.defense_rolls(_view(named), "b")
    assert next(m.label() for m in rolls["block-off-hand"]) == "shield skill (kite) 1"
    plain = sheet("b", skills={"sword": 5}, shield="heavy-wooden-shield")
    active_defense = duel(fighter(), plain).ruleset.active_defense
    assert isinstance(active_defense, BlockAndDodge)
    rolls = active_defense.defense_rolls(_view(plain), "b")
    assert next(m.label() for m in rolls["block-off-hand"]) == "sword skill (heavy-wooden-shield) 5"


def _view(b: dict[str, Any]) -> Any:
    from d20combat.encounter.engine import Tx

    enc = duel(fighter(), b)
    return Tx(enc.state, enc)


def test_skl_def_05_a_block_matching_the_attack_total_negates_it() -> None:
    """SKL-DEF-05: the block negates when it matches or exceeds the attack result (a natural 20 counts 30)."""
    defender = sheet("b", skills={"sword": 5}, str=2)
    enc = duel(fighter(), defender, dice=[11, 10])
    events = resolve(enc, Attack("b"), "block")  # 17 vs 10 + 5 + 2 = 17
    assert not attacks(events)[0].hit and not damage(events) and "negates the attack" in _last_line(events)
    enc = duel(fighter(), defender, dice=[20, 20, 1])
    events = resolve(enc, Attack("b"), "block")  # 36 vs 27
    assert attacks(events)[0].hit and "27 = d20 20" in _last_line(events)


def test_skl_def_06_dodge_roll_is_d20_plus_defense_plus_dex() -> None:
    """SKL-DEF-06 (worked example): dodge d20 10 + Defense 4 + Dex 3 = 17."""
    defender = sheet("b", skills={"sword": 5, "defense": 4}, str=2, dex=3)
    enc = duel(fighter(), defender, dice=[11, 10])
    events = resolve(enc, Attack("b"), "dodge")
    assert "17 = d20 10 + Defense skill 4 + Dex 3 vs attack 17" in _last_line(events)


def test_skl_def_07_a_dodge_matching_the_attack_total_negates_it() -> None:
    """SKL-DEF-07 (worked examples): 17 ≥ 17 → negated; against a natural 20 with +6 (36) a +7 dodge reaches
    at most 27, so the AI does not waste its reserve on it."""
    defender = sheet("b", skills={"sword": 5, "defense": 4}, str=2, dex=3)
    enc = duel(fighter(), defender, dice=[11, 10])
    events = resolve(enc, Attack("b"), "dodge")
    assert not attacks(events)[0].hit and not damage(events)
    enc = duel(fighter(), defender, dice=[20, 20, 1])
    enc.act(Attack("b"))
    assert enc.pending is not None
    assert TacticalAI().react(enc, enc.pending.prompt) == "none"
    events = enc.respond("dodge")
    assert attacks(events)[0].hit and "27 = d20 20" in _last_line(events)


def test_skl_def_08_window_opens_after_a_hit_once_per_attack() -> None:
    """SKL-DEF-08 (AMBIGUOUS; worked example): a miss (10 vs 12) opens no window and spends no reserve; a hit
    offers one block *or* dodge, after which no second try; a ranged attack can be dodged too."""
    enc = duel(fighter(), sheet("b", dex=2), dice=[4])
    events = resolve(enc, Attack("b"))
    assert not attacks(events)[0].hit and enc.state.get("b").reactions["reserve"] == 1
    enc = duel(fighter(feats=["extra_complex_action"]), sheet("b", feats=["extra_complex_action"]),
               dice=[15, 1, 3])
    enc.act(Attack("b"))
    events = enc.respond("block")  # fails; b still holds a second action, but this attack is settled
    assert enc.pending is None and damage(events)
    archer = sheet("a", skills={"bow": 2}, weapon="shortbow")
    enc = duel(archer, sheet("b", skills={"defense": 5}), b_at=(8, 1), dice=[15, 12])
    enc.act(Attack("b"))
    assert enc.pending is not None and "dodge" in enc.pending.prompt.options
    assert not attacks(enc.respond("dodge"))[0].hit


def test_skl_def_08_declare_before_roll_variant() -> None:
    """SKL-DEF-08 (variant ``skl_declare_before_roll``): the defender commits before any die is rolled; the
    committed action is spent even if the attack then misses."""
    variants = {"skl_declare_before_roll": True}
    enc = duel(fighter(), sheet("b", skills={"defense": 5}), dice=[3], variants=variants)
    enc.act(Attack("b"))
    assert enc.pending is not None and "before the roll" in enc.pending.prompt.trigger
    assert enc.dice.rolls == []
    events = enc.respond("dodge")
    assert not attacks(events)[0].hit and enc.state.get("b").reactions["reserve"] == 0
    assert [r.purpose for r in enc.dice.rolls] == ["attack a->b"]  # no dodge roll on a miss
    enc = duel(fighter(), sheet("b", skills={"defense": 5}), dice=[12, 15], variants=variants)
    events = resolve(enc, Attack("b"), "dodge")  # 18 vs 15 + 5 = 20
    assert not attacks(events)[0].hit and "committed before the roll" in _last_line(events)


# ---------------------------------------------------------------------------- RES
def _trio(b: dict[str, Any] | None = None, dice: list[int] | None = None, **kw: Any) -> Any:
    return encounter([{"id": "A", "side": "x", "stats": fighter("A"), "position": [1, 1], "initiative": 18},
                      {"id": "B", "side": "y", "stats": b or fighter("B", skills={"sword": 4, "defense": 3}),
                       "position": [2, 1], "initiative": 10},
                      {"id": "C", "side": "x", "stats": fighter("C"), "position": [3, 1], "initiative": 5}],
                     dice=dice or [], **kw)


def test_skl_res_01_forgo_attacking_to_defend_later() -> None:
    """SKL-RES-01/05 (worked example): B does not dodge A; on its turn B holds 1 in reserve and does not attack;
    later C attacks B → B may block. A held action never becomes an attack."""
    enc = _trio(dice=[15, 4, 15, 19])
    resolve(enc, Attack("B"), "none")
    resolve(enc, EndTurn())
    resolve(enc, Reserve(1))
    assert "no complex action left" in illegal(enc, Attack("A"))
    resolve(enc, EndTurn())
    enc.act(Attack("B"))
    assert enc.pending is not None and enc.pending.prompt.reactor == "B" and "block" in enc.pending.prompt.options
    assert not attacks(enc.respond("block"))[0].hit  # 21 vs 19 + 4 + 2 = 25


def test_skl_res_02_the_declaration_fixes_the_reserve() -> None:
    """SKL-RES-02: declared on its turn; the rest may still be used; the number held cannot be raised."""
    enc = duel(fighter(feats=["extra_complex_action"]), sheet("b"), dice=[2])
    assert "2 left" in illegal(enc, Reserve(3))
    events = resolve(enc, Reserve(1))
    assert any("1 complex action(s) held in reserve" in n for n in notes(events))
    assert enc.state.get("a").reactions["reserve"] == 1
    resolve(enc, Attack("b"))  # the other one is still usable
    assert "cannot be raised" in illegal(enc, Reserve(1))
    assert "no complex action left" in illegal(enc, Attack("b"))


def test_skl_res_02_ending_a_turn_undeclared_holds_what_is_left() -> None:
    """SKL-RES-02 (reading, ``skl_auto_reserve``): ending the turn without declaring holds the unspent actions;
    with the variant off they lapse with the turn."""
    enc = duel(sheet(), fighter("b"), b_at=(8, 8))
    events = resolve(enc, EndTurn())
    assert enc.state.get("a").reactions["reserve"] == 1 and any("keeps 1" in n for n in notes(events))
    enc = duel(sheet(), fighter("b"), b_at=(8, 8), variants={"skl_auto_reserve": False})
    resolve(enc, EndTurn())
    assert enc.state.get("a").reactions["reserve"] == 0


def test_skl_res_03_reserve_defends_only_the_holder() -> None:
    """SKL-RES-03: each attack on the holder may be met with one held action; never on an ally's behalf."""
    enc = encounter([{"id": "A", "side": "x", "stats": fighter("A"), "position": [1, 1]},
                     {"id": "B", "side": "y", "stats": sheet("B"), "position": [2, 1]},
                     {"id": "D", "side": "y", "stats": sheet("D"), "position": [1, 2]}], dice=[15, 3])
    enc.act(Attack("B"))
    assert enc.pending is not None and enc.pending.prompt.reactor == "B"
    enc.respond("none")
    assert enc.state.get("D").reactions["reserve"] == 1


def test_skl_res_04_all_complex_actions_are_held_until_the_turn() -> None:
    """SKL-RES-04 (worked examples): round 1, A (18) attacks B (10) and B dodges with its only complex action,
    still held before its turn → on its turn B can move and speak but not attack. Round 2: B's new action is
    held from the start of the round, so B may dodge A again before its own turn."""
    enc = duel(fighter("A"), fighter("B", skills={"sword": 4, "defense": 9}), dice=[12, 15, 12, 15])
    events = resolve(enc, Attack("b"), "dodge")
    assert not attacks(events)[0].hit
    resolve(enc, EndTurn())
    assert enc.state.turn is not None and enc.state.turn.pools["complex"] == 0
    assert "no complex action left" in illegal(enc, Attack("a"))
    resolve(enc, Move(to=(2, 3)))
    resolve(enc, Activity("speak"))
    resolve(enc, EndTurn())
    assert enc.state.round == 2 and enc.state.get("b").reactions["reserve"] == 1
    resolve(enc, Move(to=(2, 2)))
    events = resolve(enc, Attack("b"), "dodge")
    assert not attacks(events)[0].hit


def test_skl_res_05_held_actions_serve_only_block_dodge_and_counterspell() -> None:
    """SKL-RES-05: no attack, move or skill from reserve, even under ``skl_complex_as_basic``; a counterspell
    may use it (SKL-CSPL-01)."""
    enc = duel(sheet(), fighter("b"), a_at=(0, 0), b_at=(11, 11), variants={"skl_complex_as_basic": True})
    resolve(enc, Reserve(1))
    resolve(enc, Move(to=(3, 0)))
    assert "no basic action left" in illegal(enc, Move(to=(6, 0)))
    assert "no complex action left" in illegal(enc, Activity("open-lock"))
    mage = sheet("b", skills={"sorcery": 3}, weapon="ray-of-frost")
    enc = duel(sheet("a", skills={"sorcery": 2}), mage, b_at=(5, 1), dice=[10, 10])
    resolve(enc, Reserve(1))
    resolve(enc, EndTurn())
    enc.act(CastSpell("ray-of-frost", "a"))
    assert enc.pending is not None and enc.pending.prompt.kind == "counterspell"


def test_skl_res_06_reserve_lapses_at_the_end_of_the_round() -> None:
    """SKL-RES-06 (worked example): if nobody attacks B, its reserve is lost at the end of round 1; round 2
    starts with one held action, not two."""
    enc = duel(fighter("A"), fighter("B"), a_at=(1, 1), b_at=(8, 8))
    resolve(enc, EndTurn())
    resolve(enc, Reserve(1))
    events = resolve(enc, EndTurn())
    kinds = [(e.kind, getattr(e, "text", "")) for e in events]
    lapse = next(i for i, (_, t) in enumerate(kinds) if "b's unspent reserve (1) lapses" in t)
    start = next(i for i, (k, _) in enumerate(kinds) if k == "round_started")
    assert lapse < start and enc.state.get("b").reactions["reserve"] == 1


# ---------------------------------------------------------------------------- RNG
def _archer(name: str = "b") -> dict[str, Any]:
    return sheet(name, skills={"bow": 4, "defense": 3}, weapon="shortbow", str=1, dex=3)


def test_skl_rng_01_ranged_weapon_in_melee_costs_6_on_block_and_dodge() -> None:
    """SKL-RNG-01 (worked example): an archer in a threatened square, bow in hand: dodge d20 + 3 + 3 − 6, block
    with the bow d20 + 4 + 1 − 6; with no enemy threatening its square, no −6."""
    enc = duel(fighter(), _archer(), dice=[19, 10, 1])
    events = resolve(enc, Attack("b"), "dodge")
    assert "10 = d20 10 + Defense skill 3 + Dex 3 − ranged weapon in melee 6" in _last_line(events)
    enc = duel(fighter(), _archer(), dice=[19, 10, 1])
    events = resolve(enc, Attack("b"), "block")
    assert "9 = d20 10 + bow skill 4 + Str 1 − ranged weapon in melee 6" in _last_line(events)
    enc = duel(_archer("a"), _archer(), b_at=(8, 1), dice=[19, 10, 1])
    events = resolve(enc, Attack("b"), "dodge")
    assert "16 = d20 10 + Defense skill 3 + Dex 3 vs" in _last_line(events)


def test_skl_rng_02_a_bow_can_block_a_melee_attack() -> None:
    """SKL-RNG-02 (text, L115): the block uses the bow's skill."""
    enc = duel(fighter(), _archer(), dice=[12])
    enc.act(Attack("b"))
    assert enc.pending is not None and "block" in enc.pending.prompt.options


def test_skl_rng_03_blocks_with_a_ranged_weapon_are_counted_and_may_break_it() -> None:
    """SKL-RNG-03 (MISSING): every block with a ranged weapon is counted; ``skl_ranged_block_breaks`` breaks it
    after a failed block (it can then not be drawn again)."""
    enc = duel(fighter(), _archer(), dice=[19, 2, 3])
    events = resolve(enc, Attack("b"), "block")
    assert any("blocked with its shortbow 1 time(s)" in n for n in notes(events))
    assert enc.state.get("b").wielding == "shortbow"
    enc = duel(fighter(), _archer(), dice=[19, 2, 3], variants={"skl_ranged_block_breaks": True})
    resolve(enc, Attack("b"), "block")
    b = enc.state.get("b")
    assert b.wielding is None and b.has("broken shortbow")
    resolve(enc, EndTurn())
    assert "broken" in illegal(enc, Draw("shortbow"))
