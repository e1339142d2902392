"""Issue 23: an extension module's label, as real clients in English and Chinese see it.

mineflayer → mcagent (with the example extension ``mcagent-origin`` installed as pip would
leave it) → flying-squid, no model key: a line nothing matches gets the not-sure card, whose
options include the extension's shortcut in the player's language (its ``en``/``zh`` text,
never the raw label key; the language is the line's, as for every reply), and typing that
text as ordinary chat picks it.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from engine.modules.extensions import GROUP
from tests.e2e.components import hovers

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "mcagent-origin"
RAW_KEY = "example.origin"


def card_labels(bot: Any, line: str) -> list[str]:
    """The options of the card ``line`` gets, as their buttons' hover texts."""
    mark = bot.mark()
    bot.chat(line)
    buttons = bot.wait_chat("[!origin]", since=mark, timeout=15)
    return hovers(buttons.get("json"))


def ask(bot: Any, line: str, expect: str, timeout: float = 15) -> str:
    mark = bot.mark()
    bot.chat(line)
    bot.wait_chat(expect, since=mark, timeout=timeout)
    return "\n".join(bot.chats(since=mark))


def test_an_extensions_label_is_shown_in_the_clients_language_and_typing_it_picks_it(
    tmp_path: Path, squid_factory: Any, bot_factory: Any, proxy_factory: Any, monkeypatch: pytest.MonkeyPatch,
) -> None:
    info = tmp_path / "mcagent_origin-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mcagent-origin\nVersion: 0.1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\norigin = mcagent_origin:OriginModule\n", encoding="utf-8")
    paths = [str(tmp_path), str(EXAMPLE), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in paths if p))
    monkeypatch.delenv("DEEPSEEK_API_KEY", raising=False)
    server = squid_factory("1.18.2")
    proxy = proxy_factory(server.port)
    assert "example:origin" in proxy.wait_log("extension origin: modules")
    english = bot_factory(proxy.port, username="erin", version="1.18.2")
    chinese = bot_factory(proxy.port, username="zhou", version="1.18.2", locale="zh_cn")
    server.wait_login("erin")
    server.wait_login("zhou")

    labels = card_labels(english, "@ai tell me a joke")
    assert "!origin - distance to the origin" in labels and not any(RAW_KEY in h for h in labels), labels
    mark = server.mark()
    answer = ask(english, "distance to the origin", "blocks from the origin")
    assert "You are" in answer

    labels = card_labels(chinese, "@ai 给我讲个笑话")
    assert "!origin - 离原点的距离" in labels and not any(RAW_KEY in h for h in labels), labels
    assert "你离原点" in ask(chinese, "离原点的距离", "你离原点")
    # Typed picks are answers to the cards, not chat for the server (which has seen what came after).
    english.chat("thanks erin")
    chinese.chat("谢谢")
    server.wait_chat("thanks erin", since=mark)
    server.wait_chat("谢谢", since=mark)
    chats = server.chats(since=mark)
    assert not any("origin" in c or "原点" in c for c in chats), chats
