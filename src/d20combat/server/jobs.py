"""Simulations off the table's back: a few worker processes, a time budget, cancellation.

The :class:`Lab` runs every simulation (``POST /api/simulations`` and the jobs of ``/api/simulations/jobs``)
as a :class:`Job` on one of ``WORKERS`` *lanes*, each a worker process started on first use and kept. The
server process only waits: the table's requests never queue behind a simulation.

A lane shares two numbers with its worker: a cancel flag, which the worker's ``halt`` reads between
encounters (and between actions on the reference engine), and the count of encounters played (the job's
progress). A job cancelled (``DELETE``, a client gone away, the server stopping) or over its budget stops
there and answers with what it finished; a worker that does not answer within ``CANCEL_GRACE`` seconds (one
fast-path encounter can be long) is killed, and the lane starts a new one when next needed.
"""

from __future__ import annotations

import multiprocessing
import queue
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from d20combat.server.inputs import Json, Rejected, ServiceError
from d20combat.server.simulations import BUDGET_SECONDS

WORKERS = 2
"""Worker processes (lanes): simulations beyond this many wait their turn."""
MAX_WAITING = 8
"""Simulations waiting for a lane; more are refused (503) until one starts."""
MAX_KEPT = 100
"""Finished jobs remembered for ``GET /api/simulations/jobs/{id}`` (the oldest are forgotten first)."""
CANCEL_GRACE = 1.0
"""Seconds a worker has to stop after a cancel before it is killed."""
STARTUP_SECONDS = 400.0
"""Seconds a worker may take to start a task (imports, and compiling the fast path on a cold cache, which
takes one to two minutes on a busy 2-core machine) before it is deemed broken. Not part of the budget."""

_CANCEL, _PLAYED = 0, 1
"""The two shared numbers of a lane."""


class Busy(ServiceError):
    status = 503


class Failed(ServiceError):
    status = 500


@dataclass(eq=False)
class Job:
    """One simulation: queued, running, then done, cancelled or failed."""

    id: str
    task: Json = field(repr=False)
    n: int
    listed: bool
    status: str = "queued"
    played: int = 0
    result: Json | None = None
    detail: str | None = None
    """Why it failed or was cancelled."""
    error: ServiceError | None = None
    created: float = field(default_factory=time.monotonic)
    finished_at: float | None = None
    cancel_reason: str | None = None
    done: threading.Event = field(default_factory=threading.Event)

    def cancel(self, reason: str = "cancelled") -> None:
        if self.cancel_reason is None:
            self.cancel_reason = reason

    def view(self) -> Json:
        return {"id": self.id, "status": self.status, "played": self.played, "n": self.n,
                "result": self.result, "detail": self.detail}

    def answer(self) -> Json:
        """The finished job as the answer of ``POST /api/simulations``, or its error raised."""
        if self.result is not None:
            return self.result
        raise self.error or Failed(self.detail or "the simulation failed")


def _compile_fast_path() -> None:
    """Compile (or load from the disk cache) the fast path's kernel in this worker, once."""
    global _COMPILED
    if not _COMPILED:
        from d20combat.simulation.fast.warm import warm

        warm()
        _COMPILED = True


_COMPILED = False


def _worker(conn: Connection, shared: Any) -> None:
    """A lane's worker process: play each task it is sent until told to stop (None) or killed."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C in the terminal is the server's to handle
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        if task.get("engine") == "fast":
            _compile_fast_path()  # before the budget's clock starts: a cold numba cache takes a minute or more
        conn.send(("started",))
        conn.send(_play(task, shared))


def _play(task: Json, shared: Any) -> tuple[Any, ...]:
    """One task in the worker: ("done", result or None, why stopped or None), ("rejected", detail) or
    ("error", text)."""
    from d20combat.server import simulations

    deadline = time.monotonic() + float(task["budget"])

    def halt() -> bool:
        return bool(shared[_CANCEL]) or time.monotonic() > deadline

    def progress(k: int) -> None:
        shared[_PLAYED] += k

    try:
        result = simulations.compute(task, halt, progress)
    except ServiceError as exc:
        return ("rejected", exc.detail)
    except Exception as exc:  # reported to the job; the worker goes on
        return ("error", f"{type(exc).__name__}: {exc}")
    if result is not None and result["n"] == int(task["n"]):
        return ("done", result, None)  # all played (even if a cancel came just after the last one)
    why = "cancelled" if shared[_CANCEL] else "time budget"
    if result is not None:
        result["stopped"] = why
    return ("done", result, why)


class Lane:
    """One worker process (started on first use) and the numbers it shares with the server."""

    def __init__(self, ctx: Any) -> None:
        self._ctx = ctx
        self.shared: Any = ctx.RawArray("q", 2)
        self.process: Any = None
        self.conn: Connection | None = None

    def _start(self) -> Connection:
        if self.process is not None and self.process.is_alive() and self.conn is not None:
            return self.conn
        self.kill()
        mine: Connection
        mine, theirs = self._ctx.Pipe()
        self.process = self._ctx.Process(target=_worker, args=(theirs, self.shared), daemon=True,
                                         name="d20combat-simulation")
        self.process.start()
        theirs.close()
        self.conn = mine
        return mine

    def kill(self) -> None:
        """Stop the worker process and forget it (the thread driving the lane)."""
        proc, conn, self.process, self.conn = self.process, self.conn, None, None
        _stop(proc)
        if conn is not None:
            conn.close()

    def run(self, job: Job, budget: float) -> tuple[Any, ...]:
        """Play the job's task in the worker, watching for a cancel, the budget and a dead worker."""
        self.shared[_CANCEL] = 0
        self.shared[_PLAYED] = 0
        if job.cancel_reason is not None:
            return ("done", None, "cancelled")
        conn = self._start()
        conn.send({**job.task, "budget": budget})
        hard = time.monotonic() + STARTUP_SECONDS
        cancelled_at: float | None = None
        while True:
            try:
                if conn.poll(0.05):
                    message: tuple[Any, ...] = conn.recv()
                    if message[0] != "started":
                        job.played = int(self.shared[_PLAYED])
                        return message
                    hard = time.monotonic() + budget + CANCEL_GRACE
            except (EOFError, OSError):
                self.kill()
                if job.cancel_reason is not None:  # stopped by Lab.close
                    return ("done", None, "cancelled")
                return ("error", "the simulation's worker process stopped")
            job.played = int(self.shared[_PLAYED])
            now = time.monotonic()
            if job.cancel_reason is not None and cancelled_at is None:
                self.shared[_CANCEL] = 1
                cancelled_at = now
            if (cancelled_at is not None and now > cancelled_at + CANCEL_GRACE) or now > hard:
                self.kill()
                if cancelled_at is not None:
                    return ("done", None, "cancelled")
                return ("done", None, "time budget")


def _stop(proc: Any) -> None:
    if proc is not None and proc.is_alive():
        proc.terminate()
        proc.join(0.5)
        if proc.is_alive():
            proc.kill()
            proc.join(0.5)


class Lab:
    """The simulations of one server: ``WORKERS`` lanes, the jobs waiting for them, the jobs finished."""

    def __init__(self, workers: int = WORKERS, budget: float = BUDGET_SECONDS) -> None:
        ctx = multiprocessing.get_context("spawn")  # no fork of a threaded server
        self.budget = budget
        self._lanes = [Lane(ctx) for _ in range(max(1, workers))]
        self._free: queue.Queue[Lane] = queue.Queue()
        for lane in self._lanes:
            self._free.put(lane)
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._active: set[Job] = set()
        self._lock = threading.Lock()
        self._waiting = 0
        self._closed = False

    def submit(self, task: Json, *, listed: bool = False) -> Job:
        """Queue a prepared task (:func:`d20combat.server.simulations.prepare`); a thread drives it."""
        with self._lock:
            if self._closed:
                raise Busy("simulations: the server is stopping")
            if self._waiting >= MAX_WAITING:
                raise Busy(f"simulations: {self._waiting} are already waiting for a worker; try again later")
            self._waiting += 1
            job = Job(secrets.token_hex(8), task, int(task["n"]), listed)
            self._active.add(job)
            if listed:
                self._jobs[job.id] = job
                self._forget_old()
        threading.Thread(target=self._drive, args=(job,), daemon=True, name=f"simulation-{job.id}").start()
        return job

    def _forget_old(self) -> None:
        finished = [jid for jid, j in self._jobs.items() if j.done.is_set()]
        for jid in finished[: max(0, len(self._jobs) - MAX_KEPT)]:
            del self._jobs[jid]

    def get(self, jid: str) -> Job | None:
        with self._lock:
            return self._jobs.get(jid)

    def _drive(self, job: Job) -> None:
        lane: Lane | None = None
        try:
            while lane is None and job.cancel_reason is None and not self._closed:
                try:
                    lane = self._free.get(timeout=0.05)
                except queue.Empty:
                    continue
            with self._lock:
                self._waiting -= 1
            if lane is None:
                self._finish(job, ("done", None, "cancelled"))
                return
            job.status = "running"
            self._finish(job, lane.run(job, self.budget))
        except Exception as exc:  # never leave a job running for ever
            self._finish(job, ("error", f"{type(exc).__name__}: {exc}"))
        finally:
            if lane is not None:
                self._free.put(lane)

    def _finish(self, job: Job, message: tuple[Any, ...]) -> None:
        kind = message[0]
        if kind == "done":
            result, why = message[1], message[2]
            job.result = result
            if why == "cancelled":
                job.status, job.detail = "cancelled", job.cancel_reason or "cancelled"
                job.error = Busy(f"simulation: {job.detail}")
            elif result is None:
                job.status = "failed"
                job.detail = (f"n: not one encounter finished within the time budget of {self.budget:g} s "
                              "(a stalemate? lower the scenario's max_rounds)" if job.played == 0 else
                              f"n: the time budget of {self.budget:g} s ran out inside an encounter that would not "
                              f"stop; its worker was stopped, and the {job.played} encounters finished with it")
                job.error = Rejected(job.detail)
            else:
                job.status = "done"
        elif kind == "rejected":
            job.status, job.detail = "failed", str(message[1])
            job.error = Rejected(job.detail)
        else:
            job.status, job.detail = "failed", f"simulation: {message[1]}"
            job.error = Failed(job.detail)
        job.finished_at = time.monotonic()
        with self._lock:
            self._active.discard(job)
        job.done.set()

    def open(self) -> None:
        """Take simulations again (after :meth:`close`; the workers start when next needed)."""
        with self._lock:
            self._closed = False

    def stop(self, reason: str = "the server is stopping") -> None:
        """Take no more simulations and cancel those waiting or running (they answer within moments)."""
        with self._lock:
            self._closed = True
            jobs = list(self._active)
        for job in jobs:
            job.cancel(reason)

    def close(self) -> None:
        """:meth:`stop`, and kill the workers (the server is stopping)."""
        self.stop()
        for lane in self._lanes:  # the threads driving them see their workers gone and finish the jobs
            lane.shared[_CANCEL] = 1
            _stop(lane.process)
