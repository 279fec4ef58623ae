"""WOA-FEINT-01..11: the feint — a move action, opposed checks, the opening against the next melee attack, the
penalties against odd minds, the wariness of those who saw it."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules._builders import stats
from tests.rules.woa._util import HERO, ORC, declare_all, who, woa

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.rulesets.worlds_of_adventure.feint import FEINTED, Feint, wary

FEINT = ax.Declare(standard="attack", move="feint", target="foe")


def duelist(**kw: Any) -> dict[str, Any]:
    """AC 13 = 10 + Dex 2 + dodge 1; resists with BAB 2 + Wis 1 = 3."""
    block: dict[str, Any] = {"hp": 20, "attack_bonus": 2, "abilities": {"dex": 14, "wis": 12}, "dodge_bonus": 1,
                             "attacks": [{"weapon": "club"}]}
    block.update(kw)
    return stats("duelist", **block)


def fight(dice: list[int], foe: dict[str, Any] | None = None, at: tuple[int, int] = (3, 2),
          **kw: Any) -> Encounter:
    return woa([who("hero", HERO, "heroes", (2, 2)), who("foe", foe or duelist(), "monsters", at), *kw.pop(
        "others", [])], dice, **kw)


def notes(enc: Encounter) -> list[str]:
    return [e.text for e in enc.log if isinstance(e, ev.Note)]


def test_woa_feint_01_05_06_a_move_action_that_opens_the_next_melee_attack() -> None:
    """WOA-FEINT-01, WOA-FEINT-05, WOA-FEINT-06: feint (move action) 15 + Acrobatics (Dex 2) = 17 beats 5 + BAB 2 + Wis
    1 = 8: the
    duelist loses Dex 2 and dodge 1 against the hero's next melee attack: AC 13 → 10; then the opening is gone."""
    enc = fight([10, 3, 15, 5, 6, 4])
    declare_all(enc, FEINT)
    enc.act(Feint(target="foe"))
    turn = enc.state.turn
    assert turn is not None and not turn.move and turn.standard
    assert enc.state.get("foe").has(FEINTED)
    enc.act(ax.Attack(target="foe"))  # 6 + 5 = 11 ≥ 10
    hit = [e for e in enc.log if isinstance(e, ev.AttackResolved)][-1]
    assert hit.hit and "AC 10 (10 + Dex 2 + dodge 1 − feinted by hero 3)" in hit.lines[-1]
    foe = enc.state.get("foe")
    assert not foe.has(FEINTED) and not any(e.name == "feinted by hero" for e in foe.effects)


def test_woa_feint_01_only_against_an_opponent_in_melee() -> None:
    """WOA-FEINT-01: an opponent 15 ft away is not in melee."""
    enc = fight([10, 3], at=(5, 2))
    declare_all(enc, FEINT)
    with pytest.raises(IllegalAction, match="not in melee"):
        enc.act(Feint(target="foe"))
    turn = enc.state.turn
    assert turn is not None and turn.move


def test_woa_feint_02_the_feinters_choice_of_skill() -> None:
    """WOA-FEINT-02: Acrobatics, Bluff or Intimidate — Bluff here (a Cha check, +0); nothing else."""
    enc = fight([10, 3, 15, 5])
    declare_all(enc, FEINT)
    with pytest.raises(IllegalAction, match="not one of acrobatics, bluff, intimidate"):
        enc.act(Feint(target="foe", skill="stealth"))
    enc.act(Feint(target="foe", skill="bluff"))
    assert any("(bluff): 15 = d20 15 vs" in n for n in notes(enc))


def test_woa_feint_03_the_better_of_insight_and_bab_plus_wis() -> None:
    """WOA-FEINT-03: Insight 6 beats BAB 2 + Wis 1: the duelist resists with 5 + 6 = 11."""
    enc = fight([10, 3, 8, 5], foe=duelist(skills={"insight": 6}))
    declare_all(enc, FEINT)
    enc.act(Feint(target="foe"))
    assert any("vs 11 = d20 5 + Insight 6 — fails" in n for n in notes(enc))
    enc = fight([10, 3, 8, 5])
    declare_all(enc, FEINT)
    enc.act(Feint(target="foe"))
    assert any("vs 8 = d20 5 + BAB 2 + Wis 1 — succeeds" in n for n in notes(enc))


def test_woa_feint_05_a_tie_fails() -> None:
    """WOA-FEINT-05: 6 + 2 = 8 against 5 + 3 = 8: a tie, no opening."""
    enc = fight([10, 3, 6, 5])
    declare_all(enc, FEINT)
    enc.act(Feint(target="foe"))
    assert any("fails (a tie fails, WOA-FEINT-05)" in n for n in notes(enc))
    assert not enc.state.get("foe").has(FEINTED)


@pytest.mark.parametrize(("foe", "penalty"), [
    (duelist(attributes={"nonhumanoid": 1}), "− nonhumanoid (WOA-FEINT-07) 4"),
    (duelist(abilities={"dex": 14, "wis": 12, "int": 2}), "− animal Intelligence (WOA-FEINT-08) 8"),
])
def test_woa_feint_07_08_harder_against_odd_minds(foe: dict[str, Any], penalty: str) -> None:
    """WOA-FEINT-07, WOA-FEINT-08: −4 against a nonhumanoid, −8 against animal Intelligence."""
    enc = fight([10, 3, 15, 5], foe=foe)
    declare_all(enc, FEINT)
    enc.act(Feint(target="foe"))
    assert any(penalty in n for n in notes(enc))


def test_woa_feint_09_a_nonintelligent_creature_cannot_be_feinted() -> None:
    """WOA-FEINT-09: Int 0 (mindless): impossible, and nothing is spent."""
    enc = fight([10, 3], foe=duelist(abilities={"dex": 14, "int": 0}))
    declare_all(enc, FEINT)
    with pytest.raises(IllegalAction, match=r"nonintelligent.*WOA-FEINT-09"):
        enc.act(Feint(target="foe"))
    turn = enc.state.turn
    assert turn is not None and turn.move


def test_woa_feint_10_11_those_who_saw_it_are_wary_for_the_encounter() -> None:
    """WOA-FEINT-10, WOA-FEINT-11: the duelist resisted: +4 against the hero's feints; the orc looking on +2; the next
    round's
    feint meets the +4 (not +6)."""
    enc = fight([10, 3, 3, 12, 12, 3, 15, 5], others=[who("orc", ORC, "monsters", (6, 6))])
    declare_all(enc, FEINT)
    enc.act(Feint(target="foe"))  # 3 + 2 = 5 vs 12 + 3: resisted
    assert wary(enc.state.get("foe"), "hero") == 4 and wary(enc.state.get("orc"), "hero") == 2
    enc.act(ax.EndTurn())
    while enc.state.round == 1:
        enc.act(ax.EndTurn())
    declare_all(enc, FEINT)
    enc.act(Feint(target="foe"))
    assert any("vs 12 = d20 5 + BAB 2 + Wis 1 + wary of hero's feints (WOA-FEINT-10/11) 4" in n for n in notes(enc))
    assert wary(enc.state.get("foe"), "hero") == 4


def test_woa_feint_10_a_successful_feint_still_warns_its_target() -> None:
    """WOA-FEINT-10: the feinted duelist gets +2 too."""
    enc = fight([10, 3, 15, 5])
    declare_all(enc, FEINT)
    enc.act(Feint(target="foe"))
    assert wary(enc.state.get("foe"), "hero") == 2


def test_woa_feint_06_the_opening_is_for_this_round_only() -> None:
    """WOA-FEINT-06: unused by the end of the hero's turn (its only chance this round), the opening is gone."""
    enc = fight([10, 3, 15, 5])
    declare_all(enc, FEINT)
    enc.act(Feint(target="foe"))
    enc.act(ax.EndTurn())
    foe = enc.state.get("foe")
    assert not foe.has(FEINTED) and not any(e.name.startswith("feinted by") for e in foe.effects)
