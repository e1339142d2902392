"""Online mode's question to the session server: did this player join with this digest?

``has_joined`` fires with the parsed JSON answer (a profile), or None when the
server answered 204 No Content, which is how Mojang says "this player did not
join": the caller treats None as a refusal (``proxy.profile.profile_from_session``).
The base URL comes from config (``session_server``), so an owner can point at
another Yggdrasil-compatible service and a test at its own.
"""
from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from twisted.internet.defer import Deferred
from twisted.web.client import Agent, readBody
from twisted.web.iweb import IResponse

MAX_ANSWER_BYTES = 64 * 1024  # a profile is ~2 KB


class SessionServerError(Exception):
    """The session server could not be asked, or answered something unusable."""


def has_joined(reactor: Any, base_url: str, player_name: str, digest: str, timeout: float = 10.0) -> "Deferred[Any]":
    query = urlencode({"username": player_name, "serverId": digest})
    url = f"{base_url}/session/minecraft/hasJoined?{query}".encode("ascii")
    agent = Agent(reactor, connectTimeout=timeout)  # type: ignore[no-untyped-call]
    d: Deferred[Any] = agent.request(b"GET", url)

    def answered(response: IResponse) -> Any:
        if response.code == 204:
            return None
        if response.code != 200:
            raise SessionServerError(f"the session server answered HTTP {response.code}")
        return readBody(response).addCallback(_parse)

    d.addCallback(answered)
    d.addTimeout(timeout, reactor)
    return d


def _parse(body: bytes) -> Any:
    if not body:
        return None
    if len(body) > MAX_ANSWER_BYTES:
        raise SessionServerError("the session server's answer is too long")
    try:
        return json.loads(body)
    except ValueError:
        raise SessionServerError("the session server's answer is not JSON") from None
