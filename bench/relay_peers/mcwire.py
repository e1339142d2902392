"""Just enough of the Minecraft wire format for the relay benchmark's scripted peers.

How this works: packet ids come from the project's generated protocol data
(``proxy/data/protocol.json``, read as plain JSON so the peers do not depend on
proxy code); the handful of packet layouts the peers write are in ``LAYOUTS``,
one entry per version. ``workload_stream`` builds the byte stream a generator
sends over and over (pre-framed, pre-compressed) and the frame boundaries a sink
needs. ``StreamCounter`` counts frames at the sink: while the bytes equal the
expected stream it compares whole reads (one memcmp) and counts frames from
the precomputed boundaries; from the first differing byte on it falls back to
walking length prefixes. ``FrameReader`` parses frames for the login, the sync
and the echo round trips, where speed does not matter.
"""
from __future__ import annotations

import bisect
import hashlib
import json
import random
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from proxy.protocol.wire import pack_varint

REPO = Path(__file__).resolve().parents[2]
PROTOCOL_JSON = REPO / "proxy" / "data" / "protocol.json"

TO_CLIENT, TO_SERVER = "toClient", "toServer"


class WireError(Exception):
    pass


class Incomplete(Exception):
    pass


# -- primitive types ----------------------------------------------------------------
# The same VarInt encoder as the proxy's: the peers only need its bytes to be right.
varint = pack_varint


def read_varint(buf: bytes | bytearray | memoryview, pos: int, end: int | None = None) -> tuple[int, int]:
    """(value, position after it); Incomplete when the buffer ends inside the VarInt."""
    if end is None:
        end = len(buf)
    value = 0
    shift = 0
    while True:
        if pos >= end:
            raise Incomplete()
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            break
        shift += 7
        if shift >= 35:
            raise WireError("VarInt too long")
    if value & 0x80000000:
        value -= 1 << 32
    return value, pos


def string(text: str) -> bytes:
    raw = text.encode("utf-8")
    return varint(len(raw)) + raw


def read_string(buf: bytes, pos: int) -> tuple[str, int]:
    length, pos = read_varint(buf, pos)
    return buf[pos:pos + length].decode("utf-8"), pos + length


def offline_uuid(name: str) -> bytes:
    """The UUID vanilla gives an offline-mode player (a v3 UUID of 'OfflinePlayer:<name>')."""
    digest = bytearray(hashlib.md5(b"OfflinePlayer:" + name.encode("utf-8")).digest())
    digest[6] = (digest[6] & 0x0F) | 0x30
    digest[8] = (digest[8] & 0x3F) | 0x80
    return bytes(digest)


def server_hash(server_id: str, secret: bytes, public_key_der: bytes) -> str:
    """The digest a client joins with and a server asks ``hasJoined`` about: SHA-1 of the
    server id, the shared secret and the server's public key, as a signed hexadecimal number."""
    digest = hashlib.sha1(server_id.encode("ascii") + secret + public_key_der).digest()
    return format(int.from_bytes(digest, "big", signed=True), "x")


def nbt_text(text: str) -> bytes:
    """A text component as network NBT (1.20.3+): a nameless compound {text: "..."}."""
    raw = text.encode("utf-8")
    return b"\x0a" + b"\x08" + struct.pack(">H", 4) + b"text" + struct.pack(">H", len(raw)) + raw + b"\x00"


def frame(packet: bytes, threshold: int) -> bytes:
    """Frame a packet (id + fields) as it travels on the wire: length, then maybe compression."""
    if threshold < 0:
        body = packet
    elif len(packet) >= threshold:
        body = varint(len(packet)) + zlib.compress(packet)  # default level, as vanilla, quarry and mcagent
    else:
        body = b"\x00" + packet
    return varint(len(body)) + body


# -- versions -------------------------------------------------------------------------
ZERO_UUID = bytes(16)

# Per version: the layouts of the few packets the peers write. Everything else the
# peers send (entity_velocity, custom_payload) has kept its layout from 1.18.2 to 1.21.4.
LAYOUTS: dict[str, dict[str, Any]] = {
    "1.18.2": {
        "encrypt_request_tail": b"",  # nothing after the verify token
        "login_start": lambda name, uuid: string(name),
        "success": lambda uuid, name: uuid + string(name),
        "chat_up": lambda text: string(text),
        "chat_down": lambda text: string(json.dumps({"text": text})) + b"\x01" + ZERO_UUID,  # position 1 = system
    },
    "1.19.2": {
        "encrypt_request_tail": b"",
        "encrypt_response_switch": True,  # 1.19-1.19.2: hasVerifyToken, then the token (or a signed nonce)
        # username, no signature, no UUID
        "login_start": lambda name, uuid: string(name) + b"\x00" + b"\x00",
        "success": lambda uuid, name: uuid + string(name) + varint(0),
        # message, timestamp, salt, empty signature, signedPreview, no previous messages, no rejected one
        "chat_up": lambda text: string(text) + struct.pack(">qq", 0, 0) + varint(0) + b"\x00" + varint(0) + b"\x00",
        "chat_down": lambda text: string(json.dumps({"text": text})) + b"\x00",  # isActionBar false
    },
    "1.21.4": {
        "encrypt_request_tail": b"\x01",  # 1.20.5+: shouldAuthenticate
        "login_start": lambda name, uuid: string(name) + uuid,
        "success": lambda uuid, name: uuid + string(name) + varint(0),
        # message, timestamp, salt, no signature, offset 0, acknowledged bitset (3 bytes)
        "chat_up": lambda text: string(text) + struct.pack(">qq", 0, 0) + b"\x00" + varint(0) + bytes(3),
        "chat_down": lambda text: nbt_text(text) + b"\x00",
    },
}
CHAT_NAMES = {TO_SERVER: ("chat", "chat_message"), TO_CLIENT: ("chat", "system_chat")}


@dataclass
class Version:
    name: str
    protocol: int
    ids: dict[str, Any]
    layouts: dict[str, Any]

    def pid(self, state: str, direction: str, name: str) -> int:
        value = self.ids.get(state, {}).get(direction, {}).get(name)
        if value is None:
            raise WireError(f"{self.name} has no {state}/{direction}/{name}")
        return int(value)

    def _write(self, layout: str, *fields: Any) -> bytes:
        """This version's layout ``layout`` (from ``LAYOUTS``) with these fields."""
        write: Callable[..., bytes] = self.layouts[layout]
        return write(*fields)

    def has(self, state: str, direction: str, name: str) -> bool:
        return self.ids.get(state, {}).get(direction, {}).get(name) is not None

    @property
    def has_configuration(self) -> bool:
        return "configuration" in self.ids

    def chat_id(self, direction: str) -> int:
        for name in CHAT_NAMES[direction]:
            if self.has("play", direction, name):
                return self.pid("play", direction, name)
        raise WireError(f"{self.name} has no chat packet {direction}")

    # packets (id + fields)
    def handshake(self, host: str, port: int) -> bytes:
        return varint(0) + varint(self.protocol) + string(host) + struct.pack(">H", port) + varint(2)

    def login_start(self, name: str) -> bytes:
        return varint(self.pid("login", TO_SERVER, "login_start")) + self._write("login_start", name, offline_uuid(name))

    def encryption_request(self, public_key_der: bytes, token: bytes) -> bytes:
        return (varint(self.pid("login", TO_CLIENT, "encryption_begin")) + string("") + varint(len(public_key_der))
                + public_key_der + varint(len(token)) + token + bytes(self.layouts["encrypt_request_tail"]))

    def encryption_response(self, secret: bytes, token: bytes) -> bytes:
        """Both already encrypted with the server's key; on 1.19-1.19.2 the token sits behind
        the hasVerifyToken switch (true: the peers never send a signed nonce)."""
        switch = b"\x01" if self.layouts.get("encrypt_response_switch") else b""
        return (varint(self.pid("login", TO_SERVER, "encryption_begin")) + varint(len(secret)) + secret
                + switch + varint(len(token)) + token)

    def read_encryption_response(self, packet: bytes) -> tuple[bytes, bytes]:
        """(encrypted secret, encrypted verify token) of an Encryption Response (id included)."""
        _, pos = read_varint(packet, 0)
        size, pos = read_varint(packet, pos)
        secret = packet[pos:pos + size]
        pos += size
        if self.layouts.get("encrypt_response_switch"):
            if packet[pos:pos + 1] != b"\x01":
                raise WireError("encryption response with a signed nonce instead of the verify token")
            pos += 1
        size, pos = read_varint(packet, pos)
        return secret, packet[pos:pos + size]

    def read_encryption_request(self, packet: bytes) -> tuple[str, bytes, bytes, bool]:
        """(server id, public key DER, verify token, should authenticate) of an Encryption Request."""
        _, pos = read_varint(packet, 0)
        server_id, pos = read_string(packet, pos)
        size, pos = read_varint(packet, pos)
        key = packet[pos:pos + size]
        pos += size
        size, pos = read_varint(packet, pos)
        token = packet[pos:pos + size]
        pos += size
        authenticate = packet[pos:pos + 1] != b"\x00" if self.layouts["encrypt_request_tail"] else True
        return server_id, key, token, authenticate

    def set_compression(self, threshold: int) -> bytes:
        return varint(self.pid("login", TO_CLIENT, "compress")) + varint(threshold)

    def login_success(self, name: str) -> bytes:
        return varint(self.pid("login", TO_CLIENT, "success")) + self._write("success", offline_uuid(name), name)

    def chat_up(self, text: str) -> bytes:
        return varint(self.chat_id(TO_SERVER)) + self._write("chat_up", text)

    def chat_down(self, text: str) -> bytes:
        return varint(self.chat_id(TO_CLIENT)) + self._write("chat_down", text)

    def entity_velocity(self, entity_id: int, vx: int, vy: int, vz: int) -> bytes:
        return varint(self.pid("play", TO_CLIENT, "entity_velocity")) + varint(entity_id) + struct.pack(">hhh", vx, vy, vz)

    def plugin_message(self, channel: str, data: bytes) -> bytes:
        return varint(self.pid("play", TO_CLIENT, "custom_payload")) + string(channel) + data


def load_version(name: str, protocol_json: Path = PROTOCOL_JSON) -> Version:
    document = json.loads(protocol_json.read_text(encoding="utf-8"))
    entry = document["versions"].get(name)
    if entry is None:
        raise WireError(f"no protocol data for {name} in {protocol_json}")
    layouts = LAYOUTS.get(name)
    if layouts is None:
        raise WireError(f"the benchmark peers have no packet layouts for {name} yet (have: {', '.join(LAYOUTS)})")
    return Version(name, int(entry["protocol"]), document["pools"]["ids"][entry["ids"]], layouts)  # ids are pooled


# -- workloads ----------------------------------------------------------------------
WORDS = ("the", "north", "gate", "after", "storm", "meet", "me", "at", "farm", "wheat", "is", "ready", "bring",
         "some", "iron", "we", "need", "more", "torches", "for", "mine", "cave", "down", "by", "river", "nice",
         "build", "who", "has", "spare", "coal", "lets", "go", "nether", "tonight", "careful", "creepers", "near",
         "base", "thanks", "anyone", "seen", "my", "dog", "village", "trade", "emeralds", "books", "sheep", "wool")


def chat_text(rng: random.Random, serial: int) -> str:
    """Ordinary player chat: no command or assistant prefix, so mcagent forwards it."""
    words = [rng.choice(WORDS) for _ in range(rng.randint(4, 10))]
    return " ".join(words) + f" {serial:04d}"


@dataclass
class Stream:
    """A periodic byte stream: ``period`` repeated forever; ``ends`` are the frame ends in one period."""
    period: bytes
    ends: list[int]
    packet: str  # what kind of packet, for the report
    direction: str
    packet_bytes: float  # mean uncompressed packet size (id + fields)

    @property
    def frames(self) -> int:
        return len(self.ends)

    def chunk(self, at_least: int = 1 << 18) -> bytes:
        """The period repeated to at least ``at_least`` bytes: one write of the generator."""
        return self.period * max(1, -(-at_least // len(self.period)))


def _stream(packets: list[bytes], threshold: int, packet: str, direction: str) -> Stream:
    out = bytearray()
    ends = []
    for p in packets:
        out += frame(p, threshold)
        ends.append(len(out))
    return Stream(bytes(out), ends, packet, direction, sum(map(len, packets)) / len(packets))


def workload_stream(workload: str, version: Version, threshold: int, seed: int = 1) -> Stream:
    rng = random.Random(seed)
    if workload == "small":
        # Entity velocity: ~10 bytes, below any threshold, not decoded by mcagent.
        packets = [version.entity_velocity(rng.randint(1, 5000), rng.randint(-800, 800), rng.randint(-800, 800),
                                           rng.randint(-800, 800)) for _ in range(4096)]
        return _stream(packets, threshold, "entity_velocity", TO_CLIENT)
    if workload == "big":
        # Plugin message with ~1 KB of low-entropy bytes (like chunk sections): compressed on the wire.
        alphabet = bytes(rng.sample(range(256), 16))
        packets = []
        for _ in range(256):
            data = bytes(rng.choice(alphabet) for _ in range(1000))
            packets.append(version.plugin_message("bench:load", data))
        return _stream(packets, threshold, "custom_payload ~1KB", TO_CLIENT)
    if workload == "chat":
        packets = [version.chat_up(chat_text(rng, i)) for i in range(2048)]
        return _stream(packets, threshold, "chat (client->server)", TO_SERVER)
    raise WireError(f"unknown flood workload {workload!r}")


# -- sinks ------------------------------------------------------------------------------
class StreamCounter:
    """Counts complete frames of a byte stream expected to equal ``stream.period`` repeated."""

    def __init__(self, stream: Stream, max_read: int) -> None:
        self.period_len = len(stream.period)
        self.per_period = stream.frames
        self.ends = stream.ends
        reps = 1 + -(-max_read // self.period_len)
        self.reference = stream.period * (reps + 1)
        self.pos = 0  # bytes fed
        self.frames = 0  # complete frames seen
        self.verified = True  # every byte so far equalled the expected stream
        self.mismatch_at: int | None = None
        self._buf = bytearray()  # parse mode only
        self._off = 0

    def _frames_before(self, pos: int) -> int:
        q, r = divmod(pos, self.period_len)
        return q * self.per_period + bisect.bisect_right(self.ends, r)

    def feed(self, data: memoryview) -> None:
        n = len(data)
        if self.verified:
            off = self.pos % self.period_len
            if self.reference.startswith(data, off):
                before = self._frames_before(self.pos)
                self.pos += n
                self.frames += self._frames_before(self.pos) - before
                return
            self._switch_to_parse(data)
            return
        self.pos += n
        self._buf += data
        self._parse()

    def _switch_to_parse(self, data: memoryview) -> None:
        # Find the first differing byte, then restart parsing at the frame boundary before it.
        off = self.pos % self.period_len
        i = 0
        n = len(data)
        while i < n and data[i] == self.reference[off + i]:
            i += 1
        bad = self.pos + i
        self.verified = False
        self.mismatch_at = bad
        q, r = divmod(bad, self.period_len)
        k = bisect.bisect_right(self.ends, r)
        boundary = q * self.period_len + (self.ends[k - 1] if k else 0)
        # every frame that ends at or before ``boundary`` arrived as expected
        self.frames = self._frames_before(boundary)
        if boundary >= self.pos:
            self._buf = bytearray(data[boundary - self.pos:])
        else:
            # the bytes from the boundary up to this read matched the reference
            start = boundary % self.period_len
            self._buf = bytearray(self.reference[start:start + (self.pos - boundary)])
            self._buf += data
        self._off = 0
        self.pos += n
        self._parse()

    def _parse(self) -> None:
        buf = self._buf
        off = self._off
        end = len(buf)
        frames = 0
        while off < end:
            b = buf[off]
            if b < 0x80:  # one-byte length: the common case
                nxt = off + 1 + b
            else:
                try:
                    length, body = read_varint(buf, off, end)
                except Incomplete:
                    break
                nxt = body + length
            if nxt > end:
                break
            off = nxt
            frames += 1
        self.frames += frames
        if off > (1 << 20):
            del buf[:off]
            off = 0
        self._off = off


class FrameReader:
    """Frames for the slow parts (login, sync, echo): returns (packet id, packet bytes)."""

    def __init__(self) -> None:
        self.buf = bytearray()
        self.threshold = -1

    def feed(self, data: bytes) -> None:
        self.buf += data

    def next(self) -> tuple[int, bytes] | None:
        buf = self.buf
        try:
            length, body = read_varint(buf, 0)
        except Incomplete:
            return None
        if body + length > len(buf):
            return None
        raw = bytes(buf[body:body + length])
        del buf[:body + length]
        if self.threshold >= 0:
            declared, start = read_varint(raw, 0)
            packet = zlib.decompress(raw[start:]) if declared else raw[start:]
        else:
            packet = raw
        pid, _ = read_varint(packet, 0)
        return pid, packet

    def take_rest(self) -> bytes:
        rest = bytes(self.buf)
        self.buf.clear()
        return rest
