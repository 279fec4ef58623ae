"""Cover on Reflex saves and Stealth checks, through the engine (EP-COV-07, EP-COV-08, EP-COV-09, EP-COV-11,
EP-COV-18, EP-COV-19): the ``effect`` action's Reflex saves from an origin beyond cover, and the ``hide`` action's
Stealth check. Forced dice: the effect's damage dice, then each target's save d20; a Stealth check's d20."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.ep._util import assert_illegal, ep, stats, texts

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.rulesets.epic_path import Spot
from d20combat.rulesets.epic_path.effects import UseEffect
from d20combat.rulesets.epic_path.hiding import Hide

T = stats("t", hp=40, attack_bonus=1, skills={"stealth": 3, "perception": 0}, attacks=[{"weapon": "club"}],
          attributes={"cr": 1})
"""Reflex +0, Stealth +3, CR 1."""
ROWS = ["..........",
        "....#.....",
        ".........."]
"""A pillar at (4,1) between the origin (2,1) and t at (6,1)."""


def blast_field(*, dice: list[int], improved: bool = False) -> Any:
    extra = {"improved_cover": [[4, 1]]} if improved else None
    return ep([{"id": "c", "side": "h", "stats": T, "position": [0, 0]},
               {"id": "t", "side": "f", "stats": T, "position": [6, 1]}],
              dice=dice, rows=ROWS, map_extra=extra)


def saved(events: list[ev.Event]) -> ev.SaveRolled:
    return next(e for e in events if isinstance(e, ev.SaveRolled))


def blast(origin: tuple[int, int] = (2, 1), **kw: Any) -> UseEffect:
    return UseEffect(name="fireball", targets=("t",), save="ref", dc=15, damage="2d6", origin=origin, **kw)


# --- Reflex saves (EP-COV-07, EP-COV-08, EP-COV-18) -------------------------------------------------------------

def test_ep_cov_07_cover_between_the_origin_and_the_target_adds_2_on_reflex() -> None:
    """EP-COV-07: the burst's origin is beyond the pillar: d20 13 + cover 2 = 15 saves, half of 7 = 3."""
    enc = blast_field(dice=[3, 4, 13])
    events = enc.act(blast())
    s = saved(events)
    assert s.success and "cover 2" in s.explanation
    assert enc.state.get("t").hp == 37


def test_ep_cov_08_a_spread_around_the_corner_loses_the_cover_bonus() -> None:
    """EP-COV-08: the same effect as a spread: d20 13 alone fails, full 7; the save says why."""
    enc = blast_field(dice=[3, 4, 13])
    events = enc.act(blast(spread=True))
    s = saved(events)
    assert not s.success and "cover" not in s.explanation.split(":")[0]
    assert "a spread reaches around the cover: no cover bonus (EP-COV-08)" in s.explanation
    assert enc.state.get("t").hp == 33


@pytest.mark.parametrize(("face", "hp"), [(11, 40), (10, 37)])
def test_ep_cov_18_improved_cover_gives_improved_evasion(face: int, hp: int) -> None:
    """EP-COV-17/18: improved cover (+4 on Reflex): d20 11 + 4 saves and takes nothing; d20 10 + 4 fails and takes
    only half (3 of 7)."""
    enc = blast_field(dice=[3, 4, face], improved=True)
    events = enc.act(blast())
    assert "improved cover 4" in saved(events).explanation and "EP-COV-18" in saved(events).explanation
    assert enc.state.get("t").hp == hp


def test_ep_cov_18_only_against_reflex() -> None:
    """EP-COV-18: improved evasion only where the Reflex bonus applies — a Fortitude save gets neither."""
    enc = blast_field(dice=[3, 4, 16], improved=True)
    events = enc.act(UseEffect(name="cloud", targets=("t",), save="fort", dc=15, damage="2d6", origin=(2, 1)))
    assert saved(events).success and "cover" not in saved(events).explanation
    assert enc.state.get("t").hp == 37


def test_ep_cov_15_no_line_of_effect_no_effect() -> None:
    """EP-COV-15/16: an origin walled off entirely (total cover) leaves the target unaffected, no save rolled."""
    rows = ["...#......", "...#......", "...#......"]
    enc = ep([{"id": "c", "side": "h", "stats": T, "position": [0, 0]},
              {"id": "t", "side": "f", "stats": T, "position": [6, 1]}], dice=[3, 4], rows=rows)
    events = enc.act(blast(origin=(1, 1)))
    assert "total cover, unaffected" in texts(events) and not any(isinstance(e, ev.SaveRolled) for e in events)
    assert enc.state.get("t").hp == 40


# --- Stealth checks (EP-COV-09, EP-COV-11, EP-COV-19) ------------------------------------------------------------

def hide_field(rows: list[str], *, at: tuple[int, int], dice: list[int], extra: dict[str, Any] | None = None,
               blocker: bool = False) -> Any:
    combatants = [{"id": "s", "side": "f", "stats": T, "position": list(at)},
                  {"id": "l", "side": "h", "stats": T, "position": [0, 1]}]
    if blocker:
        combatants.append({"id": "m", "side": "f", "stats": T, "position": [3, 1]})
    return ep(combatants, dice=dice, rows=rows, map_extra=extra)


def test_ep_cov_09_cover_allows_a_stealth_check() -> None:
    """EP-COV-09: behind the pillar s makes its Stealth check: 15 = d20 12 + 3, kept as stealth:15 for the Spot
    checks against it (EP-CONC-20); a move action."""
    enc = hide_field(ROWS, at=(6, 1), dice=[12])
    events = enc.act(Hide())
    assert enc.state.get("s").has("stealth:15")
    assert "cover from l" in texts(events) and "EP-COV-09" in texts(events)
    assert enc.state.turn is not None and not enc.state.turn.move


def test_ep_cov_09_no_stealth_in_plain_sight() -> None:
    """EP-COV-09: without cover or concealment the check is refused, naming who sees it."""
    enc = hide_field(["..........", "..........", ".........."], at=(6, 1), dice=[12])
    assert_illegal(enc, Hide(), r"l sees s plainly.*EP-COV-09")


def test_ep_cov_09_concealment_also_allows_it() -> None:
    """EP-COV-09: fog (concealment) serves where there is no cover."""
    enc = hide_field(["..........", "......f...", ".........."], at=(6, 1), dice=[12])
    events = enc.act(Hide())
    assert "concealment from l" in texts(events) and enc.state.get("s").has("stealth:15")


def test_ep_cov_11_soft_cover_from_a_creature_does_not() -> None:
    """EP-COV-11: an ally standing between s and l gives soft cover, which allows no Stealth check."""
    enc = hide_field(["..........", "..........", ".........."], at=(6, 1), dice=[12], blocker=True)
    assert_illegal(enc, Hide(), "soft cover")


def test_ep_cov_19_improved_cover_gives_plus_10() -> None:
    """EP-COV-19: improved cover: Stealth 25 = d20 12 + 3 + 10 — and a Spot check must beat it (EP-CONC-20)."""
    enc = hide_field(ROWS, at=(6, 1), dice=[12], extra={"improved_cover": [[4, 1]]})
    events = enc.act(Hide())
    assert enc.state.get("s").has("stealth:25")
    assert "improved cover (EP-COV-19) 10" in texts(events)


def test_ep_cov_09_a_new_check_replaces_the_old_one() -> None:
    """EP-COV-09: a second check (the standard action taken as a move) replaces stealth:15 by stealth:8."""
    enc = hide_field(ROWS, at=(6, 1), dice=[12, 5])
    enc.act(Hide())
    enc.act(Hide())
    conds = enc.state.get("s").conditions
    assert "stealth:8" in conds and "stealth:15" not in conds


def test_ep_cov_09_the_result_is_what_a_spot_check_must_beat() -> None:
    """EP-COV-09 with EP-CONC-20: an invisible hider's Stealth result is the DC of a Spot check against it."""
    enc = ep([{"id": "s", "side": "f", "stats": T, "position": [3, 1], "conditions": ["invisible"]},
              {"id": "l", "side": "h", "stats": T, "position": [0, 1]}], dice=[12, 17], rows=ROWS)
    enc.act(Hide())
    assert enc.state.get("s").has("stealth:17")  # d20 12 + Stealth 3 + invisible 2 (EP-CONC-17)
    enc.act(ax.EndTurn())
    events = enc.act(Spot())
    assert "finds 1 square" in texts(events)  # d20 17 + 0 ≥ 17
