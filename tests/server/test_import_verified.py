"""Issue 12, item 2: an import is verified, not trusted. ``POST /api/encounters/import`` rebuilds the encounter by
replaying the start (its dice, ``start_dice``) and every write (action, answers, dice) through the engine, and refuses
the first event the engine would not have produced — by its index, fast, with bounded memory."""

from __future__ import annotations

import copy
import re
import sqlite3
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.server.helpers import act, create, duel

from d20combat.controllers import TacticalAI
from d20combat.dice import SeededDice, TypedDice
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.scenario import battle_from_data
from d20combat.server.service import Service
from d20combat.server.store import Store

Json = dict[str, Any]


# ------------------------------------------------------------------------------------------ real exports
def _played(example: str, seed: int, writes: int) -> Json:
    """An export of ``example`` after ``writes`` AI writes (actions and answered prompts), through the service."""
    service = Service(Store(":memory:"))
    eid = service.create(example=example, seed=seed)["id"]
    ai, version = TacticalAI(), 1
    for _ in range(writes):
        enc = service._get(eid).enc
        if enc.state.ended:
            break
        if enc.pending is not None:
            version = service.respond(eid, ai.react(enc, enc.pending.prompt), [], version)["version"]
        else:
            version = service.act(eid, ai.choose(enc).to_dict(), [], version)["version"]
    return service.export(eid)


_CACHE: dict[tuple[str, int, int], Json] = {}


def played(example: str, seed: int = 2, writes: int = 40) -> Json:
    key = (example, seed, writes)
    if key not in _CACHE:
        _CACHE[key] = _played(*key)
    return copy.deepcopy(_CACHE[key])


def _batch_of(export: Json, index: int) -> int:
    """Which batch (0: the start, k + 1: writes[k]) holds ``events[index]``."""
    total = 0
    for b, size in enumerate(export["batches"]):
        total += size
        if index < total:
            return b
    raise IndexError(index)


def _first(export: Json, kind: str, after: int = 0, where: Callable[[Json], bool] = lambda e: True) -> int:
    return next(i for i, e in enumerate(export["events"]) if i >= after and e["kind"] == kind and where(e))


def _import(client: TestClient, data: Json) -> tuple[Any, float, int]:
    """The response, its CPU seconds (untraced: tracing slows Python several times) and the peak traced memory
    in bytes of a second, traced, identical request (refused imports change nothing, so it answers the same)."""
    cpu = time.process_time()
    r = client.post("/api/encounters/import", json=data)
    spent = time.process_time() - cpu
    if r.status_code == 201:
        return r, spent, 0  # accepted: a second import would make a second encounter; memory is not the point
    tracemalloc.start()
    try:
        client.post("/api/encounters/import", json=data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return r, spent, peak


def _positions(export: Json, before: int) -> dict[str, list[int]]:
    """Where everyone stands just before ``events[before]`` (start positions, then each move's last square)."""
    where = {c["id"]: list(c["position"]) for c in _started(export)}
    for e in export["events"][:before]:
        if e["kind"] == "moved":
            where[e["combatant"]] = list(e["path"][-1])
    return where


def _started(export: Json) -> list[Json]:
    battle = battle_from_data(export["scenario"], "scenario")
    state = Encounter(battle, SeededDice(0)).initial
    return [{"id": cid, "position": list(c.position)} for cid, c in state.combatants.items()]


# ------------------------------------------------------------------------------------------ mutations
def _moved_off_map(x: Json) -> int:
    i = _first(x, "moved")
    x["events"][i]["path"][-1] = [250, 250]
    return i


def _two_in_one_square(x: Json) -> int:
    i = _first(x, "moved")
    mover = x["events"][i]["combatant"]
    other = next(pos for cid, pos in _positions(x, i).items() if cid != mover)
    x["events"][i]["path"][-1] = other
    return i


def _pool(amount: int) -> Callable[[Json], int]:
    def change(x: Json) -> int:
        i = _first(x, "turn_started", where=lambda e: "complex" in e.get("pools", {}))
        x["events"][i]["pools"]["complex"] = amount
        return i
    return change


def _d20_face(x: Json) -> int:
    k = next(k for k, w in enumerate(x["writes"]) if any(s == 20 for s, _ in w["dice"]))
    j = next(j for j, (s, _) in enumerate(x["writes"][k]["dice"]) if s == 20)
    face = x["writes"][k]["dice"][j][1]
    x["writes"][k]["dice"][j][1] = face % 20 + 1
    return -(k + 1)  # "somewhere in writes[k]'s batch"


def _damage(x: Json) -> int:
    i = _first(x, "damaged")
    x["events"][i]["amount"] += 1
    return i


def _swap(x: Json) -> int:
    w = x["writes"]
    k = next(k for k in range(len(w) - 1) if w[k]["action"] != w[k + 1]["action"])
    w[k], w[k + 1] = w[k + 1], w[k]
    return -(k + 1)


def _append(x: Json) -> int:
    x["events"].append(dict(x["events"][-1]))
    x["batches"][-1] += 1
    return len(x["events"]) - 1


def _delete(x: Json) -> int:
    i = _first(x, "moved")
    del x["events"][i]
    return i


def _bad_kind(x: Json) -> int:
    i = _first(x, "damaged")
    x["events"][i]["kind"] = "teleported"
    return i


MUTATIONS: list[tuple[str, str, Callable[[Json], int], str]] = [
    ("a position off the map", "goblin-ambush", _moved_off_map, "not moved("),
    ("two creatures in one square", "goblin-ambush", _two_in_one_square, "not moved("),
    ("a complex pool of 100,000", "skill-duel", _pool(100_000), '"complex": 100000'),
    ("a complex pool of 1,000,000", "skill-duel", _pool(1_000_000), '"complex": 1000000'),
    ("a d20 face", "goblin-ambush", _d20_face, "the engine would have produced"),
    ("a damage number", "goblin-ambush", _damage, "not damaged("),
    ("two actions swapped", "goblin-ambush", _swap, "events["),
    ("an extra event", "goblin-ambush", _append, "an extra event"),
    ("an event deleted", "goblin-ambush", _delete, "the engine would have produced moved("),
    ("a bad kind", "goblin-ambush", _bad_kind, "(teleported): the engine would have produced damaged("),
]


@pytest.mark.parametrize(("what", "example", "change", "needle"), MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_a_tampered_export_is_refused_at_its_first_bad_event(client: TestClient, what: str, example: str,
                                                             change: Callable[[Json], int], needle: str) -> None:
    """Issue 12: each tampering answers 422 naming the first event the engine would not have produced, in well
    under a second of CPU and 200 MB (a pool of 1,000,000 took forever and 12 GB when the log was trusted)."""
    data = played(example)
    where = change(data)
    r, cpu, peak = _import(client, data)
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert needle in detail, detail
    m = re.match(r"events\[(\d+)\]", detail)
    assert m is not None, detail
    index = int(m[1])
    if where >= 0:
        assert index == where, detail
    else:  # a changed write: the first bad event is one of the events that write made
        assert _batch_of(played(example), index) == -where, detail
    assert cpu < 1.0, f"{what}: {cpu:.2f} s CPU"
    assert peak < 200_000_000, f"{what}: {peak / 1e6:.0f} MB"
    assert len(client.get("/api/encounters").json()) == 0  # nothing was stored


WRITE_CHANGES: list[tuple[Callable[[Json, int], Any], str]] = [
    (lambda x, k: x["writes"][k]["action"].update(kind="teleport"),
     "writes[{k}].action: unknown action kind 'teleport'"),
    (lambda x, k: x["writes"][k].update(dice=[[20, 21]]), "writes[{k}].dice[0]: a d20 cannot show 21"),
    (lambda x, k: x["writes"][k].update(dice=[[20, 0]]), "writes[{k}].dice[0]: a d20 cannot show 0"),
    (lambda x, k: x["writes"][k].update(dice=[[0, 1]]), "writes[{k}].dice[0]: there is no d0"),
    (lambda x, k: x["writes"][k].update(dice=[["d20", 3]]), 'writes[{k}].dice[0]: ["d20", 3] is not a [sides, face]'),
    (lambda x, k: x["writes"][k].update(dice=[[20, 3]] * 10_001), "writes[{k}].dice: 10,001 dice"),
    (lambda x, k: x["writes"][k].update(answers=["yes"] * 101), "writes[{k}].answers: a list of at most 100"),
    (lambda x, k: x["writes"][k].update(surprise=1), "writes[{k}].surprise: not a field of a write"),
    (lambda x, k: x["writes"][k]["action"].update(path=[[1, 1]] * 20_000), "writes[{k}].action: more than 10,000"),
    (lambda x, k: x["writes"].__setitem__(k, None), "writes[{k}]: missing"),
    (lambda x, k: x["writes"].pop(), "an extra event"),
    (lambda x, k: x["writes"].append({"action": {"kind": "end_turn"}}), "missing: the engine would have produced"),
    (lambda x, k: x["writes"][k]["dice"].append([6, 1]), "dice were never rolled"),
    (lambda x, k: x["writes"][k]["dice"].pop(), "its dice ran out"),
    (lambda x, k: x["writes"][k]["answers"].append("accept"), "answers no reaction the engine asked for"),
    (lambda x, k: x.update(writes=None), "writes: missing: this export records no actions, so its events cannot be "
                                         "verified"),
    (lambda x, k: x["start_dice"][0].__setitem__(1, x["start_dice"][0][1] % x["start_dice"][0][0] + 1), "events["),
    (lambda x, k: x.update(seed=1), "start_dice: give the start's dice (or, from an older export, its seed), not both"),
]


@pytest.mark.parametrize(("change", "needle"), WRITE_CHANGES, ids=[n[:40] for _, n in WRITE_CHANGES])
def test_a_malformed_write_is_refused_by_name(client: TestClient, change: Callable[[Json, int], Any],
                                              needle: str) -> None:
    """Issue 12: a write that is not one (unknown action kind, impossible dice, too many, an unknown field) is
    named ``writes[k]``; dice or answers missing or left over, a write too many or too few name the event."""
    data = played("goblin-ambush")
    k = next(k for k, w in enumerate(data["writes"]) if w["dice"])
    change(data, k)
    r, cpu, peak = _import(client, data)
    assert r.status_code == 422 and needle.format(k=k) in r.json()["detail"], r.text
    assert cpu < 1.0 and peak < 200_000_000


def test_a_huge_import_is_refused_before_anything_is_replayed(client: TestClient) -> None:
    """Issue 12: the counts are bounded (d20combat.limits) and checked before any replay."""
    data = played("goblin-ambush", writes=4)
    data["events"] += [{"kind": "x"}] * 200_001
    cpu = time.process_time()
    r = client.post("/api/encounters/import", json=data)
    assert r.status_code == 422 and "body.events" in r.text
    assert time.process_time() - cpu < 2.0


# ------------------------------------------------------------------------------------------ honest imports
def test_an_honest_export_imports_equal_to_the_original(client: TestClient) -> None:
    """Issue 12: a game with moves, attacks, an attack of opportunity asked and answered, and an undo imports as
    the same encounter: the same state, the same log, the same steps (undo works on the copy)."""
    eid = create(client, duel("off-guard", more=[
        {"id": "archer", "side": "goblins", "stats": "goblin", "position": [7, 6], "initiative": 1}]), seed=3)["id"]
    r = act(client, eid, {"kind": "move", "to": [0, 2]}, 1)  # away from the goblin: it may strike
    assert r.json()["pending"] is not None
    prompt = r.json()["pending"]
    answer = next(o for o in prompt["options"] if o != "decline")
    r = client.post(f"/api/encounters/{eid}/reactions", json={"answer": answer, "expected_version": 2})
    assert r.status_code == 200, r.text
    version = r.json()["version"]
    for action in ({"kind": "end_turn"}, {"kind": "move", "to": [1, 2]}, {"kind": "attack", "target": "valeros"}):
        r = act(client, eid, action, version)
        assert r.status_code == 200, r.text
        version = r.json()["version"]
    version = client.post(f"/api/encounters/{eid}/undo", json={"expected_version": version}).json()["version"]
    exported = client.get(f"/api/encounters/{eid}/export").json()
    assert exported["writes"][0]["answers"] == [answer]  # the resumed write is stored whole
    assert len(exported["writes"]) == len(exported["batches"]) - 1 == 3
    cpu = time.process_time()
    r = client.post("/api/encounters/import", json=exported)
    assert r.status_code == 201, r.text
    assert time.process_time() - cpu < 1.0
    new = r.json()["id"]
    for view in ("gm", "player"):
        a = client.get(f"/api/encounters/{eid}/state", params={"view": view}).json()
        b = client.get(f"/api/encounters/{new}/state", params={"view": view}).json()
        if view == "gm":  # an export carries what happened, not what could be redone
            assert a["history"]["redo"] is not None and b["history"] == {**a["history"], "redo": None}
            a, b = {**a, "history": None}, {**b, "history": None}
        assert {**a, "id": "", "version": 0} == {**b, "id": "", "version": 0}
    assert client.get(f"/api/encounters/{new}/log").json() == client.get(f"/api/encounters/{eid}/log").json()
    again = client.get(f"/api/encounters/{new}/export").json()
    assert {**again, "name": ""} == {**exported, "name": ""}
    r = client.post(f"/api/encounters/{new}/undo", json={"expected_version": 1})
    assert r.status_code == 200
    a = client.get(f"/api/encounters/{eid}/state").json()
    r = client.post(f"/api/encounters/{new}/redo", json={"expected_version": 2})
    assert r.status_code == 200
    assert {**r.json()["state"], "id": "", "version": 0, "history": None} == {**a, "id": "", "version": 0,
                                                                               "history": None}


@pytest.mark.parametrize("example", ["goblin-ambush", "off-guard-ambush", "skill-duel"])
def test_a_whole_battle_imports_in_well_under_a_second(client: TestClient, example: str) -> None:
    """Issue 12: verification replays every write; a whole AI battle (hundreds of writes) still imports fast."""
    data = played(example, seed=4, writes=600)
    cpu = time.process_time()
    r = client.post("/api/encounters/import", json=data)
    spent = time.process_time() - cpu
    assert r.status_code == 201, r.text
    assert r.json()["ended"]
    assert spent < 2.0, f"{len(data['writes'])} writes: {spent:.2f} s"


def test_an_encounter_stored_before_writes_were_kept(tmp_path: Path) -> None:
    """Issue 12: an old database file gains the ``write`` column; its old batches have none, so their export
    cannot be verified and an import of it is refused, by the first write missing."""
    db = tmp_path / "old.db"
    with sqlite3.connect(db) as raw:
        raw.executescript("""
            CREATE TABLE encounters (id TEXT PRIMARY KEY, name TEXT NOT NULL, scenario TEXT NOT NULL,
                seed INTEGER NOT NULL, players TEXT NOT NULL, created TEXT NOT NULL, version INTEGER NOT NULL,
                head INTEGER NOT NULL, pending TEXT);
            CREATE TABLE batches (encounter_id TEXT NOT NULL REFERENCES encounters(id) ON DELETE CASCADE,
                seq INTEGER NOT NULL, events TEXT NOT NULL, PRIMARY KEY (encounter_id, seq));
        """)
    store = Store(db)
    service = Service(store)
    eid = service.create(scenario=duel(), seed=1)["id"]
    service.act(eid, {"kind": "end_turn"}, [], 1)
    with sqlite3.connect(db) as raw:
        assert "write" in {r[1] for r in raw.execute("PRAGMA table_info(batches)")}
        raw.execute("UPDATE batches SET write = NULL")  # as if stored before issue 12
    old = Service(Store(db)).export(eid)
    assert old["writes"] == [None]
    with pytest.raises(Exception, match=r"writes\[0\]: missing") as info:
        service.import_(old)
    assert getattr(info.value, "status", None) == 422
    store.close()


# ------------------------------------------------------------------------------------------ fuzz
def _leaves(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _leaves(v, (*path, i))
    elif isinstance(data, (int, str)) and not isinstance(data, bool):
        yield path, data


def _set(data: Any, path: tuple[Any, ...], value: Any) -> None:
    for p in path[:-1]:
        data = data[p]
    data[path[-1]] = value


KINDS = [*sorted(ev.EVENT_TYPES), "move", "attack", "end_turn", "step", "charge", "reserve", "teleport"]
FUZZED = {"pathfinder-beginner": "goblin-ambush", "off-guard": "off-guard-ambush", "skill-based": "skill-duel"}


def _clean_replay(data: Json) -> Encounter:
    """The encounter an export's writes make, straight through the engine (no verification involved)."""
    start = TypedDice()
    for sides, face in data["start_dice"]:
        start.enter(face, sides)
    enc = Encounter(battle_from_data(data["scenario"], "scenario"), start)
    enc.start()
    for w in data["writes"]:
        dice = TypedDice()
        for sides, face in w["dice"]:
            dice.enter(face, sides)
        enc.dice = dice
        enc.act(enc.actions.from_dict(w["action"]))
        for answer in w["answers"]:
            enc.respond(answer)
    return enc


@pytest.fixture(scope="module")
def fuzz_service() -> Iterator[Service]:
    store = Store(":memory:")
    yield Service(store)
    store.close()


@pytest.mark.parametrize("ruleset", sorted(FUZZED))
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(data=st.data())
def test_fuzzed_imports_are_refused_or_verified(fuzz_service: Service, ruleset: str, data: st.DataObject) -> None:
    """Issue 12: one integer, string or kind changed anywhere in a real export of each ruleset: a 4xx, never a
    crash, in bounded time; and what is accepted is exactly the encounter a clean replay of its writes makes."""
    from d20combat.server.inputs import ServiceError
    from d20combat.server.models import ExportIn

    export = played(FUZZED[ruleset], seed=3, writes=30)
    leaves = list(_leaves(export))
    path, old = leaves[data.draw(st.integers(0, len(leaves) - 1), label="leaf")]
    if isinstance(old, int):
        new: Any = data.draw(st.one_of(st.integers(-3, 3).map(lambda d: old + d), st.integers(-2**40, 2**40),
                                       st.sampled_from([0, -1, 10**6, 2**63])), label="int")
    else:
        new = data.draw(st.one_of(st.sampled_from(KINDS), st.text(max_size=12), st.just(old + "x")), label="str")
    _set(export, path, new)
    cpu = time.process_time()
    try:
        body = ExportIn.model_validate(export).model_dump()
        summary = fuzz_service.import_(body)
    except ServiceError as exc:
        assert 400 <= exc.status < 500
        return
    except ValueError:  # the model refused it: FastAPI answers 422
        return
    finally:
        assert time.process_time() - cpu < 2.0, (path, new)
    live = fuzz_service._get(summary["id"])
    clean = _clean_replay(body)
    assert live.enc.state == clean.state, (path, new)
    assert [e.to_dict() for e in live.enc.log] == [e.to_dict() for e in clean.log]
