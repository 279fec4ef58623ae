"""Exact odds of Epic Path attacks: additive multipliers, averaged dice rounded down once, brutal dice — the odds
ask the same damage area the engine rolls with (EP-CRIT-12, EP-DMG-08, EP-DMG-11)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

from tests.rules.ep._util import ep, stats

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.odds import attack_odds, profile_from_encounter


def scene(weapon: dict[str, Any], variants: dict[str, Any] | None = None, dice: tuple[int, ...] = ()) -> Any:
    a = stats("a", attack_bonus=5, abilities={"str": 14}, attacks=[{"weapon": weapon}])
    return ep([{"id": "a", "side": "x", "stats": a, "position": [2, 2]},
               {"id": "t", "side": "y", "stats": stats("t", hp=500), "position": [3, 2]}],
              dice=dice, variants=variants)


def exact_mean(sides: int, count: int, add: int, static: int) -> Fraction:
    """Mean of ``count`` brutal dice (+``add`` capped) + ``static``, by enumeration."""
    faces = [min(f + add, sides) for f in range(1, sides + 1)]
    total = sum(sum(c) for c in product(faces, repeat=count))
    return Fraction(total, sides ** count) + static


BRUTAL_AXE = {"name": "axe", "damage": "1d10", "crit_mult": 3, "qualities": ["brutal", "increased-multiplier"]}


def test_ep_crit_12_dmg_11_odds_use_additive_multipliers_and_brutal_dice() -> None:
    """EP-CRIT-12, EP-DMG-11: a brutal 1d10 + Str 2, ×3 increased to ×4: a normal hit's mean is the brutal die's
    (6.4) + 2, a critical's 4 brutal dice + 8 — the odds say what the engine deals."""
    enc = scene(BRUTAL_AXE)
    odds = attack_odds(profile_from_encounter(enc, "a", "t"))
    assert odds.profile.multiplier == 4
    assert Fraction(odds.hit_damage.mean()) == exact_mean(10, 1, 1, 2)
    assert Fraction(odds.crit_damage.mean()) == exact_mean(10, 4, 1, 8)
    assert odds.p_hit == Fraction(18, 20)  # +7 vs AC 10: a natural 3 or better
    # the engine, rolling a 4 on the brutal die, deals 5 + 2 — an outcome the odds give
    events = scene(BRUTAL_AXE, dice=(15, 4)).act(ax.Attack(target="t"))
    dealt = sum(e.amount for e in events if isinstance(e, ev.Damaged))
    assert dealt == 7 and odds.hit_damage.probability(7) > 0


def test_ep_dmg_08_odds_of_averaged_damage_round_down_once() -> None:
    """EP-DMG-08: averaging every die: 1d8 + Str 2 → 4 + 2 = 6 on a hit, and a ×2 critical averages 2d8 → 9 + 4
    = 13 (not 2 × 6) — the odds give exactly these."""
    enc = scene({"name": "sword", "damage": "1d8"}, variants={"ep_average_damage": {"a": "all"}})
    profile = profile_from_encounter(enc, "a", "t")
    odds = attack_odds(profile)
    assert dict(odds.hit_damage.items()) == {6: 1} or list(odds.hit_damage.outcomes()) == [6]
    assert list(odds.crit_damage.outcomes()) == [13]
    assert any("damage as Epic Path deals it" in d for d in profile.details)
