"""From a Microsoft token to an XSTS token for Minecraft services: Xbox Live, then XSTS.

How this works: ``user_token`` trades the Microsoft access token (as an RPS
ticket, ``t=`` for a live.com client id, ``d=`` for an Azure app) for an Xbox
Live user token; ``xsts_token`` trades that for an XSTS token whose relying
party is Minecraft services. XSTS refuses accounts it will not serve with a
401 and an ``XErr`` code; ``XERR`` maps each code we know to the error that
tells the player what to do. Both answers carry the user hash (``uhs``) that
the Minecraft identity token needs.
"""
from __future__ import annotations

import attrs
import httpx
import pydantic

from proxy.accounts.errors import (AccountError, AdultVerificationNeeded, ChildAccount, NoXboxProfile,
                                   ServiceFailed, XboxUnavailable)
from proxy.accounts.http_calls import Answer, Service, send
from proxy.accounts.settings import AccountSettings
from proxy.accounts.wire import XboxAnswer, XstsRefusal

XERR: dict[int, type[AccountError]] = {
    2148916233: NoXboxProfile,
    2148916235: XboxUnavailable,
    2148916236: AdultVerificationNeeded,
    2148916237: AdultVerificationNeeded,
    2148916238: ChildAccount,
}

_HEADERS = {"x-xbl-contract-version": "1"}


@attrs.frozen
class XboxToken:
    token: str = attrs.field(repr=False)
    uhs: str  # the user hash: an identifier, not a credential


def user_token(http: httpx.Client, settings: AccountSettings, msa_token: str) -> XboxToken:
    service = Service("Xbox Live", settings.xbox_user_auth_url)
    answer = send(http, service, "POST", headers=_HEADERS, body={
        "Properties": {"AuthMethod": "RPS", "SiteName": "user.auth.xboxlive.com",
                       "RpsTicket": settings.rps_ticket_prefix + msa_token},
        "RelyingParty": "http://auth.xboxlive.com", "TokenType": "JWT"})
    if answer.status in (400, 401, 403):
        raise ServiceFailed(service.name, service.host, f"refused the Microsoft token (HTTP {answer.status})",
                            detail=f"HTTP {answer.status}")
    return _parsed(service, answer)


def xsts_token(http: httpx.Client, settings: AccountSettings, user: XboxToken) -> XboxToken:
    service = Service("Xbox Live (XSTS)", settings.xsts_url)
    answer = send(http, service, "POST", headers=_HEADERS, body={
        "Properties": {"SandboxId": "RETAIL", "UserTokens": [user.token]},
        "RelyingParty": "rp://api.minecraftservices.com/", "TokenType": "JWT"})
    if answer.status == 401:
        try:
            code = XstsRefusal.model_validate(answer.body if isinstance(answer.body, dict) else {}).XErr
        except pydantic.ValidationError:
            code = None
        known = XERR.get(code) if code is not None else None
        if known is not None:
            raise known(detail=f"XErr {code}")
        why = f"XErr {code}" if code is not None else "no XErr code"
        raise ServiceFailed(service.name, service.host, f"refused this account ({why})", detail=why)
    return _parsed(service, answer)


def _parsed(service: Service, answer: Answer) -> XboxToken:
    if answer.status != 200:
        raise ServiceFailed(service.name, service.host, f"answered HTTP {answer.status}",
                            detail=f"HTTP {answer.status}")
    try:
        parsed = XboxAnswer.model_validate(answer.body)
    except pydantic.ValidationError:
        raise ServiceFailed(service.name, service.host, "answered without a token and user hash",
                            detail="bad answer") from None
    return XboxToken(parsed.Token, parsed.DisplayClaims.xui[0].uhs)
