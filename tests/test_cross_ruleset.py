"""One situation, three rulesets: the same map, the same creatures and the same forced dice resolved
under pathfinder-beginner, off-guard and skill-based, with the text-correct outcomes side by side."""

from __future__ import annotations

from typing import Any

from tests.conftest import make_encounter

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter

RULESETS = ("pathfinder-beginner", "off-guard", "skill-based")


def _duel(ruleset: str, dice: list[int], **extra: Any) -> Encounter:
    return make_encounter([
        {"id": "valeros", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "goblin", "side": "goblins", "stats": "goblin", "position": [2, 1]},
    ], dice=dice, ruleset=ruleset, **extra)


def _attack(enc: Encounter, answers: tuple[str, ...] = ()) -> list[ev.Event]:
    events = enc.act(ax.Attack("goblin"))
    for answer in answers:
        assert enc.pending is not None
        events = enc.respond(answer)
    assert enc.pending is None
    return events


def _lines(events: list[ev.Event]) -> str:
    return "\n".join(e.explain() for e in events)


def test_a_surprised_goblin_struck_under_each_ruleset() -> None:
    """d20 7 against a goblin surprised in round 1 (armor 2 + shield 1 + Dex 2).

    - PFB-SURP-09 / PFB-AC-04: flat-footed loses the Dex bonus → AC 13; 12 misses.
    - CMV-SIT-07 / CMV-COND-37: off-guard is −2 AC *and* no Dex → AC 11; 12 hits, 8 damage; damage is
      counted as taken (CMV-INJ-03 bloodied; CMV-INJ-12 death save DC 10 + 8 = 18, d20 5 + Con 1 fails → dying).
    - SKL-DEF-01 / SKL-DMG-01: Passive Defense 10 + Dex = 12 (armor is not in it); d20 7 + sword skill 4 + Str 3
      = 14 hits; damage 1d8 5 + Str 3 − armor rating 1 = 7.
    """
    outcome = {}
    for ruleset in RULESETS:
        enc = _duel(ruleset, [7, 5, 5], surprise={"surprised": ["goblin"]})
        events = _attack(enc)
        attack = next(e for e in events if isinstance(e, ev.AttackResolved))
        damage = sum(e.amount for e in events if isinstance(e, ev.Damaged))
        outcome[ruleset] = (attack.hit, damage, _lines(events))
    hit, damage, text = outcome["pathfinder-beginner"]
    assert not hit and damage == 0 and "vs AC 13 (10 + armor 2 + shield 1)" in text
    hit, damage, text = outcome["off-guard"]
    assert hit and damage == 8 and "vs AC 11 (10 + armor 2 + shield 1 − off-guard 2)" in text
    assert "bloodied" in text and "vs DC 18 — fails" in text and "goblin is dying" in text
    hit, damage, text = outcome["skill-based"]
    assert hit and damage == 7 and "14 = d20 7 + sword skill 4 + Str 3 vs Passive Defense 12 (10 + Dex 2)" in text
    assert "− armor rating 1" in text


def test_a_natural_20_under_each_ruleset() -> None:
    """The dice 20, 8, 6, 5 — a longsword (19–20/×2) against the same goblin, not surprised.

    - PFB-NAT-03 / PFB-CRIT-01..04: a natural 20 hits and threatens; the confirmation 8 + 5 = 13 < AC 15 fails,
      so it is a normal hit: 1d8 (6) + Str 3 = 9.
    - CMV inherits PFB's attack and critical rules: the same normal hit for 9; then its damage-taken model:
      9 > hp 6 → death save DC 19, d20 5 + Con 1 fails → dying (CMV-INJ-12).
    - SKL-ATK-05 / SKL-CRIT-01: the natural 20 counts as 30 and there are no threats; the goblin, which has not
      acted yet, holds its complex action in reserve (SKL-RES-01) and is asked to block or dodge (SKL-DEF-03..05);
      it declines; no confirmation die is rolled, so the 8 is the damage die: 8 + Str 3 − armor rating 1 = 10.
    """
    results = {}
    for ruleset in RULESETS:
        enc = _duel(ruleset, [20, 8, 6, 5])
        answers = ("none",) if ruleset == "skill-based" else ()
        events = _attack(enc, answers)
        attack = next(e for e in events if isinstance(e, ev.AttackResolved))
        damage = sum(e.amount for e in events if isinstance(e, ev.Damaged))
        results[ruleset] = (attack.critical, damage, _lines(events))
    crit, damage, text = results["pathfinder-beginner"]
    assert not crit and damage == 9 and "critical threat; confirmation 13" in text and "not confirmed" in text
    crit, damage, text = results["off-guard"]
    assert not crit and damage == 9 and "not confirmed" in text and "vs DC 19 — fails" in text
    crit, damage, text = results["skill-based"]
    assert not crit and damage == 10 and "natural 20 counts as 30" in text and "critical threat" not in text
