"""Concealment sources (PFB-CONC-02..17)."""

from __future__ import annotations

from d20combat.battlefield.concealment import ConcealmentSource, Vision, concealment_sources
from d20combat.battlefield.grid import Footprint, GameMap, Light

HUMAN = Vision()
ELF = Vision(low_light=True)
DWARF = Vision(darkvision_ft=60)
ME = Footprint((0, 0))
GOBLIN = Footprint((4, 0))


def test_pfb_conc_02_entirely_inside_fog() -> None:
    """PFB-CONC-02: a creature entirely inside a concealing area has concealment (percent from the map)."""
    gm = GameMap(10, 3, concealing={(4, 0): 20})
    assert concealment_sources(gm, ME, HUMAN, GOBLIN) == (
        ConcealmentSource(20, "inside concealing terrain at (4,0)", False),
    )


def test_pfb_conc_02_partly_inside_is_not_inside() -> None:
    """PFB-CONC-02: "entirely" inside: an ogre with one square out of the fog is not concealed by it."""
    fog = {(4, 0): 20, (5, 0): 20, (4, 1): 20}
    gm = GameMap(10, 4, concealing=fog)
    ogre = Footprint((4, 0), 2)
    assert concealment_sources(gm, Footprint((0, 3)), HUMAN, ogre) == ()
    fog[(5, 1)] = 30
    gm = GameMap(10, 4, concealing=fog)
    got = concealment_sources(gm, Footprint((0, 3)), HUMAN, ogre)
    assert got == (ConcealmentSource(20, "inside concealing terrain at (4,0)", False),)


def test_pfb_conc_03_concealing_area_between() -> None:
    """PFB-CONC-03 (proposal): bushes at (2,0) between archer (0,0) and goblin (4,0), best-corner test."""
    gm = GameMap(10, 3, concealing={(2, 0): 20})
    (src,) = concealment_sources(gm, ME, HUMAN, GOBLIN)
    assert src.percent == 20 and not src.total
    assert src.reason == "concealing terrain at (2,0) lies between them (seen from corner (0,0))"


def test_pfb_conc_03_attacker_picks_a_clear_corner() -> None:
    """PFB-CONC-03/COV-06 (pillar layout): a corner whose lines all miss the bush -> no concealment."""
    gm = GameMap(10, 10, concealing={(1, 2): 20})
    assert concealment_sources(gm, ME, HUMAN, Footprint((3, 3))) == ()


def test_pfb_conc_03_attackers_own_bush_does_not_count() -> None:
    """PFB-CONC-03: the attacker standing in a bush is not a bush *between* them."""
    gm = GameMap(10, 3, concealing={(0, 0): 20})
    assert concealment_sources(gm, ME, HUMAN, GOBLIN) == ()


def test_pfb_conc_07_fog_and_invisibility_both_listed() -> None:
    """PFB-CONC-07/11 (derived): in fog (20%) and invisible (total 50%) -> both sources; strongest is 50."""
    gm = GameMap(10, 3, concealing={(4, 0): 20})
    got = concealment_sources(gm, ME, HUMAN, GOBLIN, defender_invisible=True)
    assert got == (
        ConcealmentSource(20, "inside concealing terrain at (4,0)", False),
        ConcealmentSource(50, "the defender is invisible", True),
    )
    assert max(s.percent for s in got) == 50  # the ruleset keeps the strongest, not 70
    seer = Vision(sees_invisible=True)  # PFB-CONC-17
    assert concealment_sources(gm, ME, seer, GOBLIN, defender_invisible=True) == got[:1]


def test_pfb_conc_04_15_dim_light_human_elf_dwarf() -> None:
    """PFB-CONC-04/15 (derived): goblin in dim light: human 20%, elf (low-light) none, dwarf (darkvision) none."""
    gm = GameMap(20, 3, light={(4, 0): Light.DIM})
    assert concealment_sources(gm, ME, HUMAN, GOBLIN) == (
        ConcealmentSource(20, "in dim light at (4,0) and the attacker cannot see well in it", False),
    )
    assert concealment_sources(gm, ME, ELF, GOBLIN) == ()
    assert concealment_sources(gm, ME, DWARF, GOBLIN) == ()
    # Beyond darkvision range dim light works normally on the dwarf (65 ft > 60 ft).
    gm = GameMap(20, 3, light={(12, 0): Light.DIM, (13, 0): Light.DIM})
    assert [s.percent for s in concealment_sources(gm, ME, DWARF, Footprint((13, 0)))] == [20]
    assert concealment_sources(gm, ME, DWARF, Footprint((12, 0))) == ()  # exactly 60 ft


def test_pfb_conc_11_15_darkness() -> None:
    """PFB-CONC-11/15 (derived): pitch dark: human -> total 50%; dwarf within 60 ft sees; elf does not."""
    dark = {(c, r): Light.DARK for c in range(20) for r in range(3)}
    gm = GameMap(20, 3, light=dark)
    total = ConcealmentSource(50, "in darkness at (4,0) and the attacker has no darkvision", True)
    assert concealment_sources(gm, ME, HUMAN, GOBLIN) == (total,)
    assert concealment_sources(gm, ME, ELF, GOBLIN) == (total,)
    assert concealment_sources(gm, ME, DWARF, GOBLIN) == ()
    far = concealment_sources(gm, ME, DWARF, Footprint((13, 0)))
    assert far == (ConcealmentSource(50, "in darkness at (13,0) beyond the attacker's darkvision", True),)
    assert concealment_sources(gm, ME, DWARF, Footprint((12, 0))) == ()  # exactly 60 ft


def test_pfb_conc_11_partly_lit_creature_is_seen() -> None:
    """PFB-CONC-11: darkness must cover the whole creature; a lit square gives it away."""
    gm = GameMap(10, 4, light={(4, 0): Light.DARK, (5, 0): Light.DARK, (4, 1): Light.DARK})
    assert concealment_sources(gm, Footprint((0, 3)), HUMAN, Footprint((4, 0), 2)) == ()
    gm = GameMap(10, 4, light={(4, 0): Light.DARK, (5, 0): Light.DIM, (4, 1): Light.DARK})
    got = concealment_sources(gm, Footprint((0, 3)), HUMAN, Footprint((4, 0), 2))
    assert [(s.percent, s.total) for s in got] == [(20, False)]


def test_pfb_conc_11_blinded_attacker() -> None:
    """PFB-CONC-11 (derived): a blinded fighter -> every enemy has total concealment against him."""
    gm = GameMap(10, 3)
    blind = Vision(blinded=True)
    for target in (GOBLIN, Footprint((1, 0)), Footprint((6, 1), 2)):
        assert concealment_sources(gm, ME, blind, target) == (
            ConcealmentSource(50, "the attacker is blinded", True),
        )


def test_pfb_conc_05_magical_concealment() -> None:
    """PFB-CONC-05: magic can conceal with nothing in the way; not total (the square is known)."""
    gm = GameMap(10, 3)
    assert concealment_sources(gm, ME, HUMAN, GOBLIN, magic_percent=20) == (
        ConcealmentSource(20, "magical concealment (20%)", False),
    )
    assert concealment_sources(gm, ME, HUMAN, GOBLIN) == ()
