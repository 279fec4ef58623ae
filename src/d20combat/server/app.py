"""The HTTP API of the game master's table (``docs/api.md``) and the pages, as a FastAPI app.

``create_app(db_path)`` builds the app on one SQLite file. Routes are thin: they validate the
request with the models of :mod:`d20combat.server.models`, call the :class:`Service` in a worker
thread, and after every change tell the encounter's WebSocket listeners the new version. Simulations
play in worker processes (:mod:`d20combat.server.jobs`), stopped when their client goes away; request
bodies are bounded (:mod:`d20combat.server.bodylimit`).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from d20combat.model.catalog import default_catalog
from d20combat.server import models as m
from d20combat.server import preview_models as pm
from d20combat.server import sim_models as sm
from d20combat.server.bodylimit import BodyLimit
from d20combat.server.gm_models import GmIn
from d20combat.server.jobs import CANCEL_GRACE, Busy, Job, Lab
from d20combat.server.players import add_player_routes
from d20combat.server.security import Guard, gm_token
from d20combat.server.service import NotFound, Service, ServiceError
from d20combat.server.store import Store

STATIC = Path(__file__).resolve().parent / "static"

T = TypeVar("T")

Responses = dict[int | str, dict[str, Any]]
E404: Responses = {404: {"model": m.ErrorOut, "description": "no such encounter"}}
E409: Responses = {409: {"model": m.ErrorOut, "description": "stale expected_version: nothing changed"}}
E422: Responses = {422: {"model": m.ErrorOut,
                         "description": "malformed or illegal input, naming the field or the rule: nothing changed"}}
E413: Responses = {413: {"model": m.ErrorOut, "description": "the request body is over the size limit"}}
E503: Responses = {503: {"model": m.ErrorOut, "description": "too many simulations are waiting for a worker"}}
EJOB: Responses = {404: {"model": m.ErrorOut, "description": "no such simulation job"}}
EAUTH: Responses = {
    401: {"model": m.ErrorOut, "description": "no GM key (every route but /api/play/…)"},
    403: {"model": m.ErrorOut, "description": "a wrong GM key, or an Origin that is not this server's"},
    413: {"model": m.ErrorOut, "description": "the request body is over the size limit"},
    421: {"model": m.ErrorOut, "description": "a Host that is not this server's address"}}
POLL_SECONDS = 0.05
"""How often a waiting simulation request looks at its job and at its client."""


class Hub:
    """WebSocket listeners per encounter."""

    def __init__(self) -> None:
        self._sockets: dict[str, set[WebSocket]] = {}

    def add(self, eid: str, ws: WebSocket) -> None:
        self._sockets.setdefault(eid, set()).add(ws)

    def remove(self, eid: str, ws: WebSocket) -> None:
        self._sockets.get(eid, set()).discard(ws)

    async def serve(self, eid: str, ws: WebSocket) -> None:
        """Accept ``ws`` as a listener of ``eid`` until it closes (the page sends nothing)."""
        await ws.accept()
        self.add(eid, ws)
        try:
            while True:
                await ws.receive_text()
        except WebSocketDisconnect:
            pass
        finally:
            self.remove(eid, ws)

    async def broadcast(self, eid: str, version: int) -> None:
        for ws in list(self._sockets.get(eid, ())):
            try:
                await ws.send_json({"type": "state", "version": version})
            except Exception:  # a listener that went away
                self.remove(eid, ws)


def _loc(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def create_app(db_path: str | Path = "d20combat.db", *, lab: Lab | None = None, token: str | None = None,
               hosts: Iterable[str] | None = None) -> FastAPI:
    """The app on one SQLite file; ``lab``: the simulations' workers (default: a :class:`Lab` of two);
    ``token``: the GM's key (default: the database's own, made on first use; ``app.state.token``); ``hosts``:
    the names this server answers to besides the loopback ones (default: the test client's)."""
    store = Store(db_path)
    service = Service(store, lab)
    hub = Hub()
    key = gm_token(store, token)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        service.lab.open()
        try:
            yield
        finally:  # the server is stopping: cancel the simulations, stop their workers
            await run_in_threadpool(service.lab.close)

    app = FastAPI(title="d20combat — the game master's table", version="1", lifespan=lifespan, responses={**EAUTH},
                  description="See docs/api.md. Errors are 4xx with {\"detail\": message}; an illegal action, a "
                              "wrongly typed die or a stale expected_version changes nothing. Every route but "
                              "/api/play/… needs the GM's key (cookie or Authorization: Bearer).")
    app.add_middleware(BodyLimit)
    app.add_middleware(Guard, token=key, hosts=hosts)
    app.state.token = key
    app.state.service = service
    app.state.store = store  # open for the app's life (TestClients come and go); close it when done
    app.state.hub = hub

    @app.exception_handler(ServiceError)
    async def _service_error(request: Request, exc: ServiceError) -> JSONResponse:
        return JSONResponse({"detail": exc.detail}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for err in exc.errors():
            loc = _loc(tuple(err.get("loc", ())))
            problems.append(f"{loc}: {err.get('msg', 'invalid')}" if loc else str(err.get("msg", "invalid")))
        return JSONResponse({"detail": "; ".join(dict.fromkeys(problems)) or "invalid request"}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        if request.url.path.startswith("/api/"):
            if exc.status_code == 400:  # a body that is not even JSON text: malformed input like any other
                return JSONResponse({"detail": f"body: {exc.detail} (send JSON, UTF-8)"}, status_code=422)
            return JSONResponse({"detail": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers)
        return PlainTextResponse(str(exc.detail), status_code=exc.status_code, headers=exc.headers)

    async def call(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await run_in_threadpool(fn, *args, **kwargs)

    async def changed(result: dict[str, Any], eid: str) -> dict[str, Any]:
        await hub.broadcast(eid, int(result["version"]))
        return result

    # ------------------------------------------------------------------ encounters
    @app.get("/api/examples", response_model=list[str], summary="the shipped examples")
    async def examples() -> list[str]:
        return service.examples()

    @app.get("/api/bestiary", response_model=list[str],
             summary="the bestiary's stat blocks by name (for adding a creature mid-fight)")
    async def bestiary() -> list[str]:
        return sorted(default_catalog().bestiary)

    @app.post("/api/encounters", status_code=201, response_model=m.Summary, responses={**E422},
              summary="a new encounter from an example, a scenario or scenario YAML")
    async def create(body: m.CreateIn) -> dict[str, Any]:
        return await call(service.create, example=body.example, scenario=body.scenario,
                          scenario_yaml=body.scenario_yaml, seed=body.seed, name=body.name, players=body.players)

    @app.get("/api/encounters", response_model=list[m.Summary], summary="every encounter")
    async def list_encounters() -> list[dict[str, Any]]:
        return await call(service.encounters)

    @app.post("/api/encounters/import", status_code=201, response_model=m.Summary, responses={**E422},
              summary="a new encounter from an export (the state rebuilt from its events)")
    async def import_encounter(body: m.ExportIn) -> dict[str, Any]:
        return await call(service.import_, body.model_dump())

    @app.get("/api/encounters/{eid}", response_model=m.Summary, responses={**E404})
    async def summary(eid: str) -> dict[str, Any]:
        return await call(service.summary, eid)

    @app.patch("/api/encounters/{eid}", response_model=m.Summary, responses={**E404, **E409, **E422},
               summary="rename an encounter")
    async def rename(eid: str, body: m.RenameIn) -> dict[str, Any]:
        result = await call(service.rename, eid, body.name, body.expected_version)
        return await changed(result, eid)

    @app.delete("/api/encounters/{eid}", status_code=204, responses={**E404},
                summary="delete an encounter and its history (no undo)")
    async def delete(eid: str) -> Response:
        await call(service.delete, eid)
        return Response(status_code=204)

    @app.get("/api/encounters/{eid}/state", response_model=m.StateView, responses={**E404, **E422},
             summary="the state as the GM or the players see it")
    async def state(eid: str, view: Literal["gm", "player"] = "gm") -> dict[str, Any]:
        return await call(service.state, eid, view)

    @app.post("/api/encounters/{eid}/reveal", response_model=m.Result, responses={**E404, **E422},
              summary="show a creature to the players whatever the rules say they see (or stop showing it)")
    async def reveal(eid: str, body: m.RevealIn) -> dict[str, Any]:
        return await changed(await call(service.reveal, eid, body.combatant, body.revealed), eid)

    # exclude_unset: an option is sent back exactly as the engine wrote it. Two rulesets may each have a class of one
    # kind with other fields (each ruleset's ``cast_spell``): the OpenAPI model of that kind merges their fields, and
    # filling the others' defaults in would make the option refused when posted back.
    @app.get("/api/encounters/{eid}/decision", response_model=m.DecisionOut, responses={**E404},
             response_model_exclude_unset=True, summary="whose turn, the open reaction prompt, every legal action")
    async def decision(eid: str) -> dict[str, Any]:
        return await call(service.decision, eid)

    @app.post("/api/encounters/{eid}/actions", response_model=m.Result, responses={**E404, **E409, **E422},
              summary="take an action for the creature whose turn it is")
    async def act(eid: str, body: m.ActIn) -> dict[str, Any]:
        action = body.action.model_dump(exclude_unset=True)  # kind and the fields given
        return await changed(await call(service.act, eid, action, body.dice, body.expected_version), eid)

    @app.post("/api/encounters/{eid}/gm", response_model=m.Result, responses={**E404, **E409, **E422},
              summary="a game master's write: damage, healing, hp, conditions, timed effects, add or remove a "
                      "creature, call for a save or a check")
    async def gm_edit(eid: str, body: GmIn) -> dict[str, Any]:
        edit = body.edit.model_dump(exclude_unset=True)  # kind and the fields given
        return await changed(await call(service.gm, eid, edit, body.dice, body.expected_version), eid)

    @app.post("/api/encounters/{eid}/reactions", response_model=m.Result, responses={**E404, **E409, **E422},
              summary="answer the open reaction prompt")
    async def react(eid: str, body: m.ReactIn) -> dict[str, Any]:
        return await changed(await call(service.respond, eid, body.answer, body.dice, body.expected_version), eid)

    @app.post("/api/encounters/{eid}/undo", response_model=m.Result, responses={**E404, **E409, **E422},
              summary="undo the last committed write (or drop the action waiting for a reaction)")
    async def undo(eid: str, body: m.VersionIn) -> dict[str, Any]:
        return await changed(await call(service.undo, eid, body.expected_version), eid)

    @app.post("/api/encounters/{eid}/ai", response_model=m.Result, responses={**E404, **E409, **E422},
              summary="let the tactical AI play: one action, this creature's turn, or until the players' side")
    async def ai_play(eid: str, body: m.AiIn) -> dict[str, Any]:
        return await changed(await call(service.ai_play, eid, body.expected_version, body.until), eid)

    @app.post("/api/encounters/{eid}/redo", response_model=m.Result, responses={**E404, **E409, **E422},
              summary="redo the last undone write")
    async def redo(eid: str, body: m.VersionIn) -> dict[str, Any]:
        return await changed(await call(service.redo, eid, body.expected_version), eid)

    @app.get("/api/encounters/{eid}/log", response_model=list[m.LogEntry], responses={**E404, **E422},
             summary="the explained event log")
    async def event_log(eid: str, since: Annotated[int, Query(ge=0, description="first seq to return")] = 0
                        ) -> list[dict[str, Any]]:
        return await call(service.log, eid, since)

    @app.get("/api/encounters/{eid}/export", response_model=m.ExportData, responses={**E404},
             summary="the encounter as a file: scenario, the start's dice and event log (never the seed)")
    async def export(eid: str) -> dict[str, Any]:
        return await call(service.export, eid)

    # ------------------------------------------------------------------ previews
    @app.get("/api/encounters/{eid}/moves", response_model=pm.MovesOut, responses={**E404, **E422},
             summary="every square one move action reaches now, with path, cost and who it provokes")
    async def moves(eid: str, combatant: Annotated[str, Query(max_length=200)]) -> dict[str, Any]:
        return await call(service.moves, eid, combatant)

    @app.post("/api/encounters/{eid}/preview/move", response_model=pm.PreviewMoveOut, responses={**E404, **E422},
              summary="a move's path, cost, provoked reactions and cover from the destination")
    async def preview_move(eid: str, body: pm.PreviewMoveIn) -> dict[str, Any]:
        return await call(service.preview_move, eid, body.combatant, body.to, body.via)

    @app.post("/api/encounters/{eid}/preview/attack", response_model=pm.PreviewAttackOut,
              responses={**E404, **E422}, summary="an attack's numbers and exact odds")
    async def preview_attack(eid: str, body: pm.PreviewAttackIn) -> dict[str, Any]:
        return await call(service.preview_attack, eid, body.attacker, body.target, body.attack)

    @app.post("/api/encounters/{eid}/preview/charge", response_model=pm.PreviewChargeOut,
              responses={**E404, **E422}, summary="a charge's possible end squares, each legal or not, with "
                                                 "its line and who it provokes")
    async def preview_charge(eid: str, body: pm.PreviewChargeIn) -> dict[str, Any]:
        return await call(service.preview_charge, eid, body.attacker, body.target)

    @app.post("/api/encounters/{eid}/preview/dice", response_model=pm.PreviewDiceOut, responses={**E404, **E422},
              summary="the dice an action (or an answer) rolls, in the engine's order, and the next one it needs")
    async def preview_dice(eid: str, body: pm.PreviewDiceIn) -> dict[str, Any]:
        action = body.action.model_dump(exclude_unset=True) if body.action is not None else None
        return await call(service.preview_dice, eid, action, body.answer, body.dice)

    # ------------------------------------------------------------------ designers' lab
    async def start(body: sm.SimulateIn, listed: bool) -> Job:
        return await call(service.simulate, listed=listed, example=body.example, scenario=body.scenario,
                          scenario_yaml=body.scenario_yaml, n=body.n, seed=body.seed, engine=body.engine,
                          ruleset=body.ruleset)

    @app.post("/api/simulations", response_model=sm.SimulationOut, responses={**E413, **E422, **E503},
              summary="Monte Carlo of a scenario: win rates with 95 % intervals, rounds, damage")
    async def simulate(body: sm.SimulateIn, request: Request) -> dict[str, Any]:
        job = await start(body, False)
        try:
            while not job.done.is_set():
                if await request.is_disconnected():
                    job.cancel("the client went away")
                    break
                await asyncio.sleep(POLL_SECONDS)
        finally:  # also when the server stops and cancels this request
            if not job.done.is_set():
                job.cancel("the request was cancelled")
        if not job.done.is_set():  # nobody is listening any more
            raise Busy(f"simulation: cancelled ({job.cancel_reason})")
        return job.answer()

    @app.post("/api/simulations/jobs", status_code=202, response_model=sm.JobCreated,
              responses={**E413, **E422, **E503},
              summary="the same simulation as a job: poll it with GET, cancel it with DELETE")
    async def start_job(body: sm.SimulateIn) -> dict[str, Any]:
        return {"id": (await start(body, True)).id}

    def job_of(jid: str) -> Job:
        job = service.lab.get(jid)
        if job is None:
            raise NotFound(f"no simulation job {jid[:100]!r} (finished jobs are forgotten after a while)")
        return job

    @app.get("/api/simulations/jobs/{jid}", response_model=sm.JobOut, responses={**EJOB},
             summary="a simulation job: its status, progress and, when done, its result")
    async def get_job(jid: str) -> dict[str, Any]:
        return job_of(jid).view()

    @app.delete("/api/simulations/jobs/{jid}", response_model=sm.JobOut, responses={**EJOB},
                summary="cancel a simulation job; answers once it has stopped (within a second or two)")
    async def cancel_job(jid: str) -> dict[str, Any]:
        job = job_of(jid)
        job.cancel("cancelled by DELETE")
        await run_in_threadpool(job.done.wait, CANCEL_GRACE + 2.0)
        return job.view()

    # ------------------------------------------------------------------ live updates
    @app.websocket("/api/encounters/{eid}/ws")
    async def listen(ws: WebSocket, eid: str) -> None:
        try:
            await call(service.summary, eid)
        except NotFound as exc:
            await ws.close(code=4404, reason=exc.detail[:120])
            return
        await hub.serve(eid, ws)

    # ------------------------------------------------------------------ pages
    def page(name: str) -> Response:
        path = STATIC / name
        if not path.is_file():
            return PlainTextResponse(f"the page {name} is not built", status_code=404)
        return FileResponse(path, media_type="text/html")

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        return page("index.html")

    @app.get("/table/{eid}", include_in_schema=False)
    async def table(eid: str) -> Response:
        await call(service.summary, eid)
        return page("table.html")

    add_player_routes(app, service, hub, call, page)

    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app
