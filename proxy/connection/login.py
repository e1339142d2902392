"""Handshake, server-list status and login for one connection, without I/O.

How this works: until the server's Login Success, the ``Connection`` hands the
client's frames to ``client_handshake``, ``answer_status`` (when the proxy answers the
ping itself) or ``client_login``, and the server's to ``server_login``. The handshake
picks the version's codec; login start is where admission is decided (before any
upstream connection opens), and in online mode the proxy runs the encryption exchange
and asks the ``ConnectionIO`` to verify the session. The server's Set Compression sets
both legs' framing; its Login Success starts the engine session.

The server leg authenticates on its own (``upstream_auth``). Offline, the client's login
start goes up as it came. With a Microsoft account, the proxy logs in as that account:
at login start it asks the ``ConnectionIO`` for the account's session (``account_ready``
answers: its name, UUID and a fresh access token), checks that the client's name is the
account's (or the configured local name), and sends a login start with the account's name
and UUID; when the server asks for encryption, the proxy joins through the session server
(``session_joined`` answers) and answers as a vanilla client (``proxy.connection.upstream_encryption``),
after which only the server leg is encrypted. The two legs never share a secret.

A first login the backend fails (refused, silent, closed, a shutdown kick) goes on with the
next server of the landing list (``proxy.connection.login_failover``): it asks this phase for that
backend's handshake (``backend_handshake``), the login start as the backend gets it
(``backend_login_start``) and to forget the old backend's login (``new_backend``); the client
is sent one Set Compression at most.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import attrs

from proxy.codec.chunks import ChunkDecoder
from proxy.codec.packet_ids import WatchedIds
from proxy.codec.subscriptions import WORLD_TO_CLIENT
from proxy.codec.versioned import VersionCodec
from proxy.connection import forwarding, signed_chat_relay, upstream_encryption
from proxy.connection.profile import GameProfile, ProfileError, offline_profile, profile_from_session
from proxy.connection.status import own_status
from proxy.protocol import key_exchange, versions
from proxy.protocol.errors import PeerError
from proxy.protocol.framing import Frame
from proxy.protocol.handshake import STATUS, build_handshake, parse_handshake
from proxy.protocol.states import CLIENT, HANDSHAKE_LOGIN, HANDSHAKE_STATUS, SERVER, State
from proxy.protocol.tables import TO_CLIENT, TO_SERVER, table_for_version
from proxy.protocol.wire import read_varint

if TYPE_CHECKING:
    from proxy.connection.seams import AccountSession, LoginView


class LoginPhase:
    def __init__(self, conn: LoginView) -> None:
        self.conn = conn
        self._verify_token = b""
        # Player-info forwarding (proxy/connection/forwarding.py): who the backend is told the player is.
        self.player_info: forwarding.PlayerInfo | None = None
        self._chat_key: forwarding.ChatKey | None = None
        self.identity_forwarded = False
        # upstream_auth microsoft: the account the server leg logs in as, once the proxy has it.
        self.account: "AccountSession | None" = None
        self._login_start: dict[str, Any] = {}  # the client's login start, rewritten for the account
        self.login_start_packet = b""  # as the client sent it (a switch logs in to the next backend with it)
        self._profile: GameProfile | None = None  # who the client is (verified in online mode)
        self._upstream_secret = b""
        self._encryption_response = b""
        self._account_login_start = b""  # the login start as the account (upstream_auth microsoft)
        self._client_compressed = False  # the client was sent a Set Compression (only one ever goes)

    def client_handshake(self, frame: Frame) -> None:
        conn = self.conn
        packet = frame.packet
        if packet[:1] == b"\xfe":
            raise PeerError("legacy (pre-1.7) server list ping is not supported")
        hs = parse_handshake(packet)
        conn.handshake = hs
        conn.handshake_packet = packet
        landing = conn.network.landing(hs.host)
        conn.backend, conn.landing = landing[0], list(landing[1:])  # the rest: if the first does not answer
        if hs.next_state == STATUS:
            conn.states.sent(CLIENT, HANDSHAKE_STATUS)
            if conn.config.status.passthrough:
                conn.pending.append(packet)
                conn.io.connect_upstream()
            else:
                self.status_fallback()
            return
        conn.states.sent(CLIENT, HANDSHAKE_LOGIN)
        supported = versions.by_protocol(hs.protocol)
        if supported is None:
            self.conn.log.info("refused {peer}: unsupported protocol {protocol}", peer=conn.peer, protocol=hs.protocol)
            conn.disconnect(versions.refusal(hs.protocol), "unsupported_version")
            return
        refusal = conn.forwarding.refusal(hs.protocol)
        if refusal is not None:
            self.conn.log.info("refused {peer}: protocol {protocol} cannot carry {mode} forwarding", peer=conn.peer,
                     protocol=hs.protocol, mode=conn.forwarding.mode)
            conn.disconnect(refusal, "unsupported_version")
            return
        conn.codec = VersionCodec(table_for_version(supported.name))
        if not conn.codec.table.has_configuration:
            conn.states.use_legacy()
        if conn.config.features.world:
            conn.chunks = ChunkDecoder(conn.codec.table)
        else:  # no block world: chunk packets stay on the fast path
            for pid, name in list(conn.codec.subscribed[TO_CLIENT].items()):
                if name in WORLD_TO_CLIENT:
                    del conn.codec.subscribed[TO_CLIENT][pid]
        if conn.config.upstream_auth.mode == "microsoft" and signed_chat_relay.applies(conn.codec):
            signed_chat_relay.subscribe(conn.codec)  # the proxy may have to keep signed chat valid
        conn.ids = WatchedIds.for_codec(conn.codec)

    def client_login(self, frame: Frame) -> None:
        conn = self.conn
        assert conn.codec is not None
        packet = frame.packet
        pid = read_varint(packet, 0)[0]
        name = conn.codec.table.packet_name(State.LOGIN, TO_SERVER, pid)
        conn.states.check_pre_play(name, len(frame.raw))
        if name == "login_start" and conn.player_name is None:
            fields = conn.codec.decode(State.LOGIN, TO_SERVER, "login_start", packet)
            username = str(fields.get("username") or fields.get("name") or "")
            if not (1 <= len(username) <= 16):
                raise PeerError("login with an invalid player name")
            conn.player_name = username
            self._login_start = fields
            self.login_start_packet = packet
            self._chat_key = forwarding.chat_key(fields)
            refusal = conn.admit()
            if refusal is not None:
                self.conn.log.info("refused {player} from {peer}: {why}", player=username, peer=conn.peer, why=refusal)
                conn.disconnect(refusal, "refused")
                return
            conn.pending.append(packet)  # the handshake goes before it once the player's identity is known
            if conn.config.online_mode:
                self._begin_encryption()
            else:
                self._login_upstream(offline_profile(username))
        elif name == "encryption_begin" and conn.config.online_mode and not conn.reader.encrypted:
            self._finish_encryption(packet)
        elif name == "login_acknowledged":
            conn.to_server_packet(packet)
            conn.states.sent(CLIENT, "login_acknowledged")
        else:
            conn.to_server_frame(frame)

    # -- online mode -----------------------------------------------------------------
    def _begin_encryption(self) -> None:
        conn = self.conn
        assert conn.codec is not None
        self._verify_token = os.urandom(4)
        fields: dict[str, Any] = {
            "serverId": "",
            "publicKey": key_exchange.export_public_key(conn.keypair),
            "verifyToken": self._verify_token,
            "shouldAuthenticate": True,
        }
        conn.send_packet(conn.codec.encode(State.LOGIN, TO_CLIENT, "encryption_begin", fields))

    def _finish_encryption(self, packet: bytes) -> None:
        conn = self.conn
        assert conn.codec is not None and conn.player_name is not None
        fields = conn.codec.decode(State.LOGIN, TO_SERVER, "encryption_begin", packet)
        try:
            secret = key_exchange.decrypt_secret(conn.keypair, fields["sharedSecret"])
            token = fields.get("verifyToken")
            switch = fields.get("crypto")
            if token is None and isinstance(switch, dict):  # 1.19-1.19.2: the token, or a signed nonce
                token = switch.get("verifyToken")
            if token is None:
                raise PeerError("signed-nonce encryption responses are not supported")
            if key_exchange.decrypt_secret(conn.keypair, token) != self._verify_token:
                raise PeerError("encryption verify token mismatch")
        except (ValueError, KeyError) as exc:
            raise PeerError(f"bad encryption response: {exc}") from None
        conn.reader.enable_encryption(secret)
        conn.writer.enable_encryption(secret)
        digest = key_exchange.server_hash(b"", secret, key_exchange.export_public_key(conn.keypair))
        conn.io.verify_session(conn.player_name, digest)

    def session_verified(self, answer: Any, error: str | None) -> None:
        """The session server's answer (its JSON profile, or None for no), or why asking failed."""
        conn = self.conn
        if conn.states.closed:
            return
        assert conn.player_name is not None
        if error is None:
            try:
                profile = profile_from_session(answer, conn.player_name)
            except ProfileError as exc:
                error = str(exc)
            else:
                self.conn.log.info("{player} authenticated with Mojang", player=conn.player_name)
                self._login_upstream(profile)
                return
        self.conn.log.info("{player} failed authentication: {why}", player=conn.player_name, why=error)
        conn.disconnect("Could not verify your account with Mojang (online mode needs internet access).",
                        "auth_failed")

    # -- the server leg as a Microsoft account (upstream_auth microsoft) -----------------
    def _login_upstream(self, profile: GameProfile) -> None:
        auth = self.conn.config.upstream_auth
        if auth.mode == "microsoft" and auth.account is not None:
            self._profile = profile
            self.conn.io.account_session(auth.account)
            return
        self._connect_upstream(profile)

    def account_ready(self, session: "AccountSession | None", error: str | None) -> None:
        """The signed-in account's session (a valid access token), or why there is none."""
        conn = self.conn
        auth = conn.config.upstream_auth
        if conn.states.closed or self._profile is None or self.account is not None:
            return  # (a late answer for a move given up: the login has its account)
        if session is None:
            self.conn.log.info("no account session for {player}: {why}", player=conn.player_name, why=error or "?")
            conn.disconnect(error or "The proxy's Microsoft account could not be used.", "account_unavailable")
            return
        allowed = {session.name.lower()} | ({auth.local_name.lower()} if auth.local_name else set())
        if self._profile.name.lower() not in allowed:
            names = session.name + (f" (or {auth.local_name})" if auth.local_name else "")
            self.conn.log.info("refused {player}: this proxy plays as {account}", player=self._profile.name, account=session.name)
            conn.disconnect(f"This proxy plays as {session.name}, the Microsoft account signed in on it: "
                            f"log in with the name {names}.", "refused")
            return
        self.account = session
        fields = dict(self._login_start)
        fields["username"] = session.name
        if "playerUUID" in conn.codec.field_types("login", TO_SERVER, "login_start"):  # type: ignore[union-attr]
            fields["playerUUID"] = str(session.uuid)
        rewritten = conn.codec.encode(State.LOGIN, TO_SERVER, "login_start", fields)  # type: ignore[union-attr]
        conn.pending = [rewritten if p is self.login_start_packet else p for p in conn.pending]
        self._account_login_start = rewritten
        self.conn.log.info("{player} plays as the Microsoft account {account} ({uuid})", player=self._profile.name,
                 account=session.name, uuid=str(session.uuid))
        self._connect_upstream(GameProfile(session.uuid, session.name))

    def _answer_encryption(self, frame: Frame) -> None:
        conn = self.conn
        assert conn.codec is not None
        if self.account is None:
            conn.disconnect("The server behind the proxy is in online mode. Set upstream_auth to your Microsoft "
                            "account (run `mcagent login` on the proxy's machine), or set online-mode=false on "
                            "the server.", "upstream_online_mode")
            return
        if self._upstream_secret:
            raise PeerError("the server asked for encryption twice")
        request = conn.codec.decode(State.LOGIN, TO_CLIENT, "encryption_begin", frame.packet)
        self._upstream_secret = os.urandom(upstream_encryption.SECRET_BYTES)
        plan = upstream_encryption.plan(request, self._upstream_secret,
                                        conn.codec.field_types("login", TO_SERVER, "encryption_begin"))
        self._encryption_response = conn.codec.encode(State.LOGIN, TO_SERVER, "encryption_begin", plan.response)
        if plan.authenticate:
            conn.io.join_session(self.account, plan.digest)
        else:
            self.session_joined(None)

    def session_joined(self, error: str | None) -> None:
        """The session server accepted the account's join (None), or why not: then answer
        the server and encrypt the server leg from the next byte on."""
        conn = self.conn
        if conn.states.closed or not self._encryption_response:
            return
        if error is not None:
            self.conn.log.info("{player}: the session server refused the join: {why}", player=conn.player_name, why=error)
            conn.disconnect(error, "upstream_auth_failed")
            return
        conn.to_server_packet(self._encryption_response)
        self._encryption_response = b""
        conn.server_reader.enable_encryption(self._upstream_secret)
        conn.server_writer.enable_encryption(self._upstream_secret)

    # -- player-info forwarding (the formats live in proxy/connection/forwarding.py) ---------------
    def _connect_upstream(self, profile: GameProfile) -> None:
        """Log in to the backend as this player: the handshake goes first, carrying legacy
        forwarding when that is on; a Velocity request is answered in ``server_login``."""
        conn = self.conn
        assert conn.handshake is not None
        key = self._chat_key
        if key is not None and key.linked and key.holder is None and conn.config.online_mode:
            key = attrs.evolve(key, holder=profile.uuid)  # as Velocity backfills it from the verified profile
        host = conn.peer.rsplit(":", 1)[0]  # behind a PROXY-protocol balancer, the address it reported
        self.player_info = forwarding.PlayerInfo(profile, forwarding.client_address(host), conn.handshake.protocol, key)
        conn.pending.insert(0, self.backend_handshake(conn.forwarding))
        conn.io.connect_upstream()

    def backend_handshake(self, policy: forwarding.Forwarding) -> bytes:
        """The handshake for a backend with this forwarding: legacy forwarding's fields in the
        host, else untouched, as the client sent it."""
        conn = self.conn
        assert conn.handshake is not None and self.player_info is not None
        server_address = policy.upstream_host(conn.handshake.host, self.player_info)
        if server_address == conn.handshake.host:
            return conn.handshake_packet
        return build_handshake(attrs.evolve(conn.handshake, host=server_address))

    @property
    def backend_login_start(self) -> bytes:
        """The login start a backend is sent: the client's, or as the account when the server leg
        logs in with one."""
        return self._account_login_start or self.login_start_packet

    def new_backend(self) -> None:
        """The login goes on with another backend (``proxy.connection.login_failover``): nothing of
        the old one's login holds (forwarding answered, encryption)."""
        self.identity_forwarded = False
        self._upstream_secret = b""
        self._encryption_response = b""

    def answer_login_plugin(self, frame: Frame) -> bool:
        """True when the request was ours (velocity:player_info in velocity mode) and is answered;
        any other request goes on to the client untouched, as does its response."""
        conn = self.conn
        policy = conn.forwarding
        if self.player_info is None or not policy.reads_login_plugin_requests:
            return False
        request = forwarding.parse_login_plugin_request(frame.packet)
        data = policy.answer(request, self.player_info)
        if data is None or conn.ids.login_plugin_response is None:
            return False
        conn.to_server_packet(forwarding.login_plugin_response(conn.ids.login_plugin_response,
                                                               request.message_id, data))
        self.identity_forwarded = True
        self.conn.log.info("forwarded {player}'s identity to the server ({mode}: {uuid} from {address})",
                 player=conn.player_name, mode=policy.mode, uuid=str(self.player_info.profile.uuid),
                 address=self.player_info.address)
        return True

    # -- status (server list) ------------------------------------------------------
    def status_fallback(self, note: str = "") -> None:
        """Answer the server-list ping ourselves from here on: passthrough is off, or the
        upstream is down (``note`` says so), and also what the client asked it so far."""
        conn = self.conn
        conn.status_self = True
        conn.status_note = note
        asked, conn.status_asked = conn.status_asked, []
        conn.pending = []
        for packet in asked:
            self.answer_status(packet)

    def answer_status(self, packet: bytes) -> None:
        conn = self.conn
        pid = read_varint(packet, 0)[0]
        if pid == 0:
            hs = conn.handshake
            conn.send_packet(own_status(conn.config.status.motd, hs.protocol if hs else 0,
                                        conn.player_count(), conn.config.max_players, conn.status_note))
        elif pid == 1:
            conn.send_packet(packet)  # pong echoes the ping's payload
            conn.states.close()
            conn.io.close_client(graceful=False)


    def server_login(self, frame: Frame) -> None:
        conn = self.conn
        assert conn.codec is not None
        pid = frame.packet_id
        ids = conn.ids
        if pid == ids.compress:
            fields = conn.codec.decode(State.LOGIN, TO_CLIENT, "compress", frame.packet)
            threshold = int(fields["threshold"])
            conn.server_reader.threshold = threshold
            conn.server_writer.threshold = threshold
            if self._client_compressed:
                return  # a login failed over: the client keeps the first threshold, frames are re-packed
            self._client_compressed = True
            own = conn.config.compression_threshold
            client_threshold = threshold if own is None else own
            conn.send_packet(conn.codec.encode(State.LOGIN, TO_CLIENT, "compress", {"threshold": client_threshold}))
            conn.writer.threshold = client_threshold
            conn.reader.threshold = client_threshold
        elif pid == ids.login_plugin_request and self.answer_login_plugin(frame):
            pass  # the proxy answered the backend itself; the client never sees the request
        elif pid == ids.encryption_begin:
            self._answer_encryption(frame)
        elif pid == ids.success:
            problem = conn.forwarding.unanswered(self.identity_forwarded)
            if problem is not None:
                self.conn.log.warn("{player}: {problem}", player=conn.player_name, problem=problem)
                conn.disconnect(problem, "forwarding_not_requested")
                return
            conn.send_frame(frame)
            fields = conn.codec.decode(State.LOGIN, TO_CLIENT, "success", frame.packet)
            conn.player_name = str(fields.get("username") or conn.player_name)
            conn.start_session()
            conn.states.sent(SERVER, "success")  # before 1.20.2 this enters play
        elif pid == ids.login_disconnect:
            conn.states.sent(SERVER, "disconnect")
            conn.send_frame(frame)
        else:
            conn.send_frame(frame)

