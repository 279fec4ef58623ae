"""The library refuses bad input with its own errors (issue 12, item 4): every refusal is a ``D20CombatError`` (a
``ValueError``) naming the problem — an action is refused with ``IllegalAction`` and changes nothing — and no
``AttributeError``, ``KeyError``, ``TypeError`` or ``RecursionError`` escapes, whatever the input."""

from __future__ import annotations

import dataclasses
import types
from functools import cache
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from d20combat.dice import SeededDice
from d20combat.encounter import actions as ax
from d20combat.encounter.battle import Battle
from d20combat.encounter.engine import Encounter
from d20combat.encounter.registry import CORE_ACTIONS, ActionRegistry
from d20combat.encounter.resolution import IllegalAction, action_catalogue
from d20combat.errors import D20CombatError
from d20combat.rulesets import RULESETS, get_ruleset
from d20combat.rulesets.off_guard.actions import CastSpell as OffGuardCastSpell
from d20combat.rulesets.skill_based.actions import CastSpell as SkillCastSpell
from d20combat.scenario import load_battle

EXAMPLES = {"pathfinder-beginner": "examples/goblin-ambush.yaml", "off-guard": "examples/goblin-ambush.yaml",
            "skill-based": "examples/skill-duel.yaml"}
"""A battle of each ruleset (``off-guard``: the demo map and creatures played by its rules)."""


@cache
def _battle(ruleset: str) -> Battle:
    return load_battle(EXAMPLES[ruleset], ruleset)


def _started(ruleset: str, seed: int = 1) -> Encounter:
    enc = Encounter(_battle(ruleset), SeededDice(seed))
    enc.start()
    return enc


def _refused(enc: Encounter, action: ax.Action) -> str:
    """``act`` raises IllegalAction, ``check`` says why, and nothing changes; the message."""
    before, log_len = enc.state, len(enc.log)
    assert enc.check(action) is not None
    with pytest.raises(IllegalAction) as info:
        enc.act(action)
    assert enc.state is before and len(enc.log) == log_len
    return str(info.value)


# ------------------------------------------------------------------------------------------ the reproductions
def test_the_error_family_is_one_and_a_value_error() -> None:
    import d20combat.errors as errors

    assert issubclass(D20CombatError, ValueError)
    for name in errors.__all__:
        assert issubclass(getattr(errors, name), D20CombatError), name
    assert errors.IllegalAction is IllegalAction and errors.ActionFormatError is ax.ActionFormatError


@pytest.mark.parametrize(("ruleset", "action", "owner"), [
    ("pathfinder-beginner", SkillCastSpell("ray-of-frost", "leader"), "skill-based"),
    ("pathfinder-beginner", OffGuardCastSpell("sleep"), "off-guard"),
    ("off-guard", SkillCastSpell("ray-of-frost", "leader"), "skill-based"),
    ("skill-based", OffGuardCastSpell("ray-of-frost"), "off-guard"),
])
def test_an_action_of_another_ruleset_is_refused_by_name(ruleset: str, action: ax.Action, owner: str) -> None:
    """Each ruleset's cast_spell has its own fields: the registry refuses the other's before anything reads them."""
    enc = _started(ruleset)
    assert _refused(enc, action) == f"cast_spell ({owner}) is not an action of the ruleset {ruleset}"


def test_the_registry_names_what_it_refuses() -> None:
    from d20combat.rulesets.skill_based.actions import Feint

    registry = ActionRegistry(get_ruleset("pathfinder-beginner"))
    with pytest.raises(IllegalAction, match=r"^feint \(skill-based\) is not an action of the ruleset "
                                            r"pathfinder-beginner$"):
        registry.handler(Feint("x"))
    with pytest.raises(IllegalAction, match=r"^str \(not an action\) is not an action of the ruleset"):
        registry.handler("move")  # type: ignore[arg-type]
    enc = _started("skill-based")
    with pytest.raises(IllegalAction, match=r"not an action"):
        enc.act(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(("data", "message"), [
    ({"kind": "shield", "what": "juggle"}, "shield.what: shield has no such field (its fields: op)"),
    ({"kind": "shield", "op": "juggle"}, "shield.op: 'juggle' is not one of 'strap', 'remove', 'drop'"),
    ({"kind": "move", "shield": "juggle"}, "move.shield: 'juggle' is not one of 'strap', 'remove' or null"),
    ({"kind": "move", "to": 5}, "move.to: 5 is not [an integer, an integer] or null"),
    ({"kind": "move", "path": [[1, 2], [3]]}, "move.path: [[1, 2], [3]] is not a list of ([an integer, an integer])"
                                              " or null"),
    ({"kind": "attack", "target": 3}, "attack.target: 3 is not a string"),
    ({"kind": "attack", "target": "g", "critical": True}, "attack.critical: True is not an integer"),
    ({"kind": "step", "to": [1.5, 2]}, "step.to[0]: 1.5 is not an integer"),
    ({"to": [1, 2]}, "unknown action kind missing; known: "),
    ({"kind": ["move"]}, "unknown action kind ['move']; known: "),
    ({"kind": "juggle"}, "unknown action kind 'juggle'; known: "),
])
def test_action_data_that_makes_no_action_is_refused_naming_the_field(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ax.ActionFormatError) as info:
        ax.action_from_dict(data)
    assert str(info.value).startswith(message)
    assert isinstance(info.value, ValueError)  # what the server's and the console's handlers catch


def test_well_formed_action_data_still_makes_its_action() -> None:
    assert ax.action_from_dict({"kind": "move", "to": [3, 4], "shield": "strap"}) == ax.Move(to=(3, 4), shield="strap")
    assert ax.action_from_dict({"kind": "move", "path": [[1, 1], [2, 2]]}) == ax.Move(path=((1, 1), (2, 2)))
    assert ax.action_from_dict({"kind": "attack", "target": "g", "square": None}) == ax.Attack("g")
    assert ax.action_from_dict({"kind": "shield", "op": "drop"}) == ax.ShieldAction("drop")
    skill = ActionRegistry(get_ruleset("skill-based"))
    assert skill.from_dict({"kind": "two_weapon_fighting", "on": False}).to_dict() == {
        "kind": "two_weapon_fighting", "on": False}


def test_before_start_every_question_says_call_start_first() -> None:
    enc = Encounter(_battle("pathfinder-beginner"), SeededDice(1))
    message = "the encounter has not started: call start() first"
    with pytest.raises(IllegalAction, match=r"call start\(\) first"):
        enc.decision()
    with pytest.raises(IllegalAction, match=r"call start\(\) first"):
        list(enc.legal_actions())
    with pytest.raises(IllegalAction, match=r"call start\(\) first"):
        enc.act(ax.EndTurn())
    assert enc.check(ax.EndTurn()) == message
    assert enc.log == [] and enc.state is enc.initial
    enc.start()
    assert enc.decision() is not None


# ------------------------------------------------------------------------------------------ properties
ALL_TYPES: tuple[type[ax.Action], ...] = tuple(dict.fromkeys(
    [spec.type for spec in CORE_ACTIONS]
    + [t for ruleset_id in RULESETS for t in get_ruleset(ruleset_id).actions.types()]))
ALL_KINDS = sorted({t.kind for t in ALL_TYPES})
FIELD_NAMES = sorted({f.name for t in ALL_TYPES for f in dataclasses.fields(t)})
NAMES = sorted({cid for r in EXAMPLES for cid in _battle(r).creatures}
               | {o.name for r in EXAMPLES for c in _battle(r).creatures.values() for o in c.attacks}
               | set(action_catalogue()) | {"", "nobody", "cast-spell sleep", "ray-of-frost", "shield", "x" * 200})

JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=True)
                    | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                    max_leaves=10)


@settings(max_examples=400, deadline=None)
@given(kind=st.sampled_from(ALL_KINDS) | st.text(max_size=6) | JSON,
       fields=st.dictionaries(st.sampled_from(FIELD_NAMES) | st.text(max_size=5), JSON, max_size=4),
       ruleset=st.sampled_from(sorted(RULESETS)), with_kind=st.booleans())
def test_action_from_dict_returns_an_action_or_raises_the_family(kind: Any, fields: dict[str, Any], ruleset: str,
                                                                 with_kind: bool) -> None:
    data = {**fields, "kind": kind} if with_kind else fields
    try:
        action = ax.action_from_dict(data, get_ruleset(ruleset).actions.types())
    except D20CombatError:
        return
    assert isinstance(action, ax.Action)
    assert ax.action_from_dict(action.to_dict(), get_ruleset(ruleset).actions.types()) == action  # round trip


def _value(hint: Any) -> st.SearchStrategy[Any]:
    """Well-typed junk for a field declared ``hint``."""
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType):
        return st.one_of(*[_value(a) for a in args])
    if origin is Literal:
        return st.sampled_from(args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return st.lists(_value(args[0]), max_size=5).map(tuple)
        return st.tuples(*[_value(a) for a in args])
    if hint is type(None):
        return st.none()
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers(-3, 25) | st.integers(-10**9, 10**9)
    if hint is str:
        return st.sampled_from(NAMES) | st.text(max_size=4)
    raise AssertionError(f"no strategy for {hint!r}")


def _action(cls: type[ax.Action]) -> st.SearchStrategy[ax.Action]:
    hints = get_type_hints(cls)
    return st.fixed_dictionaries({}, optional={f.name: _value(hints[f.name]) for f in dataclasses.fields(cls)}
                                 ).map(lambda kw: cls(**kw))


STEP = st.one_of(st.tuples(st.just("legal"), st.integers(0, 10**6)),
                 st.tuples(st.just("junk"), st.sampled_from(ALL_TYPES).flatmap(_action)),
                 st.tuples(st.just("undo"), st.none()))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(ruleset=st.sampled_from(sorted(EXAMPLES)), seed=st.integers(0, 1000), steps=st.lists(STEP, max_size=25),
       answer=st.integers(0, 10))
def test_any_action_is_played_or_refused_with_illegal_action_and_no_change(
        ruleset: str, seed: int, steps: list[tuple[str, Any]], answer: int) -> None:
    enc = _started(ruleset, seed)
    for what, arg in steps:
        if enc.pending is not None:
            options = enc.pending.prompt.options
            enc.respond(options[answer % len(options)])
            continue
        if what == "undo":
            enc.undo()
            continue
        decision = enc.decision()
        if decision is None:
            break
        action = decision.options[arg % len(decision.options)] if what == "legal" else arg
        reason = enc.check(action)
        before, log_len = enc.state, len(enc.log)
        try:
            enc.act(action)
        except IllegalAction as exc:
            assert enc.state is before and len(enc.log) == log_len, f"{action}: refused ({exc}) but changed"
            assert reason is not None, f"{action}: check said legal, act refused: {exc}"
