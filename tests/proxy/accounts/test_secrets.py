"""Invariant 8 for accounts: no access, refresh, Xbox or XSTS token in a log line, an error, a repr or CLI output."""
from __future__ import annotations

import json
import traceback
from pathlib import Path
from typing import Any

import pytest
from twisted.logger import Logger, formatEvent

from proxy.accounts.errors import AccountError, ServiceFailed, ServiceUnreachable, SignInExpired
from proxy.accounts.microsoft import DeviceCode
from proxy.operations.cli import main
from proxy.operations.log_redaction import RedactingObserver
from tests.account_services import AccountServices, Reply
from tests.proxy.accounts.conftest import FakeTime, StoreFactory


def _failure_texts(exc: AccountError) -> list[str]:
    return [str(exc), repr(exc), exc.message, exc.action, exc.detail, "".join(traceback.format_exception(exc))]



def test_no_token_leaves_in_text_after_login_refresh_and_failures(
        account_services: AccountServices, make_store: StoreFactory, fake_time: FakeTime, cache_file: Path,
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], refused_port: int) -> None:
    lines: list[dict[str, Any]] = []  # the store's own log lines, with no redaction in front
    texts: list[str] = []
    learned: list[str] = []
    store = make_store(log=Logger(namespace="mcagent.accounts", observer=lines.append), on_secret=learned.append)

    # A sign-in, then a refresh.
    account_services.add_account("Steve")
    account_services.next_sign_in("Steve", pending=1)
    shown: list[DeviceCode] = []
    session = store.login(None, shown.append)
    fake_time.now = session.expires_at
    refreshed = store.session("Steve")
    assert refreshed.access_token != session.access_token
    texts += [repr(session), str(session), repr(refreshed), repr(shown), repr(store.accounts()), repr(store.settings)]

    # Services that echo the tokens they were sent into their error text.
    fake_time.now = refreshed.expires_at
    account_services.fail("minecraft_login", Reply(400, body=lambda r: {
        "errorMessage": f"bad identity {r.json['identityToken']}"}))
    with pytest.raises(ServiceFailed) as echoed:
        store.session("Steve")
    assert "bad identity XBL3.0 x=" in str(echoed.value)  # quoted, with the token cut out
    texts += _failure_texts(echoed.value)
    account_services.clear_failures()
    account_services.fail("token", Reply(400, body=lambda r: {
        "error": "temporarily_unavailable", "error_description": f"cannot use {r.form['refresh_token']} now"}))
    with pytest.raises(ServiceFailed) as described:
        store.session("Steve")
    assert "cannot use … now" in str(described.value)
    texts += _failure_texts(described.value)
    account_services.clear_failures()

    # No network, to a URL whose query holds something secret-looking.
    dead = make_store(settings={"profile_url": f"http://127.0.0.1:{refused_port}/minecraft/profile?key=sk-query"},
                      log=Logger(namespace="mcagent.accounts", observer=lines.append), on_secret=learned.append)
    account_services.next_sign_in("Steve")
    with pytest.raises(ServiceUnreachable) as offline:
        dead.login("other", lambda code: None)
    assert "sk-query" not in str(offline.value)
    texts += _failure_texts(offline.value)

    # A revoked refresh token.
    account_services.revoke_refresh_tokens("Steve")
    with pytest.raises(SignInExpired) as revoked:
        store.session("Steve")
    texts += _failure_texts(revoked.value)
    texts += [formatEvent(event) for event in lines]
    # Every token the stores saw went to on_secret (before anything could log it).
    assert account_services.issued <= set(learned)

    # The CLI: a login, the listing, a failure.
    monkeypatch.setenv("MCAGENT_ACCOUNTS_FILE", str(cache_file))
    config = tmp_path / "proxy.json"
    config.write_text(json.dumps({"accounts": account_services.config_section()}))
    account_services.next_sign_in("Steve")
    assert main(["login", "--config", str(config)]) == 0
    assert main(["accounts", "--config", str(config)]) == 0
    account_services.fail("xsts", Reply(400, body=lambda r: {"echo": r.json}))
    account_services.next_sign_in("Steve")
    assert main(["login", "--config", str(config)]) == 1
    captured = capsys.readouterr()
    texts += [captured.out, captured.err]

    tokens = account_services.issued
    assert len({t.split("-")[0] for t in tokens}) == 4  # msa, xbl, xsts, mc: every kind was issued
    for text in texts:
        for token in tokens:
            assert token not in text, f"a token in: {text[:200]}"


def test_the_log_redaction_learns_every_token_the_store_learns(account_services: AccountServices,
                                                               make_store: StoreFactory,
                                                               fake_time: FakeTime) -> None:
    seen: list[dict[str, Any]] = []
    observer = RedactingObserver([seen.append])
    store = make_store(on_secret=observer.add_secret)
    account_services.add_account("Steve")
    account_services.next_sign_in("Steve")
    first = store.login(None, lambda code: None)
    fake_time.now = first.expires_at
    store.session("Steve")
    log = Logger(namespace="elsewhere", observer=observer)
    for token in sorted(account_services.issued):
        log.info("a careless line: {value!r} {json}", value=token, json=json.dumps({"t": token}))
    assert len(seen) == len(account_services.issued) >= 10
    for event in seen:
        text = formatEvent(event)
        assert not any(token in text for token in account_services.issued) and "…" in text


def test_secrets_lists_what_the_cache_holds(account_services: AccountServices, make_store: StoreFactory) -> None:
    store = make_store()
    account_services.add_account("Steve")
    account_services.next_sign_in("Steve")
    session = store.login(None, lambda code: None)
    assert session.access_token in store.secrets() and len(store.secrets()) == 2


def test_every_value_holding_a_token_hides_it_from_repr() -> None:
    import uuid

    from proxy.accounts.cache import CachedAccount
    from proxy.accounts.microsoft import MicrosoftTokens
    from proxy.accounts.minecraft_services import MinecraftToken
    from proxy.accounts.store import MinecraftSession
    from proxy.accounts.xbox import XboxToken

    values = [XboxToken("tok-xbl", "uhs"), MinecraftToken("tok-mc", 1.0), MicrosoftTokens("tok-at", "tok-rt"),
              CachedAccount("Steve", uuid.uuid4(), "cid", "tok-rt", "tok-mc", 1.0, 1.0),
              MinecraftSession("Steve", "Steve", uuid.uuid4(), "tok-mc", 1.0)]
    for value in values:
        assert "tok-" not in repr(value) and "tok-" not in str(value)
