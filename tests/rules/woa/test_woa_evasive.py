"""Evasive movement (WOA-AOO-25, WOA-MOVE-41/42): the Acrobatics check result stands in for AC against the attacks
of opportunity a movement provokes — a move made evasively, or getting up evasively (+10 slowly). The usage's DCs
and action costs are MISSING: the reading plays it with no DC and no action of its own (evasive.py)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules._builders import stats
from tests.rules.woa._util import ORC, declare_all, who, woa

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.rulesets.worlds_of_adventure.evasive import EvasiveMove
from d20combat.rulesets.worlds_of_adventure.postures import GetUp


def acrobat(skill: int = 12) -> dict[str, Any]:
    return stats("acrobat", hp=30, skills={"acrobatics": skill}, attacks=[{"weapon": "longsword"}])


def by_orc(dice: list[int], *, prone: bool = False, skill: int = 12) -> Encounter:
    """The acrobat (AC 10) at (2,2) next to the orc at (3,2); initiative: the acrobat first."""
    extra = {"conditions": ["prone"]} if prone else {}
    return woa([who("hero", acrobat(skill), "heroes", (2, 2), **extra),
                who("orc", {**ORC, "wielding": "club"}, "monsters", (3, 2))], [15, 1, *dice], width=10, height=10)


def aoo_line(events: list[ev.Event]) -> str:
    return "\n".join(next(e for e in events if isinstance(e, ev.AttackResolved)).lines)


def no_mark(enc: Encounter) -> bool:
    return not any(c.startswith("evasive_ac:") for c in enc.state.get("hero").conditions)


@pytest.mark.parametrize(("evasive", "ac_text"), [
    (True, "vs AC 30 (Acrobatics check in place of AC 10 (WOA-MOVE-45) 30)"), (False, "vs AC 10 (10)")])
def test_woa_aoo_25_an_evasive_move_meets_the_aoo_with_its_acrobatics(evasive: bool, ac_text: str) -> None:
    """WOA-AOO-25: moving away from the orc evasively (a declared move action), the acrobat's Acrobatics d20 18 + 12 =
    30 is the AC the orc's attack of opportunity meets; a plain move meets AC 10. The mark is gone afterwards."""
    enc = by_orc([18, 15, 3] if evasive else [15, 3])
    declare_all(enc, ax.Declare(move="move"))
    enc.act(EvasiveMove(to=(0, 2)) if evasive else ax.Move(to=(0, 2)))
    assert enc.pending is not None and enc.pending.prompt.reactor == "orc"
    events = enc.respond("attack")
    assert ac_text in aoo_line(events)
    assert enc.state.get("hero").position == (0, 2) and no_mark(enc)


def test_woa_aoo_25_a_low_check_keeps_the_ac() -> None:
    """WOA-AOO-25: the result stands in only when better ("you can use"): d20 1 + 2 = 3 < AC 10, AC 10 stays."""
    enc = by_orc([1, 15, 3], skill=2)
    declare_all(enc, ax.Declare(move="move"))
    enc.act(EvasiveMove(to=(0, 2)))
    assert "vs AC 10 (10)" in aoo_line(enc.respond("attack"))


def test_woa_aoo_25_an_impossible_evasive_move_is_refused_before_any_roll() -> None:
    """WOA-AOO-25: a move the acrobat cannot make is refused as a move would be — nothing rolled, nothing changed."""
    enc = by_orc([])
    declare_all(enc, ax.Declare(move="move"))
    before = len(enc.log)
    with pytest.raises(IllegalAction, match="move"):
        enc.act(EvasiveMove(to=(9, 9)))
    assert len(enc.log) == before and enc.state.get("hero").position == (2, 2)


def test_woa_aoo_25_an_evasive_move_is_a_declared_move_action() -> None:
    """WOA-AOO-25 with WOA-CYCLE-21: a creature that declared only a standard attack may not move evasively."""
    enc = by_orc([])
    declare_all(enc, ax.Declare(standard="attack", target="orc"))
    with pytest.raises(IllegalAction, match="WOA-CYCLE-21"):
        enc.act(EvasiveMove(to=(0, 2)))


@pytest.mark.parametrize(("slowly", "dice", "ac_text"), [
    (False, [5, 15, 3], "vs AC 17 (Acrobatics check in place of AC 10 (WOA-MOVE-45) 17)"),
    (True, [5, 15, 3], "vs AC 27 (Acrobatics check in place of AC 10 (WOA-MOVE-45) 27)"),
])
def test_woa_move_41_42_getting_up_evasively(slowly: bool, dice: list[int], ac_text: str) -> None:
    """WOA-MOVE-41: getting up from prone evasively — Acrobatics d20 5 + 12 = 17 is the AC the orc's attack of
    opportunity meets (prone's −4 against melee is beside the point: the result stands in); WOA-MOVE-42: slowly, +10:
    27. The acrobat is up afterwards."""
    enc = by_orc(dice, prone=True)
    declare_all(enc, ax.Declare(standard="move", move="move"))
    enc.act(GetUp(slowly=slowly, evasive=True))
    assert enc.pending is not None and enc.pending.prompt.reactor == "orc"
    events = enc.respond("attack")
    assert ac_text in aoo_line(events)
    assert not enc.state.get("hero").has("prone") and no_mark(enc)


def test_woa_move_42_slowly_without_evasion_gives_no_check() -> None:
    """WOA-MOVE-42: the +10 is on the evasive check — getting up slowly but not evasively rolls none: AC 10 − 4
    (prone against melee) as usual."""
    enc = by_orc([15, 3], prone=True)
    declare_all(enc, ax.Declare(standard="move", move="move"))
    enc.act(GetUp(slowly=True))
    line = aoo_line(enc.respond("attack"))
    assert "Acrobatics" not in line
