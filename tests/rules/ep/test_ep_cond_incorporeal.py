"""Incorporeal and ethereal creatures on the grid (EP-COND-16..27, EP-COND-38): the phase move through solid
objects, water and pits; inside an object — total cover, total concealment of its enemies, sensing only the
squares next to it; the facts the GM page asks (falling, weight, silence, senses, direction).
Forced dice: d20 attack, then d% if it hit and a miss chance applies, then damage."""

from __future__ import annotations

from typing import Any

import pytest
from tests.rules.ep._util import assert_illegal, ep, resolved, stats, texts

from d20combat.encounter import actions as ax
from d20combat.encounter.engine import Encounter
from d20combat.encounter.gm_actions import GmCondition
from d20combat.rulesets.components import RuleError
from d20combat.rulesets.epic_path.effects import UseEffect
from d20combat.rulesets.epic_path.hiding import Hide
from d20combat.rulesets.epic_path.incorporeal import (
    PhaseMove,
    falls,
    heard_by_perception,
    moves_full_speed_unseeing,
    sense_penalty,
    sets_off_weight_trap,
)
from d20combat.rulesets.epic_path.maneuvers import Maneuver
from d20combat.rulesets.epic_path.turn_actions import Ready

GHOST = stats("ghost", hp=20, attack_bonus=4,
              attacks=[{"weapon": {"name": "touch", "damage": "1d6", "touch": True}},
                       {"weapon": {"name": "wail", "damage": "1d4", "kind": "spell", "range_increment_ft": 30}}])
KNIGHT = stats("knight", hp=30, attack_bonus=5, attacks=[{"weapon": {"name": "sword", "damage": "1d8",
                                                                      "enhancement": 1}}])

THIN = ["....#.....",
        "....#.....",
        "....#.....",
        ".........."]
"""A wall one square thick at column 4."""
THICK = ["....##....",
         "....##....",
         "....##....",
         ".........."]
"""A wall two squares thick at columns 4–5."""
SOLID = ["...###....",
         "...###....",
         "...###....",
         ".........."]
"""A wall three squares thick at columns 3–5: (4,1) is deep inside it."""


def crypt(rows: list[str], ghost_at: tuple[int, int] = (3, 1), conds: tuple[str, ...] = ("incorporeal",),
          knight_at: tuple[int, int] = (9, 3), first: str = "g", dice: list[int] | None = None,
          variants: dict[str, Any] | None = None) -> Encounter:
    g = {"id": "g", "side": "dead", "stats": GHOST, "position": list(ghost_at), "conditions": list(conds)}
    k = {"id": "k", "side": "living", "stats": KNIGHT, "position": list(knight_at)}
    return ep([g, k] if first == "g" else [k, g], dice=dice or [], rows=rows, variants=variants)


def inside(knight_at: tuple[int, int], dice: list[int] | None = None, ghosts_turn: bool = False) -> Encounter:
    """The ghost phases into the thin wall at (4,1) and ends its turn; the knight's turn (and with
    ``ghosts_turn``, the knight ends it: the ghost's next turn)."""
    enc = crypt(THIN, knight_at=knight_at, dice=dice)
    enc.act(PhaseMove(((4, 1),)))
    enc.act(ax.EndTurn())
    if ghosts_turn:
        enc.act(ax.EndTurn())
    return enc


def where(enc: Encounter, cid: str = "g") -> tuple[int, int]:
    pos = enc.state.get(cid).position
    assert pos is not None
    return pos


# --- moving through objects (EP-COND-16, EP-COND-20..22, EP-COND-38) ---------------------------------------

def test_ep_cond_16_an_incorporeal_creature_passes_through_a_wall_no_larger_than_itself() -> None:
    """EP-COND-16: through a one-square wall (the core's move is refused); the move costs what open ground costs
    and is a move action."""
    enc = crypt(THIN)
    assert_illegal(enc, ax.Move(path=((4, 1), (5, 1))), "wall")
    events = enc.act(PhaseMove(((4, 1), (5, 1))))
    assert where(enc) == (5, 1)
    assert "g phases to (5,1) — 10 ft" in texts(events)
    enc.act(PhaseMove(((6, 1),)))  # the standard action taken as a second move action
    assert_illegal(enc, PhaseMove(((7, 1),)), "move")


def test_ep_cond_16_not_entirely_through_an_object_larger_than_its_space() -> None:
    """EP-COND-16: into a two-square wall and along it, and back out where it went in — but not out of its far
    side; a square with no open ground next to it is refused (it must stay next to the exterior)."""
    enc = crypt(THICK)
    assert_illegal(enc, PhaseMove(((4, 1), (5, 1), (6, 1))), r"entirely through an object larger.*EP-COND-16")
    enc.act(PhaseMove(((4, 1), (4, 2), (3, 2))))
    assert where(enc) == (3, 2)
    deep = crypt(SOLID, ghost_at=(2, 1))
    assert_illegal(deep, PhaseMove(((3, 1), (4, 1))), r"next to its exterior \(EP-COND-16\)")
    deep.act(PhaseMove(((3, 1),)))
    assert where(deep) == (3, 1)  # it may stay inside the object, next to its exterior


def test_ep_cond_16_only_the_incorporeal_phase() -> None:
    """EP-COND-16: a corporeal creature has no phase move."""
    enc = crypt(THIN, conds=())
    assert_illegal(enc, PhaseMove(((4, 1),)), "neither incorporeal nor ethereal")


def test_ep_cond_20_no_passing_through_a_force_effect() -> None:
    """EP-COND-20: the GM's force squares (ep_force_squares) are never entered."""
    enc = crypt(THIN, variants={"ep_force_squares": [[4, 1]]})
    assert_illegal(enc, PhaseMove(((4, 1), (5, 1))), r"force effect.*EP-COND-20")
    enc.act(PhaseMove(((4, 2), (5, 1))))
    assert where(enc) == (5, 1)


def test_ep_cond_21_22_water_as_air_and_no_falling_into_a_pit() -> None:
    """EP-COND-21: through deep water as through air (no Swim check); EP-COND-22: over a pit and even ending above
    it — it cannot fall (the core's move refuses both squares)."""
    rows = ["..ww.o....", "..........", "..........", ".........."]
    enc = crypt(rows, ghost_at=(1, 0))
    assert_illegal(enc, ax.Move(path=((2, 0),)), "blocks")
    events = enc.act(PhaseMove(((2, 0), (3, 0), (4, 0), (5, 0))))
    assert where(enc) == (5, 0) and enc.state.get("g").hp == 20
    assert "g phases to (5,0) — 20 ft" in texts(events)
    assert not falls(enc.state.get("g")) and falls(enc.state.get("k"))


def test_ep_cond_38_an_ethereal_creature_passes_solid_objects_and_creatures() -> None:
    """EP-COND-38: an ethereal creature moves through a three-square wall and through a living creature (but ends
    in no creature's space); at half speed (EP-COND-37): 15 ft of its 30."""
    enc = crypt(SOLID, ghost_at=(2, 1), conds=("ethereal",), knight_at=(6, 1))
    incorporeal = crypt(SOLID, ghost_at=(2, 1), knight_at=(6, 1))
    assert_illegal(incorporeal, PhaseMove(((3, 1), (4, 1))), "EP-COND-16")
    assert_illegal(enc, PhaseMove(((3, 1), (4, 1), (5, 1), (5, 2))), "speed is 15 ft")
    enc.act(PhaseMove(((3, 1), (4, 1), (5, 1))))
    assert where(enc) == (5, 1)
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())
    assert_illegal(enc, PhaseMove(((6, 1),)), "cannot end in")
    enc.act(PhaseMove(((6, 1), (7, 1))))
    assert where(enc) == (7, 1)
    through = crypt(THIN, ghost_at=(5, 1), knight_at=(6, 1))
    assert_illegal(through, PhaseMove(((6, 1), (7, 1))), "only an ethereal creature")


def test_ep_cond_16_bad_paths_are_refused_and_change_nothing() -> None:
    """EP-COND-16: a path that jumps or leaves the map is refused, naming the step."""
    enc = crypt(THIN)
    before = enc.state
    assert_illegal(enc, PhaseMove(((5, 1),)), r"step 1 to \(5,1\) is not next to \(3,1\)")
    assert_illegal(enc, PhaseMove(((3, 0), (3, -1))), "off the map")
    assert_illegal(enc, PhaseMove(()), "path is empty")
    assert enc.state is before


# --- inside an object (EP-COND-17..19) ----------------------------------------------------------------------

def test_ep_cond_19_total_cover_inside_an_object() -> None:
    """EP-COND-19: an incorporeal creature inside a wall cannot be attacked (total cover)…"""
    enc = inside(knight_at=(5, 1))
    assert_illegal(enc, ax.Attack(target="g"), r"inside a solid object: total cover.*EP-COND-19")


def test_ep_cond_19_a_readied_attack_strikes_it_as_it_attacks_out_of_the_object() -> None:
    """EP-COND-19: …but attacking out of the object in its own turn it has only cover: the knight's readied attack
    (fired as the ghost's turn starts, EP-ACT-57) meets AC + 4 cover."""
    enc = inside(knight_at=(5, 1), dice=[15, 5])
    enc.act(Ready(trigger="g", target="g", attack="sword"))
    events = enc.act(ax.EndTurn())
    hit = resolved(events)
    assert hit.hit and "cover 4" in hit.explain()


def test_ep_cond_17_18_from_inside_it_senses_only_adjacent_squares_and_enemies_have_total_concealment() -> None:
    """EP-COND-17: from inside the wall its adjacent enemy has total concealment (a hit then misses on d% 50);
    EP-COND-18: an enemy farther away cannot be attacked until it emerges."""
    enc = inside(knight_at=(5, 1), dice=[18, 50], ghosts_turn=True)
    events = enc.act(ax.Attack(target="k"))
    r = resolved(events)
    assert not r.hit and "inside a solid object: total concealment (EP-COND-17)" in texts(events)
    far = inside(knight_at=(7, 1), dice=[18, 3], ghosts_turn=True)
    assert_illegal(far, ax.Attack(target="k", attack="wail"), r"must emerge.*EP-COND-17/18")
    far.act(PhaseMove(((5, 1),)))
    assert resolved(far.act(ax.Attack(target="k", attack="wail"))).hit  # emerged: no miss chance, d20 18 hits


def test_ep_cond_17_a_d_percent_over_50_hits_from_inside() -> None:
    """EP-COND-17: the 50 % is a miss chance, not a ban: d% 51 lets the hit through."""
    enc = inside(knight_at=(5, 1), dice=[18, 51, 4], ghosts_turn=True)
    assert resolved(enc.act(ax.Attack(target="k"))).hit


# --- the other traits (EP-COND-23..27) ----------------------------------------------------------------------

def test_ep_cond_23_no_maneuvers_by_or_against_an_incorporeal_creature() -> None:
    """EP-COND-23: an incorporeal creature neither takes nor is subjected to maneuvers (the maneuver rules refuse
    both, EP-MAN-06)."""
    by = crypt(THIN, ghost_at=(6, 1), knight_at=(7, 1))
    assert_illegal(by, Maneuver("k", "trip"), "incorporeal")
    against = crypt(THIN, ghost_at=(6, 1), knight_at=(7, 1), first="k")
    assert_illegal(against, Maneuver("g", "trip"), "incorporeal")


def test_ep_cond_24_25_no_weight_and_silent() -> None:
    """EP-COND-24: no weight, no weight-triggered trap; EP-COND-25: not heard with Perception unless it wishes."""
    enc = crypt(THIN)
    g, k = enc.state.get("g"), enc.state.get("k")
    assert not sets_off_weight_trap(g) and sets_off_weight_trap(k)
    assert not heard_by_perception(g) and heard_by_perception(g, wants_to_be_heard=True) and heard_by_perception(k)


def test_ep_cond_26_non_visual_senses_take_minus_10() -> None:
    """EP-COND-26: scent, blindsense, tremorsense −10 against an incorporeal creature; sight none; nothing against
    a corporeal one; an unknown sense is refused, naming it."""
    enc = crypt(THIN)
    g, k = enc.state.get("g"), enc.state.get("k")
    for sense in ("scent", "blindsense", "tremorsense"):
        mod = sense_penalty(sense, g)
        assert mod is not None and mod.value == -10 and "EP-COND-26" in mod.source
        assert sense_penalty(sense, k) is None
    assert sense_penalty("darkvision", g) is None
    with pytest.raises(RuleError, match="'sonar'"):
        sense_penalty("sonar", g)


@pytest.mark.parametrize("conds", [("incorporeal", "blinded"), ("blinded",)])
def test_ep_cond_27_full_speed_even_when_it_cannot_see(conds: tuple[str, ...]) -> None:
    """EP-COND-27 (option ep_blind_half_speed: a blinded creature at half speed): an incorporeal one keeps its
    full 30 ft; off (the default), nobody is slowed."""
    slowed = crypt(THIN, ghost_at=(6, 1), conds=conds, variants={"ep_blind_half_speed": True})
    expected = 30 if "incorporeal" in conds else 15
    assert slowed.speed_ft("g") == expected
    assert moves_full_speed_unseeing(slowed.state.get("g")) is ("incorporeal" in conds)
    assert crypt(THIN, ghost_at=(6, 1), conds=conds).speed_ft("g") == 30


def test_ep_cond_27_gm_blinding_mid_fight() -> None:
    """EP-COND-27: the speed follows the state as the GM sets it."""
    enc = crypt(THIN, ghost_at=(6, 1), conds=(), variants={"ep_blind_half_speed": True})
    enc.gm(GmCondition("g", "blinded", True))
    assert enc.speed_ft("g") == 15


# --- the ethereal's sight (EP-COND-39, EP-COND-41) ----------------------------------------------------------

def sighted(distance_squares: int, *, conds: tuple[str, ...] = ("ethereal",), dice: list[int] | None = None,
            hider_conds: tuple[str, ...] = ()) -> Encounter:
    rows = ["." * 16, "." * 16]
    return ep([{"id": "k", "side": "living", "stats": KNIGHT, "position": [0, 0], "conditions": list(hider_conds)},
               {"id": "g", "side": "dead", "stats": GHOST, "position": [distance_squares, 0],
                "conditions": list(conds)}], dice=dice or [], rows=rows)


@pytest.mark.parametrize(("squares", "hides"), [(13, True), (12, False)])
def test_ep_cond_39_an_ethereal_creature_sees_the_material_plane_only_to_60_ft(squares: int, hides: bool) -> None:
    """EP-COND-39: in plain sight the knight may still make a Stealth check against an ethereal watcher 65 ft away
    (beyond its 60-ft sight), not against one at 60 ft — nor against a material one at 65 ft."""
    enc = sighted(squares, dice=[10])
    if hides:
        events = enc.act(Hide())
        assert "beyond the ethereal g's 60-ft sight (EP-COND-39)" in texts(events)
    else:
        assert_illegal(enc, Hide(), "g sees k plainly")
    assert_illegal(sighted(13, conds=()), Hide(), "g sees k plainly")


def test_ep_cond_39_the_light_beyond_60_ft_goes_unseen_by_the_ethereal() -> None:
    """EP-COND-39 with EP-CONC-34: an ethereal creature 65 ft from an invisible torch-bearer does not notice the
    light; at 55 ft it does."""
    far = sighted(13, hider_conds=("invisible", "light"))
    far.act(ax.EndTurn())
    assert not far.state.get("g").has("noticed_light:k")
    near = sighted(11, hider_conds=("invisible", "light"))
    near.act(ax.EndTurn())
    assert near.state.get("g").has("noticed_light:k")


def test_ep_cond_41_an_effect_used_while_ethereal_affects_only_ethereal_things() -> None:
    """EP-COND-41: the ethereal ghost's effect passes over the material knight (no save rolled)."""
    enc = crypt(THIN, conds=("ethereal",), knight_at=(3, 2))
    events = enc.act(UseEffect(name="chill", targets=("k",), save="fort", dc=15, condition="shaken"))
    assert "affects only ethereal things (EP-COND-41)" in texts(events)
    assert not enc.state.get("k").has("shaken")
