"""The server's clock reaches the engine: day and night for the autopilot."""
from __future__ import annotations

import pytest

from engine import events as ev
from engine.world.model import WorldModel
from proxy.codec import translators
from proxy.protocol.tables import TO_CLIENT
from proxy.testing import codec_for
from proxy.protocol.versions import SUPPORTED


@pytest.mark.parametrize("version", [v.name for v in SUPPORTED])
def test_update_time_becomes_a_time_event_and_the_world_knows_night(version: str) -> None:
    codec = codec_for(version)
    assert "update_time" in codec.subscribed[TO_CLIENT].values()
    layout = codec.field_types("play", TO_CLIENT, "update_time")
    if "time" in layout:
        packet = codec.build("play", TO_CLIENT, "update_time", age=5000, time=-18000)  # cycle stopped at midnight
    else:  # 26.1: the world clocks (26.2 renames age gameTime and a clock's id clock)
        age, clock = ("age", "id") if "age" in layout else ("gameTime", "clock")
        packet = codec.build("play", TO_CLIENT, "update_time", **{age: 5000},
                             clockUpdates=[{clock: 0, "totalTicks": 18000, "partialTick": 0.0, "rate": 1.0}])
    events = translators.events(codec, TO_CLIENT, "update_time", codec.decode("play", TO_CLIENT, "update_time", packet))
    assert len(events) == 1 and isinstance(events[0], ev.TimeUpdated)
    world = WorldModel("Steve")
    assert not world.night
    world.apply(events[0])
    assert world.time_of_day == 18000 and world.night
    world.apply(ev.TimeUpdated(6000, 30000))    # 30000 → 6000 of the next day: noon
    assert not world.night


def test_on_26_1_the_overworld_clock_is_read_whatever_the_order_and_another_clock_alone_is_not_the_day() -> None:
    codec = codec_for("26.1")

    def events(clocks: list[dict[str, object]]) -> list[ev.Event]:
        packet = codec.build("play", TO_CLIENT, "update_time", age=100, clockUpdates=clocks)
        return translators.events(codec, TO_CLIENT, "update_time", codec.decode("play", TO_CLIENT, "update_time", packet))

    the_end = {"id": 1, "totalTicks": 6000, "partialTick": 0.0, "rate": 1.0}
    overworld = {"id": 0, "totalTicks": 42000, "partialTick": 0.0, "rate": 1.0}
    assert events([the_end, overworld]) == [ev.TimeUpdated(100, 42000)]   # 42000: 18000 of day 2, night
    assert events([the_end]) == []       # only the End's clock moved: the overworld's day is unknown here
    assert events([]) == []
