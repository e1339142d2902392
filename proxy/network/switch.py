"""Moving one playing player to another backend, without a disconnect.

How this works: a ``Switch`` logs in to the next backend on a second socket while the player
goes on playing on the first, then moves the client across and makes the new socket the
connection's upstream. Its phases, and what moves it from one to the next (``STEPS``; anything
else is a ``SwitchMisuse``):

    CONNECTING    --connected-->            LOGGING_IN   handshake + the client's login start sent
    LOGGING_IN    --ready:configuration-->  AWAITING_ACK (1.20.2+) Start Configuration sent to the client
    LOGGING_IN    --ready:legacy-->         AWAITING_JOIN (before 1.20.2) new backend adopted
    AWAITING_ACK  --acknowledged-->         DONE         new backend adopted; configuration relayed
    AWAITING_JOIN --joined-->               DONE         the old screen taken off (proxy.codec.leftovers),
                                                         Join Game + Respawn sent (proxy.network.rejoin)
    any but DONE  --failed-->               FAILED

Until the new backend's Login Success (``LOGGING_IN``) the old backend is untouched, so a
switch that fails there leaves the player where they were. The login is the proxy's: it answers
the backend's forwarding request with that backend's forwarding, answers an online-mode backend
as the proxy's Microsoft account (``proxy.connection.backend_join``; refused without one), and
passes the backend's cookie requests to the client (in the client's own state) and its answers
back. From ``ready`` on the old backend's packets are dropped: its world is being
replaced. The client's play packets between ``ready`` and the new world (movement, keep-alive
answers for the old backend) are dropped too: they belong to the old world, and a new backend
would kick a keep-alive answer it never asked for. The world model, reflexes and autopilot start
afresh at ``ready`` (``Session.new_world``); the conversation, settings and intent cache stay.

The ``Switchboard`` (``proxy.network.switchboard``) decides when to switch and what to tell the
player; this module only moves bytes and states. No I/O of its own: the second socket is the
connection's ``SwitchIO``, time its ``Clock``.
"""
from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Callable

from proxy.connection.backend_join import BackendJoin
from proxy.codec.chat import plain_text
from proxy.codec.chunks import ChunkDecoder
from proxy.connection import forwarding
from proxy.network import rejoin
from proxy.protocol import transfer_cookies as wire
from proxy.protocol.errors import PeerError
from proxy.protocol.framing import Frame, Framing, Writer
from proxy.protocol.states import CLIENT, SERVER, State
from proxy.protocol.tables import TO_CLIENT, TO_SERVER
from proxy.windows.sequencer import WindowSequencer

if TYPE_CHECKING:
    from proxy.connection.core import Connection
    from proxy.connection.seams import Delayed
    from proxy.network.backends import Backend


class Phase(enum.Enum):
    CONNECTING = "connecting"
    LOGGING_IN = "logging in"
    AWAITING_ACK = "waiting for the client to configure"
    AWAITING_JOIN = "waiting for the new world"
    DONE = "done"
    FAILED = "failed"


C, L, A, J, D, F = (Phase.CONNECTING, Phase.LOGGING_IN, Phase.AWAITING_ACK, Phase.AWAITING_JOIN, Phase.DONE,
                    Phase.FAILED)
STEPS: dict[tuple[Phase, str], Phase] = {
    (C, "connected"): L,
    (L, "ready:configuration"): A,
    (L, "ready:legacy"): J,
    (A, "acknowledged"): D,
    (J, "joined"): D,
    **{(phase, "failed"): F for phase in (C, L, A, J)},
}
# Past these the old backend's world is gone from the client: a failure there cannot go back.
COMMITTED = frozenset({A, J})


class SwitchMisuse(Exception):
    """A step the table does not allow: a bug of ours, never the peer's."""


Done = Callable[["Switch"], None]
Failed = Callable[["Switch", str, bool], None]  # the switch, why, whether the backend refused the player


class Switch:
    def __init__(self, conn: "Connection", backend: "Backend", done: Done, failed: Failed,
                 old_gone: bool = False, tried: frozenset[str] = frozenset()) -> None:
        assert conn.codec is not None
        self.conn = conn
        self.codec = conn.codec
        self.backend = backend
        self.phase = Phase.CONNECTING
        self.old_gone = old_gone  # a failover: the old backend has already dropped the player
        self.tried = tried | {backend.name}  # a failover's chain: the servers already tried
        self._done = done
        self._failed = failed
        self.reader = Framing()
        self.writer = Writer()
        self._forwarded = False
        self._cookies: set[str] = set()  # cookies the new backend asked for, the client's answers pending
        self._timer: Delayed | None = None
        self._join: BackendJoin | None = None  # an online-mode backend's login as the account
        self._leftovers: list[bytes] = []  # before 1.20.2: what takes the old backend's screen off

    # -- the phases, as the table allows -------------------------------------------------
    def _step(self, event: str) -> None:
        after = STEPS.get((self.phase, event))
        if after is None:
            raise SwitchMisuse(f"{event!r} in phase {self.phase.value}")
        self.phase = after

    def begin(self) -> None:
        conn = self.conn
        conn.switch = self
        self._timer = conn.clock.callLater(conn.config.limits.upstream_answer_seconds, self._timeout)
        conn.io.connect_candidate(self.backend.host, self.backend.port, self)

    def _timeout(self) -> None:
        self._timer = None
        self.fail(f"it did not answer within {self.conn.config.limits.upstream_answer_seconds:g} seconds")

    # -- the candidate socket (CandidateSink) --------------------------------------------
    def candidate_connected(self) -> None:
        if self.phase is not Phase.CONNECTING:
            return
        self._step("connected")
        login = self.conn.login
        self._to_candidate(login.backend_handshake(self.backend.forwarding))
        self._to_candidate(login.backend_login_start)

    def candidate_failed(self, why: str) -> None:
        self.fail(f"cannot reach it ({why.strip() or 'refused'})")

    def upstream_lost(self, why: str) -> None:
        self.fail("it closed the connection during the login")

    def server_data(self, data: bytes) -> None:
        if self.phase in (Phase.DONE, Phase.FAILED):
            return
        try:
            self.reader.feed(data)  # after Login Success the rest waits here for the adoption
            while self.phase is Phase.LOGGING_IN:
                frame = self.reader.next_frame()
                if frame is None:
                    break
                self._login_frame(frame)
        except PeerError as exc:
            self.fail(f"it sent a malformed packet ({exc})")

    def _to_candidate(self, packet: bytes) -> None:
        self.conn.io.write_candidate(self.writer.seal(self.writer.frame(packet)))

    def _login_frame(self, frame: Frame) -> None:
        ids = self.conn.ids
        pid = frame.packet_id
        codec = self.codec
        if pid == ids.compress:
            threshold = int(codec.decode(State.LOGIN, TO_CLIENT, "compress", frame.packet)["threshold"])
            self.reader.threshold = threshold
            self.writer.threshold = threshold
        elif pid == ids.login_plugin_request:
            self._login_plugin(frame.packet)
        elif pid == ids.encryption_begin:
            self._encryption(frame.packet)
        elif pid == ids.login_disconnect:
            fields = codec.decode(State.LOGIN, TO_CLIENT, "disconnect", frame.packet)
            self.fail(plain_text(fields.get("reason")) or "it refused the login", kicked=True)
        elif pid == codec.table.packet_id(State.LOGIN, TO_CLIENT, "cookie_request"):
            self._ask_client_for_cookie(frame.packet)
        elif pid == ids.success:
            self._ready()

    def _login_plugin(self, packet: bytes) -> None:
        """The backend's forwarding request is answered with its own forwarding; any other request
        cannot reach a client that is playing, and is answered "not understood", as a vanilla client does."""
        request = forwarding.parse_login_plugin_request(packet)
        info = self.conn.login.player_info
        data = self.backend.forwarding.answer(request, info) if info is not None else None
        if data is not None:
            self._forwarded = True
        assert self.conn.ids.login_plugin_response is not None
        self._to_candidate(forwarding.login_plugin_response(self.conn.ids.login_plugin_response,
                                                             request.message_id, data))

    def _encryption(self, packet: bytes) -> None:
        """An online-mode backend: answered as the proxy's Microsoft account, when it logs in with one."""
        account = self.conn.login.account
        if account is None:
            self.fail("it is in online mode; behind the proxy it needs online-mode=false (with forwarding)")
            return
        self._join = BackendJoin(self.conn, account.account, self.codec, self._encrypted,
                                 lambda why: self.fail(f"its online-mode login failed: {why}"))
        self._join.requested(packet)

    def _encrypted(self, response: bytes, secret: bytes) -> None:
        self._to_candidate(response)
        self.reader.enable_encryption(secret)
        self.writer.enable_encryption(secret)

    def _ask_client_for_cookie(self, packet: bytes) -> None:
        """A cookie request in the new backend's login goes to the client in the client's own state
        (cookies live in the client); its answer comes back as the login's (``_cookie_answer``)."""
        table = self.codec.table
        asked = table.packet_id(self.conn.states.client, TO_CLIENT, "cookie_request")
        if asked is None:
            self.fail("it asked for a cookie the client cannot be asked for now")
            return
        self._cookies.add(wire.cookie_key(packet))
        self.conn.send_packet(wire.with_id(packet, asked))

    def _cookie_answer(self, frame: Frame) -> bool:
        table = self.codec.table
        if not self._cookies or frame.packet_id != table.packet_id(self.conn.states.client, TO_SERVER,
                                                                     "cookie_response"):
            return False
        key = wire.cookie_key(frame.packet)
        answer = table.packet_id(State.LOGIN, TO_SERVER, "cookie_response")
        if key not in self._cookies or answer is None:
            return False
        self._cookies.discard(key)
        self._to_candidate(wire.with_id(frame.packet, answer))
        return True

    def _ready(self) -> None:
        problem = self.backend.forwarding.unanswered(self._forwarded)
        if problem is not None:
            self.fail(problem)
            return
        conn = self.conn
        if conn.states.client is not State.PLAY or conn.states.server not in (State.PLAY, State.CLOSED):
            # The old backend began a reconfiguration meanwhile: the client is not where a move starts.
            self.fail("the current server was reconfiguring you; try again")
            return
        self._new_world()
        if rejoin.reenters_configuration(self.codec):
            self._step("ready:configuration")
            self._to_candidate(self.codec.build(State.LOGIN, TO_SERVER, "login_acknowledged"))
            # The client's next state is configuration: from here the proxy adds no play packet.
            conn.states.sent(SERVER, "start_configuration")
            conn.send_packet(rejoin.start_configuration(self.codec))
        else:
            self._step("ready:legacy")
            leftovers = conn.play.leftovers if conn.play is not None else None
            self._leftovers = leftovers.take_off() if leftovers is not None else []
            self._adopt()
            conn.server_data(b"")  # what the new backend sent after Login Success

    def _new_world(self) -> None:
        conn = self.conn
        if conn.session is not None:
            conn.perform(conn.session.new_world(f"Moving to {self.backend.name}", conn.clock.seconds()))
        conn.chunks = ChunkDecoder(self.codec.table) if conn.config.features.world else None
        if conn.play is not None:
            conn.play.new_world(conn.chunks)
            conn.new_chat_record()
        conn.windows = WindowSequencer(self.codec)

    def _adopt(self) -> None:
        conn = self.conn
        conn.io.adopt_candidate()
        conn.server_reader = self.reader
        conn.server_writer = self.writer
        conn.upstream_open = True
        conn.backend = self.backend

    # -- the connection's frames, seen first (SwitchHooks) ------------------------------------
    def client_frame(self, frame: Frame) -> bool:
        phase = self.phase
        if phase in (Phase.CONNECTING, Phase.LOGGING_IN):
            return self._cookie_answer(frame) or self.old_gone
        if phase is Phase.AWAITING_ACK:
            if frame.packet_id == self.conn.ids.configuration_acknowledged:
                self._acknowledged()
            return True
        return phase is Phase.AWAITING_JOIN

    def _acknowledged(self) -> None:
        conn = self.conn
        conn.states.sent(CLIENT, "configuration_acknowledged")
        self._adopt()
        self._finish("acknowledged")
        conn.server_data(b"")  # the new backend's configuration, held since its Login Success

    def server_frame(self, frame: Frame) -> bool:
        phase = self.phase
        if phase is Phase.AWAITING_ACK:
            return True  # the old backend's: its world is being replaced
        if phase is not Phase.AWAITING_JOIN or frame.packet_id != self.conn.ids.join_game:
            return False
        join, respawn = rejoin.join_and_respawn(self.codec, frame.packet)
        for packet in self._leftovers:  # while the old world still holds what they remove
            self.conn.send_packet(packet)
        self._finish("joined")
        play = self.conn.play
        assert play is not None
        threshold = self.reader.threshold
        play.server_frame(_frame_of(join, threshold))  # as if the backend had sent them: the relay
        play.server_frame(_frame_of(respawn, threshold))  # forwards them and feeds the session
        return True

    def _finish(self, event: str) -> None:
        self._step(event)
        self._cancel_timer()
        self.conn.switch = None
        self._done(self)

    def fail(self, why: str, kicked: bool = False) -> None:
        if self.phase in (Phase.DONE, Phase.FAILED):
            return
        committed = self.phase in COMMITTED
        self._step("failed")
        self._cancel_timer()
        self.conn.io.close_candidate()
        self.conn.switch = None
        if committed:
            self.old_gone = True  # the client has left the old world
            for packet in self._leftovers:  # its screen goes with it, whichever server comes next
                self.conn.send_packet(packet)
            self._leftovers = []
        self._failed(self, why, kicked)

    def stop(self) -> None:
        """The connection closed: nothing more to move."""
        if self.phase not in (Phase.DONE, Phase.FAILED):
            self.phase = Phase.FAILED
            self._cancel_timer()
            self.conn.io.close_candidate()

    def _cancel_timer(self) -> None:
        if self._join is not None:
            self._join.cancel()
        if self._timer is not None and self._timer.active():
            self._timer.cancel()
        self._timer = None


def _frame_of(packet: bytes, threshold: int) -> Frame:
    writer = Writer()
    writer.threshold = threshold
    reader = Framing()
    reader.threshold = threshold
    reader.feed(writer.frame(packet))
    frame = reader.next_frame()
    assert frame is not None
    return frame
