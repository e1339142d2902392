"""Login failovers count with the failovers in play: the switchboard's figure, the console's status,
the Prometheus metrics and the dashboard's overview all show them."""
from __future__ import annotations

from twisted.internet.error import ConnectionLost
from twisted.python.failure import Failure

from proxy.dashboard.overview import NetworkMoves, RateMeter, overview, to_json
from proxy.operations.console import ConsoleCommands
from proxy.operations.metrics import Metrics
from proxy.testing import Rig, build_packet, handshake_packet
from tests.proxy.network.helpers import join, network_rig

THREE = {"lobby": "127.0.0.1:25565", "survival": "127.0.0.1:25570", "creative": "127.0.0.1:25575"}


def _start(rig: Rig) -> None:
    rig.connect_client()
    rig.client_send(handshake_packet(rig.codec.protocol))
    rig.client_send(build_packet(rig.codec, "login", "toServer", "login_start", username="alice"))
    rig.accept_upstream()


def _kick(rig: Rig, text: str) -> None:
    rig.server_send(build_packet(rig.codec, "login", "toClient", "disconnect", reason=f'{{"text":"{text}"}}'))


def _metrics(rig: Rig) -> list[str]:
    metrics = Metrics()
    metrics.collect(rig.server)
    return [line for line in metrics.render().decode().splitlines() if line.startswith("mcagent_network_")]


def _status(rig: Rig) -> str:
    return "\n".join(ConsoleCommands(rig.server, lambda: [], lambda: None).execute("status"))


def test_a_login_that_goes_on_past_two_servers_is_one_failover_then_a_loss_in_play_another() -> None:
    rig = network_rig("1.20.1", servers=THREE, try_order=["lobby", "survival", "creative"])
    _start(rig)
    _kick(rig, "Server closed")  # the lobby restarts: on to survival
    rig.refuse_upstream()  # survival is down: on to creative
    creative = rig.accept_upstream()
    creative.received()
    rig.server_send(build_packet(rig.codec, "login", "toClient", "success", username="alice"))
    join(rig, 3)
    assert rig.bridge.states.playing and rig.bridge.backend is not None and rig.bridge.backend.name == "creative"
    board = rig.server.network
    assert (board.switches, board.failovers, board.login_failovers) == (0, 1, 1)
    assert "0 moves, 1 failovers (1 at login)" in _status(rig)
    assert _metrics(rig) == ["mcagent_network_moves_total 0.0", 'mcagent_network_failovers_total{when="play"} 0.0',
                             'mcagent_network_failovers_total{when="login"} 1.0']
    view = overview(rig.server, RateMeter(), rig.reactor.seconds())
    assert view.network == NetworkMoves(moves=0, failovers=1, login_failovers=1)
    assert to_json(view)["network"] == {"moves": 0, "failovers": 1, "login_failovers": 1}

    # creative goes away in play: a failover in play, counted beside the one at login.
    creative.proto.connectionLost(Failure(ConnectionLost("Connection to the other side was lost")))
    assert (board.failovers, board.login_failovers) == (2, 1)
    assert 'mcagent_network_failovers_total{when="play"} 1.0' in _metrics(rig)
    assert "0 moves, 2 failovers (1 at login)" in _status(rig)


def test_a_login_that_finds_no_server_counts_the_one_failover_it_tried() -> None:
    rig = network_rig("1.12.2")
    _start(rig)
    _kick(rig, "Server closed")
    rig.refuse_upstream()
    assert rig.bridge.states.closed
    assert (rig.server.network.failovers, rig.server.network.login_failovers) == (1, 1)


def test_a_kick_for_a_reason_is_no_failover() -> None:
    rig = network_rig("1.21.11")
    _start(rig)
    _kick(rig, "You are not whitelisted on this server!")
    assert (rig.server.network.failovers, rig.server.network.login_failovers) == (0, 0)


def test_in_front_of_one_server_nothing_is_counted_or_shown() -> None:
    rig = Rig("1.20.1", login_rate_limit_seconds=0)
    _start(rig)
    _kick(rig, "Server closed")  # shown as it came: there is no next server
    assert rig.server.network.failovers == 0
    assert _metrics(rig) == []
    assert overview(rig.server, RateMeter(), rig.reactor.seconds()).network is None
    assert "failovers" not in _status(rig)
