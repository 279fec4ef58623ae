"""WOA-REACT-08..36: aid attack, aid defense, block and dodge — combat reactions announced before the attack roll."""

from __future__ import annotations

import pytest
from tests.rules.woa._react import answer, attack_line, fight, fighter, hero_vs_orc, left, orc, orc_first, prompt, spent
from tests.rules.woa._util import declare_all, who

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev


def damage(events: list[ev.Event], target: str = "hero") -> ev.Damaged:
    found = [e for e in events if isinstance(e, ev.Damaged) and e.target == target]
    assert len(found) == 1
    return found[0]


# --- block ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("extra", "dr"), [
    ({"weapon": "greatsword"}, 4),                                       # ½ × 8, two-handed
    ({"weapon": "longsword"}, 2),                                        # ⅓ × 8 = 2.67 → 2
    ({"weapon": "dagger"}, 2),                                           # ¼ × 8, light
    ({"weapon": "longsword", "shield": "heavy-steel-shield"}, 6),        # ½ × 8 + shield 2
])
def test_woa_react_22_23_block_value_by_what_blocks(extra: dict[str, str], dr: int) -> None:
    """WOA-REACT-22, WOA-REACT-23 (floor, the proposed reading): warrior 8 blocks for ½ (shield, two-handed), ⅓
    (one-handed), ¼ (light) of the level, + the shield's AC bonus with a shield; the DR comes off that attack's
    damage."""
    enc = hero_vs_orc(fighter("hero", warrior=8, **extra), [1, 20, 18, 6], orc_block=orc(bab=10))
    orc_first(enc)
    enc.act(ax.Attack("hero"))
    assert f"block: DR {dr} " in prompt(enc).detail
    events = enc.respond("block")
    hit = damage(events)
    assert hit.amount == max(6 + 0 - dr, 0)
    assert f"block DR {dr}" in hit.explanation


def test_woa_react_17_block_is_for_warriors() -> None:
    """WOA-REACT-17: a rogue may dodge but not block."""
    enc = hero_vs_orc(fighter("hero", rogue=6), [1, 20, 10, 3])
    orc_first(enc)
    enc.act(ax.Attack("hero"))
    assert prompt(enc).options == ("dodge", "none") or set(prompt(enc).options) == {"dodge", "none"}


def test_woa_react_18_block_needs_a_melee_weapon_or_a_shield() -> None:
    """WOA-REACT-18: with nothing in hand and no shield a warrior cannot block (it may still dodge)."""
    enc = hero_vs_orc(fighter("hero", warrior=4, weapon="unarmed-strike"), [1, 20, 10, 3])
    orc_first(enc)
    enc.act(ax.Attack("hero"))
    assert "block" not in prompt(enc).options and "dodge" in prompt(enc).options


@pytest.mark.parametrize(("shield", "can_block"), [(None, False), ("heavy-steel-shield", True)])
def test_woa_react_20_ranged_attacks_only_with_a_shield(shield: str | None, can_block: bool) -> None:
    """WOA-REACT-18, WOA-REACT-20: one block covers one ranged attack too — with a shield only."""
    archer = orc("archer", weapon="longbow")
    hero = fighter("hero", warrior=4, **({"shield": shield} if shield else {}))
    enc = fight([who("hero", hero, "heroes", (2, 2)), who("orc", archer, "monsters", (2, 6))], [1, 20, 10, 3])
    orc_first(enc)
    enc.act(ax.Attack("hero"))
    assert ("block" in prompt(enc).options) is can_block


def test_woa_react_19_30_not_against_an_attacker_it_cannot_perceive() -> None:
    """WOA-REACT-19, WOA-REACT-30: an invisible attacker's attack can be neither blocked nor dodged (the warrior is not
    aware of it and cannot see the attacker)."""
    enc = fight([who("hero", fighter("hero", warrior=4), "heroes", (2, 2)),
                 who("orc", orc(), "monsters", (3, 2), conditions=["invisible"])], [1, 20, 10, 3])
    orc_first(enc)
    events = enc.act(ax.Attack("hero"))
    assert enc.pending is None and not spent(events)


def test_woa_react_21_announced_before_the_roll_with_no_roll() -> None:
    """WOA-REACT-09, WOA-REACT-21, WOA-REACT-31: the block is asked before the attack's d20 is rolled and rolls nothing
    itself."""
    enc = hero_vs_orc(fighter("hero", warrior=4), [1, 20, 10, 3])
    orc_first(enc)
    before = list(enc.log)
    enc.act(ax.Attack("hero"))
    assert prompt(enc).kind == "combat_reaction"
    assert not [e for e in enc.log[len(before):] if isinstance(e, ev.AttackResolved)]
    events = enc.respond("block")
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("ReactionSpent") < kinds.index("AttackResolved")
    assert enc.dice.remaining == 0  # type: ignore[attr-defined]  # d20 + 1d6 only


# --- dodge ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("levels", "bonus"), [({"warrior": 7, "rogue": 3}, 3), ({"rogue": 9}, 4),
                                               ({"warrior": 1}, 0)])
def test_woa_react_32_dodge_value_half_the_higher_level(levels: dict[str, int], bonus: int) -> None:
    """WOA-REACT-32: a dodge bonus of ½ the warrior or rogue level (the higher; floor) against that attack."""
    enc = hero_vs_orc(fighter("hero", **levels), [1, 20, 12, 3])
    orc_first(enc)
    events = enc.act(ax.Attack("hero"))
    if not bonus:
        assert enc.pending is None or "dodge" not in prompt(enc).options
        return
    events = enc.respond("dodge")
    assert f"dodge reaction {bonus}" in attack_line(events) or f"dodge reaction +{bonus}" in attack_line(events)
    assert f"AC {10 + bonus} " in attack_line(events)


def test_woa_react_32_stacks_with_other_dodge_bonuses() -> None:
    """WOA-REACT-32: a dodge bonus stacks with the other dodge bonuses."""
    enc = hero_vs_orc(fighter("hero", rogue=4, dodge_bonus=1), [1, 20, 12, 3])
    orc_first(enc)
    enc.act(ax.Attack("hero"))
    events = enc.respond("dodge")
    assert "AC 13 " in attack_line(events)


def test_woa_react_28_dodge_is_for_warriors_and_rogues() -> None:
    """WOA-REACT-28: a creature with neither warrior nor rogue levels is not asked."""
    enc = hero_vs_orc(fighter("hero", bab=5), [1, 20, 12, 3])
    orc_first(enc)
    events = enc.act(ax.Attack("hero"))
    assert enc.pending is None and not spent(events)


def test_woa_react_29_one_dodge_one_attack() -> None:
    """WOA-REACT-29: the dodge counts against the attack it answered only; the next attack meets the plain AC."""
    enc = hero_vs_orc(fighter("hero", rogue=4, bab=6), [1, 20, 19, 12, 3, 12, 3],
                      extra=[who("orc2", orc("orc2"), "monsters", (2, 3))],
                      variants={"woa_monster_initiative": "individual"})
    orc_first(enc, ax.Declare(), ax.Declare(standard="attack", target="hero"),
              ax.Declare(standard="attack", target="hero"))
    enc.act(ax.Attack("hero"))
    first = answer(enc, hero="dodge")
    assert "AC 12 " in attack_line(first)
    enc.act(ax.EndTurn())
    enc.act(ax.Attack("hero"))
    second = answer(enc)
    assert "AC 10 " in attack_line(second)


@pytest.mark.parametrize(("armor", "dodges"), [("full-plate", 1), ("chainmail", 2), ("chain-shirt", 3)])
def test_woa_react_33_armor_caps_the_dodges(armor: str, dodges: int) -> None:
    """WOA-REACT-33: at most 1 dodge a round in heavy armor, 2 in medium armor, whatever reactions are left."""
    orcs = [who(f"o{i}", orc(f"o{i}"), "monsters", pos) for i, pos in enumerate([(3, 2), (2, 3), (1, 2)])]
    enc = fight([who("hero", fighter("hero", rogue=4, bab=16, armor=armor), "heroes", (2, 2)), *orcs],
                [1, 20, 19, 18, 1, 1, 1], variants={"woa_monster_initiative": "individual"})
    orc_first(enc, ax.Declare(), *[ax.Declare(standard="attack", target="hero")] * 3)
    made = 0
    for _ in range(3):
        enc.act(ax.Attack("hero"))
        while enc.pending is not None:
            dodge = prompt(enc).reactor == "hero" and "dodge" in prompt(enc).options
            made += dodge
            enc.respond("dodge" if dodge else "none")
        enc.act(ax.EndTurn())
    assert made == dodges


@pytest.mark.parametrize("condition", ["entangled", "slowed"])
def test_woa_react_35_no_dodge_while_movement_is_restricted(condition: str) -> None:
    """WOA-REACT-35: entangled or slowed, no dodge (a warrior may still block). BAB +6 gives two reactions, so the
    slowed hero (restricted activity halves them, WOA-ACT-24) still has one."""
    enc = hero_vs_orc(fighter("hero", warrior=4, bab=6), [1, 20, 12, 3], hero_extra={"conditions": [condition]})
    orc_first(enc)
    enc.act(ax.Attack("hero"))
    assert set(prompt(enc).options) == {"block", "none"}


def test_woa_react_36_dodge_or_block_never_both() -> None:
    """WOA-REACT-36: one answer, one reaction: dodge or block, never both against one attack."""
    enc = hero_vs_orc(fighter("hero", warrior=8, bab=11), [1, 20, 12, 6])
    orc_first(enc)
    enc.act(ax.Attack("hero"))
    events = enc.respond("dodge")
    assert len(spent(events, "hero")) == 1 and left(enc, "hero") == 2
    assert "block" not in damage(events).explanation


def test_woa_react_dodge_barred_in_a_round_of_ranged_attacks() -> None:
    """WOA-REACT-28..36's collected dodge bars, WOA-ATK-07: the warrior shot the orc on its turn (a round of ranged
    attacks): against the orc's attack it may not dodge (a bow blocks nothing either: it is asked nothing); the same
    warrior with a longsword, having swung, is asked (dodge or block)."""
    for weapon, asked in (("shortbow", False), ("longsword", True)):
        enc = hero_vs_orc(fighter("hero", warrior=4, weapon=weapon), [20, 1, 10, 3, 12, 3])
        declare_all(enc, ax.Declare(standard="attack", target="orc"), ax.Declare(standard="attack", target="hero"))
        enc.act(ax.Attack("orc"))
        enc.act(ax.EndTurn())
        enc.act(ax.Attack("hero"))
        assert (enc.pending is not None and "dodge" in prompt(enc).options) is asked


@pytest.mark.parametrize(("blocked", "amount"), [(True, 6 - 3 - 2), (False, 6 - 2)])
def test_woa_react_24_block_stacks_with_the_highest_other_dr(blocked: bool, amount: int) -> None:
    """WOA-REACT-24 (block read as DR/—): warrior 9 blocking with a longsword (DR 3) and DR 2/— takes 5 off."""
    hero = fighter("hero", warrior=9, attributes={"damage_reduction": 2})
    enc = hero_vs_orc(hero, [1, 20, 18, 6], orc_block=orc(bab=10))
    orc_first(enc)
    enc.act(ax.Attack("hero"))
    events = enc.respond("block" if blocked else "none")
    hit = damage(events)
    assert hit.amount == amount
    assert "− DR 2/—" in hit.explanation
    assert ("stacking with DR 2/— (WOA-REACT-24)" in hit.explanation) is blocked


def test_woa_react_34_no_dodge_in_armor_without_proficiency() -> None:
    """WOA-REACT-34: armor it is not proficient with (``attributes: {armor_nonproficient: 1}``) bars dodging."""
    hero = fighter("hero", warrior=4, attributes={"armor_nonproficient": 1})
    enc = hero_vs_orc(hero, [1, 20, 12, 3])
    orc_first(enc)
    enc.act(ax.Attack("hero"))
    assert set(prompt(enc).options) == {"block", "none"}


@pytest.mark.parametrize(("value", "ac"), [(1, 11), (2, 12)])
def test_woa_react_37_the_dodge_feat_lets_others_dodge(value: int, ac: int) -> None:
    """WOA-REACT-37 (MISSING amount, ``woa_dodge_feat_value``): a wizard with the Dodge feat may dodge, for the
    option's value (default 1)."""
    enc = hero_vs_orc(fighter("hero", feats=["Dodge"]), [1, 20, 12, 3], variants={"woa_dodge_feat_value": value})
    orc_first(enc)
    enc.act(ax.Attack("hero"))
    events = answer(enc, hero="dodge")
    assert f"AC {ac} " in attack_line(events)
