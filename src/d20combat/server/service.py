"""The game master's table without HTTP: live encounters, versions, typed dice, views and previews.

Each encounter lives in memory as an :class:`~d20combat.encounter.engine.Encounter` rebuilt on
demand from the store by replaying its batches (the log is the encounter), with one lock per
encounter. Every write names the version it saw; a stale one is refused and changes nothing, and
so is an illegal action or a wrongly typed die (the engine commits only what resolved whole).

Dice: the start rolls with ``SeededDice(seed)`` (the same initiative as ``d20combat run --seed``);
the write that makes version *v* rolls what the GM did not type with ``SeededDice`` seeded from
``(seed, v)``. Rolls therefore depend only on the seed and the version, so a restart (which rebuilds
the state from the stored events and never re-rolls) continues exactly where it stopped.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import os
import re
import secrets
import textwrap
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from d20combat import render
from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint, Light, Square
from d20combat.dice import DiceError, SeededDice, TypedDice
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.apply import apply
from d20combat.encounter.battle import Battle
from d20combat.encounter.engine import Encounter, IllegalAction, Pending, Tx
from d20combat.encounter.prompts import ReactionPrompt
from d20combat.encounter.state import EncounterState
from d20combat.numbers import total
from d20combat.odds import OddsError, attack_odds, kill_odds, profile_from_encounter
from d20combat.render import describe_event
from d20combat.rules import health as hp_rules
from d20combat.scenario import ScenarioError, battle_from_data
from d20combat.scenario.loader import parse_scenario_text
from d20combat.server import models
from d20combat.server.store import EncounterRow, Store

log = logging.getLogger(__name__)

Json = dict[str, Any]


class ServiceError(Exception):
    status = 400

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class NotFound(ServiceError):
    status = 404


class Stale(ServiceError):
    status = 409


REFERENCE_LIMIT = 2000
"""The most encounters one HTTP request may ask of the reference engine (about 100 s)."""


class Rejected(ServiceError):
    """Malformed or illegal input: nothing changed."""

    status = 422


# ------------------------------------------------------------------------------------------ examples
def examples_dir() -> Path | None:
    """The shipped ``examples/`` folder: ``$D20COMBAT_EXAMPLES``, the repository's (a source checkout or
    an editable install), or one installed beside the package."""
    here = Path(__file__).resolve().parent.parent  # src/d20combat
    candidates = [Path(p) for p in [os.environ.get("D20COMBAT_EXAMPLES")] if p]
    candidates += [here.parent.parent / "examples", here / "examples"]
    return next((p for p in candidates if p.is_dir()), None)


def example_names() -> list[str]:
    folder = examples_dir()
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder is not None else []


def read_example(name: str) -> Json:
    folder = examples_dir()
    names = example_names()
    if folder is None or name not in names:
        raise Rejected(f"example: no example {name!r} (known: {', '.join(names) or 'none'})")
    try:
        return parse_scenario_text((folder / f"{name}.yaml").read_text(encoding="utf-8"), name)
    except ScenarioError as exc:
        raise Rejected(f"example {name}: " + "; ".join(exc.problems)) from None


# ------------------------------------------------------------------------------------------ dice
_DIE = re.compile(r"^\s*d(\d{1,4}|%)\s*=\s*(\d{1,6})\s*$", re.IGNORECASE)


def parse_dice(texts: Iterable[str]) -> list[tuple[int, int]]:
    """``["d20=17", "d8=5"]`` → ``[(20, 17), (8, 5)]``; a malformed or impossible die is rejected by index."""
    out: list[tuple[int, int]] = []
    for i, text in enumerate(texts):
        m = _DIE.match(text)
        if m is None:
            raise Rejected(f"dice[{i}]: {text!r} is not a typed die like 'd20=17'")
        sides = 100 if m[1] == "%" else int(m[1])
        face = int(m[2])
        if m[1] == "%" and face == 0:
            face = 100  # "00" on a d% reads as 100
        if sides < 2:
            raise Rejected(f"dice[{i}] {text!r}: there is no d{sides}")
        if not 1 <= face <= sides:
            raise Rejected(f"dice[{i}] {text!r}: a d{sides} cannot show {face} (1–{sides})")
        out.append((sides, face))
    return out


def write_seed(seed: int, version: int) -> int:
    """The dice seed of the write that makes ``version``: a function of the encounter's seed and the version."""
    digest = hashlib.sha256(f"d20combat/{seed}/{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


# ------------------------------------------------------------------------------------------ actions
def action_from_data(data: Json, own_actions: tuple[type[Any], ...]) -> ax.Action:
    """An engine action from validated JSON fields (``kind`` plus the fields given), the encounter's
    ruleset's own action types first. A field the action does not have is named."""
    fields = dict(data)
    kind = str(fields.pop("kind", None))
    cls = {c.kind: c for c in own_actions}.get(kind) or ax.ACTION_TYPES.get(kind)
    if cls is not None:
        names = {f.name for f in dataclasses.fields(cls)}
        extra = sorted(set(fields) - names)
        if extra:
            raise Rejected(f"action.{extra[0]}: {kind} has no such field in this ruleset "
                           f"(its fields: {', '.join(sorted(names)) or 'none'})")
    try:
        return ax.action_from_dict(dict(data), own_actions)
    except ValueError as exc:
        raise Rejected(f"action.kind: {exc}" if cls is None else f"action: {exc}") from None


# ------------------------------------------------------------------------------------------ events
@cache
def _event_adapter(kind: str) -> TypeAdapter[Any]:
    return TypeAdapter(ev.EVENT_TYPES[kind])


def event_from_json(data: Any, where: str) -> ev.Event:
    """A stored or imported event, every field type-checked (the path of a bad one is named)."""
    if not isinstance(data, dict):
        raise Rejected(f"{where}: an event is an object with a 'kind'")
    kind = data.get("kind")
    if kind not in ev.EVENT_TYPES:
        raise Rejected(f"{where}.kind: unknown event kind {kind!r}")
    fields = {f.name for f in dataclasses.fields(ev.EVENT_TYPES[kind])}
    body = {k: v for k, v in data.items() if k != "kind"}
    extra = sorted(set(body) - fields)
    if extra:
        raise Rejected(f"{where}.{extra[0]}: not a field of {kind}")
    try:
        event: ev.Event = _event_adapter(kind).validate_python(body)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err["loc"])
        raise Rejected(f"{where}{loc}: {err['msg']}") from None
    return event


def _text(enc: Encounter, e: ev.Event) -> str:
    return textwrap.dedent(describe_event(enc, e).strip("\n")).strip()


# ------------------------------------------------------------------------------------------ live
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

    def set_head(self, head: int) -> None:
        self.head = head
        self.enc.state = self.states[head - 1]
        self.enc.log = [e for batch in self.batches[:head] for e in batch]


def _idle_dice() -> TypedDice:
    """Between writes nothing may roll: previews and checks never ask for a die."""
    return TypedDice()


def _pending_json(p: Pending) -> Json:
    return {"action": p.action.to_dict(), "answers": list(p.answers), "faces": [list(f) for f in p.faces],
            "prompt": p.prompt.to_dict()}


def _pending_from_json(data: Json, own_actions: tuple[type[Any], ...]) -> Pending:
    prompt = dict(data["prompt"])
    prompt["options"] = tuple(prompt["options"])
    return Pending(action_from_data(data["action"], own_actions), tuple(data["answers"]),
                   tuple((int(s), int(f)) for s, f in data["faces"]), ReactionPrompt(**prompt))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Service:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._live: dict[str, Live] = {}
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ loading
    def _get(self, eid: str) -> Live:
        with self._lock:
            live = self._live.get(eid)
            if live is not None:
                return live
            row = self.store.get(eid)
            if row is None:
                raise NotFound(f"no encounter {eid!r}")
            live = self._rebuild(row, self.store.batches(eid))
            self._live[eid] = live
            return live

    def _drop(self, eid: str) -> None:
        with self._lock:
            self._live.pop(eid, None)

    @staticmethod
    def _build(scenario: Json, where: str) -> Battle:
        try:  # stored and sent back as JSON: only JSON values (no YAML dates, no NaN)
            json.dumps(scenario, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise Rejected(f"{where}: only JSON values are allowed ({exc})") from None
        try:
            return battle_from_data(scenario, where)
        except ScenarioError as exc:
            raise Rejected("; ".join(f"{where}.{p}" if not p.startswith("(root)") else f"{where}: {p}"
                                     for p in exc.problems)) from None
        except Exception as exc:  # anything else a strange scenario provokes is still a bad scenario
            raise Rejected(f"{where}: cannot be built: {exc}") from None

    @staticmethod
    def _rebuild(row: EncounterRow, raw_batches: list[list[Json]]) -> Live:
        battle = battle_from_data(row.scenario, row.id)
        enc = Encounter(battle, _idle_dice())
        batches = [[event_from_json(e, f"batch[{n}][{i}]") for i, e in enumerate(b)]
                   for n, b in enumerate(raw_batches)]
        states: list[EncounterState] = []
        state = enc.initial
        for batch in batches:
            for e in batch:
                state = apply(state, e)
            states.append(state)
        live = Live(row.id, row.name, row.scenario, row.seed, row.players, row.created, enc, batches, states,
                    row.head, row.version)
        live.set_head(row.head)
        if row.pending is not None:
            enc.pending = _pending_from_json(row.pending, battle.ruleset.actions.types())
        return live

    # ------------------------------------------------------------------ encounters
    def examples(self) -> list[str]:
        return example_names()

    @staticmethod
    def _scenario_data(example: str | None, scenario: Json | None, scenario_yaml: str | None) -> tuple[Json, str]:
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

    def simulate(self, *, example: str | None = None, scenario: Json | None = None,
                 scenario_yaml: str | None = None, n: int = 1000, seed: int = 0, engine: str = "auto",
                 ruleset: str | None = None) -> Json:
        """Monte Carlo of a scenario (the designers' lab over HTTP): win rates with 95 % intervals, rounds,
        damage; on the fast path where it replays the scenario, in this process."""
        from d20combat.simulation import simulate_outcomes, summarize
        from d20combat.simulation.runner import engine_for, sides_of

        data, where = self._scenario_data(example, scenario, scenario_yaml)
        if ruleset is not None:
            data = {**data, "ruleset": ruleset}
            data.pop("variants", None)  # another ruleset's variant options mean nothing here
        self._build(data, where)
        try:
            chosen, why = engine_for(data, None, engine)
        except ValueError as exc:
            raise Rejected(f"engine: {exc}") from None
        if chosen == "reference" and n > REFERENCE_LIMIT:
            raise Rejected(f"n: {n} encounters on the reference engine (about 20 a second) is too many for one "
                           f"request; at most {REFERENCE_LIMIT} (the fast path cannot play it: {why})")
        outcomes = simulate_outcomes(data, n, seed=seed, engine=chosen)
        summary = summarize(outcomes, sides_of(data), seed).to_dict()
        return {**summary, "engine": chosen, "engine_reason": why}

    def create(self, *, example: str | None = None, scenario: Json | None = None, scenario_yaml: str | None = None,
               seed: int | None = None, name: str | None = None, players: str | None = None) -> Json:
        data, where = self._scenario_data(example, scenario, scenario_yaml)
        battle = self._build(data, where)
        players = self._players(battle, players, "players")
        seed = secrets.randbelow(2**31) if seed is None else seed
        enc = Encounter(battle, SeededDice(seed))
        try:
            events = enc.start()
        except Exception as exc:
            raise Rejected(f"{where}: the encounter cannot start: {exc}") from None
        enc.dice = _idle_dice()
        title = name or str(data.get("name") or "Unnamed encounter")
        live = Live(secrets.token_hex(5), title[:200], data, seed, players, _now(), enc, [events], [enc.state], 1, 1)
        self._save_new(live)
        return self._summary(live)

    @staticmethod
    def _players(battle: Battle, players: str | None, where: str) -> str:
        sides = battle.sides
        if players is None:
            return sides[0]
        if players not in sides:
            raise Rejected(f"{where}: {players!r} is not a side of this encounter ({', '.join(sides)})")
        return players

    def _save_new(self, live: Live) -> None:
        row = EncounterRow(live.id, live.name, live.scenario, live.seed, live.players, live.created, live.version,
                           live.head, None)
        self.store.create(row, [[e.to_dict() for e in b] for b in live.batches])
        with self._lock:
            self._live[live.id] = live

    def encounters(self) -> list[Json]:
        out = []
        for eid in self.store.ids():
            try:
                live = self._get(eid)
            except Exception:  # a stored encounter this engine can no longer rebuild is skipped, not fatal
                log.exception("encounter %s cannot be rebuilt", eid)
                continue
            out.append(self._summary(live))
        return out

    def summary(self, eid: str) -> Json:
        live = self._get(eid)
        with live.lock:
            return self._summary(live)

    @staticmethod
    def _summary(live: Live) -> Json:
        s = live.enc.state
        return {"id": live.id, "name": live.name, "ruleset": live.enc.ruleset.id, "round": s.round,
                "ended": s.ended, "winner": s.winner, "version": live.version, "players": live.players}

    # ------------------------------------------------------------------ views
    def state(self, eid: str, view: str = "gm") -> Json:
        live = self._get(eid)
        with live.lock:
            return self._state(live, view)

    def _state(self, live: Live, view: str) -> Json:
        enc = live.enc
        s = enc.state
        player = view == "player"
        gm = enc.battle.game_map

        def hidden(cid: str) -> bool:
            cs = s.get(cid)
            return (player and enc.creature(cid).side != live.players
                    and ("hidden" in cs.conditions or "invisible" in cs.conditions))

        ids = [*s.order, *(c for c in s.combatants if c not in s.order)]
        combatants = [self._combatant(live, cid, player) for cid in ids if not hidden(cid)]
        turn = s.turn
        actor = turn.actor if turn is not None and not hidden(turn.actor) else None
        prompt = enc.pending.prompt if enc.pending is not None else None
        if prompt is not None and hidden(prompt.reactor):
            prompt = None

        def squares(sqs: Iterable[Square]) -> list[list[int]]:
            return [[c, r] for c, r in sorted(sqs)]

        light = gm.light
        return {
            "id": live.id, "version": live.version, "view": view, "name": live.name, "ruleset": enc.ruleset.id,
            "round": s.round, "surprise_round": s.surprise_round, "ended": s.ended, "winner": s.winner,
            "end_reason": s.end_reason,
            "map": {"width": gm.width, "height": gm.height, "walls": squares(gm.walls),
                    "low_walls": squares(gm.low_walls), "difficult": squares(gm.difficult),
                    "pits": squares(gm.pits), "water": squares(gm.water), "climb": squares(gm.climb),
                    "concealing": [[c, r, pct] for (c, r), pct in sorted(gm.concealing.items())],
                    "dim": squares(sq for sq, lv in light.items() if lv is Light.DIM),
                    "dark": squares(sq for sq, lv in light.items() if lv is Light.DARK)},
            "order": [cid for cid in s.order if not hidden(cid)],
            "active": actor,
            "turn": None if turn is None or actor is None else {
                "actor": turn.actor, "pools": dict(turn.pools), "moved": turn.moved, "stepped": turn.stepped},
            "pending": prompt.to_dict() if prompt is not None else None,
            "combatants": combatants,
        }

    @staticmethod
    def _combatant(live: Live, cid: str, player: bool) -> Json:
        enc = live.enc
        cs = enc.state.get(cid)
        creature = enc.creature(cid)
        secret = player and creature.side != live.players
        if cs.has("fled"):
            status = "fled"
        elif cs.has("surrendered"):
            status = "surrendered"
        else:
            status = str(enc.ruleset.injury.health(creature, cs).value)
            if cs.stable and status == hp_rules.Health.DYING.value:
                status = "stable"
        return {"id": cid, "name": creature.name, "side": creature.side, "position": list(cs.position),
                "size": creature.space, "hp": None if secret else cs.hp,
                "max_hp": None if secret else creature.sheet.hp, "status": status,
                "conditions": sorted(cs.conditions),
                "labels": [render.condition_label(c) for c in sorted(cs.conditions)], "initiative": cs.initiative,
                "effects": [{"name": e.name, "until_round": e.until_round, "anchor": e.anchor} for e in cs.effects],
                "wielding": cs.wielding, "attacks": [o.name for o in creature.attacks]}

    def decision(self, eid: str) -> Json:
        live = self._get(eid)
        with live.lock:
            d = live.enc.decision()
            if d is None:
                return {"version": live.version, "actor": None, "round": live.enc.state.round, "prompt": None,
                        "options": []}
            return {"version": live.version, "actor": d.actor, "round": d.round,
                    "prompt": d.prompt.to_dict() if d.prompt is not None else None,
                    "options": [a.to_dict() for a in d.options]}

    def log(self, eid: str, since: int = 0) -> list[Json]:
        live = self._get(eid)
        with live.lock:
            enc = live.enc
            return [{"seq": n, "kind": e.kind, "text": _text(enc, e), "event": e.to_dict()}
                    for n, e in enumerate(enc.log) if n >= since]

    # ------------------------------------------------------------------ writes
    @staticmethod
    def _check_version(live: Live, expected: int) -> None:
        if expected != live.version:
            raise Stale(f"expected_version: stale — you saw version {expected}, the encounter is at "
                        f"version {live.version}; reload and try again")

    def act(self, eid: str, action: Json, dice: list[str], expected_version: int) -> Json:
        live = self._get(eid)
        with live.lock:
            self._check_version(live, expected_version)
            typed = parse_dice(dice)
            act = action_from_data(action, live.enc.ruleset.actions.types())
            return self._resolve(live, lambda enc: enc.act(act), typed, dice, act.kind)

    def respond(self, eid: str, answer: str, dice: list[str], expected_version: int) -> Json:
        live = self._get(eid)
        with live.lock:
            self._check_version(live, expected_version)
            typed = parse_dice(dice)
            if live.enc.pending is None:
                raise Rejected("answer: no reaction is being asked for")
            return self._resolve(live, lambda enc: enc.respond(answer), typed, dice, "reaction")

    def _resolve(self, live: Live, run: Callable[[Encounter], list[ev.Event]], typed: list[tuple[int, int]],
                 texts: list[str], what: str) -> Json:
        enc = live.enc
        source = TypedDice(fallback=SeededDice(write_seed(live.seed, live.version + 1)))
        for sides, face in typed:
            source.enter(face, sides)
        enc.dice = source
        try:
            events = run(enc)
        except IllegalAction as exc:
            raise Rejected(str(exc)) from None
        except DiceError as exc:
            i = source.typed_used
            die = f"dice[{i}] {texts[i]!r}: " if i < len(texts) else "dice: "
            raise Rejected(die + str(exc)) from None
        except Exception as exc:  # the engine failed on input it accepted: nothing was committed
            log.exception("%s failed in encounter %s", what, live.id)
            self._drop(live.id)
            raise Rejected(f"{what}: the engine could not resolve it ({type(exc).__name__}: {exc})") from None
        finally:
            enc.dice = _idle_dice()
        try:
            if enc.pending is not None:
                live.version += 1
                self.store.set_pending(live.id, _pending_json(enc.pending), live.version)
            else:
                seq = live.head
                del live.batches[seq:], live.states[seq:]
                live.batches.append(events)
                live.states.append(enc.state)
                live.version += 1
                live.head = seq + 1
                self.store.commit_batch(live.id, seq, [e.to_dict() for e in events], live.version)
        except Exception:
            self._drop(live.id)  # memory may be ahead of the store: rebuild from the store next time
            raise
        return self._result(live, events)

    def _result(self, live: Live, events: list[ev.Event]) -> Json:
        enc = live.enc
        return {"version": live.version, "events": [{"kind": e.kind, "text": _text(enc, e)} for e in events],
                "pending": enc.pending.prompt.to_dict() if enc.pending is not None else None,
                "state": self._state(live, "gm")}

    def undo(self, eid: str, expected_version: int) -> Json:
        live = self._get(eid)
        with live.lock:
            self._check_version(live, expected_version)
            enc = live.enc
            if enc.pending is not None:
                enc.pending = None  # the half-asked action goes; nothing of it was committed
                live.version += 1
                self.store.set_pending(live.id, None, live.version)
            elif live.head > 1:
                live.set_head(live.head - 1)
                live.version += 1
                self.store.set_head(live.id, live.head, live.version)
            else:
                raise Rejected("undo: nothing to undo (the start of the encounter cannot be undone)")
            return self._result(live, [])

    def redo(self, eid: str, expected_version: int) -> Json:
        live = self._get(eid)
        with live.lock:
            self._check_version(live, expected_version)
            if live.enc.pending is not None:
                raise Rejected("redo: a reaction is being asked for; answer it, or undo to drop the action")
            if live.head >= len(live.batches):
                raise Rejected("redo: nothing to redo")
            live.set_head(live.head + 1)
            live.version += 1
            self.store.set_head(live.id, live.head, live.version)
            return self._result(live, [])

    # ------------------------------------------------------------------ export / import
    def export(self, eid: str) -> Json:
        live = self._get(eid)
        with live.lock:
            active = live.batches[:live.head]
            return {"scenario": live.scenario, "seed": live.seed, "name": live.name, "players": live.players,
                    "events": [e.to_dict() for b in active for e in b], "batches": [len(b) for b in active]}

    def import_(self, data: Json) -> Json:
        scenario, raw = data["scenario"], data["events"]
        try:
            json.dumps(raw, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise Rejected(f"events: only JSON values are allowed ({exc})") from None
        battle = self._build(scenario, "scenario")
        players = self._players(battle, data["players"], "players")
        events = [event_from_json(e, f"events[{i}]") for i, e in enumerate(raw)]
        if not isinstance(events[0], ev.EncounterStarted):
            raise Rejected("events[0].kind: an event log starts with encounter_started")
        sizes = data.get("batches") or [len(events)]
        if sum(sizes) != len(events):
            raise Rejected(f"batches: the sizes add up to {sum(sizes)}, but there are {len(events)} events")
        enc = Encounter(battle, _idle_dice())
        batches: list[list[ev.Event]] = []
        states: list[EncounterState] = []
        state, n = enc.initial, 0
        for size in sizes:
            batch = events[n:n + size]
            for i, e in enumerate(batch, n):
                try:
                    state = apply(state, e)
                except Exception as exc:
                    raise Rejected(f"events[{i}] ({e.kind}): cannot be applied here: "
                                   f"{type(exc).__name__}: {exc}") from None
            n += size
            batches.append(batch)
            states.append(state)
        live = Live(secrets.token_hex(5), data["name"], scenario, data["seed"], players, _now(), enc, batches, states,
                    len(batches), 1)
        live.set_head(len(batches))
        try:  # the log must give an encounter the table can show and play on
            for view in ("gm", "player"):
                models.StateView.model_validate(self._state(live, view))
            decision = enc.decision()
            if decision is not None:
                for option in decision.options:
                    TypeAdapter(models.Action).validate_python(option.to_dict())
        except Exception as exc:
            raise Rejected(f"events: the log does not give a playable encounter ({type(exc).__name__}: {exc})") \
                from None
        self._save_new(live)
        return self._summary(live)

    # ------------------------------------------------------------------ previews
    def _combatant_id(self, live: Live, cid: str, where: str) -> str:
        if cid not in live.enc.state.combatants:
            raise Rejected(f"{where}: no combatant {cid!r} (known: {', '.join(live.enc.state.combatants)})")
        return cid

    def moves(self, eid: str, combatant: str) -> Json:
        live = self._get(eid)
        with live.lock:
            enc = live.enc
            cid = self._combatant_id(live, combatant, "combatant")
            if not enc.on_map(cid):
                return {"combatant": cid, "squares": []}
            options = sorted(enc.move_options(cid).items())
            provoked = enc.provocations(cid, [info.path for _, info in options])
            squares = [{"to": list(to), "cost_ft": info.cost_ft, "path": [list(p) for p in info.path],
                        "provokes": [e for e, _ in found]} for (to, info), found in zip(options, provoked, strict=True)]
            return {"combatant": cid, "squares": squares}

    def preview_move(self, eid: str, combatant: str, to: Square) -> Json:
        live = self._get(eid)
        with live.lock:
            return self._preview_move(live, self._combatant_id(live, combatant, "combatant"), to)

    def _preview_move(self, live: Live, cid: str, to: Square) -> Json:
        enc = live.enc
        to = (int(to[0]), int(to[1]))
        reason = self._not_their_turn(live, cid) or enc.check(ax.Move(to=to))
        info = enc.move_options(cid).get(to) if enc.on_map(cid) else None
        if info is None:
            reason = reason or f"no legal path to {to}"
            return {"legal": False, "reason": reason, "path": [], "cost_ft": None, "provokes": [], "cover": []}
        provokes = [{"by": e, "square": list(sq)} for e, sq in enc.provocations(cid, [info.path])[0]]
        return {"legal": reason is None, "reason": reason, "path": [list(p) for p in info.path],
                "cost_ft": info.cost_ft, "provokes": provokes, "cover": self._cover_from(enc, cid, to)}

    @staticmethod
    def _not_their_turn(live: Live, cid: str) -> str | None:
        enc = live.enc
        s = enc.state
        if s.ended:
            return "the encounter is over"
        if enc.pending is not None:
            return f"waiting for {enc.pending.prompt.reactor}'s reaction"
        if s.turn is None:
            return "no one's turn"
        if s.turn.actor != cid:
            return f"it is {s.turn.actor}'s turn, not {cid}'s"
        return None

    @staticmethod
    def _cover_from(enc: Encounter, cid: str, square: Square) -> list[Json]:
        """Cover every enemy would have against ``cid``'s attack with the weapon in hand from ``square``."""
        rs = enc.ruleset
        s = enc.state
        gm = enc.battle.game_map
        creature = enc.creature(cid)
        wielding = s.get(cid).wielding
        try:
            ranged = creature.attack(wielding).is_ranged if wielding else False
        except KeyError:
            ranged = False
        a_fp = Footprint(square, creature.space)
        blockers_for = rs.cover.creatures_give_cover(ranged)
        out = []
        for enemy in enc.enemies(cid, s):
            if enc.is_dead(enemy, s):
                continue
            t_fp = enc.footprint(enemy, s)
            dist = footprint_distance_ft(a_fp, t_fp)
            if dist == 0:
                continue
            blockers = enc.creature_squares((cid, enemy), s) if blockers_for else {}
            fact = rs.cover.find_cover(gm, a_fp, t_fp, ranged=ranged, reach_attack=creature.reach_ft > 5,
                                       adjacent=dist == 5, creature_squares=blockers)
            mod = rs.cover.cover_modifier(fact)
            out.append({"target": enemy, "degree": fact.degree.value, "reason": fact.reason,
                        "ac_bonus": mod.value if mod is not None else 0})
        return out

    def preview_attack(self, eid: str, attacker: str, target: str, attack: str | None) -> Json:
        live = self._get(eid)
        with live.lock:
            enc = live.enc
            s = enc.state
            rs = enc.ruleset
            a_id = self._combatant_id(live, attacker, "attacker")
            t_id = self._combatant_id(live, target, "target")
            empty: Json = {"legal": False, "modifiers": [], "bonus": None, "target_number": None,
                           "defense_name": rs.defense.name, "defense_explanation": "", "cover": None,
                           "concealment": 0, "odds": None}
            try:
                plan = enc.plan_attack(a_id, t_id, attack, state=s)
            except IllegalAction as exc:
                return {**empty, "reason": str(exc)}
            reason = self._not_their_turn(live, a_id) or enc.check(ax.Attack(t_id, attack))
            ac, ac_text = enc.target_ac(plan, s, Tx(s, enc))
            bonus = total(0, plan.modifiers, stacking=rs.stacking).value
            return {"legal": reason is None, "reason": reason,
                    "modifiers": [{"source": m.source, "value": m.value} for m in plan.modifiers],
                    "bonus": bonus, "target_number": ac, "defense_name": rs.defense.name,
                    "defense_explanation": ac_text,
                    "cover": {"degree": plan.cover.degree.value, "reason": plan.cover.reason},
                    "concealment": plan.concealment, "odds": self._odds(enc, a_id, t_id, attack)}

    @staticmethod
    def _odds(enc: Encounter, attacker: str, target: str, attack: str | None) -> Json | None:
        try:
            odds = attack_odds(profile_from_encounter(enc, attacker, target, attack))
        except OddsError:
            return None
        hp = enc.state.get(target).hp
        drop = float(kill_odds(odds.damage, hp, 1).within[0]) if hp >= 1 else 1.0
        return {"hit": float(odds.p_hit), "crit": float(odds.p_crit), "mean_damage": float(odds.mean),
                "drop_chance": drop}
