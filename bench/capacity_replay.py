"""The replay peers of the capacity bench: one replay server and N replay clients in one process.

How this works: a capture (``proxy.connection.recording``, under ``bench/data/``) is turned
once into a ``Script``: the configuration packets each way, and each direction's play
packets framed with the recorded compression threshold into one blob, with the time each
frame is due. The replay server answers a client's login as the real server did (Set
Compression with the recorded threshold, Login Success with the client's name, then the
recorded configuration), waits for the client to finish configuration, and from then on
writes the recorded server stream; each replay client logs in, sends the recorded
configuration and then the recorded client stream. Both sides write, every ``STEP``
seconds, what has come due since the player entered play: each player replays the same
session shifted to its own start. What arrives is counted and dropped.

The chat round trip: every ``PING_SECONDS`` each client sends an ordinary chat line
``cap#<player>#<n>#``; the replay server answers it with a system message carrying the
same token, and the client notes the time from send to answer.

Driven by JSON lines: it prints ``{"event":"listening","port":P}`` for its server, then
reads commands on stdin: ``{"cmd":"warmup","port":X,"seconds":S}`` (one player through X,
then it leaves) and ``{"cmd":"run","port":X,"players":N,"ramp":R,"settle":S,"window":W}``
(N players joining over R seconds, a measuring window of W seconds after S more, then all
leave), answering ``warm_done``, ``window_start``, ``window_end`` (with the figures) and
``left``.
"""
from __future__ import annotations

import asyncio
import json
import re
import sys
import time
import zlib
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from proxy.codec.versioned import VersionCodec  # noqa: E402
from proxy.connection import recording  # noqa: E402
from proxy.connection.profile import offline_uuid  # noqa: E402
from proxy.protocol.framing import Framing  # noqa: E402
from proxy.protocol.states import State  # noqa: E402
from proxy.protocol.tables import TO_CLIENT, TO_SERVER, table_for_version  # noqa: E402
from proxy.protocol.wire import pack_varint, read_varint  # noqa: E402

STEP = 0.02  # seconds between writes of what has come due
PING_SECONDS = 2.0
TOKEN = re.compile(rb"cap#(\w{1,16})#(\d+)#")


def frame(packet: bytes, threshold: int) -> bytes:
    """One packet framed as a vanilla peer would (zlib's default level, as the servers use)."""
    if threshold < 0:
        body = packet
    elif len(packet) >= threshold:
        body = pack_varint(len(packet)) + zlib.compress(packet)
    else:
        body = b"\x00" + packet
    return pack_varint(len(body)) + body


class Stream:
    """One direction's play packets as one blob of frames and when each is due."""

    def __init__(self, timed: list[tuple[int, bytes]], threshold: int) -> None:
        parts: list[bytes] = []
        self.due_ms: list[int] = []
        self.ends: list[int] = []
        end = 0
        for ms, packet in timed:
            framed = frame(packet, threshold)
            parts.append(framed)
            end += len(framed)
            self.due_ms.append(ms)
            self.ends.append(end)
        self.blob = b"".join(parts)

    def upto(self, ms: float, index: int) -> int:
        """The first frame index not yet due at ``ms``, from ``index`` on."""
        due = self.due_ms
        while index < len(due) and due[index] <= ms:
            index += 1
        return index

    def end(self, index: int) -> int:
        return self.ends[index - 1] if index else 0


class Script:
    """What a replay needs from one capture, prepared once."""

    def __init__(self, capture: recording.Capture) -> None:
        header = capture.header
        self.version = str(header["version"])
        self.protocol = int(header["protocol"])
        self.threshold = int(header["threshold"])
        self.configuration = bool(header["configuration"])
        self.codec = VersionCodec(table_for_version(self.version))
        table = self.codec.table
        self.s2c_config = [r.packet for r in capture.records if r.to_client and r.state is State.CONFIGURATION]
        finish = table.packet_id(State.CONFIGURATION, TO_SERVER, "finish_configuration")
        self.c2s_config = [r.packet for r in capture.records if not r.to_client and r.state is State.CONFIGURATION
                           and read_varint(r.packet, 0)[0] != finish]
        self.c2s_finish = frame(b"" if finish is None else pack_varint(finish), self.threshold)
        self.s2c_finish_id = table.packet_id(State.CONFIGURATION, TO_CLIENT, "finish_configuration")
        play = [r for r in capture.records if r.state is State.PLAY]
        start = play[0].ms if play else 0
        self.s2c = Stream([(r.ms - start, r.packet) for r in play if r.to_client], self.threshold)
        self.c2s = Stream([(r.ms - start, r.packet) for r in play if not r.to_client], self.threshold)
        self.seconds = (play[-1].ms - start) / 1000 if play else 0.0
        self.compress_id = table.packet_id(State.LOGIN, TO_CLIENT, "compress")
        self.login_ack = table.packet_id(State.LOGIN, TO_SERVER, "login_acknowledged")

    @classmethod
    def load(cls, path: Path) -> "Script":
        return cls(recording.decode(path.read_bytes(), str(path)))

    # -- the packets the replay makes itself ---------------------------------------------
    def handshake(self, port: int) -> bytes:
        return frame(self.codec.build("handshaking", TO_SERVER, "set_protocol", protocolVersion=self.protocol,
                                      serverHost="127.0.0.1", serverPort=port, nextState=2), -1)

    def login_start(self, name: str) -> bytes:
        fields: dict[str, Any] = {"username": name}
        if self.codec.field_types("login", TO_SERVER, "login_start").get("playerUUID") == "UUID":
            fields["playerUUID"] = str(offline_uuid(name))
        return frame(self.codec.build("login", TO_SERVER, "login_start", **fields), -1)

    def compress(self) -> bytes:
        return frame(self.codec.encode("login", TO_CLIENT, "compress", {"threshold": self.threshold}), -1)

    def success(self, name: str) -> bytes:
        return frame(self.codec.build("login", TO_CLIENT, "success", uuid=str(offline_uuid(name)), username=name),
                     self.threshold)

    def chat(self, text: str) -> bytes:
        return frame(self.codec.build("play", TO_SERVER, "chat_message", message=text,
                                      timestamp=int(time.time() * 1000)), self.threshold)

    def answer(self, token: bytes) -> bytes:
        return frame(self.codec.chat_to_client({"text": token.decode()}), self.threshold)


class Peer(asyncio.Protocol):
    """One end of one replayed player: framing during the login, counting in play."""

    def __init__(self, script: Script, hub: "Hub") -> None:
        self.script = script
        self.hub = hub
        self.transport: asyncio.Transport | None = None
        self.framing = Framing()
        self.playing_since: float | None = None
        self.sent_index = 0
        self.received = 0
        self.tail = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.received += len(data)
        if self.playing_since is None:
            self.framing.feed(data)
            while self.playing_since is None and (f := self.framing.next_frame()) is not None:
                self.login_packet(f.packet)
            rest = self.framing.pending
            data = data[len(data) - rest:] if rest else b""
        if data:
            self.play_data(data)

    def login_packet(self, packet: bytes) -> None:
        raise NotImplementedError

    def play_data(self, data: bytes) -> None:
        pass

    def start_play(self) -> None:
        self.playing_since = time.monotonic()
        self.hub.playing.add(self)

    def stream(self) -> Stream:
        raise NotImplementedError

    def step(self, now: float) -> None:
        """Write what has come due."""
        if self.playing_since is None or self.transport is None or self.transport.is_closing():
            return
        stream = self.stream()
        index = stream.upto((now - self.playing_since) * 1000, self.sent_index)
        if index > self.sent_index:
            self.transport.write(stream.blob[stream.end(self.sent_index):stream.end(index)])
            self.sent_index = index

    def connection_lost(self, exc: Exception | None) -> None:
        self.hub.playing.discard(self)
        self.hub.closed += 1


class ServerPeer(Peer):
    stage = "handshake"

    def stream(self) -> Stream:
        return self.script.s2c

    def login_packet(self, packet: bytes) -> None:
        assert self.transport is not None
        script = self.script
        pid, pos = read_varint(packet, 0)
        if self.stage == "handshake":
            self.stage = "login"
        elif self.stage == "login" and pid == 0:
            length, pos = read_varint(packet, pos)
            name = packet[pos:pos + length].decode()
            self.transport.write(script.compress())
            self.framing.threshold = script.threshold
            self.transport.write(script.success(name))
            self.stage = "acknowledge" if script.configuration else "play"
            if not script.configuration:
                self.start_play()
        elif self.stage == "acknowledge" and pid == script.login_ack:
            self.stage = "configuration"
            self.transport.write(b"".join(frame(p, script.threshold) for p in script.s2c_config))
        elif self.stage == "configuration" and frame(packet, script.threshold) == script.c2s_finish:
            self.start_play()

    def play_data(self, data: bytes) -> None:
        if b"cap#" not in data and b"cap#" not in self.tail + data[:8]:
            self.tail = data[-24:]
            return
        for found in TOKEN.finditer(self.tail + data):
            if self.transport is not None:
                self.transport.write(self.script.answer(found[0]))
        self.tail = b""


class ClientPeer(Peer):
    def __init__(self, script: Script, hub: "Hub", name: str, port: int) -> None:
        super().__init__(script, hub)
        self.name = name
        self.port = port
        self.pings: dict[int, float] = {}
        self.stage = "login"
        self.next_ping = 0.0
        self.serial = 0

    def stream(self) -> Stream:
        return self.script.c2s

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        assert self.transport is not None
        self.transport.write(self.script.handshake(self.port) + self.script.login_start(self.name))

    def login_packet(self, packet: bytes) -> None:
        assert self.transport is not None
        script = self.script
        pid, pos = read_varint(packet, 0)
        if self.stage == "login" and pid == script.compress_id and self.framing.threshold < 0:
            self.framing.threshold = read_varint(packet, pos)[0]
        elif self.stage == "login" and pid == 2 and not script.configuration:
            self.start_play()
        elif self.stage == "login" and pid == 2 and script.login_ack is not None:
            self.stage = "configuration"
            out = [frame(pack_varint(script.login_ack), script.threshold)]
            out += [frame(p, script.threshold) for p in script.c2s_config]
            self.transport.write(b"".join(out))
        elif self.stage == "configuration" and pid == script.s2c_finish_id and len(packet) == 1:
            self.transport.write(script.c2s_finish)
            self.start_play()

    def start_play(self) -> None:
        super().start_play()
        self.next_ping = time.monotonic() + PING_SECONDS

    def step(self, now: float) -> None:
        super().step(now)
        if self.playing_since is not None and now >= self.next_ping and self.transport is not None:
            self.serial += 1
            self.pings[self.serial] = now
            self.transport.write(self.script.chat(f"cap#{self.name}#{self.serial}#"))
            self.next_ping = now + PING_SECONDS

    def play_data(self, data: bytes) -> None:
        if b"cap#" not in data and b"cap#" not in self.tail + data[:8]:
            self.tail = data[-24:]
            return
        now = time.monotonic()
        for found in TOKEN.finditer(self.tail + data):
            if found[1].decode() == self.name:
                sent = self.pings.pop(int(found[2]), None)
                if sent is not None:
                    self.hub.rtts.append((sent, now - sent))
        self.tail = b""


class Hub:
    def __init__(self, script: Script) -> None:
        self.script = script
        self.playing: set[Peer] = set()
        self.clients: list[ClientPeer] = []
        self.rtts: list[tuple[float, float]] = []
        self.closed = 0

    async def ticker(self) -> None:
        while True:
            await asyncio.sleep(STEP)
            now = time.monotonic()
            for peer in list(self.playing):
                peer.step(now)

    async def join(self, port: int, name: str) -> ClientPeer:
        loop = asyncio.get_running_loop()
        _, peer = await loop.create_connection(lambda: ClientPeer(self.script, self, name, port), "127.0.0.1", port)
        self.clients.append(peer)
        return peer

    def leave_all(self) -> None:
        for client in self.clients:
            if client.transport is not None:
                client.transport.close()
        self.clients = []

    def lag(self, clients: list[ClientPeer], now: float) -> dict[str, float]:
        """How far behind the recording the players are, in bytes received against bytes due."""
        due = got = 0
        for c in clients:
            if c.playing_since is None:
                continue
            s2c = self.script.s2c
            due += s2c.end(s2c.upto((now - c.playing_since) * 1000, 0))
            got += c.received
        return {"due_bytes": due, "received_bytes": got}


def emit(**event: Any) -> None:
    print(json.dumps(event), flush=True)


async def run(hub: Hub, port: int, players: int, ramp: float, settle: float, window: float, tag: str) -> None:
    start = time.monotonic()
    for i in range(players):
        await asyncio.sleep(max(0.0, start + ramp * i / max(players, 1) - time.monotonic()))
        await hub.join(port, f"{tag}{i}")
    await asyncio.sleep(max(0.0, start + ramp + settle - time.monotonic()))
    clients = list(hub.clients)
    playing = sum(1 for c in clients if c.playing_since is not None)
    hub.rtts.clear()
    t0 = time.monotonic()
    before = hub.lag(clients, t0)
    emit(event="window_start", playing=playing, players=players)
    await asyncio.sleep(window)
    t1 = time.monotonic()
    after = hub.lag(clients, t1)
    rtts = sorted(rtt for sent, rtt in hub.rtts if sent >= t0)
    due = after["due_bytes"] - before["due_bytes"]
    got = after["received_bytes"] - before["received_bytes"]
    emit(event="window_end", seconds=t1 - t0, playing=sum(1 for c in clients if c.playing_since is not None),
         rtt_ms=[round(r * 1000, 3) for r in rtts], due_bytes=due, received_bytes=got,
         behind_bytes=after["due_bytes"] - after["received_bytes"])
    hub.leave_all()
    deadline = time.monotonic() + 20
    while hub.playing and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    emit(event="left")


async def main(path: Path) -> None:
    script = Script.load(path)
    hub = Hub(script)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: ServerPeer(script, hub), "127.0.0.1", 0)
    emit(event="listening", port=server.sockets[0].getsockname()[1], seconds=script.seconds)
    asyncio.ensure_future(hub.ticker())
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    runs = 0
    while line := await reader.readline():
        cmd = json.loads(line)
        runs += 1
        if cmd["cmd"] == "warmup":
            await hub.join(int(cmd["port"]), "warmup")
            await asyncio.sleep(float(cmd["seconds"]))
            hub.leave_all()
            await asyncio.sleep(1.0)
            emit(event="warm_done")
        elif cmd["cmd"] == "run":
            await run(hub, int(cmd["port"]), int(cmd["players"]), float(cmd["ramp"]), float(cmd["settle"]),
                      float(cmd["window"]), f"p{runs}x")
    server.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
