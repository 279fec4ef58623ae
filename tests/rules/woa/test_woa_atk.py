"""WOA-ATK-01..10: single and multiple attacks, reach, unarmed attacks, ranged rounds (worlds-of-adventure)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules._builders import resolved, stats, texts
from tests.rules.woa._util import declare_all, who, woa

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.rulesets.components.component import RuleError
from d20combat.rulesets.worlds_of_adventure.attack import (
    SHOT_THIS_ROUND,
    FullAttack,
    attacks_by_bab,
)

FOE = stats("foe", hp=200, attacks=[{"weapon": "club"}])


def fighter(bab: int, **kw: Any) -> dict[str, Any]:
    return stats("hero", attack_bonus=bab, attacks=kw.pop("attacks", [{"weapon": "club"}]), **kw)


def ready(hero: dict[str, Any], declaration: ax.Declare, dice: list[int], *, gap: int = 1,
          variants: dict[str, Any] | None = None) -> Encounter:
    enc = woa([who("hero", hero, "heroes", (0, 1)), who("foe", FOE, "monsters", (gap, 1))], [20, 1, *dice],
              variants=variants)
    declare_all(enc, declaration)
    assert enc.state.actor == "hero"
    return enc


def attacks_made(enc: Encounter) -> list[ev.AttackResolved]:
    return [e for e in enc.log if isinstance(e, ev.AttackResolved)]


def test_woa_atk_01_a_single_attack_is_a_standard_action() -> None:
    """WOA-ATK-01: an attack spends the standard action: a second attack that turn is refused."""
    enc = ready(fighter(8), ax.Declare(standard="attack", target="foe"), [10, 3])
    enc.act(ax.Attack("foe"))
    assert enc.check(ax.Attack("foe")) is not None
    with pytest.raises(IllegalAction):
        enc.act(ax.Attack("foe"))


@pytest.mark.parametrize(("bab", "count"), [(5, 1), (6, 2), (11, 2), (16, 2)])
def test_woa_atk_02_08_the_full_attack_by_bab(bab: int, count: int) -> None:
    """WOA-ATK-02: multiple attacks need a full-round action; WOA-ATK-08: two attacks from BAB +6 — and never a
    third (higher BAB buys combat reactions instead), both at the full bonus by default."""
    enc = ready(fighter(bab), ax.Declare(full_round="full_attack", target="foe"), [10, 3] * count)
    for _ in range(count):
        enc.act(FullAttack("foe"))
    assert len(attacks_made(enc)) == count
    assert all(f"d20 10 + BAB {bab}" in "\n".join(r.lines) and "second attack" not in "\n".join(r.lines)
               for r in attacks_made(enc))
    with pytest.raises((IllegalAction, RuleError), match="attacks of the full attack are made"):
        enc.act(FullAttack("foe"))


def test_woa_atk_02_a_full_attack_spends_the_whole_round() -> None:
    """WOA-ATK-02: the full attack is a full-round action: nothing is left for a move afterwards."""
    enc = ready(fighter(6), ax.Declare(full_round="full_attack", target="foe"), [10, 3, 10, 3])
    enc.act(FullAttack("foe"))
    turn = enc.state.turn
    assert turn is not None and not turn.standard and not turn.move


@pytest.mark.parametrize(("penalty", "expected"), [(0, (0, 0)), (-5, (0, -5))])
def test_woa_atk_08_the_iterative_penalty_option(penalty: int, expected: tuple[int, int]) -> None:
    """WOA-ATK-08 (AMBIGUOUS, ``woa_iterative_penalty``): no penalty on the second attack (literal), or 3.5's −5."""
    assert attacks_by_bab(6, iterative_penalty=penalty) == expected
    enc = ready(fighter(6), ax.Declare(full_round="full_attack", target="foe"), [10, 3, 10, 3],
                variants={"woa_iterative_penalty": penalty})
    enc.act(FullAttack("foe"))
    enc.act(FullAttack("foe"))
    second = "\n".join(attacks_made(enc)[1].lines)
    assert ("second attack" in second) is (penalty != 0)


def test_woa_atk_08_a_bad_iterative_penalty_is_refused() -> None:
    """WOA-ATK-08: a positive 'penalty' is refused, naming it."""
    with pytest.raises(RuleError, match="0 or negative, got 3"):
        attacks_by_bab(6, iterative_penalty=3)


def test_woa_atk_02_a_full_attack_must_be_declared() -> None:
    """WOA-ATK-02 with WOA-CYCLE-21: a creature that declared a single attack cannot make a full attack."""
    enc = ready(fighter(6), ax.Declare(standard="attack", target="foe"), [10, 3])
    with pytest.raises(IllegalAction, match="declared"):
        enc.act(FullAttack("foe"))


def test_woa_atk_04_melee_reach() -> None:
    """WOA-ATK-04: a Medium character's melee weapon strikes within 5 ft, not 10 ft; a Large creature reaches
    10 ft."""
    enc = ready(fighter(5), ax.Declare(standard="attack", target="foe"), [], gap=2)
    with pytest.raises(IllegalAction, match="beyond hero's reach of 5 ft"):
        enc.plan_attack("hero", "foe")
    enc = ready(fighter(5, size="large"), ax.Declare(standard="attack", target="foe"), [10, 3], gap=3)
    assert resolved(enc.act(ax.Attack("foe"))).hit


def test_woa_atk_05_unarmed_attacks_work_like_melee_attacks() -> None:
    """WOA-ATK-05: an unarmed strike is a melee attack: BAB + Str to hit, its damage + full Str (1d3 2 + Str 2)."""
    hero = fighter(3, abilities={"str": 14}, attacks=[{"weapon": "unarmed-strike"}])
    enc = ready(hero, ax.Declare(standard="attack", target="foe"), [10, 2])
    events = enc.act(ax.Attack("foe"))
    assert enc.decision().prompt.kind == "attack_of_opportunity"  # type: ignore[union-attr]  # WOA-AOO-16
    events += enc.respond("decline")
    assert "d20 10 + BAB 3 + Str 2" in texts(events)
    assert sum(e.amount for e in events if isinstance(e, ev.Damaged)) == 4


@pytest.mark.parametrize(("weapon", "may_dodge"), [("shortbow", False), ("club", True)])
def test_woa_atk_07_a_round_of_shooting_forbids_dodging(weapon: str, may_dodge: bool) -> None:
    """WOA-ATK-07: a rogue 4 who shot the foe on its turn is not offered the dodge against the foe's attack that
    round (block and nothing else it cannot use either: it is asked nothing); after a melee attack it is. The next
    round the mark is gone."""
    rogue = fighter(3, attributes={"rogue_level": 4}, attacks=[{"weapon": weapon}])
    enc = woa([who("hero", rogue, "heroes", (0, 1)), who("foe", FOE, "monsters", (1, 1))], [20, 1, 10, 3, 12, 3])
    declare_all(enc, ax.Declare(standard="attack", target="foe"), ax.Declare(standard="attack", target="hero"))
    enc.act(ax.Attack("foe"))
    assert enc.state.get("hero").has(SHOT_THIS_ROUND) is not may_dodge
    enc.act(ax.EndTurn())
    enc.act(ax.Attack("hero"))
    offered = enc.pending.prompt.options if enc.pending is not None else ()
    assert ("dodge" in offered) is may_dodge
    if enc.pending is not None:
        enc.respond("none")
    enc.act(ax.EndTurn())
    assert enc.state.round == 2 and not enc.state.get("hero").has(SHOT_THIS_ROUND)


def test_woa_atk_10_extra_attacks_name_their_own_action() -> None:
    """WOA-ATK-10: haste, Cleave, two-weapon fighting and flurries give extra attacks by their own rules; the full
    attack's count comes from BAB alone — a BAB +5 creature gets one attack however else it is equipped."""
    enc = ready(fighter(5, attacks=[{"weapon": "club"}, {"weapon": "dagger", "off_hand": True}]),
                ax.Declare(full_round="full_attack", target="foe"), [10, 3])
    enc.act(FullAttack("foe"))
    with pytest.raises((IllegalAction, RuleError), match="one below BAB"):
        enc.act(FullAttack("foe", "dagger"))


def test_woa_atk_09_a_short_step_between_the_attacks() -> None:
    """WOA-ATK-09: during a full attack the creature may take a short step before, between or after its attacks
    (with no other movement): attack, step, attack again."""
    enc = ready(fighter(6), ax.Declare(full_round="full_attack", target="foe"), [10, 3, 10, 3])
    enc.act(ax.Step(to=(0, 2)))
    enc.act(FullAttack("foe"))
    assert enc.check(ax.Step(to=(1, 2))) is not None  # one short step a round
    enc = ready(fighter(6), ax.Declare(full_round="full_attack", target="foe"), [10, 3, 10, 3])
    enc.act(FullAttack("foe"))
    enc.act(ax.Step(to=(1, 2)))
    enc.act(FullAttack("foe"))
    assert len(attacks_made(enc)) == 2 and enc.state.get("hero").position == (1, 2)


def test_woa_atk_08_no_full_attack_with_a_weapon_to_reload() -> None:
    """WOA-ATK-08: a crossbow must be reloaded between shots — no full attack with it, refused by name."""
    enc = ready(fighter(6, attacks=[{"weapon": "light-crossbow"}]), ax.Declare(full_round="full_attack", target="foe"),
                [], gap=4)
    with pytest.raises((IllegalAction, RuleError), match="light-crossbow must be reloaded"):
        enc.act(FullAttack("foe"))
