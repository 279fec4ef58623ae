"""The tactical AI plays Epic Path sensibly (issue 15): it spends action points when they buy an attack, fights
defensively when outmatched, throws splash weapons into groups (and never swings a flask), spots an invisible foe
before swinging blind, gropes where an unseen foe was last known, and aids an ally against a foe it cannot hit.
Each situation is built so that the sensible choice is unambiguous."""

from __future__ import annotations

from tests.rules.ep._util import FIGHTER, armored, ep, stats, texts

from d20combat.controllers import TacticalAI
from d20combat.encounter import actions as ax
from d20combat.encounter.engine import Encounter
from d20combat.encounter.gm_actions import GmCondition
from d20combat.rulesets.epic_path.invisibility import Grope, Spot
from d20combat.rulesets.epic_path.melee import FightDefensively
from d20combat.rulesets.epic_path.seeing import pinpointed_square
from d20combat.rulesets.epic_path.splash import ThrowSplash
from d20combat.rulesets.epic_path.strikes import AidAnother
from d20combat.rulesets.epic_path.turn_actions import SpendActionPoint

GOBLIN = stats("goblin", attack_bonus=1, hp=6, attacks=[{"weapon": "club"}])
SEEKER = stats("seeker", attack_bonus=3, skills={"perception": 5}, attacks=[{"weapon": "club"}])


def choose(enc: Encounter) -> ax.Action:
    return TacticalAI().choose(enc)


# ------------------------------------------------------------------------------------------------ action points
def test_ep_misc_23_ai_keeps_its_point_when_nothing_is_left_to_hit() -> None:
    """EP-MISC-22, EP-MISC-23: in round 2 the AI spends its point after an attack that leaves the foe standing (the
    point buys a standard action: another attack), and keeps it when its attack dropped the only foe in reach."""
    tough = stats("b", hp=80, attacks=[{"weapon": "club"}])
    enc = ep([{"id": "a", "side": "x", "stats": FIGHTER, "position": [0, 0]},
              {"id": "b", "side": "y", "stats": tough, "position": [1, 0]}], dice=[2, 2])
    enc.act(ax.EndTurn())
    enc.act(ax.EndTurn())                       # round 2
    enc.act(ax.Attack("b"))                     # d20 2: a miss
    assert isinstance(choose(enc), SpendActionPoint)
    weak = ep([{"id": "a", "side": "x", "stats": FIGHTER, "position": [0, 0]},
               {"id": "b", "side": "y", "stats": GOBLIN, "position": [1, 0]},
               {"id": "far", "side": "y", "stats": GOBLIN, "position": [11, 11]}], dice=[18, 6])
    weak.act(ax.EndTurn())
    weak.act(ax.EndTurn())
    weak.act(ax.EndTurn())                      # round 2
    weak.act(ax.Attack("b"))                    # 18 hits, 1d6 6 + 0: the goblin drops
    assert weak.state.get("b").hp <= 0
    assert not isinstance(choose(weak), SpendActionPoint)


# ------------------------------------------------------------------------------------------------ defensively
def test_ep_def_02_ai_at_half_hit_points_with_a_foe_on_it_fights_defensively() -> None:
    """EP-DEF-02, EP-DEF-03: a creature at half its hit points or less, a foe in reach, fights defensively; the same
    creature unhurt against a weak goblin attacks."""
    hurt = ep([{"id": "a", "side": "x", "stats": stats("a", hp=20, attack_bonus=3, attacks=[{"weapon": "club"}]),
                "position": [2, 2], "hp": 10},
               {"id": "g", "side": "y", "stats": GOBLIN, "position": [3, 2]}])
    assert isinstance(choose(hurt), FightDefensively)
    fresh = ep([{"id": "a", "side": "x", "stats": stats("a", hp=20, attack_bonus=3, attacks=[{"weapon": "club"}]),
                 "position": [2, 2]},
                {"id": "g", "side": "y", "stats": GOBLIN, "position": [3, 2]}])
    assert isinstance(choose(fresh), ax.Attack)


# ------------------------------------------------------------------------------------------------ splash weapons
LEM = stats("lem", attack_bonus=2, attacks=[{"weapon": "alchemists-fire"}, {"weapon": "dagger"}])


def test_ep_splash_05_ai_draws_a_flask_when_foes_bunch_up_out_of_reach() -> None:
    """EP-SPLASH-05: dagger in hand and three goblins bunched up out of reach, the AI draws its flask (a throw there
    splashes the other two); against a lone goblin it keeps the dagger. Once its flask is thrown at the lone
    goblin (a natural 1 that scatters), its hand is empty and it draws the dagger, not another flask."""
    dagger = {**LEM, "wielding": "dagger"}
    bunch = ep([{"id": "lem", "side": "a", "stats": dagger, "position": [0, 0]},
                {"id": "g1", "side": "b", "stats": GOBLIN, "position": [6, 6]},
                {"id": "g2", "side": "b", "stats": GOBLIN, "position": [7, 6]},
                {"id": "g3", "side": "b", "stats": GOBLIN, "position": [6, 7]}])
    assert choose(bunch) == ax.Draw("alchemists-fire")
    lone = ep([{"id": "lem", "side": "a", "stats": dagger, "position": [0, 0]},
               {"id": "g1", "side": "b", "stats": GOBLIN, "position": [6, 6]}])
    assert choose(lone) != ax.Draw("alchemists-fire")
    thrown = ep([{"id": "lem", "side": "a", "stats": {**LEM, "wielding": "alchemists-fire"}, "position": [0, 0]},
                 {"id": "g1", "side": "b", "stats": GOBLIN, "position": [4, 4]}], dice=[1, 1, 10])
    assert choose(thrown) == ThrowSplash("alchemists-fire", "g1")
    thrown.act(ThrowSplash("alchemists-fire", "g1"))
    assert thrown.state.get("lem").wielding is None
    assert choose(thrown) == ax.Draw("dagger")


def test_ep_splash_05_ai_never_swings_a_flask_and_never_splashes_a_friend() -> None:
    """EP-SPLASH-05/06: the flask in hand, the only foe stands next to Lem's friend (the splash would burn the
    friend): Lem neither throws it there nor attacks with it as an ordinary weapon — he draws his dagger."""
    enc = ep([{"id": "lem", "side": "a", "stats": {**LEM, "wielding": "alchemists-fire"}, "position": [0, 0]},
              {"id": "friend", "side": "a", "stats": stats("friend", attacks=[{"weapon": "club"}]),
               "position": [5, 5]},
              {"id": "g1", "side": "b", "stats": GOBLIN, "position": [6, 5]}])
    action = choose(enc)
    assert not isinstance(action, ThrowSplash) and not isinstance(action, ax.Attack)
    assert action == ax.Draw("dagger")
    clear = ep([{"id": "lem", "side": "a", "stats": {**LEM, "wielding": "alchemists-fire"}, "position": [0, 0]},
                {"id": "friend", "side": "a", "stats": stats("friend", attacks=[{"weapon": "club"}]),
                 "position": [1, 11]},
                {"id": "g1", "side": "b", "stats": GOBLIN, "position": [6, 5]}])
    assert choose(clear) == ThrowSplash("alchemists-fire", "g1")


# ------------------------------------------------------------------------------------------------ the unseen
def test_ep_conc_21_ai_spots_an_invisible_foe_before_swinging_blind() -> None:
    """EP-CONC-20, EP-CONC-21, EP-CONC-22, EP-CONC-23: the only foe is invisible, unlocated and in reach: the AI
    spends its move action on a Spot check (Perception d20 15 + 5 = 20 ≥ the Average DC 15 for CR 0) and, the square
    now known, attacks it with the standard action left. A visible foe it can fight instead means no Spot; an
    invisible foe 10 ft off is closed in on first, and one beyond 30 ft cannot be spotted at all."""
    enc = ep([{"id": "s", "side": "x", "stats": SEEKER, "position": [1, 2]},
              {"id": "g", "side": "y", "stats": GOBLIN, "position": [2, 2], "conditions": ["invisible"]}],
             dice=[15])
    assert choose(enc) == Spot()
    events = enc.act(Spot())
    assert pinpointed_square(enc.view(enc.state), "s", "g") == (2, 2), texts(events)
    assert "Average DC for CR 0" in texts(events)
    follow = choose(enc)
    assert isinstance(follow, ax.Attack) and follow.target == "g"
    mixed = ep([{"id": "s", "side": "x", "stats": SEEKER, "position": [1, 2]},
                {"id": "g", "side": "y", "stats": GOBLIN, "position": [2, 2], "conditions": ["invisible"]},
                {"id": "v", "side": "y", "stats": GOBLIN, "position": [1, 3]}])
    assert choose(mixed) != Spot()
    for where in ([3, 2], [8, 8]):
        off = ep([{"id": "s", "side": "x", "stats": SEEKER, "position": [1, 2]},
                  {"id": "g", "side": "y", "stats": GOBLIN, "position": where, "conditions": ["invisible"]}])
        assert isinstance(choose(off), ax.Move), where


def test_ep_conc_25_ai_gropes_where_the_unseen_foe_was_last_known() -> None:
    """EP-CONC-25, EP-CONC-26, EP-CONC-27: the Spot check failed (d20 1), the move action is spent; the AI knew the
    invisible goblin at (2,2), which it has since left for (2,3): the AI gropes (2,2) and a neighbouring square
    within its reach — a standard action, a touch attack, no damage."""
    enc = ep([{"id": "s", "side": "x", "stats": SEEKER, "position": [1, 2]},
              {"id": "g", "side": "y", "stats": GOBLIN, "position": [2, 3], "conditions": ["invisible"]}],
             dice=[1])
    enc.gm(GmCondition("s", "pinpointing:g:2:2", present=True))
    assert pinpointed_square(enc.view(enc.state), "s", "g") is None  # stale: it moved (EP-CONC-27)
    enc.act(Spot())
    action = choose(enc)
    assert isinstance(action, Grope) and action.squares[0] == (2, 2)
    partner = action.squares[1]
    assert max(abs(partner[0] - 2), abs(partner[1] - 2)) == 1 and max(abs(partner[0] - 1), abs(partner[1] - 2)) <= 1
    without_knowledge = ep([{"id": "s", "side": "x", "stats": SEEKER, "position": [1, 2]},
                            {"id": "g", "side": "y", "stats": GOBLIN, "position": [2, 3],
                             "conditions": ["invisible"]}], dice=[1])
    without_knowledge.act(Spot())
    assert not isinstance(choose(without_knowledge), Grope)


# ------------------------------------------------------------------------------------------------ aid another
def test_ep_misc_01_ai_aids_an_ally_against_a_foe_it_cannot_hit() -> None:
    """EP-MISC-01, EP-MISC-02, EP-MISC-03: a squire (+0) next to a knight in AC 30 hits only on a natural 20; the
    veteran (+15) beside it hits far more often: the squire aids the veteran's next attack (+2). Without the
    veteran it attacks anyway; a squire that can hit attacks."""
    squire = stats("squire", attack_bonus=0, attacks=[{"weapon": "club"}])
    veteran = stats("veteran", attack_bonus=15, attacks=[{"weapon": "club"}])
    knight = armored("knight", 20, hp=60)
    enc = ep([{"id": "squire", "side": "x", "stats": squire, "position": [2, 2]},
              {"id": "veteran", "side": "x", "stats": veteran, "position": [3, 3]},
              {"id": "knight", "side": "y", "stats": knight, "position": [3, 2]}])
    assert choose(enc) == AidAnother(ally="veteran", opponent="knight", bonus="attack")
    alone = ep([{"id": "squire", "side": "x", "stats": squire, "position": [2, 2]},
                {"id": "knight", "side": "y", "stats": knight, "position": [3, 2]}])
    assert not isinstance(choose(alone), AidAnother)
    able = ep([{"id": "squire", "side": "x", "stats": squire, "position": [2, 2]},
               {"id": "veteran", "side": "x", "stats": veteran, "position": [3, 3]},
               {"id": "knight", "side": "y", "stats": armored("knight", 2, hp=60), "position": [3, 2]}])
    assert not isinstance(choose(able), AidAnother)
