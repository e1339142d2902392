"""Microsoft sign-in: the OAuth 2 device-code grant and the refresh-token grant, through msal.

How this works: msal's generic OAuth 2 client (``msal.oauth2cli.oauth2.Client``)
does the grants; its public-client class is not used because it insists on a
login.microsoftonline.com authority with OIDC discovery, which neither the
launcher's live.com endpoints nor a local test server offer. msal posts through
our ``httpx.Client``, so timeouts and the absence of redirects are ours.

``device_login`` starts the flow, hands the player the URL and code (``show``),
then polls the token endpoint itself with the injected ``clock`` and ``sleep``:
msal's own loop sleeps on the real clock, so it is called with
``exit_condition=lambda flow: True`` (one poll per call) and told nothing of
our previous poll (its "too soon" warning reads the real clock too). msal
widens ``flow["interval"]`` on ``slow_down``; we sleep whatever it says.

Answers are dicts with an ``error`` code or the tokens; ``_DEVICE_ERRORS`` and
``_REFRESH_ERRORS`` map the codes a player can cause to our errors.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import attrs
import httpx
from msal.oauth2cli.oauth2 import Client as OAuthClient

from proxy.accounts.errors import (AccountError, AppNotApproved, LoginDeclined, LoginTimedOut, ServiceFailed,
                                   SignInExpired)
from proxy.accounts.http_calls import Service, oauth, scrubbed
from proxy.accounts.settings import AccountSettings

_PENDING = ("authorization_pending", "slow_down")
_CLIENT_REFUSED = ("invalid_client", "unauthorized_client")
_DEVICE_ERRORS: dict[str, type[AccountError]] = {
    "expired_token": LoginTimedOut, "code_expired": LoginTimedOut, "invalid_grant": LoginTimedOut,
    "authorization_declined": LoginDeclined, "access_denied": LoginDeclined,
}
_REFRESH_ERRORS: dict[str, type[AccountError]] = {
    "invalid_grant": SignInExpired, "interaction_required": SignInExpired, "consent_required": SignInExpired,
}

# msal logs an unparseable token answer in full: that text could hold a token, and we
# report the failure ourselves. Its client logs through this muted logger instead.
_MUTED = logging.getLogger("proxy.accounts.msal")
_MUTED.addHandler(logging.NullHandler())
_MUTED.propagate = False


@attrs.frozen
class DeviceCode:
    """What the player needs to finish signing in in a browser (the device code itself stays inside)."""

    verification_uri: str
    user_code: str
    message: str
    expires_at: float  # unix seconds, on the store's clock


@attrs.frozen
class MicrosoftTokens:
    access_token: str = attrs.field(repr=False)
    refresh_token: str = attrs.field(repr=False)


class MicrosoftSignIn:
    def __init__(self, settings: AccountSettings, http: httpx.Client, clock: Callable[[], float],
                 sleep: Callable[[float], None]) -> None:
        self._settings = settings
        self._clock = clock
        self._sleep = sleep
        self._devices = Service("Microsoft sign-in", settings.device_code_url)
        self._tokens = Service("Microsoft sign-in", settings.token_url)
        self._client: Any = OAuthClient(
            {"device_authorization_endpoint": settings.device_code_url, "token_endpoint": settings.token_url},
            client_id=settings.client_id, http_client=http)
        self._client.logger = _MUTED

    def device_login(self, show: Callable[[DeviceCode], None]) -> MicrosoftTokens:
        # live.com's device-code endpoint wants the response type named; the v2 endpoint does not.
        extra = {} if self._settings.azure_app else {"response_type": "device_code"}
        flow: dict[str, Any] = oauth(self._devices, lambda: self._client.initiate_device_flow(
            scope=self._settings.scopes, data=extra))
        if not isinstance(flow, dict) or flow.get("error") or not all(
                isinstance(flow.get(k), str) and flow[k] for k in ("device_code", "user_code", "verification_uri")):
            raise self._refused(self._devices, flow, "refused to start the sign-in", {})
        # msal's loop spins without sleeping on an interval of 0.
        flow["interval"] = max(1, int(flow.get("interval") or 5))
        expires_at = self._clock() + float(flow.get("expires_in") or 900)
        uri, code = flow["verification_uri"], flow["user_code"]
        message = flow.get("message")
        if not isinstance(message, str) or not message:
            message = f"To sign in, open {uri} in a browser and enter the code {code}"
        show(DeviceCode(uri, code, message, expires_at))
        while True:
            flow.pop("latest_attempt_at", None)
            result = oauth(self._tokens, lambda: self._client.obtain_token_by_device_flow(
                flow, exit_condition=lambda _flow: True))
            error = result.get("error") if isinstance(result, dict) else None
            if error is None:
                return self._tokens_from(result, previous=None)
            if error not in _PENDING:
                raise self._refused(self._tokens, result, "refused the sign-in", _DEVICE_ERRORS,
                                    secrets=[flow["device_code"]])
            wait = float(flow["interval"])
            if self._clock() + wait > expires_at:
                raise LoginTimedOut(detail="device code expired while polling")
            self._sleep(wait)

    def refresh(self, refresh_token: str) -> MicrosoftTokens:
        result = oauth(self._tokens, lambda: self._client.obtain_token_by_refresh_token(
            refresh_token, scope=self._settings.scopes))
        if not isinstance(result, dict) or result.get("error"):
            raise self._refused(self._tokens, result, "refused to renew the sign-in", _REFRESH_ERRORS,
                                secrets=[refresh_token])
        return self._tokens_from(result, previous=refresh_token)

    def _tokens_from(self, result: Any, previous: str | None) -> MicrosoftTokens:
        access = result.get("access_token") if isinstance(result, dict) else None
        # A refresh answer may leave the refresh token out: then the old one stays valid.
        refresh = result.get("refresh_token") if isinstance(result, dict) else None
        refresh = refresh or previous
        if not isinstance(access, str) or not access or not isinstance(refresh, str) or not refresh:
            raise ServiceFailed(self._tokens.name, self._tokens.host,
                                "answered without an access token and a refresh token",
                                detail="bad token answer")
        return MicrosoftTokens(access, refresh)

    def _refused(self, service: Service, result: Any, what: str, known: dict[str, type[AccountError]],
                 secrets: list[str] | None = None) -> AccountError:
        error = result.get("error") if isinstance(result, dict) else None
        if not isinstance(error, str) or not error:
            return ServiceFailed(service.name, service.host, "answered something that is not an OAuth answer",
                                 detail="no error code")
        if error in known:
            return known[error](detail=error)
        if error in _CLIENT_REFUSED:
            return AppNotApproved(f"Microsoft refused the configured client id (accounts.client_id): {error}",
                                  detail=error)
        described = result.get("error_description")
        said = scrubbed(described, secrets or []) if isinstance(described, str) else ""
        return ServiceFailed(service.name, service.host, f"{what}: {error}" + (f" ({said})" if said else ""),
                             detail=error)
