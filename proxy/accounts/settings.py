"""Where the account services live and where their tokens are kept (``accounts`` in proxy.json).

How this works: ``AccountSettings`` is the ``accounts`` section of the proxy's
config, validated by pydantic like the rest of it, so a bad value is reported
with the file and the field. The defaults are the Minecraft launcher's own
live.com device-code sign-in; an owner may configure an Azure app instead (a
UUID client id with the login.microsoftonline.com endpoints and the scope
``XboxLive.signin offline_access``). The shape of the client id decides the
two things that differ between them (``azure_app``): the Xbox ticket prefix
and the extra ``response_type`` field live.com wants on the device-code call.

``cache_path`` resolves the token cache: ``MCAGENT_ACCOUNTS_FILE``, then
``cache_file``, then the per-user config directory (never the repository).
"""
from __future__ import annotations

import os
import uuid
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator

ACCOUNTS_FILE_ENV = "MCAGENT_ACCOUNTS_FILE"

LIVE_CLIENT_ID = "00000000402b5328"  # the Minecraft launcher's own
LIVE_SCOPE = "service::user.auth.xboxlive.com::MBI_SSL"
AZURE_SCOPE = "XboxLive.signin offline_access"

_URL_FIELDS = ("device_code_url", "token_url", "xbox_user_auth_url", "xsts_url", "minecraft_login_url",
               "entitlements_url", "profile_url", "certificates_url")


class AccountSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    client_id: str = Field(LIVE_CLIENT_ID, min_length=1, max_length=64)
    scope: str = Field(LIVE_SCOPE, min_length=1, max_length=512)
    device_code_url: str = "https://login.live.com/oauth20_connect.srf"
    token_url: str = "https://login.live.com/oauth20_token.srf"
    xbox_user_auth_url: str = "https://user.auth.xboxlive.com/user/authenticate"
    xsts_url: str = "https://xsts.auth.xboxlive.com/xsts/authorize"
    minecraft_login_url: str = "https://api.minecraftservices.com/authentication/login_with_xbox"
    entitlements_url: str = "https://api.minecraftservices.com/entitlements/mcstore"
    profile_url: str = "https://api.minecraftservices.com/minecraft/profile"
    # The account's chat key (player certificates), for keeping signed chat valid through the proxy.
    certificates_url: str = "https://api.minecraftservices.com/player/certificates"
    # None: MCAGENT_ACCOUNTS_FILE, else $XDG_CONFIG_HOME/mcagent/accounts.json (~/.config/...).
    cache_file: str | None = Field(None, min_length=1, max_length=4096)
    timeout_seconds: float = Field(15.0, gt=0.0, le=300.0)  # each HTTP request
    # A Minecraft token expiring sooner than this is refreshed before it is handed out,
    # so a join never starts with a token that dies mid-login.
    refresh_margin_seconds: float = Field(600.0, ge=0.0, le=86400.0)

    @field_validator(*_URL_FIELDS)
    @classmethod
    def _http_url(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")) or len(value) > 512:
            raise ValueError("must be an http:// or https:// URL")
        return value

    @field_validator("client_id")
    @classmethod
    def _printable(cls, value: str) -> str:
        if not value.isprintable() or " " in value:
            raise ValueError("must be one word of printable characters")
        return value

    @property
    def azure_app(self) -> bool:
        """An Azure app registration (a UUID client id) rather than a live.com client id."""
        try:
            uuid.UUID(self.client_id)
        except ValueError:
            return False
        return True

    @property
    def rps_ticket_prefix(self) -> str:
        # Xbox Live reads a live.com token as "t=" and an Azure (Microsoft identity platform) one as "d=".
        return "d=" if self.azure_app else "t="

    @property
    def scopes(self) -> list[str]:
        return self.scope.split()


def default_cache_path(environ: Mapping[str, str] | None = None, home: Path | None = None) -> Path:
    env = os.environ if environ is None else environ
    base = env.get("XDG_CONFIG_HOME", "")
    if os.name == "nt" and env.get("APPDATA"):
        base = env["APPDATA"]
    # The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
    root = Path(base) if base and Path(base).is_absolute() else (home or Path.home()) / ".config"
    return root / "mcagent" / "accounts.json"


def cache_path(settings: AccountSettings, environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    chosen = env.get(ACCOUNTS_FILE_ENV) or settings.cache_file
    if chosen:
        return Path(chosen).expanduser()
    return default_cache_path(env)
