"""In offline mode a name proves nothing: a listed admin logs in with the admin secret once per
session; the line is swallowed, never forwarded, and wrong secrets back off per name."""
from __future__ import annotations

from typing import Any

import pytest

from engine.assistant import AssistantRuntime
from engine.routing.config import default_config
from proxy.operations.cli import admin_warnings
from proxy.config import ProxyConfig
from proxy.testing import build_packet
from tests.proxy.harness import Rig

SECRET = "open-sesame-42"


def _rig(name: str = "root", **config: Any) -> Rig:
    config.setdefault("admins", ["Root"])
    config.setdefault("admin_secret", SECRET)
    runtime = AssistantRuntime(default_config())
    rig = Rig("1.18.2", assistant_factory=lambda bridge: runtime.new_assistant(), login_rate_limit_seconds=0, **config)
    rig.login(name)
    rig.client.received()
    return rig


def _say(rig: Rig, text: str) -> list[str]:
    rig.client_send(build_packet(rig.codec, "play", "toServer", "chat", message=text))
    return rig.chat_texts(rig.client.received())


def test_a_name_alone_is_not_an_admin_in_offline_mode() -> None:
    rig = _rig()
    answer = " ".join(_say(rig, "!system sessions")).lower()
    assert "not permitted yet" in answer and "!admin login" in answer
    assert rig.bridge.session.admin is False


def test_the_admin_secret_makes_this_session_an_admin_and_is_never_forwarded() -> None:
    rig = _rig()
    assert "refused" in " ".join(_say(rig, "!admin login guess"))
    assert "accepted" in " ".join(_say(rig, f"!admin login {SECRET}"))
    answer = " ".join(_say(rig, "!system sessions"))
    assert "not permitted" not in answer
    assert rig.bridge.session.admin
    assert rig.upstream.received() == []  # neither the guess nor the secret reached the server
    assert all(SECRET not in line for line in _say(rig, f"/agent admin login {SECRET}"))
    assert rig.upstream.received() == []


def test_the_secret_after_at_ai_is_the_command_not_a_question_for_the_model() -> None:
    rig = _rig()
    answer = " ".join(_say(rig, f"@ai admin login {SECRET}"))
    assert "accepted" in answer and rig.bridge.session.admin
    assert rig.upstream.received() == []


def test_a_right_secret_from_a_name_not_listed_is_refused() -> None:
    rig = _rig("mallory")
    assert "refused" in " ".join(_say(rig, f"!admin login {SECRET}"))
    assert "not permitted:" in " ".join(_say(rig, "!system sessions")).lower()


def test_wrong_secrets_back_off_per_name_across_reconnects() -> None:
    rig = _rig()
    for _ in range(3):
        _say(rig, "!admin login nope")
    assert "Wait 2 s" in " ".join(_say(rig, "!admin login nope"))
    rig.leg.transport.loseConnection()
    rig.leg.connectionLost(None)
    second = rig.another()
    second.login("ROOT", port=50001)
    second.client.received()
    answer = " ".join(_say(second, f"!admin login {SECRET}"))  # even the right one, while locked
    assert "Too many wrong admin secrets" in answer and not second.bridge.session.admin
    rig.reactor.advance(2.0)
    assert "accepted" in " ".join(_say(second, f"!admin login {SECRET}"))


def test_online_mode_trusts_the_verified_name() -> None:
    rig = Rig("1.18.2", admins=["root"], online_mode=True)
    assert rig.server.is_admin("Root") and rig.server.admin_proof("root") is None
    assert not rig.server.is_admin("alice")


@pytest.mark.parametrize("config,expected", [
    ({"admins": ["root"]}, 2), ({"admins": ["root"], "admin_secret": "x"}, 1),
    ({"admins": ["root"], "online_mode": True}, 0), ({}, 0)])
def test_the_owner_is_warned_about_admins_in_offline_mode(config: dict[str, Any], expected: int,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MCAGENT_ADMIN_SECRET", raising=False)
    warnings = admin_warnings(ProxyConfig(**config))
    assert len(warnings) == expected
    if expected:
        assert "offline mode" in warnings[0]
