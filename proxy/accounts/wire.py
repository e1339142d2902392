"""The JSON the account services answer, as pydantic models (only the fields we read).

Unknown fields are ignored: these services add fields over time, and a
missing field we need is a validation error the caller reports as garbage.
"""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Loose(BaseModel):
    model_config = ConfigDict(extra="ignore")


class Xui(Loose):
    uhs: str = Field(min_length=1)


class Claims(Loose):
    xui: list[Xui] = Field(min_length=1)


class XboxAnswer(Loose):
    """Both Xbox Live user authentication and XSTS authorization answer this."""

    Token: str = Field(min_length=1)
    DisplayClaims: Claims


class XstsRefusal(Loose):
    XErr: int | None = None
    Message: str = ""


class MinecraftLogin(Loose):
    access_token: str = Field(min_length=1)
    expires_in: float = Field(gt=0)


class Entitlement(Loose):
    name: str = ""


class Entitlements(Loose):
    items: list[Entitlement] = []


class Profile(Loose):
    id: str = Field(min_length=32, max_length=36)
    name: str = Field(min_length=1, max_length=64)


class KeyPair(Loose):
    privateKey: str = Field(min_length=1, max_length=8192)
    publicKey: str = Field(min_length=1, max_length=4096)


class Certificates(Loose):
    """Minecraft services' player certificates: the account's chat key, certified."""

    keyPair: KeyPair
    publicKeySignatureV2: str = Field(min_length=1, max_length=8192)
    expiresAt: str = Field(min_length=1, max_length=64)


class ServiceComplaint(Loose):
    """What Minecraft services put in an error answer."""

    error: str = ""
    errorMessage: str = ""
