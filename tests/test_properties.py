"""Hypothesis property tests over whole AI-played encounters: the engine's invariants."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from d20combat.controllers import TacticalAI, play
from d20combat.dice import SeededDice
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.apply import apply
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.replay import encounter_from_log
from d20combat.scenario import load_battle

SCENARIOS = ["examples/goblin-ambush.yaml", "examples/ogre-charge.yaml"]
ALL_RULESETS = [*SCENARIOS, "examples/off-guard-ambush.yaml", "examples/skill-duel.yaml"]
_BATTLES = {path: load_battle(path) for path in ALL_RULESETS}
PROPERTY = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _played(path: str, seed: int) -> Encounter:
    return play(Encounter(_BATTLES[path], SeededDice(seed)), TacticalAI())


@PROPERTY
@given(seed=st.integers(0, 10_000), path=st.sampled_from(ALL_RULESETS))
def test_hp_changes_only_through_damage_and_healing(seed: int, path: str) -> None:
    """HP = max − damage + healing at every step, and only damage/heal events change it."""
    enc = _played(path, seed)
    state = enc.initial
    start = {cid: c.hp for cid, c in state.combatants.items()}  # a scenario may start a creature wounded
    for event in enc.log:
        before = {cid: c.hp for cid, c in state.combatants.items()}
        state = apply(state, event)
        for cid, c in state.combatants.items():
            assert c.hp == start[cid] - c.damage_taken + c.healed
            if not isinstance(event, ev.Damaged | ev.Healed):
                assert c.hp == before[cid], f"{event.kind} changed {cid}'s hp"


@PROPERTY
@given(seed=st.integers(0, 10_000), path=st.sampled_from(SCENARIOS))
def test_no_creature_exceeds_its_action_budget(seed: int, path: str) -> None:
    """PFB-ACT-06/12/13: per turn at most one standard, one move (plus the standard as a move) and one
    free action; a full-round action uses both."""
    enc = _played(path, seed)
    spent: Counter[str] = Counter()
    for event in enc.log:
        if isinstance(event, ev.TurnStarted):
            spent = Counter()
        elif isinstance(event, ev.BudgetSpent):
            spent[event.cost] += 1
            standard_uses = spent["standard"] + spent["standard-as-move"] + spent["full-round"]
            move_uses = spent["move"] + spent["full-round"]
            assert standard_uses <= 1 and move_uses <= 1 and spent["free"] <= 1, dict(spent)


@PROPERTY
@given(seed=st.integers(0, 10_000), path=st.sampled_from(ALL_RULESETS))
def test_no_two_creatures_end_a_move_in_one_square(seed: int, path: str) -> None:
    """PFB-MOVE-12..14: a creature may end its movement in another's square only if that one is helpless.
    (A move interrupted by attacks of opportunity is logged in segments, and a segment may pause in an
    ally's square it is passing through; so the check runs at every action boundary, for the creatures
    that moved in that action. A helpless creature that recovers under another — a coup de grace survived,
    CMV-CDG-09 — shares the square until one of them moves: the texts are silent, nobody is pushed.)"""
    enc = _played(path, seed)
    state = enc.initial
    moved: set[str] = set()
    for event in enc.log:
        state = apply(state, event)
        if isinstance(event, ev.Moved):
            moved.add(event.combatant)
        if not isinstance(event, ev.BudgetSpent | ev.TurnEnded):
            continue
        for cid in sorted(moved):
            if not enc.on_map(cid, state):
                continue
            mine = set(enc.footprint(cid, state).squares())
            assert all(enc.battle.game_map.is_passable(sq) for sq in mine)
            if enc.is_helpless(cid, state):
                continue
            for other in state.combatants:
                if other == cid or enc.is_helpless(other, state) or not enc.on_map(other, state):
                    continue
                shared = mine & set(enc.footprint(other, state).squares())
                assert not shared, f"{cid} ended a move in {sorted(shared)}, where {other} stands"
        moved.clear()


@PROPERTY
@given(seed=st.integers(0, 10_000), path=st.sampled_from(ALL_RULESETS))
def test_replay_is_byte_identical(seed: int, path: str) -> None:
    """Same seed + same decisions ⇒ byte-identical event log; the log rebuilds the same final state."""
    first = _played(path, seed)
    second = _played(path, seed)
    log1 = "\n".join(e.to_json() for e in first.log)
    assert log1 == "\n".join(e.to_json() for e in second.log)
    rebuilt = encounter_from_log([ev.event_from_dict(__import__("json").loads(line)) for line in log1.split("\n")])
    assert rebuilt.state == first.state


@PROPERTY
@given(
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 30),
    action=st.one_of(
        st.builds(ax.Move, to=st.tuples(st.integers(-2, 25), st.integers(-2, 15))),
        st.builds(ax.Step, to=st.tuples(st.integers(-1, 21), st.integers(-1, 14))),
        st.builds(ax.Attack, target=st.sampled_from(["valeros", "goblin-1", "leader", "archer-2", "nobody"])),
        st.builds(ax.Charge, target=st.sampled_from(["valeros", "goblin-1", "leader", "kyra"])),
        st.builds(ax.Draw, attack=st.sampled_from(["longsword", "shortbow", "rapier", "nothing"])),
        st.just(ax.StandUp()),
        st.just(ax.ShieldAction("drop")),
        st.builds(ax.Activity, name=st.sampled_from(["speak", "lift-gate", "cast-spell"])),
    ),
)
def test_an_illegal_action_leaves_the_state_unchanged(seed: int, steps: int, action: ax.Action) -> None:
    """Whatever the controller asks: either it is legal, or IllegalAction is raised and nothing changed."""
    enc = Encounter(_BATTLES[SCENARIOS[0]], SeededDice(seed))
    enc.start()
    ai = TacticalAI()
    for _ in range(steps):
        if enc.state.ended:
            return
        enc.act(ai.choose(enc))
    if enc.state.ended:
        return
    before, log_len = enc.state, len(enc.log)
    problem = enc.check(action)
    if problem is None:
        enc.act(action)
        assert enc.state.version > before.version
    else:
        with pytest.raises(IllegalAction):
            enc.act(action)
        assert enc.state is before and len(enc.log) == log_len


@PROPERTY
@given(seed=st.integers(0, 10_000), path=st.sampled_from(ALL_RULESETS))
def test_no_pool_ever_goes_negative(seed: int, path: str) -> None:
    """Whatever the ruleset's pools are called (standard/move/free, complex/basic, reserve, aoo), no action
    and no reaction ever spends what is not there."""
    enc = _played(path, seed)
    state = enc.initial
    for event in enc.log:
        state = apply(state, event)
        if state.turn is not None:
            assert all(v >= 0 for v in state.turn.pools.values()), (event, dict(state.turn.pools))
        for c in state.combatants.values():
            assert all(v >= 0 for v in c.reactions.values()), (event, c.id, dict(c.reactions))


@PROPERTY
@given(seed=st.integers(0, 10_000), path=st.sampled_from(ALL_RULESETS))
def test_no_event_has_hit_false_and_critical_true(seed: int, path: str) -> None:
    """Issue 11 (PFB-CRIT-01..04 with CMV-CONC-08): a miss never threatens, so no attack is a critical miss —
    not even a natural 20 whose hit is lost afterwards (concealment, a wrong square, a fumble, a block)."""
    enc = _played(path, seed)
    for event in enc.log:
        if isinstance(event, ev.AttackResolved):
            assert event.hit or not event.critical, event
