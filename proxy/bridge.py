"""The per-player bridge: the client's connection, its upstream, and the fast path.

How this works: ``Bridge`` is the Twisted protocol for one client connection. Its
sans-IO ``Framing`` turns bytes into frames; each frame is handled by the current
state (handshaking, status, login, configuration, play). The upstream connection
(``Upstream``) feeds its frames back into the same bridge. In play, a frame whose
packet id nobody subscribed to is written to the other leg as the bytes it came
as (re-framed only if the legs' compression thresholds differ); a subscribed
frame is decoded by the ``VersionCodec`` into engine events, and the engine
``Session``'s actions are encoded back into packets. Only chat from the client
can be swallowed, and only when the session does not ask to forward it.

State changes follow the packets that cause them, as vanilla does: the server's
Set Compression and Login Success, and the client's Login/Configuration
Acknowledged and Finish Configuration (1.20.2+).
"""
from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any, Callable

import attrs

from twisted.internet import protocol
from twisted.protocols.policies import TimeoutMixin
from twisted.internet.defer import Deferred
from twisted.internet.endpoints import HostnameEndpoint
from twisted.internet.interfaces import IAddress
from twisted.logger import Logger
from twisted.python.failure import Failure

from engine import events as ev
from engine.actions import (Action, AdminCommand, ForwardChat, InjectMovement, Kick, MeasurePing,
                            ReleaseHeldItem, ReplyToPlayer, SelectHotbar, SetControl, UseHeldItem, reply)
from engine.chat_tap import may_be_addressed
from engine import actions as acts
from engine.session import Session, SessionConfig
from proxy import forwarding, versions
from proxy.chat import reply_components
from proxy.codec import VersionCodec, login_disconnect_any
from proxy.handshake import STATUS, Handshake, build_handshake, parse_handshake
from proxy.profile import GameProfile, ProfileError, offline_profile, profile_from_session
from proxy.protocol.errors import PeerError
from proxy.protocol.framing import Frame, Framing, Writer
from proxy.protocol.tables import TO_CLIENT, TO_SERVER, table_for_version
from proxy.protocol.wire import read_string, read_varint
from proxy.status import own_status
from proxy.chunks import BlockChanges, ChunkColumn, ChunkDecoder, ChunkUnload
from proxy.subscriptions import CLIENT_MOVEMENT, REWRITTEN, SWALLOWABLE, WINDOW_TO_CLIENT, WORLD_TO_CLIENT
from proxy.windows import WindowSequencer

if TYPE_CHECKING:
    from proxy.server import ProxyServer

log = Logger(namespace="mcagent.bridge")
# The autopilot's hands: digging, placing, attacking, respawning, window work.
AGENT_OPS = (acts.StartDigging, acts.FinishDigging, acts.SwingArm, acts.PlaceBlock, acts.UseBlock, acts.SwapToHotbar, acts.CraftItem,
             acts.SmeltStart, acts.SmeltCollect, acts.AttackEntity, acts.Respawn)

HELD_LIMIT = 64  # replies held while the client reconfigures
# The proxy's own teleport ids, far from servers' counters (vanilla counts up from
# 1 per player; flying-squid always sends 1), so a confirmation tells whose it is.
OWN_TELEPORT_IDS = range(0x4D430000, 0x4D440000)
HANDSHAKING, STATUS_STATE, LOGIN_STATE, CONFIGURATION, PLAY, CLOSED = (
    "handshaking", "status", "login", "configuration", "play", "closed")


class Upstream(protocol.Protocol):
    """The proxy's connection to the real server for one bridge."""

    def __init__(self, bridge: "Bridge") -> None:
        self.bridge = bridge
        self.reader = Framing()
        self.writer = Writer()

    def connectionMade(self) -> None:
        _no_delay(self.transport)
        self.bridge.upstream_connected(self)

    def dataReceived(self, data: bytes) -> None:
        self.bridge.upstream_data(data)

    def connectionLost(self, reason: Failure = protocol.connectionDone) -> None:
        self.bridge.upstream_lost(reason)

    def send_packet(self, packet: bytes) -> None:
        self.transport.write(self.writer.seal(self.writer.frame(packet)))  # type: ignore[union-attr]

    def send_frame(self, frame: Frame, source: Framing) -> None:
        if source.threshold == self.writer.threshold:
            self.transport.write(self.writer.seal(frame.raw))  # type: ignore[union-attr]
        else:
            self.send_packet(frame.packet)


class UpstreamFactory(protocol.Factory):
    noisy = False
    def __init__(self, bridge: "Bridge") -> None:
        self.bridge = bridge

    def buildProtocol(self, addr: IAddress) -> Upstream:
        return Upstream(self.bridge)


class Bridge(protocol.Protocol, TimeoutMixin):
    def __init__(self, server: "ProxyServer") -> None:
        self.server = server
        self.config = server.config
        self.reader = Framing()
        self.writer = Writer()
        self.state = HANDSHAKING
        self.handshake: Handshake | None = None
        self.handshake_packet = b""
        self.codec: VersionCodec | None = None
        self.upstream: Upstream | None = None
        self.pending: list[bytes] = []  # whole packets for upstream until it connects
        self.player_name: str | None = None
        self.session: Session | None = None
        self.connected_at = server.clock.seconds()
        self.close_reason: str | None = None
        self.close_category = "client_left"
        self._close_timer: Any = None
        self.server_kicked = False
        self.fast_frames = 0
        self.decoded_frames = 0
        self.swallowed = 0
        self._verify_token = b""
        self.status_self = False
        self.status_note = ""
        # 1.20.2+: from the server's Start Configuration until the client is back
        # in play, the client speaks configuration; our own play packets wait here.
        self.client_configuring = False
        self.held_for_play: list[bytes] = []
        self.driving = False  # the agent moves the player; the client's movement is held back
        self._next_teleport = OWN_TELEPORT_IDS.start
        self.held_movement = 0
        self.fast_runs = 0
        self.chunks: ChunkDecoder | None = None
        self._dimension: str | None = None
        self._s2c_interesting = bytes(128)
        self._ids: dict[str, int] = {}
        self._sequence = 0  # 1.19+: block action sequence numbers of the agent's digs and placements
        self.windows: WindowSequencer | None = None  # the agent's crafting, smelting and hotbar swaps
        self._sprinting = False  # what the server was last told of the agent's sprinting
        # Player-info forwarding (proxy/forwarding.py): who the backend is told the player is.
        self.player_info: forwarding.PlayerInfo | None = None
        self._chat_key: forwarding.ChatKey | None = None
        self.identity_forwarded = False

    # -- client side ---------------------------------------------------------------
    def connectionMade(self) -> None:
        _no_delay(self.transport)
        self.server.bridges.add(self)
        self.callLater = self.server.clock.callLater  # type: ignore[assignment]
        self.setTimeout(self.config.read_timeout_seconds)

    @property
    def peer(self) -> str:
        # Read each time: behind a PROXY-protocol load balancer the real address is
        # known only once the header has arrived, after connectionMade.
        if self.transport is None:
            return "?"
        address = self.transport.getPeer()
        return f"{getattr(address, 'host', '?')}:{getattr(address, 'port', '?')}"

    def timeoutConnection(self) -> None:
        log.info("{player} from {peer} timed out", player=self.player_name or "?", peer=self.peer)
        self.disconnect(f"Timed out: nothing received for {self.config.read_timeout_seconds:g} seconds.", "timeout")

    def dataReceived(self, data: bytes) -> None:
        if self.state == CLOSED:
            return
        self.resetTimeout()
        try:
            self.reader.feed(data)
            while self.state != CLOSED:
                frame = self.reader.next_frame()
                if frame is None:
                    break
                self._client_frame(frame)
        except PeerError as exc:
            log.info("closing {peer} ({player}): bad input from client: {reason}",
                     peer=self.peer, player=self.player_name, reason=str(exc))
            self.disconnect(f"Bad packet from your client: {exc}", "bad_packet")
        except Exception:
            # A bug of ours on this input: this connection ends, the proxy goes on.
            log.failure("internal error on input from {player}", player=self.player_name or self.peer)
            self.disconnect("Internal error in the proxy while reading your packet; please reconnect.", "internal_error")

    def connectionLost(self, reason: Failure = protocol.connectionDone) -> None:
        previous = self.state
        self.state = CLOSED
        self.setTimeout(None)
        if self._close_timer is not None and self._close_timer.active():
            self._close_timer.cancel()
        self.server.bridges.discard(self)
        if self.upstream is not None and self.upstream.transport is not None:
            self.upstream.transport.loseConnection()
        if self.session is not None:
            self.session.handle(ev.Disconnected(self.close_reason or "client left"), self.server.clock.seconds())
        self.server.bridge_closed(self)
        if previous in (PLAY, CONFIGURATION, LOGIN_STATE):
            log.info(
                "closed {player} from {peer}: {why}; client->server {c2s_frames} frames/{c2s_bytes} B, "
                "server->client {s2c_frames} frames/{s2c_bytes} B, fast path {fast}, decoded {decoded}, swallowed {swallowed}",
                player=self.player_name, peer=self.peer, why=self.close_reason or "client disconnected",
                c2s_frames=self.reader.frames_in, c2s_bytes=self.reader.bytes_in,
                s2c_frames=self.writer.frames_out, s2c_bytes=self.writer.bytes_out,
                fast=self.fast_frames, decoded=self.decoded_frames, swallowed=self.swallowed)

    def send_packet(self, packet: bytes) -> None:
        if self.transport is not None and self.state != CLOSED:
            self.transport.write(self.writer.seal(self.writer.frame(packet)))

    def send_frame(self, frame: Frame, source: Framing) -> None:
        if self.transport is None or self.state == CLOSED:
            return
        if source.threshold == self.writer.threshold:
            self.transport.write(self.writer.seal(frame.raw))
        else:
            self.send_packet(frame.packet)

    def disconnect(self, text: str, category: str = "proxy") -> None:
        """Tell the client why, in whatever state we are, then close both legs.

        ``category`` is a short label for metrics (bad_packet, upstream_lost, ...).
        """
        if self.state == CLOSED:
            return
        self.close_reason = text
        self.close_category = category
        message = f"[mcagent] {text}"
        try:
            if self.state == PLAY and self.codec is not None and not self.client_configuring:
                self.send_packet(self.codec.kick(message))
            elif self.state in (CONFIGURATION, PLAY) and self.codec is not None:
                self.send_packet(self.codec.configuration_disconnect(message))
            elif self.state == LOGIN_STATE:
                self.send_packet(login_disconnect_any(message))
        except (KeyError, ValueError):
            log.warn("could not encode a disconnect for {player}", player=self.player_name)
        self.state = CLOSED
        self._close_after_reason()
        if self.upstream is not None and self.upstream.transport is not None:
            self.upstream.transport.loseConnection()

    def _close_after_reason(self) -> None:
        """Close so the reason arrives: a full close while the client is still sending
        makes the kernel answer with a reset, and the client may drop the unread
        disconnect packet. So half-close (FIN after our bytes), let the client close
        its side, and abort only if it has not within two seconds."""
        transport = self.transport
        if transport is None:
            return
        half_close = getattr(transport, "loseWriteConnection", None)
        if half_close is None:
            transport.loseConnection()
            return
        half_close()
        abort = getattr(transport, "abortConnection", transport.loseConnection)
        timer = self.server.clock.callLater(2.0, abort)
        self._close_timer = timer

    def _client_frame(self, frame: Frame) -> None:
        if self.state == PLAY:
            self._client_play(frame)
        elif self.state == HANDSHAKING:
            self._client_handshake(frame)
        elif self.state == STATUS_STATE:
            if self.status_self:
                self._answer_status(frame.packet)
            else:
                self._to_upstream_frame(frame)
        elif self.state == LOGIN_STATE:
            self._client_login(frame)
        elif self.state == CONFIGURATION:
            pid = frame.packet_id
            self._to_upstream_frame(frame)
            if pid == self._ids.get("finish_configuration"):
                self._enter_play()
            elif self.codec is not None and self.session is not None:
                name = self.codec.subscribed_configuration.get(pid)
                if name is not None:
                    fields = self.codec.decode(CONFIGURATION, TO_SERVER, name, frame.packet)
                    now = self.server.clock.seconds()
                    for event in self.codec.events(TO_SERVER, name, fields):
                        self.perform(self.session.handle(event, now))

    def _client_handshake(self, frame: Frame) -> None:
        packet = frame.packet
        if packet[:1] == b"\xfe":
            raise PeerError("legacy (pre-1.7) server list ping is not supported")
        hs = parse_handshake(packet)
        self.handshake = hs
        self.handshake_packet = packet
        if hs.next_state == STATUS:
            self.state = STATUS_STATE
            if self.config.status.passthrough:
                self.pending.append(packet)
                self._connect_upstream(on_fail=self._status_fallback)
            else:
                self._status_fallback(None)
            return
        self.state = LOGIN_STATE
        supported = versions.by_protocol(hs.protocol)
        if supported is None:
            log.info("refused {peer}: unsupported protocol {protocol}", peer=self.peer, protocol=hs.protocol)
            self.disconnect(versions.refusal(hs.protocol), "unsupported_version")
            return
        refusal = self.server.forwarding.refusal(hs.protocol)
        if refusal is not None:
            log.info("refused {peer}: protocol {protocol} cannot carry {mode} forwarding", peer=self.peer,
                     protocol=hs.protocol, mode=self.server.forwarding.mode)
            self.disconnect(refusal, "unsupported_version")
            return
        self.codec = VersionCodec(table_for_version(supported.name))
        table = self.codec.table
        if self.config.features.world:
            self.chunks = ChunkDecoder(table)
        else:  # no block world: chunk packets stay on the fast path
            for pid, name in list(self.codec.subscribed[TO_CLIENT].items()):
                if name in WORLD_TO_CLIENT:
                    del self.codec.subscribed[TO_CLIENT][pid]
        interesting = bytearray(128)
        for state, name in ((LOGIN_STATE, "login_acknowledged"), (LOGIN_STATE, "login_plugin_response"),
                            (CONFIGURATION, "finish_configuration"), (PLAY, "configuration_acknowledged")):
            pid = table.packet_id(state, TO_SERVER, name)
            if pid is not None:
                self._ids[name] = pid
        for state, name in ((LOGIN_STATE, "compress"), (LOGIN_STATE, "success"), (LOGIN_STATE, "encryption_begin"),
                            (LOGIN_STATE, "disconnect"), (LOGIN_STATE, "login_plugin_request"),
                            (PLAY, "kick_disconnect"), (PLAY, "start_configuration"), (PLAY, "login")):
            pid = table.packet_id(state, TO_CLIENT, name)
            if pid is not None:
                self._ids["s2c_" + name] = pid
                if state == PLAY and pid < len(interesting):
                    interesting[pid] = 1
        registry = table.packet_id(CONFIGURATION, TO_CLIENT, "registry_data")
        if registry is not None:
            self._ids["s2c_registry_data"] = registry
        for pid in self.codec.subscribed[TO_CLIENT]:
            if pid < len(interesting):
                interesting[pid] = 1
        self._s2c_interesting = bytes(interesting)

    def _client_login(self, frame: Frame) -> None:
        assert self.codec is not None
        packet = frame.packet
        pid = read_varint(packet, 0)[0]
        name = self.codec.table.packet_name(LOGIN_STATE, TO_SERVER, pid)
        if name == "login_start" and self.player_name is None:
            fields = self.codec.decode(LOGIN_STATE, TO_SERVER, "login_start", packet)
            username = str(fields.get("username") or fields.get("name") or "")
            if not (1 <= len(username) <= 16):
                raise PeerError("login with an invalid player name")
            self.player_name = username
            self._chat_key = forwarding.chat_key(fields)
            refusal = self.server.admit(self)
            if refusal is not None:
                log.info("refused {player} from {peer}: {why}", player=username, peer=self.peer, why=refusal)
                self.disconnect(refusal, "refused")
                return
            self.pending.append(packet)  # the handshake goes before it once the player's identity is known
            if self.config.online_mode:
                self._begin_encryption()
            else:
                self._login_upstream(offline_profile(username))
        elif name == "encryption_begin" and self.config.online_mode and not self.reader.encrypted:
            self._finish_encryption(packet)
        elif name == "login_acknowledged":
            self._to_upstream_packet(packet)
            self.state = CONFIGURATION
        else:
            self._to_upstream_frame(frame)

    def _client_play(self, frame: Frame) -> None:
        assert self.codec is not None
        pid = frame.packet_id
        name = self.codec.subscribed[TO_SERVER].get(pid)
        if name is None:
            if pid == self._ids.get("configuration_acknowledged"):
                self._to_upstream_frame(frame)
                self.state = CONFIGURATION
                return
            self.fast_frames += 1
            self._to_upstream_frame(frame)
            return
        if name in SWALLOWABLE and not frame.compressed and not self._maybe_for_us(name, frame):
            self.fast_frames += 1  # ordinary chat: forwarded as it came, without decoding
            self._to_upstream_frame(frame)
            return
        self.decoded_frames += 1
        fields = self.codec.decode(PLAY, TO_SERVER, name, frame.packet)
        if name == "teleport_confirm" and int(fields.get("teleportId", -1)) in OWN_TELEPORT_IDS:
            return  # the client confirmed one of our sync positions: the server never sent it
        if self.driving and name in CLIENT_MOVEMENT:
            self.held_movement += 1  # the agent drives: the client's own movement is held back
            return
        actions: list[Action] = []
        now = self.server.clock.seconds()
        assert self.session is not None
        for event in self.codec.events(TO_SERVER, name, fields):
            actions.extend(self.session.handle(event, now))
        forward = name not in SWALLOWABLE or any(isinstance(a, ForwardChat) for a in actions)
        if forward:
            self._to_upstream_frame(frame)
        else:
            self.swallowed += 1
        self.perform(actions)

    def _world_update(self, name: str, packet: bytes) -> None:
        assert self.chunks is not None and self.session is not None
        now = self.server.clock.seconds()
        for update in self.chunks.decode(name, packet):
            event: ev.Event
            if isinstance(update, ChunkColumn):
                event = ev.ChunkColumnLoaded(update.cx, update.cz, tuple(update.sections), update.full)
            elif isinstance(update, BlockChanges):
                event = ev.BlocksChanged(tuple(update.changes))
            elif isinstance(update, ChunkUnload):
                event = ev.ChunkUnloaded(update.cx, update.cz)
            else:
                continue
            self.perform(self.session.handle(event, now))

    def _is_own_entity(self, frame: Frame) -> bool:
        own = self.session.world.entity_id if self.session is not None else None
        if own is None:
            return False
        packet = frame.packet
        _, pos = read_varint(packet, 0)
        return read_varint(packet, pos)[0] == own

    def _maybe_for_us(self, name: str, frame: Frame) -> bool:
        """Read only the chat text (the first field in every version) and ask the tap
        whether it could be addressed to the proxy; most chat is not, and goes on."""
        _, pos = read_varint(frame.raw, frame.start)
        text, _ = read_string(frame.raw, pos)
        if name == "chat_command":  # a slash command, sent without its slash
            text = "/" + text
        if self.session is not None:  # also ordinary chat while a confirmation card is visible
            return self.session.may_take(text, self.server.clock.seconds())
        chat = self.config.chat
        return may_be_addressed(text, chat.command_prefix, chat.address_prefix)

    # -- online mode -----------------------------------------------------------------
    def _begin_encryption(self) -> None:
        from quarry.net import crypto

        assert self.codec is not None
        self._verify_token = os.urandom(4)
        fields: dict[str, Any] = {
            "serverId": "",
            "publicKey": crypto.export_public_key(self.server.keypair),
            "verifyToken": self._verify_token,
            "shouldAuthenticate": True,
        }
        self.send_packet(self.codec.encode(LOGIN_STATE, TO_CLIENT, "encryption_begin", fields))

    def _finish_encryption(self, packet: bytes) -> None:
        from quarry.net import crypto

        assert self.codec is not None
        fields = self.codec.decode(LOGIN_STATE, TO_SERVER, "encryption_begin", packet)
        try:
            secret = crypto.decrypt_secret(self.server.keypair, fields["sharedSecret"])
            token = fields.get("verifyToken")
            if isinstance(token, dict):  # 1.19: a switch between token and signature
                token = token.get("verifyToken")
            if token is None:
                raise PeerError("signed-nonce encryption responses are not supported")
            if crypto.decrypt_secret(self.server.keypair, token) != self._verify_token:
                raise PeerError("encryption verify token mismatch")
        except (ValueError, KeyError) as exc:
            raise PeerError(f"bad encryption response: {exc}") from None
        self.reader.enable_encryption(secret)
        self.writer.enable_encryption(secret)
        digest = crypto.make_digest(b"", secret, crypto.export_public_key(self.server.keypair))
        assert self.player_name is not None
        d = self.server.verify_session(self.player_name, digest)

        def joined(answer: Any) -> None:
            if self.state == CLOSED:
                return
            assert self.player_name is not None
            try:
                profile = profile_from_session(answer, self.player_name)
            except ProfileError as exc:
                refused(str(exc))
                return
            log.info("{player} authenticated with Mojang", player=self.player_name)
            self._login_upstream(profile)

        def refused(why: str) -> None:
            log.info("{player} failed authentication: {why}", player=self.player_name, why=why)
            self.disconnect("Could not verify your account with Mojang (online mode needs internet access).",
                            "auth_failed")

        def failed(failure: Failure) -> None:
            refused(failure.getErrorMessage())

        d.addCallbacks(joined, failed)

    # -- player-info forwarding (the formats live in proxy/forwarding.py) ---------------
    def _login_upstream(self, profile: GameProfile) -> None:
        """Log in to the backend as this player: the handshake goes first, carrying legacy
        forwarding when that is on; a Velocity request is answered in ``_server_login``."""
        assert self.handshake is not None
        key = self._chat_key
        if key is not None and key.linked and key.holder is None and self.config.online_mode:
            key = attrs.evolve(key, holder=profile.uuid)  # as Velocity backfills it from the verified profile
        host = self.peer.rsplit(":", 1)[0]  # behind a PROXY-protocol balancer, the address it reported
        self.player_info = forwarding.PlayerInfo(profile, forwarding.client_address(host), self.handshake.protocol, key)
        server_address = self.server.forwarding.upstream_host(self.handshake.host, self.player_info)
        if server_address == self.handshake.host:
            self.pending.insert(0, self.handshake_packet)  # untouched, as the client sent it
        else:
            self.pending.insert(0, build_handshake(attrs.evolve(self.handshake, host=server_address)))
        self._connect_upstream()

    def _answer_login_plugin(self, frame: Frame) -> bool:
        """True when the request was ours (velocity:player_info in velocity mode) and is answered;
        any other request goes on to the client untouched, as does its response."""
        assert self.upstream is not None
        if self.player_info is None or not self.server.forwarding.reads_login_plugin_requests:
            return False
        request = forwarding.parse_login_plugin_request(frame.packet)
        data = self.server.forwarding.answer(request, self.player_info)
        if data is None:
            return False
        self.upstream.send_packet(forwarding.login_plugin_response(self._ids["login_plugin_response"],
                                                                   request.message_id, data))
        self.identity_forwarded = True
        log.info("forwarded {player}'s identity to the server ({mode}: {uuid} from {address})",
                 player=self.player_name, mode=self.server.forwarding.mode, uuid=str(self.player_info.profile.uuid),
                 address=self.player_info.address)
        return True

    # -- upstream side ---------------------------------------------------------------
    def _connect_upstream(self, on_fail: Callable[[Failure], None] | None = None) -> None:
        up = self.config.upstream
        endpoint = HostnameEndpoint(self.server.reactor, up.host, up.port, timeout=self.config.upstream_connect_timeout)
        d = endpoint.connect(UpstreamFactory(self))

        def failed(failure: Failure) -> None:
            log.info("upstream {host}:{port} unreachable for {player}: {why}", host=up.host, port=up.port,
                     player=self.player_name or self.peer, why=failure.getErrorMessage())
            if on_fail is not None:
                on_fail(failure)
            else:
                self.disconnect(f"Cannot reach the server at {up.host}:{up.port} ({_short(failure)}). Try again later.",
                                "upstream_unreachable")

        d.addErrback(failed)

    # -- status (server list) ------------------------------------------------------
    def _status_fallback(self, failure: Failure | None) -> None:
        """Answer the server-list ping ourselves: passthrough is off or the upstream is down."""
        self.status_self = True
        self.status_note = "" if failure is None else "server unreachable"
        pending, self.pending = self.pending, []
        for packet in pending[1:] if failure is not None else pending:  # skip the queued handshake
            self._answer_status(packet)

    def _answer_status(self, packet: bytes) -> None:
        pid = read_varint(packet, 0)[0]
        if pid == 0:
            hs = self.handshake
            self.send_packet(own_status(self.config.status.motd, hs.protocol if hs else 0,
                                        self.server.player_count(), self.config.max_players, self.status_note))
        elif pid == 1:
            self.send_packet(packet)  # pong echoes the ping's payload
            self.state = CLOSED
            if self.transport is not None:
                self.transport.loseConnection()

    def upstream_connected(self, upstream: Upstream) -> None:
        if self.state == CLOSED:
            upstream.transport.loseConnection()  # type: ignore[union-attr]
            return
        self.upstream = upstream
        for packet in self.pending:
            upstream.send_packet(packet)
        self.pending.clear()

    def upstream_data(self, data: bytes) -> None:
        if self.upstream is None or self.state == CLOSED:
            return
        reader = self.upstream.reader
        try:
            reader.feed(data)
            if self.state == PLAY and reader.threshold == self.writer.threshold:
                self._server_play_batch(reader)
            while self.state != CLOSED:
                frame = reader.next_frame()
                if frame is None:
                    break
                self._server_frame(frame)
        except PeerError as exc:
            log.warn("server sent bad data to {player}: {reason}", player=self.player_name, reason=str(exc))
            self.disconnect(f"The server sent a malformed packet ({exc}).", "bad_server_packet")
        except Exception:
            log.failure("internal error on server input for {player}", player=self.player_name)
            self.disconnect("Internal error in the proxy while reading the server's packet; please reconnect.", "internal_error")

    def upstream_lost(self, reason: Failure) -> None:
        if self.state == CLOSED:
            return
        if self.server_kicked:
            self.close_reason = "kicked by the server"
            self.close_category = "kicked_by_server"
            self.state = CLOSED
            if self.transport is not None:
                self.transport.loseConnection()
            return
        log.info("upstream closed for {player}: {why}", player=self.player_name, why=reason.getErrorMessage())
        self.disconnect(f"Lost connection to the server ({_short(reason)}).", "upstream_lost")

    def _server_play_batch(self, reader: Framing) -> None:
        """The fast path in bulk: runs of frames nobody subscribed to go out in one write."""
        assert self.codec is not None and self.transport is not None
        before = reader.frames_in
        items = reader.drain(self._s2c_interesting)
        surfaced = 0
        for item in items:
            if self.state == CLOSED:
                return
            if isinstance(item, bytes):
                self.transport.write(self.writer.seal(item, frames=0))
            else:
                surfaced += 1
                self._server_frame(item)
        in_runs = reader.frames_in - before - surfaced
        self.fast_frames += in_runs
        self.writer.frames_out += in_runs

    def _server_frame(self, frame: Frame) -> None:
        if self.state == PLAY:
            self._server_play(frame)
            return
        if self.state == STATUS_STATE or self.state == CONFIGURATION:
            self.send_frame(frame, self.upstream.reader)  # type: ignore[union-attr]
            if self.state == CONFIGURATION and self.chunks is not None and self.codec is not None \
                    and frame.packet_id == self._ids.get("s2c_registry_data"):
                # 1.20.2+: dimension heights come from the registries sent here.
                self.chunks.note_registry(self.codec.decode(CONFIGURATION, TO_CLIENT, "registry_data", frame.packet))
            return
        if self.state == LOGIN_STATE:
            self._server_login(frame)

    def _server_login(self, frame: Frame) -> None:
        assert self.upstream is not None and self.codec is not None
        pid = frame.packet_id
        if pid == self._ids.get("s2c_compress"):
            fields = self.codec.decode(LOGIN_STATE, TO_CLIENT, "compress", frame.packet)
            threshold = int(fields["threshold"])
            self.upstream.reader.threshold = threshold
            self.upstream.writer.threshold = threshold
            client_threshold = threshold if self.config.compression_threshold is None else self.config.compression_threshold
            self.send_packet(self.codec.encode(LOGIN_STATE, TO_CLIENT, "compress", {"threshold": client_threshold}))
            self.writer.threshold = client_threshold
            self.reader.threshold = client_threshold
        elif pid == self._ids.get("s2c_login_plugin_request") and self._answer_login_plugin(frame):
            pass  # the proxy answered the backend itself; the client never sees the request
        elif pid == self._ids.get("s2c_encryption_begin"):
            self.disconnect("The server behind the proxy is in online mode; set online-mode=false there "
                            "(the proxy authenticates players itself when its online_mode is on).", "upstream_online_mode")
        elif pid == self._ids.get("s2c_success"):
            problem = self.server.forwarding.unanswered(self.identity_forwarded)
            if problem is not None:
                log.warn("{player}: {problem}", player=self.player_name, problem=problem)
                self.disconnect(problem, "forwarding_not_requested")
                return
            self.send_frame(frame, self.upstream.reader)
            fields = self.codec.decode(LOGIN_STATE, TO_CLIENT, "success", frame.packet)
            self.player_name = str(fields.get("username") or self.player_name)
            self._start_session()
            if not self.codec.table.has_configuration:
                self._enter_play()
        elif pid == self._ids.get("s2c_disconnect"):
            self.server_kicked = True
            self.send_frame(frame, self.upstream.reader)
        else:
            self.send_frame(frame, self.upstream.reader)

    def _server_play(self, frame: Frame) -> None:
        assert self.codec is not None and self.upstream is not None
        pid = frame.packet_id
        name = self.codec.subscribed[TO_CLIENT].get(pid)
        if name is None:
            self.send_frame(frame, self.upstream.reader)
            self.fast_frames += 1
            if pid == self._ids.get("s2c_kick_disconnect"):
                self.server_kicked = True
            elif pid == self._ids.get("s2c_start_configuration"):
                self.client_configuring = True
            return
        if name == "entity_metadata" and not self._is_own_entity(frame):
            self.send_frame(frame, self.upstream.reader)  # another entity's: forward as it came
            self.fast_frames += 1
            return
        self.decoded_frames += 1
        if name in WORLD_TO_CLIENT:
            self.send_frame(frame, self.upstream.reader)
            self._world_update(name, frame.packet)
            return
        if name in REWRITTEN:  # rewritten from its bytes, never decoded whole; it carries no events
            words = self.session.commands.completion(self.session.admin) if self.session is not None else ()
            self.send_packet(self.codec.rewrite(name, frame.packet, words))
            return
        fields = self.codec.decode(PLAY, TO_CLIENT, name, frame.packet)
        hidden = name in WINDOW_TO_CLIENT and self._window_packet(name, fields)
        if name in ("login", "respawn") and self.chunks is not None:
            dimension = self.chunks.note_dimension(name, fields)
            if self.session is not None and (name == "respawn" or dimension.name != self._dimension):
                self._dimension = dimension.name
                self.perform(self.session.handle(ev.DimensionChanged(dimension.name, dimension.min_y,
                                                                     dimension.height), self.server.clock.seconds()))
        if not hidden:
            self.send_frame(frame, self.upstream.reader)
        if pid == self._ids.get("s2c_login") and self.held_for_play:
            held, self.held_for_play = self.held_for_play, []
            for packet in held:
                self.send_packet(packet)
        assert self.session is not None
        now = self.server.clock.seconds()
        actions: list[Action] = []
        for event in self.codec.events(TO_CLIENT, name, fields):
            actions.extend(self.session.handle(event, now))
        self.perform(actions)

    def _to_upstream_frame(self, frame: Frame) -> None:
        if self.upstream is None:
            self.pending.append(frame.packet)
        else:
            self.upstream.send_frame(frame, self.reader)

    def _to_upstream_packet(self, packet: bytes) -> None:
        if self.upstream is None:
            self.pending.append(packet)
        else:
            self.upstream.send_packet(packet)

    # -- engine --------------------------------------------------------------------
    def _start_session(self) -> None:
        assert self.player_name is not None
        chat = self.config.chat
        if self.codec is not None:
            self.windows = WindowSequencer(self.codec)
        self.session = Session(
            self.player_name,
            SessionConfig(command_prefix=chat.command_prefix, address_prefix=chat.address_prefix,
                          version=self.codec.version if self.codec is not None and self.chunks is not None else None,
                          reflexes=self.config.features.reflexes),
            self.server.make_assistant(self),
            self.server.autopilot.settings(self.player_name),
            admin=self.server.is_admin(self.player_name),
            models=self.server.model_runner(self.player_name),
            admin_proof=self.server.admin_proof(self.player_name),
        )
        log.info("{player} logged in from {peer} with Minecraft {version}", player=self.player_name,
                 peer=self.peer, version=self.codec.version if self.codec else "?")

    def _enter_play(self) -> None:
        self.state = PLAY
        self.client_configuring = False

    def tick(self, now: float) -> None:
        if self.state == PLAY and self.session is not None:
            try:
                actions = self.session.tick(now)
            except Exception:
                if not self.session.pilot.active:
                    raise  # the server's tick loop disconnects this player with a reason
                # The autopilot's bug need not cost the player the connection: stop it, hand back control.
                log.failure("autopilot tick failed for {player}; autopilot stopped", player=self.player_name)
                actions = self.session.release("The autopilot stopped after an internal error (logged)", now)
            self.perform(actions)
            if self.windows is not None and self.windows.busy:
                for packet in self.windows.tick(now):
                    self._item_packets(packet)

    def perform(self, actions: list[Any]) -> None:
        for action in actions:
            if isinstance(action, ReplyToPlayer):
                self.show(action)
            elif isinstance(action, MeasurePing):
                self.server.measure_ping(self)
            elif isinstance(action, Kick):
                self.disconnect(action.reason, "kicked_by_proxy")
            elif isinstance(action, AdminCommand):
                self.say(*self.server.admin_command(self, action.line))
            elif isinstance(action, InjectMovement):
                self._inject(action)
            elif isinstance(action, SetControl):
                self.driving = action.driving
                if not action.driving:
                    self._sprint(False)  # the player's own keys say again whether they sprint
            elif isinstance(action, SelectHotbar):
                self._item_packets(*self.codec.select_slot(action.slot) if self.codec else ())
            elif isinstance(action, UseHeldItem):
                self._item_packets(self.codec.use_item() if self.codec else None)
            elif isinstance(action, ReleaseHeldItem):
                self._item_packets(self.codec.release_item() if self.codec else None)
            elif isinstance(action, AGENT_OPS):
                self._agent_op(action)

    def _agent_op(self, op: Any) -> None:
        """The autopilot's hands: digging, placing, attacking, respawning, window work."""
        codec = self.codec
        if codec is None:
            return
        if isinstance(op, acts.StartDigging):
            self._item_packets(codec.dig(0, op.x, op.y, op.z, op.face, self._next_sequence()))
            self._item_packets(codec.swing())
        elif isinstance(op, acts.FinishDigging):
            self._item_packets(codec.dig(2, op.x, op.y, op.z, op.face, self._next_sequence()),
                               # What a digging client shows at once; the server corrects it if it refuses.
                               codec.build(PLAY, TO_CLIENT, "block_change", location={"x": op.x, "y": op.y, "z": op.z},
                                           type=0))
        elif isinstance(op, acts.SwingArm):
            self._item_packets(codec.swing())
        elif isinstance(op, acts.PlaceBlock):
            ax, ay, az = op.against
            self._item_packets(codec.use_item_on(ax, ay, az, op.face, self._next_sequence()))
            self._item_packets(codec.swing())
        elif isinstance(op, acts.UseBlock):      # lie down in a bed: the same use_item_on, on the block itself
            self._item_packets(codec.use_item_on(op.x, op.y, op.z, op.face, self._next_sequence()))
            self._item_packets(codec.swing())
        elif isinstance(op, acts.AttackEntity):
            self._item_packets(codec.attack(op.entity_id))
            self._item_packets(codec.swing())
        elif isinstance(op, acts.Respawn):
            self._item_packets(codec.respawn())
        else:  # hotbar swaps, crafting and smelting: window clicks over several ticks
            self._window_op(op)

    def _next_sequence(self) -> int:
        self._sequence += 1
        return self._sequence

    def _window_op(self, op: Any) -> None:
        if self.windows is None or not isinstance(op, (acts.SwapToHotbar, acts.CraftItem, acts.SmeltStart,
                                                        acts.SmeltCollect)):
            return
        for packet in self.windows.start(op, self.server.clock.seconds()):
            self._item_packets(packet)

    def _window_packet(self, name: str, fields: dict[str, Any]) -> bool:
        """Feed a window packet to the sequencer; True when it answers the agent's own window
        work, which the player's client never asked for and must not see (a crafting screen)."""
        if self.windows is None or self.codec is None:
            return False
        update = self.codec.window_update(name, fields)
        if update is None:
            return False
        now = self.server.clock.seconds()
        ours = self.windows.owns(update, now)
        for packet in self.windows.update(update, now):
            self._item_packets(packet)
        return ours

    def _item_packets(self, to_server: bytes | None = None, to_client: bytes | None = None) -> None:
        if self.upstream is None or self.state != PLAY or self.client_configuring:
            return
        if to_server is not None:
            self.upstream.send_packet(to_server)
        if to_client is not None:
            self.send_packet(to_client)

    def _sprint(self, on: bool) -> None:
        own = self.session.world.entity_id if self.session is not None else None
        if on == self._sprinting or self.codec is None or own is None:
            return
        self._sprinting = on
        self._item_packets(self.codec.sprint(own, on))

    def _inject(self, move: InjectMovement) -> None:
        if self.codec is None or self.upstream is None or self.state != PLAY or self.client_configuring:
            return
        self._sprint(move.sprinting)  # a sprint-speed step goes with the sprint flag, as from a client
        self.upstream.send_packet(self.codec.move_to_server(move.x, move.y, move.z, move.yaw, move.pitch,
                                                            move.on_ground))
        teleport_id = self._next_teleport
        self._next_teleport = teleport_id + 1 if teleport_id + 1 < OWN_TELEPORT_IDS.stop else OWN_TELEPORT_IDS.start
        self.send_packet(self.codec.move_client(move.x, move.y, move.z, move.yaw, move.pitch, teleport_id))

    def show(self, action: ReplyToPlayer) -> None:
        if self.codec is None or self.state == CLOSED or self.session is None:
            return
        packets = [self.codec.chat_to_client(c) for c in reply_components(action, self.codec.text_style)]
        if self.state == PLAY and not self.client_configuring:
            for packet in packets:
                self.send_packet(packet)
        else:
            # The client is (re)configuring: a play packet now would be invalid there.
            # Hold the reply until the server's next Join Game puts the client in play.
            self.held_for_play.extend(packets)
            del self.held_for_play[:-HELD_LIMIT]

    def say(self, *lines: str) -> None:
        self.show(reply(*lines))


def _no_delay(transport: Any) -> None:
    # Small game packets must not wait for Nagle's algorithm (it added ~20 ms to
    # keep-alives after a stall); a relay should add as little latency as it can.
    set_no_delay = getattr(transport, "setTcpNoDelay", None)
    if set_no_delay is not None:
        try:
            set_no_delay(True)
        except OSError:
            pass


def _short(failure: Failure) -> str:
    text = failure.getErrorMessage().strip()
    return text.split(":")[0] if len(text) > 80 else text
