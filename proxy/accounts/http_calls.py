"""The one place where httpx (and msal, which uses our httpx client) can fail: mapped into ``AccountError``.

How this works: ``send`` makes one JSON request to one service and returns an
``Answer`` (status and parsed JSON); ``oauth`` runs one msal call. Both turn
every exception of the network and of the libraries into ``ServiceUnreachable``
(no connection, a timeout: naming the host) or ``ServiceFailed`` (a 5xx, a body
that is not JSON), so nothing above this module catches a third-party type.
The texts name the service and its host only, never a URL (a query could carry
a token) nor an exception's own words. ``scrubbed`` removes every form of the
tokens an operation knows from a service's own text before we quote it.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, TypeVar
from urllib.parse import urlsplit

import attrs
import httpx

from engine.llm.secrets import forms
from proxy.accounts.errors import ServiceFailed, ServiceUnreachable

MAX_ANSWER_BYTES = 1 << 20  # every answer here is a few KB
T = TypeVar("T")


@attrs.frozen
class Service:
    name: str  # for a player: "Microsoft sign-in", "Xbox Live", ...
    url: str

    @property
    def host(self) -> str:
        return urlsplit(self.url).hostname or self.url


@attrs.frozen
class Answer:
    status: int
    body: Any  # parsed JSON; None for an empty body


def send(http: httpx.Client, service: Service, method: str, *, body: Any = None, bearer: str | None = None,
         headers: dict[str, str] | None = None) -> Answer:
    sent = {"Accept": "application/json", **(headers or {})}
    if bearer is not None:
        sent["Authorization"] = f"Bearer {bearer}"
    try:
        response = http.request(method, service.url, json=body, headers=sent)
        raw = response.content
    except httpx.HTTPError as exc:
        raise unreachable(service, exc) from None
    if response.status_code >= 500:
        raise ServiceFailed(service.name, service.host, f"answered HTTP {response.status_code} (a fault on its side)",
                            detail=f"HTTP {response.status_code}")
    if len(raw) > MAX_ANSWER_BYTES:
        raise ServiceFailed(service.name, service.host, "answered more than 1 MB", detail="oversized answer")
    if not raw.strip():
        return Answer(response.status_code, None)
    try:
        return Answer(response.status_code, json.loads(raw))
    except ValueError:
        raise ServiceFailed(service.name, service.host, f"answered HTTP {response.status_code} with something "
                            "that is not JSON", detail=f"HTTP {response.status_code}, not JSON") from None


def oauth(service: Service, call: Callable[[], T]) -> T:
    """Run one msal call: it posts through our httpx client and parses the answer itself."""
    try:
        return call()
    except httpx.HTTPStatusError as exc:  # msal raises for a 5xx
        status = exc.response.status_code
        raise ServiceFailed(service.name, service.host, f"answered HTTP {status} (a fault on its side)",
                            detail=f"HTTP {status}") from None
    except httpx.HTTPError as exc:
        raise unreachable(service, exc) from None
    except (ValueError, TypeError, AttributeError, KeyError) as exc:
        # msal parses with json.loads and reads the result as a dict: garbage surfaces as one of these.
        raise ServiceFailed(service.name, service.host, "answered something that is not an OAuth answer",
                            detail=type(exc).__name__) from None


def unreachable(service: Service, exc: httpx.HTTPError) -> ServiceUnreachable:
    if isinstance(exc, httpx.TimeoutException):
        why = "no answer in time"
    elif isinstance(exc, httpx.ConnectError):
        why = "no connection (offline, a wrong address, or a firewall)"
    else:
        why = "the connection failed"
    return ServiceUnreachable(service.name, service.host, why, detail=type(exc).__name__)


def scrubbed(text: str, secrets: Iterable[str], limit: int = 200) -> str:
    for secret in secrets:
        if secret:
            for form in forms(secret):
                text = text.replace(form, "…")
    return text[:limit]
