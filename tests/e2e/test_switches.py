"""Issue 14's switches end to end: mineflayer → mcagent → flying-squid, with a scripted model server.

One of each kind: a player's switch (``!history off``, ``!memory clear``), the owner's switch
(``!system routing mode shadow``, for a logged-in admin only) and a typed notification button
("yes" to a model-proposed goto card; "yes" with no card is ordinary chat for the server).
Issue 23: an option of the not-sure card and an inbox notice's button picked by typing their
names as ordinary chat, and ``!ai off`` / ``on`` forgetting what was remembered.
"""
from __future__ import annotations

import math
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.llm_server import ScriptedModelServer, tool_body

PARAPHRASE = "where in the world am i yeet"  # the local router is not sure: it needs the model
DIRECT = "where am i"                   # the local router answers this itself in ENFORCE mode
KEY = "sk-e2e-5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d"


@pytest.fixture
def model() -> Iterator[ScriptedModelServer]:
    with ScriptedModelServer(default=None) as server:
        yield server


def ask(bot: Any, line: str, expect: str, timeout: float = 15) -> str:
    mark = bot.mark()
    bot.chat(line)
    return str(bot.wait_chat(expect, since=mark, timeout=timeout)["text"])


def test_history_off_costs_a_model_call_again_and_memory_clear_and_ai_off_forget(
    squid_factory: Any, bot_factory: Any, proxy_factory: Any, model: ScriptedModelServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DEEPSEEK_API_KEY", KEY)
    model.push(*[tool_body("agent_position")] * 6)
    server = squid_factory("1.18.2")
    proxy = proxy_factory(server.port, llm={"base_url": model.base_url})
    bot = bot_factory(proxy.port, username="alice", version="1.18.2")
    server.wait_login("alice")

    ask(bot, "!history off", "History is off")
    ask(bot, f"@ai {PARAPHRASE}", "You are at")
    ask(bot, f"@ai {PARAPHRASE}", "You are at")
    assert len(model.requests) == 2  # nothing remembered: the same question asked the model twice

    ask(bot, "/agent history on", "History is on")
    ask(bot, f"@ai {PARAPHRASE}", "You are at")
    ask(bot, f"@ai {PARAPHRASE}", "You are at")
    assert len(model.requests) == 3  # remembered: the repeat needed no model call

    ask(bot, "!memory clear", "Memory cleared")
    ask(bot, f"@ai {PARAPHRASE}", "You are at")
    assert len(model.requests) == 4  # forgotten: the model is asked again

    # Issue 23: !ai off and on again is a preference change, which forgets what was remembered.
    ask(bot, f"@ai {PARAPHRASE}", "You are at")
    assert len(model.requests) == 4  # remembered again
    ask(bot, "!ai off", "External AI is off")
    ask(bot, "!ai on", "External AI is on")
    ask(bot, f"@ai {PARAPHRASE}", "You are at")
    assert len(model.requests) == 5  # forgotten: the repeat costs a model call again
    ask(bot, f"@ai {PARAPHRASE}", "You are at")
    assert len(model.requests) == 5  # remembered again
    ask(bot, "!mode extended", "Conversation mode is now extended")
    ask(bot, "!mode standard", "Conversation mode is now standard")
    ask(bot, f"@ai {PARAPHRASE}", "You are at")
    assert len(model.requests) == 6  # a mode change is a preference change: forgotten too

    help_text = "\n".join(bot.chats(since=0))
    mark = bot.mark()
    bot.chat("!help")
    bot.wait_chat("!history on|off|status", since=mark)
    assert "!memory clear" in "\n".join(bot.chats(since=mark)) and help_text
    said = server.chats() + server.commands()
    assert not any(w in c for c in said for w in ("!history", "!memory", "agent history", "@ai", "!help"))


def test_routing_mode_is_switched_in_game_by_a_logged_in_admin_only(
    squid_factory: Any, bot_factory: Any, proxy_factory: Any, model: ScriptedModelServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DEEPSEEK_API_KEY", KEY)
    model.push(tool_body("agent_position"))
    server = squid_factory("1.18.2")
    proxy = proxy_factory(server.port, llm={"base_url": model.base_url}, admins=["alice"],
                          admin_secret="alice-secret")
    alice = bot_factory(proxy.port, username="alice", version="1.18.2")
    server.wait_login("alice")
    bob = bot_factory(proxy.port, username="bob", version="1.18.2")
    server.wait_login("bob")

    ask(bob, f"@ai {DIRECT}", "You are at")
    assert model.requests == []  # ENFORCE: answered locally
    ask(bob, "!system routing mode shadow", "Not permitted")
    ask(alice, "!system routing mode shadow", "Not permitted yet")  # a listed admin who has not proved it
    ask(bob, f"@ai {DIRECT}", "You are at")
    assert model.requests == []  # the refusals changed nothing

    ask(alice, "!admin login alice-secret", "Admin login accepted")
    ask(alice, "!system routing mode shadow", "routing mode is now SHADOW")
    ask(bob, f"@ai {DIRECT}", "You are at")
    assert len(model.requests) == 1  # SHADOW: no local direct answer, the model was asked
    assert "mode SHADOW" in ask(alice, "!system routing", "routing: algorithm")
    ask(alice, "/agent system routing mode enforce", "routing mode is now ENFORCE")
    assert not any("secret" in c or "routing" in c for c in server.chats() + server.commands())


def test_typed_yes_confirms_the_visible_goto_card_and_is_chat_otherwise(
    squid_factory: Any, bot_factory: Any, proxy_factory: Any, model: ScriptedModelServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DEEPSEEK_API_KEY", KEY)
    server = squid_factory("1.18.2", view_distance=4)
    proxy = proxy_factory(server.port, llm={"base_url": model.base_url})
    bot = bot_factory(proxy.port, username="carol", version="1.18.2")
    server.wait_login("carol")
    time.sleep(1.0)  # the chunks around the player arrive
    pos = server.server_position("carol")
    x, y, z = math.floor(pos.x), math.floor(pos.y), math.floor(pos.z) + 3
    model.push(tool_body("agent_goto", {"x": x, "y": y, "z": z}))

    card = ask(bot, "@ai please bring me over there, three blocks ahead", "The model suggests")
    assert f"!goto {x} {y} {z}" in card and "Nothing was done yet" in card
    went = ask(bot, "yes", "Going to")
    assert f"{x} {y} {z}" in went
    bot.wait_chat("goto", since=bot.mark(), timeout=30)  # it ran: the walk ends (arrived) and says so

    # No card visible now: "yes" is ordinary chat, and the server receives it as typed.
    mark = server.mark()
    bot.chat("yes")
    server.wait_chat("yes", player="carol", since=mark, timeout=10)
    assert server.chats(player="carol").count("yes") == 1  # the answer never reached the server
    assert len(model.requests) == 1


def test_typed_names_pick_a_cards_option_and_a_notices_button_and_other_chat_reaches_the_server(
    squid_factory: Any, bot_factory: Any, proxy_factory: Any, model: ScriptedModelServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("DEEPSEEK_API_KEY", raising=False)  # no key: the not-sure card, and no model call
    server = squid_factory("1.18.2")
    proxy = proxy_factory(server.port, llm={"base_url": model.base_url})
    bot = bot_factory(proxy.port, username="dora", version="1.18.2")
    server.wait_login("dora")

    ask(bot, "@ai what do i carry on my trip", "1. !inv - held item and inventory")
    mark = server.mark()
    bot.chat("hello there")  # no option's name: ordinary chat, for the server
    server.wait_chat("hello there", player="dora", since=mark)
    ask(bot, "inventory", "Your inventory")  # the option's name: its module answers
    mark = server.mark()
    bot.chat("inventory")  # the card was used: now it is ordinary chat
    server.wait_chat("inventory", player="dora", since=mark)
    assert server.chats(player="dora").count("inventory") == 1

    # A private message is kept in the inbox and shown as a notice with buttons; typing one acts.
    whisper = {"translate": "commands.message.display.incoming", "with": ["dave", "meet me at the well"]}
    mark = bot.mark()
    server.say(json_component=whisper, to="dora")
    bot.wait_chat("New message kept in your inbox", since=mark)
    mark = bot.mark()
    bot.chat("open inbox")
    assert "1 new" in bot.wait_chat("Inbox: 1 message(s)", since=mark)["text"]
    bot.wait_chat("meet me at the well", since=mark)
    assert "open inbox" not in server.chats(player="dora") and model.requests == []

