"""A request body over :data:`d20combat.limits.MAX_REQUEST_BYTES` is refused with 413 before it is parsed:
at once when its Content-Length says so, else as soon as the bytes received (a chunked body) pass the limit."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from d20combat.limits import MAX_REQUEST_BYTES


def _too_large(size: int, limit: int) -> str:
    return f"body: {size} bytes is over the limit of {limit}"


class BodyLimit:
    """Pure ASGI middleware (it must see the body as it streams in)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_REQUEST_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None and declared.strip().isdigit() and int(declared) > self.limit:
            await self._refuse(scope, int(declared))(scope, receive, send)
            return
        received = 0
        started = False

        async def counting() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:  # an HTTPException: FastAPI passes it on while it reads the body
                    raise HTTPException(413, _too_large(received, self.limit))
            return message

        async def watching(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting, watching)
        except HTTPException as exc:
            if started or exc.status_code != 413:
                raise
            await self._refuse(scope, received)(scope, receive, send)

    def _refuse(self, scope: Scope, size: int) -> Response:
        detail = _too_large(size, self.limit)
        if str(scope.get("path", "")).startswith("/api/"):
            return JSONResponse({"detail": detail}, status_code=413, headers={"connection": "close"})
        return PlainTextResponse(detail, status_code=413, headers={"connection": "close"})
