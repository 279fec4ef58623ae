"""CMV situational modifiers (CMV-SIT): attacker-side rows go on the attack roll, defender-side rows on
AC; higher ground, flanking, prone, squeezing, off-guard and cover, with the inventory's worked examples."""

from __future__ import annotations

import pytest

from d20combat.encounter import actions as ax
from d20combat.rulesets.off_guard import GmAttack

from ._util import FIGHTER, ac, armored, assert_illegal, bonus, cmv, resolved

T15 = armored("target", 5)              # AC 15, Dex +0
T16 = armored("target", 4, dex=14)      # AC 16 = 10 + armor 4 + Dex +2
T17 = armored("target", 7)              # AC 17


def duel(target: dict[str, object] = T15, *, attacker: dict[str, object] = FIGHTER, apos: tuple[int, int] = (1, 1),
         tpos: tuple[int, int] = (2, 1), aconds: tuple[str, ...] = (), tconds: tuple[str, ...] = (),
         dice: tuple[int, ...] = (), **kw: object):
    return cmv([
        {"id": "a", "side": "heroes", "stats": attacker, "position": list(apos), "conditions": list(aconds)},
        {"id": "t", "side": "foes", "stats": target, "position": list(tpos), "conditions": list(tconds)},
    ], dice=dice, **kw)


def elevated(combatants: list[dict[str, object]], elevation: list[list[int]], *, dice: tuple[int, ...] = (),
             variants: dict[str, object] | None = None, map_extra: dict[str, object] | None = None):
    return cmv(combatants, dice=dice, variants=variants, map_extra={"elevation": elevation, **(map_extra or {})})


def test_cmv_sit_01_attacker_position_goes_on_the_attack_roll() -> None:
    """CMV-SIT-01: higher ground is the attacker's position: it changes the roll, not the AC."""
    flat = duel()
    up = elevated([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1]},
                   {"id": "t", "side": "f", "stats": T15, "position": [2, 1]}], [[1, 1, 5]])
    assert bonus(up, "a", "t") == bonus(flat, "a", "t") + 1
    assert ac(up, "a", "t") == ac(flat, "a", "t") == 15
    plan = up.plan_attack("a", "t")
    assert any(m.source == "higher ground" and m.value == 1 for m in plan.modifiers)


def test_cmv_sit_02_defender_state_goes_on_ac() -> None:
    """CMV-SIT-02: a prone defender changes the AC, not the attacker's roll."""
    flat, prone = duel(), duel(tconds=("prone",))
    assert bonus(prone, "a", "t") == bonus(flat, "a", "t") == 5
    assert ac(prone, "a", "t") == 11


def test_cmv_sit_03_gm_ruling_for_one_attack_and_rows_add() -> None:
    """CMV-SIT-03: the GM may add, remove or override modifiers for one attack (here +2 to hit and −3 AC);
    the table's rows are untyped and add (higher ground +1 and flanking +2 → +3)."""
    enc = duel(dice=(5, 3))  # d20 5 + 5 + GM 2 = 12 vs AC 15 − 3 = 12 → hit; damage 3
    events = enc.act(GmAttack("t", attack_modifier=2, ac_modifier=-3, reason="the GM: slippery footing"))
    attack = resolved(events)
    assert attack.hit
    assert "the GM: slippery footing 2" in attack.lines[-1] and "GM ruling 3" in attack.lines[-1]
    enc2 = duel(dice=(4,))
    assert not resolved(enc2.act(GmAttack("t", attack_modifier=2, ac_modifier=-3))).hit  # 11 < 12
    both = elevated([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1]},
                     {"id": "t", "side": "f", "stats": T17, "position": [2, 1]},
                     {"id": "b", "side": "h", "stats": FIGHTER, "position": [3, 1]}], [[1, 1, 5]])
    assert bonus(both, "a", "t") == 5 + 1 + 2


@pytest.mark.parametrize(("face", "hit"), [(9, True), (8, False)])
def test_cmv_sit_04_worked_example_higher_ground_and_flanking(face: int, hit: bool) -> None:
    """CMV-SIT-04, CMV-SIT-06 (derived example): +5 on higher ground and flanking against AC 17:
    d20 9 → 17 hits, d20 8 → 16 misses."""
    enc = elevated([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1]},
                    {"id": "t", "side": "f", "stats": T17, "position": [2, 1]},
                    {"id": "b", "side": "h", "stats": FIGHTER, "position": [3, 1]}], [[1, 1, 5]], dice=(face, 1))
    assert resolved(enc.act(ax.Attack("t"))).hit is hit


def test_cmv_sit_04_higher_means_above_every_defender_square() -> None:
    """CMV-SIT-04 (proposed): the attacker's square must be higher than every square the defender occupies."""
    level = elevated([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1]},
                      {"id": "t", "side": "f", "stats": T15, "position": [2, 1]}], [[1, 1, 5], [2, 1, 5]])
    below = elevated([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1]},
                      {"id": "t", "side": "f", "stats": T15, "position": [2, 1]}], [[2, 1, 5]])
    ogre = elevated([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1]},
                     {"id": "t", "side": "f", "stats": "ogre", "position": [2, 1]}], [[1, 1, 5], [3, 2, 5]])
    assert bonus(level, "a", "t") == 5 and bonus(below, "a", "t") == 5
    assert bonus(ogre, "a", "t") == 5  # one of the ogre's squares is as high


@pytest.mark.parametrize(("variants", "expected"), [({}, 1), ({"cmv_higher_ground_melee_only": True}, 0)])
def test_cmv_sit_04_variant_higher_ground_melee_only(variants: dict[str, object], expected: int) -> None:
    """CMV-SIT-04 (worked example): a longbow shot from higher ground gets +1 by default, +0 when the
    variant cmv_higher_ground_melee_only limits it to melee; melee keeps +1 either way."""
    enc = elevated([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1], "wielding": "longbow"},
                    {"id": "t", "side": "f", "stats": T15, "position": [6, 1]}], [[1, 1, 5]], variants=variants)
    assert bonus(enc, "a", "t") == 5 + expected
    melee = elevated([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1]},
                      {"id": "t", "side": "f", "stats": T15, "position": [2, 1]}], [[1, 1, 5]], variants=variants)
    assert bonus(melee, "a", "t") == 6


def test_cmv_sit_05_behind_cover_plus_4_ac() -> None:
    """CMV-SIT-05, CMV-COV-03: a defender behind cover has +4 AC (a wall between an archer and its target)."""
    enc = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [0, 0], "wielding": "longbow"},
               {"id": "t", "side": "f", "stats": T15, "position": [4, 0]}],
              rows=["..#..", "..#..", "....."])
    assert ac(enc, "a", "t") == 19


def test_cmv_sit_06_flanking_plus_2() -> None:
    """CMV-SIT-06: a flanking attacker gets +2 on the attack roll."""
    alone = duel()
    flank = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1]},
                 {"id": "t", "side": "f", "stats": T15, "position": [2, 1]},
                 {"id": "b", "side": "h", "stats": FIGHTER, "position": [3, 1]}])
    assert bonus(flank, "a", "t") == bonus(alone, "a", "t") + 2


def test_cmv_sit_07_off_guard_minus_2_and_no_dex_bonus() -> None:
    """CMV-SIT-07 (derived): AC 16 = 10 + armor 4 + Dex +2; off-guard → 12; off-guard behind cover → 16.
    AC 16 = 10 + armor 7 + Dex −1; off-guard → 14 (the Dex penalty stays)."""
    assert ac(duel(T16, tconds=("off-guard",)), "a", "t") == 12
    covered = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [0, 0], "wielding": "longbow"},
                   {"id": "t", "side": "f", "stats": T16, "position": [4, 0], "conditions": ["off-guard"]}],
                  rows=["..#..", "..#..", "....."])
    assert ac(covered, "a", "t") == 16
    clumsy = armored("clumsy", 7, dex=8)
    assert ac(duel(clumsy), "a", "t") == 16
    assert ac(duel(clumsy, tconds=("off-guard",)), "a", "t") == 14


@pytest.mark.parametrize(("variants", "expected"), [({}, 1), ({"cmv_prone_attacker_table": True}, 9)])
def test_cmv_sit_08_prone_attacker_condition_text_or_table(variants: dict[str, object], expected: int) -> None:
    """CMV-SIT-08 (derived): a prone attacker with melee +5 attacks at +1 (the Prone condition governs),
    at +9 under cmv_prone_attacker_table; either way a longbow is refused and a crossbow allowed."""
    enc = duel(aconds=("prone",), variants=variants)
    assert bonus(enc, "a", "t") == expected
    archer = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [0, 0], "wielding": "longbow",
                   "conditions": ["prone"]},
                  {"id": "t", "side": "f", "stats": T15, "position": [5, 0]}], variants=variants)
    assert_illegal(archer, ax.Attack("t", "longbow"), "no ranged attacks except with a crossbow")
    archer.act(ax.Draw("light-crossbow"))
    assert archer.check(ax.Attack("t", "light-crossbow")) is None


def test_cmv_sit_09_prone_defender_plus_or_minus_4() -> None:
    """CMV-SIT-09 (derived): a prone defender with AC 15 has 11 against melee and 19 against ranged."""
    melee = duel(tconds=("prone",))
    assert ac(melee, "a", "t") == 11
    ranged = cmv([{"id": "a", "side": "h", "stats": FIGHTER, "position": [0, 0], "wielding": "longbow"},
                  {"id": "t", "side": "f", "stats": T15, "position": [5, 0], "conditions": ["prone"]}])
    assert ac(ranged, "a", "t") == 19


def test_cmv_sit_10_11_squeezing_attacker_and_defender() -> None:
    """CMV-SIT-10, CMV-SIT-11 (derived): a squeezing attacker with +5 against a squeezing defender with
    AC 15 → +1 against AC 11. Squeezing is standing on a map 'narrow' square or a GM-set condition."""
    squeeze = elevated([{"id": "a", "side": "h", "stats": FIGHTER, "position": [1, 1]},
                        {"id": "t", "side": "f", "stats": T15, "position": [2, 1]}], [],
                       map_extra={"narrow": [[1, 1], [2, 1]]})
    assert bonus(squeeze, "a", "t") == 1
    assert ac(squeeze, "a", "t") == 11
    gm = duel(aconds=("squeezing",))
    assert bonus(gm, "a", "t") == 1 and ac(gm, "a", "t") == 15
    plain = duel()
    assert bonus(plain, "a", "t") == 5 and ac(plain, "a", "t") == 15


def test_cmv_sit_worked_example_off_guard_with_dex_penalty_and_stats() -> None:
    """CMV-SIT-07 (table, text L9): off-guard is −2 AC *and* no Dex bonus — the two add."""
    fast = armored("fast", 2, dex=18)  # AC 16 = 10 + 2 + 4
    assert ac(duel(fast), "a", "t") == 16
    assert ac(duel(fast, tconds=("off-guard",)), "a", "t") == 10
