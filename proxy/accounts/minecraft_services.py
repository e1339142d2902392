"""From an XSTS token to a Minecraft access token, the game licence and the player's profile.

How this works: ``login_with_xbox`` posts the identity token ``XBL3.0
x=<uhs>;<xsts>`` and gets the Minecraft access token and its lifetime; a 403
saying "Invalid app registration" means the configured Azure client id is not
approved for Minecraft. ``check_licence`` reads the store entitlements (no
items: the account does not own the game). ``profile`` reads the player's
name and UUID (404: the account has no profile, so no name, yet). A service's
own error text is quoted only after ``scrubbed`` removed the tokens it could echo.
"""
from __future__ import annotations

import uuid

import attrs
import httpx
import pydantic

from proxy.accounts.errors import AppNotApproved, NoMinecraftLicence, NoMinecraftProfile, ServiceFailed
from proxy.accounts.http_calls import Answer, Service, scrubbed, send
from proxy.accounts.settings import AccountSettings
from proxy.accounts.wire import Entitlements, MinecraftLogin, Profile, ServiceComplaint
from proxy.accounts.xbox import XboxToken


@attrs.frozen
class MinecraftToken:
    token: str = attrs.field(repr=False)
    expires_in: float


@attrs.frozen
class PlayerProfile:
    name: str
    uuid: uuid.UUID


def login_with_xbox(http: httpx.Client, settings: AccountSettings, xsts: XboxToken) -> MinecraftToken:
    service = Service("Minecraft services", settings.minecraft_login_url)
    answer = send(http, service, "POST", body={"identityToken": f"XBL3.0 x={xsts.uhs};{xsts.token}"})
    if answer.status == 403 and "invalid app registration" in _complaint(answer).lower():
        raise AppNotApproved(detail="HTTP 403 Invalid app registration")
    if answer.status != 200:
        raise _refused(service, answer, [xsts.token])
    try:
        parsed = MinecraftLogin.model_validate(answer.body)
    except pydantic.ValidationError:
        raise ServiceFailed(service.name, service.host, "answered without an access token",
                            detail="bad answer") from None
    return MinecraftToken(parsed.access_token, parsed.expires_in)


def check_licence(http: httpx.Client, settings: AccountSettings, token: MinecraftToken) -> None:
    service = Service("Minecraft services", settings.entitlements_url)
    answer = send(http, service, "GET", bearer=token.token)
    if answer.status != 200:
        raise _refused(service, answer, [token.token])
    try:
        items = Entitlements.model_validate(answer.body).items
    except pydantic.ValidationError:
        raise ServiceFailed(service.name, service.host, "answered entitlements that make no sense",
                            detail="bad answer") from None
    if not items:
        raise NoMinecraftLicence(detail="no entitlements")


def profile(http: httpx.Client, settings: AccountSettings, token: MinecraftToken) -> PlayerProfile:
    service = Service("Minecraft services", settings.profile_url)
    answer = send(http, service, "GET", bearer=token.token)
    if answer.status == 404:
        raise NoMinecraftProfile(detail="HTTP 404")
    if answer.status != 200:
        raise _refused(service, answer, [token.token])
    try:
        parsed = Profile.model_validate(answer.body)
        return PlayerProfile(parsed.name, uuid.UUID(parsed.id))
    except (pydantic.ValidationError, ValueError):
        raise ServiceFailed(service.name, service.host, "answered a profile without a valid name and UUID",
                            detail="bad answer") from None


def _complaint(answer: Answer) -> str:
    if not isinstance(answer.body, dict):
        return ""
    try:
        said = ServiceComplaint.model_validate(answer.body)
    except pydantic.ValidationError:
        return ""
    return said.errorMessage or said.error


def _refused(service: Service, answer: Answer, secrets: list[str]) -> ServiceFailed:
    said = scrubbed(_complaint(answer), secrets)
    return ServiceFailed(service.name, service.host,
                         f"refused with HTTP {answer.status}" + (f": {said}" if said else ""),
                         detail=f"HTTP {answer.status}")
