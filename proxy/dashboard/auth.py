"""Who may see the dashboard: tokens, their scopes, login cookies and the guard against guessing.

How this works: every request is checked by ``DashboardAuth.check``: an
``Authorization: Bearer <token>`` header, or the ``mcagent_dashboard`` cookie
that a login (the token typed into the login form) set. The console token has
the ``admin`` scope (the actions: stop an autopilot, kick); an optional
``dashboard.viewer_token`` has ``view`` (the pages only). A cookie holds a
random session id, never the token; it is HttpOnly (no script reads it) and
SameSite=Strict (no other site's page sends it), and lives ``COOKIE_SECONDS``.
A wrong token counts against the client's address in a ``Throttle`` (the CLI
hands in the console's own ``proxy.operations.login_throttle.LoginThrottle``);
while an address is locked, its tokens are not even compared and the answer is
429 with the wait.
"""
from __future__ import annotations

import enum
import hmac
import secrets
from collections.abc import Mapping
from typing import Any, Protocol

import attrs

COOKIE = "mcagent_dashboard"
COOKIE_SECONDS = 12 * 3600
MAX_SESSIONS = 1000


class Scope(enum.Enum):
    VIEW = "view"
    ADMIN = "admin"


@attrs.frozen
class Verdict:
    """The outcome of a check: a scope, or why not (401 wrong/missing, 429 locked for ``wait`` s)."""

    scope: Scope | None
    status: int = 200
    wait: float = 0.0
    new_cookie: str | None = None


class Throttle(Protocol):
    """Wrong tokens per address (``proxy.operations.login_throttle.LoginThrottle``)."""

    def locked_for(self, key: str) -> float: ...

    def failed(self, key: str) -> float: ...

    def refused(self, key: str) -> None: ...

    def succeeded(self, key: str) -> None: ...


class DashboardAuth:
    def __init__(self, tokens: Mapping[str, Scope], clock: Any, throttle: Throttle) -> None:
        if any(len(token) < 12 for token in tokens):
            raise ValueError("dashboard tokens must be at least 12 characters")
        self._tokens = dict(tokens)
        self.clock = clock
        self.throttle = throttle
        self._sessions: dict[str, tuple[Scope, float]] = {}

    def _scope_of(self, token: str) -> Scope | None:
        found = None
        for known, scope in self._tokens.items():
            # Every token is compared (no early exit), each in constant time.
            if hmac.compare_digest(token.encode(), known.encode()):
                found = scope
        return found

    def _session(self, sid: str | None) -> Scope | None:
        if not sid:
            return None
        entry = self._sessions.get(sid)
        if entry is None:
            return None
        scope, expires = entry
        if self.clock.seconds() >= expires:
            del self._sessions[sid]
            return None
        return scope

    def check(self, host: str, authorization: str | None, cookie: str | None) -> Verdict:
        """A request's verdict from its Authorization header and its session cookie."""
        scope = self._session(cookie)
        if scope is not None:
            return Verdict(scope)
        if not authorization:
            return Verdict(None, 401)
        kind, _, token = authorization.partition(" ")
        if kind.lower() != "bearer" or not token.strip():
            return Verdict(None, 401)
        return self._try(host, token.strip())

    def login(self, host: str, token: str) -> Verdict:
        """The login form: a right token gets a new session id to set as the cookie."""
        verdict = self._try(host, token.strip())
        if verdict.scope is None:
            return verdict
        if len(self._sessions) >= MAX_SESSIONS:
            now = self.clock.seconds()
            self._sessions = {k: v for k, v in self._sessions.items() if v[1] > now}
            while len(self._sessions) >= MAX_SESSIONS:
                del self._sessions[next(iter(self._sessions))]
        sid = secrets.token_urlsafe(32)
        self._sessions[sid] = (verdict.scope, self.clock.seconds() + COOKIE_SECONDS)
        return attrs.evolve(verdict, new_cookie=sid)

    def logout(self, cookie: str | None) -> None:
        if cookie:
            self._sessions.pop(cookie, None)

    def _try(self, host: str, token: str) -> Verdict:
        wait = self.throttle.locked_for(host)
        if wait > 0:
            self.throttle.refused(host)
            return Verdict(None, 429, wait)
        scope = self._scope_of(token)
        if scope is None:
            self.throttle.failed(host)
            return Verdict(None, 401)
        self.throttle.succeeded(host)
        return Verdict(scope)


def cookie_header(sid: str) -> str:
    return f"{COOKIE}={sid}; HttpOnly; SameSite=Strict; Path=/; Max-Age={COOKIE_SECONDS}"


def cleared_cookie_header() -> str:
    return f"{COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0"
