"""The ``accounts`` config section: the launcher's defaults, bad values named with the file, where the cache lives."""
from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from proxy.accounts.settings import AccountSettings, cache_path, default_cache_path
from proxy.config import ConfigError, ProxyConfig, load


def test_defaults_are_the_launchers_live_com_flow() -> None:
    settings = ProxyConfig().accounts
    assert settings == AccountSettings()
    assert (settings.client_id, settings.scope) == ("00000000402b5328", "service::user.auth.xboxlive.com::MBI_SSL")
    assert settings.device_code_url == "https://login.live.com/oauth20_connect.srf"
    assert settings.token_url == "https://login.live.com/oauth20_token.srf"
    assert settings.xsts_url == "https://xsts.auth.xboxlive.com/xsts/authorize"
    assert not settings.azure_app and settings.rps_ticket_prefix == "t="
    assert settings.refresh_margin_seconds == 600


def test_a_uuid_client_id_is_an_azure_app() -> None:
    settings = AccountSettings(client_id=str(uuid.uuid4()), scope="XboxLive.signin offline_access")
    assert settings.azure_app and settings.rps_ticket_prefix == "d=" and settings.scopes == ["XboxLive.signin",
                                                                                             "offline_access"]


@pytest.mark.parametrize(("section", "field"), [
    ({"xsts_url": "ftp://example.com"}, "accounts.xsts_url"),
    ({"timeout_seconds": 0}, "accounts.timeout_seconds"),
    ({"client_id": "two words"}, "accounts.client_id"),
    ({"profil_url": "https://x"}, "accounts.profil_url"),
])
def test_a_bad_value_names_the_file_and_the_field(tmp_path: Path, section: dict[str, object], field: str) -> None:
    path = tmp_path / "proxy.json"
    path.write_text(json.dumps({"accounts": section}))
    with pytest.raises(ConfigError) as info:
        load(path)
    assert str(path) in str(info.value) and f"'{field}'" in str(info.value)


def test_the_cache_path(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert default_cache_path({}, home=home) == home / ".config" / "mcagent" / "accounts.json"
    assert default_cache_path({"XDG_CONFIG_HOME": "relative"}, home=home) == home / ".config/mcagent/accounts.json"
    assert default_cache_path({"XDG_CONFIG_HOME": "/xdg"}) == Path("/xdg/mcagent/accounts.json")
    chosen = AccountSettings(cache_file="~/tokens.json")
    assert cache_path(chosen, {"XDG_CONFIG_HOME": "/xdg"}) == Path("~/tokens.json").expanduser()
    assert cache_path(chosen, {"MCAGENT_ACCOUNTS_FILE": "/env/a.json"}) == Path("/env/a.json")
    assert cache_path(AccountSettings(), {"XDG_CONFIG_HOME": "/xdg"}) == Path("/xdg/mcagent/accounts.json")


def test_the_default_cache_is_outside_the_repository() -> None:
    root = Path(__file__).resolve().parents[3]
    assert root not in default_cache_path().resolve().parents
