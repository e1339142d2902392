"""The server's clock reaches the engine: day and night for the autopilot."""
from __future__ import annotations

import pytest

from engine import events as ev
from engine.world.model import WorldModel
from proxy.protocol.tables import TO_CLIENT
from proxy.testing import codec_for
from proxy.versions import SUPPORTED


@pytest.mark.parametrize("version", [v.name for v in SUPPORTED])
def test_update_time_becomes_a_time_event_and_the_world_knows_night(version: str) -> None:
    codec = codec_for(version)
    assert "update_time" in codec.subscribed[TO_CLIENT].values()
    layout = codec.field_types("play", TO_CLIENT, "update_time")
    if "time" in layout:
        packet = codec.build("play", TO_CLIENT, "update_time", age=5000, time=-18000)  # cycle stopped at midnight
    else:  # 26.1: the world clocks
        packet = codec.build("play", TO_CLIENT, "update_time", age=5000,
                             clockUpdates=[{"id": 0, "totalTicks": 18000, "partialTick": 0.0, "rate": 1.0}])
    events = codec.events(TO_CLIENT, "update_time", codec.decode("play", TO_CLIENT, "update_time", packet))
    assert len(events) == 1 and isinstance(events[0], ev.TimeUpdated)
    world = WorldModel("Steve")
    assert not world.night
    world.apply(events[0])
    assert world.time_of_day == 18000 and world.night
    world.apply(ev.TimeUpdated(6000, 30000))    # 30000 → 6000 of the next day: noon
    assert not world.night
