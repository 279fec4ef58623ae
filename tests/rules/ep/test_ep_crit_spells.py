"""Epic Path's spells and critical hits: no attack roll, never a critical hit (EP-CRIT-14); ability damage or drain
doubled on a critical hit (EP-CRIT-15)."""

from __future__ import annotations

from typing import Any

from tests.rules.ep._util import assert_illegal, remaining, texts
from tests.rules.ep.test_ep_crit_dmg import TOUGH, duel, fighter, hit, weapon

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.rulesets.epic_path.spells import CastSpell

MISSILE = weapon("magic-missile", "1d4+1", kind="spell", range_increment_ft=110, qualities=["no-attack-roll"])
WITHER = weapon("withering-bolt", "1d4", kind="spell", range_increment_ft=60,
                qualities=["no-attack-roll", "ability-drain:con:1d2"])
ENFEEBLE = weapon("ray-of-weakness", "1d3", kind="spell", touch=True, range_increment_ft=25,
                  qualities=["ability-damage:str:1d4"])


def conditions_of(enc: Any, cid: str) -> set[str]:
    return set(enc.state.get(cid).conditions)


def test_ep_crit_14_a_spell_without_attack_roll_never_crits() -> None:
    """EP-CRIT-14: the missile strikes without a d20 — the only die is its damage (4 + 1 = 5), never multiplied —
    and a standard action is spent."""
    enc = duel(fighter(MISSILE), TOUGH, [4])
    events = enc.act(CastSpell("t", "magic-missile"))
    assert not [e for e in events if isinstance(e, ev.AttackResolved)]
    damage = [e for e in events if isinstance(e, ev.Damaged)]
    assert [d.amount for d in damage] == [5] and "5 = 1d4+1 [4]" in damage[0].explain()
    assert "can never score a critical hit (EP-CRIT-14)" in texts(events) and remaining(enc) == 0
    assert [e.cost for e in events if isinstance(e, ev.BudgetSpent)] == ["standard"]


def test_ep_crit_14_it_is_never_rolled_as_an_attack() -> None:
    """EP-CRIT-14: an attack roll with it (which could threaten on a 20) is refused; a spell with an attack roll is
    not cast this way; bad spells and targets are refused by name."""
    enc = duel(fighter(MISSILE, ENFEEBLE), TOUGH, [20, 20])
    assert_illegal(enc, ax.Attack("t", "magic-missile"), r"requires no attack roll.*EP-CRIT-14")
    assert_illegal(enc, CastSpell("t", "ray-of-weakness"), "has an attack roll")
    assert_illegal(enc, CastSpell("t", "fireball"), "no spell 'fireball'")
    assert_illegal(enc, CastSpell("nobody", "magic-missile"), "no target 'nobody'")


def test_ep_crit_14_15_no_crit_so_the_drain_is_not_doubled() -> None:
    """EP-CRIT-14/15: a spell without attack roll deals its ability drain as rolled (1d2: 2), never doubled."""
    enc = duel(fighter(WITHER), TOUGH, [3, 2])
    events = enc.act(CastSpell("t", "withering-bolt"))
    assert "con_drain:2" in conditions_of(enc, "t") and "doubles" not in texts(events)


def test_ep_crit_15_a_critical_spell_doubles_its_ability_damage() -> None:
    """EP-CRIT-15: the ray threatens (20) and confirms (15 + 10): its 1d4 Strength damage (3) is doubled to 6; its
    hit-point damage follows the ordinary critical rules."""
    enc = duel(fighter(ENFEEBLE), TOUGH, [20, 15, 3, 2, 2])
    r, _, text = hit(enc)
    assert r.critical
    assert "t takes Str damage 1d4 [3] = 3 × 2 = 6 — the critical hit doubles it (EP-CRIT-15)" in text
    assert "str_damage:6" in conditions_of(enc, "t")


def test_ep_crit_15_a_plain_hit_deals_it_once_and_it_adds_up() -> None:
    """EP-CRIT-15: without a critical hit the ability damage is as rolled; two hits add up (3 + 1 = 4); a miss
    deals none."""
    enc = duel(fighter(ENFEEBLE), TOUGH, [12, 3, 2, 12, 1, 2])
    r, _, _ = hit(enc)
    assert r.hit and not r.critical and "str_damage:3" in conditions_of(enc, "t")
    enc.act(ax.EndTurn())
    while enc.state.turn is not None and enc.state.turn.actor != "a":
        enc.act(ax.EndTurn())
    hit(enc)
    assert "str_damage:4" in conditions_of(enc, "t") and "str_damage:3" not in conditions_of(enc, "t")
    missed = duel(fighter(ENFEEBLE, attack_bonus=0), TOUGH, [1])
    r, _, _ = hit(missed)
    assert not r.hit and not any(c.startswith("str_damage") for c in conditions_of(missed, "t"))
