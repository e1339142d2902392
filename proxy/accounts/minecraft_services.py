"""From an XSTS token to a Minecraft access token, the game licence and the player's profile.

How this works: ``login_with_xbox`` posts the identity token ``XBL3.0
x=<uhs>;<xsts>`` and gets the Minecraft access token and its lifetime; a 403
saying "Invalid app registration" means the configured Azure client id is not
approved for Minecraft. ``check_licence`` reads the store entitlements (no
items: the account does not own the game). ``profile`` reads the player's
name and UUID (404: the account has no profile, so no name, yet). ``chat_key``
reads the player certificates: the account's chat key pair and Minecraft services'
signature over it, which a vanilla client signs its chat with. A service's
own error text is quoted only after ``scrubbed`` removed the tokens it could echo.
"""
from __future__ import annotations

import base64
import binascii
import uuid
from datetime import datetime

import attrs
import httpx
import pydantic

from proxy.accounts.errors import AppNotApproved, NoMinecraftLicence, NoMinecraftProfile, ServiceFailed
from proxy.accounts.http_calls import Answer, Service, scrubbed, send
from proxy.accounts.settings import AccountSettings
from proxy.accounts.wire import Certificates, Entitlements, MinecraftLogin, Profile, ServiceComplaint
from proxy.codec.chat_signing import ChatKey
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


def chat_key(http: httpx.Client, settings: AccountSettings, access_token: str) -> tuple[ChatKey, str]:
    """The account's chat key, and its private key's PEM text (a secret for the log redaction)."""
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.hazmat.primitives.serialization import (Encoding, PublicFormat, load_pem_private_key,
                                                              load_pem_public_key)

    service = Service("Minecraft services", settings.certificates_url)
    answer = send(http, service, "POST", bearer=access_token)
    if answer.status != 200:
        raise _refused(service, answer, [access_token])
    try:
        parsed = Certificates.model_validate(answer.body)
        private = load_pem_private_key(parsed.keyPair.privateKey.encode("ascii"), password=None)
        public = load_pem_public_key(parsed.keyPair.publicKey.encode("ascii"))
        signature = base64.b64decode(parsed.publicKeySignatureV2, validate=True)
        expires = datetime.fromisoformat(parsed.expiresAt.replace("Z", "+00:00"))
        if not isinstance(private, rsa.RSAPrivateKey) or not isinstance(public, rsa.RSAPublicKey):
            raise ValueError("not RSA")
    except (pydantic.ValidationError, ValueError, TypeError, binascii.Error, UnicodeEncodeError):
        raise ServiceFailed(service.name, service.host, "answered player certificates that make no sense",
                            detail="bad answer") from None
    der = public.public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    return ChatKey(private, der, signature, int(expires.timestamp() * 1000)), parsed.keyPair.privateKey


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
