"""A line the proxy keeps from the server still tells the server what chat the client saw.

From 1.19.3 every chat line and command carries how many new messages the client saw since
its last one; the server checks the next line's window against that count. A line the proxy
answers itself never reaches the server, so the proxy passes the count on in a
message_acknowledgement, or the player's next chat would be refused (chat_validation_failed).
"""
from __future__ import annotations

import pytest

from proxy.testing import Rig, build_packet, packet_id


def _ack_id(rig: Rig) -> int | None:
    return rig.codec.table.packet_id("play", "toServer", "message_acknowledgement")


@pytest.mark.parametrize("version", ["1.19.4", "1.20.4", "1.21.11", "26.1", "26.2"])
def test_a_kept_chat_line_passes_its_offset_on(version: str) -> None:
    rig = Rig(version)
    rig.login()
    rig.client_send(build_packet(rig.codec, "play", "toServer", "chat_message", message="!help", offset=3))
    (ack,) = rig.upstream.received()
    assert packet_id(ack) == _ack_id(rig)
    assert rig.codec.decode("play", "toServer", "message_acknowledgement", ack) == {"count": 3}


@pytest.mark.parametrize("version", ["1.19.4", "1.20.4"])
def test_a_kept_command_passes_its_message_count_on(version: str) -> None:
    rig = Rig(version)
    rig.login()
    rig.client_send(build_packet(rig.codec, "play", "toServer", "chat_command", command="ai where am I",
                                 messageCount=2))
    (ack,) = rig.upstream.received()
    assert rig.codec.decode("play", "toServer", "message_acknowledgement", ack) == {"count": 2}


@pytest.mark.parametrize("version", ["1.19.4", "1.21.11"])
def test_nothing_new_seen_sends_nothing(version: str) -> None:
    rig = Rig(version)
    rig.login()
    rig.client_send(build_packet(rig.codec, "play", "toServer", "chat_message", message="!help", offset=0))
    assert rig.upstream.received() == []


def test_a_plain_command_has_no_count_to_pass_on() -> None:
    rig = Rig("1.21.11")  # 1.20.5+: an unsigned command carries no acknowledgement
    rig.login()
    rig.client_send(build_packet(rig.codec, "play", "toServer", "chat_command", command="ai where am I"))
    assert rig.upstream.received() == []


def test_1_19_2_passes_the_last_seen_list_on() -> None:
    rig = Rig("1.19.2")
    rig.login()
    seen = [{"messageSender": "0f4e2c6a-9d1b-4c3e-8a7f-2b5d6e8f9a10", "messageSignature": b"\x07" * 256}]
    rig.client_send(build_packet(rig.codec, "play", "toServer", "chat_message", message="!help",
                                 previousMessages=seen))
    (ack,) = rig.upstream.received()
    fields = rig.codec.decode("play", "toServer", "message_acknowledgement", ack)
    assert fields["previousMessages"] == seen and fields["lastRejectedMessage"] is None


def test_forwarded_chat_is_untouched() -> None:
    rig = Rig("1.21.11")
    rig.login()
    line = build_packet(rig.codec, "play", "toServer", "chat_message", message="hello", offset=4)
    rig.client_send(line)
    assert rig.upstream.received() == [line]
