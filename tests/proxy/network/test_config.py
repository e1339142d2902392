"""The servers table in config/proxy.json: the one-entry upstream, names checked, errors naming field and file."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from proxy.config import ConfigError, ProxyConfig, load
from proxy.network.backends import Network


def _load(tmp_path: Path, raw: dict) -> ProxyConfig:
    path = tmp_path / "proxy.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return load(path)


def test_upstream_alone_is_a_network_of_one(tmp_path: Path) -> None:
    config = _load(tmp_path, {"upstream": {"host": "10.0.0.2", "port": 25570}})
    network = Network(config)
    assert [(b.name, b.address) for b in network.backends.values()] == [("upstream", "10.0.0.2:25570")]
    assert [b.name for b in network.landing("anything")] == ["upstream"]


def test_servers_try_and_forced_hosts(tmp_path: Path) -> None:
    config = _load(tmp_path, {
        "servers": {"lobby": "127.0.0.1:25565", "survival": {"address": "[::1]:25570", "allow": ["Bob", "@admins"]}},
        "try": ["lobby", "survival"], "forced_hosts": {"Survival.Example.com": ["survival"]}})
    network = Network(config)
    assert network.backends["survival"].host == "::1" and network.backends["survival"].port == 25570
    assert [b.name for b in network.landing("play.example.com")] == ["lobby", "survival"]
    assert [b.name for b in network.landing("survival.example.com.")] == ["survival"]  # trailing dot, case
    assert [b.name for b in network.landing("survival.example.com\0FML\0")] == ["survival"]
    assert network.may_use(network.backends["survival"], "bob", False)
    assert not network.may_use(network.backends["survival"], "alice", False)
    assert network.may_use(network.backends["survival"], "alice", True)


def test_try_defaults_to_every_server_in_order(tmp_path: Path) -> None:
    config = _load(tmp_path, {"servers": {"b": "h:1", "a": "h:2"}})
    assert [b.name for b in Network(config).landing("")] == ["b", "a"]


@pytest.mark.parametrize(("raw", "says"), [
    ({"servers": {"lobby": "nohost"}}, "field 'servers.lobby.address' = \"nohost\""),
    ({"servers": {"lobby": "h:70000"}}, "servers.lobby.address"),
    ({"servers": {"lobby": "h:1"}, "try": ["survival"]}, "try names 'survival', which is not one of servers (lobby)"),
    ({"servers": {"lobby": "h:1"}, "forced_hosts": {"x.org": ["nope"]}}, "forced_hosts.x.org names 'nope'"),
    ({"servers": {"lobby": "h:1"}, "upstream": {"port": 25570}}, "set upstream (one server) or servers"),
    ({"try": ["lobby"]}, "define them in servers"),
    ({"servers": {"bad name": "h:1"}}, "servers: the name 'bad name'"),
    ({"servers": {"lobby": "h:1"}, "transfers": "maybe"}, "field 'transfers'"),
])
def test_bad_network_config_names_the_field_and_the_file(tmp_path: Path, raw: dict, says: str) -> None:
    with pytest.raises(ConfigError) as caught:
        _load(tmp_path, raw)
    assert str(tmp_path / "proxy.json") in str(caught.value)
    assert says in str(caught.value)


def test_per_backend_forwarding_secret_never_in_errors_or_repr(tmp_path: Path) -> None:
    secret = "per-backend-s3cret-value"
    raw = {"servers": {"lobby": "h:1", "survival": {"address": "h:2", "forwarding": {"mode": "velocity",
                                                                                      "secret": secret}}},
           "try": ["lobby"]}
    network = Network(_load(tmp_path, raw))
    assert network.backends["survival"].forwarding.mode == "velocity"
    assert network.backends["lobby"].forwarding.mode == "none"  # the top-level forwarding
    assert secret not in repr(network.backends) and secret not in repr(network.backends["survival"].forwarding)
    raw["servers"]["survival"]["allow"] = 3  # any error in the same file
    with pytest.raises(ConfigError) as caught:
        _load(tmp_path, raw)
    assert secret not in str(caught.value)
