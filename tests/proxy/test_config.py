"""Config validation: a bad file names the file, the field and the value, and the CLI exits non-zero."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from proxy.config import ConfigError, ProxyConfig, load, parse_address

ROOT = Path(__file__).resolve().parents[2]


def test_shipped_config_is_valid_and_default() -> None:
    assert load(ROOT / "config" / "proxy.json") == ProxyConfig()


def test_bad_field_names_file_field_and_value(tmp_path: Path) -> None:
    path = tmp_path / "proxy.json"
    path.write_text(json.dumps({"upstream": {"host": "127.0.0.1", "port": 70000}}))
    with pytest.raises(ConfigError) as info:
        load(path)
    text = str(info.value)
    assert str(path) in text and "upstream.port" in text and "70000" in text


def test_unknown_field_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "proxy.json"
    path.write_text(json.dumps({"max_player": 5}))
    with pytest.raises(ConfigError, match="max_player"):
        load(path)


def test_invalid_json_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "proxy.json"
    path.write_text('{\n  "online_mode": tru\n}')
    with pytest.raises(ConfigError, match="line 2"):
        load(path)


def test_cli_exits_non_zero_on_bad_config(tmp_path: Path) -> None:
    path = tmp_path / "proxy.json"
    path.write_text(json.dumps({"max_players": -1}))
    result = subprocess.run([sys.executable, "-m", "proxy.operations.cli", "run", "--config", str(path)],
                            capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 2
    assert "max_players" in result.stderr and "-1" in result.stderr and str(path) in result.stderr


def test_address_flags() -> None:
    assert parse_address("0.0.0.0:1234").port == 1234
    assert parse_address("25570").host == "127.0.0.1"
    with pytest.raises(ConfigError):
        parse_address("host:notaport")


def test_an_account_login_never_listens_beyond_loopback_with_an_offline_client_leg(tmp_path: Path) -> None:
    from proxy.config import ConfigError, load

    microsoft = {"upstream_auth": {"mode": "microsoft", "account": "main"}}
    path = tmp_path / "proxy.json"
    path.write_text(json.dumps({**microsoft, "listen": {"host": "0.0.0.0", "port": 25566}}))
    with pytest.raises(ConfigError, match="anyone who reaches 0.0.0.0:25566 play as the account"):
        load(path)
    path.write_text(json.dumps({**microsoft, "listen": {"host": "0.0.0.0", "port": 25566}, "online_mode": True}))
    load(path)  # online mode proves who the client is
    path.write_text(json.dumps(microsoft))
    load(path)
    # An address given on the command line is held to the same rule.
    result = subprocess.run([sys.executable, "-m", "proxy.operations.cli", "run", "--config", str(path), "--listen",
                             "0.0.0.0:25566", "--no-console"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "play as the account" in result.stderr


def test_an_account_login_and_forwarding_cannot_be_combined(tmp_path: Path) -> None:
    from proxy.config import ConfigError, load

    path = tmp_path / "proxy.json"
    path.write_text(json.dumps({"upstream_auth": {"mode": "microsoft", "account": "main"},
                                "forwarding": {"mode": "legacy"}}))
    with pytest.raises(ConfigError, match="cannot be combined"):
        load(path)
    path.write_text(json.dumps({"upstream_auth": {"mode": "microsoft"}}))
    with pytest.raises(ConfigError, match="needs the account's name"):
        load(path)


def test_a_rule_across_fields_never_prints_the_files_secrets(tmp_path: Path) -> None:
    # The rules across sections (an account login with forwarding, or listening beyond
    # loopback) are errors of the whole file: none of its secrets may ride along.
    from proxy.config import ConfigError, load

    secrets = {"llm": {"api_key": "sk-llm-secret-1"}, "console": {"port": 9, "token": "console-secret-2"},
               "admin_secret": "admin-secret-3"}
    microsoft = {"upstream_auth": {"mode": "microsoft", "account": "main"}}
    bad = [
        {**secrets, **microsoft, "forwarding": {"mode": "velocity", "secret": "forwarding-secret-4"}},
        {**secrets, **microsoft, "listen": {"host": "0.0.0.0", "port": 25566}},
    ]
    for raw in bad:
        path = tmp_path / "proxy.json"
        path.write_text(json.dumps(raw))
        with pytest.raises(ConfigError) as err:
            load(path)
        text = str(err.value)
        assert str(path) in text
        for secret in ("sk-llm-secret-1", "console-secret-2", "admin-secret-3", "forwarding-secret-4"):
            assert secret not in text, text


def test_nested_secrets_are_hidden_and_urls_shown(tmp_path: Path) -> None:
    from proxy.config import ConfigError, load

    path = tmp_path / "proxy.json"
    path.write_text(json.dumps({"llm": {"api_key": "sk-nested-secret", "timeout_seconds": "soon"}}))
    with pytest.raises(ConfigError) as err:
        load(path)
    assert "llm.timeout_seconds" in str(err.value) and "sk-nested-secret" not in str(err.value)
    path.write_text(json.dumps({"accounts": {"token_url": 7}}))
    with pytest.raises(ConfigError) as err:
        load(path)
    assert "accounts.token_url" in str(err.value) and "= 7" in str(err.value)  # where a token comes from is no secret
