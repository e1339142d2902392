"""What each part of a connection sees of the others, as protocols.

``Connection`` (``proxy.connection.core``) builds its phases — ``LoginPhase``,
``PlayRelay``, ``Actuator`` — and they talk back to it only through the views below,
which name exactly the members each one reads or sets; so a phase never imports the
core, and what a phase may touch is written down in one place. The core in turn asks
the world for I/O through ``Stream`` (bytes and sockets, what the legs implement), for
the session server and accounts through ``LoginServices``, for time through ``Clock``
and logs through ``Log``: it imports neither Twisted nor quarry.
"""
from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any, Callable, Protocol

if TYPE_CHECKING:
    from engine.actions import Action
    from engine.session import Session
    from proxy.codec.chat_signing import ChatKey
    from proxy.codec.chunks import ChunkDecoder
    from proxy.codec.packet_ids import WatchedIds
    from proxy.codec.versioned import VersionCodec
    from proxy.config import ProxyConfig
    from proxy.connection.forwarding import Forwarding
    from proxy.protocol.framing import Frame, Framing, Writer
    from proxy.protocol.handshake import Handshake
    from proxy.protocol.states import ConnectionStates
    from proxy.windows.sequencer import WindowSequencer


class Log(Protocol):
    """Where a connection's log lines go (a ``twisted.logger.Logger`` in the proxy): a format
    with ``{names}`` and the values for them, so the redacting observer sees each value."""

    def info(self, format: str, **kwargs: Any) -> None: ...
    def warn(self, format: str, **kwargs: Any) -> None: ...
    def failure(self, format: str, **kwargs: Any) -> None: ...  # inside an except: logs the traceback too


class Delayed(Protocol):
    """A call scheduled on a ``Clock`` (Twisted's ``IDelayedCall`` is one)."""

    def active(self) -> bool: ...
    def cancel(self) -> None: ...
    def reset(self, secondsLater: float) -> None: ...


class Clock(Protocol):
    """Time as the connection needs it: the reactor in the proxy, ``task.Clock`` in tests."""

    def seconds(self) -> float: ...
    def callLater(self, delay: float, callable: Callable[..., Any], *args: Any, **kw: Any) -> Delayed: ...


class AccountSession(Protocol):
    """A signed-in Microsoft account, as the server leg logs in with it
    (``proxy.accounts``' ``MinecraftSession``)."""

    @property
    def account(self) -> str: ...  # the name it was signed in under (`mcagent login --account`)
    @property
    def name(self) -> str: ...  # the Minecraft profile's
    @property
    def uuid(self) -> uuid.UUID: ...
    @property
    def access_token(self) -> str: ...
    @property
    def chat_key(self) -> "ChatKey | None": ...  # the account's chat key (player certificates), if fetched


class Stream(Protocol):
    """The two sockets of one connection; ``proxy.connection.legs`` implements it."""

    def write_client(self, data: bytes) -> None: ...
    def write_server(self, data: bytes) -> None: ...
    def connect_upstream(self) -> None: ...  # answered by upstream_connected / upstream_failed
    def close_client(self, graceful: bool) -> None: ...  # graceful: a reason was just written
    def close_upstream(self) -> None: ...
    def peer(self) -> str: ...


class UpstreamSink(Protocol):
    """Who reads an upstream socket: the connection, or a switch logging in to a new backend."""

    def server_data(self, data: bytes) -> None: ...
    def upstream_lost(self, why: str) -> None: ...


class SwitchIO(Protocol):
    """A second upstream socket while a switch logs in to the next backend (``proxy.network``):
    opened with ``connect_candidate`` (answered by the sink's ``candidate_connected`` or
    ``candidate_failed``), then either closed or adopted as the connection's upstream, the old
    one closed without a word to the connection."""

    def connect_candidate(self, host: str, port: int, sink: "CandidateSink") -> None: ...
    def write_candidate(self, data: bytes) -> None: ...
    def close_candidate(self) -> None: ...
    def adopt_candidate(self) -> None: ...


class CandidateSink(UpstreamSink, Protocol):
    def candidate_connected(self) -> None: ...
    def candidate_failed(self, why: str) -> None: ...


class BackendRef(Protocol):
    """One server of the network, as the connection sees it (``proxy.network.backends.Backend``)."""

    @property
    def name(self) -> str: ...
    @property
    def host(self) -> str: ...
    @property
    def port(self) -> int: ...
    @property
    def forwarding(self) -> "Forwarding": ...


class SwitchHooks(Protocol):
    """A switch in progress (``proxy.network.switch.Switch``): it sees each frame first and
    takes those that belong to the move (True), the rest go on as usual."""

    def client_frame(self, frame: "Frame") -> bool: ...
    def server_frame(self, frame: "Frame") -> bool: ...
    def stop(self) -> None: ...  # the connection closed


class NetworkHooks(Protocol):
    """What the connection asks the network (``proxy.network.switchboard.Switchboard``)."""

    def landing(self, typed_host: str) -> "list[BackendRef]": ...
    def dropped(self, conn: Any, why: str, kicked: bool) -> bool: ...  # True: the player is being moved
    def transferred(self, conn: Any, host: str, port: int) -> bool: ...  # True: kept inside the proxy
    def login_failed_over(self, conn: Any) -> None: ...  # a login went on to the next server (counted)
    def switch(self, conn: Any, name: str | None) -> list[str]: ...  # !server / /server: what to say
    def server_names(self, conn: Any) -> list[str] | None: ...  # for /server's completion; None: one server
    @property
    def several(self) -> bool: ...  # more than one server: players may be moved between them


class LoginServices(Protocol):
    """The services a login waits on, each answered later by a call on the connection."""

    def verify_session(self, player: str, digest: str) -> None: ...  # answered by session_verified
    def account_session(self, account: str) -> None: ...  # answered by account_ready
    def join_session(self, account: AccountSession, digest: str) -> None: ...  # answered by session_joined


class ConnectionIO(Stream, LoginServices, SwitchIO, Protocol):
    """Everything a ``Connection`` asks of the world (the legs give both)."""


class LoginView(Protocol):
    """What ``proxy.connection.login.LoginPhase`` uses of its connection."""

    log: Log
    config: "ProxyConfig"
    states: "ConnectionStates"
    io: ConnectionIO
    reader: "Framing"
    writer: "Writer"
    server_reader: "Framing"
    server_writer: "Writer"
    ids: "WatchedIds"
    handshake: "Handshake | None"
    handshake_packet: bytes
    codec: "VersionCodec | None"
    chunks: "ChunkDecoder | None"
    player_name: str | None
    pending: list[bytes]
    status_self: bool
    status_note: str
    status_asked: list[bytes]
    backend: "BackendRef | None"
    landing: "list[BackendRef]"

    @property
    def network(self) -> NetworkHooks: ...
    @property
    def peer(self) -> str: ...
    @property
    def forwarding(self) -> "Forwarding": ...
    @property
    def keypair(self) -> Any: ...
    def admit(self) -> str | None: ...
    def player_count(self) -> int: ...
    def send_packet(self, packet: bytes) -> None: ...
    def send_frame(self, frame: "Frame") -> None: ...
    def to_server_packet(self, packet: bytes) -> None: ...
    def to_server_frame(self, frame: "Frame") -> None: ...
    def start_session(self) -> None: ...
    def disconnect(self, text: str, category: str = "proxy") -> None: ...


class Hands(Protocol):
    """What the play relay asks of the actuator."""

    def flush_held(self) -> None: ...
    def confirmed(self, teleport_id: int) -> None: ...
    def holds_movement(self, now: float) -> bool: ...
    def item_packets(self, to_server: bytes | None = None, to_client: bytes | None = None) -> None: ...


class PlayView(Protocol):
    """What ``proxy.connection.play.PlayRelay`` uses of its connection."""

    @property
    def network(self) -> NetworkHooks: ...

    config: "ProxyConfig"
    clock: Clock
    states: "ConnectionStates"
    io: ConnectionIO
    writer: "Writer"
    ids: "WatchedIds"
    windows: "WindowSequencer | None"
    driving: bool
    held_movement: int
    fast_frames: int
    decoded_frames: int
    swallowed: int

    @property
    def actuator(self) -> Hands: ...
    def send_packet(self, packet: bytes) -> None: ...
    def send_frame(self, frame: "Frame") -> None: ...
    def write_client(self, data: bytes) -> None: ...
    def hold_client(self) -> None: ...
    def release_client(self) -> None: ...
    def to_server_packet(self, packet: bytes) -> None: ...
    def to_server_frame(self, frame: "Frame") -> None: ...
    def server_frame(self, frame: "Frame") -> None: ...
    def server_input_failed(self, exc: Exception) -> None: ...
    def backend_says(self, frame: "Frame") -> bool: ...
    def perform(self, actions: "list[Action] | list[Any]") -> None: ...
    def say(self, *lines: str) -> None: ...


class ActuatorView(Protocol):
    """What ``proxy.connection.actuator.Actuator`` uses of its connection."""

    log: Log
    clock: Clock
    states: "ConnectionStates"
    codec: "VersionCodec | None"
    session: "Session | None"
    windows: "WindowSequencer | None"
    upstream_open: bool
    driving: bool

    def send_packet(self, packet: bytes) -> None: ...
    def to_server_packet(self, packet: bytes) -> None: ...
    def disconnect(self, text: str, category: str = "proxy") -> None: ...
    def measure_ping(self) -> None: ...
    def admin_command(self, line: str) -> list[str]: ...
    def switch_server(self, name: str | None) -> None: ...
