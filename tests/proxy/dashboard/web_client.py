"""Requests to the dashboard's resource without a socket: twisted.web's real ``Request`` on a dummy channel."""
from __future__ import annotations

from io import BytesIO
from pathlib import Path
from typing import Any

import attrs
from twisted.internet.address import IPv4Address
from twisted.internet.task import Clock
from twisted.web.server import Request, Site
from twisted.web.test.requesthelper import DummyChannel

from proxy.dashboard.auth import DashboardAuth, Scope
from proxy.dashboard.site import DashboardResource
from proxy.operations.login_throttle import LoginThrottle

ADMIN_TOKEN = "admin-token-0123456789"
VIEW_TOKEN = "viewer-token-0123456789"


@attrs.frozen
class Response:
    status: int
    headers: dict[str, list[str]]
    body: bytes
    request: Any

    def header(self, name: str) -> str | None:
        values = self.headers.get(name.lower())
        return values[0] if values else None


def parse(raw: bytes, request: Any) -> Response:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers: dict[str, list[str]] = {}
    for line in lines[1:]:
        name, _, value = line.partition(": ")
        headers.setdefault(name.lower(), []).append(value)
    return Response(status, headers, body, request)


class Client:
    def __init__(self, resource: DashboardResource) -> None:
        self.resource = resource
        self.site = Site(resource)

    def open(self, method: str, uri: str, headers: dict[str, str] | None = None, body: bytes = b"",
             host: str = "127.0.0.1") -> tuple[Request, DummyChannel]:
        channel = DummyChannel()
        channel.site = self.site
        request = Request(channel)
        for name, value in (headers or {}).items():
            request.requestHeaders.setRawHeaders(name.encode(), [value.encode()])
        request.parseCookies()  # the channel does this once the headers are in
        request.content = BytesIO(body)
        request.client = IPv4Address("TCP", host, 40000)
        request.requestReceived(method.encode(), uri.encode(), b"HTTP/1.1")
        return request, channel

    def call(self, method: str, uri: str, headers: dict[str, str] | None = None, body: bytes = b"",
             host: str = "127.0.0.1") -> Response:
        request, channel = self.open(method, uri, headers, body, host)
        return parse(channel.transport.written.getvalue(), request)

    def get(self, uri: str, token: str | None = ADMIN_TOKEN, **kw: Any) -> Response:
        headers = {"authorization": f"Bearer {token}"} if token else {}
        headers.update(kw.pop("headers", {}))
        return self.call("GET", uri, headers, **kw)


def make(live: Any = None, episodes: Path | None = None, clock: Clock | None = None,
         viewer: bool = True) -> tuple[Client, Clock]:
    clock = clock or Clock()
    tokens = {ADMIN_TOKEN: Scope.ADMIN}
    if viewer:
        tokens[VIEW_TOKEN] = Scope.VIEW
    throttle = LoginThrottle(clock, lambda host, failures, locked: None)
    resource = DashboardResource(DashboardAuth(tokens, clock, throttle), clock, live, episodes)
    return Client(resource), clock
