"""The cross-ruleset situations under worlds-of-adventure, beside pathfinder-beginner (the baseline), where WOA's
answer differs: moving inside a threatened area, AC with armor and natural armor, a critical threat by beating the
AC by 20 (issue 16, item 3). Same map, same creatures, same forced dice; WOA's creatures declare first and its
initiative dice come after the declarations."""

from __future__ import annotations

from typing import Any

from tests.rules._builders import armored, encounter, stats
from tests.rules.woa._util import declare_all

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter

PFB, WOA = "pathfinder-beginner", "worlds-of-adventure"
HERO = stats("hero", hp=30, attack_bonus=5, abilities={"dex": 10}, attacks=[{"weapon": "longsword"}])
OGRE = armored("ogre", 4, hp=60, natural_armor=3, attacks=[{"weapon": "club"}])
"""Armor 4 and natural armor 3, Dex 10."""


def _pair(ruleset: str, dice: list[int], hero_at: tuple[int, int], ogre_at: tuple[int, int],
          declare: ax.Declare) -> Encounter:
    """The hero acts first under both rulesets (PFB: initiative 20 vs 1; WOA: d20s 20 and 1 after declaring)."""
    combatants: list[dict[str, Any]] = [
        {"id": "hero", "side": "heroes", "stats": HERO, "position": list(hero_at)},
        {"id": "ogre", "side": "ogres", "stats": OGRE, "position": list(ogre_at)}]
    if ruleset != WOA:
        combatants[0]["initiative"], combatants[1]["initiative"] = 20, 1
        return encounter(ruleset, combatants, dice)
    enc = encounter(ruleset, combatants, [20, 1, *dice])
    declare_all(enc, declare, ax.Declare())
    assert enc.state.actor == "hero"
    return enc


def test_moving_inside_a_threatened_area() -> None:
    """Pathfinder Beginner has no attacks of opportunity (PFB.md, "the text has none"); off-guard's reaction attack
    comes from leaving a threatened square (CMV-COV-08), even to another square the ogre threatens.
    WOA-AOO-08 (rules-diff §4.5): merely moving inside the threatened area provokes nothing; only disengaging
    (leaving the area) does."""
    offered = {}
    for ruleset in ("off-guard", WOA):
        enc = _pair(ruleset, [], (2, 1), (2, 2), ax.Declare(move="move"))
        enc.act(ax.Move(path=((3, 1),)))  # still next to the ogre
        decision = enc.decision()
        prompt = decision.prompt if decision is not None else None
        offered[ruleset] = prompt is not None and prompt.kind == "attack_of_opportunity"
    assert offered == {"off-guard": True, WOA: False}
    enc = _pair(WOA, [], (2, 1), (2, 2), ax.Declare(move="move"))
    enc.act(ax.Move(path=((2, 0),)))  # out of the ogre's reach: disengaging provokes (WOA-AOO-08)
    decision = enc.decision()
    assert decision is not None and decision.prompt is not None and decision.prompt.reactor == "ogre"


def test_armor_and_natural_armor() -> None:
    """PFB-AC-01: armor 4 and natural armor 3 stack → AC 17. WOA-STAT-40: they do not stack, the larger applies →
    AC 14. So d20 10 + BAB 5 = 15 misses under PFB and hits under WOA."""
    results = {}
    for ruleset in (PFB, WOA):
        enc = _pair(ruleset, [10, 4], (1, 1), (2, 1), ax.Declare(standard="attack", target="ogre"))
        events = enc.act(ax.Attack("ogre"))
        attack = next(e for e in events if isinstance(e, ev.AttackResolved))
        results[ruleset] = (attack.hit, "\n".join(e.explain() for e in events))
    assert results[PFB][0] is False and "vs AC 17" in results[PFB][1]
    assert results[WOA][0] is True and "vs AC 14" in results[WOA][1]


def test_beating_the_ac_by_20_threatens_a_critical() -> None:
    """A longsword threatens on 19–20 (PFB-CRIT-01/09): d20 15 + BAB 25 = 40 against AC 14 hits but, under PFB, no
    threat. WOA-STAT-06: a result that beats the AC by 20 or more threatens too — the confirmation roll is made."""
    strong = dict(HERO, attack_bonus=25)
    results = {}
    for ruleset in (PFB, WOA):
        combatants: list[dict[str, Any]] = [
            {"id": "hero", "side": "heroes", "stats": strong, "position": [1, 1]},
            {"id": "ogre", "side": "ogres", "stats": armored("ogre", 4, hp=200, attacks=[{"weapon": "club"}]),
             "position": [2, 1]}]
        if ruleset == PFB:
            combatants[0]["initiative"], combatants[1]["initiative"] = 20, 1
            enc = encounter(ruleset, combatants, [15, 4])
        else:
            enc = encounter(ruleset, combatants, [20, 1, 15, 15, 4, 4])
            declare_all(enc, ax.Declare(standard="attack", target="ogre"), ax.Declare())
        events = enc.act(ax.Attack("ogre"))
        attack = next(e for e in events if isinstance(e, ev.AttackResolved))
        results[ruleset] = (attack.hit, attack.critical, "\n".join(e.explain() for e in events))
    assert results[PFB][:2] == (True, False)
    assert results[WOA][:2] == (True, True), results[WOA][2]
