"""``mcagent login``, ``mcagent accounts`` and ``mcagent logout`` end to end, against the local services."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from proxy.operations.cli import main
from tests.account_services import XERR_CHILD, AccountServices


@pytest.fixture
def config(account_services: AccountServices, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MCAGENT_ACCOUNTS_FILE", str(tmp_path / "cache" / "accounts.json"))
    path = tmp_path / "proxy.json"
    path.write_text(json.dumps({"accounts": account_services.config_section()}))
    return path


def test_login_accounts_logout(account_services: AccountServices, config: Path, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    cache = tmp_path / "cache" / "accounts.json"
    steve = account_services.add_account("Steve")
    account_services.next_sign_in("Steve", pending=1)  # one real second of polling
    assert main(["login", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "https://www.microsoft.com/link" in out and "enter the code" in out
    assert f"Signed in as Steve ({steve.uuid}); tokens saved in {cache}" in out

    assert main(["accounts", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert f"Account cache: {cache}" in out and f"Steve  {steve.uuid}  Minecraft token valid until" in out

    assert main(["logout", "Steve", "--config", str(config)]) == 0
    assert f"Signed out Steve: its tokens are removed from {cache}" in capsys.readouterr().out
    assert main(["logout", "Steve", "--config", str(config)]) == 1
    assert "no account 'Steve'" in capsys.readouterr().err
    assert main(["accounts", "--config", str(config)]) == 0
    assert "No accounts signed in; run `mcagent login`." in capsys.readouterr().out


def test_login_under_another_key(account_services: AccountServices, config: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    account_services.add_account("Steve")
    account_services.next_sign_in("Steve")
    assert main(["login", "--account", "main", "--config", str(config)]) == 0
    assert "as account 'main'" in capsys.readouterr().out
    assert main(["accounts", "--config", str(config)]) == 0
    assert "  main (Steve)  " in capsys.readouterr().out


def test_a_failed_login_says_why_and_what_to_do(account_services: AccountServices, config: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    account_services.add_account("Kid", xerr=XERR_CHILD)
    account_services.next_sign_in("Kid")
    assert main(["login", "--config", str(config)]) == 1
    err = capsys.readouterr().err
    assert "mcagent: sign-in failed: this is a child account" in err
    assert "what to do: an adult must add it to a Microsoft family" in err


def test_a_corrupt_cache_is_reported_by_accounts(config: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    cache = tmp_path / "cache" / "accounts.json"
    cache.parent.mkdir()
    cache.write_text("{")
    assert main(["accounts", "--config", str(config)]) == 1
    assert f"the account cache {cache} is not valid JSON" in capsys.readouterr().err
    assert cache.read_text() == "{"


def test_a_bad_config_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "proxy.json"
    path.write_text(json.dumps({"accounts": {"token_url": "nope"}}))
    assert main(["accounts", "--config", str(path)]) == 2
    assert "accounts.token_url" in capsys.readouterr().err
