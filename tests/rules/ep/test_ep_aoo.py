"""Epic Path's attacks of opportunity (EP-AOO-01..19)."""

from __future__ import annotations

import pytest
from tests.rules.ep._util import FIGHTER, ep, resolved, stats, texts

from d20combat.encounter import actions as ax
from d20combat.rulesets.epic_path.melee import FullAttack

GUARD = stats("guard", attack_bonus=5, attacks=[{"weapon": "club"}])


@pytest.mark.parametrize(("feats", "offered"), [((), False), (("Combat Reflexes",), True),
                                                (("uncanny-dodge",), True)])
def test_ep_aoo_18_19_flat_footed_no_aoo_unless_combat_reflexes_or_uncanny_dodge(feats: tuple[str, ...],
                                                                                 offered: bool) -> None:
    """EP-AOO-18: a flat-footed creature (here: surprised, in the surprise round) makes no attacks of opportunity
    unless it has Combat Reflexes; EP-AOO-19: one with uncanny dodge makes them before it has acted."""
    guard = stats("guard", attack_bonus=5, attacks=[{"weapon": "club"}], feats=list(feats))
    enc = ep([{"id": "m", "side": "a", "stats": FIGHTER, "position": [2, 2]},
              {"id": "g", "side": "b", "stats": guard, "position": [3, 2]}], surprise={"surprised": ["g"]})
    assert enc.state.surprise_round
    enc.act(ax.Move(to=(0, 2)))
    assert (enc.pending is not None) is offered


def test_ep_aoo_10_11_one_per_enemy_per_action_each_enemy_its_own() -> None:
    """EP-AOO-10: a move leaving several squares one enemy threatens provokes it once; EP-AOO-11: two enemies each
    get theirs."""
    enc = ep([{"id": "m", "side": "a", "stats": FIGHTER, "position": [2, 2]},
              {"id": "g", "side": "b", "stats": GUARD, "position": [3, 3]},
              {"id": "k", "side": "b", "stats": GUARD, "position": [1, 3]}], dice=[1, 1])
    enc.act(ax.Move(path=((2, 3), (2, 4), (2, 5))))  # past both guards, leaving three squares each threatens
    asked = []
    while enc.pending is not None:
        asked.append(enc.pending.prompt.reactor)
        enc.respond("attack")
    assert sorted(asked) == ["g", "k"] and enc.state.get("m").position == (2, 5)


def test_ep_aoo_08_13_moving_into_a_threatened_square_does_not_provoke_and_aoo_is_optional() -> None:
    """EP-AOO-08: moving into a threatened square provokes nothing; EP-AOO-13: declining is allowed and costs
    nothing."""
    enc = ep([{"id": "m", "side": "a", "stats": FIGHTER, "position": [0, 2]},
              {"id": "g", "side": "b", "stats": GUARD, "position": [3, 2]}])
    enc.act(ax.Move(to=(2, 2)))
    assert enc.pending is None
    enc.act(ax.Move(to=(2, 5)))
    assert enc.pending is not None
    enc.respond("decline")
    assert enc.state.get("g").reactions["aoo"] == 1 and enc.state.get("m").position == (2, 5)


def test_ep_aoo_14_at_the_highest_bonus_even_after_a_full_attack() -> None:
    """EP-AOO-14: an attack of opportunity uses the highest attack bonus, whatever attacks came before."""
    vet = stats("vet", attack_bonus=11, attacks=[{"weapon": "club"}])
    enc = ep([{"id": "v", "side": "a", "stats": vet, "position": [2, 2]},
              {"id": "g", "side": "b", "stats": GUARD, "position": [3, 2]}], dice=[1, 1, 1, 1])
    for _ in range(3):
        enc.act(FullAttack("g"))
    enc.act(ax.EndTurn())
    enc.act(ax.Move(to=(6, 2)))
    events = enc.respond("attack")
    assert "d20 1 + BAB 11 vs AC" in texts(events)


def test_ep_aoo_15_16_the_provoker_goes_on_unless_it_drops() -> None:
    """EP-AOO-15, EP-AOO-16: the attack of opportunity is resolved first; the move goes on after a hit that leaves the
    mover standing, and stops where it was when the hit takes it below 0 hit points."""
    enc = ep([{"id": "m", "side": "a", "stats": stats("m", hp=20), "position": [2, 2]},
              {"id": "g", "side": "b", "stats": GUARD, "position": [3, 2]}], dice=[15, 3])
    enc.act(ax.Move(to=(0, 2)))
    events = enc.respond("attack")
    assert resolved(events).hit and enc.state.get("m").position == (0, 2)
    frail = ep([{"id": "m", "side": "a", "stats": stats("m", hp=20), "position": [2, 2], "hp": 2},
                {"id": "g", "side": "b", "stats": GUARD, "position": [3, 2]}], dice=[15, 5])
    frail.act(ax.Move(to=(0, 2)))
    frail.respond("attack")
    assert frail.state.get("m").hp < 0 and frail.state.get("m").position == (2, 2)


def test_ep_aoo_02_17_unarmed_or_holding_a_bow_threatens_nothing() -> None:
    """EP-AOO-02: an unarmed creature threatens no square; EP-AOO-17: an attack of opportunity is a melee attack,
    so a creature holding a bow threatens nothing either."""
    for guard in (stats("g", attacks=[]),
                  stats("g", attacks=[{"weapon": "longbow"}], wielding="longbow")):
        enc = ep([{"id": "m", "side": "a", "stats": FIGHTER, "position": [2, 2]},
                  {"id": "g", "side": "b", "stats": guard, "position": [3, 2]}])
        enc.act(ax.Move(to=(0, 2)))
        assert enc.pending is None


def test_ep_aoo_03_04_reach_threatens_farther() -> None:
    """EP-AOO-03, EP-AOO-04: a Medium creature threatens 5 ft; a Large one with 10 ft natural reach threatens squares
    two
    away, so leaving one provokes."""
    ogre = stats("ogre", size="large", attack_bonus=5, attacks=[{"weapon": "club"}])
    enc = ep([{"id": "m", "side": "a", "stats": FIGHTER, "position": [2, 2]},
              {"id": "o", "side": "b", "stats": ogre, "position": [4, 2]}])
    enc.act(ax.Move(to=(0, 2)))
    assert enc.pending is not None and enc.pending.prompt.reactor == "o"


def test_ep_aoo_05_09_only_movement_provokes_in_this_text() -> None:
    """EP-AOO-05, EP-AOO-09: the text names no provoking act besides movement, so drinking a potion or drawing a
    weapon in
    a threatened square provokes nothing."""
    enc = ep([{"id": "m", "side": "a", "stats": FIGHTER, "position": [2, 2]},
              {"id": "g", "side": "b", "stats": GUARD, "position": [3, 2]}])
    enc.act(ax.Activity("drink-potion"))
    enc.act(ax.Draw("dagger-thrown"))
    assert enc.pending is None and enc.state.get("g").reactions["aoo"] == 1
