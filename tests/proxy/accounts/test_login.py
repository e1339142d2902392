"""The device-code sign-in against local services: pending then authorised, and every failure by its name."""
from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from proxy.accounts import errors
from proxy.accounts.microsoft import DeviceCode
from proxy.accounts.settings import AZURE_SCOPE
from proxy.accounts.store import AccountStore
from tests.account_services import (XERR_ADULT_VERIFICATION, XERR_ADULT_VERIFICATION_2, XERR_CHILD, XERR_COUNTRY,
                                    XERR_NO_XBOX_PROFILE, AccountServices, Reply)
from tests.proxy.accounts.conftest import FakeTime, StoreFactory


def test_device_code_login_pending_then_authorised(account_services: AccountServices, make_store: StoreFactory,
                                                    fake_time: FakeTime, cache_file: Path) -> None:
    steve = account_services.add_account("Steve")
    account_services.next_sign_in("Steve", pending=2)
    shown: list[DeviceCode] = []
    store = make_store()
    session = store.login(None, shown.append)
    assert (session.account, session.name, session.uuid) == ("Steve", "Steve", steve.uuid)
    assert session.access_token in account_services.issued and session.access_token.startswith("mc-")
    assert session.expires_at == fake_time.now + 86400
    assert fake_time.sleeps == [1, 1]  # the service's interval, on the injected clock
    assert account_services.count("token") == 3
    [code] = shown
    assert code.verification_uri == "https://www.microsoft.com/link" and code.user_code in code.message
    assert code.expires_at == pytest.approx(fake_time.now - 2 + 900)
    [device] = [r for r in account_services.requests if r.endpoint == "device_code"]
    assert device.form["response_type"] == "device_code" and device.form["client_id"] == "00000000402b5328"
    [xbox] = [r for r in account_services.requests if r.endpoint == "xbox"]
    assert xbox.json["Properties"]["RpsTicket"].startswith("t=msa-at-")
    assert cache_file.exists() and [a.account for a in store.accounts()] == ["Steve"]


def test_slow_down_widens_the_interval(account_services: AccountServices, make_store: StoreFactory,
                                       fake_time: FakeTime) -> None:
    account_services.add_account("Steve")
    account_services.next_sign_in("Steve", slow_down=1, pending=1)
    make_store().login(None, lambda code: None)
    assert fake_time.sleeps == [6, 6]  # RFC 8628: five seconds more after slow_down, and from then on


@pytest.mark.parametrize(("then", "error", "words"), [
    ("expired_token", errors.LoginTimedOut, "expired before the sign-in was finished"),
    ("authorization_declined", errors.LoginDeclined, "declined"),
])
def test_the_user_not_finishing_or_declining(account_services: AccountServices, make_store: StoreFactory,
                                             then: str, error: type[errors.AccountError], words: str,
                                             cache_file: Path) -> None:
    account_services.add_account("Steve")
    account_services.next_sign_in("Steve", pending=1, then=then)
    with pytest.raises(error) as info:
        make_store().login(None, lambda code: None)
    assert words in str(info.value) and "mcagent login" in str(info.value)
    assert not cache_file.exists()


def test_the_code_expiring_on_our_clock_stops_polling(make_store: StoreFactory, fake_time: FakeTime) -> None:
    services = AccountServices(device_expires_in=3).start()
    try:
        services.add_account("Steve")
        services.next_sign_in("Steve", pending=100)
        store = AccountStore(services.settings(), clock=fake_time.clock, sleep=fake_time.sleep)
        with pytest.raises(errors.LoginTimedOut):
            store.login(None, lambda code: None)
        assert fake_time.sleeps == [1, 1, 1] and services.count("token") == 4
        store.close()
    finally:
        services.close()


@pytest.mark.parametrize(("xerr", "error", "words"), [
    (XERR_NO_XBOX_PROFILE, errors.NoXboxProfile, "no Xbox profile"),
    (XERR_COUNTRY, errors.XboxUnavailable, "not available in this account's country"),
    (XERR_ADULT_VERIFICATION, errors.AdultVerificationNeeded, "adult verification"),
    (XERR_ADULT_VERIFICATION_2, errors.AdultVerificationNeeded, "adult verification"),
    (XERR_CHILD, errors.ChildAccount, "Microsoft family"),
])
def test_xsts_refusals_say_what_to_do(account_services: AccountServices, make_store: StoreFactory, xerr: int,
                                      error: type[errors.AccountError], words: str) -> None:
    account_services.add_account("Kid", xerr=xerr)
    account_services.next_sign_in("Kid")
    with pytest.raises(error) as info:
        make_store().login(None, lambda code: None)
    assert words in str(info.value) and info.value.action and str(xerr) in info.value.detail


def test_an_unknown_xsts_code_names_it(account_services: AccountServices, make_store: StoreFactory) -> None:
    account_services.add_account("Odd", xerr=2148916239)
    account_services.next_sign_in("Odd")
    with pytest.raises(errors.ServiceFailed, match="XErr 2148916239"):
        make_store().login(None, lambda code: None)


def test_no_minecraft_licence(account_services: AccountServices, make_store: StoreFactory) -> None:
    account_services.add_account("Steve", owns_game=False)
    account_services.next_sign_in("Steve")
    with pytest.raises(errors.NoMinecraftLicence, match="does not own Minecraft: Java Edition"):
        make_store().login(None, lambda code: None)


def test_no_minecraft_profile_yet(account_services: AccountServices, make_store: StoreFactory) -> None:
    account_services.add_account("Steve", has_profile=False)
    account_services.next_sign_in("Steve")
    with pytest.raises(errors.NoMinecraftProfile, match="no Minecraft profile") as info:
        make_store().login(None, lambda code: None)
    assert "launcher" in info.value.action


def test_an_unapproved_app_registration(account_services: AccountServices, make_store: StoreFactory) -> None:
    account_services.add_account("Steve")
    account_services.next_sign_in("Steve")
    account_services.app_registration_rejected = True
    with pytest.raises(errors.AppNotApproved, match="not approved for Minecraft"):
        make_store().login(None, lambda code: None)


def test_a_client_id_microsoft_does_not_know(account_services: AccountServices, make_store: StoreFactory) -> None:
    account_services.add_account("Steve")
    account_services.next_sign_in("Steve")
    with pytest.raises(errors.AppNotApproved, match="unauthorized_client"):
        make_store(settings={"client_id": "0000000048000000"}).login(None, lambda code: None)



def test_no_network_names_the_host(account_services: AccountServices, make_store: StoreFactory, refused_port: int) -> None:
    dead = f"http://127.0.0.1:{refused_port}/oauth20_connect.srf"
    with pytest.raises(errors.ServiceUnreachable) as info:
        make_store(settings={"device_code_url": dead}).login(None, lambda code: None)
    assert "cannot reach Microsoft sign-in (127.0.0.1)" in str(info.value) and "network" in info.value.action
    assert "oauth20" not in str(info.value)


def test_a_service_that_does_not_answer_in_time(account_services: AccountServices, make_store: StoreFactory) -> None:
    account_services.add_account("Steve")
    account_services.next_sign_in("Steve")
    account_services.fail("xbox", Reply(delay=1.0))
    with pytest.raises(errors.ServiceUnreachable, match="Xbox Live .*no answer in time"):
        make_store(settings={"timeout_seconds": 0.2}).login(None, lambda code: None)


@pytest.mark.parametrize(("endpoint", "reply", "words"), [
    ("device_code", Reply(200, raw=b"<html>maintenance</html>"), "not an OAuth answer"),
    ("device_code", Reply(503, raw=b"<html>down</html>"), "not an OAuth answer"),
    ("token", Reply(503, raw=b"down"), "HTTP 503"),
    ("token", Reply(200, body=[1, 2]), "not an OAuth answer"),
    ("token", Reply(200, body={"token_type": "bearer"}), "without an access token"),
    ("xbox", Reply(500, raw=b"oops"), "HTTP 500"),
    ("xsts", Reply(200, body={"Token": "x"}), "without a token and user hash"),
    ("minecraft_login", Reply(200, raw=b"<html>"), "not JSON"),
    ("minecraft_login", Reply(429, body={"errorMessage": "Too many requests"}), "HTTP 429: Too many requests"),
    ("entitlements", Reply(200, body={"items": "many"}), "entitlements that make no sense"),
    ("profile", Reply(200, body={"id": "nope", "name": "Steve"}), "without a valid name and UUID"),
    ("profile", Reply(502), "HTTP 502"),
])
def test_a_service_answering_garbage_or_5xx(account_services: AccountServices, make_store: StoreFactory,
                                            endpoint: str, reply: Reply, words: str) -> None:
    account_services.add_account("Steve")
    account_services.next_sign_in("Steve")
    account_services.fail(endpoint, reply)
    with pytest.raises(errors.ServiceFailed) as info:
        make_store().login(None, lambda code: None)
    assert words in str(info.value) and "127.0.0.1" in str(info.value)


def test_an_azure_app_uses_d_tickets_and_the_v2_device_call(make_store: StoreFactory, fake_time: FakeTime) -> None:
    client_id = str(uuid.uuid4())
    with AccountServices(client_id=client_id, scope=AZURE_SCOPE) as services:
        services.add_account("Alex")
        services.next_sign_in("Alex", pending=1)
        with AccountStore(services.settings(), clock=fake_time.clock, sleep=fake_time.sleep) as store:
            assert store.settings.azure_app
            assert store.login(None, lambda code: None).name == "Alex"
        [device] = [r for r in services.requests if r.endpoint == "device_code"]
        assert "response_type" not in device.form and device.form["scope"] == "XboxLive.signin offline_access"
        [xbox] = [r for r in services.requests if r.endpoint == "xbox"]
        assert xbox.json["Properties"]["RpsTicket"].startswith("d=")


def test_the_account_key(account_services: AccountServices, make_store: StoreFactory) -> None:
    steve = account_services.add_account("Steve")
    store = make_store()
    account_services.next_sign_in("Steve")
    assert store.login("main", lambda code: None).account == "main"
    account_services.next_sign_in("Steve")
    # Signing the same player in again without --account keeps the key it has.
    assert store.login(None, lambda code: None).account == "main"
    assert [(a.account, a.name, a.uuid) for a in store.accounts()] == [("main", "Steve", steve.uuid)]
