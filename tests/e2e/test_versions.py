"""Every accepted protocol is verified the way proxy/data/versions.json says.

* ``login-chat`` rows: mineflayer 4.25.0 -> mcagent -> flying-squid 1.12.0 on a release
  the relay suite (``end-to-end`` rows, tests/e2e/test_relay.py) does not cover: login,
  spawn, chat both ways byte-identical, ``!ping`` answered and never seen by the server.
* ``protocol-level`` rows are run by tests/e2e/test_protocol_level.py.
* A refused protocol (minecraft-data names it, has no data) is kicked at once with the
  nearest accepted release, by the real proxy process, over a real socket.

``MCAGENT_E2E_VERSIONS=1.12,1.16.2`` limits the login-chat run to those rows.
"""
from __future__ import annotations

import json
import os
import socket

import pytest

from proxy.protocol.handshake import LOGIN, Handshake, build_handshake
from proxy.protocol.wire import pack_string, pack_varint, read_varint
from proxy.protocol.versions import LOGIN_CHAT, SUPPORTED
from tests.e2e.peers import refusing_port

_wanted = [v for v in os.environ.get("MCAGENT_E2E_VERSIONS", "").split(",") if v and v != "all"]
LOGIN_CHAT_VERSIONS = [v.name for v in SUPPORTED if v.verified == LOGIN_CHAT and (not _wanted or v.name in _wanted)]


@pytest.mark.parametrize("version", LOGIN_CHAT_VERSIONS)
def test_login_and_chat(version: str, squid_factory, bot_factory, proxy_factory) -> None:
    server = squid_factory(version)
    proxy = proxy_factory(server.port)
    bot = bot_factory(proxy.port, username="alice", version=version)
    server.wait_login("alice")

    line = "hello through the proxy, 1 + 1 = 2"
    bot.chat(line)
    server.wait_chat(line, player="alice")
    server.say("welcome from the server")
    bot.wait_chat("welcome from the server")

    mark = server.mark()
    bot.chat("!ping")
    bot.wait_chat("[mcagent] Ping to the server")
    bot.chat("after ping")
    server.wait_chat("after ping", player="alice", since=mark)
    assert server.chats(player="alice", since=mark) == ["after ping"]


def _login_refusal(port: int, protocol: int) -> str:
    """Handshake with ``protocol`` and a login start; the proxy's login disconnect text."""
    with socket.create_connection(("127.0.0.1", port), timeout=15) as sock:
        for packet in (build_handshake(Handshake(protocol, "127.0.0.1", port, LOGIN)),
                       pack_varint(0) + pack_string("dave")):
            sock.sendall(pack_varint(len(packet)) + packet)
        data = b""
        while chunk := sock.recv(4096):
            data += chunk
    length, pos = read_varint(data, 0)
    packet = data[pos:pos + length]
    pid, pos = read_varint(packet, 0)
    assert pid == 0, f"expected a login disconnect, got packet {pid:#x}"
    size, pos = read_varint(packet, pos)
    return str(json.loads(packet[pos:pos + size].decode("utf-8"))["text"])


@pytest.mark.parametrize("protocol, release, nearest", [(108, "1.9.1", "1.9.2"), (777, "26.3", "26.2"),
                                                        (4, None, "1.8.9")])
def test_a_refused_protocol_is_told_the_nearest_release(protocol: int, release: str | None, nearest: str,
                                                        proxy_factory) -> None:
    # No server behind the proxy: a refusal never opens an upstream connection.
    with refusing_port() as down:
        proxy = proxy_factory(down)
        text = _login_refusal(proxy.port, protocol)
    assert f"protocol {protocol}" in text and "1.8 to 26.2" in text
    assert f"nearest supported release is {nearest}" in text
    if release is not None:
        assert release in text and "no data" in text
