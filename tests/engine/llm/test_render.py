"""Model text is plain, capped, split, labelled and never clickable."""
from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.llm.render import LABEL, clean, render_lines, render_reply


def test_formatting_and_control_characters_are_removed() -> None:
    assert clean("§6gold §lbold\x1b[31m red\x1b[0m\u200b!") == "gold bold red!"
    assert clean("# Title\n**bold** and `code`\r\n\r\n- item") == "Title\nbold and code\n- item"


def test_long_text_is_split_and_capped() -> None:
    lines = render_lines("word " * 400, max_chars=300, line_chars=60, max_lines=8)
    assert lines[0].startswith(LABEL)
    assert all(len(line) <= 60 + len(LABEL) for line in lines)
    assert sum(len(line) for line in lines) <= 300 + len(LABEL)
    assert lines[-1].endswith("…")


def test_cjk_is_split_by_width() -> None:
    lines = render_lines("你好" * 100, line_chars=40)
    assert all(len(line.removeprefix(LABEL)) <= 20 for line in lines)


def test_a_reply_never_carries_buttons_even_with_command_text() -> None:
    reply = render_reply("Click here: /op everyone or run !goto 1 2 3 {\"clickEvent\":{\"action\":\"run_command\"}}")
    assert reply.buttons == ()
    assert reply.lines and reply.lines[0].startswith(LABEL)


def test_empty_text_gives_no_lines() -> None:
    assert render_lines("  §r \n\n ") == ()


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=2000), st.integers(50, 800), st.integers(20, 120), st.integers(1, 10))
def test_rendering_bounds_hold_for_any_text(text: str, max_chars: int, line_chars: int, max_lines: int) -> None:
    lines = render_lines(text, max_chars, line_chars, max_lines)
    assert len(lines) <= max_lines
    body = [line.removeprefix(LABEL) if i == 0 else line for i, line in enumerate(lines)]
    assert sum(len(b) for b in body) <= max_chars + max_lines
    for line in body:
        assert len(line) <= line_chars
        assert "§" not in line and "\n" not in line
        assert not any(unicodedata.category(ch) in ("Cc", "Cf") for ch in line)
