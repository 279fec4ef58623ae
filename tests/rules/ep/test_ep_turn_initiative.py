"""Epic Path initiative (EP-INIT-01..11) and Flat-Footed until the first action (EP-SURP-20)."""

from __future__ import annotations

from typing import Any

from tests.rules.ep._util import armored, remaining, stats
from tests.rules.ep._util import ep as _ep

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.rulesets.epic_path.initiative import FLAT_FOOTED


def ep(*args: Any, **kw: Any) -> Encounter:
    """The first round as it starts: every creature Flat-Footed until it acts (EP-SURP-20), as these tests need."""
    return _ep(*args, alert=False, **kw)


def rolling(cid: str, side: str, pos: tuple[int, int], *, dex: int = 10, init: int | None = None,
            **kw: Any) -> dict[str, Any]:
    """A combatant that rolls its initiative (``init``: the sheet's initiative modifier)."""
    sheet = stats(cid, abilities={"dex": dex}, attacks=[{"weapon": "club"}], **kw)
    if init is not None:
        sheet["init_modifier"] = init
    return {"id": cid, "side": side, "stats": sheet, "position": list(pos), "initiative": None}


def order_event(enc: Encounter) -> ev.OrderSet:
    return next(e for e in enc.log if isinstance(e, ev.OrderSet))


def rolled(enc: Encounter) -> dict[str, ev.InitiativeRolled]:
    return {e.combatant: e for e in enc.log if isinstance(e, ev.InitiativeRolled)}


def end_turns(enc: Encounter, n: int) -> None:
    for _ in range(n):
        enc.act(ax.EndTurn())


def test_ep_init_01_initiative_is_a_dexterity_check() -> None:
    """EP-INIT-01: d20 + Dex modifier (+ the rest of the initiative modifier)."""
    enc = ep([rolling("a", "x", (0, 0), dex=14), rolling("b", "y", (5, 5), dex=10, init=3)], dice=[11, 4])
    r = rolled(enc)
    assert r["a"].total == 13 and "d20 11" in r["a"].explanation and "Dex" in r["a"].explanation
    assert r["b"].total == 7


def test_ep_init_02_count_down_from_the_highest() -> None:
    """EP-INIT-02: highest result acts first."""
    enc = ep([rolling("a", "x", (0, 0)), rolling("b", "y", (5, 5)), rolling("c", "y", (6, 6))], dice=[3, 17, 9])
    assert order_event(enc).order == ["b", "c", "a"]
    assert enc.state.turn is not None and enc.state.turn.actor == "b"


def test_ep_init_03_04_same_order_every_round_no_reroll() -> None:
    """EP-INIT-03: the same order each round, no new roll; EP-INIT-04: after everyone, the count resets to the top."""
    enc = ep([rolling("a", "x", (0, 0)), rolling("b", "y", (5, 5))], dice=[3, 17])
    end_turns(enc, 2)
    assert enc.state.round == 2 and enc.state.turn is not None and enc.state.turn.actor == "b"
    assert remaining(enc) == 0 and len(rolled(enc)) == 2


def test_ep_init_05_first_tie_breaker_is_the_initiative_modifier() -> None:
    """EP-INIT-05: A 18 (init +5, Dex +3) before B 18 (init +3, Dex +3); no tie die is rolled."""
    enc = ep([rolling("b", "y", (5, 5), dex=16, init=3), rolling("a", "x", (0, 0), dex=16, init=5)],
             dice=[15, 13])
    assert rolled(enc)["a"].total == rolled(enc)["b"].total == 18
    assert order_event(enc).order == ["a", "b"]
    assert "EP-INIT-05" in " ".join(order_event(enc).tie_breaks)


def test_ep_init_06_second_tie_breaker_is_the_dexterity_modifier() -> None:
    """EP-INIT-06: A 18 (init +4, Dex +4) before B 18 (init +4, Dex +2)."""
    enc = ep([rolling("b", "y", (5, 5), dex=14, init=4), rolling("a", "x", (0, 0), dex=18, init=4)],
             dice=[14, 14])
    assert order_event(enc).order == ["a", "b"]


def test_ep_init_07_08_third_tie_breaker_d20_orders_only_the_tied() -> None:
    """EP-INIT-07: still tied → a d20 each, the higher first (A 7, B 15 → B, A); EP-INIT-08: both stay at 18, C at
    19 still goes first and D at 17 still last."""
    enc = ep([rolling("a", "x", (0, 0), dex=14, init=4), rolling("b", "y", (5, 5), dex=14, init=4),
              rolling("c", "y", (6, 6), dex=14, init=4), rolling("d", "x", (1, 1), dex=14, init=4)],
             dice=[14, 14, 15, 13, 7, 15])
    assert order_event(enc).order == ["c", "b", "a", "d"]
    assert enc.state.get("a").initiative == enc.state.get("b").initiative == 18


def test_ep_init_07_equal_tie_dice_reroll_and_lower_first_option() -> None:
    """EP-INIT-07 (AMBIGUOUS): equal tie-breaking rolls are rolled again; option ``init_tie_d20: lower-first``."""
    enc = ep([rolling("a", "x", (0, 0)), rolling("b", "y", (5, 5))], dice=[10, 10, 6, 6, 7, 15])
    assert order_event(enc).order == ["b", "a"] and remaining(enc) == 0
    low = ep([rolling("a", "x", (0, 0)), rolling("b", "y", (5, 5))], dice=[10, 10, 7, 15],
             variants={"init_tie_d20": "lower-first"})
    assert order_event(low).order == ["a", "b"]


def test_ep_init_09_a_creature_that_cannot_act_keeps_its_initiative() -> None:
    """EP-INIT-09: a paralyzed creature keeps its initiative score round after round."""
    enc = ep([{"id": "a", "side": "x", "stats": stats("a"), "position": [0, 0], "initiative": 14},
              {"id": "p", "side": "y", "stats": stats("p"), "position": [5, 5], "initiative": 12,
               "conditions": ["paralyzed"]},
              {"id": "c", "side": "y", "stats": stats("c"), "position": [6, 6], "initiative": 10}])
    end_turns(enc, 4)
    assert enc.state.round == 3 and enc.state.get("p").initiative == 12 and enc.state.order == ("a", "p", "c")


def test_ep_init_10_a_creature_without_hit_points_is_skipped() -> None:
    """EP-INIT-10: a creature below 0 hp (unconscious) is skipped when the count reaches it, keeping 14."""
    enc = ep([{"id": "a", "side": "x", "stats": stats("a"), "position": [0, 0], "initiative": 15},
              {"id": "down", "side": "x", "stats": stats("down"), "position": [1, 0], "initiative": 14, "hp": -2,
               "starts_down": True},
              {"id": "b", "side": "y", "stats": stats("b"), "position": [5, 5], "initiative": 10}], dice=[20])
    events = enc.act(ax.EndTurn())
    skipped = [e for e in events if isinstance(e, ev.TurnEnded) and e.combatant == "down"]
    assert skipped and skipped[0].reason
    assert enc.state.turn is not None and enc.state.turn.actor == "b" and enc.state.get("down").initiative == 14


def test_ep_surp_20_flat_footed_until_the_first_action() -> None:
    """EP-SURP-20 (EP-COND-01): with no surprise round, every creature is Flat-Footed (no Dex to AC) until its first
    turn; the first to act loses it at once, the others keep it until their own turn."""
    enc = ep([{"id": "a", "side": "x", "stats": armored("a", 2, dex=16), "position": [0, 0]},
              {"id": "b", "side": "y", "stats": armored("b", 2, dex=16), "position": [1, 0]}])
    assert not enc.state.get("a").has(FLAT_FOOTED) and enc.state.get("b").has(FLAT_FOOTED)
    plan = enc.plan_attack("a", "b")
    assert enc.target_ac(plan, enc.state)[0] == 12  # 10 + armor 2, no Dex +3
    enc.act(ax.EndTurn())
    assert not enc.state.get("b").has(FLAT_FOOTED)
    assert enc.target_ac(enc.plan_attack("b", "a"), enc.state)[0] == 15


def test_ep_surp_20_uncanny_dodge_is_never_marked() -> None:
    """EP-SURP-20: the marker is not set on a creature that cannot be caught flat-footed."""
    enc = ep([{"id": "a", "side": "x", "stats": stats("a"), "position": [0, 0]},
              {"id": "b", "side": "y", "stats": stats("b", feats=["uncanny_dodge"]), "position": [1, 0]}])
    assert not enc.state.get("b").has(FLAT_FOOTED)
