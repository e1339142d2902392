"""Per-backend forwarding during a switch: each backend gets its own mode and secret, and no
secret leaks into logs, the console, chat or the server list."""
from __future__ import annotations

import hashlib
import hmac
from typing import Any


from proxy.connection.forwarding import CHANNEL
from proxy.operations.console import ConsoleCommands
from proxy.protocol.wire import pack_string, pack_varint, read_varint
from proxy.testing import build_packet
from tests.proxy.network.helpers import candidate_login, join, network_rig, playing

SECRET = "survival-only-s3cret-7a1f"


def _servers() -> dict[str, Any]:
    return {"lobby": "127.0.0.1:25565",
            "survival": {"address": "127.0.0.1:25570", "forwarding": {"mode": "velocity", "secret": SECRET}}}


def test_a_velocity_backend_gets_its_own_signed_answer_during_a_switch(logged: list[str]) -> None:
    rig = network_rig("1.20.1", servers=_servers(), admins=["alice"])
    playing(rig)  # the lobby: no forwarding
    rig.server.network.switch(rig.bridge, "survival")
    new = rig.accept_upstream()
    new.received()
    table = rig.codec.table
    request = pack_varint(table.packet_id("login", "toClient", "login_plugin_request")) + pack_varint(5) \
        + pack_string(CHANNEL) + b"\x04"
    rig.server_send(request)
    (answer,) = new.received()
    pos = read_varint(answer, read_varint(answer, 0)[1])[1]
    assert answer[pos] == 1  # understood
    signature, payload = answer[pos + 1:pos + 33], answer[pos + 33:]
    assert signature == hmac.new(SECRET.encode(), payload, hashlib.sha256).digest()
    assert rig.client.received() == []  # the request was the proxy's to answer
    rig.server_send(build_packet(rig.codec, "login", "toClient", "success", username="alice"))
    join(rig, 3)
    chat = " ".join(rig.chat_texts(rig.client.received()))
    assert "You are on survival now." in chat
    console = ConsoleCommands(rig.server, lambda: [], lambda: None)
    rig.server.console = console
    texts = ["\n".join(console.execute("dump")), "\n".join(console.execute("status")),
             "\n".join(rig.server.admin_command(rig.bridge, "dump")), "\n".join(logged), chat,
             repr(rig.server.network.network.backends), repr(rig.server.config)]
    assert "servers (players): lobby 0, survival 1; 1 moves, 0 failovers (0 at login)" in texts[1]
    for text in texts:
        assert SECRET not in text


def test_a_backend_that_skips_forwarding_is_refused_and_the_player_stays() -> None:
    rig = network_rig("1.20.1", servers=_servers())
    playing(rig)
    rig.server.network.switch(rig.bridge, "survival")
    candidate_login(rig)  # Login Success without asking for the player's info
    said = " ".join(rig.chat_texts(rig.client.received()))
    assert "Could not move you to survival: The server behind the proxy did not ask for player info" in said
    assert rig.bridge.backend.name == "lobby" and not rig.bridge.states.closed
