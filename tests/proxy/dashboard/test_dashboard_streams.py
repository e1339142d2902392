"""Server-sent events: the framing, a live overview stream, and a player's stream ending when they leave."""
from __future__ import annotations

import json

import pytest
from twisted.python.failure import Failure
from twisted.internet.error import ConnectionDone

from proxy.dashboard.sse import frame
from proxy.testing import Rig
from tests.proxy.dashboard.web_client import ADMIN_TOKEN, make
from tests.proxy.dashboard.world import feed_world


def dechunk(data: bytes) -> bytes:
    """The body of a chunked HTTP/1.1 response, as far as it has arrived."""
    out = b""
    while data:
        size_line, sep, rest = data.partition(b"\r\n")
        if not sep:
            break
        size = int(size_line, 16)
        if size == 0 or len(rest) < size + 2:
            break
        out, data = out + rest[:size], rest[size + 2:]
    return out


def events(raw: bytes) -> list[tuple[str, object]]:
    """(event, data) of every complete message in a stream's body."""
    body = dechunk(raw.partition(b"\r\n\r\n")[2]).decode()
    out = []
    for block in body.split("\n\n")[:-1]:
        fields = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line)
        if "event" in fields:
            out.append((fields["event"], json.loads(fields["data"])))
    return out


def test_a_frame_is_one_json_line_whatever_the_text() -> None:
    out = frame("overview", {"text": "two\nlines\r\n\ndata: forged"}, 3)
    assert out == b'id: 3\nevent: overview\ndata: {"text":"two\\nlines\\r\\n\\ndata: forged"}\n\n'
    assert out.count(b"\n\n") == 1
    with pytest.raises(ValueError):
        frame("bad\nname", {})


def test_the_overview_stream_pushes_every_second_until_the_client_goes() -> None:
    rig = Rig()
    client, clock = make(rig.server)
    request, channel = client.open("GET", "/events/overview", {"authorization": f"Bearer {ADMIN_TOKEN}"})
    written = channel.transport.written
    assert b"content-type: text/event-stream" in written.getvalue().lower()
    assert b"retry: 2000" in written.getvalue()
    assert [e for e, _ in events(written.getvalue())] == ["overview"]
    rig.login("alice")
    clock.advance(1.0)
    frames = events(written.getvalue())
    assert len(frames) == 2 and [p["name"] for p in frames[1][1]["players"]] == ["alice"]
    assert len(client.resource.streams) == 1
    request.connectionLost(Failure(ConnectionDone()))
    assert client.resource.streams == set()
    clock.advance(5.0)
    assert len(events(written.getvalue())) == 2


def test_a_player_stream_says_gone_when_the_player_leaves() -> None:
    rig = Rig()
    rig.login("alice")
    feed_world(rig.bridge.session)
    client, clock = make(rig.server)
    request, channel = client.open("GET", "/events/player/alice", {"authorization": f"Bearer {ADMIN_TOKEN}"})
    first = events(channel.transport.written.getvalue())
    assert first[0][0] == "player" and first[0][1]["position"] == [8.5, 69.0, 8.5]
    rig.client.proto.connectionLost(None)
    clock.advance(0.5)
    assert [e for e, _ in events(channel.transport.written.getvalue())] == ["player", "gone"]
    assert request.finished and client.resource.streams == set()


def test_streams_are_bounded() -> None:
    client, _ = make(Rig().server)
    for _ in range(32):
        client.open("GET", "/events/overview", {"authorization": f"Bearer {ADMIN_TOKEN}"})
    assert client.get("/events/overview").status == 503
    client.resource.close_streams()
    assert client.resource.streams == set()
