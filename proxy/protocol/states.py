"""The protocol states of one proxied connection, for both legs, as data.

How this works: a Minecraft connection moves through states (handshaking, status or
login, configuration, play, and back to configuration on 1.20.2+), and the same packet
id means different packets in each. The proxy sits between two peers, so it tracks two
states: ``client``, the state the client's packets are read in, and ``server``, the
state the server's packets are read in. They change only on the packets listed in
``TRANSITIONS`` (sender, that sender's state, packet) -> (client state after, server
state after), ``None`` meaning unchanged, exactly where vanilla changes them: the
handshake's next state, the client's Login Acknowledged and Finish Configuration, the
server's Start Configuration and the client's Configuration Acknowledged; the server's
disconnect (in login) or kick (in play) closes the server's leg alone. Versions
without a configuration phase (before 1.20.2) use ``LEGACY``, where the server's Login
Success leads straight to play. A packet not in the table changes nothing; ``close``
ends both states. No I/O and no clock here: ``tests/proxy/test_states.py`` drives it
with packet names alone.

The proxy may add its own play packets (replies, injected movement) only while both
states are play: once the server has asked for reconfiguration, the client may already
read configuration packets, and a play packet would be invalid there.

Before play, a client may send only the packets its state allows (``ALLOWED``), and
only ``PRE_PLAY_BUDGET`` bytes in all: an unauthenticated peer cannot make the proxy
queue or decode without bound.
"""
from __future__ import annotations

import enum

from proxy.protocol.errors import PeerError


class State(str, enum.Enum):
    # Values are the state names of the packet tables (proxy/data/protocol.json).
    HANDSHAKING = "handshaking"
    STATUS = "status"
    LOGIN = "login"
    CONFIGURATION = "configuration"
    PLAY = "play"
    CLOSED = "closed"


class Side(str, enum.Enum):
    CLIENT = "client"
    SERVER = "server"


H, ST, L, C, P, X = State.HANDSHAKING, State.STATUS, State.LOGIN, State.CONFIGURATION, State.PLAY, State.CLOSED
CLIENT, SERVER = Side.CLIENT, Side.SERVER

Transitions = dict[tuple[Side, State, str], tuple[State | None, State | None]]

# The handshake's next state is a field, not a packet: its two outcomes are named here.
HANDSHAKE_STATUS = "handshake:status"
HANDSHAKE_LOGIN = "handshake:login"  # login or transfer (1.20.5+)

TRANSITIONS: Transitions = {
    (CLIENT, H, HANDSHAKE_STATUS): (ST, ST),
    (CLIENT, H, HANDSHAKE_LOGIN): (L, L),
    # 1.20.2+: Login Success is answered by the client's Login Acknowledged; then both configure.
    (CLIENT, L, "login_acknowledged"): (C, C),
    (CLIENT, C, "finish_configuration"): (P, P),
    # The server asks to reconfigure: its next packets are configuration packets; the
    # client's are play packets until it acknowledges.
    (SERVER, P, "start_configuration"): (None, C),
    (CLIENT, P, "configuration_acknowledged"): (C, None),
    # The server says goodbye: its leg is over; the client's ends when the server's socket does.
    (SERVER, L, "disconnect"): (None, X),
    (SERVER, P, "kick_disconnect"): (None, X),
}

# Before 1.20.2 there is no configuration state: Login Success enters play.
LEGACY: Transitions = {
    (CLIENT, H, HANDSHAKE_STATUS): (ST, ST),
    (CLIENT, H, HANDSHAKE_LOGIN): (L, L),
    (SERVER, L, "success"): (P, P),
    (SERVER, L, "disconnect"): (None, X),
    (SERVER, P, "kick_disconnect"): (None, X),
}

# What a client may send before it is admitted to configuration or play; anything else
# closes the connection. Names are minecraft-data's (status: ping_start is the request).
ALLOWED: dict[State, frozenset[str]] = {
    ST: frozenset({"ping_start", "ping"}),
    L: frozenset({"login_start", "encryption_begin", "login_plugin_response", "login_acknowledged",
                  "cookie_response"}),
}
# The status packets' ids, the same in every version since 1.7.
STATUS_PACKETS: dict[int, str] = {0: "ping_start", 1: "ping"}
# Everything a vanilla client sends before configuration fits in a few KB (the largest,
# 1.19's login_start with a signed key, is ~1 KB; a modded client's plugin responses more),
# but a BungeeCord in front of the proxy may put up to 32767 characters (UTF-8: ~96 KB) of
# forwarded identity into the handshake's host field (proxy/protocol/handshake.py).
PRE_PLAY_BUDGET = 128 * 1024


class ConnectionStates:
    """The two legs' states of one connection (see the module docstring)."""

    __slots__ = ("client", "server", "closed", "_table", "_pre_play_bytes")

    def __init__(self) -> None:
        self.client = State.HANDSHAKING
        self.server = State.HANDSHAKING
        # The client leg is closed (``client is State.CLOSED``): read on every read and frame,
        # so kept as a field, set wherever ``client`` changes (``sent``, ``close``).
        self.closed = False
        self._table = TRANSITIONS
        self._pre_play_bytes = 0

    def use_legacy(self) -> None:
        """The version has no configuration phase (before 1.20.2)."""
        self._table = LEGACY

    @property
    def server_left(self) -> bool:
        """The server closed its leg with a disconnect packet; the client's is still open."""
        return self.server is State.CLOSED and self.client is not State.CLOSED

    @property
    def playing(self) -> bool:
        """Both legs in play: the proxy may add its own play packets to either."""
        return self.client is State.PLAY and self.server is State.PLAY

    def sent(self, side: Side, packet: str) -> bool:
        """Note that ``side`` sent ``packet``; True when a state changed."""
        state = self.client if side is CLIENT else self.server
        change = self._table.get((side, state, packet))
        if change is None or self.closed:
            return False
        client, server = change
        if client is not None:
            self.client = client
            self.closed = client is State.CLOSED
        if server is not None:
            self.server = server
        return True

    def close(self) -> None:
        self.client = State.CLOSED
        self.server = State.CLOSED
        self.closed = True

    def check_pre_play(self, packet: str | None, size: int) -> None:
        """Raise PeerError for a client packet its pre-play state does not allow, or for
        one past the byte budget. Configuration and play are not limited here."""
        allowed = ALLOWED.get(self.client)
        if allowed is None:
            return
        self._pre_play_bytes += size
        if self._pre_play_bytes > PRE_PLAY_BUDGET:
            raise PeerError(f"more than {PRE_PLAY_BUDGET} bytes before login")
        if packet not in allowed:
            raise PeerError(f"packet {packet or 'unknown'} is not allowed in the {self.client.value} state")
