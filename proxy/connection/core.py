"""One player's connection through the proxy, without I/O (h11's model).

How this works: ``Connection`` is the sans-IO core of one proxied connection. The
Twisted legs (``proxy.connection.legs``) feed it bytes, ``client_data`` from the player's client
and ``server_data`` from the upstream, and tell it what happened to the sockets
(``upstream_connected``, ``upstream_failed``, ``upstream_lost``, ``client_lost``); it
writes bytes and asks for I/O only through the ``ConnectionIO`` it was given. Each leg
has its own framing (length prefixes, compression, encryption) and its own protocol
state, and the states change only as ``proxy.protocol.states.TRANSITIONS`` says. What a
frame means depends on its sender's state: the handshake, status and login are handled
here; configuration and play (the fast path and the taps that feed the engine) in
``proxy.connection.play.PlayRelay``; the engine's actions are executed by
``proxy.connection.actuator.Actuator``. The phases see the connection only through their
views in ``proxy.connection.seams`` (``LoginView``, ``PlayView``, ``ActuatorView``), which is
also where the I/O (``Stream``), the login's services and the clock are declared. Tests
drive it with a recording ``ConnectionIO``.

State changes follow the packets that cause them, as vanilla does; the server's Set
Compression changes both legs' framing in place.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol


from engine import events as ev
from engine.actions import Action, reply
from engine.session import Assistant, Session, SessionConfig
from proxy.connection.actuator import Actuator
from proxy.connection.login import LoginPhase
from proxy.codec.chunks import ChunkDecoder
from proxy.codec.chat import plain_text, reply_components
from proxy.codec import subscriptions
from proxy.protocol.transfer_cookies import transfer_target
from proxy.codec.versioned import VersionCodec, login_disconnect_any
from proxy.protocol.handshake import Handshake
from proxy.codec.packet_ids import WatchedIds
from proxy.connection import recording, signed_chat_relay
from proxy.connection.play import PlayRelay
from proxy.connection.login_failover import LoginFailover
from proxy.connection.seams import (AccountSession, BackendRef, Clock, ConnectionIO, Log, NetworkHooks,
                                    SwitchHooks)
from proxy.protocol.errors import PeerError
from proxy.protocol.framing import MAX_FRAME, Frame, Framing, Writer
from proxy.protocol.limits import BURST, PacketRate
from proxy.protocol.states import CLIENT, PRE_PLAY_BUDGET, STATUS_PACKETS, ConnectionStates, State
from proxy.windows.sequencer import WindowSequencer

if TYPE_CHECKING:
    from proxy.connection.backend_join import AccountWaiter
    from proxy.agent.autopilot_host import AutopilotHost
    from proxy.config import ProxyConfig
    from proxy.connection.forwarding import Forwarding


class Host(Protocol):
    """What a ``Connection`` asks of the proxy around it (``proxy.server.ProxyServer``)."""

    config: "ProxyConfig"
    autopilot: "AutopilotHost"
    forwarding: "Forwarding"  # player-info forwarding to the backend

    @property
    def clock(self) -> Clock: ...
    @property
    def network(self) -> NetworkHooks: ...  # the servers behind the proxy, switching, failover
    @property
    def connection_log(self) -> Log: ...  # namespace mcagent.connection
    @property
    def keypair(self) -> Any: ...
    def admit(self, conn: "Connection") -> str | None: ...
    def make_assistant(self, conn: "Connection") -> Assistant | None: ...
    def player_count(self) -> int: ...
    def is_admin(self, player_name: str | None) -> bool: ...
    def admin_proof(self, player_name: str) -> Any: ...
    def model_runner(self, player_name: str) -> Any: ...  # engine.llm.runner.ModelRunner, or None
    def connection_closed(self, conn: "Connection") -> None: ...
    def measure_ping(self, conn: "Connection") -> None: ...
    def admin_command(self, conn: "Connection", line: str) -> list[str]: ...


class Connection:
    def __init__(self, server: Host, io: ConnectionIO) -> None:
        self.server = server
        self.config = server.config
        self.clock = server.clock
        self.log = server.connection_log
        self.io = io
        self.states = ConnectionStates()
        # The client's bytes; frames are small until the player is admitted.
        self.reader = Framing(max_frame=PRE_PLAY_BUDGET)
        self.writer = Writer()  # to the client
        self.server_reader = Framing()
        self.server_writer = Writer()
        self.recorder = recording.attach(self)  # None unless MCAGENT_RECORD_DIR is set
        self.handshake: Handshake | None = None
        self.handshake_packet = b""
        self.codec: VersionCodec | None = None
        self.chunks: ChunkDecoder | None = None
        self.ids = WatchedIds()
        self.player_name: str | None = None
        self.admitted = False  # counted as a player from login start on (ProxyServer.admit)
        self.session: Session | None = None
        self.windows: WindowSequencer | None = None  # the agent's crafting, smelting and hotbar swaps
        self.play: PlayRelay | None = None
        self.login = LoginPhase(self)
        self.failover = LoginFailover(self)  # a first login that fails goes on to the next of try
        self.account_waiter: AccountWaiter | None = None  # a move's login asking the account services
        self.actuator = Actuator(self)
        self.connected_at = self.clock.seconds()
        self.close_reason: str | None = None
        self.close_category = "client_left"
        self.upstream_open = False
        self.pending: list[bytes] = []  # whole packets for the upstream until it connects
        self.status_self = False  # answering a server-list ping ourselves
        self.status_note = ""
        self.status_asked: list[bytes] = []  # the client's status packets (two at most) sent on
        self.backend: BackendRef | None = None  # the server of the network this player is on (or logging in to)
        self.landing: list[BackendRef] = []  # where the login goes next if this backend does not answer
        self.switch: SwitchHooks | None = None  # a move to another backend in progress (proxy.network.switch)
        self.driving = False  # the agent moves the player; the client's movement is held back
        self.held_movement = 0
        self._held: list[bytes] | None = None  # client writes held while a server read is handled
        self.fast_frames = 0
        self.decoded_frames = 0
        self.swallowed = 0
        limits = self.config.limits
        self.rate = PacketRate(limits.packets_per_second, limits.packet_window_seconds, limits.packet_burst_per_second)

    @property
    def state(self) -> State:
        """The client leg's state (what most callers mean by "the connection's state")."""
        return self.states.client

    @property
    def peer(self) -> str:
        return self.io.peer()

    # -- the proxy around it, as the phases see it (proxy.connection.seams) ------------------
    @property
    def forwarding(self) -> "Forwarding":
        """The player-info forwarding of the backend this player is on."""
        return self.backend.forwarding if self.backend is not None else self.server.forwarding

    @property
    def network(self) -> NetworkHooks:
        return self.server.network

    def switch_server(self, name: str | None) -> None:
        """``!server``, ``/server``: list the servers, or move there."""
        lines = self.network.switch(self, name)
        if lines:
            self.say(*lines)

    def backend_says(self, frame: Frame) -> bool:
        """A kick or a transfer from the backend (``PlayRelay`` surfaces both): True when the
        network took it (a failover, a transfer kept inside), so the client never sees it."""
        pid = frame.packet_id
        if pid == self.ids.kick_disconnect:
            return self.states.playing and self.network.dropped(self, _kick_text(self.codec, frame), True)
        if pid in (self.ids.transfer, self.ids.transfer_configuration):
            host, port = transfer_target(frame.packet)
            return self.network.transferred(self, host, port)
        return False

    @property
    def keypair(self) -> Any:
        return self.server.keypair

    def admit(self) -> str | None:
        """Count this player in, or the reason it may not play (``Host.admit``)."""
        return self.server.admit(self)

    def player_count(self) -> int:
        return self.server.player_count()

    def measure_ping(self) -> None:
        self.server.measure_ping(self)

    def admin_command(self, line: str) -> list[str]:
        return self.server.admin_command(self, line)

    # -- writing -----------------------------------------------------------------------
    def write_client(self, data: bytes) -> None:
        """Sealed bytes to the client, now or, while held (one server read: one send), at release."""
        if self._held is not None:
            self._held.append(data)
        else:
            self.io.write_client(data)

    def hold_client(self) -> None:
        if self._held is None:
            self._held = []

    def release_client(self) -> None:
        held, self._held = self._held, None
        if held:
            self.io.write_client(held[0] if len(held) == 1 else b"".join(held))

    def send_packet(self, packet: bytes) -> None:
        """One whole packet of ours to the client."""
        if not self.states.closed:
            self.write_client(self.writer.seal(self.writer.frame(packet)))

    def send_frame(self, frame: Frame) -> None:
        """A server frame to the client, as it came unless the thresholds differ."""
        if self.states.closed:
            return
        if self.server_reader.threshold == self.writer.threshold:
            self.write_client(self.writer.seal(frame.raw))
        else:
            self.send_packet(frame.packet)

    def to_server_packet(self, packet: bytes) -> None:
        if not self.upstream_open:
            self.pending.append(packet)
        else:
            self.io.write_server(self.server_writer.seal(self.server_writer.frame(packet)))

    def to_server_frame(self, frame: Frame) -> None:
        if not self.upstream_open:
            self.pending.append(frame.packet)
        elif self.reader.threshold == self.server_writer.threshold:
            self.io.write_server(self.server_writer.seal(frame.raw))
        else:
            self.to_server_packet(frame.packet)

    # -- the client's bytes -------------------------------------------------------------
    def client_data(self, data: bytes) -> None:
        if self.states.closed:
            return
        rate = self.rate
        rate.start(self.clock.seconds())
        try:
            self.reader.feed(data)
            if self.play is not None:
                # A read holding more frames than the rate limits leave is refused whole,
                # before any of it is handled: a flood's first thousands of packets would
                # otherwise reach the server in one burst. Only once logged in (the play
                # relay exists): before that, an encryption response may turn the rest of
                # the buffer into ciphertext, whose length prefixes mean nothing yet.
                room = rate.room()
                whole = self.reader.whole_frames(room + 1)
                over = rate.exceeded_by(whole)
                if over is not None:
                    self._too_many_packets(over)
                    return
                rate.add(whole)  # at once: in play none of these frames can exceed what is left
            counted = self.play is not None
            while not self.states.closed:
                frame = self.reader.next_frame()
                if frame is None:
                    break
                over = None if counted else rate.count()
                if over is not None:
                    self._too_many_packets(over)
                    return
                self._client_frame(frame)
        except PeerError as exc:
            self.log.info("closing {peer} ({player}): bad input from client: {reason}",
                     peer=self.peer, player=self.player_name, reason=str(exc))
            self.disconnect(f"Bad packet from your client: {exc}", "bad_packet")
        except Exception:
            # A bug of ours on this input: this connection ends, the proxy goes on.
            self.log.failure("internal error on input from {player}", player=self.player_name or self.peer)
            self.disconnect("Internal error in the proxy while reading your packet; please reconnect.", "internal_error")

    def _too_many_packets(self, allowance: str) -> None:
        limits = self.config.limits
        if allowance == BURST:
            text = f"You sent more than {limits.packet_burst_per_second:g} packets in one second."
        else:
            text = (f"You sent more than {limits.packets_per_second:g} packets per second "
                    f"(over {limits.packet_window_seconds:g} s).")
        self.log.info("closing {peer} ({player}): {text}", peer=self.peer, player=self.player_name, text=text)
        self.disconnect(text, "packet_rate")

    def _client_frame(self, frame: Frame) -> None:
        if self.switch is not None and self.switch.client_frame(frame):
            return
        state = self.states.client
        if state is State.PLAY and self.play is not None:
            self.play.client_frame(frame)
        elif state is State.HANDSHAKING:
            self.login.client_handshake(frame)
        elif state is State.STATUS:
            self.states.check_pre_play(STATUS_PACKETS.get(frame.packet_id), len(frame.raw))
            if self.status_self:
                self.login.answer_status(frame.packet)
            else:
                self.status_asked.append(frame.packet)  # to answer ourselves if the upstream fails us
                self.to_server_frame(frame)
        elif state is State.LOGIN:
            if not self.failover.client_frame(frame):
                self.login.client_login(frame)
        elif state is State.CONFIGURATION:
            if self.failover.client_frame(frame):
                return
            self.to_server_frame(frame)
            if frame.packet_id == self.ids.finish_configuration:
                self.states.sent(CLIENT, "finish_configuration")
                self.failover.settle()
            elif self.play is not None:
                self.play.client_configuration(frame)

    def session_verified(self, answer: Any, error: str | None) -> None:
        self.login.session_verified(answer, error)

    def account_ready(self, session: AccountSession | None, error: str | None) -> None:
        (self.account_waiter or self.login).account_ready(session, error)

    def session_joined(self, error: str | None) -> None:
        (self.account_waiter or self.login).session_joined(error)

    # -- the upstream ----------------------------------------------------------------

    def upstream_connected(self) -> None:
        if self.states.closed:
            self.io.close_upstream()
            return
        self.upstream_open = True
        pending, self.pending = self.pending, []
        for packet in pending:
            self.to_server_packet(packet)

    def upstream_failed(self, why: str) -> None:
        up = self.backend if self.backend is not None else self.config.upstream
        self.log.info("upstream {host}:{port} unreachable for {player}: {why}", host=up.host, port=up.port,
                 player=self.player_name or self.peer, why=why)
        if self.states.closed:
            return
        if self.failover.lost(f"cannot be reached ({_short(why)})"):
            return  # the next server of the landing list is being tried
        if self.states.client is State.STATUS:
            self.login.status_fallback("server unreachable")
        else:
            self.disconnect(f"Cannot reach the server at {up.host}:{up.port} ({_short(why)}). Try again later.",
                            "upstream_unreachable")

    def upstream_silent(self) -> None:
        """The upstream accepted the connection but has sent nothing in time."""
        if self.states.closed or self.server_reader.bytes_in > 0:
            return
        up = self.backend if self.backend is not None else self.config.upstream
        seconds = self.config.limits.upstream_answer_seconds
        self.log.info("upstream {host}:{port} silent for {player} after {seconds:g} s", host=up.host, port=up.port,
                 player=self.player_name or self.peer, seconds=seconds)
        if self.states.client is State.STATUS:
            self.upstream_open = False  # nothing more for it; the proxy answers from here on
            self.io.close_upstream()
            self.login.status_fallback("server not answering")
        elif not self.failover.lost(f"did not answer within {seconds:g} seconds"):
            self.disconnect(f"The server at {up.host}:{up.port} did not answer within {seconds:g} seconds. "
                            "Try again later.", "upstream_silent")

    def server_data(self, data: bytes) -> None:
        if not self.upstream_open or self.states.closed:
            return
        reader = self.server_reader
        if self.play is not None:
            self.play.new_read()
        try:
            if self.states.server is State.PLAY and self.play is not None and reader.threshold == self.writer.threshold:
                self.play.server_batch(reader, data)
            else:
                reader.feed(data)
            while not self.states.closed:
                frame = reader.next_frame()
                if frame is None:
                    break
                self.server_frame(frame)
        except Exception as exc:  # noqa: BLE001 - handled by kind just below
            self.server_input_failed(exc)

    def server_input_failed(self, exc: Exception) -> None:
        """The server's input could not be handled (called inside the ``except``): that
        player is disconnected with the reason, the proxy goes on."""
        if isinstance(exc, PeerError):
            self.log.warn("server sent bad data to {player}: {reason}", player=self.player_name, reason=str(exc))
            self.disconnect(f"The server sent a malformed packet ({exc}).", "bad_server_packet")
        else:
            self.log.failure("internal error on server input for {player}", player=self.player_name)
            self.disconnect("Internal error in the proxy while reading the server's packet; please reconnect.",
                            "internal_error")

    def server_frame(self, frame: Frame) -> None:
        if self.switch is not None and self.switch.server_frame(frame):
            return
        state = self.states.server
        if state is State.PLAY and self.play is not None:
            self.play.server_frame(frame)
        elif state is State.CONFIGURATION and self.play is not None:
            if self.failover.server_frame(frame):
                return
            if frame.packet_id == self.ids.transfer_configuration and self.backend_says(frame):
                return
            self.send_frame(frame)
            self.play.server_configuration(frame)
        elif state is State.LOGIN:
            if not self.failover.server_frame(frame):
                self.login.server_login(frame)
        else:
            self.send_frame(frame)

    def upstream_lost(self, why: str) -> None:
        if self.states.closed:
            return
        if self.states.server_left:
            self.close_reason = "kicked by the server"
            self.close_category = "kicked_by_server"
            self.states.close()
            self.io.close_client(graceful=False)
            return
        if self.failover.old_upstream_lost(why):
            return  # the first login goes on with the next server of try
        self.log.info("upstream closed for {player}: {why}", player=self.player_name, why=why)
        if (self.states.playing or self.switch is not None) and self.network.dropped(self, why, False):
            return  # moved to the next server of the network
        self.disconnect(f"Lost connection to the server ({_short(why)}).", "upstream_lost")

    # -- the engine ------------------------------------------------------------------
    def start_session(self) -> None:
        assert self.player_name is not None and self.codec is not None
        self.reader.max_frame = MAX_FRAME  # admitted, and the server accepted the login
        chat = self.config.chat
        self.windows = WindowSequencer(self.codec)
        self.session = Session(
            self.player_name,
            SessionConfig(command_prefix=chat.command_prefix, address_prefix=chat.address_prefix,
                          version=self.codec.version if self.chunks is not None else None,
                          game_version=self.codec.version,
                          reflexes=self.config.features.reflexes,
                          server_command=self.network.server_names(self) is not None),
            self.server.make_assistant(self),
            self.server.autopilot.settings(self.player_name),
            admin=self.server.is_admin(self.player_name),
            models=self.server.model_runner(self.player_name),
            admin_proof=self.server.admin_proof(self.player_name),
        )
        signed = None
        account = self.login.account
        if account is not None and signed_chat_relay.applies(self.codec):
            signed = signed_chat_relay.SignedChatRelay(self.codec, account.uuid, account.chat_key, self.log)
        self.play = PlayRelay(self, self.codec, self.session, self.chunks, signed,
                              players_only=subscriptions.players_only(self.config.features))
        self.log.info("{player} logged in from {peer} with Minecraft {version}", player=self.player_name,
                 peer=self.peer, version=self.codec.version)

    def new_chat_record(self) -> None:
        """A move to another backend: the signed-chat record starts empty, as that server's does."""
        account, play = self.login.account, self.play
        if account is not None and play is not None and play.signed is not None and self.codec is not None:
            play.signed = signed_chat_relay.SignedChatRelay(self.codec, account.uuid, account.chat_key, self.log)

    def tick(self, now: float) -> None:
        if self.states.client is not State.PLAY or self.session is None:
            return
        session = self.session
        try:
            actions = session.tick(now)
        except Exception:
            if not session.pilot.active:
                raise  # the server's tick loop disconnects this player with a reason
            # The autopilot's bug need not cost the player the connection: stop it, hand back control.
            self.log.failure("autopilot tick failed for {player}; autopilot stopped", player=self.player_name)
            actions = session.release("The autopilot stopped after an internal error (logged)", now)
        self.perform(actions)
        if self.windows is not None and self.windows.busy:
            for packet in self.windows.tick(now):
                self.actuator.item_packets(packet)

    def perform(self, actions: list[Action] | list[Any]) -> None:
        if actions:  # (most ticks and packets: none)
            self.actuator.perform(actions)

    def say(self, *lines: str) -> None:
        self.actuator.show(reply(*lines))

    def say_at_join(self, *lines: str) -> None:
        """Said with the server's next Join Game: a client that has just logged in has no world
        to show chat in yet, though before 1.20.2 both legs are in play already."""
        if self.codec is not None and not self.states.closed:
            components = reply_components(reply(*lines), self.codec.text_style)
            self.actuator.held_for_play.extend(self.codec.chat_to_client(c) for c in components)

    # -- closing ---------------------------------------------------------------------
    def disconnect(self, text: str, category: str = "proxy") -> None:
        """Tell the client why, in whatever state we are, then close both legs.

        ``category`` is a short label for metrics (bad_packet, upstream_lost, ...).
        """
        if self.states.closed:
            return
        self.release_client()  # what was held goes before the reason, and before the close
        self.close_reason = text
        self.close_category = category
        message = f"[mcagent] {text}"
        client = self.states.client
        try:
            if self.states.playing and self.codec is not None:
                self.send_packet(self.codec.kick(message))
            elif client in (State.CONFIGURATION, State.PLAY) and self.codec is not None:
                self.send_packet(self.codec.configuration_disconnect(message))
            elif client is State.LOGIN:
                self.send_packet(login_disconnect_any(message))
        except (KeyError, ValueError):
            self.log.warn("could not encode a disconnect for {player}", player=self.player_name)
        self.states.close()
        self.io.close_client(graceful=True)
        self.io.close_upstream()

    def client_lost(self) -> None:
        """The client's connection is gone (whoever closed it)."""
        previous = self.states.client
        self.states.close()
        self.io.close_upstream()
        self.failover.settle()
        if self.switch is not None:
            self.switch.stop()
        if self.play is not None:
            self.play.stop()
        if self.session is not None:
            self.session.handle(ev.Disconnected(self.close_reason or "client left"), self.clock.seconds())
        self.server.connection_closed(self)
        if self.recorder is not None:
            self.recorder.close()
        if previous in (State.PLAY, State.CONFIGURATION, State.LOGIN):
            self.log.info(
                "closed {player} from {peer}: {why}; client->server {c2s_frames} frames/{c2s_bytes} B, "
                "server->client {s2c_frames} frames/{s2c_bytes} B, fast path {fast}, decoded {decoded}, "
                "swallowed {swallowed}",
                player=self.player_name, peer=self.peer, why=self.close_reason or "client disconnected",
                c2s_frames=self.reader.frames_in, c2s_bytes=self.reader.bytes_in,
                s2c_frames=self.writer.frames_out, s2c_bytes=self.writer.bytes_out,
                fast=self.fast_frames, decoded=self.decoded_frames, swallowed=self.swallowed)


def _kick_text(codec: VersionCodec | None, frame: Frame) -> str:
    """A play kick's reason as plain text (a JSON component before 1.20.3, NBT since)."""
    if codec is None:
        return ""
    try:
        return plain_text(codec.decode(State.PLAY, "toClient", "kick_disconnect", frame.packet).get("reason"))
    except (KeyError, ValueError, PeerError):
        return ""


def _short(text: str) -> str:
    text = text.strip()
    return text.split(":")[0] if len(text) > 80 else text
