"""The account source: the store run off the reactor, its errors told to the player, the join."""
from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from twisted.internet.defer import Deferred

from proxy.connection.account_source import AccountSource, AccountUnavailable, UpstreamAccount
from proxy.accounts.store import AccountStore
from tests.account_services import AccountServices

ACCOUNT_UUID = uuid.UUID("069a79f4-44e9-4726-a5be-fca90e38aaf5")


class InlinePool:
    """A thread pool that runs the work at once (the store's calls are what is tested here)."""

    def callInThreadWithCallback(self, on_result: Callable[[bool, Any], None], work: Callable[..., Any],
                                 *args: Any, **kwargs: Any) -> None:
        try:
            result = work(*args, **kwargs)
        except BaseException:
            from twisted.python.failure import Failure

            on_result(False, Failure())
        else:
            on_result(True, result)


class InlineReactor:
    def getThreadPool(self) -> InlinePool:
        return InlinePool()

    def callFromThread(self, f: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        f(*args, **kwargs)


@pytest.fixture
def services() -> Iterator[AccountServices]:
    with AccountServices() as running:
        running.add_account("Notch", ACCOUNT_UUID)
        yield running


def _result(d: Deferred[Any]) -> Any:
    out: list[Any] = []
    d.addBoth(out.append)
    assert out, "the Deferred did not fire"
    return out[0]


def _source(services: AccountServices, tmp_path: Path, signed_in: bool = True) -> tuple[AccountSource, list[str], str]:
    cache = tmp_path / "accounts.json"
    token = services.signed_in_cache(cache, "Notch") if signed_in else ""
    learned: list[str] = []
    store = AccountStore(services.settings(cache), on_secret=learned.append)
    return AccountSource(store, InlineReactor(), services.base_url), learned, token


def test_a_session_comes_with_the_accounts_chat_key(services: AccountServices, tmp_path: Path) -> None:
    source, learned, token = _source(services, tmp_path)
    session = _result(source.session("notch"))
    assert isinstance(session, UpstreamAccount)
    assert session.name == "Notch" and session.uuid == ACCOUNT_UUID
    assert session.chat_key is not None and session.chat_key.public_key_der == services.chat_key_der("Notch")
    assert session.access_token == token
    assert "BEGIN PRIVATE KEY" in "".join(learned)  # the chat key went to the redaction before use
    assert session.access_token not in repr(session) and "PRIVATE" not in repr(session)
    assert "Notch" in source.describe("Notch") and "logs in as" in source.describe("Notch")


def test_no_signed_in_account_tells_the_player_the_command(services: AccountServices, tmp_path: Path) -> None:
    source, _, _ = _source(services, tmp_path, signed_in=False)
    failure = _result(source.session("Notch"))
    assert failure.check(AccountUnavailable)
    assert "mcagent login --account Notch" in failure.getErrorMessage()
    assert "mcagent login --account Notch" in source.describe("Notch")


def test_a_missing_chat_key_costs_only_the_signing(services: AccountServices, tmp_path: Path) -> None:
    from tests.account_services import Reply

    services.fail("certificates", Reply(500, {"error": "down"}))
    source, _, _ = _source(services, tmp_path)
    session = _result(source.session("Notch"))
    assert isinstance(session, UpstreamAccount) and session.chat_key is None
