"""WOA-STAT-75..83: saving throws with superior success and catastrophic failure, and the half-damage rule."""

from __future__ import annotations

import pytest
from tests.rules.woa._util import HERO, ORC, declare_all, who, woa

from d20combat.encounter import events as ev
from d20combat.encounter.gm_actions import GmSave
from d20combat.rulesets.worlds_of_adventure.saves import Degree, degree, half_damage_on_save


@pytest.mark.parametrize(("face", "result", "dc", "expected"), [
    (12, 25, 15, Degree.SUPERIOR),      # WOA-STAT-75: beats the DC by 10
    (12, 24, 15, Degree.SUCCESS),
    (12, 15, 15, Degree.SUCCESS),
    (12, 14, 15, Degree.FAILURE),
    (12, 6, 15, Degree.FAILURE),
    (12, 5, 15, Degree.CATASTROPHIC),   # WOA-STAT-77: fails by 10
    (1, 30, 15, Degree.FAILURE),        # WOA-STAT-79/81: a natural 1 fails, catastrophic only if also ≤ DC − 10
    (1, 5, 15, Degree.CATASTROPHIC),
    (20, 8, 15, Degree.SUCCESS),        # WOA-STAT-82/83: a natural 20 succeeds, superior only if also ≥ DC + 10
    (20, 25, 15, Degree.SUPERIOR),
])
def test_woa_stat_75_77_79_81_82_83_the_degree_of_a_save(face: int, result: int, dc: int, expected: Degree) -> None:
    """WOA-STAT-75/77/79/81/82/83."""
    assert degree(face, result, dc) is expected


def test_woa_stat_76_78_half_damage_by_degree() -> None:
    """WOA-STAT-76: superior → min(¼ full, the least roll); WOA-STAT-78: catastrophic → max(1½ full, the most roll).
    A fireball of 6d6 rolling 21: least 6, most 36."""
    assert half_damage_on_save(Degree.SUPERIOR, 21, 6, 36)[0] == 5
    assert half_damage_on_save(Degree.SUPERIOR, 40, 6, 36)[0] == 6
    assert half_damage_on_save(Degree.SUCCESS, 21, 6, 36)[0] == 10
    assert half_damage_on_save(Degree.FAILURE, 21, 6, 36)[0] == 21
    assert half_damage_on_save(Degree.CATASTROPHIC, 21, 6, 36)[0] == 36
    assert half_damage_on_save(Degree.CATASTROPHIC, 30, 6, 36)[0] == 45


@pytest.mark.parametrize(("face", "success"), [(1, False), (20, True)])
def test_woa_stat_79_82_a_called_save_obeys_the_naturals(face: int, success: bool) -> None:
    """WOA-STAT-79/82 through the engine: the GM calls a Reflex save; a natural 1 fails even when the total would
    beat the DC, a natural 20 succeeds even when it would not."""
    enc = woa([who("hero", HERO, "heroes", (1, 1)), who("orc", ORC, "monsters", (8, 8))], [10, 10, face])
    declare_all(enc)
    dc = 5 if face == 1 else 40
    events = enc.gm(GmSave("hero", "ref", dc))
    rolled = next(e for e in events if isinstance(e, ev.SaveRolled))
    assert rolled.success is success
