"""The overview's live figures: each player's own round trip (timed from the keep-alives the
proxy relays untouched) and the model's calls and tokens since midnight."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from engine.assistant import AssistantRuntime
from engine.llm.limits import LimitSettings
from engine.llm.service import LlmService, LlmSettings
from engine.routing.config import default_config
from proxy.agent.assistant_factory import RoutingSurface

from proxy.connection.client_ping import MAX_PENDING, ClientPing
from proxy.dashboard.overview import RateMeter, overview
from proxy.testing import Rig, build_packet


def test_an_answered_id_gives_the_time_between() -> None:
    ping = ClientPing()
    ping.sent(b"\x00\x01", 10.0)
    ping.sent(b"\x00\x02", 12.0)
    ping.answered(b"\x00\x02", 12.25)
    assert ping.rtt == 0.25 and ping.samples == 1
    ping.answered(b"\x00\x02", 13.0)            # answered twice: the second is not ours to time
    ping.answered(b"\x00\x09", 13.0)            # never sent
    assert ping.rtt == 0.25 and ping.samples == 1
    ping.answered(b"\x00\x01", 12.5)
    assert ping.rtt == 2.5


def test_unanswered_ids_are_bounded_oldest_first() -> None:
    ping = ClientPing()
    for n in range(MAX_PENDING + 3):
        ping.sent(bytes([n]), float(n))
    ping.answered(b"\x00", 100.0)                # forgotten
    assert ping.rtt is None
    ping.answered(bytes([MAX_PENDING + 2]), 100.0)
    assert ping.rtt == 100.0 - (MAX_PENDING + 2)


@pytest.mark.parametrize("version", ["1.8.8", "1.12.2", "1.18.2", "1.20.1", "1.21.4"])
def test_the_overview_shows_the_clients_round_trip_and_the_bytes_pass_unchanged(version: str) -> None:
    rig = Rig(version)
    rig.login("alice")
    assert rig.client is not None and rig.upstream is not None
    rig.client.received()
    rig.upstream.received()
    assert overview(rig.server, RateMeter(), rig.reactor.seconds()).players[0].ping_ms is None
    ka = {"keepAliveId": 7}
    rig.server_send(build_packet(rig.codec, "play", "toClient", "keep_alive", **ka))
    assert rig.client.received() == [build_packet(rig.codec, "play", "toClient", "keep_alive", **ka)]
    rig.reactor.advance(0.042)
    rig.client_send(build_packet(rig.codec, "play", "toServer", "keep_alive", **ka))
    assert rig.upstream.received() == [build_packet(rig.codec, "play", "toServer", "keep_alive", **ka)]
    row = overview(rig.server, RateMeter(), rig.reactor.seconds()).players[0]
    assert row.ping_ms == 42.0
    # A reply with another id (a client answering something the proxy never saw) changes nothing.
    rig.reactor.advance(3.0)
    rig.client_send(build_packet(rig.codec, "play", "toServer", "keep_alive", keepAliveId=8))
    assert overview(rig.server, RateMeter(), rig.reactor.seconds()).players[0].ping_ms == 42.0


def test_model_use_today_is_counted_since_midnight_and_resets() -> None:
    llm = LlmService(LlmSettings(has_key=True, limits=LimitSettings(requests_per_minute=100, daily_tokens=5000,
                                                                     time_zone="Europe/Berlin")))
    runtime = AssistantRuntime(default_config(), llm=llm)
    rig = Rig("1.18.2", routing=RoutingSurface(runtime))
    # 22:30 UTC on 1 July is 00:30 in Berlin (summer time): the owner's day has just begun.
    start = datetime(2026, 7, 1, 22, 30, tzinfo=timezone.utc).timestamp()
    assert llm.admit("bob", start - 3600) is None          # 23:30 the day before, in Berlin
    llm.limits.finish("bob", 100, start - 3600)
    assert overview(rig.server, RateMeter(), start - 1860).model.calls_today == 1   # 23:59 in Berlin
    model = overview(rig.server, RateMeter(), start + 10).model   # after Berlin's midnight (22:00 UTC)
    assert (model.calls_today, model.tokens_today, model.daily_budget, model.time_zone) == (0, 0, 5000, "Europe/Berlin")
    for n in range(3):
        assert llm.admit("alice", start + 20 + n) is None
        llm.limits.finish("alice", 400, start + 20 + n)
    model = overview(rig.server, RateMeter(), start + 30).model
    assert (model.calls_today, model.tokens_today) == (3, 1200)
    assert dict(model.calls)["sent"] == 4                   # since start, across days
    late = datetime(2026, 7, 2, 21, 59, tzinfo=timezone.utc).timestamp()   # 23:59 in Berlin: same day
    assert overview(rig.server, RateMeter(), late).model.calls_today == 3
    assert overview(rig.server, RateMeter(), late + 120).model.calls_today == 0


def test_an_unknown_time_zone_is_refused_naming_the_field() -> None:
    from proxy.config import ProxyConfig
    with pytest.raises(ValueError, match=r"llm\.limits\.time_zone[\s\S]*unknown time zone 'Nowhere/Place'"):
        ProxyConfig(llm={"limits": {"time_zone": "Nowhere/Place"}})
