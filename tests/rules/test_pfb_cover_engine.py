"""PFB cover in the engine's attack pipeline (PFB-COV-01..16): +4 AC per attacker/defender pair,
shown by ``target_ac`` and in the attack's explanation; creatures on the line; low walls; the reach
asymmetry; total cover both ways; the partial-cover and any-line variants.

Squares are ``(column, row)``; corners sit at integer points. The goblin's AC is 15 (10 + leather 2
+ light shield 1 + Dex 2). Archers are fighters holding their shortbow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tests.conftest import illegal, who

from d20combat.battlefield.cover import CoverDegree
from d20combat.encounter import events as ev
from d20combat.encounter.actions import Attack, EndTurn
from d20combat.encounter.engine import Encounter, IllegalAction

Make = Callable[..., Encounter]
Square = tuple[int, int]

GOBLIN_AC = 15


def archer(cid: str, pos: Square, side: str = "heroes") -> dict[str, Any]:
    return who(cid, side, "fighter", pos, wielding="shortbow")


def ac_of(enc: Encounter, attacker: str, target: str) -> tuple[int, str]:
    plan = enc.plan_attack(attacker, target)
    return enc.target_ac(plan, enc.state)


def degree(enc: Encounter, attacker: str, target: str) -> CoverDegree:
    return enc.plan_attack(attacker, target).cover.degree


def resolved(events: list[ev.Event]) -> ev.AttackResolved:
    found = [e for e in events if isinstance(e, ev.AttackResolved)]
    assert len(found) == 1
    return found[0]


# ---------------------------------------------------------------------------- COV-01..05, 15
def test_pfb_cov_01_02_04_table_example_plus_4_in_the_pipeline(encounter_factory: Make) -> None:
    """PFB-COV-01/02/04/15 worked example: archer at (0,0), goblin at (4,0), a solid obstacle (table)
    filling (2,0). Lines from every archer corner cross it, so the goblin has cover: AC 15 → 19 against
    this archer, shown in ``target_ac`` and in the attack's explanation. d20 15 + 1 BAB + 1 Dex = 17
    hits AC 15 but misses AC 19."""
    rows = ["..#..", ".....", "....."]
    enc = encounter_factory([archer("f", (0, 0)), who("g", "goblins", "goblin", (4, 0))], rows=rows, dice=[15])
    value, text = ac_of(enc, "f", "g")
    assert value == GOBLIN_AC + 4 and "cover 4" in text
    assert degree(enc, "f", "g") is CoverDegree.COVER
    res = resolved(enc.act(Attack("g")))
    assert not res.hit
    joined = "\n".join(res.lines)
    assert "cover: +4 AC" in joined and "(2,0)" in joined and "vs AC 19" in joined

    open_enc = encounter_factory([archer("f", (0, 0)), who("g", "goblins", "goblin", (4, 0))], width=5, height=3,
                                 dice=[15, 1])
    assert ac_of(open_enc, "f", "g")[0] == GOBLIN_AC
    assert resolved(open_enc.act(Attack("g"))).hit


def test_pfb_cov_03_one_blocked_line_is_enough(encounter_factory: Make) -> None:
    """PFB-COV-03: cover as long as at least one line is blocked. A fighter at (1,1) attacks a goblin at
    (2,2) diagonally; the wall at (2,1) blocks only some corner-to-corner lines (e.g. (1,1)→(3,2)),
    most run clear, and that is enough for an adjacent melee attack (any-line rule)."""
    rows = ["....", "..#.", "....", "...."]
    enc = encounter_factory([who("f", "heroes", "fighter", (1, 1)), who("g", "goblins", "goblin", (2, 2))],
                            rows=rows)
    fact = enc.plan_attack("f", "g").cover
    assert fact.degree is CoverDegree.COVER
    assert 1 <= fact.blocked_lines < fact.lines  # not every line: only "at least one"
    assert ac_of(enc, "f", "g")[0] == GOBLIN_AC + 4


def test_pfb_cov_04_cover_is_per_attacker(encounter_factory: Make) -> None:
    """PFB-COV-04: cover counts against that enemy's attacks only: the same goblin has +4 against the
    archer behind the table and nothing against an archer with a clear view."""
    rows = ["..#..", ".....", ".....", "....."]
    enc = encounter_factory([archer("f", (0, 0)), archer("k", (4, 3)), who("g", "goblins", "goblin", (4, 0))],
                            rows=rows, dice=[2, 2])
    assert ac_of(enc, "f", "g")[0] == GOBLIN_AC + 4
    assert ac_of(enc, "k", "g")[0] == GOBLIN_AC
    assert "vs AC 19" in "\n".join(resolved(enc.act(Attack("g"))).lines)
    enc.act(EndTurn())
    assert enc.state.turn is not None and enc.state.turn.actor == "k"
    joined = "\n".join(resolved(enc.act(Attack("g"))).lines)
    assert "vs AC 15" in joined and "cover" not in joined


def test_pfb_cov_04_cover_protects_the_attacker_too(encounter_factory: Make) -> None:
    """PFB-COV-04: the goblin behind the table is equally covered from the archer's point of view
    when it shoots back (+4 to the archer's AC 17 against that goblin)."""
    rows = ["..#..", ".....", "....."]
    enc = encounter_factory([who("g", "goblins", "goblin-archer", (4, 0)), archer("f", (0, 0))], rows=rows)
    value, text = ac_of(enc, "g", "f")
    assert value == 17 + 4 and "cover 4" in text


def test_pfb_cov_05_ally_on_the_line_gives_cover_and_into_melee(encounter_factory: Make) -> None:
    """PFB-COV-05 worked example: an ally stands on the line between the archer and a goblin, adjacent
    to the goblin: the goblin has cover (+4 AC) and the archer takes −4 (PFB-ATK-07) — it needs 8 more
    on the die than against an open target."""
    def need(ally_at: Square) -> int:
        enc = encounter_factory([archer("f", (0, 0)), who("a", "heroes", "rogue", ally_at),
                                 who("g", "goblins", "goblin", (5, 0))], width=6, height=3)
        plan = enc.plan_attack("f", "g")
        return enc.target_ac(plan, enc.state)[0] - sum(m.value for m in plan.modifiers)

    enc = encounter_factory([archer("f", (0, 0)), who("a", "heroes", "rogue", (4, 0)),
                             who("g", "goblins", "goblin", (5, 0))], width=6, height=3)
    plan = enc.plan_attack("f", "g")
    assert plan.cover.degree is CoverDegree.COVER and "(4,0)" in plan.cover.reason
    assert enc.target_ac(plan, enc.state)[0] == GOBLIN_AC + 4
    assert (-4, "into melee") in [(m.value, m.source) for m in plan.modifiers]
    assert need((4, 0)) - need((0, 2)) == 8  # ally far away: no cover, no −4


def test_pfb_cov_05_enemy_creature_gives_cover_even_against_melee_reach(encounter_factory: Make) -> None:
    """PFB-COV-05 (literal reading): any creature on the line gives cover, also against a melee reach
    attack: the ogre's own goblin ally standing between it and the fighter covers the fighter."""
    enc = encounter_factory([who("o", "ogres", "ogre", (0, 0)), who("g", "ogres", "goblin", (2, 0)),
                             who("f", "heroes", "fighter", (3, 0))], width=6, height=4)
    plan = enc.plan_attack("o", "f")
    assert not plan.ranged and plan.cover.degree is CoverDegree.COVER
    assert enc.target_ac(plan, enc.state)[0] == 17 + 4
    # Not total cover: the ogre can still attack (a creature gives at most cover, PFB-COV-11).
    assert enc.check(Attack("f")) is None


# ---------------------------------------------------------------------------- COV-06: who picks the corners
def test_pfb_cov_06_ranged_attacker_picks_its_best_corner(encounter_factory: Make) -> None:
    """PFB-COV-06 worked example: archer at (0,0), target at (3,3), pillar filling (1,2). By the body
    text the (0,1)→(3,4) line crosses the pillar (cover); by the caption reading the archer picks its
    corner (1,0), from which no line is blocked: no cover (the default). Variant
    ``pfb_cover_any_line_everywhere`` applies the body text: cover."""
    rows = ["....", "....", ".#..", "....", "...."]
    people = [archer("f", (0, 0)), who("g", "goblins", "goblin", (3, 3))]
    enc = encounter_factory(people, rows=rows)
    assert degree(enc, "f", "g") is CoverDegree.NONE and ac_of(enc, "f", "g")[0] == GOBLIN_AC
    people = [archer("f", (0, 0)), who("g", "goblins", "goblin", (3, 3))]
    enc = encounter_factory(people, rows=rows, variants={"pfb_cover_any_line_everywhere": True})
    assert degree(enc, "f", "g") is CoverDegree.COVER and ac_of(enc, "f", "g")[0] == GOBLIN_AC + 4


# ---------------------------------------------------------------------------- COV-07/08: low obstacles
@pytest.mark.parametrize(("attacker_col", "covered"), [(3, False), (4, True), (6, True)])
def test_pfb_cov_07_08_low_wall_and_the_closer_attacker(encounter_factory: Make, attacker_col: int,
                                                        covered: bool) -> None:
    """PFB-COV-07/08 worked example: low wall filling (2,0), defender at (0,0), 10 ft from it. An
    attacker at (3,0) is 5 ft from the wall, closer than the defender → no cover; at (6,0), 20 ft →
    cover; at (4,0), 10 ft → a tie, and the cover stands (proposed)."""
    rows = ["..=....", ".......", "......."]
    enc = encounter_factory([archer("f", (attacker_col, 0)), who("g", "goblins", "goblin", (0, 0))], rows=rows)
    fact = enc.plan_attack("f", "g").cover
    value, text = ac_of(enc, "f", "g")
    if covered:
        assert fact.degree is CoverDegree.COVER and "low wall" in fact.reason
        assert value == GOBLIN_AC + 4
    else:
        assert fact.degree is CoverDegree.NONE and "closer" in fact.reason
        assert value == GOBLIN_AC and "cover" not in text


def test_pfb_cov_08_low_wall_shelters_each_side_from_the_far_attacker(encounter_factory: Make) -> None:
    """PFB-COV-08: the rule is per pair: with the goblin hugging the low wall and the archer far away,
    the goblin has cover from the archer, but the archer has none from the goblin."""
    rows = [".....=.", ".......", "......."]
    enc = encounter_factory([archer("f", (0, 0)), who("g", "goblins", "goblin-archer", (6, 0))], rows=rows)
    assert ac_of(enc, "f", "g")[0] == GOBLIN_AC - 1 + 4  # the goblin archer has no shield: AC 14
    assert ac_of(enc, "g", "f")[0] == 17


# ---------------------------------------------------------------------------- COV-09..11: total cover
def test_pfb_cov_09_10_11_total_cover_works_both_ways(encounter_factory: Make) -> None:
    """PFB-COV-09/10/11 worked example: every line between the archer and a goblin behind a solid wall
    is blocked → total cover: the archer cannot attack it, and it cannot attack the archer. Nor can
    either charge the other."""
    rows = ["...#...", "...#...", "...#..."]
    enc = encounter_factory([archer("f", (0, 1)), who("g", "goblins", "goblin-archer", (6, 1))], rows=rows)
    assert "total cover" in illegal(enc, Attack("g"))
    with pytest.raises(IllegalAction, match="total cover"):
        enc.plan_attack("g", "f")
    enc.act(EndTurn())
    assert enc.state.turn is not None and enc.state.turn.actor == "g"
    assert "total cover" in illegal(enc, Attack("f"))


def test_pfb_cov_11_creatures_never_give_total_cover(encounter_factory: Make) -> None:
    """PFB-COV-11 (proposed): only solid objects give total cover; a wall of creatures gives cover."""
    enc = encounter_factory([archer("f", (0, 1)), who("a", "heroes", "rogue", (3, 0)),
                             who("b", "heroes", "wizard", (3, 1)), who("c", "heroes", "cleric", (3, 2)),
                             who("g", "goblins", "goblin", (6, 1))], width=7, height=3, dice=[2])
    assert degree(enc, "f", "g") is CoverDegree.COVER
    resolved(enc.act(Attack("g")))  # allowed


# ---------------------------------------------------------------------------- COV-12..14: the diagram
def test_pfb_cov_12_adjacent_attacker_nothing_in_between(encounter_factory: Make) -> None:
    """PFB-COV-12 (diagram case #1): an adjacent attacker with nothing on any line: no cover."""
    enc = encounter_factory([who("f", "heroes", "fighter", (1, 1)), who("g", "goblins", "goblin", (2, 1))],
                            rows=["....", "....", "....", "...."], dice=[2])
    assert degree(enc, "f", "g") is CoverDegree.NONE
    assert "cover" not in "\n".join(resolved(enc.act(Attack("g"))).lines)


def ogre_and_rogue(make: Make, **kw: Any) -> Encounter:
    """Diagram case #2: an ogre on (0,0)–(1,1) and a rogue at (2,2), adjacent across the corner of the
    wall at (2,1). The rogue acts first."""
    rows = ["......", "..#...", "......", "......"]
    return make([who("r", "heroes", "rogue", (2, 2)), who("o", "ogres", "ogre", (0, 0))], rows=rows, **kw)


def test_pfb_cov_13_adjacent_melee_across_a_wall_corner(encounter_factory: Make) -> None:
    """PFB-COV-13 (diagram case #2): some of the rogue's corner-to-corner lines cross the wall, so the
    ogre has melee cover from her: the rogue's attack faces ogre AC 18 + 4 = 22."""
    enc = ogre_and_rogue(encounter_factory, dice=[2])
    value, text = ac_of(enc, "r", "o")
    assert value == 18 + 4 and "cover 4" in text
    assert "vs AC 22" in "\n".join(resolved(enc.act(Attack("o"))).lines)


def test_pfb_cov_14_reach_attacker_figures_cover_like_a_ranged_attack(encounter_factory: Make) -> None:
    """PFB-COV-14 (text, L199): the ogre has reach, so it figures cover as a ranged attacker — picking
    its best corner — even against the adjacent rogue: the same wall gives the ogre cover from the
    rogue but the rogue none from the ogre (rogue AC 15)."""
    enc = ogre_and_rogue(encounter_factory, dice=[2, 2])
    assert ac_of(enc, "r", "o")[0] == 22
    assert ac_of(enc, "o", "r") == (15, "10 + armor 2 + Dex 3")
    enc.act(Attack("o"))
    enc.act(EndTurn())
    joined = "\n".join(resolved(enc.act(Attack("r"))).lines)
    assert "vs AC 15" in joined and "cover" not in joined


def test_pfb_cov_14_variant_reach_ranged_method_only_nonadjacent(encounter_factory: Make) -> None:
    """PFB-COV-14, variant ``pfb_reach_ranged_cover_only_nonadjacent`` (PF1): against an adjacent target
    the ogre uses the any-line rule, so the wall now covers the rogue too."""
    enc = ogre_and_rogue(encounter_factory, variants={"pfb_reach_ranged_cover_only_nonadjacent": True})
    assert ac_of(enc, "o", "r")[0] == 15 + 4
    assert ac_of(enc, "r", "o")[0] == 22


def test_pfb_cov_14_variant_keeps_best_corner_for_nonadjacent_reach(encounter_factory: Make) -> None:
    """PFB-COV-14 variant: against a target 10 ft away the reach attack still uses the best-corner
    rule. Ogre on (0,0)–(1,1), fighter at (3,1), a pillar at (2,0): some line from an ogre corner
    crosses the pillar, but from its best corner none does — no cover, variant or not; only
    ``pfb_cover_any_line_everywhere`` gives the fighter cover."""
    rows = ["..#...", "......", "......", "......"]

    def make(variants: dict[str, bool]) -> Encounter:
        return encounter_factory([who("o", "ogres", "ogre", (0, 0)), who("f", "heroes", "fighter", (3, 1))],
                                 rows=rows, variants=variants)
    assert ac_of(make({}), "o", "f")[0] == 17
    assert ac_of(make({"pfb_reach_ranged_cover_only_nonadjacent": True}), "o", "f")[0] == 17
    assert ac_of(make({"pfb_cover_any_line_everywhere": True}), "o", "f")[0] == 17 + 4


# ---------------------------------------------------------------------------- COV-15/16
def test_pfb_cov_15_ranged_cover_from_the_chosen_corner(encounter_factory: Make) -> None:
    """PFB-COV-15 (diagram case #3): from the archer's best corner, some lines pass through a solid
    surface → cover (+4). Archer (0,0), goblin (5,2), wall (3,2)."""
    rows = ["......", "......", "...#..", "......"]
    enc = encounter_factory([archer("f", (0, 0)), who("g", "goblins", "goblin", (5, 2))], rows=rows)
    fact = enc.plan_attack("f", "g").cover
    assert fact.degree is CoverDegree.COVER and fact.lines == 4 and fact.blocked_lines >= 1
    assert ac_of(enc, "f", "g")[0] == GOBLIN_AC + 4


@pytest.mark.parametrize(("variant", "bonus", "label"), [(False, 4, "cover 4"), (True, 2, "partial cover 2")])
def test_pfb_cov_16_partial_cover_variant(encounter_factory: Make, variant: bool, bonus: int,
                                          label: str) -> None:
    """PFB-COV-16 (diagram case #4): the archer at (0,0) sees more than half of a goblin at (6,1) past
    a wall at (3,1): only 1 of its best corner's 4 lines is blocked. Partial cover is MISSING a value,
    so it is off by default (plain cover, +4); with ``pfb_partial_cover`` it is +2."""
    rows = [".......", "...#...", "......."]
    enc = encounter_factory([archer("f", (0, 0)), who("g", "goblins", "goblin", (6, 1))], rows=rows,
                            variants={"pfb_partial_cover": variant}, dice=[2])
    fact = enc.plan_attack("f", "g").cover
    assert (fact.blocked_lines, fact.lines) == (1, 4)
    assert fact.degree is (CoverDegree.PARTIAL if variant else CoverDegree.COVER)
    value, text = ac_of(enc, "f", "g")
    assert value == GOBLIN_AC + bonus and label in text
    assert f"cover: +{bonus} AC" in "\n".join(resolved(enc.act(Attack("g"))).lines)


def test_pfb_cov_09_total_cover_target_is_never_offered(encounter_factory: Make) -> None:
    """PFB-COV-09: a creature completely hidden behind a wall can't be attacked: the engine's list of
    legal actions offers no attack on it, while an open target is offered."""
    rows = ["...#...", "...#...", "...#..."]
    enc = encounter_factory([archer("f", (0, 1)), who("g", "goblins", "goblin", (6, 1)),
                             who("h", "goblins", "goblin", (2, 2))], rows=rows)
    targets = {a.target for a in enc.legal_actions() if isinstance(a, Attack)}
    assert "g" not in targets and "h" in targets
