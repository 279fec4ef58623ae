"""The core reaction window, ruleset-neutral: a test ruleset that gives every creature one attack of
opportunity per round and a 'parry' after the roll exercises pause, resume, replayed dice and undo."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.conftest import make_encounter

from d20combat.controllers import TacticalAI, play
from d20combat.dice import ScriptedDice, SeededDice
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.dice_probe import probe_answer, probe_dice
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.encounter.prompts import ReactionPrompt
from d20combat.encounter.state import CombatantState, EncounterState
from d20combat.model.creature import AttackOption, Creature
from d20combat.rulesets import RULESETS
from d20combat.rulesets.base import AttackInfo, Policies, View
from d20combat.rulesets.components import NoActiveDefense, NoReactions, StandardMoveEconomy
from d20combat.rulesets.pathfinder_beginner import PathfinderBeginner


class _ReachReactions(NoReactions):
    def threat_reach(self, creature: Creature, state: CombatantState) -> int:
        return creature.reach_ft

    def can_make_aoo(self, view: View, reactor: str, target: str) -> bool:
        return True

    def movement_provokes(self, mode: str) -> bool:
        return mode in ("move", "charge")

    def action_provokes(self, action_kind: str, option: AttackOption | None) -> str | None:
        return "stands up in a threatened square" if action_kind == "stand_up" else None


class _ParryEconomy(StandardMoveEconomy):
    def round_reactions(self, creature: Creature, state: CombatantState) -> dict[str, int]:
        return {"aoo": 1, "parry": 1}


class _Parry(NoActiveDefense):
    def active_defense_options(self, view: View, attack: AttackInfo, total: int) -> tuple[str, ...]:
        return ("parry",) if view.state.get(attack.target).reactions.get("parry", 0) > 0 else ()

    def resolve_active_defense(self, view: View, attack: AttackInfo, choice: str, total: int) -> tuple[bool, str]:
        view.emit(ev.ReactionSpent(attack.target, "parry", "parry"))
        face = view.dice.roll(20, f"parry {attack.target}")
        return face >= total, f"parry {face} vs {total}: {'negated' if face >= total else 'fails'}"


class Reactive(PathfinderBeginner):
    id = "test-reactive"

    @classmethod
    def compose(cls, options: Any) -> Policies:
        return super().compose(options).replace(reactions=_ReachReactions(), economy=_ParryEconomy(),
                                                active_defense=_Parry())

    def reaction_preference(self, state: EncounterState, prompt: ReactionPrompt) -> str:
        return "parry" if "parry" in prompt.options else prompt.options[-1]


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    RULESETS[Reactive.id] = Reactive
    yield
    del RULESETS[Reactive.id]


def _duel(dice: list[int], **extra: Any) -> Encounter:
    return make_encounter([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [2, 1]},
    ], dice=dice, ruleset=Reactive.id, **extra)


def test_leaving_a_threatened_square_pauses_the_move_until_the_reactor_answers() -> None:
    enc = _duel([18, 3])
    before, log_len = enc.state, len(enc.log)
    assert enc.act(ax.Move(to=(1, 5))) == []
    assert enc.state is before and len(enc.log) == log_len  # nothing committed while waiting
    decision = enc.decision()
    assert decision is not None and decision.prompt is not None
    assert decision.actor == "g" and decision.prompt.kind == "attack_of_opportunity"
    assert decision.prompt.options == ("attack", "decline")
    with pytest.raises(IllegalAction, match="waiting for g's reaction"):
        enc.act(ax.EndTurn())
    with pytest.raises(IllegalAction, match="not one of"):
        enc.respond("dance")
    # The fighter may parry the attack of opportunity: a second window inside the first.
    assert enc.respond("attack") == []
    assert enc.decision().prompt.kind == "active_defense"  # type: ignore[union-attr]
    events = enc.respond("none")
    kinds = [e.kind for e in events]
    assert kinds.index("reaction_spent") < kinds.index("attack_resolved") < kinds.index("moved")
    assert enc.state.get("f").position == (1, 5)
    assert enc.state.get("g").reactions["aoo"] == 0
    assert enc.pending is None


def test_declining_lets_the_move_finish_and_no_dice_are_rolled_twice() -> None:
    enc = _duel([])
    enc.act(ax.Move(to=(1, 5)))
    events = enc.respond("decline")
    assert [e.kind for e in events if e.kind in ("moved", "attack_resolved")] == ["moved"]
    assert enc.state.get("f").position == (1, 5)


def test_dice_rolled_before_a_prompt_are_replayed_not_rerolled() -> None:
    """The attack roll happens before the parry window; resuming must not roll it again."""
    dice = ScriptedDice([15, 1, 4])  # attack 15; parry 1 (fails); damage 4
    enc = make_encounter([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [2, 1]},
    ], ruleset=Reactive.id)
    enc.dice = dice
    enc.act(ax.Attack("g"))
    assert enc.pending is not None and enc.pending.prompt.kind == "active_defense"
    events = enc.respond("parry")
    assert dice.remaining == 0
    damage = next(e for e in events if isinstance(e, ev.Damaged))
    assert damage.amount == 4 + 3  # 1d8 4 + Str 3
    attack = next(e for e in events if isinstance(e, ev.AttackResolved))
    assert any("parry 1 vs 20" in line for line in attack.lines)


def test_a_successful_parry_negates_the_hit() -> None:
    enc = _duel([15, 20])
    enc.act(ax.Attack("g"))
    events = enc.respond("parry")
    attack = next(e for e in events if isinstance(e, ev.AttackResolved))
    assert not attack.hit and not any(isinstance(e, ev.Damaged) for e in events)


def test_undo_while_waiting_drops_the_half_asked_action() -> None:
    enc = _duel([])
    before = enc.state
    enc.act(ax.Move(to=(1, 5)))
    assert enc.undo()
    assert enc.pending is None and enc.state is before
    assert enc.check(ax.Move(to=(1, 5))) is None


def test_a_mover_dropped_by_the_attack_of_opportunity_stops() -> None:
    enc = make_encounter([
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [1, 1]},
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [2, 1]},
    ], dice=[18, 8], ruleset=Reactive.id)
    enc.act(ax.Move(to=(1, 6)))
    enc.respond("attack")
    enc.respond("none")  # the goblin does not parry… it has no chance to anyway
    assert enc.state.get("g").position == (1, 1)
    assert enc.state.get("g").hp <= 0


def test_a_distracting_act_provokes_before_it_happens() -> None:
    enc2 = make_encounter([
        {"id": "f", "side": "heroes", "stats": "fighter", "position": [1, 1], "conditions": ["prone"]},
        {"id": "g", "side": "goblins", "stats": "goblin", "position": [2, 1]},
    ], dice=[], ruleset=Reactive.id)
    assert enc2.act(ax.StandUp()) == []
    assert enc2.pending is not None and "stands up" in enc2.pending.prompt.trigger
    enc2.respond("decline")
    assert not enc2.state.get("f").has("prone")
    assert enc2.pending is None


def test_ai_battles_with_reactions_are_reproducible() -> None:
    def run(seed: int) -> str:
        # The archer starts between two fighters: it must move away to shoot, which provokes.
        enc = Encounter(make_encounter([
            {"id": "a", "side": "goblins", "stats": "goblin-archer", "position": [5, 5]},
            {"id": "f", "side": "heroes", "stats": "fighter", "position": [4, 5]},
            {"id": "k", "side": "heroes", "stats": "cleric", "position": [6, 5]},
        ], ruleset=Reactive.id, start=False).battle, SeededDice(seed))
        play(enc, TacticalAI())
        assert enc.state.ended
        return "\n".join(e.to_json() for e in enc.log)

    assert run(5) == run(5)
    assert "attack of opportunity against a" in run(5)


def test_the_dice_probe_stops_at_a_prompt_and_then_probes_the_answer() -> None:
    """Issue 13, item 1: a provoking move rolls nothing before the goblin's prompt; after 'attack' the engine
    asks for the attack of opportunity's d20, and after that die it pauses at the fighter's parry prompt."""
    enc = _duel([])
    probe = probe_dice(enc, ax.Move(to=(1, 5)))
    assert probe.prompt is not None and probe.prompt.kind == "attack_of_opportunity" and probe.typed == ()
    assert enc.act(ax.Move(to=(1, 5))) == [] and enc.pending is not None
    after = probe_answer(enc, "attack")
    assert after.next is not None and (after.next.sides, after.next.purpose) == (20, "attack g->f")
    parry = probe_answer(enc, "attack", [(20, 18)])
    assert parry.prompt is not None and parry.prompt.kind == "active_defense"
    assert probe_answer(enc, "dance").error is not None
    assert probe_dice(enc, ax.EndTurn()).error == "waiting for g's reaction"
