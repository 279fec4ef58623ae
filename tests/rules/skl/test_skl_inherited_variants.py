"""What SKL leaves to the core and the variants that switch PFB rules back on (rules-diff §3 P7, P8, P17, P18):
no cover, concealment, charge or range penalty by default; each has an ``skl_`` option, tested both ways."""

from __future__ import annotations

from typing import Any

from tests.rules.skl.helpers import attacks, duel, encounter, fighter, illegal, resolve, sheet

from d20combat.encounter import events as ev
from d20combat.encounter.actions import Attack, Charge

ARCHER = sheet("a", skills={"bow": 3}, weapon="shortbow")


def _past_an_ally(**variants: Any) -> Any:
    return encounter([{"id": "a", "side": "x", "stats": ARCHER, "position": [0, 0]},
                      {"id": "c", "side": "x", "stats": sheet("c"), "position": [2, 0]},
                      {"id": "b", "side": "y", "stats": sheet("b"), "position": [4, 0]}], variants=variants,
                     dice=[2])


def test_skl_def_01_no_cover_bonus_unless_skl_cover() -> None:
    """SKL-DEF-01: Passive Defense is 10 + Dex; PFB's +4 cover only under ``skl_cover`` (rules-diff P17)."""
    enc = _past_an_ally()
    assert enc.target_ac(enc.plan_attack("a", "b"), enc.state) == (10, "10")
    enc = _past_an_ally(skl_cover=True)
    assert enc.target_ac(enc.plan_attack("a", "b"), enc.state) == (14, "10 + cover 4")
    events = resolve(_past_an_ally(), Attack("b"))  # without the variant the lines are not even mentioned
    assert not any("cover" in line for line in attacks(events)[0].lines)


def test_skl_atk_03_no_concealment_unless_skl_concealment() -> None:
    """SKL-ATK-03: a total ≥ the TN hits; fog's 20 % miss chance only under ``skl_concealment`` (P18)."""
    rows = ["......", "..f...", "......"]
    for variants, dice, purposes in (({}, [2], ["attack a->b"]),
                                     ({"skl_concealment": True}, [50, 2], ["concealment a->b", "attack a->b"])):
        enc = encounter([{"id": "a", "side": "x", "stats": fighter("a"), "position": [1, 1]},
                         {"id": "b", "side": "y", "stats": sheet("b"), "position": [2, 1]}],
                        rows=rows, dice=dice, variants=variants)
        enc.dice.rolls.clear()
        resolve(enc, Attack("b"))
        assert [r.purpose for r in enc.dice.rolls] == purposes


def test_skl_act_04_no_charge_unless_skl_charge() -> None:
    """SKL-ACT-04: movement is a basic action; PFB's charge (complex + basic, +2 to hit, −2 Passive Defense) only
    under ``skl_charge`` (P7)."""
    enc = duel(fighter(), sheet("b"), b_at=(5, 1), dice=[2])
    assert "no charge" in illegal(enc, Charge("b"))
    enc = duel(fighter(), sheet("b"), b_at=(5, 1), dice=[1], variants={"skl_charge": True})
    events = resolve(enc, Charge("b"))
    assert [e.cost for e in events if isinstance(e, ev.BudgetSpent)] == ["complex + basic"]
    assert "+ charge 2" in attacks(events)[0].lines[1]
    assert enc.target_ac(enc.plan_attack("a", "b"), enc.state)[0] == 10  # b's own Passive Defense
    assert any(e.name == "charging" and e.ac == -2 for e in enc.state.get("a").effects)


def test_skl_atk_09_ranged_attacks_have_no_minimum_range_and_no_increment_penalty() -> None:
    """SKL-ATK-09: a ranged attack is skill + Dex; it may be made next to an enemy (it provokes, SKL-AOO-14); the
    −2 per range increment only under ``skl_range_increments``; the maximum range stands."""
    bow = sheet("a", skills={"bow": 3}, weapon="longbow")
    enc = duel(bow, sheet("b"), dice=[2])
    assert enc.check(Attack("b")) is None
    far = {"a_at": (0, 0), "b_at": (30, 0), "width": 32, "height": 2}
    enc = duel(bow, sheet("b"), **far)
    assert [m.source for m in enc.plan_attack("a", "b").modifiers] == ["bow skill", "Dex"]
    enc = duel(bow, sheet("b"), variants={"skl_range_increments": True}, **far)
    assert ("range", -2) in [(m.source, m.value) for m in enc.plan_attack("a", "b").modifiers]
    enc = duel(sheet("a", skills={"dart": 3}, weapon="dart"), sheet("b"), a_at=(0, 0), b_at=(30, 0), width=32,
               height=2)
    assert "beyond" in illegal(enc, Attack("b"))
