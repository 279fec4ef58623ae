"""Epic Path's splash weapons (EP-SPLASH-01..20)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.ep._util import assert_illegal, ep, remaining, stats, texts

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.rulesets.epic_path.splash import CLOCKWISE, ThrowSplash, scatter, toward, toward_dominant_axis

BIG = {"name": "big-flask", "damage": "1d6", "kind": "thrown", "range_increment_ft": 10, "touch": True,
       "splash": "1d4", "splash_dc": 15}
"""A test flask: 1d6 direct, 1d4 splash, Reflex DC 15 for half."""


def thrower(weapon: Any = "alchemists-fire", **kw: Any) -> dict[str, Any]:
    name = weapon if isinstance(weapon, str) else weapon["name"]
    return stats("thrower", attack_bonus=5, attacks=[{"weapon": weapon}, {"weapon": "club"}], wielding=name, **kw)


def dummy(name: str, **kw: Any) -> dict[str, Any]:
    return stats(name, attacks=[{"weapon": "club"}], **kw)


def scene(others: list[tuple[str, str, tuple[int, int]]], dice: list[int], weapon: Any = "alchemists-fire",
          thrower_kw: dict[str, Any] | None = None, **kw: Any) -> Encounter:
    cs = [{"id": "p", "side": "a", "stats": thrower(weapon, **(thrower_kw or {})), "position": [0, 2]}]
    cs += [{"id": cid, "side": side, "stats": dummy(cid), "position": list(pos)} for cid, side, pos in others]
    return ep(cs, dice=dice, **kw)


def hp(enc: Encounter, cid: str) -> int:
    return enc.state.get(cid).hp


def test_ep_splash_02_04_05_06_07_a_direct_hit_and_its_splash() -> None:
    """EP-SPLASH-02: a ranged touch attack; EP-SPLASH-04: the direct-hit damage to the target, no save
    (EP-SPLASH-07); EP-SPLASH-05: the splash to everyone within 5 ft, allies too; EP-SPLASH-06: never to the target;
    EP-SPLASH-03: no non-proficiency penalty."""
    enc = scene([("t", "b", (3, 2)), ("n", "b", (4, 2)), ("ally", "a", (3, 3)), ("far", "b", (6, 2))],
                dice=[14, 4, 2, 3])
    events = enc.act(ThrowSplash("alchemists-fire", "t"))
    text = texts(events)
    assert "hits: 17 = d20 14 + BAB 5 − range 2 vs touch AC 10" in text  # no −4 into melee in Epic Path
    assert "direct hit 4 = 1d6 4, no save (EP-SPLASH-07)" in text
    assert (hp(enc, "t"), hp(enc, "n"), hp(enc, "ally"), hp(enc, "far")) == (16, 19, 19, 20)
    assert [e.target for e in events if isinstance(e, ev.SaveRolled)] == ["ally", "n"]
    assert remaining(enc) == 0 and enc.state.get("p").wielding is None


def test_ep_splash_08_reflex_for_half_the_splash() -> None:
    """EP-SPLASH-08: a creature hit only by the splash saves (Reflex, the item's DC) for half."""
    enc = scene([("t", "b", (3, 2)), ("n", "b", (4, 2)), ("m", "b", (4, 3))], dice=[10, 4, 3, 17, 3, 2],
                weapon=BIG)
    enc.act(ThrowSplash("big-flask", "t"))
    assert (hp(enc, "m"), hp(enc, "n")) == (20 - 1, 20 - 3)  # m: 3 halved to 1 (saved 17); n: 3 in full (2)


def test_ep_splash_09_a_large_target_the_thrower_picks_the_square() -> None:
    """EP-SPLASH-09: against a Large target the thrower picks one of its squares; the splash spreads from it."""
    others = [("o", "b", (4, 2)), ("near", "b", (6, 4)), ("west", "b", (3, 1))]
    cs = [{"id": "p", "side": "a", "stats": thrower(), "position": [0, 2]}]
    cs += [{"id": c, "side": s, "stats": dummy(c, size="large") if c == "o" else dummy(c), "position": list(p)}
           for c, s, p in others]
    enc = ep(cs, dice=[15, 2, 5])
    assert_illegal(enc, ThrowSplash("alchemists-fire", "o", square=(3, 3)), "not one of the target's squares")
    enc.act(ThrowSplash("alchemists-fire", "o", square=(5, 3)))
    assert (hp(enc, "near"), hp(enc, "west")) == (19, 20)


def test_ep_splash_10_no_precision_damage_unless_the_gm_says() -> None:
    """EP-SPLASH-10: a rogue's sneak attack dice never add to a splash weapon — unless ep_splash_precision."""
    plain = scene([("t", "b", (3, 2))], dice=[10, 4], thrower_kw={"sneak_attack_dice": 1})
    plain.act(ThrowSplash("alchemists-fire", "t"))
    assert hp(plain, "t") == 16
    fiat = scene([("t", "b", (3, 2))], dice=[10, 4, 6], thrower_kw={"sneak_attack_dice": 1},
                 variants={"ep_splash_precision": True})
    fiat.act(ThrowSplash("alchemists-fire", "t"))
    assert hp(fiat, "t") == 10


def test_ep_splash_11_16_a_square_is_ac_5_and_deals_splash_only() -> None:
    """EP-SPLASH-11: aimed at a square, a ranged attack against AC 5; EP-SPLASH-16: once it breaks, creatures in
    that square and all adjacent take splash damage only."""
    enc = scene([("n", "b", (5, 5)), ("t", "b", (3, 2))], dice=[4, 2], rows=["......."] * 7)
    events = enc.act(ThrowSplash("alchemists-fire", square=(4, 4)))
    text = texts(events)
    assert "hits: 5 = d20 4 + BAB 5 − range 4 vs AC 5 (a square (EP-SPLASH-11))" in text
    assert "splash damage only (EP-SPLASH-16)" in text
    assert (hp(enc, "n"), hp(enc, "t")) == (19, 20)


@pytest.mark.parametrize(("rows", "variants", "breaks"), [
    (["....%.."], {}, True),                               # impeded: usually solid enough (EP-SPLASH-15)
    (["....B.."], {}, True),                               # blocked: as solid as the ground (EP-SPLASH-14)
    (["....~.."], {}, True),                               # difficult: often (option, default yes)
    (["....~.."], {"ep_splash_breaks_difficult": False}, False),
])
def test_ep_splash_12_14_15_what_breaks_a_flask(rows: list[str], variants: dict[str, Any], breaks: bool) -> None:
    """EP-SPLASH-12, EP-SPLASH-14, EP-SPLASH-15: a square aimed at must break the flask: the ground, blocked and
    impeded terrain do;
    difficult terrain as ep_splash_breaks_difficult says."""
    enc = scene([("n", "b", (5, 0))], dice=[15, 2], rows=rows * 3, variants=variants)
    enc.act(ThrowSplash("alchemists-fire", square=(4, 1)))
    assert (hp(enc, "n") == 19) is breaks


def test_ep_splash_13_a_square_the_gm_marks_soft_does_not_break_it() -> None:
    """EP-SPLASH-13, EP-SPLASH-14: the GM's ruling for webs, flesh or rubber is the map's ``splash_soft`` squares."""
    enc = scene([("n", "b", (5, 1))], dice=[15], map_extra={"splash_soft": [[4, 1]]})
    events = enc.act(ThrowSplash("alchemists-fire", square=(4, 1)))
    assert "unbroken" in texts(events) and hp(enc, "n") == 20


def test_ep_splash_17_18_19_20_a_miss_scatters_and_never_deals_direct_damage() -> None:
    """EP-SPLASH-17: a miss scatters 1 square by a d8; EP-SPLASH-18: 1 = short, toward the thrower; EP-SPLASH-19:
    everyone there and adjacent takes splash; EP-SPLASH-20: no direct damage, the target included."""
    enc = scene([("t", "b", (4, 2)), ("far", "b", (6, 2))], dice=[1, 1, 1])
    events = enc.act(ThrowSplash("alchemists-fire", "t"))
    assert "scatter d8 1 (short, toward the thrower): it lands in (3, 2)" in texts(events)
    assert (hp(enc, "t"), hp(enc, "far")) == (19, 20)
    north = scene([("t", "b", (4, 2)), ("up", "b", (4, 0))], dice=[1, 3, 1, 1])
    north.act(ThrowSplash("alchemists-fire", "t"))
    assert (hp(north, "t"), hp(north, "up")) == (19, 19)  # lands at (4, 1): 2 clockwise from west is north


def test_ep_splash_18_scatter_counts_clockwise_from_short() -> None:
    """EP-SPLASH-18 (AMBIGUOUS: a thrower off the 8 lines snaps to the nearest direction): faces 1..8 walk
    clockwise around the intended square starting toward the thrower."""
    assert toward((5, 5), (0, 5)) == CLOCKWISE.index((-1, 0))
    assert toward((5, 5), (2, 4)) == CLOCKWISE.index((-1, 0))       # mostly west
    assert toward((5, 5), (3, 3)) == CLOCKWISE.index((-1, -1))      # exactly north-west
    assert [scatter((5, 5), (0, 5), f) for f in range(1, 9)] == [
        (4, 5), (4, 4), (5, 4), (6, 4), (6, 5), (6, 6), (5, 6), (4, 6)]


@pytest.mark.parametrize(("snap", "land"), [("nearest", (2, 3)), ("dominant_axis", (2, 4))])
def test_ep_splash_18_option_scatter_snap(snap: str, land: tuple[int, int]) -> None:
    """EP-SPLASH-18 (AMBIGUOUS, option ep_scatter_snap): from (3, 4) the thrower at (0, 2) is 3 west and 2 north, off
    the 8 lines. A miss with scatter d8 1 falls short north-west to (2, 3), the neighbour closest to that line
    (default), or west to (2, 4) along the larger of |dx| and |dy| ('dominant_axis')."""
    enc = scene([("far", "b", (8, 0))], dice=[1, 1], variants={"ep_scatter_snap": snap})
    events = enc.act(ThrowSplash("alchemists-fire", square=(3, 4)))
    assert f"scatter d8 1 (short, toward the thrower): it lands in {land}" in texts(events)
    assert toward_dominant_axis((5, 5), (3, 3)) == CLOCKWISE.index((-1, -1))  # equal: the diagonal
    assert toward_dominant_axis((5, 5), (5, 9)) == CLOCKWISE.index((0, 1))


def test_ep_splash_01_only_a_splash_weapon_and_in_hand() -> None:
    """EP-SPLASH-01: the action needs a splash weapon, drawn."""
    enc = scene([("t", "b", (3, 2))], dice=[])
    assert_illegal(enc, ThrowSplash("club", "t"), "not a splash weapon")
    assert_illegal(enc, ThrowSplash("alchemists-fire"), "give a target creature or a square")
    assert_illegal(enc, ThrowSplash("alchemists-fire", square=(40, 1)), "outside the map")
    enc.act(ax.Draw("club"))
    assert_illegal(enc, ThrowSplash("alchemists-fire", "t"), "draw alchemists-fire first")


def test_ep_splash_01_02_a_flask_is_thrown_never_attacked_with_as_a_weapon() -> None:
    """EP-SPLASH-01/02: a splash weapon is thrown (direct and splash damage, a scatter on a miss); an ordinary attack
    or a charge with it is refused and changes nothing, the flask still in hand."""
    enc = scene([("t", "b", (1, 2))], dice=[14, 4, 2])
    for action in (ax.Attack("t", "alchemists-fire"), ax.Attack("t"), ax.Charge("t", "alchemists-fire")):
        assert_illegal(enc, action, "splash weapon: throw it with throw_splash")
    assert enc.state.get("p").wielding == "alchemists-fire" and remaining(enc) == 3
