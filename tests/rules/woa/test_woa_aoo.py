"""WOA-AOO: attacks of opportunity — disengaging (not engaging nor moving within), ignoring a threat, standing up,
unarmed against armed; the short step and the defensive disengage; what bars them; reactions against them."""

from __future__ import annotations

import pytest
from tests.rules.woa._react import answer, attack_line, fight, fighter, orc, prompt, spent
from tests.rules.woa._util import declare_all, who

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.rulesets.worlds_of_adventure.postures import GetUp


def hero_moves(hero: dict[str, object] | None = None, *, orcs: list[tuple[str, tuple[int, int]]] | None = None,
               dice: list[int] = (), hero_extra: dict[str, object] | None = None,
               orc_block: dict[str, object] | None = None, declare: ax.Declare | None = None,
               **kw: object) -> Encounter:
    """hero at (2,2) acts first (initiative 20 vs 1), orcs (default one at (3,2)) act after, individually."""
    foes = orcs or [("orc", (3, 2))]
    people = [who("hero", hero or fighter("hero", bab=3), "heroes", (2, 2), **(hero_extra or {})),
              *[who(name, orc_block or orc(name), "monsters", pos) for name, pos in foes]]
    enc = fight(people, [20, *range(1, 1 + len(foes)), *dice],  # type: ignore[arg-type]
                variants={"woa_monster_initiative": "individual"}, **kw)
    declare_all(enc, declare or ax.Declare(standard="attack", move="move", target=foes[-1][0]))
    assert enc.state.actor == "hero"
    return enc


def offered(enc: Encounter) -> list[str]:
    """Who is offered an attack of opportunity now (each declines)."""
    out = []
    while enc.pending is not None:
        p = prompt(enc)
        if p.kind == "attack_of_opportunity":
            out.append(p.reactor)
        enc.respond("decline" if "decline" in p.options else "none")
    return out


def test_woa_aoo_08_disengaging_provokes() -> None:
    """WOA-AOO-08: moving out of the orc's threatened area provokes its attack of opportunity."""
    enc = hero_moves()
    enc.act(ax.Move(to=(0, 2)))
    assert offered(enc) == ["orc"]
    assert enc.state.get("hero").position == (0, 2)


def test_woa_aoo_07_10_engaging_and_moving_within_do_not_provoke() -> None:
    """WOA-AOO-07, WOA-AOO-10: moving into the orc's threatened area, and on within it, provokes nothing (the shared
    rule — leaving any threatened square — would)."""
    enc = hero_moves(orcs=[("orc", (3, 4))])
    enc.act(ax.Move(path=((2, 3), (2, 4), (2, 5))))  # enters at (2,3), moves within to (2,5)
    assert offered(enc) == [] and enc.state.get("hero").position == (2, 5)


@pytest.mark.parametrize(("reach", "provokes"), [(5, True), (10, False)])
def test_woa_aoo_09_still_engaged_from_your_side(reach: int, provokes: bool) -> None:
    """WOA-AOO-09: leaving the orc's 5-ft reach while the orc stays within your 10-ft reach is no disengage."""
    enc = hero_moves(fighter("hero", bab=3, reach_ft=reach))
    enc.act(ax.Move(to=(1, 2)))
    assert (offered(enc) == ["orc"]) is provokes


def test_woa_aoo_01_17_one_reaction_one_melee_attack_at_the_normal_bonus() -> None:
    """WOA-AOO-01, WOA-AOO-17: the attack of opportunity is one melee attack at the orc's normal bonus, spending one
    combat reaction (the budget left told)."""
    enc = hero_moves(dice=[10, 2])
    enc.act(ax.Move(to=(0, 2)))
    events = answer(enc, orc="attack")
    line = attack_line(events)
    assert line.startswith("orc attacks hero with club") and "d20 10 + BAB 3 " in line
    aoo = spent(events, "orc")
    assert len(aoo) == 1 and aoo[0].reaction.endswith("; 0 reactions left")
    assert enc.state.get("orc").reactions["reactions"] == 0


def test_woa_aoo_02_18_interrupts_the_movement_which_goes_on() -> None:
    """WOA-AOO-02, WOA-AOO-18: the orc threatens on the hero's turn; its attack interrupts the move at the square left,
    then the move goes on to its end."""
    enc = hero_moves(dice=[10, 2])
    enc.act(ax.Move(to=(0, 2)))
    events = answer(enc, orc="attack")
    kinds = [type(e).__name__ for e in events]
    moved = [e for e in events if isinstance(e, ev.Moved)]
    assert kinds.index("AttackResolved") < kinds.index("Moved") or len(moved) >= 1
    assert moved[-1].path[-1] == [0, 2]


def test_woa_aoo_04_unarmed_threatens_nothing() -> None:
    """WOA-AOO-04: an unarmed orc makes no attack of opportunity; with Improved Unarmed Strike it does."""
    enc = hero_moves(orc_block=orc(weapon="unarmed-strike"))
    enc.act(ax.Move(to=(0, 2)))
    assert offered(enc) == []
    enc = hero_moves(orc_block=orc(weapon="unarmed-strike", feats=["Improved Unarmed Strike"]))
    enc.act(ax.Move(to=(0, 2)))
    assert offered(enc) == ["orc"]


def test_woa_aoo_06_a_charge_disengages_as_a_move_does() -> None:
    """WOA-AOO-05, WOA-AOO-06: the charge's movement provokes under the same criteria: leaving the orc's threatened
    area."""
    enc = hero_moves(orcs=[("orc", (3, 2)), ("orc2", (2, 7))], dice=[10, 3],
                     declare=ax.Declare(full_round="charge", target="orc2"))
    enc.act(ax.Charge("orc2"))
    assert offered(enc)[:1] == ["orc"]


def test_woa_aoo_11_ignoring_a_threat() -> None:
    """WOA-AOO-11: after moving within orc A's threatened area, attacking orc B provokes from A (only)."""
    enc = hero_moves(orcs=[("a", (3, 2)), ("b", (2, 4))], dice=[10, 3])
    enc.act(ax.Move(to=(2, 3)))  # within A's area (and into B's)
    assert offered(enc) == []
    enc.act(ax.Attack("b"))
    assert prompt(enc).kind == "attack_of_opportunity" and prompt(enc).reactor == "a"
    assert "ignoring the threat of a" in prompt(enc).trigger
    assert offered(enc) == ["a"]


def test_woa_aoo_11_19_a_short_step_does_not_ignore_a_threat() -> None:
    """WOA-AOO-11 (reading) / WOA-AOO-19: after a short step within A's area, attacking B provokes nothing."""
    enc = hero_moves(orcs=[("a", (3, 2)), ("b", (2, 4))], dice=[10, 3])
    enc.act(ax.Step(to=(2, 3)))
    enc.act(ax.Attack("b"))
    assert [p for p in offered(enc)] == []


def test_woa_aoo_19_a_short_step_never_provokes() -> None:
    """WOA-AOO-19: stepping out of the orc's threatened area provokes nothing."""
    enc = hero_moves()
    enc.act(ax.Step(to=(1, 2)))
    assert offered(enc) == [] and enc.state.get("hero").position == (1, 2)


def test_woa_aoo_14_standing_up_provokes_from_all() -> None:
    """WOA-AOO-14: getting up from prone provokes from every opponent that threatens you."""
    enc = hero_moves(orcs=[("a", (3, 2)), ("b", (1, 2))], hero_extra={"conditions": ["prone"]},
                     declare=ax.Declare(move="move"))
    enc.act(GetUp())
    assert sorted(offered(enc)) == ["a", "b"]


@pytest.mark.parametrize(("hero_feats", "orc_weapon", "provokes"), [
    ([], "club", True), (["Improved Unarmed Strike"], "club", False), ([], "unarmed-strike", False)])
def test_woa_aoo_16_unarmed_against_armed(hero_feats: list[str], orc_weapon: str, provokes: bool) -> None:
    """WOA-AOO-16: an unarmed attack on an armed opponent provokes from it, unless Improved Unarmed Strike."""
    hero = fighter("hero", bab=3, weapon="unarmed-strike", feats=hero_feats)
    enc = hero_moves(hero, orc_block=orc(weapon=orc_weapon), dice=[10, 2])
    enc.act(ax.Attack("orc"))
    assert (offered(enc) == ["orc"]) is provokes


def test_woa_aoo_20_defensive_disengage_at_half_speed() -> None:
    """WOA-AOO-20: the defensive disengage moves at half speed (15 of 30 ft) and provokes from nobody left."""
    enc = hero_moves(declare=ax.Declare(move="move"))
    with pytest.raises(IllegalAction, match="half speed, 15 ft"):
        enc.act(_disengage((2, 6)))
    enc.act(_disengage((0, 2)))
    assert offered(enc) == [] and enc.state.get("hero").position == (0, 2)


def _disengage(to: tuple[int, int]) -> ax.Action:
    from d20combat.rulesets.worlds_of_adventure.disengage import DefensiveDisengage
    return DefensiveDisengage(to=to)


def test_woa_aoo_21_a_defensive_disengage_that_engages_another_provokes() -> None:
    """WOA-AOO-21: disengaging defensively into another orc's threatened area provokes from that orc."""
    enc = hero_moves(orcs=[("a", (3, 2)), ("b", (0, 4))], declare=ax.Declare(move="move"))
    enc.act(_disengage((1, 3)))
    assert offered(enc) == ["b"]


@pytest.mark.parametrize("condition", ["slowed", "entangled"])
def test_woa_aoo_22_no_defensive_disengage_when_slowed(condition: str) -> None:
    """WOA-AOO-22: not while slowed or with movement slowed by a condition."""
    enc = hero_moves(hero_extra={"conditions": [condition]}, declare=ax.Declare(move="move"))
    with pytest.raises(IllegalAction, match="WOA-AOO-22"):
        enc.act(_disengage((1, 2)))


def test_woa_aoo_22_no_defensive_disengage_across_difficult_terrain() -> None:
    """WOA-AOO-22: not across difficult terrain."""
    rows = ["........", "........", ".~......", "........"]
    enc = hero_moves(declare=ax.Declare(move="move"), rows=rows)
    with pytest.raises(IllegalAction, match="difficult terrain"):
        enc.act(_disengage((1, 2)))


def test_woa_aoo_28_none_against_a_totally_concealed_mover() -> None:
    """WOA-AOO-28: an invisible hero does not provoke from an orc that cannot see it."""
    enc = hero_moves(hero_extra={"conditions": ["invisible"]})
    enc.act(ax.Move(to=(0, 2)))
    assert offered(enc) == []


def test_woa_aoo_29_all_around_vision_never_provokes_by_disengaging() -> None:
    """WOA-AOO-29: a creature that sees in all directions never provokes by disengaging."""
    enc = hero_moves(fighter("hero", bab=3, feats=["all_around_vision"]))
    enc.act(ax.Move(to=(0, 2)))
    assert offered(enc) == []


def test_woa_aoo_26_30_dodge_and_block_against_an_attack_of_opportunity() -> None:
    """WOA-AOO-26, WOA-AOO-30: the dodge and the block answer an attack of opportunity as any attack."""
    enc = hero_moves(fighter("hero", bab=6, warrior=6), dice=[10, 4])
    enc.act(ax.Move(to=(0, 2)))
    assert prompt(enc).reactor == "orc"
    enc.respond("attack")
    assert prompt(enc).reactor == "hero" and {"dodge", "block"} <= set(prompt(enc).options)
    events = answer(enc, hero="block")
    hit = [e for e in events if isinstance(e, ev.Damaged)]
    assert hit and "block DR 2" in hit[0].explanation


def test_woa_aoo_03_the_threatened_area_leaves_out_the_own_space() -> None:
    """WOA-AOO-02, WOA-AOO-03: the orc threatens the squares its weapon reaches around it, never its own."""
    enc = hero_moves()
    rs, orc_ = enc.ruleset.reactions, enc.creature("orc")
    state = enc.state.get("orc")
    here = enc.footprint("orc")
    assert rs.threatened(orc_, state, here, here.moved_to((2, 2)))
    assert not rs.threatened(orc_, state, here, here)
    assert not rs.threatened(orc_, state, here, here.moved_to((1, 2)))


@pytest.mark.parametrize(("occupant", "mover_size", "provokes"), [
    (orc("o", size="large", weapon="unarmed-strike"), "medium", True),   # larger
    (orc("o", weapon="longsword"), "medium", True),                      # same size, one-handed
    (orc("o", weapon="dagger"), "medium", False),                        # same size, light
    (orc("o", size="small", weapon="longspear"), "medium", True),         # a size smaller, reach weapon
    (orc("o", size="small", weapon="longsword"), "medium", False),        # a size smaller, no reach weapon
])
def test_woa_aoo_12_entering_a_space(occupant: dict[str, object], mover_size: str, provokes: bool) -> None:
    """WOA-AOO-12: entering an opponent's space provokes by its size and weapon (the inventory's worked examples)."""
    from d20combat.rulesets.worlds_of_adventure.opportunity import entering_space_provokes
    enc = fight([who("hero", fighter("hero", size=mover_size), "heroes", (2, 2)),
                 who("o", occupant, "monsters", (5, 5))], [20, 1])
    reason = entering_space_provokes(enc.creature("hero"), enc.creature("o"), enc.state.get("o"))
    assert (reason is not None) is provokes


def test_woa_aoo_15_a_failed_maneuver_provokes_from_its_target_only() -> None:
    """WOA-AOO-15: a failed maneuver provokes from its target alone (not from another orc that threatens)."""
    from d20combat.encounter.resolution import Tx
    from d20combat.rulesets.worlds_of_adventure.opportunity import provoke_failed_maneuver
    enc = hero_moves(orcs=[("a", (3, 2)), ("b", (1, 2))], dice=[10, 2])
    tx = Tx(enc.state, enc, ("attack",))
    assert provoke_failed_maneuver(enc, tx, "hero", "a", "trip")
    assert [e.combatant for e in tx.events if isinstance(e, ev.ReactionSpent)] == ["a"]


@pytest.mark.parametrize(("rows", "provokes"), [(["........", "...#....", "........"], False),
                                                (["........", "........", "........"], True)])
def test_woa_aoo_27_none_through_cover(rows: list[str], provokes: bool) -> None:
    """WOA-AOO-27: the orc (10-ft reach) cannot strike a hero that has cover from it (the wall at (3,1))."""
    people = [who("hero", fighter("hero"), "heroes", (2, 1)), who("orc", orc(reach_ft=10), "monsters", (4, 1))]
    enc = fight(people, [20, 1], rows=rows)
    declare_all(enc, ax.Declare(move="move"))
    enc.act(ax.Move(to=(0, 1)))
    assert (offered(enc) == ["orc"]) is provokes


@pytest.mark.parametrize(("weapon", "size", "provokes"), [("longspear", "medium", True), ("spear", "medium", False),
                                                          ("longspear", "small", False)])
def test_woa_aoo_13_approaching_a_reach_weapon(weapon: str, size: str, provokes: bool) -> None:
    """WOA-AOO-03, WOA-AOO-13: a reach weapon (10-ft reach) does not threaten the squares right around its wielder;
    passing from its threatened ring into them provokes from a wielder of your size or larger. A plain weapon with
    the same reach threatens them: moving in is moving within."""
    people = [who("hero", fighter("hero"), "heroes", (2, 2)),
              who("orc", orc(weapon=weapon, reach_ft=10, size=size), "monsters", (5, 2))]
    enc = fight(people, [20, 1])
    declare_all(enc, ax.Declare(move="move"))
    enc.act(ax.Move(path=((3, 2), (4, 2))))
    assert (offered(enc) == ["orc"]) is provokes
    assert enc.state.get("hero").position == (4, 2)
