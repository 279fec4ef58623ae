"""Epic Path coup de grace (EP-CDG) and aid another (EP-MISC-01, EP-MISC-02, EP-MISC-03, EP-MISC-04, EP-MISC-05)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.ep._util import FIGHTER, ac, armored, assert_illegal, ep, remaining, resolved, stats

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.rules import health
from d20combat.rulesets.epic_path.strikes import AidAnother
from d20combat.rulesets.off_guard.actions import CoupDeGrace

KILLER = stats("k", attack_bonus=5, abilities={"str": 18},
               attacks=[{"weapon": "longsword"}, {"weapon": "light-crossbow"}])
"""Longsword 1d8 + Str 4, ×2."""


def cdg(victim: dict[str, Any] | None = None, dice: list[int] | None = None, *, v_pos: tuple[int, int] = (3, 2),
        conditions: tuple[str, ...] = ("asleep",), variants: dict[str, Any] | None = None,
        hp: int | None = None) -> Any:
    v: dict[str, Any] = {"id": "v", "side": "y", "stats": victim or stats("v", hp=40, saves={"fort": 2}),
                         "position": list(v_pos), "conditions": list(conditions)}
    if hp is not None:
        v["hp"] = hp
    return ep([{"id": "k", "side": "x", "stats": KILLER, "position": [2, 2]}, v,
               {"id": "w", "side": "y", "stats": stats("w"), "position": [11, 11]}],
              dice=dice or [], variants=variants)


def test_ep_cdg_01_only_against_a_helpless_creature() -> None:
    """EP-CDG-01: a coup de grace needs a helpless victim: an awake one is refused, nothing changes."""
    enc = cdg(conditions=())
    assert_illegal(enc, CoupDeGrace(target="v"), "not helpless.*EP-CDG-01")


def test_ep_cdg_02_within_reach_and_a_full_round_action() -> None:
    """EP-CDG-02: the victim must be within reach (10 ft away with a longsword is refused, and a crossbow is no
    melee weapon); it takes the full round."""
    far = cdg(v_pos=(4, 2))
    assert_illegal(far, CoupDeGrace(target="v"), "EP-CDG-02")
    near = cdg(dice=[3, 4, 15])
    events = near.act(CoupDeGrace(target="v"))
    spent = [e for e in events if isinstance(e, ev.BudgetSpent)]
    assert spent and "full-round" in spent[0].explain()


def test_ep_cdg_03_04_automatic_confirmed_critical_then_fortitude_against_the_damage() -> None:
    """EP-CDG-03: the coup de grace hits automatically as a confirmed critical (1d8 + 4 ×2 → 2d8 + 8 = 3 + 4 + 8
    = 15) — no attack roll; EP-CDG-04: the victim saves Fortitude against DC 15 = the damage rolled; 12 + 2 < 15
    fails: slain (EP-CDG-05)."""
    enc = cdg(dice=[3, 4, 12])
    events = enc.act(CoupDeGrace(target="v"))
    r = resolved(events)
    assert r.hit and r.critical and "EP-CDG-03" in "\n".join(r.lines)
    first = next(e for e in events if isinstance(e, ev.Damaged))
    assert first.amount == 15 and "2d8 weapon [3, 4] + bonus 8 (×2 critical)" in first.explain()
    save = next(e for e in events if isinstance(e, ev.SaveRolled))
    assert save.dc == 15 and save.total == 14 and not save.success and "DC 15 (= the damage rolled 15" in save.explain()
    assert remaining(enc) == 0


@pytest.mark.parametrize("face", [12, 13, 14])
def test_ep_cdg_05_a_failed_save_slays_a_passed_one_leaves_the_damage(face: int) -> None:
    """EP-CDG-05: Fort +2 against DC 15: 12 + 2 fails and the victim is slain; 13 + 2 and 14 + 2 pass and it
    lives with 40 − 15 = 25 hp."""
    enc = cdg(dice=[3, 4, face])
    events = enc.act(CoupDeGrace(target="v"))
    save = next(e for e in events if isinstance(e, ev.SaveRolled))
    assert save.success is (face + 2 >= 15)
    vs = enc.state.get("v")
    state = enc.ruleset.injury.health(enc.creature("v"), vs)
    if save.success:
        assert vs.hp == 25 and state is not health.Health.DEAD and not vs.has("slain-by-coup-de-grace")
    else:
        assert state is health.Health.DEAD and vs.has("slain-by-coup-de-grace")


def test_ep_cdg_06_the_save_is_made_even_when_the_damage_kills() -> None:
    """EP-CDG-06: a victim at 5 hp (Con 10) dies of the 15 damage, and still saves against DC 15 — its result is
    kept on the corpse (harder to raise) — EP-CDG-07: what it means for raising, alignment and reputation is the
    GM's; the engine only records it."""
    enc = cdg(dice=[3, 4, 2], hp=5)
    events = enc.act(CoupDeGrace(target="v"))
    save = next(e for e in events if isinstance(e, ev.SaveRolled))
    assert save.dc == 15 and not save.success and "already dead" in save.explain()
    assert enc.state.get("v").has("slain-by-coup-de-grace")


@pytest.mark.parametrize(("before", "dc"), [(True, 15), (False, 10)])
def test_ep_cdg_04_dc_before_or_after_resistance(before: bool, dc: int) -> None:
    """EP-CDG-04 (AMBIGUOUS, option ep_cdg_dc_before_resistance): the DC is the damage rolled (15) — or, the
    other reading, the damage after resistance 5 (10)."""
    victim = stats("v", hp=40, saves={"fort": 2}, attributes={"resistance": 5})
    enc = cdg(victim, dice=[3, 4, 10], variants={"ep_cdg_dc_before_resistance": before})
    events = enc.act(CoupDeGrace(target="v"))
    assert next(e for e in events if isinstance(e, ev.SaveRolled)).dc == dc
    assert enc.state.get("v").hp <= 30


# ---------------------------------------------------------------------------------------------- aid another
def aid_scene(dice: list[int], **kw: Any) -> Any:
    """helper (x) and ally (x) both next to orc (y); orc AC 15, touch AC 10."""
    return ep([{"id": "helper", "side": "x", "stats": stats("helper", attack_bonus=2, attacks=[{"weapon": "club"}]),
                "position": [2, 2]},
               {"id": "ally", "side": "x", "stats": stats("ally", attack_bonus=2, attacks=[{"weapon": "club"}]),
                "position": [4, 2]},
               {"id": "orc", "side": "y", "stats": armored("orc", 5, attacks=[{"weapon": "club"}]),
                "position": [3, 2]}], dice=dice, **kw)


def test_ep_misc_01_02_aid_another_is_a_standard_action_against_touch_ac() -> None:
    """EP-MISC-01: aid another is a standard action; EP-MISC-02: an attack roll against the opponent's touch AC
    (8 + 2 = 10 vs touch 10 succeeds, though it would miss AC 15)."""
    enc = aid_scene([8])
    events = enc.act(AidAnother(ally="ally", opponent="orc"))
    text = "\n".join(e.explain() for e in events)
    assert "succeeds: 10 = d20 8 + BAB 2 vs touch AC 10" in text
    turn = enc.state.turn
    assert turn is not None and not turn.standard
    failed = aid_scene([7])
    assert "fails" in "\n".join(e.explain() for e in failed.act(AidAnother(ally="ally", opponent="orc")))
    assert not any(e.name.startswith("aid another") for e in failed.state.get("ally").effects)


def test_ep_misc_01_the_aider_must_be_able_to_attack_the_opponent_in_melee() -> None:
    """EP-MISC-01: an aider out of melee reach, or an opponent that is not an opponent, is refused."""
    enc = ep([{"id": "helper", "side": "x", "stats": FIGHTER, "position": [0, 0]},
              {"id": "ally", "side": "x", "stats": stats("ally"), "position": [4, 2]},
              {"id": "orc", "side": "y", "stats": stats("orc"), "position": [3, 2]}])
    assert_illegal(enc, AidAnother(ally="ally", opponent="orc"), "EP-MISC-01")
    assert_illegal(enc, AidAnother(ally="orc", opponent="ally"), "not helper's ally")


def test_ep_misc_03_04_plus_2_on_the_allys_next_attack_only() -> None:
    """EP-MISC-03: +2 on the ally's next attack roll against that opponent; spent by that attack."""
    enc = aid_scene([10, 11, 3])
    enc.act(AidAnother(ally="ally", opponent="orc"))
    enc.act(ax.EndTurn())
    assert enc.state.actor == "ally"
    plan = enc.plan_attack("ally", "orc")
    assert sum(m.value for m in plan.modifiers) == 4
    r = resolved(enc.act(ax.Attack(target="orc")))
    assert "aid another (helper) 2" in "\n".join(r.lines) and r.hit  # 11 + 4 = 15; without the aid 13 misses
    assert sum(m.value for m in enc.plan_attack("ally", "orc").modifiers) == 2


def test_ep_misc_03_04_plus_2_ac_until_the_aiders_next_turn() -> None:
    """EP-MISC-03: +2 AC against the opponent's next attack; EP-MISC-04: it lasts only until the start of the
    aider's next turn, used or not."""
    enc = aid_scene([10])
    enc.act(AidAnother(ally="ally", opponent="orc", bonus="ac"))
    assert ac(enc, "orc", "ally") == 12
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())  # the ally's turn passes; the orc's turn
    assert enc.state.actor == "orc" and ac(enc, "orc", "ally") == 12
    enc.act(ax.EndTurn())  # the helper's next turn begins: the bonus ends unused
    assert enc.state.actor == "helper" and ac(enc, "orc", "ally") == 10


def test_ep_misc_05_several_aiders_stack() -> None:
    """EP-MISC-05: two aiders' +2 AC bonuses stack (+4)."""
    enc = ep([{"id": "h1", "side": "x", "stats": stats("h1", attack_bonus=2, attacks=[{"weapon": "club"}]),
               "position": [2, 2]},
              {"id": "h2", "side": "x", "stats": stats("h2", attack_bonus=2, attacks=[{"weapon": "club"}]),
               "position": [3, 1]},
              {"id": "ally", "side": "x", "stats": stats("ally"), "position": [4, 2]},
              {"id": "orc", "side": "y", "stats": armored("orc", 5, attacks=[{"weapon": "club"}]),
               "position": [3, 2]}], dice=[10, 10])
    enc.act(AidAnother(ally="ally", opponent="orc", bonus="ac"))
    enc.act(ax.EndTurn())
    enc.act(AidAnother(ally="ally", opponent="orc", bonus="ac"))
    assert ac(enc, "orc", "ally") == 14
