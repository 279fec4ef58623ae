"""PFB concealment, engine side (PFB-CONC): the d% is rolled *before* the attack roll, 01–20 (or 01–50 for
total concealment) misses with no attack roll, only the strongest source counts, a natural 20 never
overrides a failed d%, and total concealment means attacking a guessed square (a wrong guess is reported
as a plain miss). Which squares conceal (lines, light, vision) is tested with the battlefield geometry.

Map legend: ``f`` fog (20 %), ``d`` dim light, ``D`` darkness. Forced dice: d%, d20, [confirm], damage.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from d20combat.dice import ScriptedDice
from d20combat.encounter import events as ev
from d20combat.encounter.actions import Attack
from d20combat.encounter.engine import Encounter, IllegalAction

Make = Callable[..., Encounter]


def stats(name: str = "x", **kw: Any) -> dict[str, Any]:
    block: dict[str, Any] = {"name": name, "hp": 30}
    block.update(kw)
    return block


TARGET = stats("target", armor={"name": "a12", "armor_bonus": 2}, attacks=[{"weapon": "club"}])  # AC 12
HUMAN = stats("human", race="human", abilities={"str": 12}, attack_bonus=1, attacks=[{"weapon": "club"}])


def resolve(enc: Encounter, action: Attack) -> tuple[ev.AttackResolved, list[ev.Damaged]]:
    events = enc.act(action)
    resolved = [e for e in events if isinstance(e, ev.AttackResolved)]
    assert len(resolved) == 1
    return resolved[0], [e for e in events if isinstance(e, ev.Damaged)]


def rolled(enc: Encounter) -> list[int]:
    """The sides of every die rolled so far: 100 = d%, 20 = d20."""
    return [r.sides for r in enc.dice.rolls]


def remaining(enc: Encounter) -> int:
    assert isinstance(enc.dice, ScriptedDice)
    return enc.dice.remaining


def fog_duel(make: Make, dice: list[int], attacker: dict[str, Any] | None = None) -> Encounter:
    """The human at (0,0) hits the target standing in fog at (1,0)."""
    return make([
        {"id": "a", "side": "heroes", "stats": attacker or HUMAN, "position": [0, 0]},
        {"id": "t", "side": "foes", "stats": TARGET, "position": [1, 0]},
    ], rows=[".f..", "...."], dice=dice)


def invisible_duel(make: Make, dice: list[int], *, target_pos: tuple[int, int] = (1, 0),
                   rows: list[str] | None = None, attacker: dict[str, Any] | None = None,
                   conditions: tuple[str, ...] = ("invisible",)) -> Encounter:
    return make([
        {"id": "a", "side": "heroes", "stats": attacker or HUMAN, "position": [0, 0]},
        {"id": "t", "side": "foes", "stats": TARGET, "position": list(target_pos), "conditions": list(conditions)},
    ], rows=rows or ["........", "........", "........"], dice=dice)


# ---------------------------------------------------------------------------- 20 %: CONC-01/02/08/09/10
def test_pfb_conc_01_concealment_is_no_ac_bonus_and_no_barrier(encounter_factory: Make) -> None:
    """PFB-CONC-01, PFB-CONC-06: fog does not block the attack and does not raise AC; it is a miss chance."""
    enc = fog_duel(encounter_factory, [])
    plan = enc.plan_attack("a", "t")
    assert plan.concealment == 20
    assert enc.target_ac(plan, enc.state) == (12, "10 + armor 2")


@pytest.mark.parametrize(("percent", "hit"), [(1, False), (20, False), (21, True), (100, True)])
def test_pfb_conc_08_09_10_boundaries_20_21(encounter_factory: Make, percent: int, hit: bool) -> None:
    """PFB-CONC-02, PFB-CONC-08, PFB-CONC-09, PFB-CONC-10 (worked example): a target inside fog has 20 %:
    d% 01–20 misses with no attack roll at all (no d20 is rolled); 21 and 100 ("00") go on to a normal
    attack roll (here d20 15 → hit)."""
    dice = [percent, 15, 3] if hit else [percent]
    enc = fog_duel(encounter_factory, dice)
    resolved, damage = resolve(enc, Attack("t"))
    assert resolved.hit is hit
    if hit:
        assert rolled(enc) == [100, 20, 6]
        assert f"concealment d% {percent} > 20" in resolved.lines[1]
        assert [d.amount for d in damage] == [3 + 1]
    else:
        assert rolled(enc) == [100]
        assert f"concealment d% {percent} ≤ 20" in resolved.lines[1] and "no attack roll" in resolved.lines[1]
        assert not damage and enc.state.get("t").hp == 30


def test_pfb_conc_09_d_percent_comes_before_the_attack_roll(encounter_factory: Make) -> None:
    """PFB-CONC-09: the d% is the first die of the attack, then the d20 (and the standard action is spent
    even when the d% misses)."""
    enc = fog_duel(encounter_factory, [5])
    events = enc.act(Attack("t"))
    assert [e.cost for e in events if isinstance(e, ev.BudgetSpent)] == ["standard"]
    assert [r.purpose for r in enc.dice.rolls] == ["concealment a->t"]
    enc = fog_duel(encounter_factory, [50, 2])
    enc.act(Attack("t"))
    assert [r.sides for r in enc.dice.rolls] == [100, 20]


def test_pfb_conc_03_fog_between_the_two(encounter_factory: Make) -> None:
    """PFB-CONC-03, PFB-CONC-08 in the engine: a fog bank between archer and target gives the target 20 %."""
    archer = stats("archer", abilities={"dex": 14}, attacks=[{"weapon": "shortbow"}], wielding="shortbow")
    enc = encounter_factory([
        {"id": "a", "side": "heroes", "stats": archer, "position": [0, 1]},
        {"id": "t", "side": "foes", "stats": TARGET, "position": [6, 1]},
    ], rows=["...fff..", "...fff..", "...fff.."], dice=[20])
    assert enc.plan_attack("a", "t").concealment == 20
    resolved, _ = resolve(enc, Attack("t"))
    assert not resolved.hit and rolled(enc) == [100]


# ---------------------------------------------------------------------------- CONC-06: natural 20
def test_pfb_conc_06_natural_20_never_overrides_a_failed_d_percent(encounter_factory: Make) -> None:
    """PFB-CONC-06 (worked example): the attacker fails the d% → no attack roll at all, so the natural 20
    waiting on the dice never comes into play."""
    enc = fog_duel(encounter_factory, [12, 20, 20, 6])
    resolved, damage = resolve(enc, Attack("t"))
    assert not resolved.hit and not resolved.critical and not damage
    assert remaining(enc) == 3


def test_pfb_conc_06_natural_20_after_a_passed_d_percent(encounter_factory: Make) -> None:
    """PFB-CONC-06 (worked example): d% passed, natural 20 → hit and threat, confirmed normally (no
    second d%), ×2 damage."""
    enc = fog_duel(encounter_factory, [80, 20, 11, 3, 4])
    resolved, damage = resolve(enc, Attack("t"))
    assert resolved.hit and resolved.critical
    assert rolled(enc) == [100, 20, 20, 6, 6]
    assert [d.amount for d in damage] == [3 + 4 + 2]


# ---------------------------------------------------------------------------- CONC-07: strongest only
def test_pfb_conc_07_strongest_source_only(encounter_factory: Make) -> None:
    """PFB-CONC-07 (worked example): a target in fog (20 %) that is also invisible (50 %) → one d% at
    50 %, not 70 % and not two rolls: d% 60 passes (it would fail at 70 %), d% 40 misses (it would pass
    at 20 %)."""
    enc = invisible_duel(encounter_factory, [60, 15, 2], rows=[".f......", "........"])
    plan = enc.plan_attack("a", "t", square=(1, 0))
    assert plan.concealment == 50
    resolved, _ = resolve(enc, Attack("t", square=(1, 0)))
    assert resolved.hit and rolled(enc) == [100, 20, 6]
    enc = invisible_duel(encounter_factory, [40], rows=[".f......", "........"])
    resolved, _ = resolve(enc, Attack("t", square=(1, 0)))
    assert not resolved.hit and rolled(enc) == [100]


def test_pfb_conc_07_two_20_percent_sources_stay_20(encounter_factory: Make) -> None:
    """PFB-CONC-07 (with PFB-CONC-03, PFB-CONC-04): fog between the two and dim light on the target's square
    (a human attacker, no low-light vision) → still 20 %, not 40 %: d% 25 passes."""
    archer = stats("archer", race="human", attacks=[{"weapon": "shortbow"}], wielding="shortbow")
    enc = encounter_factory([
        {"id": "a", "side": "heroes", "stats": archer, "position": [0, 0]},
        {"id": "t", "side": "foes", "stats": TARGET, "position": [3, 0]},
    ], rows=[".ffd", "...."], dice=[25, 1])
    assert enc.plan_attack("a", "t").concealment == 20
    resolved, _ = resolve(enc, Attack("t"))
    assert "concealment d% 25 > 20" in resolved.lines[1] and rolled(enc) == [100, 20]


# ---------------------------------------------------------------------------- total: CONC-11..14
@pytest.mark.parametrize("case", ["invisible", "blinded", "dark"])
def test_pfb_conc_11_total_concealment_needs_a_guessed_square(encounter_factory: Make, case: str) -> None:
    """PFB-CONC-11, PFB-CONC-12: an invisible target, a blinded attacker, or a target in darkness (attacker without
    darkvision) → total concealment: attacking the creature itself is refused and changes nothing."""
    if case == "invisible":
        enc = invisible_duel(encounter_factory, [])
    elif case == "blinded":
        enc = encounter_factory([
            {"id": "a", "side": "heroes", "stats": HUMAN, "position": [0, 0], "conditions": ["blinded"]},
            {"id": "t", "side": "foes", "stats": TARGET, "position": [1, 0]},
        ], width=4, height=2)
    else:
        enc = invisible_duel(encounter_factory, [], rows=[".D......", "........"], conditions=())
    with pytest.raises(IllegalAction, match="PFB-CONC-12"):
        enc.plan_attack("a", "t")
    before = enc.state
    with pytest.raises(IllegalAction, match="total concealment"):
        enc.act(Attack("t"))
    assert enc.state is before
    assert enc.plan_attack("a", "t", square=(1, 0)).concealment == 50


def test_pfb_conc_11_total_concealment_is_per_enemy(encounter_factory: Make) -> None:
    """PFB-CONC-11, PFB-CONC-15: darkness hides the target from the human, not from a dwarf with darkvision 60 ft."""
    dwarf = stats("dwarf", race="dwarf", darkvision_ft=60, attacks=[{"weapon": "club"}])
    enc = encounter_factory([
        {"id": "h", "side": "heroes", "stats": HUMAN, "position": [0, 0]},
        {"id": "d", "side": "heroes", "stats": dwarf, "position": [2, 1]},
        {"id": "t", "side": "foes", "stats": TARGET, "position": [1, 0]},
    ], rows=[".D..", "...."])
    with pytest.raises(IllegalAction, match="total concealment"):
        enc.plan_attack("h", "t")
    assert enc.plan_attack("d", "t").concealment == 0


def test_pfb_conc_17_see_invisibility_ignores_invisibility(encounter_factory: Make) -> None:
    """PFB-CONC-17: an attacker that sees invisible creatures attacks an invisible one normally (no d%)."""
    enc = encounter_factory([
        {"id": "a", "side": "heroes", "stats": HUMAN, "position": [0, 0], "conditions": ["sees_invisible"]},
        {"id": "t", "side": "foes", "stats": TARGET, "position": [1, 0], "conditions": ["invisible"]},
    ], width=4, height=2, dice=[15, 2])
    assert enc.plan_attack("a", "t").concealment == 0
    resolved, _ = resolve(enc, Attack("t"))
    assert resolved.hit and rolled(enc) == [20, 6]


@pytest.mark.parametrize(("percent", "hit"), [(1, False), (37, False), (50, False), (51, True), (74, True),
                                              (100, True)])
def test_pfb_conc_13_14_boundaries_50_51(encounter_factory: Make, percent: int, hit: bool) -> None:
    """PFB-CONC-13, PFB-CONC-14 (worked example): attacking the right square of an invisible target: d% 01–50 misses
    with no attack roll (37 → miss); 51–100 makes the attack roll normally against its AC (74 → roll)."""
    enc = invisible_duel(encounter_factory, [percent, 15, 2] if hit else [percent])
    resolved, damage = resolve(enc, Attack("t", square=(1, 0)))
    assert resolved.hit is hit
    if hit:
        assert rolled(enc) == [100, 20, 6]
        assert f"concealment d% {percent} > 50" in resolved.lines[1]
        assert "vs AC 12" in resolved.lines[2]
        assert [d.amount for d in damage] == [2 + 1]
    else:
        assert rolled(enc) == [100] and not damage
        # PFB-CONC-12 (issue 11, item 7): a guessed attack that misses says only "miss" — not that the
        # square was right and the miss chance saved the target.
        assert resolved.lines[1:] == ["  misses"]


def test_pfb_conc_12_right_square_of_a_large_target(encounter_factory: Make) -> None:
    """PFB-CONC-12: any square of a Large invisible creature's space is a right guess."""
    ogre_stats = "ogre"
    enc = encounter_factory([
        {"id": "a", "side": "heroes", "stats": HUMAN, "position": [0, 0]},
        {"id": "o", "side": "giants", "stats": ogre_stats, "position": [1, 0], "conditions": ["invisible"]},
    ], width=5, height=4, dice=[60, 20, 20, 6, 6])
    plan = enc.plan_attack("a", "o", square=(1, 1))
    assert not plan.guessed_wrong
    resolved, _ = resolve(enc, Attack("o", square=(1, 1)))
    assert resolved.hit and resolved.critical


@pytest.mark.parametrize("percent", [30, 74])
def test_pfb_conc_12_wrong_guess_is_a_plain_miss(encounter_factory: Make, percent: int) -> None:
    """PFB-CONC-12 (worked example): the square guessed is empty → the attack misses and is reported just as
    "misses": no attack roll, no damage, no word about the square or the guess, whatever the d%."""
    enc = invisible_duel(encounter_factory, [percent, 20, 20, 6, 6], target_pos=(1, 0))
    resolved, damage = resolve(enc, Attack("t", square=(1, 1)))
    assert not resolved.hit and not resolved.critical and not damage
    assert resolved.lines[1:] == ["  misses"]
    text = " ".join(resolved.lines).lower()
    assert not any(word in text for word in ("square", "guess", "wrong", "empty", "(1,0)", "(1,1)"))
    assert remaining(enc) == 4  # only the d% was rolled
    assert enc.state.get("t").hp == 30
    assert enc.state.turn is not None and not enc.state.turn.standard  # the attack was made


def test_pfb_conc_12_guessing_a_square_in_reach_when_the_target_is_far(encounter_factory: Make) -> None:
    """PFB-CONC-12: attacking into an adjacent guessed square is legal even if the invisible target is
    actually 25 ft away, and it is a plain miss: refusing it ("beyond reach") would reveal where the target
    is not."""
    enc = invisible_duel(encounter_factory, [74, 20, 20, 6, 6], target_pos=(5, 0))
    resolved, damage = resolve(enc, Attack("t", square=(1, 0)))
    assert not resolved.hit and not damage
    assert resolved.lines[1:] == ["  misses"]


def test_pfb_conc_12_guessed_square_must_be_in_reach(encounter_factory: Make) -> None:
    """PFB-CONC-12: the attack goes into the guessed square, so a club cannot attack a guessed square 25 ft
    away (even when the invisible target is in fact adjacent), and nothing changes."""
    enc = invisible_duel(encounter_factory, [74, 15, 2], target_pos=(1, 0))
    before = enc.state
    with pytest.raises(IllegalAction, match="reach"):
        enc.act(Attack("t", square=(5, 0)))
    assert enc.state is before


def test_pfb_conc_12_blinded_attacker_guesses_right(encounter_factory: Make) -> None:
    """PFB-CONC-11, PFB-CONC-12, PFB-CONC-14 (worked example: a blinded fighter): every enemy has total
    concealment against him; a right guess and d% 51 lead to a normal attack roll against the target's AC."""
    enc = encounter_factory([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1], "conditions": ["blinded"]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [2, 1]},
        {"id": "h", "side": "goblins", "stats": "goblin", "position": [0, 0]},
    ], dice=[51, 10, 3])
    for enemy in ("g", "h"):
        with pytest.raises(IllegalAction, match="total concealment"):
            enc.plan_attack("f", enemy)
    resolved, damage = resolve(enc, Attack("g", square=(2, 1)))
    assert resolved.hit and "15 = d20 10" in resolved.lines[2]
    assert [d.amount for d in damage] == [6]
