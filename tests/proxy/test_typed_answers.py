"""Where the chat tap decides a typed answer: ordinary chat while a write's confirmation card is
visible is read (not fast-pathed), consumed when it answers the card, and otherwise forwarded
byte-identical (invariant 1), in every wire format of chat."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.assistant import ANSWER_SECONDS, AssistantRuntime, LocalAssistant
from engine.llm.notification_buttons import load_phrases
from engine.routing.config import default_config
from proxy.testing import build_packet, frame
from proxy.protocol.versions import SUPPORTED
from tests.proxy.harness import Rig

PHRASES = load_phrases(Path(__file__).resolve().parents[2] / "config" / "notification-buttons.json")
VERSIONS = sorted({SUPPORTED[0].name, "1.18.2", "1.20.4", SUPPORTED[-1].name})


@pytest.fixture(scope="module")
def runtime() -> AssistantRuntime:
    return AssistantRuntime(default_config(), button_phrases=PHRASES)


def chat_packet(rig: Rig, text: str) -> bytes:
    name = "chat_message" if rig.codec.table.packet_id("play", "toServer", "chat_message") is not None else "chat"
    return build_packet(rig.codec, "play", "toServer", name, message=text)


def rig_with_card(runtime: AssistantRuntime, version: str, age: float = 0.0) -> tuple[Rig, LocalAssistant]:
    rig = Rig(version, assistant_factory=lambda bridge: runtime.new_assistant())
    rig.login()
    assert rig.bridge.session is not None
    assistant = rig.bridge.session.assistant
    assert assistant is not None
    # What the assistant does when the model proposed a write: a card to confirm, never the write.
    assistant.confirm_write("!goto 10 64 10", "walk there", "en", rig.reactor.seconds() - age)
    return rig, assistant


def send(rig: Rig, text: str) -> bytes:
    assert rig.client is not None
    wire = frame(chat_packet(rig, text), rig.client.threshold)
    rig.leg.dataReceived(wire)
    return wire


@pytest.mark.parametrize("version", VERSIONS)
def test_chat_that_is_no_answer_is_forwarded_byte_identical_while_a_card_is_visible(
    runtime: AssistantRuntime, version: str
) -> None:
    rig, assistant = rig_with_card(runtime, version)
    decoded = rig.bridge.decoded_frames
    for text in ("hello world", "don't do it", "yes if it is safe", "héllo ✓ 你好", "x" * 200):
        wire = send(rig, text)
        assert rig.upstream is not None and rig.upstream.raw_received() == wire, text
    assert rig.bridge.decoded_frames > decoded  # read, because it might have been an answer
    assert assistant.confirmations.visible(rig.reactor.seconds()) is not None  # the card is still there


@pytest.mark.parametrize("version", VERSIONS)
def test_a_typed_answer_is_consumed_and_never_reaches_the_server(runtime: AssistantRuntime, version: str) -> None:
    rig, assistant = rig_with_card(runtime, version)
    assert rig.client is not None and rig.upstream is not None
    rig.client.received()
    send(rig, "yes")
    assert rig.upstream.received() == []
    assert any("Cannot go there" in t or "Going to" in t for t in rig.chat_texts(rig.client.received()))
    # Answered: the next "yes" is ordinary chat again, on the fast path, byte-identical.
    fast = rig.bridge.fast_frames
    wire = send(rig, "yes")
    assert rig.upstream.raw_received() == wire and rig.bridge.fast_frames == fast + 1


def test_without_a_card_or_after_its_answer_time_chat_takes_the_fast_path(runtime: AssistantRuntime) -> None:
    rig, _ = rig_with_card(runtime, "1.18.2", age=ANSWER_SECONDS)  # shown a minute ago (a silent client would time out)
    assert rig.upstream is not None
    fast = rig.bridge.fast_frames
    wire = send(rig, "yes")
    assert rig.upstream.raw_received() == wire and rig.bridge.fast_frames == fast + 1


def test_cancel_in_chinese_is_consumed(runtime: AssistantRuntime) -> None:
    rig, _ = rig_with_card(runtime, "1.18.2")
    assert rig.client is not None and rig.upstream is not None
    rig.client.received()
    send(rig, "取消")
    assert rig.upstream.received() == []
    assert any("!goto 10 64 10" in t for t in rig.chat_texts(rig.client.received()))


@pytest.mark.parametrize("version", VERSIONS)
def test_a_notices_typed_button_is_consumed_and_other_chat_is_forwarded_byte_identical(
    runtime: AssistantRuntime, version: str
) -> None:
    rig = Rig(version, assistant_factory=lambda bridge: runtime.new_assistant())
    rig.login()
    assert rig.bridge.session is not None and rig.client is not None and rig.upstream is not None
    assistant = rig.bridge.session.assistant
    assert assistant is not None
    assistant.notify("dave whispers to you: meet me at the well", rig.reactor.seconds())
    long_line = "I will open my inbox once this fight is over, promise"
    fast = rig.bridge.fast_frames
    wire = send(rig, long_line)  # too long to be a button's text: not even read
    assert rig.upstream.raw_received() == wire and rig.bridge.fast_frames == fast + 1
    for text in ("hello there", "don't open it", "héllo ✓ 你好"):
        wire = send(rig, text)
        assert rig.upstream.raw_received() == wire, text  # read (it might have been a button), then forwarded
    rig.client.received()
    send(rig, "open inbox")
    assert rig.upstream.received() == []
    assert any("meet me at the well" in t for t in rig.chat_texts(rig.client.received()))
    fast = rig.bridge.fast_frames
    wire = send(rig, "open inbox")  # the notice was used: ordinary chat again, on the fast path
    assert rig.upstream.raw_received() == wire and rig.bridge.fast_frames == fast + 1
