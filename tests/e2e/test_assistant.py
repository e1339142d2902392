"""The assistant through the real proxy: local routing answers with live state."""
from __future__ import annotations

import re

import pytest

from tests.e2e.matrix import NEW_VERSIONS, proxied


@pytest.mark.parametrize("version", proxied("1.18.2", *NEW_VERSIONS))
def test_assistant_answers_position_and_refuses_writes(version: str, server_factory, bot_factory,
                                                       proxy_factory) -> None:
    server = server_factory(version)
    proxy = proxy_factory(server.port, admins=["root"], admin_secret="root-secret")
    bot = bot_factory(proxy.port, username="root", version=version)
    server.wait_login("root")
    pos = server.server_position("root")

    mark = bot.mark()
    bot.chat("@ai where am I")
    reply = bot.wait_chat("You are at", since=mark)["text"]
    # The proxy prints whole blocks as integers and others with decimals (a world server
    # spawns players at block centres, 0.5).
    x, y, z = re.search(r"at (-?[\d.]+), (-?[\d.]+), (-?[\d.]+)", reply).groups()
    assert pos.distance((float(x), float(y), float(z))) < 0.1, (reply, pos)

    mark = bot.mark()
    bot.chat("@ai 我在哪")
    zh = bot.wait_chat("你在", since=mark)["text"]
    assert f"{x}, {y}, {z}" in zh

    # A write is never done from similarity: no movement, an explicit command is suggested.
    mark = bot.mark()
    bot.chat("@ai take me to 10 64 10")
    bot.wait_chat("!goto 10 64 10", since=mark)
    after = server.server_position("root")
    assert after.distance(pos) < 0.01

    # Admin diagnostics carry counters and no player text (offline mode: the admin logs in first).
    mark = bot.mark()
    bot.chat("!admin login root-secret")
    bot.wait_chat("Admin login accepted", since=mark)
    mark = bot.mark()
    bot.chat("!system routing")
    bot.wait_chat("counters:", since=mark)
    diagnostics = "\n".join(bot.chats(since=mark))
    assert "lexical-tfidf-v1" in diagnostics and "DIRECT" in diagnostics
    assert "where am I" not in diagnostics and "take me" not in diagnostics and "我在哪" not in diagnostics

    # Ordinary chat still reaches the server unchanged, and no @ai line ever did.
    bot.chat("just chatting, where am I?")
    server.wait_chat("just chatting, where am I?", player="root")
    assert not any("@ai" in c for c in server.chats())
