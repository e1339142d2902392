"""Fixtures for the account tests: the fake services, a fake clock, and stores wired to both."""
from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from proxy.accounts.store import AccountStore
from tests.account_services import AccountServices, account_services  # noqa: F401  (the fixture)

START = 1_800_000_000.0


class FakeTime:
    """The store's clock and sleep: a sleep advances the clock at once and is recorded."""

    def __init__(self, now: float = START) -> None:
        self.now = now
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def fake_time() -> FakeTime:
    return FakeTime()


@pytest.fixture
def cache_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    # Settings name the file; the variable is cleared so a developer's own cannot leak in.
    monkeypatch.delenv("MCAGENT_ACCOUNTS_FILE", raising=False)
    return tmp_path / "config" / "mcagent" / "accounts.json"


StoreFactory = Callable[..., AccountStore]


@pytest.fixture
def make_store(account_services: AccountServices, fake_time: FakeTime,  # noqa: F811 (the fixture)
               cache_file: Path) -> Iterator[StoreFactory]:
    made: list[AccountStore] = []

    def make(**options: Any) -> AccountStore:
        settings_overrides = options.pop("settings", {})
        store = AccountStore(account_services.settings(cache_file, **settings_overrides), clock=fake_time.clock,
                             sleep=fake_time.sleep, **options)
        made.append(store)
        return store

    yield make
    for store in made:
        store.close()


@pytest.fixture
def refused_port() -> Iterator[int]:
    """A loopback port that refuses connections for the whole test: bound, never listening.

    A port bound and closed again (the old helper) could be taken by another process before the
    test connected to it."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        yield int(s.getsockname()[1])
