"""One encounter in memory (:class:`Live`): the engine, every stored batch and the state after each; and
how it is built — from a scenario given as an example, an object or YAML, or rebuilt from the store."""

from __future__ import annotations

import json
import secrets
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from d20combat.dice import SeededDice, TypedDice
from d20combat.encounter import events as ev
from d20combat.encounter.apply import apply
from d20combat.encounter.battle import Battle
from d20combat.encounter.engine import Encounter, Pending
from d20combat.encounter.prompts import ReactionPrompt
from d20combat.encounter.state import EncounterState
from d20combat.scenario import ScenarioError, battle_from_data
from d20combat.scenario.loader import fixed_initiative_problems, parse_scenario_text
from d20combat.server.inputs import Json, Rejected, action_from_data, event_from_json, read_example
from d20combat.server.store import EncounterRow


@dataclass
class Live:
    """One encounter in memory: the engine, every stored batch and the state after each."""

    id: str
    name: str
    scenario: Json
    seed: int
    players: str
    created: str
    enc: Encounter
    batches: list[list[ev.Event]]
    states: list[EncounterState]
    head: int
    version: int
    lock: threading.RLock = field(default_factory=threading.RLock)
    writes: list[Json | None] = field(default_factory=list)
    """The write that made each batch (aligned with :attr:`batches`; None for the start, or for a batch stored
    before writes were kept): what an export carries so that an import can replay and verify it."""
    player_id: str = ""
    """The players' page's own random id (``/player/{player_id}``): not the encounter's id, which is the GM's."""
    start_dice: list[list[int]] = field(default_factory=list)
    """The faces the start rolled: what an export carries instead of :attr:`seed`, which never leaves the GM."""
    revealed: set[str] = field(default_factory=set)
    """Creatures the GM revealed to the players whatever the rules say they see."""

    def set_head(self, head: int) -> None:
        self.head = head
        self.enc.state = self.states[head - 1]
        self.enc.log = [e for batch in self.batches[:head] for e in batch]


SEED_BITS = 63
"""A new encounter's random seed: far too many to guess from the start's faces."""


def new_seed() -> int:
    return secrets.randbits(SEED_BITS)


def new_player_id() -> str:
    """The players' page's id: random, unrelated to the encounter's id."""
    return secrets.token_urlsafe(12)


def idle_dice() -> TypedDice:
    """Between writes nothing may roll: previews and checks never ask for a die."""
    return TypedDice()


def pending_json(p: Pending) -> Json:
    return {"action": p.action.to_dict(), "answers": list(p.answers), "faces": [list(f) for f in p.faces],
            "prompt": p.prompt.to_dict()}


def pending_from_json(data: Json, own_actions: tuple[type[Any], ...]) -> Pending:
    prompt = dict(data["prompt"])
    prompt["options"] = tuple(prompt["options"])
    return Pending(action_from_data(data["action"], own_actions), tuple(data["answers"]),
                   tuple((int(s), int(f)) for s, f in data["faces"]), ReactionPrompt(**prompt))


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def build_battle(scenario: Json, where: str) -> Battle:
    """The battle of a scenario given over HTTP; a bad one is :class:`Rejected` with every problem's path."""
    try:  # stored and sent back as JSON: only JSON values (no YAML dates, no NaN)
        json.dumps(scenario, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise Rejected(f"{where}: only JSON values are allowed ({exc})") from None
    try:
        battle = battle_from_data(scenario, where)
        problems = fixed_initiative_problems(battle)  # meaningless where initiative is re-rolled every round
        if problems:
            raise ScenarioError(problems, where)
        return battle
    except ScenarioError as exc:
        raise Rejected("; ".join(f"{where}.{p}" if not p.startswith("(root)") else f"{where}: {p}"
                                 for p in exc.problems)) from None
    except Exception as exc:  # anything else a strange scenario provokes is still a bad scenario
        raise Rejected(f"{where}: cannot be built: {exc}") from None


def scenario_data(example: str | None, scenario: Json | None, scenario_yaml: str | None) -> tuple[Json, str]:
    """The scenario given as exactly one of an example name, a scenario object or YAML text, and where
    it came from (for messages)."""
    given = [k for k, v in (("example", example), ("scenario", scenario), ("scenario_yaml", scenario_yaml))
             if v is not None]
    if len(given) != 1:
        raise Rejected("give exactly one of example, scenario, scenario_yaml" +
                       (f" (got {', '.join(given)})" if given else ""))
    if example is not None:
        return read_example(example), f"example {example}"
    if scenario_yaml is not None:
        try:
            return parse_scenario_text(scenario_yaml, "scenario_yaml"), "scenario_yaml"
        except ScenarioError as exc:
            raise Rejected("scenario_yaml: " + "; ".join(exc.problems)) from None
    assert scenario is not None
    return scenario, "scenario"


def players_side(battle: Battle, players: str | None, where: str) -> str:
    """The side the players' page shows (the first side if not given)."""
    sides = battle.sides
    if players is None:
        return sides[0]
    if players not in sides:
        raise Rejected(f"{where}: {players!r} is not a side of this encounter ({', '.join(sides)})")
    return players


def rebuild(row: EncounterRow, raw_batches: list[list[Json]], writes: list[Json | None] | None = None) -> Live:
    """An encounter from its stored row, batches and their writes (the log is the encounter; the store's own
    events are applied, not re-verified: an import was verified before it was stored)."""
    battle = battle_from_data(row.scenario, row.id)
    enc = Encounter(battle, idle_dice())
    batches = [[event_from_json(e, f"batch[{n}][{i}]") for i, e in enumerate(b)]
               for n, b in enumerate(raw_batches)]
    states: list[EncounterState] = []
    state = enc.initial
    for batch in batches:
        for e in batch:
            state = apply(state, e)
        states.append(state)
    live = Live(row.id, row.name, row.scenario, row.seed, row.players, row.created, enc, batches, states,
                row.head, row.version, writes=list(writes) if writes is not None else [None] * len(batches),
                player_id=row.player_id or "", start_dice=row.start_dice or [], revealed=set(row.revealed or ()))
    if not live.start_dice:  # stored before issue 13: the start was rolled with SeededDice(seed)
        again = Encounter(battle_from_data(row.scenario, row.id), SeededDice(row.seed))
        again.start()
        live.start_dice = [list(f) for f in again.start_faces]
    live.set_head(row.head)
    if row.pending is not None:
        enc.pending = pending_from_json(row.pending, battle.ruleset.actions.types())
    return live
