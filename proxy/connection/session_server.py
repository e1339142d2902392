"""The session server, from both sides of a login.

As a server (online mode on the client leg): did this player join with this digest?
``has_joined`` fires with the parsed JSON answer (a profile), or None when the
server answered 204 No Content, which is how Mojang says "this player did not
join": the caller treats None as a refusal (``proxy.connection.profile.profile_from_session``).
As a client (``upstream_auth`` microsoft on the server leg): ``join`` tells the session
server that the account is joining the server whose digest is given, as a vanilla client
does before it answers the encryption request; Mojang answers 204, or 403 with a JSON
error for a bad or expired token. The access token travels only in the request body and
never in an error.

The base URL comes from config (``session_server``), so an owner can point at
another Yggdrasil-compatible service and a test at its own.
"""
from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from twisted.internet.defer import Deferred
from twisted.web.client import Agent, FileBodyProducer, readBody
from twisted.web.http_headers import Headers
from twisted.web.iweb import IResponse

MAX_ANSWER_BYTES = 64 * 1024  # a profile is ~2 KB


class SessionServerError(Exception):
    """The session server could not be asked, or answered something unusable."""


class JoinRefused(SessionServerError):
    """The session server said no to a join: the token is invalid, expired or revoked."""


def has_joined(reactor: Any, base_url: str, player_name: str, digest: str, timeout: float = 10.0) -> "Deferred[Any]":
    query = urlencode({"username": player_name, "serverId": digest})
    url = f"{base_url}/session/minecraft/hasJoined?{query}".encode("ascii")
    agent = Agent(reactor, connectTimeout=timeout)
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


def join(reactor: Any, base_url: str, access_token: str, profile_id: str, digest: str,
         timeout: float = 10.0) -> "Deferred[None]":
    """POST /session/minecraft/join; fires None once the session server accepted it.

    ``profile_id`` is the account's UUID without dashes, as the session server wants it.
    """
    from io import BytesIO

    body = json.dumps({"accessToken": access_token, "selectedProfile": profile_id, "serverId": digest}).encode()
    agent = Agent(reactor, connectTimeout=timeout)
    url = f"{base_url}/session/minecraft/join".encode("ascii")
    d: Deferred[Any] = agent.request(b"POST", url, Headers({b"Content-Type": [b"application/json"]}),
                                     FileBodyProducer(BytesIO(body)))

    def answered(response: IResponse) -> Any:
        if response.code in (200, 204):
            return readBody(response).addCallback(lambda _: None)
        if response.code in (401, 403):
            return readBody(response).addCallback(_refused, access_token)
        raise SessionServerError(f"the session server answered HTTP {response.code} to the join")

    d.addCallback(answered)
    d.addTimeout(timeout, reactor)
    return d


def _refused(body: bytes, access_token: str) -> None:
    # Mojang's answer names the error ("Invalid token."); keep only that short text, and
    # none of it if a session server echoed the token back.
    why = ""
    try:
        answer = json.loads(body[:MAX_ANSWER_BYTES]) if body else {}
        if isinstance(answer, dict):
            why = str(answer.get("errorMessage") or answer.get("error") or "")[:120]
    except ValueError:
        pass
    if access_token and access_token in why:
        why = ""
    raise JoinRefused(why or "the session server refused the join")
