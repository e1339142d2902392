"""Recording one connection's packets both ways, for the capacity bench's replay.

How this works: with ``MCAGENT_RECORD_DIR`` set in the proxy's environment, ``attach``
gives each new connection a ``Recorder`` and sets it as the ``tap`` of both legs'
``Framing``: it sees every read's plain bytes (after decryption, before the proxy
handles them), splits them into frames with its own ``Framing`` and follows the
protocol state itself (handshake, login, configuration, play), so it never depends on
where the proxy is in handling a read. Without the variable nothing is attached: the
cost is one ``is not None`` per read.

What is kept is what a replay needs and nothing that authenticates anyone: the
protocol version from the handshake, the compression threshold, and the configuration
and play packets with their times. Nothing of the handshake or the login is stored
(the login start, the encryption request and response with the shared secret, login
plugin messages that carry forwarding data, cookies), and in configuration and play the
packets that carry keys or cookies (``EXCLUDED``) are dropped. The file is written when
the connection closes (``close``): lzma-compressed, a JSON header line then records of
direction, state, milliseconds since the first record and the uncompressed packet.
"""
from __future__ import annotations

import itertools
import json
import lzma
import os
import time
from pathlib import Path
from typing import Any, Callable, Iterator, NamedTuple

from proxy.protocol.errors import PeerError
from proxy.protocol.framing import Framing
from proxy.protocol.states import State
from proxy.protocol.tables import TO_CLIENT, TO_SERVER, ProtocolTable, table_for_version
from proxy.protocol.versions import by_protocol
from proxy.protocol.wire import pack_varint, read_varint

ENV = "MCAGENT_RECORD_DIR"
FORMAT = "mcagent-capture/1"
TO_SERVER_BYTE, TO_CLIENT_BYTE = 0, 1
STATE_BYTES = {State.CONFIGURATION: 1, State.PLAY: 2}
STATES = {v: k for k, v in STATE_BYTES.items()}
# Packets of configuration and play that carry a key, a signature over one, or a cookie
# (which a server may use as a credential on transfer): never written.
EXCLUDED = frozenset({"chat_session_update", "cookie_request", "cookie_response", "store_cookie"})
_serial = itertools.count(1)


class Record(NamedTuple):
    to_client: bool
    state: State
    ms: int  # since the first record
    packet: bytes  # uncompressed: id then fields


class Capture(NamedTuple):
    header: dict[str, Any]
    records: list[Record]


def attach(conn: Any) -> "Recorder | None":
    """A recorder on both legs of ``conn`` (a ``Connection``) if recording is on."""
    directory = os.environ.get(ENV)
    if not directory:
        return None
    recorder = Recorder(Path(directory), conn.clock.seconds)
    conn.reader.tap = recorder.from_client
    conn.server_reader.tap = recorder.from_server
    return recorder


class Recorder:
    def __init__(self, directory: Path, now: Callable[[], float]) -> None:
        self.directory = directory
        self.now = now
        self.framing = {False: Framing(), True: Framing()}  # by to_client
        self.state = {False: State.HANDSHAKING, True: State.HANDSHAKING}
        self.table: ProtocolTable | None = None
        self.header: dict[str, Any] = {"format": FORMAT, "threshold": -1}
        self.records: list[Record] = []
        self.started: float | None = None
        self.off = False  # a status ping, or input the recorder could not follow

    def from_client(self, data: bytes) -> None:
        self._feed(False, data)

    def from_server(self, data: bytes) -> None:
        self._feed(True, data)

    def _feed(self, to_client: bool, data: bytes) -> None:
        if self.off:
            return
        framing = self.framing[to_client]
        try:
            framing.feed(data)
            while not self.off and (frame := framing.next_frame()) is not None:
                self._packet(to_client, frame.packet)
        except Exception:  # noqa: BLE001 - the proxy reports bad input itself; the recording just stops
            self.off = True
            self.records.clear()

    def _packet(self, to_client: bool, packet: bytes) -> None:
        state = self.state[to_client]
        pid, _ = read_varint(packet, 0)
        if state is State.HANDSHAKING:
            self._handshake(packet)
            return
        table = self.table
        assert table is not None
        direction = TO_CLIENT if to_client else TO_SERVER
        if state is State.LOGIN:  # never stored: only the threshold and the state changes are read
            name = table.packet_name(State.LOGIN, direction, pid)
            if name == "compress":
                threshold, _ = read_varint(packet, len(pack_varint(pid)))
                self.header["threshold"] = threshold
                for framing in self.framing.values():
                    framing.threshold = threshold
            elif name == "success":
                after = State.CONFIGURATION if self.header["configuration"] else State.PLAY
                self.state[True] = after
                if after is State.PLAY:
                    self.state[False] = State.PLAY
            elif name == "login_acknowledged":
                self.state[False] = State.CONFIGURATION
            return
        name = table.packet_name(state, direction, pid)
        if name not in EXCLUDED:
            now = self.now()
            if self.started is None:
                self.started = now
            self.records.append(Record(to_client, state, round((now - self.started) * 1000), packet))
        if state is State.CONFIGURATION and name == "finish_configuration":
            self.state[to_client] = State.PLAY
        elif state is State.PLAY and name in ("start_configuration", "configuration_acknowledged"):
            self.state[to_client] = State.CONFIGURATION

    def _handshake(self, packet: bytes) -> None:
        _, pos = read_varint(packet, 0)
        protocol, pos = read_varint(packet, pos)
        host_length, pos = read_varint(packet, pos)
        intent, _ = read_varint(packet, pos + host_length + 2)
        supported = by_protocol(protocol)
        if intent == 1 or supported is None:  # a server-list ping, or a version the proxy refuses
            self.off = True
            return
        self.table = table_for_version(supported.name)
        self.header.update(version=supported.name, protocol=protocol, configuration=self.table.has_configuration)
        self.state = {False: State.LOGIN, True: State.LOGIN}

    def close(self) -> Path | None:
        """Write what was recorded (nothing if the connection never reached configuration or play)."""
        if self.off or not self.records:
            return None
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.directory / f"capture-{self.header['version']}-{int(time.time())}-{os.getpid()}-{next(_serial)}.mcrec.xz"
        path.write_bytes(encode(Capture(self.header, self.records)))
        self.records = []
        return path


def encode(capture: Capture) -> bytes:
    out = bytearray(json.dumps(capture.header, sort_keys=True).encode() + b"\n")
    for record in capture.records:
        out += bytes((TO_CLIENT_BYTE if record.to_client else TO_SERVER_BYTE, STATE_BYTES[record.state]))
        out += pack_varint(record.ms) + pack_varint(len(record.packet)) + record.packet
    return lzma.compress(bytes(out), preset=9)


def decode(data: bytes, source: str = "capture") -> Capture:
    """A capture from ``encode``'s bytes; a ValueError naming ``source`` if it is not one."""
    try:
        raw = lzma.decompress(data)
        line, _, body = raw.partition(b"\n")
        header = json.loads(line)
    except (lzma.LZMAError, ValueError) as exc:
        raise ValueError(f"{source}: not a {FORMAT} file ({exc})") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ValueError(f"{source}: not a {FORMAT} file (header {str(header)[:80]!r})")
    return Capture(header, list(_records(body, source)))


def _records(body: bytes, source: str) -> Iterator[Record]:
    pos = 0
    while pos < len(body):
        try:
            direction, state = body[pos], STATES[body[pos + 1]]
            ms, pos = read_varint(body, pos + 2)
            length, pos = read_varint(body, pos)
        except (IndexError, KeyError, ValueError, PeerError) as exc:
            raise ValueError(f"{source}: bad record at byte {pos} ({exc!r})") from None
        if pos + length > len(body):
            raise ValueError(f"{source}: record at byte {pos} runs past the end")
        yield Record(direction == TO_CLIENT_BYTE, state, ms, body[pos:pos + length])
        pos += length
