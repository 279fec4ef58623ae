"""Who may do what at the table (issue 13, item 5): the game master's key, and the Host and Origin checks.

Like Jupyter, the server has one secret, the GM's *key* (a token): random per database and stored in it, or given
(``d20combat serve --token``, ``$D20COMBAT_TOKEN``). ``d20combat serve`` prints the GM's URL with it
(``http://127.0.0.1:8000/?token=…``); opening that URL sets an HttpOnly, SameSite=Strict cookie and redirects to
the same page without the token. Every API call but the players' (``/api/play/…``) needs the key, by that cookie
or by ``Authorization: Bearer <token>``: without it 401, with a wrong one 403; so do the GM's pages (``/``,
``/table/…``). The players' routes and page (``/player/{player_id}``) need nothing and only read.

Every request must name this server in its Host header (its address, a loopback name, or one allowed with
``--allow-host``; a server listening on every address also takes any IP address and the machine's own name):
anything else is refused with 421, so that a web page whose name resolves to this machine (DNS rebinding)
cannot talk to it. A WebSocket, and any request that is not a GET/HEAD/OPTIONS, carrying an ``Origin`` header
must come from this server's own origin (403 otherwise).
"""

from __future__ import annotations

import hashlib
import ipaddress
import secrets
import socket
from collections.abc import Iterable
from http.cookies import SimpleCookie
from urllib.parse import parse_qsl, urlencode, urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from d20combat.server.store import Store

TOKEN_SETTING = "gm_token"
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1", "localhost.localdomain", "ip6-localhost"})
TEST_HOSTS = ("testserver",)
"""The name Starlette's test client sends: allowed when :func:`create_app` is given no hosts."""
WILDCARDS = frozenset({"0.0.0.0", "::", ""})
PUBLIC_PREFIXES = ("/api/play/", "/player/", "/static/")
PUBLIC_PATHS = frozenset({"/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc", "/favicon.ico"})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
NEEDS_KEY = ("this needs the game master's key: open the GM link `d20combat serve` printed (…/?token=…), or send "
             "Authorization: Bearer <token>")
WRONG_KEY = "the game master's key given is wrong"


def gm_token(store: Store, given: str | None = None) -> str:
    """The key: the one given, else the database's own (made and stored on first use)."""
    if given:
        return given
    return store.setting_or(TOKEN_SETTING, secrets.token_urlsafe(32))


def cookie_name(token: str) -> str:
    """The cookie's name, different for each key: two servers on one machine do not overwrite each other's."""
    return "d20combat_gm_" + hashlib.sha256(token.encode()).hexdigest()[:10]


def _hostname(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Guard:
    """Pure ASGI middleware: Host and Origin first, then the key for everything but the public paths."""

    def __init__(self, app: ASGIApp, token: str, hosts: Iterable[str] | None = None) -> None:
        self.app = app
        self.token = token
        self.cookie = cookie_name(token)
        given = list(TEST_HOSTS if hosts is None else hosts)
        self.any_ip = any(h.strip("[]") in WILDCARDS for h in given)
        names = {_hostname(h) for h in given if h.strip("[]") not in WILDCARDS} | LOOPBACK
        if self.any_ip:
            names |= {socket.gethostname().lower(), socket.getfqdn().lower()}
        self.hosts = frozenset(names)

    # ------------------------------------------------------------------ checks
    def host_ok(self, host: str) -> bool:
        name = _hostname(host)
        return name in self.hosts or (self.any_ip and _is_ip(name))

    @staticmethod
    def origin_ok(origin: str | None, host: str) -> bool:
        if origin is None:
            return True  # not a browser's cross-site request (those always say where they come from)
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and parts.netloc.lower() == host.strip().lower()

    def key(self, headers: Headers) -> bool | None:
        """True: the right key; False: a wrong one; None: none at all."""
        given: str | None = None
        auth = headers.get("authorization", "")
        if auth[:7].lower() == "bearer ":
            given = auth[7:].strip()
        else:
            jar: SimpleCookie = SimpleCookie()
            try:
                jar.load(headers.get("cookie", ""))
            except Exception:  # a malformed Cookie header is no key
                jar = SimpleCookie()
            morsel = jar.get(self.cookie)
            given = morsel.value if morsel is not None else None
        if given is None:
            return None
        return secrets.compare_digest(given.encode(), self.token.encode())

    @staticmethod
    def public(path: str) -> bool:
        return path in PUBLIC_PATHS or path.startswith(PUBLIC_PREFIXES)

    # ------------------------------------------------------------------ the middleware
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        path = str(scope.get("path", ""))
        host = headers.get("host", "")
        refusal = self._refusal(scope, headers, path, host)
        if refusal is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 4000 + refusal.status_code, "reason": ""})
        else:
            await refusal(scope, receive, send)

    def _refusal(self, scope: Scope, headers: Headers, path: str, host: str) -> Response | None:
        api = path.startswith("/api/")
        if not self.host_ok(host):
            return _answer(api, 421, f"Host: {host[:100]!r} is not this server's address (start the server with "
                                     f"--allow-host for another name)")
        method = str(scope.get("method", "GET"))
        if (scope["type"] == "websocket" or method not in SAFE_METHODS) and not self.origin_ok(
                headers.get("origin"), host):
            return _answer(api, 403, f"Origin: {headers.get('origin', '')[:100]!r} is not this server's own")
        if self.public(path):
            return None
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        if not api and scope["type"] == "http" and "token" in query:
            return self._login(scope, path, query)
        found = self.key(headers)
        if found:
            return None
        return _answer(api, 401 if found is None else 403, NEEDS_KEY if found is None else WRONG_KEY)

    def _login(self, scope: Scope, path: str, query: dict[str, str]) -> Response:
        """``/?token=…``: the right key sets the cookie and goes to the same page without it in the address."""
        if not secrets.compare_digest(query.pop("token").encode(), self.token.encode()):
            return _answer(False, 403, WRONG_KEY)
        rest = urlencode(query)
        answer = RedirectResponse(path + (f"?{rest}" if rest else ""), status_code=303)
        answer.set_cookie(self.cookie, self.token, httponly=True, samesite="strict", path="/",
                          secure=scope.get("scheme") == "https", max_age=30 * 24 * 3600)
        return answer


def _answer(api: bool, status: int, detail: str) -> Response:
    if api:
        return JSONResponse({"detail": detail}, status_code=status)
    return PlainTextResponse(detail, status_code=status)
