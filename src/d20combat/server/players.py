"""The players' routes (issue 13): ``/player/{player_id}`` and ``/api/play/{player_id}/…`` — no key, reads only.

Each encounter has its own random players' id (not its id, which is the GM's). Everything here serves the
players' view of :mod:`d20combat.server.playerview`: the creatures the players' side sees, no other side's hit
points, no scenario, no seed. Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import FastAPI, Query, WebSocket
from fastapi.responses import Response
from pydantic import BaseModel, Field

from d20combat.server import models as m
from d20combat.server.service import NotFound, Service

E404: dict[int | str, dict[str, Any]] = {
    404: {"model": m.ErrorOut, "description": "no such players' page"},
    422: {"model": m.ErrorOut, "description": "a malformed parameter, named"}}


class PlayerSummary(BaseModel):
    """An encounter as its players' page reads it (never the encounter's own id)."""

    player_id: str
    name: str
    ruleset: str
    round: int
    ended: bool
    winner: str | None
    version: int
    players: str = Field(description="the players' side")


class PlayerLogEntry(BaseModel):
    seq: int
    kind: str
    text: str = Field(description="the event explained, cut down to what the players see")


def add_player_routes(app: FastAPI, service: Service, hub: Any, call: Callable[..., Awaitable[Any]],
                      page: Callable[[str], Response]) -> None:
    """The players' page, its three reads and its WebSocket (``hub`` tells it the new version of its encounter)."""

    @app.get("/api/play/{pid}", response_model=PlayerSummary, responses={**E404},
             summary="the players' page: the encounter's name, round and version")
    async def player_summary(pid: str) -> dict[str, Any]:
        result: dict[str, Any] = await call(service.player_summary, pid)
        return result

    @app.get("/api/play/{pid}/state", response_model=m.StateView, responses={**E404},
             summary="the state as the players see it")
    async def player_state(pid: str) -> dict[str, Any]:
        result: dict[str, Any] = await call(service.player_state, pid)
        return result

    @app.get("/api/play/{pid}/log", response_model=list[PlayerLogEntry], responses={**E404},
             summary="the log as the players see it")
    async def player_log(pid: str, since: Annotated[int, Query(ge=0, description="first seq to return")] = 0
                         ) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = await call(service.player_log, pid, since)
        return result

    @app.websocket("/api/play/{pid}/ws")
    async def player_listen(ws: WebSocket, pid: str) -> None:
        try:
            eid = await call(service.player_encounter, pid)
        except NotFound as exc:
            await ws.close(code=4404, reason=exc.detail[:120])
            return
        await hub.serve(eid, ws)

    @app.get("/player/{pid}", include_in_schema=False)
    async def player_page(pid: str) -> Response:
        await call(service.player_encounter, pid)
        return page("table.html")
