"""SKL initiative (SKL-INIT-01..05) and the per-round action budget (SKL-ACT-01..11)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.skl.helpers import (
    attacks,
    duel,
    encounter,
    end_turns,
    fighter,
    illegal,
    resolve,
    sheet,
)

from d20combat.encounter import events as ev
from d20combat.encounter.actions import Activity, Attack, EndTurn, Move
from d20combat.rulesets.skill_based import BonusAttack, CastSpell
from d20combat.scenario import ScenarioError


def _rolled(*specs: tuple[str, dict[str, Any], int | None], dice: list[int], **kw: Any) -> list[ev.Event]:
    enc = encounter([{"id": cid, "side": f"side-{i % 2}", "stats": st, "position": [i, 0], "initiative": init}
                     for i, (cid, st, init) in enumerate(specs)], dice=dice, **kw)
    return enc.log


# ---------------------------------------------------------------------------- INIT
def test_skl_init_03_initiative_is_d20_plus_dex_modifier() -> None:
    """SKL-INIT-03 (worked example): Dex +2, d20 13 → 15; Improved Initiative (a PF feat) adds nothing."""
    log = _rolled(("a", sheet(dex=2, feats=["improved_initiative"]), None), ("b", sheet(), None), dice=[13, 5])
    rolled = {e.combatant: e for e in log if isinstance(e, ev.InitiativeRolled)}
    assert rolled["a"].total == 15 and "Dex 2" in rolled["a"].explanation
    assert rolled["b"].total == 5


def test_skl_init_02_agility_score_variant() -> None:
    """SKL-INIT-02 (variant skl_init_agility_score): d20 13 + Agility 12 → 25; a sheet without it is rejected."""
    log = _rolled(("a", sheet(dex=2, attributes={"agility": 12}), None),
                  ("b", sheet(attributes={"agility": 8}), None), dice=[13, 5],
                  variants={"skl_init_agility_score": True})
    rolled = {e.combatant: e.total for e in log if isinstance(e, ev.InitiativeRolled)}
    assert rolled == {"a": 25, "b": 13}
    with pytest.raises(ScenarioError, match="agility"):
        _rolled(("a", sheet(), None), ("b", sheet(), None), dice=[1, 1], variants={"skl_init_agility_score": True})


def test_skl_init_01_rolled_once_for_the_whole_encounter() -> None:
    """SKL-INIT-01: one roll per character for the encounter; round 2 rolls nothing."""
    enc = encounter([{"id": "a", "side": "x", "stats": sheet(), "position": [0, 0], "initiative": None},
                     {"id": "b", "side": "y", "stats": sheet(), "position": [5, 5], "initiative": None}],
                    dice=[15, 12])
    first = [e for e in enc.log if isinstance(e, ev.InitiativeRolled)]
    events = end_turns(enc, 2)
    assert any(isinstance(e, ev.RoundStarted) and e.round == 2 for e in events)
    assert not [e for e in events if isinstance(e, ev.InitiativeRolled | ev.OrderSet)]
    assert len(first) == 2 and enc.state.order == ("a", "b")


def test_skl_init_04_descending_order_every_round() -> None:
    """SKL-INIT-04 (worked example): A at 15 and B at 12 → A acts first in every round; no declaration phase."""
    enc = encounter([{"id": "b", "side": "x", "stats": sheet(), "position": [0, 0], "initiative": 12},
                     {"id": "a", "side": "y", "stats": sheet(), "position": [5, 5], "initiative": 15}])
    starts = [e.combatant for e in enc.log if isinstance(e, ev.TurnStarted)]
    starts += [e.combatant for e in end_turns(enc, 4) if isinstance(e, ev.TurnStarted)]
    assert starts == ["a", "b", "a", "b", "a"]


def test_skl_init_05_ties_roll_off_without_changing_initiative() -> None:
    """SKL-INIT-05 (MISSING, PFB default; worked example): A and B at 15 roll off 7 vs 12 → B first; C at 16
    still first and D at 14 last; nobody's initiative changes."""
    enc = encounter([{"id": "A", "side": "x", "stats": sheet(), "position": [0, 0], "initiative": 15},
                     {"id": "B", "side": "x", "stats": sheet(), "position": [1, 0], "initiative": 15},
                     {"id": "C", "side": "y", "stats": sheet(), "position": [6, 6], "initiative": 16},
                     {"id": "D", "side": "y", "stats": sheet(), "position": [7, 6], "initiative": 14}], dice=[7, 12])
    assert enc.state.order == ("C", "B", "A", "D")
    assert enc.state.get("A").initiative == enc.state.get("B").initiative == 15


# ---------------------------------------------------------------------------- ACT
def test_skl_act_01_attack_dodge_and_spell_are_complex_actions() -> None:
    """SKL-ACT-01 (text, L16): attacking, dodging or parrying (= blocking) and casting a spell are complex."""
    enc = duel(fighter(), sheet("b", skills={"defense": 3}, dex=3), dice=[15, 2, 4])
    events = resolve(enc, Attack("b"), "dodge")
    assert [(e.action, e.cost) for e in events if isinstance(e, ev.BudgetSpent)] == [("attack b", "complex")]
    assert [e.pool for e in events if isinstance(e, ev.ReactionSpent)] == ["reserve"]  # the dodge
    wizard = sheet("w", skills={"sorcery": 3}, weapon="ray-of-frost", dex=2)
    enc = duel(wizard, sheet("b"), b_at=(4, 1), dice=[15, 2])
    events = resolve(enc, CastSpell("ray-of-frost", "b"))
    assert [e.cost for e in events if isinstance(e, ev.BudgetSpent)] == ["complex"]


def test_skl_act_02_one_complex_action_per_round() -> None:
    """SKL-ACT-02 (worked example): a second attack in the round, without a bonus action, is refused."""
    enc = duel(fighter(), sheet("b"), dice=[2])
    resolve(enc, Attack("b"))
    assert "no complex action left this round" in illegal(enc, Attack("b"))


def test_skl_act_03_talent_grants_an_extra_complex_action() -> None:
    """SKL-ACT-03 (MISSING talents: feat ``extra_complex_action``): two attacks in one round."""
    enc = duel(fighter(feats=["extra_complex_action"]), sheet("b"), dice=[2, 2])
    resolve(enc, Attack("b"))
    resolve(enc, Attack("b"))
    assert "no complex action left" in illegal(enc, Attack("b"))
    assert enc.state.get("b").reactions["reserve"] == 1  # an unrestricted grant is part of the reserve too
    assert duel(sheet(feats=["extra_complex_action"]), sheet("b"), a_at=(8, 8)).state.get("b").reactions[
        "reserve"] == 1


def test_skl_act_04_a_basic_action_moves_up_to_speed() -> None:
    """SKL-ACT-04 (MISSING, PFB default): moving is a basic action of up to the speed (30 ft)."""
    enc = duel(sheet(), sheet("b"), a_at=(0, 0), b_at=(11, 11))
    assert "no legal path" in illegal(enc, Move(to=(7, 0)))
    events = resolve(enc, Move(to=(6, 0)))
    assert [(e.action, e.cost) for e in events if isinstance(e, ev.BudgetSpent)] == [("move", "basic")]


def test_skl_act_05_one_basic_action_per_round() -> None:
    """SKL-ACT-05: a second move in the round is refused."""
    enc = duel(sheet(), sheet("b"), a_at=(0, 0), b_at=(11, 11))
    resolve(enc, Move(to=(3, 0)))
    assert "no basic action left this round" in illegal(enc, Move(to=(6, 0)))


def test_skl_act_06_talent_grants_an_extra_basic_action() -> None:
    """SKL-ACT-06 (MISSING talents: feat ``extra_basic_action``): two moves, and the complex action remains."""
    enc = duel(sheet(feats=["extra_basic_action"]), sheet("b"), a_at=(0, 0), b_at=(11, 11))
    resolve(enc, Move(to=(3, 0)))
    resolve(enc, Move(to=(6, 0)))
    assert "no basic action" in illegal(enc, Move(to=(8, 0)))
    assert enc.can_afford("standard")


def test_skl_act_07_speaking_is_a_free_action() -> None:
    """SKL-ACT-07 (text, L28); worked example: attack (complex), move (basic) and a shout (free) are legal."""
    enc = duel(fighter(), sheet("b"), dice=[2])
    costs = []
    for action in (Attack("b"), Move(to=(1, 4)), Activity("speak")):
        costs += [e.cost for e in resolve(enc, action) if isinstance(e, ev.BudgetSpent)]
    assert costs == ["complex", "basic", "free"]


def test_skl_act_08_unlimited_free_actions_with_a_gm_limit() -> None:
    """SKL-ACT-08: free actions are unlimited by default; ``skl_max_free_actions`` is the GM's limit."""
    enc = duel(sheet(), sheet("b"), b_at=(8, 8))
    for _ in range(12):
        resolve(enc, Activity("speak"))
    enc = duel(sheet(), sheet("b"), b_at=(8, 8), variants={"skl_max_free_actions": 2})
    resolve(enc, Activity("speak"))
    resolve(enc, Activity("speak"))
    assert "no free action left" in illegal(enc, Activity("speak"))


def test_skl_act_09_a_dodge_only_bonus_action_joins_the_reserve() -> None:
    """SKL-ACT-09 (reading: timed like its use; worked example): a talent's extra complex action 'only for
    dodging' → the character attacks with its normal complex action and still dodges once that round."""
    dodger = fighter("a", feats=["extra_complex_action:dodge"], skills={"sword": 4, "defense": 5}, dex=3)
    enc = duel(dodger, fighter("b"), dice=[2, 15, 10, 4])
    resolve(enc, Attack("b"))  # a misses, its normal complex action spent
    assert "no complex action left" in illegal(enc, Attack("b"))
    end_turns(enc)
    events = resolve(enc, Attack("a"), "dodge")  # 15 + 6 = 21; dodge 10 + 5 + 3 = 18: fails, but was allowed
    assert [e.pool for e in events if isinstance(e, ev.ReactionSpent)] == ["reserve_dodge"]
    assert enc.state.get("a").reactions["reserve_dodge"] == 0


def test_skl_act_10_bonus_actions_serve_only_their_use() -> None:
    """SKL-ACT-10: a bonus action names its use. Dodge-only: no block, no attack; attack-only
    (``extra_complex_action:attack``): a :class:`BonusAttack` on the turn, never a dodge."""
    dodger = fighter("b", feats=["extra_complex_action:dodge"])
    enc = duel(fighter(), dodger, dice=[15])
    enc.act(Attack("b"))  # b holds its normal action (block or dodge) and the dodge-only one
    assert enc.pending is not None and set(enc.pending.prompt.options) == {"dodge", "block", "none"}
    attacker = fighter("a", feats=["extra_complex_action:attack"])
    enc = duel(attacker, sheet("b", hp=60), dice=[2, 2, 15, 3])
    resolve(enc, Attack("b"))
    events = resolve(enc, BonusAttack("b"))
    assert [(e.cost, e.spend) for e in events if isinstance(e, ev.BudgetSpent)] == [("bonus complex",
                                                                                      {"bonus_attack": 1})]
    assert "no bonus complex action" in illegal(enc, BonusAttack("b"))
    end_turns(enc)
    enc.act(Attack("a"))  # b attacks a: a's attack-only bonus action gives no dodge, its reserve is empty
    assert enc.pending is None
    assert "reserve_attack" not in enc.state.get("a").reactions


def test_skl_act_10_a_restricted_dodge_cannot_pay_for_an_attack() -> None:
    """SKL-ACT-10: with its normal complex action spent, the dodge-only action does not buy a second attack."""
    enc = duel(fighter(feats=["extra_complex_action:dodge"]), sheet("b"), dice=[2])
    resolve(enc, Attack("b"))
    assert enc.state.get("a").reactions["reserve_dodge"] == 1
    assert "no complex action left" in illegal(enc, Attack("b"))


def test_skl_act_11_no_conversion_between_complex_and_basic() -> None:
    """SKL-ACT-11 (AMBIGUOUS): two moves are refused by default; ``skl_complex_as_basic`` allows the second
    move, which then leaves no complex action — no attack and no block that round."""
    enc = duel(sheet(), fighter("b"), a_at=(0, 0), b_at=(11, 0), dice=[18])
    resolve(enc, Move(to=(3, 0)))
    assert "cannot be spent as a basic one" in illegal(enc, Move(to=(6, 0)))
    enc = duel(sheet(), fighter("b"), a_at=(0, 0), b_at=(11, 0), dice=[18, 3],
               variants={"skl_complex_as_basic": True})
    resolve(enc, Move(to=(4, 0)))
    events = resolve(enc, Move(to=(10, 0)))
    assert [e.cost for e in events if isinstance(e, ev.BudgetSpent)] == ["complex-as-basic"]
    assert "no complex action left" in illegal(enc, Attack("b"))
    resolve(enc, EndTurn())
    events = enc.act(Attack("a"))  # b hits a; a has nothing held: no block or dodge offered
    assert enc.pending is None and attacks(events)[0].hit
