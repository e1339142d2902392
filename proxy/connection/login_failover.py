"""A first login that fails on one backend goes on to the next of ``try``, the client none the wiser.

How this works: until the player is in the game (the client still in login, or in its first
configuration on 1.20.2+), what the client has said to the backend is small and is kept: the
handshake, the login start and, once configuring, its client information and brand. When the
backend refuses the connection, accepts it and says nothing, closes it, or kicks with a shutdown
reason (``proxy.connection.shutdown_kicks``), ``LoginFailover.lost`` opens the next server of the
landing list on a second socket (the connection's ``SwitchIO``) and, once connected, makes it the upstream
with a fresh server leg (no compression, no encryption, no forwarding answered) and sends it that
backend's own handshake and the login start. The client's leg is left as it is: its compression
stays as first set (frames are re-packed when the two thresholds differ), and answers it still owes
the old backend (login plugin, cookie) are dropped when they come.

If the client already holds a Login Success (1.20.2+: it is configuring), the new backend's login
is the proxy's (``REPLAYING``): the proxy answers its Login Success with Login Acknowledged itself
and replays the client's information and brand; the configuration then goes on as at login. A
1.20.5+ client adds a second set of registries to the first and fails on the duplicates, so while
there is a next server to go to the backend's Registry Data and Update Tags are held and reach
the client just before its Finish Configuration (a vanilla client applies them only there): a
backend lost while the player reads its code of conduct (1.21.9+), fetches its resource pack or
waits for its spawn to be prepared is replayed too, and the held packets are dropped. Past
``HOLD_LIMIT`` bytes they go to the client and, from then on, a loss is shown as it is.

Phases (``STEPS``; anything else is a ``FailoverMisuse``):

    WATCHING   --lost-->      CONNECTING  the next backend's socket is opening
    CONNECTING --lost-->      CONNECTING  (it could not be reached: the one after)
    CONNECTING --login-->     WATCHING    the client is in login: the backend's login goes to it
    CONNECTING --replay-->    REPLAYING   the client holds a Login Success: the proxy logs in
    REPLAYING  --success-->   WATCHING
    REPLAYING  --lost-->      CONNECTING
    any        --settled-->   SETTLED     the player is in play, kicked for a reason, or gone

With nowhere left the player gets one message naming every server tried and why; a loss with
nothing tried and nowhere to go is left to the connection, which shows it as one backend always did.
"""
from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Protocol

from proxy.codec.chat import plain_text
from proxy.connection import forwarding
from proxy.connection.shutdown_kicks import is_shutdown
from proxy.protocol import transfer_cookies as wire
from proxy.protocol.errors import PeerError
from proxy.protocol.framing import Frame, Framing, Writer
from proxy.protocol.states import CLIENT, State
from proxy.protocol.tables import TO_CLIENT, TO_SERVER
from proxy.protocol.wire import read_string, read_varint

if TYPE_CHECKING:
    from engine.session import Session
    from proxy.codec.packet_ids import WatchedIds
    from proxy.codec.versioned import VersionCodec
    from proxy.config import ProxyConfig
    from proxy.connection.forwarding import Forwarding
    from proxy.connection.login import LoginPhase
    from proxy.connection.play import PlayRelay
    from proxy.connection.seams import BackendRef, Clock, ConnectionIO, Delayed, Log, NetworkHooks
    from proxy.protocol.states import ConnectionStates


class Phase(enum.Enum):
    WATCHING = "watching the login"
    CONNECTING = "connecting to the next server"
    REPLAYING = "logging in for a configuring client"
    SETTLED = "settled"


W, C, R, S = Phase.WATCHING, Phase.CONNECTING, Phase.REPLAYING, Phase.SETTLED
STEPS: dict[tuple[Phase, str], Phase] = {
    (W, "lost"): C,
    (C, "lost"): C,
    (C, "login"): W,
    (C, "replay"): R,
    (R, "success"): W,
    (R, "lost"): C,
    **{(phase, "settled"): S for phase in (W, C, R, S)},
}
# The client's configuration packets a new backend is given again: what it says about itself.
REPLAYED = ("settings", "custom_payload")
BRAND_CHANNELS = ("minecraft:brand", "MC|Brand")
# The backend's registries and tags held in the first configuration, at most: a bound, so that no
# backend makes the proxy hold without limit (past it they go to the client and the replay ends).
HOLD_LIMIT = 8 << 20


class FailoverMisuse(Exception):
    """A step the table does not allow: a bug of ours, never the peer's."""


class FailoverView(Protocol):
    """What the failover uses of its connection (``proxy.connection.core.Connection``)."""

    log: "Log"
    config: "ProxyConfig"
    clock: "Clock"
    states: "ConnectionStates"
    io: "ConnectionIO"
    codec: "VersionCodec | None"
    ids: "WatchedIds"
    server_reader: Framing
    server_writer: Writer
    upstream_open: bool
    backend: "BackendRef | None"
    landing: "list[BackendRef]"
    pending: list[bytes]
    player_name: str | None
    login: "LoginPhase"
    session: "Session | None"
    play: "PlayRelay | None"

    @property
    def forwarding(self) -> "Forwarding": ...
    @property
    def network(self) -> "NetworkHooks": ...
    def to_server_packet(self, packet: bytes) -> None: ...
    def send_frame(self, frame: Frame) -> None: ...
    def disconnect(self, text: str, category: str = "proxy") -> None: ...
    def say_at_join(self, *lines: str) -> None: ...


class LoginFailover:
    def __init__(self, conn: FailoverView) -> None:
        self.conn = conn
        self.phase = Phase.WATCHING
        self.tried: list[tuple[str, str]] = []  # (server, what happened), for the note and the last word
        self.success_sent = False  # the client holds a Login Success (1.20.2+: it configures)
        self.registries_sent = False  # the backend's registries reached the client: no replay
        self._held: list[Frame] = []  # the backend's registries and tags, until its Finish Configuration
        self._held_bytes = 0
        self._replayed: dict[str, bytes] = {}  # the client's information and brand, by name
        self._owed: set[tuple[str, object]] = set()  # requests the client may still answer
        self._stale: set[tuple[str, object]] = set()  # ... of a backend left behind: dropped
        self._ack_owed = False  # the client's Login Acknowledged, taken as said, still to come
        self._timer: "Delayed | None" = None

    def _step(self, event: str) -> None:
        after = STEPS.get((self.phase, event))
        if after is None:
            raise FailoverMisuse(f"{event!r} in phase {self.phase.value}")
        self.phase = after

    def settle(self) -> None:
        """The player is in play, or was shown a kick: no more login failover."""
        self._step("settled")
        self._cancel_timer()
        if self._held:  # nothing will replace them now (only a client that skipped the server's Finish gets here)
            self._release()

    # -- what went wrong ------------------------------------------------------------------
    def _may(self) -> bool:
        conn = self.conn
        if self.phase is Phase.SETTLED or conn.states.closed or conn.login.player_info is None:
            return False
        client = conn.states.client
        return client is State.LOGIN or (client is State.CONFIGURATION and not self.registries_sent)

    def lost(self, what: str) -> bool:
        """The backend being logged in to failed (``what``: how, as "<server> <what>" reads);
        True when the failover took it (moved on, or the player was told nothing is left)."""
        conn = self.conn
        if not self._may():
            return False
        if not conn.landing and not self.tried:
            return False  # one server: the connection shows it as it always did
        name = conn.backend.name if conn.backend is not None else "the server"
        self.tried.append((name, what))
        self._cancel_timer()
        conn.upstream_open = False  # the old socket's last bytes are not read
        conn.io.close_candidate()
        if not conn.landing:
            conn.log.info("no server could take {player}: {why}", player=conn.player_name, why=self._story())
            self.settle()
            conn.disconnect(f"No server of the network could take you: {self._story()}. Try again later.",
                            "upstream_unreachable")
            return True
        backend = conn.landing.pop(0)
        conn.log.info("{server} {what} while {player} logged in; trying {target}", server=name, what=what,
                      player=conn.player_name, target=backend.name)
        self._step("lost")
        if len(self.tried) == 1:  # one failover per login, however many servers it takes (as in play)
            conn.network.login_failed_over(conn)
        conn.backend = backend
        conn.server_reader = Framing()
        conn.server_writer = Writer()
        conn.pending = []
        self._held, self._held_bytes = [], 0  # the next backend sends its own
        conn.login.new_backend()
        self._stale |= self._owed
        self._owed = set()
        self._timer = conn.clock.callLater(conn.config.limits.upstream_answer_seconds, self._silent)
        conn.io.connect_candidate(backend.host, backend.port, self)
        return True

    def _story(self) -> str:
        return "; ".join(f"{name} {what}" for name, what in self.tried)

    def _silent(self) -> None:
        self._timer = None
        if self.phase is Phase.CONNECTING or self.conn.server_reader.bytes_in == 0:
            seconds = self.conn.config.limits.upstream_answer_seconds
            self.lost(f"did not answer within {seconds:g} seconds")

    def _cancel_timer(self) -> None:
        if self._timer is not None and self._timer.active():
            self._timer.cancel()
        self._timer = None

    # -- the next backend's socket (CandidateSink) ----------------------------------------
    def candidate_connected(self) -> None:
        conn = self.conn
        if self.phase is not Phase.CONNECTING or conn.states.closed:
            return
        conn.io.adopt_candidate()  # the old socket is closed without a word to the connection
        self._step("replay" if self.success_sent else "login")
        held, conn.pending = conn.pending, []
        conn.upstream_open = True
        assert conn.backend is not None
        conn.to_server_packet(conn.login.backend_handshake(conn.backend.forwarding))
        conn.to_server_packet(conn.login.backend_login_start)
        for packet in held:  # what the client said meanwhile (in login: for this backend)
            conn.to_server_packet(packet)

    def candidate_failed(self, why: str) -> None:
        if self.phase is Phase.CONNECTING:
            self.lost(f"cannot be reached ({_short(why) or 'refused'})")

    def server_data(self, data: bytes) -> None:
        pass  # never read: the socket is adopted as soon as it connects

    def upstream_lost(self, why: str) -> None:
        pass

    def old_upstream_lost(self, why: str) -> bool:
        """The upstream socket closed: True when that is the failover's business (the old one
        closing after its kick, or the backend logging in now going away)."""
        if self.phase is Phase.CONNECTING:
            return True
        return self.lost(f"closed the connection ({_short(why)})")

    # -- the backend's frames, seen first in login and configuration -----------------------
    def server_frame(self, frame: Frame) -> bool:
        """True when the frame was the failover's; in the first configuration it is called
        before the frame goes to the client."""
        if self.phase is Phase.REPLAYING:
            self._replay_frame(frame)
            return True
        if self.phase is not Phase.WATCHING:
            return False
        conn = self.conn
        codec = conn.codec
        assert codec is not None
        pid = frame.packet_id
        state = conn.states.server
        if state is State.LOGIN:
            if pid == conn.ids.login_disconnect:
                return self._kicked(State.LOGIN, frame)
            if pid == conn.ids.success:
                conn.login.server_login(frame)
                self.success_sent = True
                self._landed()
                if not codec.table.has_configuration and not conn.states.closed:
                    self.settle()  # before 1.20.2 the client plays from here
                return True
            owed = _request_key(codec, conn.ids, frame, TO_CLIENT)
            if owed is not None:
                self._owed.add(owed)
        elif state is State.CONFIGURATION and not self.registries_sent:
            if pid == codec.table.packet_id(State.CONFIGURATION, TO_CLIENT, "disconnect"):
                return self._kicked(State.CONFIGURATION, frame)
            if pid == conn.ids.registry_data or pid == codec.table.packet_id(State.CONFIGURATION, TO_CLIENT,
                                                                             "tags"):
                return self._hold(frame)
            if pid == codec.table.packet_id(State.CONFIGURATION, TO_CLIENT, "finish_configuration"):
                self._release()  # the client takes them before the frame that ends its configuration
        return False

    def _hold(self, frame: Frame) -> bool:
        """Keep the backend's registries and tags from the client while it may still go elsewhere."""
        if not self.conn.landing:
            self._release()  # nowhere left to go: nothing to replay them for
            return False
        self._held.append(frame)
        self._held_bytes += len(frame.raw)
        if self._held_bytes > HOLD_LIMIT:
            self._release()
        return True

    def _release(self) -> None:
        conn = self.conn
        self.registries_sent = True
        held, self._held, self._held_bytes = self._held, [], 0
        for frame in held:  # as the connection forwards a configuration frame
            conn.send_frame(frame)
            if conn.play is not None:
                conn.play.server_configuration(frame)

    def _kicked(self, state: State, frame: Frame) -> bool:
        codec = self.conn.codec
        assert codec is not None
        try:
            reason = plain_text(codec.decode(state, TO_CLIENT, "disconnect", frame.packet).get("reason"))
        except (KeyError, ValueError, PeerError):
            reason = ""
        if is_shutdown(reason) and self.lost(f"is unavailable ({_short(reason)})"):
            return True
        self.settle()  # a kick for a reason: the client sees it as the backend meant it
        return False

    def _landed(self) -> None:
        """The login went through: say where the player is, if a server fell over on the way."""
        conn = self.conn
        self._cancel_timer()
        if self.tried and not conn.states.closed and conn.backend is not None:
            conn.say_at_join(f"{self._story()}; you are on {conn.backend.name}.")

    def _replay_frame(self, frame: Frame) -> None:
        """The new backend's login while the client holds the old one's Login Success."""
        conn = self.conn
        codec = conn.codec
        assert codec is not None
        pid = frame.packet_id
        ids = conn.ids
        if pid == ids.compress:
            threshold = int(codec.decode(State.LOGIN, TO_CLIENT, "compress", frame.packet)["threshold"])
            conn.server_reader.threshold = threshold
            conn.server_writer.threshold = threshold
        elif pid == ids.encryption_begin:
            conn.login.server_login(frame)  # the account's answer (or the online-mode refusal)
        elif pid == ids.login_plugin_request:
            if not conn.login.answer_login_plugin(frame):
                request = forwarding.parse_login_plugin_request(frame.packet)
                assert ids.login_plugin_response is not None  # "not understood", as a client in play says
                conn.to_server_packet(forwarding.login_plugin_response(ids.login_plugin_response,
                                                                       request.message_id, None))
        elif pid == codec.table.packet_id(State.LOGIN, TO_CLIENT, "cookie_request"):
            # The client is configuring for the old backend: the new one hears that it holds no such cookie.
            conn.to_server_packet(codec.build(State.LOGIN, TO_SERVER, "cookie_response",
                                              key=wire.cookie_key(frame.packet), value=None))
        elif pid == ids.login_disconnect:
            text = plain_text(codec.decode(State.LOGIN, TO_CLIENT, "disconnect", frame.packet).get("reason"))
            if not (is_shutdown(text) and self.lost(f"is unavailable ({_short(text)})")):
                # The client configures already: it can only be told, in the proxy's words.
                self.settle()
                name = conn.backend.name if conn.backend is not None else "The server"
                conn.disconnect(f"{name}: {text or 'it refused the login'}", "kicked_by_server")
        elif pid == ids.success:
            self._replayed_login()

    def _replayed_login(self) -> None:
        conn = self.conn
        codec = conn.codec
        assert codec is not None
        problem = conn.forwarding.unanswered(conn.login.identity_forwarded)
        if problem is not None:
            conn.log.warn("{player}: {problem}", player=conn.player_name, problem=problem)
            conn.disconnect(problem, "forwarding_not_requested")
            return
        self._step("success")
        self._cancel_timer()
        if conn.states.client is State.LOGIN:  # its acknowledgement of the old Login Success is on its way
            conn.states.sent(CLIENT, "login_acknowledged")
            self._ack_owed = True
        conn.to_server_packet(codec.build(State.LOGIN, TO_SERVER, "login_acknowledged"))
        for name in REPLAYED:
            if name in self._replayed:
                conn.to_server_packet(self._replayed[name])
        self._landed()

    # -- the client's frames in login and configuration ------------------------------------
    def client_frame(self, frame: Frame) -> bool:
        """True when the frame is the failover's to drop (an answer to a backend left behind,
        the old world's configuration while the proxy logs in elsewhere)."""
        if self.phase is Phase.SETTLED:
            return False
        conn = self.conn
        codec = conn.codec
        assert codec is not None
        pid = frame.packet_id
        if self._ack_owed and pid == conn.ids.login_acknowledged:
            self._ack_owed = False
            return True
        state = conn.states.client
        if state is State.LOGIN:
            if self.success_sent and pid == conn.ids.login_acknowledged and self.phase is not Phase.WATCHING:
                conn.states.sent(CLIENT, "login_acknowledged")  # its answer to the old backend's success
                return True
            key = _request_key(codec, conn.ids, frame, TO_SERVER)
            if key is not None and key in self._stale:
                self._stale.discard(key)
                return True
            if key is not None:
                self._owed.discard(key)
            return False
        if state is State.CONFIGURATION:
            name = codec.table.packet_name(State.CONFIGURATION, TO_SERVER, pid)
            if name == "settings" or (name == "custom_payload" and _is_brand(frame.packet)):
                self._replayed[name] = frame.packet
            return self.phase is not Phase.WATCHING
        return False


def _request_key(codec: "VersionCodec", ids: "WatchedIds", frame: Frame,
                 direction: str) -> tuple[str, object] | None:
    """A login plugin request's or cookie request's key (``TO_CLIENT``), or its answer's
    (``TO_SERVER``); None for any other packet, or one whose key cannot be read (it passes on
    unread, as before)."""
    pid = frame.packet_id
    plugin = ids.login_plugin_request if direction == TO_CLIENT else ids.login_plugin_response
    try:
        if pid == plugin:
            return ("plugin", read_varint(frame.packet, read_varint(frame.packet, 0)[1])[0])
        if pid == codec.table.packet_id(State.LOGIN, direction, "cookie_request" if direction == TO_CLIENT
                                        else "cookie_response"):
            return ("cookie", wire.cookie_key(frame.packet))
    except PeerError:
        return None
    return None


def _is_brand(packet: bytes) -> bool:
    """A plugin message on the brand channel (the tables hold no layout for plugin messages: the
    channel, a string, comes first)."""
    try:
        channel = read_string(packet, read_varint(packet, 0)[1], limit=64)[0]
    except PeerError:
        return False
    return channel in BRAND_CHANNELS


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 120 else text[:117] + "..."
