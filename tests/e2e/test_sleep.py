"""Beds, end to end: the autopilot's ``sleep`` through the real proxy on the world server.

flying-squid has no beds (no bed use, no night skip), so these run on peers/world.js,
which keeps a day clock and does vanilla's sleeping: a bed used at night within reach
puts the player to bed (pose SLEEPING, the bed's position in the metadata), everyone
asleep for 100 ticks skips the night to the morning, and a bed that cannot be used is
refused with vanilla's action-bar message. The first test checks the world server
against a real client (mineflayer's own ``bot.sleep``), so a failure in the proxy's
tests below can be told from one in the server.
"""

from __future__ import annotations

import json
import math
import os
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.e2e.matrix import proxied
from tests.e2e.peers import PeerError

PLAYER = "sleeper"
# The world server's beds against mineflayer on these; MCAGENT_E2E_VERSIONS="1.21.6,1.20.1"
# widens (or narrows) the run, as in test_world_direct.py.
_env = os.environ.get("MCAGENT_E2E_VERSIONS", "")
CLIENT_VERSIONS = [v.strip() for v in _env.split(",") if v.strip()] or ["26.1", "1.21.5"]
SLEEP = json.dumps({"choice": "sleep", "args": [], "confidence": 0.9, "urgency": 0.5})


def _until(check: Any, what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"{what}: not within {timeout} s"
        time.sleep(0.1)


def _place_bed(server: Any, x: int, y: int, z: int) -> tuple[int, int, int]:
    """A red bed with its foot at (x, y, z) and its head one block east; returns the head."""
    server.run(f"/setblock {x} {y} {z} red_bed[facing=east,part=foot]")
    server.run(f"/setblock {x + 1} {y} {z} minecraft:red_bed[facing=east,part=head]")
    return x + 1, y, z


@pytest.mark.parametrize("version", CLIENT_VERSIONS)
def test_a_real_client_sleeps_in_a_world_server_bed_at_night_and_wakes_in_the_morning(
    version: str, world_factory, bot_factory
) -> None:
    server = world_factory(version, gamemode="survival")
    bot = bot_factory(server, username=PLAYER)
    server.wait_login(PLAYER)
    head = _place_bed(server, 3, 5, 0)
    assert server.block(*head) == "red_bed"
    time.sleep(0.5)  # the block changes reach the bot
    with pytest.raises(PeerError, match="not night"):  # mineflayer reads the day from the server's clock
        bot.request("sleep", x=3, y=5, z=0)
    mark, said = server.mark(), bot.mark()
    bot.request("activate", x=3, y=5, z=0)  # a plain right click: the server refuses by day, as vanilla
    assert server.wait_for("bed_refused", since=mark, player=PLAYER)["reason"] == "no_sleep"
    bot.wait_chat("only at night", since=said)  # vanilla's text for block.minecraft.bed.no_sleep
    server.run("/time set night")
    assert server.request("time")["timeOfDay"] >= 13000
    _until(lambda: (bot.status().get("timeOfDay") or 0) >= 13000, "the bot hears that it is night")
    mark = server.mark()
    bot.request("sleep", x=3, y=5, z=0)  # answered once the server's metadata says "asleep"
    assert server.request("position", player=PLAYER)["sleeping"] == list(head)
    assert server.wait_for("morning", timeout=30, since=mark)["time"] % 24000 == 0
    bot.wait_for("woke", timeout=10)
    assert server.request("position", player=PLAYER)["sleeping"] is None
    assert server.request("time")["timeOfDay"] < 12542


def _join(
    version: str,
    tmp_path: Path,
    server_factory,
    bot_factory,
    proxy_factory,
    model_url: str,
    before: Callable[[Any], Any] = lambda server: None,
):
    """The world server (survival), the real proxy with the ``api`` provider, and the player
    (``before(server)`` runs before the player joins)."""
    server = server_factory(version, gamemode="survival", view_distance=4)
    before(server)
    proxy = proxy_factory(
        server.port, llm={"base_url": model_url}, autopilot={"provider": "api", "log_dir": str(tmp_path)}
    )
    bot = bot_factory(proxy.port, username=PLAYER, version=version)
    server.wait_login(PLAYER)
    time.sleep(1.0)  # the chunks around the player arrive
    start = server.server_position(PLAYER)
    return server, bot, (math.floor(start.x), math.floor(start.y), math.floor(start.z))


def _records(folder: Path, until: Any, timeout: float = 10.0) -> list[dict[str, Any]]:
    """The decision log's lines once ``until(records)`` holds (the proxy writes it in a thread)."""
    deadline = time.monotonic() + timeout
    records: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        records = [
            json.loads(line)
            for path in folder.glob(f"{PLAYER}/*-episode1/decision_log.jsonl")
            for line in path.read_text().splitlines()
        ]
        if until(records):
            break
        time.sleep(0.2)
    return records


def _outline(records: list[dict[str, Any]]) -> list[str]:
    """One short line per decision and outcome (for a failure message)."""
    return [
        f"{r.get('tick')} {r.get('kind')} {(r.get('decision') or {}).get('choice', r.get('choice', ''))} "
        f"{(r.get('decision') or {}).get('source', '')} {r.get('outcome', '')}"
        for r in records
    ]


def _sleep_outcome(records: list[dict[str, Any]]) -> str | None:
    return next((r["outcome"] for r in records if r.get("kind") == "outcome" and r.get("choice") == "sleep"), None)


@pytest.mark.parametrize("version", proxied("26.1", "1.21.11"))
def test_a_model_card_sleep_puts_the_autopilot_to_bed_and_the_night_is_skipped(
    version: str, tmp_path: Path, server_factory, bot_factory, proxy_factory, monkeypatch
) -> None:
    """At night with a bed 4 blocks off, the model (a scripted OpenAI-compatible server) answers
    "sleep": the proxied player walks to the bed and uses it, the server puts it to bed and skips
    the night, and the decision log has the sleep decision and its outcome, ok."""
    from tests.llm_server import ScriptedModelServer, text_body

    monkeypatch.setenv("DEEPSEEK_API_KEY", "sk-sleep-e2e-0123456789")
    with ScriptedModelServer(default=text_body(SLEEP)) as model:
        # The bed is there before the player comes (it arrives in the chunk data; the test below
        # places its bed after the join, in block changes); the world server spawns at (0.5, 5, 0.5).
        server, bot, (x, y, z) = _join(
            version,
            tmp_path,
            server_factory,
            bot_factory,
            proxy_factory,
            model.base_url,
            before=lambda server: _place_bed(server, 4, 5, 0),
        )
        head = (x + 5, y, z)
        assert server.block(*head) == "red_bed"
        server.run("/time set night")
        mark = server.mark()
        said = bot.mark()
        bot.chat("!autopilot on")
        bot.wait_chat("Autopilot on (api)", since=said)
        slept = server.wait_for("slept", timeout=60, since=mark, player=PLAYER)
        asked = len(model.requests)  # no decision is asked while the sleep runs
        morning = server.wait_for("morning", timeout=30, since=mark)
        model.wait_requests(asked + 1, timeout=30)  # the sleep ended: the next decision is asked
        bot.chat("!autopilot off")  # the episode's log is written out
        records = _records(tmp_path, lambda r: _sleep_outcome(r) is not None)
    assert (slept["x"], slept["y"], slept["z"]) == head  # in the bed, per the server
    assert morning["time"] % 24000 == 0 and server.request("time")["timeOfDay"] < 12542
    assert not server.find_all("bed_refused", since=mark)
    assert any(
        r.get("kind") == "decision"
        and r.get("applied")
        and r["decision"]["choice"] == "sleep"
        and r["decision"]["source"] != "mock"
        and r["state"]["day"] is False
        for r in records
    ), _outline(records)
    assert _sleep_outcome(records) == "ok", _outline(records)


@pytest.mark.parametrize("version", proxied("26.1"))
def test_an_occupied_bed_is_refused_and_the_autopilot_gives_up_without_hanging(
    version: str, tmp_path: Path, server_factory, bot_factory, proxy_factory, monkeypatch
) -> None:
    """Alice (a second client, straight on the server) sleeps in the only bed; the autopilot's use
    of it is refused by the server ("This bed is occupied"), nobody skips the night, and the sleep
    ends as "not asleep" instead of waiting for a morning that does not come."""
    from tests.llm_server import ScriptedModelServer, text_body

    monkeypatch.setenv("DEEPSEEK_API_KEY", "sk-sleep-e2e-0123456789")
    with ScriptedModelServer(default=text_body(SLEEP)) as model:
        server, bot, (x, y, z) = _join(version, tmp_path, server_factory, bot_factory, proxy_factory, model.base_url)
        _place_bed(server, x + 4, y, z)
        server.run("/time set night")
        alice = bot_factory(server, username="alice")
        server.wait_login("alice")
        server.run(f"/tp alice {x + 2} {y} {z}")
        time.sleep(1.0)
        alice.request("sleep", x=x + 4, y=y, z=z)
        mark = server.mark()
        said = bot.mark()
        bot.chat("!autopilot on")
        bot.wait_chat("Autopilot on (api)", since=said)
        refused = server.wait_for("bed_refused", timeout=60, since=mark, player=PLAYER)
        asked = len(model.requests)  # no decision is asked while the sleep runs
        model.wait_requests(asked + 1, timeout=30)  # it gave up: the next decision is asked
        bot.chat("!autopilot off")
        records = _records(tmp_path, lambda r: _sleep_outcome(r) is not None)
    assert refused["reason"] == "occupied"
    assert not server.find_all("morning") and not server.find_all("slept", player=PLAYER)
    assert _sleep_outcome(records) == "not asleep", _outline(records)


@pytest.mark.parametrize("version", proxied("26.1"))
def test_day_breaking_on_the_way_to_the_bed_ends_the_sleep_as_only_at_night(
    version: str, tmp_path: Path, server_factory, bot_factory, proxy_factory, monkeypatch
) -> None:
    """The model answers "sleep" at night with a bed 30 blocks off; while the player walks there
    the time is set to day: the sleep ends as "only at night" without using the bed, and the
    autopilot goes on (the next decision is asked; "sleep" is no longer legal)."""
    from tests.llm_server import ScriptedModelServer, text_body

    monkeypatch.setenv("DEEPSEEK_API_KEY", "sk-sleep-e2e-0123456789")
    with ScriptedModelServer(default=text_body(SLEEP)) as model:
        server, bot, (x, y, z) = _join(version, tmp_path, server_factory, bot_factory, proxy_factory, model.base_url)
        _place_bed(server, x + 30, y, z)
        server.run("/time set night")
        start = server.server_position(PLAYER)
        mark = server.mark()
        said = bot.mark()
        bot.chat("!autopilot on")
        bot.wait_chat("Autopilot on (api)", since=said)
        _until(lambda: server.server_position(PLAYER).horizontal_distance(start) >= 2.0, "the walk to the bed", 60)
        asked = len(model.requests)  # no decision is asked while the sleep runs
        server.run("/time set day")
        model.wait_requests(asked + 1, timeout=30)  # it gave up: the next decision is asked
        bot.chat("!autopilot off")
        records = _records(tmp_path, lambda r: _sleep_outcome(r) is not None)
    assert not server.find_all("slept", since=mark) and not server.find_all("bed_refused", since=mark)
    assert _sleep_outcome(records) == "only at night", _outline(records)
    # What the model was asked next: the day, and no sleep among the choices.
    asked_next = json.loads(model.requests[asked]["messages"][-1]["content"])
    assert asked_next["state"]["day"] is True
    assert "sleep" not in [c["choice"] for c in asked_next["legal"]]
