"""The dashboard's HTTP side: one twisted.web resource that checks every request, then routes it.

How this works: ``DashboardResource.render`` asks ``DashboardAuth`` first, for
every path (the pages, their scripts, the JSON views, the event streams): no
valid token or cookie gets 401 (a page gets the login form as the body of that
401), a locked address 429. The login form posts the token to ``/login``, which
sets the session cookie. An authorised request is looked up in ``ROUTES`` (method
and first path segment → handler); the handlers turn the snapshots of
``overview``, ``player_view`` and ``episodes`` into JSON or SSE at this edge.
The admin actions (stop an autopilot, kick) need the admin scope, a JSON body
that says ``"confirm": true`` (a cross-site form cannot send JSON without the
browser asking first), and are logged with who asked from where.

With no proxy (``mcagent replay-view``), ``live`` is None: the live views answer
404 and the replay works from the folder given.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, unquote

from twisted.internet import threads
from twisted.logger import Logger
from twisted.web import resource, server
from twisted.web.server import Request

from proxy.dashboard import episodes
from proxy.dashboard.auth import COOKIE, DashboardAuth, Scope, Verdict, cleared_cookie_header, cookie_header
from proxy.dashboard.overview import RateMeter, overview, to_json
from proxy.dashboard.player_view import player_view
from proxy.dashboard.sse import EventStream

if TYPE_CHECKING:
    from proxy.connection.core import Connection
    from proxy.server import ProxyServer

log = Logger(namespace="mcagent.dashboard")

STATIC = Path(__file__).resolve().parent / "static"
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8"}
PAGES = {"": "index.html", "player": "player.html", "replay": "replay.html"}
MAX_BODY = 4096
MAX_STREAMS = 32
OVERVIEW_SECONDS = 1.0
PLAYER_SECONDS = 0.5
SECURITY_HEADERS = {
    b"content-security-policy": b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                                b"img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
                                b"form-action 'self'; base-uri 'none'",
    b"x-content-type-options": b"nosniff",
    b"referrer-policy": b"no-referrer",
    b"x-frame-options": b"DENY",
}


def load_static() -> dict[str, tuple[bytes, str]]:
    """The package's static files, read once (a page is a few kB)."""
    return {p.name: (p.read_bytes(), TYPES[p.suffix]) for p in STATIC.iterdir() if p.suffix in TYPES}


class DashboardResource(resource.Resource):
    isLeaf = True

    def __init__(self, auth: DashboardAuth, clock: Any, live: "ProxyServer | None", episode_root: Path | None,
                 reactor: Any = None) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.auth = auth
        self.clock = clock
        self.live = live
        self.episode_root = episode_root
        self.reactor = reactor
        self.static = load_static()
        self.rates = RateMeter()
        self.streams: set[EventStream] = set()
        self.routes: dict[tuple[bytes, str], Callable[[Request, list[str], Scope], bytes | int]] = {
            (b"GET", "api"): self._api,
            (b"GET", "events"): self._events,
            (b"GET", "static"): self._static_file,
            (b"POST", "logout"): self._logout,
            (b"POST", "admin"): self._admin,
        }

    # -- entry ---------------------------------------------------------------------------------
    def render(self, request: Request) -> bytes | int:
        for name, value in SECURITY_HEADERS.items():
            request.setHeader(name, value)
        request.setHeader(b"cache-control", b"no-store")
        parts = [unquote(p) for p in (request.path or b"/").decode("utf-8", "replace").split("/")[1:]]
        method = request.method or b"GET"
        host = _host(request)
        if method == b"POST" and parts == ["login"]:
            return self._login(request, host)
        verdict = self.auth.check(host, _header(request, b"authorization"), _cookie(request))
        if verdict.scope is None:
            return self._refuse(request, verdict, parts)
        scope = verdict.scope
        if method == b"GET" and len(parts) <= 2 and parts[0] in PAGES:
            # Without a proxy (replay-view) every page is the replay.
            return self._page(request, PAGES[parts[0]] if self.live is not None else PAGES["replay"])
        handler = self.routes.get((method, parts[0]))
        if handler is None:
            return _json(request, 404, {"error": "not found"})
        return handler(request, parts[1:], scope)

    def _refuse(self, request: Request, verdict: Verdict, parts: list[str]) -> bytes:
        if verdict.status == 429:
            request.setHeader(b"retry-after", str(int(verdict.wait) + 1).encode())
        wants_page = (request.method or b"GET") == b"GET" and parts[0] in PAGES
        if not wants_page:
            message = "too many wrong tokens; wait" if verdict.status == 429 else "a dashboard token is needed"
            return _json(request, verdict.status, {"error": message})
        return self._login_page(request, verdict.status, "")

    def _login_page(self, request: Request, status: int, message: str) -> bytes:
        request.setResponseCode(status)
        request.setHeader(b"content-type", b"text/html; charset=utf-8")
        body, _ = self.static["login.html"]
        return body.replace(b"<!--message-->", message.encode())

    def _login(self, request: Request, host: str) -> bytes:
        body = _body(request)
        token = (parse_qs(body.decode("utf-8", "replace")).get("token") or [""])[0] if body is not None else ""
        verdict = self.auth.login(host, token)
        if verdict.new_cookie is None:
            if verdict.status == 429:
                request.setHeader(b"retry-after", str(int(verdict.wait) + 1).encode())
                return self._login_page(request, 429, f"Too many wrong tokens: wait {verdict.wait:.0f} s.")
            return self._login_page(request, 401, "Wrong token.")
        request.setHeader(b"set-cookie", cookie_header(verdict.new_cookie).encode())
        request.setResponseCode(303)
        request.setHeader(b"location", b"/" if self.live is not None else b"/replay")
        return b""

    def _logout(self, request: Request, rest: list[str], scope: Scope) -> bytes:
        self.auth.logout(_cookie(request))
        request.setHeader(b"set-cookie", cleared_cookie_header().encode())
        return _json(request, 200, {"ok": True})

    def _page(self, request: Request, name: str) -> bytes:
        body, kind = self.static[name]
        request.setHeader(b"content-type", kind.encode())
        return body

    def _static_file(self, request: Request, rest: list[str], scope: Scope) -> bytes:
        if len(rest) != 1 or rest[0] not in self.static:
            return _json(request, 404, {"error": "not found"})
        return self._page(request, rest[0])

    # -- JSON views ----------------------------------------------------------------------------
    def overview_json(self) -> dict[str, Any]:
        assert self.live is not None
        data: dict[str, Any] = to_json(overview(self.live, self.rates, self.clock.seconds()))
        return data

    def player_json(self, name: str) -> dict[str, Any] | None:
        conn = self._connection(name)
        if conn is None or conn.session is None or conn.player_name is None:
            return None
        data: dict[str, Any] = to_json(player_view(conn.player_name, conn.session, self.clock.seconds()))
        # On a network, the servers an admin may send this player to (as the overview's buttons).
        network = self.live.network.network if self.live is not None else None
        several = network is not None and network.several
        data["servers"] = list(network.backends) if network is not None and several else []
        data["server"] = conn.backend.name if several and conn.backend is not None else None
        return data

    def _connection(self, name: str) -> "Connection | None":
        if self.live is None:
            return None
        for conn in self.live.connections:
            if conn.session is not None and (conn.player_name or "").lower() == name.lower():
                return conn
        return None

    def _api(self, request: Request, rest: list[str], scope: Scope) -> bytes | int:
        what = rest[0] if rest else ""
        if what == "whoami":
            return _json(request, 200, {"scope": scope.value, "live": self.live is not None})
        if what == "episodes":
            return self._episode_list(request)
        if what == "episode":
            return self._episode(request)
        if self.live is None:
            return _json(request, 404, {"error": "no proxy runs here: only replays"})
        if what == "overview" and len(rest) == 1:
            return _json(request, 200, self.overview_json())
        if what == "player" and len(rest) == 2:
            view = self.player_json(rest[1])
            if view is None:
                return _json(request, 404, {"error": "no such player is connected"})
            return _json(request, 200, view)
        return _json(request, 404, {"error": "not found"})

    # -- streams -------------------------------------------------------------------------------
    def _events(self, request: Request, rest: list[str], scope: Scope) -> bytes | int:
        if self.live is None:
            return _json(request, 404, {"error": "no proxy runs here: only replays"})
        if len(self.streams) >= MAX_STREAMS:
            return _json(request, 503, {"error": "too many open event streams"})
        if rest == ["overview"]:
            produce: Callable[[], Any | None] = self.overview_json
            event, interval = "overview", OVERVIEW_SECONDS
        elif len(rest) == 2 and rest[0] == "player":
            name = rest[1]
            produce, event, interval = (lambda: self.player_json(name)), "player", PLAYER_SECONDS
        else:
            return _json(request, 404, {"error": "not found"})
        self.streams.add(EventStream(request, event, produce, self.clock, interval, self.streams.discard))
        return server.NOT_DONE_YET

    def close_streams(self) -> None:
        for stream in list(self.streams):
            stream.close()

    # -- replays -------------------------------------------------------------------------------
    def _episode_list(self, request: Request) -> bytes:
        root = self.episode_root
        names = episodes.find(root) if root is not None and root.is_dir() else []
        return _json(request, 200, {"episodes": names})

    def _episode(self, request: Request) -> bytes | int:
        root = self.episode_root
        name = (request.args or {}).get(b"name", [b"."])[0].decode("utf-8", "replace")
        if root is None:
            return _json(request, 404, {"error": "no episode folder is configured"})
        try:
            folder = episodes.resolve(root, name)
        except episodes.EpisodeError as exc:
            return _json(request, 400, {"error": str(exc)})

        def loaded(episode: episodes.Episode) -> None:
            _finish(request, 200, to_json(episode))

        def failed(failure: Any) -> None:
            if failure.check(episodes.EpisodeError):
                _finish(request, 422, {"error": str(failure.value)})
            else:
                log.failure("loading an episode failed", failure)
                _finish(request, 500, {"error": "the episode could not be loaded (the proxy's log says why)"})

        if self.reactor is None:  # tests: read at once
            try:
                return _json(request, 200, to_json(episodes.load(folder, name)))
            except episodes.EpisodeError as exc:
                return _json(request, 422, {"error": str(exc)})
        # Off the reactor thread: a decision log may be megabytes.
        threads.deferToThreadPool(self.reactor, self.reactor.getThreadPool(), episodes.load, folder,
                                  name).addCallbacks(loaded, failed)
        return server.NOT_DONE_YET

    # -- admin actions -------------------------------------------------------------------------
    def _admin(self, request: Request, rest: list[str], scope: Scope) -> bytes:
        if scope is not Scope.ADMIN:
            return _json(request, 403, {"error": "this token may only look"})
        if self.live is None:
            return _json(request, 404, {"error": "no proxy runs here: only replays"})
        if len(rest) != 1 or rest[0] not in ("stop", "kick", "send"):
            return _json(request, 404, {"error": "not found"})
        content_type = (_header(request, b"content-type") or "").split(";")[0].strip().lower()
        body = _body(request)
        if content_type != "application/json" or body is None:
            return _json(request, 415, {"error": "send a JSON body (at most 4 kB)"})
        try:
            args = json.loads(body)
        except ValueError:
            return _json(request, 400, {"error": "the body is not JSON"})
        if not isinstance(args, dict) or args.get("confirm") is not True or not isinstance(args.get("player"), str):
            return _json(request, 400, {"error": "expected {\"player\": NAME, \"confirm\": true}"})
        conn = self._connection(args["player"])
        if conn is None or conn.session is None:
            return _json(request, 404, {"error": "no such player is connected"})
        host = _host(request)
        if rest[0] == "stop":
            if not conn.session.pilot.active:
                return _json(request, 409, {"error": f"{conn.player_name}'s autopilot is not running"})
            actions = conn.session.admin_agent("off", self.clock.seconds())
            conn.perform(actions)  # the player sees the same answer as for the console's "agent off"
            log.info("dashboard: an admin at {host} stopped the autopilot of {player}", host=host,
                     player=conn.player_name)
            return _json(request, 200, {"ok": True, "done": f"stopped {conn.player_name}'s autopilot"})
        if rest[0] == "send":
            return self._send(request, conn, args.get("server"), host)
        conn.disconnect("Kicked by an administrator.", "kicked_by_admin")
        log.info("dashboard: an admin at {host} kicked {player}", host=host, player=conn.player_name)
        return _json(request, 200, {"ok": True, "done": f"kicked {conn.player_name}"})

    def _send(self, request: Request, conn: "Connection", target: Any, host: str) -> bytes:
        """The console's ``send PLAYER SERVER``: the same checks, the same words to the player."""
        assert self.live is not None
        network = self.live.network.network
        if not network.several:
            return _json(request, 409, {"error": "this proxy has one backend: there is nowhere to send a player"})
        if not isinstance(target, str) or network.get(target.strip()) is None:
            return _json(request, 400, {"error": "expected \"server\": one of " + ", ".join(network.backends)})
        before = conn.switch
        lines = self.live.network.send(conn, target.strip())
        if conn.switch is None or conn.switch is before:  # refused: already there, or a move under way
            return _json(request, 409, {"error": "; ".join(lines)})
        log.info("dashboard: an admin at {host} sent {player} to {server}", host=host, player=conn.player_name,
                 server=target.strip())
        return _json(request, 200, {"ok": True, "done": f"sending {conn.player_name} to {target.strip()}"})


def _host(request: Request) -> str:
    return str(getattr(request.getClientAddress(), "host", "?"))


def _header(request: Request, name: bytes) -> str | None:
    value = request.getHeader(name)
    return value.decode("latin-1") if isinstance(value, bytes) else value


def _cookie(request: Request) -> str | None:
    value = request.getCookie(COOKIE.encode())
    return value.decode("ascii", "replace") if value else None


def _body(request: Request) -> bytes | None:
    """The request body when it is at most ``MAX_BODY`` bytes, else None."""
    content = request.content
    if content is None:
        return b""
    data: bytes = content.read(MAX_BODY + 1)
    return data if len(data) <= MAX_BODY else None


def _json(request: Request, status: int, data: Any) -> bytes:
    request.setResponseCode(status)
    request.setHeader(b"content-type", b"application/json; charset=utf-8")
    return json.dumps(data, separators=(",", ":"), allow_nan=False).encode("utf-8")


def _finish(request: Request, status: int, data: Any) -> None:
    if request.finished or getattr(request, "_disconnected", False):
        return
    request.write(_json(request, status, data))
    request.finish()
