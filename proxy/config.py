"""The proxy's configuration: ``config/proxy.json`` validated by pydantic.

A bad file is reported as ``ConfigError`` naming the file, the field and the
value, so ``mcagent run`` can exit non-zero with one clear line.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

DEFAULT_PATH = Path("config/proxy.json")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Address(Strict):
    host: str = "127.0.0.1"
    port: int = Field(25565, ge=1, le=65535)


class StatusConfig(Strict):
    passthrough: bool = True  # show the upstream's MOTD, player count and version
    motd: str = "A Minecraft server behind mcagent"  # used when passthrough is off or upstream is down


class ChatConfig(Strict):
    command_prefix: str = Field("!", min_length=1, max_length=4)
    address_prefix: str = Field("@ai ", min_length=1, max_length=16)


class Features(Strict):
    assistant: bool = True
    reflexes: bool = False
    autopilot: bool = False


class ConsoleConfig(Strict):
    # A TCP console port; off when port is None. The token may instead come from
    # the MCAGENT_CONSOLE_TOKEN environment variable.
    host: str = "127.0.0.1"
    port: int | None = Field(None, ge=1, le=65535)
    token: str | None = Field(None, min_length=12)
    allow_remote: bool = False  # binding a non-loopback address needs this


class ProxyConfig(Strict):
    listen: Address = Address(host="127.0.0.1", port=25566)
    upstream: Address = Address(host="127.0.0.1", port=25565)
    online_mode: bool = False
    # None mirrors the upstream's threshold, so frames pass without recompression.
    compression_threshold: int | None = Field(None, ge=-1, le=1 << 20)
    max_players: int = Field(100, ge=1, le=100000)
    login_rate_limit_seconds: float = Field(3.0, ge=0.0, le=3600.0)
    upstream_connect_timeout: float = Field(5.0, gt=0.0, le=120.0)
    read_timeout_seconds: float = Field(30.0, gt=0.0, le=3600.0)
    status: StatusConfig = StatusConfig()
    chat: ChatConfig = ChatConfig()
    features: Features = Features()
    admins: list[str] = []
    semantic_config: str = "config/system-semantic.json"
    console: ConsoleConfig = ConsoleConfig()
    proxy_protocol: bool = False  # expect a HAProxy PROXY header (v1/v2) from a load balancer
    log_json: bool = False

    @field_validator("admins")
    @classmethod
    def _names(cls, value: list[str]) -> list[str]:
        for name in value:
            if not (1 <= len(name) <= 16):
                raise ValueError(f"player name {name!r} must be 1-16 characters")
        return value


class ConfigError(Exception):
    pass


def _describe(exc: ValidationError, path: Path) -> str:
    parts = []
    for err in exc.errors():
        field = ".".join(str(p) for p in err["loc"]) or "(file)"
        value = err.get("input")
        parts.append(f"{path}: field '{field}' = {json.dumps(value, default=str)}: {err['msg']}")
    return "\n".join(parts)


def load(path: Path | None) -> ProxyConfig:
    """Load and validate; a missing default file means defaults."""
    if path is None:
        if not DEFAULT_PATH.exists():
            return ProxyConfig()
        path = DEFAULT_PATH
    try:
        raw: Any = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: file not found") from None
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    try:
        return ProxyConfig.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, path)) from None


def parse_address(text: str, default_host: str = "127.0.0.1") -> Address:
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = default_host, text
    try:
        return Address(host=host or default_host, port=int(port))
    except (ValueError, ValidationError):
        raise ConfigError(f"bad address {text!r}: expected HOST:PORT") from None
