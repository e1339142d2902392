"""Fixtures for end-to-end tests with real peers (flying-squid, mineflayer).

Every test collected under tests/e2e/ is marked ``e2e``; deselect them with
``pytest -m "not e2e"``. They need the Node peers: ``scripts/install-peers.sh``.

    def test_something(squid_factory, bot_factory):
        server = squid_factory("1.18.2")
        bot = bot_factory(server, username="alice")   # or bot_factory(port, version=...)
        bot.chat("hi")
        server.wait_chat("hi", player="alice")

Peers started through the factories are closed when the test ends (bots first).
For peers shared by several tests, use ``PeerPool`` in a fixture of wider scope.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

import pytest

from tests.e2e import schedule
from tests.e2e.peers import DEFAULT_VERSION, Bot, GameServer, PeerPool, SquidServer, WorldServer, install_dir

if TYPE_CHECKING:
    from tests.e2e.proxy_process import ProxyProcess

_HERE = Path(__file__).resolve().parent


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "e2e: end-to-end tests with real peers (flying-squid, mineflayer)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    is_e2e = [_HERE in Path(str(item.path)).resolve().parents for item in items]
    for item, flag in zip(items, is_e2e):
        if flag:
            item.add_marker(pytest.mark.e2e)
    # The longest e2e tests first (tests/e2e/schedule.py): the xdist workers end together.
    items[:] = schedule.longest_first(items, is_e2e, schedule.load())


@pytest.fixture(scope="session")
def peers_installed() -> Path:
    """The peers' install dir; fails the test with how-to-install if it is missing."""
    return install_dir()


@pytest.fixture
def peer_pool(peers_installed: Path) -> Iterator[PeerPool]:
    pool = PeerPool()
    try:
        yield pool
    finally:
        pool.close()


SquidFactory = Callable[..., SquidServer]
WorldFactory = Callable[..., WorldServer]
ServerFactory = Callable[..., GameServer]
BotFactory = Callable[..., Bot]


@pytest.fixture
def squid_factory(peer_pool: PeerPool) -> SquidFactory:
    """``squid_factory(version="1.18.2", port=None, motd=..., gamemode="creative")``
    starts a flying-squid server and waits until it accepts logins."""

    def make(version: str = DEFAULT_VERSION, **kwargs: Any) -> SquidServer:
        return peer_pool.server(version=version, **kwargs)

    return make


@pytest.fixture
def world_factory(peer_pool: PeerPool) -> WorldFactory:
    """``world_factory(version, port=None, gamemode="creative", view_distance=2)`` starts
    the world server (peers/world.js, for versions flying-squid lacks) and waits until it
    accepts logins. It answers the same commands as a flying-squid server."""

    def make(version: str, **kwargs: Any) -> WorldServer:
        return peer_pool.world(version=version, **kwargs)

    return make


@pytest.fixture
def server_factory(peer_pool: PeerPool) -> ServerFactory:
    """``server_factory(version, **kwargs)``: flying-squid for 1.8.8 -> 1.21.4, the world
    server for the versions after (the same keyword arguments and commands)."""

    def make(version: str = DEFAULT_VERSION, **kwargs: Any) -> GameServer:
        return peer_pool.game_server(version, **kwargs)

    return make


@pytest.fixture
def bot_factory(peer_pool: PeerPool) -> BotFactory:
    """``bot_factory(server_or_port, username=None, version=None, host="127.0.0.1",
    wait_spawn=True)`` starts a mineflayer bot (4.25.0 up to 1.21.4, 4.39.0 after); with a
    server the version defaults to the server's. Usernames default to bot1, bot2, ..."""

    def make(
        target: GameServer | int,
        username: str | None = None,
        version: str | None = None,
        host: str = "127.0.0.1",
        **kwargs: Any,
    ) -> Bot:
        if isinstance(target, GameServer):
            assert target.port is not None, "server not started"
            port = target.port
            version = version or target.version
        else:
            port = int(target)
        return peer_pool.bot(port, username=username, version=version or DEFAULT_VERSION, host=host, **kwargs)

    return make


@pytest.fixture(scope="session")
def proxy_reaper() -> Iterator[ThreadPoolExecutor]:
    """Waits for stopped proxies to exit while the next tests run; all have exited (or been
    killed) when the session ends."""
    with ThreadPoolExecutor(max_workers=4, thread_name_prefix="proxy-reaper") as reaper:
        yield reaper


@pytest.fixture
def proxy_factory(proxy_reaper: ThreadPoolExecutor) -> Iterator[Callable[..., "ProxyProcess"]]:
    """``proxy_factory(upstream_port, **config)`` runs the real ``mcagent run``."""
    from tests.e2e.proxy_process import ProxyProcess

    started: list[ProxyProcess] = []

    def make(upstream_port: int, extra_args: tuple[str, ...] = (), **config: Any) -> ProxyProcess:
        proxy = ProxyProcess(upstream_port, extra_args, **config)
        started.append(proxy)
        return proxy

    try:
        yield make
    finally:
        # SIGTERM now (the proxy closes its port and its players' connections at once); its exit
        # (seconds of the interpreter freeing the routing index) is waited for in the background.
        for proxy in started:
            proxy.stop()
            proxy_reaper.submit(proxy.close)
