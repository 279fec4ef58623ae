"""WOA-TWF-01..11: fighting with two weapons — a full attack with one off-hand attack more, every attack roll of the
round at −8, less with a light off-hand weapon, the feat, or Improved Shield Bash with a shield bash."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules._builders import stats
from tests.rules.woa._util import ORC, declare_all, who, woa

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.rulesets.worlds_of_adventure.two_weapons import TwoWeaponAttack

TWF = ax.Declare(full_round="two_weapon_attack")
BASH = {"weapon": {"name": "shield-bash", "damage": "1d4"}, "off_hand": True}


def fighter(off: dict[str, Any] | str, main: str = "longsword", feats: tuple[str, ...] = (), bab: int = 5
            ) -> dict[str, Any]:
    off_attack = off if isinstance(off, dict) else {"weapon": off, "off_hand": True}
    return stats("fighter", hp=30, attack_bonus=bab, abilities={"dex": 14}, feats=list(feats),
                 attacks=[{"weapon": main}, off_attack])


def fight(block: dict[str, Any], dice: list[int], orc_at: tuple[int, int] = (3, 2), **kw: Any) -> Encounter:
    return woa([who("hero", block, "heroes", (2, 2)), who("orc", {**ORC, "hp": 40}, "monsters", orc_at)], dice,
               **kw)


def rolls(enc: Encounter) -> list[str]:
    return [e.lines[1] for e in enc.log if isinstance(e, ev.AttackResolved)]


def test_woa_twf_01_02_04_one_extra_off_hand_attack_in_the_full_attack() -> None:
    """WOA-TWF-01, WOA-TWF-02, WOA-TWF-04: with a light short sword in the off hand both attacks are at −6; no third
    attack."""
    enc = fight(fighter("short-sword"), [10, 3, 15, 4, 15, 3])
    declare_all(enc, TWF)
    enc.act(TwoWeaponAttack(target="orc"))
    enc.act(TwoWeaponAttack(target="orc", hand="off"))
    assert len(rolls(enc)) == 2
    assert all(r.startswith("  hits: 14 = d20 15 + BAB 5 − two weapons (") and r.endswith(") 6 vs AC 10 (10)")
               for r in rolls(enc))
    assert "+2 light off hand short-sword (WOA-TWF-04/05)" in rolls(enc)[0]
    with pytest.raises(IllegalAction, match="no off-hand attack left"):
        enc.act(TwoWeaponAttack(target="orc", hand="off"))
    with pytest.raises(IllegalAction, match="no main-hand attack left"):
        enc.act(TwoWeaponAttack(target="orc"))


def test_woa_twf_02_only_as_a_full_attack() -> None:
    """WOA-TWF-02: declared as a standard attack, the two-weapon attack is refused; it is a full-round action."""
    enc = fight(fighter("short-sword"), [10, 3])
    declare_all(enc, ax.Declare(standard="attack", move="move", target="orc"))
    with pytest.raises(IllegalAction, match="two weapon attack"):
        enc.act(TwoWeaponAttack(target="orc"))
    enc = fight(fighter("short-sword"), [10, 3, 10, 4])
    declare_all(enc, TWF)
    enc.act(ax.Step(to=(2, 3)))
    enc.act(TwoWeaponAttack(target="orc"))
    turn = enc.state.turn
    assert turn is not None and not turn.standard and not turn.move


def test_woa_twf_03_minus_8_on_every_attack_roll_of_the_round() -> None:
    """WOA-TWF-03: a one-handed club in the off hand: −8 on both hands; the penalty ends with the round."""
    enc = fight(fighter("club"), [10, 3, 10, 10, 5, 5])
    declare_all(enc, TWF)
    enc.act(TwoWeaponAttack(target="orc"))
    enc.act(TwoWeaponAttack(target="orc", hand="off"))
    assert rolls(enc) == ["  misses: 7 = d20 10 + BAB 5 − two weapons (−8 (WOA-TWF-03)) 8 vs AC 10 (10)"] * 2
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    assert not any(e.name.startswith("two weapons") for e in enc.state.get("hero").effects)


def test_woa_twf_05_an_unarmed_strike_is_light() -> None:
    """WOA-TWF-05: an unarmed strike in the off hand counts as light: −6."""
    enc = fight(fighter("unarmed-strike"), [10, 3, 10, 4])
    declare_all(enc, TWF)
    enc.act(TwoWeaponAttack(target="orc", hand="off"))
    assert "two weapons (−8 (WOA-TWF-03), +2 light off hand unarmed-strike (WOA-TWF-04/05)) 6" in rolls(enc)[0]


@pytest.mark.parametrize(("off", "total"), [("club", 4), ("short-sword", 2)])
def test_woa_twf_06_07_the_feat_takes_4_off(off: str, total: int) -> None:
    """WOA-TWF-06, WOA-TWF-07: Two-Weapon Fighting: −4 with a one-handed off-hand weapon, −2 with a light one."""
    enc = fight(fighter(off, feats=("two_weapon_fighting",)), [10, 3, 10, 4])
    declare_all(enc, TWF)
    enc.act(TwoWeaponAttack(target="orc"))
    assert rolls(enc)[0].split(" vs ")[0].endswith(f"+4 Two-Weapon Fighting (WOA-TWF-06/07/10)) {total}")


@pytest.mark.parametrize(("main", "off", "total"), [("javelin", "dart", 6), ("dart", "javelin", 8)])
def test_woa_twf_08_09_throwing_from_each_hand(main: str, off: str, total: int) -> None:
    """WOA-TWF-08, WOA-TWF-09: thrown weapons in both hands; a dart in the off hand is light, a javelin one-handed."""
    enc = fight(fighter(off, main=main), [10, 3, 10, 1], orc_at=(5, 2))
    declare_all(enc, TWF)
    enc.act(TwoWeaponAttack(target="orc", hand="off"))
    line = rolls(enc)[0]
    assert line.split(" vs ")[0].endswith(f") {total}") and f"with {off}" in next(
        e.lines[0] for e in enc.log if isinstance(e, ev.AttackResolved))


@pytest.mark.parametrize(("feats", "variants", "total"), [
    ((), {}, "-8 on all its attack rolls this round: −8 (WOA-TWF-03)"),
    (("improved_shield_bash",), {}, "-4 on all its attack rolls this round: −8 (WOA-TWF-03), +4 Improved Shield Bash"),
    (("improved_shield_bash", "two_weapon_fighting"), {},
     "-4 on all its attack rolls this round: −8 (WOA-TWF-03), +4 the better of Two-Weapon Fighting and Improved "
     "Shield Bash"),
    (("improved_shield_bash", "two_weapon_fighting"), {"woa_shield_bash_feats_stack": True},
     "+0 on all its attack rolls this round: −8 (WOA-TWF-03), +8 Two-Weapon Fighting + Improved Shield Bash"),
])
def test_woa_twf_10_11_a_shield_bash_in_the_off_hand(feats: tuple[str, ...], variants: dict[str, Any],
                                                      total: str) -> None:
    """WOA-TWF-10, WOA-TWF-11: a shield bash takes the two-weapon penalties; Improved Shield Bash takes 4 off, not
    stacking
    with Two-Weapon Fighting by default (AMBIGUOUS; ``woa_shield_bash_feats_stack``: −8 + 4 + 4 = 0)."""
    enc = fight(fighter(BASH, feats=feats), [10, 3, 10, 4], variants=variants)
    declare_all(enc, TWF)
    enc.act(TwoWeaponAttack(target="orc", hand="off"))
    assert any(total in e.text for e in enc.log if isinstance(e, ev.Note))


def test_woa_twf_01_needs_an_off_hand_weapon() -> None:
    """WOA-TWF-01: without a second weapon there is no two-weapon attack."""
    enc = fight(stats("fighter", hp=30, attack_bonus=5, attacks=[{"weapon": "longsword"}]), [10, 3])
    declare_all(enc, TWF)
    with pytest.raises(IllegalAction, match="marked off_hand"):
        enc.act(TwoWeaponAttack(target="orc"))
