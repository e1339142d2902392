"""The proxy's configuration: ``config/proxy.json`` validated by pydantic.

A bad file is reported as ``ConfigError`` naming the file, the field and the
value, so ``mcagent run`` can exit non-zero with one clear line.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator, model_validator

from engine.decision.provider_names import ProviderName
from proxy.accounts.settings import AccountSettings

DEFAULT_PATH = Path("config/proxy.json")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Address(Strict):
    host: str = "127.0.0.1"
    port: int = Field(25565, ge=1, le=65535)


class ListenAddress(Address):
    # Where the proxy opens a port; 0 lets the OS pick one (the real port is printed at start).
    port: int = Field(25565, ge=0, le=65535)


class StatusConfig(Strict):
    passthrough: bool = True  # show the upstream's MOTD, player count and version
    motd: str = "A Minecraft server behind mcagent"  # used when passthrough is off or upstream is down


class ChatConfig(Strict):
    command_prefix: str = Field("!", min_length=1, max_length=4)
    address_prefix: str = Field("@ai ", min_length=1, max_length=16)


class Features(Strict):
    assistant: bool = True
    reflexes: bool = False  # reflexes on from login for every player (each can say !reflex on|off)
    autopilot: bool = True  # players may say !autopilot on (the owner can switch it off here)
    world: bool = True  # decode chunks into a block world (needed by !goto, !follow and reflexes)


class AutopilotSection(Strict):
    provider: ProviderName = "mock"  # what decides when a player says !autopilot on
    replay_log: str | None = None  # a decision_log.jsonl the replay provider plays back
    log_dir: str | None = "logs/autopilot"  # per player and episode: decision_log.jsonl, episode_events.json
    planning_ms_per_tick: float = Field(1.5, gt=0.0, le=20.0)  # path search per player per tick, at most


class ConsoleConfig(Strict):
    # A TCP console port; off when port is None. The token may instead come from
    # the MCAGENT_CONSOLE_TOKEN environment variable.
    host: str = "127.0.0.1"
    port: int | None = Field(None, ge=0, le=65535)  # 0: a free port, printed at start
    token: str | None = Field(None, min_length=12)
    allow_remote: bool = False  # binding a non-loopback address needs this


class DashboardConfig(Strict):
    # The web dashboard (docs/dashboard.md); off when port is None, 0 picks a free port.
    # Every request needs the console token (admin) or viewer_token (pages only).
    host: str = "127.0.0.1"
    port: int | None = Field(None, ge=0, le=65535)
    allow_remote: bool = False  # binding a non-loopback address needs this
    viewer_token: SecretStr | None = None  # MCAGENT_DASHBOARD_VIEWER_TOKEN overrides it
    episodes: str | None = None  # the folder of episodes to replay (default: autopilot.log_dir)

    @field_validator("viewer_token")
    @classmethod
    def _long_enough(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and len(value.get_secret_value().strip()) < 12:
            raise ValueError("must be at least 12 characters")
        return value


class LlmLimits(Strict):
    requests_per_minute: int = Field(6, ge=1, le=1000)  # per player
    max_concurrent: int = Field(4, ge=1, le=256)         # calls in flight, all players
    daily_tokens: int = Field(200_000, ge=1)             # resets at midnight in time_zone
    per_player_concurrent: int = Field(1, ge=1, le=256)  # calls in flight for one player
    time_zone: str = "UTC"  # an IANA name (Europe/Berlin): whose midnight starts a new day of tokens and calls

    @field_validator("time_zone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"unknown time zone {value!r} (an IANA name such as UTC or Europe/Berlin)") from None
        return value


class FreeChatThreshold(Strict):
    # Extended mode: local direct answers need this on top of system-semantic.json's thresholds.
    score: float = Field(0.95, ge=0.0, le=1.0)
    margin: float = Field(0.2, ge=0.0, le=1.0)


class LlmConfig(Strict):
    """The model service (OpenAI-compatible chat completions; DeepSeek by default).

    ``MCAGENT_LLM_BASE_URL`` and ``MCAGENT_LLM_MODEL`` override ``base_url`` and
    ``model``. The key is read from the environment variable named by
    ``api_key_env`` first, then from ``api_key``; it is never logged or shown.
    """

    enabled: bool = True
    base_url: str = "https://api.deepseek.com"
    model: str = Field("deepseek-chat", min_length=1, max_length=128)
    api_key_env: str = Field("DEEPSEEK_API_KEY", min_length=1, max_length=128)
    api_key: SecretStr | None = None
    timeout_seconds: float = Field(20.0, gt=0.0, le=300.0)
    retry_backoff_seconds: float = Field(1.0, ge=0.0, le=30.0)
    route_max_tokens: int = Field(300, ge=16, le=8192)
    chat_max_tokens: int = Field(400, ge=16, le=8192)
    reply_characters: int = Field(600, ge=50, le=4000)
    history_turns: int = Field(6, ge=0, le=50)
    default_mode: Literal["offline", "standard", "extended", "free"] = "standard"
    free_chat_threshold: FreeChatThreshold = FreeChatThreshold()
    limits: LlmLimits = LlmLimits()
    notification_buttons: str = "config/notification-buttons.json"

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")) or len(value) > 512:
            raise ValueError("must be an http:// or https:// URL")
        return value


class ConnectionLimits(Strict):
    """What one connection may cost before the proxy closes it (with a reason)."""

    # Open connections per client address; 0: no cap. Not applied behind a PROXY-protocol
    # balancer, where every connection comes from the balancer's address.
    connections_per_ip: int = Field(16, ge=0, le=100000)
    login_deadline_seconds: float = Field(30.0, gt=0.0, le=600.0)  # from connecting to play
    # Client packets per second, averaged over the window (Paper's packet limiter: 500/s
    # over 7 s); 0: no limit. A vanilla client sends about 25 per second.
    packets_per_second: float = Field(500.0, ge=0.0, le=1e7)
    packet_window_seconds: float = Field(7.0, gt=0.0, le=60.0)
    # Client packets in any one second; 0: no limit. A read holding more than the two
    # limits leave is refused whole (the player kicked), so no flood reaches the server
    # in a burst; twice the average rate leaves room for a vanilla client's spikes.
    packet_burst_per_second: float = Field(1000.0, ge=0.0, le=1e7)
    # An upstream that accepted the connection but sends nothing this long: the player is
    # told the server did not answer; a server-list ping gets the proxy's own MOTD.
    upstream_answer_seconds: float = Field(10.0, gt=0.0, le=300.0)
    # A client whose socket stays full this long (it stopped reading) is closed; meanwhile
    # the upstream is paused, so the proxy never buffers more than a socket's worth.
    stalled_client_seconds: float = Field(30.0, gt=0.0, le=600.0)


class ForwardingSection(Strict):
    """Player-info forwarding to the backend (``proxy/connection/forwarding.py``).

    ``velocity`` needs the backend's shared secret, from ``secret`` or from the
    file ``secret_file`` (its lines joined, as Velocity reads ``forwarding.secret``);
    the secret is never logged, dumped or put into an error message.
    """

    mode: Literal["none", "velocity", "legacy"] = "none"
    secret: SecretStr | None = None
    secret_file: str | None = None

    @model_validator(mode="after")
    def _needs_secret(self) -> "ForwardingSection":
        if self.secret is not None and self.secret_file is not None:
            raise ValueError("set forwarding.secret or forwarding.secret_file, not both")
        if self.mode == "velocity" and not self.secret_bytes():
            raise ValueError("velocity forwarding needs forwarding.secret or forwarding.secret_file "
                             "(the same secret as the backend's)")
        return self

    def secret_bytes(self) -> bytes:
        if self.secret is not None:
            return self.secret.get_secret_value().encode("utf-8")
        if self.secret_file is None:
            return b""
        try:
            text = Path(self.secret_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            # The reason, never the content: a wrongly chosen file could hold anything.
            why = getattr(exc, "strerror", None) or "not UTF-8 text"
            raise ValueError(f"cannot read forwarding.secret_file: {why}") from None
        return "".join(text.splitlines()).encode("utf-8")


class UpstreamAuth(Strict):
    """Who the proxy logs in to the server as. ``offline``: as the player's client said it is
    (the backend must be in offline mode, or trust forwarding). ``microsoft``: as the
    Microsoft account ``account`` signed in with ``mcagent login`` (an online-mode server);
    the player's client must use the account's name, or ``local_name``."""

    mode: Literal["offline", "microsoft"] = "offline"
    account: str | None = Field(None, min_length=1, max_length=64)
    local_name: str | None = Field(None, min_length=1, max_length=16)

    @model_validator(mode="after")
    def _account_named(self) -> "UpstreamAuth":
        if self.mode == "microsoft" and self.account is None:
            raise ValueError("mode 'microsoft' needs the account's name (the one given to `mcagent login --account`)")
        return self


DEFAULT_UPSTREAM = Address(host="127.0.0.1", port=25565)
SERVER_NAME = r"^[A-Za-z0-9_.-]{1,32}$"


class BackendEntry(Strict):
    """One server of the network (``servers``): where it is, how it is told who the player is
    (``None``: the top-level ``forwarding``), and who may ``/server`` to it (``None``: everyone;
    else player names, ``"@admins"`` meaning the configured admins)."""

    address: str
    forwarding: ForwardingSection | None = None
    allow: list[str] | None = None
    # Other names players use for it ("生存", "smp"): `/server`, `!server` and the assistant's card take them.
    aliases: list[str] = Field(default_factory=list, max_length=16)

    @field_validator("aliases")
    @classmethod
    def _alias_words(cls, value: list[str]) -> list[str]:
        for alias in value:
            if not 1 <= len(alias) <= 32 or any(c.isspace() for c in alias):
                raise ValueError(f"alias {alias!r} must be 1-32 characters without spaces")
        return value

    @field_validator("address")
    @classmethod
    def _host_port(cls, value: str) -> str:
        host, sep, port = value.rpartition(":")
        if not sep or not host.strip("[]") or not port.isdigit() or not 1 <= int(port) <= 65535:
            raise ValueError("expected HOST:PORT with a port from 1 to 65535")
        return value

    @property
    def host(self) -> str:
        return self.address.rpartition(":")[0].strip("[]")

    @property
    def port(self) -> int:
        return int(self.address.rpartition(":")[2])


# minecraft-data's ServerLinkType (1.21 - 26.1): a link of one of these kinds is labelled by the
# client in its own language.
LINK_KINDS = ("bug_report", "community_guidelines", "support", "status", "feedback", "community", "website",
              "forums", "news", "announcements")


class ServerLink(Strict):
    """One of the server links (1.21+) the proxy adds to the backend's: a ``label`` of your own, or
    a ``kind`` the client names itself, and an http(s) ``url``."""

    label: str | None = Field(None, min_length=1, max_length=128)
    kind: str | None = None
    url: str = Field(max_length=1024)

    @field_validator("url")
    @classmethod
    def _web(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")) or len(value) <= len("https://") or any(
                c.isspace() or ord(c) < 32 for c in value):
            raise ValueError("must be an http:// or https:// URL without spaces")
        return value

    @field_validator("kind")
    @classmethod
    def _known_kind(cls, value: str | None) -> str | None:
        if value is not None and value not in LINK_KINDS:
            raise ValueError(f"must be one of {', '.join(LINK_KINDS)}")
        return value

    @field_validator("label")
    @classmethod
    def _printable(cls, value: str | None) -> str | None:
        if value is not None and any(ord(c) < 32 for c in value):
            raise ValueError("must be text without control characters")
        return value

    @model_validator(mode="after")
    def _one_label(self) -> "ServerLink":
        if (self.label is None) == (self.kind is None):
            raise ValueError("give either a label (your text) or a kind (the client's own name for it)")
        return self


class ProxyConfig(Strict):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    listen: ListenAddress = ListenAddress(host="127.0.0.1", port=25566)
    upstream: Address = DEFAULT_UPSTREAM  # one backend: the one-entry form of servers
    # A network (docs/network.md): name -> "host:port" or {address, forwarding, allow}; players land on
    # the first of ``try`` that answers (or of ``forced_hosts[the host they typed]``).
    servers: dict[str, BackendEntry] = {}
    try_order: list[str] = Field(default_factory=list, alias="try")
    forced_hosts: dict[str, list[str]] = {}
    transfers: Literal["keep", "pass", "refuse"] = "keep"  # a backend's transfer packet to one of servers
    server_links: list[ServerLink] = Field(default_factory=list, max_length=32)  # 1.21+, added to the backend's
    online_mode: bool = False
    # None mirrors the upstream's threshold, so frames pass without recompression.
    compression_threshold: int | None = Field(None, ge=-1, le=1 << 20)
    max_players: int = Field(100, ge=1, le=100000)
    login_rate_limit_seconds: float = Field(3.0, ge=0.0, le=3600.0)
    upstream_connect_timeout: float = Field(5.0, gt=0.0, le=120.0)
    read_timeout_seconds: float = Field(30.0, gt=0.0, le=3600.0)
    limits: ConnectionLimits = ConnectionLimits()
    status: StatusConfig = StatusConfig()
    chat: ChatConfig = ChatConfig()
    features: Features = Features()
    autopilot: AutopilotSection = AutopilotSection()
    admins: list[str] = []
    # In offline mode a listed admin proves it once per session with this secret
    # (`!admin login <secret>`); MCAGENT_ADMIN_SECRET overrides it.
    admin_secret: SecretStr | None = None
    semantic_config: str = "config/system-semantic.json"
    console: ConsoleConfig = ConsoleConfig()
    dashboard: DashboardConfig = DashboardConfig()
    llm: LlmConfig = LlmConfig()
    proxy_protocol: bool = False  # expect a HAProxy PROXY header (v1/v2) from a load balancer
    forwarding: ForwardingSection = ForwardingSection()
    # Online mode asks this server whether the player joined; another Yggdrasil-compatible
    # service (or a test's) can stand in for Mojang's.
    session_server: str = "https://sessionserver.mojang.com"
    upstream_auth: UpstreamAuth = UpstreamAuth()
    # The player's Microsoft account for an online-mode upstream: sign-in endpoints and the token cache.
    accounts: AccountSettings = AccountSettings()
    log_json: bool = False

    @model_validator(mode="after")
    def _one_identity(self) -> "ProxyConfig":
        # Forwarding tells a backend that trusts the proxy who each player is; an account
        # login is the proxy being one player on a server that trusts only Mojang.
        if self.upstream_auth.mode == "microsoft" and self.forwarding.mode != "none":
            raise ValueError("upstream_auth 'microsoft' and forwarding cannot be combined: forwarding is for a "
                             "backend that trusts the proxy, an account login for a server that checks Mojang")
        if self.upstream_auth.mode == "microsoft" and not self.online_mode \
                and self.listen.host not in ("127.0.0.1", "localhost", "::1"):
            # Offline, the client leg proves nothing: anyone who reaches the port would play as the account.
            raise ValueError(f"upstream_auth 'microsoft' with online_mode off would let anyone who reaches "
                             f"{self.listen.host}:{self.listen.port} play as the account: listen on 127.0.0.1, "
                             "or turn online_mode on")
        return self

    @field_validator("servers", mode="before")
    @classmethod
    def _address_shorthand(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: {"address": v} if isinstance(v, str) else v for k, v in value.items()}
        return value

    @model_validator(mode="after")
    def _network(self) -> "ProxyConfig":
        if self.servers and self.upstream != DEFAULT_UPSTREAM:
            raise ValueError("set upstream (one server) or servers (a network), not both")
        known = ", ".join(self.servers) or "none"
        for name, entry in self.servers.items():
            if not re.match(SERVER_NAME, name):
                raise ValueError(f"servers: the name {name!r} must be 1-32 letters, digits, '_', '-' or '.'")
            for alias in entry.aliases:
                owner = next((n for n, e in self.servers.items() if alias.lower() == n.lower()
                              or (n != name and alias.lower() in (a.lower() for a in e.aliases))), None)
                if owner is not None:
                    raise ValueError(f"servers.{name}.aliases: {alias!r} already names the server {owner!r}")
            if self.upstream_auth.mode == "microsoft" and entry.forwarding is not None \
                    and entry.forwarding.mode != "none":
                raise ValueError(f"servers.{name}.forwarding cannot be combined with upstream_auth 'microsoft'")
        if not self.servers:
            if self.try_order or self.forced_hosts:
                raise ValueError("try and forced_hosts name servers: define them in servers")
            return self
        for name in self.try_order:
            if name not in self.servers:
                raise ValueError(f"try names {name!r}, which is not one of servers ({known})")
        for host, names in self.forced_hosts.items():
            if not names:
                raise ValueError(f"forced_hosts.{host} is empty: name at least one server")
            for name in names:
                if name not in self.servers:
                    raise ValueError(f"forced_hosts.{host} names {name!r}, which is not one of servers ({known})")
        return self

    def backends(self) -> dict[str, BackendEntry]:
        """The servers of the network; ``upstream`` alone is a network of one named "upstream"."""
        if self.servers:
            return dict(self.servers)
        return {"upstream": BackendEntry(address=f"{self.upstream.host}:{self.upstream.port}")}

    def landing_order(self) -> list[str]:
        """Where players land, in order: ``try``, or every server in the order written."""
        return list(self.try_order) or list(self.backends())

    @field_validator("session_server")
    @classmethod
    def _session_url(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")) or len(value) > 512:
            raise ValueError("must be an http:// or https:// URL")
        return value.rstrip("/")

    @field_validator("admins")
    @classmethod
    def _names(cls, value: list[str]) -> list[str]:
        for name in value:
            if not (1 <= len(name) <= 16):
                raise ValueError(f"player name {name!r} must be 1-16 characters")
        return value


class ConfigError(Exception):
    pass


_SECRET_WORDS = ("key", "token", "secret", "password")
# Fields named like secrets that only say where one is (a URL or a file's path) are shown.
_NOT_SECRET_SUFFIXES = ("_url", "_file", "_path")


def _is_secret(name: str) -> bool:
    name = name.lower()
    return any(word in name for word in _SECRET_WORDS) and not name.endswith(_NOT_SECRET_SUFFIXES)


def _redacted(value: Any) -> Any:
    """``value`` with every secret-named key's value hidden, however deep it stands."""
    if isinstance(value, dict):
        return {k: "<redacted>" if _is_secret(str(k)) else _redacted(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_redacted(v) for v in value]
    return value


def _describe(exc: ValidationError, path: Path) -> str:
    parts = []
    for err in exc.errors():
        loc = [str(p) for p in err["loc"]]
        if not loc:
            # A rule across fields: the input is the whole file, which says nothing the
            # message does not, and may hold every secret of the file.
            parts.append(f"{path}: {err['msg']}")
            continue
        field = ".".join(loc)
        value = err.get("input")
        if any(_is_secret(part) for part in loc):
            value = "<redacted>"  # a misspelt or mistyped key field must not print the key
        else:
            value = _redacted(value)
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


def parse_address(text: str, default_host: str = "127.0.0.1", listen: bool = False) -> Address:
    """``HOST:PORT`` (or ``PORT``); an address to ``listen`` on may give port 0 (a free one)."""
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = default_host, text
    kind = ListenAddress if listen else Address
    try:
        return kind(host=host or default_host, port=int(port))
    except (ValueError, ValidationError):
        low = 0 if listen else 1
        raise ConfigError(f"bad address {text!r}: expected HOST:PORT with a port from {low} to 65535") from None
