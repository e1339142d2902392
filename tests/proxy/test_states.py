"""The connection's state table, driven with packet names alone: no sockets, no codec."""
from __future__ import annotations

import pytest

from proxy.protocol.errors import PeerError
from proxy.protocol.states import (CLIENT, HANDSHAKE_LOGIN, HANDSHAKE_STATUS, PRE_PLAY_BUDGET, SERVER,
                                   ConnectionStates, State)


def _states(*steps: tuple[object, str], legacy: bool = False) -> ConnectionStates:
    states = ConnectionStates()
    if legacy:
        states.use_legacy()
    for side, packet in steps:
        states.sent(side, packet)  # type: ignore[arg-type]
    return states


def test_login_configuration_play_and_back() -> None:
    s = _states((CLIENT, HANDSHAKE_LOGIN))
    assert (s.client, s.server) == (State.LOGIN, State.LOGIN)
    assert not s.sent(SERVER, "success")  # 1.20.2+: waits for the client's acknowledgement
    assert s.sent(CLIENT, "login_acknowledged")
    assert (s.client, s.server) == (State.CONFIGURATION, State.CONFIGURATION)
    assert not s.playing
    s.sent(CLIENT, "finish_configuration")
    assert s.playing
    # The server asks to reconfigure: no more packets of ours to either side.
    s.sent(SERVER, "start_configuration")
    assert (s.client, s.server) == (State.PLAY, State.CONFIGURATION) and not s.playing
    s.sent(CLIENT, "configuration_acknowledged")
    assert (s.client, s.server) == (State.CONFIGURATION, State.CONFIGURATION)
    s.sent(CLIENT, "finish_configuration")
    assert s.playing


def test_before_1_20_2_login_success_enters_play() -> None:
    s = _states((CLIENT, HANDSHAKE_LOGIN), (SERVER, "success"), legacy=True)
    assert s.playing
    assert not s.sent(SERVER, "start_configuration")  # no such transition without configuration
    assert not s.sent(CLIENT, "login_acknowledged")


def test_status_and_packets_that_change_nothing() -> None:
    s = _states((CLIENT, HANDSHAKE_STATUS))
    assert (s.client, s.server) == (State.STATUS, State.STATUS)
    assert not s.sent(CLIENT, "finish_configuration")  # not from status
    assert not s.sent(CLIENT, HANDSHAKE_LOGIN)  # a second handshake is just a packet
    assert s.client is State.STATUS


def test_close_is_final() -> None:
    s = _states((CLIENT, HANDSHAKE_LOGIN))
    s.close()
    assert s.closed and s.server is State.CLOSED
    assert not s.sent(CLIENT, "login_acknowledged")
    assert s.closed


def test_pre_play_allows_only_the_state_s_packets_within_a_budget() -> None:
    s = _states((CLIENT, HANDSHAKE_LOGIN))
    s.check_pre_play("login_start", 40)
    with pytest.raises(PeerError, match="not allowed in the login state"):
        s.check_pre_play("chat", 10)
    s = _states((CLIENT, HANDSHAKE_LOGIN))
    with pytest.raises(PeerError, match="before login"):
        for _ in range(PRE_PLAY_BUDGET // 1000 + 1):
            s.check_pre_play("login_plugin_response", 1000)
    s = _states((CLIENT, HANDSHAKE_LOGIN), (CLIENT, "login_acknowledged"))
    s.check_pre_play("anything", PRE_PLAY_BUDGET * 2)  # configuration is not limited here


@pytest.mark.parametrize("legacy", [False, True])
def test_a_server_kick_closes_only_the_servers_leg(legacy: bool) -> None:
    s = _states((CLIENT, HANDSHAKE_LOGIN), legacy=legacy)
    assert s.sent(SERVER, "disconnect")  # refused at login
    assert s.server_left and not s.closed and s.client is State.LOGIN

    s = _states((CLIENT, HANDSHAKE_LOGIN), (SERVER, "success"), legacy=True) if legacy else \
        _states((CLIENT, HANDSHAKE_LOGIN), (CLIENT, "login_acknowledged"), (CLIENT, "finish_configuration"))
    assert s.playing and not s.server_left
    assert s.sent(SERVER, "kick_disconnect")
    assert s.server_left and not s.playing and s.client is State.PLAY  # nothing of ours may follow
    s.close()
    assert not s.server_left and s.closed


@pytest.mark.parametrize("legacy", [False, True])
def test_closed_is_the_client_leg_being_closed_after_every_packet(legacy: bool) -> None:
    """``closed`` is a field kept with ``client``: after any sequence of packets from either side
    (every packet name of the table, in random order) and a close, it equals ``client is CLOSED``."""
    import random

    from proxy.protocol.states import LEGACY, TRANSITIONS

    names = sorted({(side, packet) for side, _, packet in (LEGACY if legacy else TRANSITIONS)}, key=str)
    rng = random.Random(25)
    for _ in range(200):
        s = _states(legacy=legacy)
        for _ in range(12):
            side, packet = rng.choice(names)
            s.sent(side, packet)
            assert s.closed == (s.client is State.CLOSED)
        if rng.random() < 0.3:
            s.close()
        assert s.closed == (s.client is State.CLOSED)
