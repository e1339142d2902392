"""The model service end to end: mineflayer → mcagent → flying-squid, with a scripted model server."""
from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.llm_server import ScriptedModelServer, tool_body
from tests.e2e.components import clicks

PARAPHRASE = "where in the world am i yeet"  # the local router is not sure (low score): it needs the model
KEY = "sk-e2e-0a1b2c3d4e5f60718293a4b5c6d7e8f9"


@pytest.fixture
def model() -> Iterator[ScriptedModelServer]:
    with ScriptedModelServer() as server:
        yield server


def coordinates(text: str) -> tuple[int, int, int]:
    found = re.search(r"at (-?[\d.]+), (-?[\d.]+), (-?[\d.]+)", text)
    assert found, text
    return tuple(math.floor(float(v)) for v in found.groups())  # type: ignore[return-value]


def test_a_paraphrase_goes_to_the_model_once_and_is_answered(
    squid_factory: Any, bot_factory: Any, proxy_factory: Any, model: ScriptedModelServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DEEPSEEK_API_KEY", KEY)
    model.push(tool_body("agent_position"))
    server = squid_factory("1.18.2")
    proxy = proxy_factory(server.port, llm={"base_url": model.base_url})
    bot = bot_factory(proxy.port, username="alice", version="1.18.2")
    server.wait_login("alice")
    pos = server.server_position("alice")

    mark = bot.mark()
    bot.chat(f"@ai {PARAPHRASE}")
    answer = bot.wait_chat("You are at", since=mark, timeout=15)["text"]
    assert coordinates(answer) == tuple(math.floor(v) for v in pos)
    assert len(model.requests) == 1
    sent = model.requests[0]
    assert sent["messages"][-1]["content"] == PARAPHRASE
    assert '"playerLanguage": "en"' in json.dumps(sent["messages"], ensure_ascii=False).replace('\\"', '"')

    # The model's read-only choice was cached: the same words again need no model call.
    mark = bot.mark()
    bot.chat(f"@ai {PARAPHRASE}")
    bot.wait_chat("You are at", since=mark, timeout=10)
    assert len(model.requests) == 1
    assert not any("@ai" in c for c in server.chats())
    assert KEY not in proxy.log_text()


def test_without_a_key_the_card_button_runs_the_read_only_operation(
    squid_factory: Any, bot_factory: Any, proxy_factory: Any, model: ScriptedModelServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("DEEPSEEK_API_KEY", raising=False)
    server = squid_factory("1.18.2")
    proxy = proxy_factory(server.port, llm={"base_url": model.base_url})
    bot = bot_factory(proxy.port, username="bob", version="1.18.2")
    server.wait_login("bob")
    pos = server.server_position("bob")

    mark = bot.mark()
    bot.chat(f"@ai {PARAPHRASE}")
    bot.wait_chat("no API key configured", since=mark, timeout=10)
    button = bot.wait_chat("[!pos]", since=mark, timeout=5)
    commands = clicks(button.get("json"))
    assert commands and commands[0].startswith("/agent card "), button
    assert "You are at" not in "\n".join(bot.chats(since=mark))  # nothing was chosen for the player

    mark = bot.mark()
    bot.chat(commands[0])  # what a click sends
    answer = bot.wait_chat("You are at", since=mark, timeout=10)["text"]
    assert coordinates(answer) == tuple(math.floor(v) for v in pos)
    assert model.requests == []
    assert not any("agent card" in c for c in server.chats() + server.commands())
