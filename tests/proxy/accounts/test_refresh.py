"""``session``: the cached token until it nears expiry, then a refresh (rotating the refresh token) that is never lost."""
from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from twisted.logger import Logger, formatEvent

from proxy.accounts import errors
from proxy.accounts.store import AccountStore, MinecraftSession
from tests.account_services import AccountServices, Reply
from tests.proxy.accounts.conftest import FakeTime, StoreFactory

MARGIN = 600.0


def _signed_in(services: AccountServices, store: AccountStore, name: str = "Steve") -> MinecraftSession:
    if name not in {a.name for a in store.accounts()}:
        services.add_account(name)
    services.next_sign_in(name)
    return store.login(None, lambda code: None)


def _file(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def test_no_refresh_before_the_margin(account_services: AccountServices, make_store: StoreFactory,
                                      fake_time: FakeTime) -> None:
    store = make_store()
    first = _signed_in(account_services, store)
    calls = len(account_services.requests)
    fake_time.now = first.expires_at - MARGIN - 1
    assert store.session("Steve") == first
    assert len(account_services.requests) == calls  # not even one request


def test_refresh_within_the_margin_rotates_the_refresh_token(account_services: AccountServices,
                                                            make_store: StoreFactory, fake_time: FakeTime,
                                                            cache_file: Path) -> None:
    store = make_store()
    first = _signed_in(account_services, store)
    old_refresh = _file(cache_file)["accounts"]["Steve"]["refresh_token"]
    fake_time.now = first.expires_at - MARGIN + 1
    second = store.session("Steve")
    assert second.access_token != first.access_token and second.access_token in account_services.issued
    assert second.expires_at == fake_time.now + 86400 and (second.name, second.uuid) == (first.name, first.uuid)
    saved = _file(cache_file)["accounts"]["Steve"]
    assert saved["refresh_token"] != old_refresh and saved["access_token"] == second.access_token
    assert account_services.live_refresh_tokens("Steve") == {saved["refresh_token"]}  # the old one is spent
    assert saved["refreshed_at"] == fake_time.now
    [grant] = [r for r in account_services.requests if r.endpoint == "token" and r.form["grant_type"] == "refresh_token"]
    assert grant.form["scope"] == "service::user.auth.xboxlive.com::MBI_SSL"
    assert store.session("Steve") == second  # and now it is fresh again


def test_a_revoked_refresh_token_asks_for_login(account_services: AccountServices, make_store: StoreFactory,
                                                fake_time: FakeTime) -> None:
    store = make_store()
    first = _signed_in(account_services, store)
    account_services.revoke_refresh_tokens("Steve")
    fake_time.now = first.expires_at + 1
    with pytest.raises(errors.SignInExpired) as info:
        store.session("Steve")
    assert "expired or was revoked" in str(info.value) and "run `mcagent login` again" in str(info.value)


def test_a_failed_refresh_hands_out_the_old_token_while_it_lasts(account_services: AccountServices,
                                                                 make_store: StoreFactory,
                                                                 fake_time: FakeTime) -> None:
    seen: list[dict[str, Any]] = []
    store = make_store(log=Logger(namespace="test", observer=seen.append))
    first = _signed_in(account_services, store)
    account_services.fail("token", Reply(503))
    fake_time.now = first.expires_at - 120
    assert store.session("Steve") == first
    assert "using its current token" in formatEvent(seen[-1]) and "HTTP 503" in formatEvent(seen[-1])
    fake_time.now = first.expires_at - 30
    with pytest.raises(errors.ServiceFailed):
        store.session("Steve")


def test_a_login_in_another_process_is_not_lost(account_services: AccountServices, make_store: StoreFactory,
                                                fake_time: FakeTime) -> None:
    proxy_side, cli_side = make_store(), make_store()
    first = _signed_in(account_services, proxy_side, "Steve")
    _signed_in(account_services, cli_side, "Alex")  # read and written while proxy_side holds its own state
    assert proxy_side.session("Alex").name == "Alex"
    fake_time.now = first.expires_at
    proxy_side.session("Steve")  # a refresh writes the file again
    assert {a.account for a in cli_side.accounts()} == {"Steve", "Alex"}


def test_an_account_signed_out_during_a_refresh_stays_out(account_services: AccountServices,
                                                         make_store: StoreFactory, fake_time: FakeTime) -> None:
    other = make_store()
    refreshing = [False]

    def learned(token: str) -> None:
        if refreshing[0] and token.startswith("msa-rt-"):
            other.logout("Steve")  # the new refresh token arrived: the rest of the chain runs after this

    store = make_store(on_secret=learned)
    first = _signed_in(account_services, store)
    fake_time.now = first.expires_at
    refreshing[0] = True
    with pytest.raises(errors.NotSignedIn):
        store.session("Steve")
    assert store.accounts() == []


def test_an_unknown_account_lists_the_known_ones(account_services: AccountServices, make_store: StoreFactory) -> None:
    store = make_store()
    _signed_in(account_services, store)
    with pytest.raises(errors.NotSignedIn, match=r"'Alex' is signed in \(signed in: Steve\)") as info:
        store.session("Alex")
    assert "mcagent login --account Alex" in info.value.action
    assert store.session("steve").name == "Steve"  # names are case-insensitive


def test_a_changed_client_id_asks_for_login(account_services: AccountServices, make_store: StoreFactory) -> None:
    _signed_in(account_services, make_store())
    with pytest.raises(errors.SignInExpired, match="another client id"):
        make_store(settings={"client_id": "0000000048000000"}).session("Steve")


def test_concurrent_sessions_refresh_once(account_services: AccountServices, make_store: StoreFactory,
                                          fake_time: FakeTime) -> None:
    store = make_store()
    first = _signed_in(account_services, store)
    fake_time.now = first.expires_at
    account_services.fail("xbox", Reply(200, body=lambda request: account_services._xbox(request).body, delay=0.2))
    results: list[MinecraftSession] = []
    threads = [threading.Thread(target=lambda: results.append(store.session("Steve"))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({r.access_token for r in results}) == 1 and len(results) == 4
    assert account_services.count("xbox") == 2  # the login's and one refresh


def test_a_profile_name_change_is_picked_up(account_services: AccountServices, make_store: StoreFactory,
                                            fake_time: FakeTime) -> None:
    store = make_store()
    first = _signed_in(account_services, store)
    account_services.account("Steve").name = "Steve_2"
    fake_time.now = first.expires_at
    renamed = store.session("Steve")
    assert (renamed.account, renamed.name) == ("Steve", "Steve_2")
