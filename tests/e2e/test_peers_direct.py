"""The peer harness itself, with no proxy: a mineflayer bot straight on flying-squid.

If these fail, the e2e tests of the proxy cannot be trusted; if these pass and a proxy
test fails, the proxy is at fault.
"""

from __future__ import annotations

import itertools
import os
from typing import Iterator

import pytest

from tests.e2e.peers import Bot, PeerPool, SquidServer, install_dir

DEFAULT_VERSIONS = ["1.8.8", "1.12.2", "1.18.2"]
# Every version checked by hand to work directly (bot on flying-squid, no proxy).
ALL_VERSIONS = [
    "1.8.8", "1.9.4", "1.10.2", "1.11.2", "1.12.2", "1.13.2", "1.14.4",
    "1.15.2", "1.16.5", "1.17.1", "1.18.2", "1.19", "1.19.2", "1.20.1",
]  # fmt: skip
# MCAGENT_E2E_VERSIONS="1.9.4,1.16.5" or "all" widens the run.
_env = os.environ.get("MCAGENT_E2E_VERSIONS", "").strip()
VERSIONS = ALL_VERSIONS if _env == "all" else [v.strip() for v in _env.split(",") if v.strip()] or DEFAULT_VERSIONS

_counter = itertools.count(1)


@pytest.fixture(scope="module", params=VERSIONS)
def direct(request: pytest.FixtureRequest) -> Iterator[tuple[SquidServer, Bot]]:
    """One server and one bot per version, shared by the tests of this module."""
    install_dir()
    version: str = request.param
    with PeerPool() as pool:
        server = pool.server(version=version)
        assert server.port is not None
        bot = pool.bot(server.port, username=f"direct{version.replace('.', '')}", version=version)
        yield server, bot


def unique(text: str) -> str:
    return f"{text} #{next(_counter)}"


def test_login_and_spawn(direct: tuple[SquidServer, Bot]) -> None:
    server, bot = direct
    assert bot.username is not None and bot.spawn_position is not None
    server.wait_login(bot.username)
    assert bot.find("login") is not None
    assert bot.username in server.players()
    # Both sides agree where the bot spawned (superflat: standing on the grass at y=5).
    assert server.server_position(bot.username).distance(bot.spawn_position) < 1.0
    assert bot.spawn_position.y == pytest.approx(5.0)


def test_chat_reaches_server_exactly(direct: tuple[SquidServer, Bot]) -> None:
    server, bot = direct
    # Under 100 characters (the 1.8-1.10 limit), with characters that a careless
    # relay would mangle: non-ASCII, '&' (flying-squid's colour-code marker), quotes,
    # JSON-looking braces and angle brackets.
    text = unique('héllo wörld 你好 & <b> "q" {x:1} 1/2')
    mark = server.mark()
    bot.chat(text)
    event = server.wait_chat(text, player=bot.username, since=mark)
    assert event["message"] == text
    assert server.chats(player=bot.username, since=mark) == [text]


def test_server_say_reaches_bot(direct: tuple[SquidServer, Bot]) -> None:
    server, bot = direct
    text = unique("server says & hello ü")
    mark = bot.mark()
    server.say(text)
    event = bot.wait_chat(text, since=mark)
    assert event["text"] == text


def test_walk_matches_server_position(direct: tuple[SquidServer, Bot]) -> None:
    server, bot = direct
    assert bot.username is not None
    start = server.server_position(bot.username)
    walked = bot.walk(5)
    assert walked["ok"], walked
    assert walked["moved"] >= 5.0
    mark = server.mark()
    end = server.server_position(bot.username)
    assert end.horizontal_distance((walked["x"], walked["y"], walked["z"])) < 1.0
    assert end.horizontal_distance(start) >= 4.0
    assert bot.position().distance(end) < 1.0
    assert server.find("error", since=mark) is None
