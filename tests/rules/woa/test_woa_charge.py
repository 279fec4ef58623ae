"""WOA-CHARGE-01..13: the charge — the core's straight-line charge with WOA's minimum, line of sight, short-step,
reduced-speed rules and its −2 AC for the rest of the round."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules._builders import stats
from tests.rules.woa._util import HERO, ORC, declare_all, who, woa

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, IllegalAction

CHARGE = ax.Declare(full_round="charge", target="orc")
OGRE = stats("ogre", hp=30, attack_bonus=5, size="large", abilities={"dex": 14}, saves={"ref": 4},
             attacks=[{"weapon": "club"}])


def field(orc_at: tuple[int, int], dice: list[int], hero: dict[str, Any] = HERO, rows: list[str] | None = None,
          **orc: Any) -> Encounter:
    return woa([who("hero", hero, "heroes", (1, 1)), who("orc", ORC, "monsters", orc_at, **orc)], dice,
               rows=rows or ["." * 14] * 5)


def attacks(enc: Encounter) -> list[ev.AttackResolved]:
    return [e for e in enc.log if isinstance(e, ev.AttackResolved)]


def test_woa_charge_01_04_10_11_13_move_then_one_attack_at_plus_2() -> None:
    """WOA-CHARGE-01, WOA-CHARGE-02, WOA-CHARGE-04, WOA-CHARGE-10, WOA-CHARGE-11, WOA-CHARGE-13: a full-round action —
    15 ft, then a single melee attack at +2; no other
    attack after it."""
    enc = field((5, 1), [10, 3, 8, 4])
    declare_all(enc, CHARGE)
    enc.act(ax.Charge(target="orc", to=(4, 1)))
    hit = attacks(enc)[-1]
    assert hit.hit and "charge 2" in hit.lines[-1] and enc.state.get("hero").position == (4, 1)
    with pytest.raises(IllegalAction):
        enc.act(ax.Attack(target="orc"))


def test_woa_charge_04_at_most_twice_speed() -> None:
    """WOA-CHARGE-04: 65 ft is more than 2 × 30 ft."""
    enc = field((15, 1), [10, 3], rows=["." * 18] * 3)
    declare_all(enc, CHARGE)
    with pytest.raises(IllegalAction, match="double speed"):
        enc.act(ax.Charge(target="orc"))


def test_woa_charge_03_at_least_twice_the_width_of_the_space() -> None:
    """WOA-CHARGE-03: a Large ogre (10-ft space) must move 20 ft; 15 ft is too little, while a Medium hero's 10 ft
    is enough."""
    enc = woa([who("ogre", OGRE, "heroes", (1, 1)), who("orc", ORC, "monsters", (7, 1))], [10, 3],
              rows=["." * 14] * 5)
    declare_all(enc, CHARGE)
    with pytest.raises(IllegalAction, match="at least 20 ft, twice the 10-ft width"):
        enc.act(ax.Charge(target="orc"))
    enc = field((4, 1), [10, 3, 8, 4])
    declare_all(enc, CHARGE)
    enc.act(ax.Charge(target="orc", to=(3, 1)))
    assert enc.state.get("hero").position == (3, 1)


def test_woa_charge_05_08_a_clear_straight_path_without_difficult_terrain() -> None:
    """WOA-CHARGE-05, WOA-CHARGE-08: difficult terrain on the line forbids the charge."""
    enc = field((6, 1), [10, 3], rows=["." * 10, "...~......", "." * 10])
    declare_all(enc, CHARGE)
    with pytest.raises(IllegalAction, match="difficult terrain"):
        enc.act(ax.Charge(target="orc"))


def test_woa_charge_06_no_charge_without_line_of_sight() -> None:
    """WOA-CHARGE-06: the orc is invisible: no line of sight at the start of the turn, no charge."""
    enc = field((5, 1), [10, 3], conditions=["invisible"])
    declare_all(enc, CHARGE)
    with pytest.raises(IllegalAction, match=r"line of sight.*WOA-CHARGE-06"):
        enc.act(ax.Charge(target="orc"))


def test_woa_charge_07_no_short_step_before_or_after() -> None:
    """WOA-CHARGE-07: after a charge no short step; after a short step no charge."""
    enc = field((5, 1), [10, 3, 8, 4])
    declare_all(enc, CHARGE)
    enc.act(ax.Charge(target="orc"))
    with pytest.raises(IllegalAction, match="WOA-CHARGE-07"):
        enc.act(ax.Step(to=(3, 1)))
    enc = field((6, 1), [10, 3])
    declare_all(enc, CHARGE)
    enc.act(ax.Step(to=(1, 2)))
    with pytest.raises(IllegalAction, match="WOA-CHARGE-07"):
        enc.act(ax.Charge(target="orc"))


def test_woa_charge_08_no_charge_with_a_reduced_speed(monkeypatch: pytest.MonkeyPatch) -> None:
    """WOA-CHARGE-08: with the speed reduced in any way (here the conditions halve it) there is no charge."""
    enc = field((5, 1), [10, 3])
    monkeypatch.setattr(enc.ruleset.conditions, "speed_ft", lambda creature, state, speed: speed // 2)
    declare_all(enc, CHARGE)
    with pytest.raises(IllegalAction, match=r"speed is reduced \(15 ft of 30\).*WOA-CHARGE-08"):
        enc.act(ax.Charge(target="orc"))


def test_woa_charge_09_no_charge_without_a_land_speed() -> None:
    """WOA-CHARGE-09: a creature with no listed land speed (a swimmer) cannot charge."""
    eel = stats("eel", hp=10, attack_bonus=3, speed_ft=0, attacks=[{"weapon": "club"}])
    enc = field((5, 1), [10, 3], hero=eel)
    declare_all(enc, CHARGE)
    with pytest.raises(IllegalAction, match="WOA-CHARGE-09"):
        enc.act(ax.Charge(target="orc"))


def test_woa_charge_12_minus_2_ac_for_the_rest_of_the_round_only() -> None:
    """WOA-CHARGE-12: the orc's attack after the charge meets AC −2; at the round's end the penalty is gone, though
    the hero has not had its next turn."""
    enc = field((5, 1), [10, 3, 2, 12, 1])
    declare_all(enc, CHARGE, ax.Declare(standard="attack", target="hero"))
    enc.act(ax.Charge(target="orc"))
    enc.act(ax.EndTurn())
    enc.act(ax.Attack(target="hero"))
    assert "AC 10 (10 + Dex 2 − charging 2)" in attacks(enc)[-1].lines[-1]
    enc.act(ax.EndTurn())
    assert not any(e.name == "charging" for e in enc.state.get("hero").effects)


SPEARMAN = stats("spearman", hp=30, attack_bonus=5, abilities={"dex": 14}, saves={"ref": 4},
                 attacks=[{"weapon": {"name": "boar-spear", "damage": "1d8", "hands": "two", "qualities": ["set"]},
                           "two_handed": True}])


def met(block: dict[str, Any], dice: list[int]) -> Encounter:
    from d20combat.rulesets.worlds_of_adventure.ready import Ready

    enc = woa([who("hero", block, "heroes", (2, 2)), who("orc", {**ORC, "hp": 20}, "monsters", (6, 2))], dice,
              rows=["." * 10] * 5)
    declare_all(enc, ax.Declare(standard="ready", move="move", target="orc"),
                ax.Declare(full_round="charge", target="hero"))
    enc.act(Ready())
    enc.act(ax.EndTurn())
    assert enc.state.actor == "orc"  # out of reach when its turn starts: the readied attack is still held
    enc.act(ax.Charge(target="hero", to=(3, 2)))
    return enc


def test_woa_charge_14_a_weapon_set_against_the_charge_deals_double_damage() -> None:
    """WOA-CHARGE-14, WOA-INIT-25, WOA-INIT-08: the spearman's readied spear meets the orc's charge before the orc's
    attack: d20 15 hits, 1d8 4, then set against the charge the damage again, 1d8 3: the orc 20 → 13; its charge
    attack (d20 2) follows."""
    enc = met(SPEARMAN, [10, 3, 15, 4, 3, 2])
    hits = [(e.attacker, e.hit) for e in enc.log if isinstance(e, ev.AttackResolved)]
    assert hits == [("hero", True), ("orc", False)]
    assert enc.state.get("orc").hp == 13 and enc.state.get("orc").position == (3, 2)
    assert any("double damage (WOA-INIT-25, WOA-CHARGE-14)" in e.explanation for e in enc.log
               if isinstance(e, ev.Damaged))


def test_woa_charge_14_an_ordinary_weapon_meets_the_charge_once() -> None:
    """WOA-INIT-08 without WOA-CHARGE-14: a longsword readied against the charger hits it once (d8 4)."""
    enc = met(HERO, [10, 3, 15, 4, 2])
    assert enc.state.get("orc").hp == 16


def swing(dice: list[int]) -> Encounter:
    enc = field((6, 3), dice, rows=["." * 10, ".~~~......", ".~~~......", ".~~~......", "." * 10])
    declare_all(enc, ax.Declare(full_round="alternative_charge", target="orc"))
    return enc


def test_woa_charge_15_an_alternative_charge_needs_no_straight_line() -> None:
    """WOA-CHARGE-15: over the rubble no charge — but swinging on the chandelier the hero lands at (5, 3) and
    attacks at +2 (d20 8), with −2 AC for the round."""
    from d20combat.rulesets.worlds_of_adventure.charge import AlternativeCharge

    enc = swing([10, 3, 8, 4])
    enc.act(AlternativeCharge(target="orc", to=(5, 3), how="swings on the chandelier"))
    hit = attacks(enc)[-1]
    assert enc.state.get("hero").position == (5, 3) and "+ charge 2" in hit.lines[-1] and hit.hit
    assert any(e.name == "charging" and e.ac == -2 for e in enc.state.get("hero").effects)
    turn = enc.state.turn
    assert turn is not None and not turn.standard and not turn.move


def test_woa_charge_16_the_gms_skill_check_first() -> None:
    """WOA-CHARGE-16: Acrobatics DC 15 — d20 5 + Dex 2 = 7 fails: no charge (the round is spent); d20 13 + 2 = 15
    makes it."""
    from d20combat.rulesets.worlds_of_adventure.charge import AlternativeCharge

    leap = AlternativeCharge(target="orc", to=(5, 3), how="leaps from the ledge", skill="acrobatics", dc=15)
    enc = swing([10, 3, 5])
    enc.act(leap)
    assert enc.state.get("hero").position == (1, 1) and not attacks(enc)
    assert any("7 = d20 5 + Dex 2 vs DC 15 — failed: no charge (WOA-CHARGE-16)" in e.text for e in enc.log
               if isinstance(e, ev.Note))
    enc = swing([10, 3, 13, 8, 4])
    enc.act(leap)
    assert enc.state.get("hero").position == (5, 3) and attacks(enc)
    enc = swing([10, 3])
    for bad, msg in ((AlternativeCharge(target="orc"), "alternative_charge.to"),
                     (AlternativeCharge(target="orc", to=(5, 3), dc=15), "with the skill"),
                     (AlternativeCharge(target="orc", to=(2, 1)), "beyond")):
        with pytest.raises(IllegalAction, match=msg):
            enc.act(bad)
