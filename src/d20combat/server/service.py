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

import logging
import secrets
import threading
from collections.abc import Callable
from typing import Any

from d20combat.battlefield.grid import Square
from d20combat.dice import DiceError, SeededDice, TypedDice
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.encounter.gm_actions import GM_ACTION_TYPES, GmAction
from d20combat.scenario import ScenarioError
from d20combat.scenario.reinforcements import creature_to_add
from d20combat.server import autoplay, previews, simulations, transfer, views
from d20combat.server.inputs import (
    Json,
    NotFound,
    Rejected,
    ServiceError,
    Stale,
    action_from_data,
    example_names,
    examples_dir,
    parse_dice,
    write_seed,
)
from d20combat.server.jobs import Job, Lab
from d20combat.server.live import (
    Live,
    build_battle,
    idle_dice,
    new_player_id,
    new_seed,
    now,
    pending_json,
    players_side,
    rebuild,
    scenario_data,
)
from d20combat.server.store import EncounterRow, Store

__all__ = ["NotFound", "Rejected", "Service", "ServiceError", "Stale", "examples_dir"]

log = logging.getLogger(__name__)




class Service:
    """The table's operations; each takes the encounter's lock, and every write names the version it saw."""

    def __init__(self, store: Store, lab: Lab | None = None) -> None:
        self.store = store
        self.lab = lab if lab is not None else Lab()
        """The simulations' worker processes (started on first use; ``lab.close()`` when done)."""
        self._live: dict[str, Live] = {}
        self._lock = threading.Lock()
        """Guards ``_live`` and ``_loading`` only, briefly: never held while an encounter is rebuilt."""
        self._loading: dict[str, threading.Lock] = {}
        """One lock per encounter being rebuilt: rebuilding one never stalls another."""

    # ------------------------------------------------------------------ loading
    def _get(self, eid: str) -> Live:
        with self._lock:
            live = self._live.get(eid)
            if live is not None:
                return live
            loading = self._loading.setdefault(eid, threading.Lock())
        try:
            with loading:  # a second reader of the same encounter waits for the first one's rebuild
                return self._load(eid)
        finally:
            with self._lock:
                if self._loading.get(eid) is loading:
                    del self._loading[eid]

    def _load(self, eid: str) -> Live:
        with self._lock:
            live = self._live.get(eid)
        if live is not None:
            return live
        row = self.store.get(eid)  # the rebuild runs outside the service-wide lock
        if row is None:
            raise NotFound(f"no encounter {eid[:100]!r}")
        history = self.store.history(eid)
        live = rebuild(row, [b for b, _ in history], [w for _, w in history])
        if not live.player_id or row.start_dice is None:  # stored before issue 13
            live.player_id = live.player_id or new_player_id()
            self.store.set_keys(eid, live.player_id, live.start_dice)
        with self._lock:
            return self._live.setdefault(eid, live)

    def _drop(self, eid: str) -> None:
        with self._lock:
            self._live.pop(eid, None)

    # ------------------------------------------------------------------ encounters
    def examples(self) -> list[str]:
        return example_names()

    def simulate(self, *, listed: bool = False, **kwargs: Any) -> Job:
        """Check a simulation request (:class:`Rejected` at once) and queue it on a worker; ``listed``: a job
        of ``/api/simulations/jobs``, kept for ``lab.get`` after it finishes."""
        return self.lab.submit(simulations.prepare(**kwargs), listed=listed)

    def create(self, *, example: str | None = None, scenario: Json | None = None, scenario_yaml: str | None = None,
               seed: int | None = None, name: str | None = None, players: str | None = None) -> Json:
        data, where = scenario_data(example, scenario, scenario_yaml)
        battle = build_battle(data, where)
        players = players_side(battle, players, "players")
        seed = new_seed() if seed is None else seed
        enc = Encounter(battle, SeededDice(seed))
        try:
            events = enc.start()
        except Exception as exc:
            raise Rejected(f"{where}: the encounter cannot start: {exc}") from None
        enc.dice = idle_dice()
        title = name or str(data.get("name") or "Unnamed encounter")
        live = Live(secrets.token_hex(5), title[:200], data, seed, players, now(), enc, [events], [enc.state], 1, 1,
                    writes=[None], player_id=new_player_id(), start_dice=[list(f) for f in enc.start_faces])
        self._save_new(live)
        return views.summary(live)

    def _save_new(self, live: Live) -> None:
        row = EncounterRow(live.id, live.name, live.scenario, live.seed, live.players, live.created, live.version,
                           live.head, None, live.player_id, live.start_dice)
        self.store.create(row, [[e.to_dict() for e in b] for b in live.batches], live.writes)
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
            out.append(views.summary(live))
        return out

    def summary(self, eid: str) -> Json:
        live = self._get(eid)
        with live.lock:
            return views.summary(live)

    # ------------------------------------------------------------------ views
    def state(self, eid: str, view: str = "gm") -> Json:
        live = self._get(eid)
        with live.lock:
            return views.state(live, view)

    def player_encounter(self, player_id: str) -> str:
        """The encounter behind a players' page (404 naming only the id asked for)."""
        eid = self.store.by_player_id(player_id)
        if eid is None:
            raise NotFound(f"no players' page {player_id[:100]!r}")
        return eid

    def player_summary(self, player_id: str) -> Json:
        live = self._get(self.player_encounter(player_id))
        with live.lock:
            return views.player_summary(live)

    def player_state(self, player_id: str) -> Json:
        return self.state(self.player_encounter(player_id), "player")

    def player_log(self, player_id: str, since: int = 0) -> list[Json]:
        live = self._get(self.player_encounter(player_id))
        with live.lock:
            return views.player_log(live, since)

    def reveal(self, eid: str, combatant: str, revealed: bool) -> Json:
        """Show a creature to the players whatever the rules say they see (or stop showing it): the GM's word,
        not an engine event (undo does not touch it); the version moves so that every page reloads."""
        live = self._get(eid)
        with live.lock:
            cid = previews.combatant_id(live, combatant, "combatant")
            (live.revealed.add if revealed else live.revealed.discard)(cid)
            live.version += 1
            self.store.set_revealed(eid, sorted(live.revealed), live.version)
            return self._result(live, [])

    def decision(self, eid: str) -> Json:
        live = self._get(eid)
        with live.lock:
            return views.decision(live)

    def log(self, eid: str, since: int = 0) -> list[Json]:
        live = self._get(eid)
        with live.lock:
            return views.log(live, since)

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

    def gm(self, eid: str, edit: Json, dice: list[str], expected_version: int) -> Json:
        """A game master's write (issue 13): damage, healing, hp, conditions, timed effects, a creature added or
        removed, a save or check called for — evented and undoable like an action."""
        live = self._get(eid)
        with live.lock:
            self._check_version(live, expected_version)
            typed = parse_dice(dice)
            if edit.get("kind") == "gm_add_creature":
                try:
                    write: GmAction = creature_to_add(edit.get("creature", {}), where="edit.creature")
                except ScenarioError as exc:
                    raise Rejected("; ".join(exc.problems)) from None
            else:
                write = action_from_data(edit, GM_ACTION_TYPES)  # type: ignore[assignment]
            return self._resolve(live, lambda enc: enc.gm(write), typed, dice, write.kind)

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
            enc.dice = idle_dice()
        try:
            if enc.pending is not None:
                live.version += 1
                self.store.set_pending(live.id, pending_json(enc.pending), live.version)
            else:
                seq = live.head
                write = enc.last_write.to_dict() if enc.last_write is not None else None  # all answers, all dice
                del live.batches[seq:], live.states[seq:], live.writes[seq:]
                live.batches.append(events)
                live.states.append(enc.state)
                live.writes.append(write)
                live.version += 1
                live.head = seq + 1
                self.store.commit_batch(live.id, seq, [e.to_dict() for e in events], live.version, write)
        except Exception:
            self._drop(live.id)  # memory may be ahead of the store: rebuild from the store next time
            raise
        return self._result(live, events)

    def _result(self, live: Live, events: list[ev.Event]) -> Json:
        enc = live.enc
        return {"version": live.version, "events": [{"kind": e.kind, "text": views.text(enc, e)} for e in events],
                "pending": enc.pending.prompt.to_dict() if enc.pending is not None else None,
                "state": views.state(live, "gm")}

    def ai_play(self, eid: str, expected_version: int, until: str = "turn") -> Json:
        """Let the tactical AI play (:func:`d20combat.server.autoplay.play`): one ``action``, the rest of this
        creature's ``turn``, or every turn ``until`` the players' side is to act; each action its own write."""
        live = self._get(eid)
        with live.lock:
            self._check_version(live, expected_version)
            return autoplay.play(live, until, self._resolve)

    def rename(self, eid: str, name: str, expected_version: int) -> Json:
        live = self._get(eid)
        with live.lock:
            self._check_version(live, expected_version)
            title = name.strip()
            if not title:
                raise Rejected("name: an encounter's name cannot be empty")
            live.name = title
            live.version += 1
            self.store.rename(eid, title, live.version)
            return views.summary(live)

    def delete(self, eid: str) -> None:
        """Forget the encounter and its history (there is no undo)."""
        live = self._get(eid)
        with live.lock:
            self.store.delete(eid)
            self._drop(eid)

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
            return transfer.export(live)

    def import_(self, data: Json) -> Json:
        live = transfer.import_live(data)
        self._save_new(live)
        return views.summary(live)

    # ------------------------------------------------------------------ previews
    def moves(self, eid: str, combatant: str) -> Json:
        live = self._get(eid)
        with live.lock:
            return previews.moves(live, combatant)

    def preview_move(self, eid: str, combatant: str, to: Square, via: list[Square] | None = None) -> Json:
        live = self._get(eid)
        with live.lock:
            return previews.preview_move(live, combatant, to, via or [])

    def preview_attack(self, eid: str, attacker: str, target: str, attack: str | None) -> Json:
        live = self._get(eid)
        with live.lock:
            return previews.preview_attack(live, attacker, target, attack)

    def preview_charge(self, eid: str, attacker: str, target: str) -> Json:
        live = self._get(eid)
        with live.lock:
            return previews.preview_charge(live, attacker, target)

    def preview_dice(self, eid: str, action: Json | None, answer: str | None, dice: list[str]) -> Json:
        live = self._get(eid)
        with live.lock:
            return previews.preview_dice(live, action, answer, dice)
