"""The relay benchmark's scripted Minecraft server and client (offline mode, no world).

How this works: ``server`` accepts one connection, logs the player in
(handshake, login start -> set compression, login success, plus the empty
configuration phase on 1.20.2+), answers one ``sync`` chat so both directions
are known to flow end to end, then runs the workload; ``client`` is the other
side. Floods write one pre-built chunk of frames over and over with blocking
``sendall`` (the kernel does the work); the sink reads into one buffer and counts
frames with ``mcwire.StreamCounter``. The sink prints JSON lines on stdout:
``window_start`` when the warm-up ends and ``result`` when the measuring window
ends, so the orchestrator can read CPU times of every process at those moments.
The echo workload measures chat round trips one at a time.

Workloads: small / big (server -> client floods), chat (client -> server flood),
echo (client chat, the server answers with a chat message).
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcwire import TO_CLIENT, TO_SERVER, FrameReader, StreamCounter, WireError, load_version, read_string, read_varint, workload_stream, frame  # noqa: E402

MAX_READ = 1 << 20
SYNC = "sync"


def emit(**fields: object) -> None:
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


class CipherSocket:
    """A socket whose bytes are AES/CFB8 both ways once ``enable`` is called."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self._enc = None
        self._dec = None

    def enable(self, secret: bytes) -> None:
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

        try:
            from cryptography.hazmat.decrepit.ciphers.modes import CFB8
        except ImportError:  # cryptography < 43
            from cryptography.hazmat.primitives.ciphers.modes import CFB8  # type: ignore[attr-defined,no-redef]
        cipher = Cipher(algorithms.AES(secret), CFB8(secret))
        self._enc = cipher.encryptor()
        self._dec = cipher.decryptor()

    def sendall(self, data: bytes) -> None:
        self.sock.sendall(self._enc.update(data) if self._enc is not None else data)

    def recv(self, size: int) -> bytes:
        data = self.sock.recv(size)
        return self._dec.update(data) if self._dec is not None and data else data

    def recv_into(self, buf: bytearray) -> int:
        n = self.sock.recv_into(buf)
        if self._dec is not None and n > 0:
            buf[:n] = self._dec.update(bytes(buf[:n]))
        return n

    def __getattr__(self, name: str):  # settimeout, setsockopt, close, ...
        return getattr(self.sock, name)


class Peer:
    def __init__(self, sock: socket.socket, version, threshold: int) -> None:
        self.sock = sock
        self.v = version
        self.reader = FrameReader()
        self.threshold = -1  # of what we send
        self.wanted_threshold = threshold
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def send(self, packet: bytes) -> None:
        self.sock.sendall(frame(packet, self.threshold))

    def recv_packet(self, deadline: float) -> tuple[int, bytes]:
        while True:
            got = self.reader.next()
            if got is not None:
                return got
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("timed out waiting for a packet")
            self.sock.settimeout(remaining)
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("connection closed by the other side")
            self.reader.feed(data)

    def chat_text_of(self, packet: bytes, direction: str) -> str | None:
        """The text of a chat packet we wrote (either direction), else None."""
        pid, pos = read_varint(packet, 0)
        if pid != self.v.chat_id(direction):
            return None
        if direction == TO_CLIENT and packet[pos:pos + 1] == b"\x0a":
            return nbt_text_of(packet, pos)  # 1.20.3+: a text component as network NBT
        text, _ = read_string(packet, pos)
        if direction == TO_CLIENT:
            try:
                return str(json.loads(text).get("text", ""))
            except (ValueError, AttributeError):
                return text
        return text


def nbt_text_of(packet: bytes, pos: int) -> str | None:
    """The "text" string of a nameless NBT compound (what ``mcwire.nbt_text`` writes)."""
    pos += 1
    while pos < len(packet) and packet[pos] != 0:
        tag = packet[pos]
        name_len = struct.unpack_from(">H", packet, pos + 1)[0]
        name = packet[pos + 3:pos + 3 + name_len]
        pos += 3 + name_len
        if tag != 8:
            return None  # only string tags are expected here
        value_len = struct.unpack_from(">H", packet, pos)[0]
        value = packet[pos + 2:pos + 2 + value_len]
        pos += 2 + value_len
        if name == b"text":
            return value.decode("utf-8", "replace")
    return None


# -- server ----------------------------------------------------------------------------
def run_server(args: argparse.Namespace) -> int:
    v = load_version(args.version)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", args.port))
    listener.listen(4)
    emit(event="listening", port=listener.getsockname()[1])
    listener.settimeout(args.accept_timeout)
    try:
        sock, _ = listener.accept()
    except socket.timeout:
        emit(event="error", error="no connection arrived")
        return 1
    listener.close()
    sock = CipherSocket(sock)
    peer = Peer(sock, v, args.threshold)
    deadline = time.monotonic() + args.login_timeout
    try:
        pid, packet = peer.recv_packet(deadline)  # handshake
        if pid != 0:
            raise WireError(f"expected a handshake, got packet {pid}")
        pid, packet = peer.recv_packet(deadline)
        if pid != v.pid("login", TO_SERVER, "login_start"):
            raise WireError(f"expected login start, got packet {pid}")
        name, _ = read_string(packet, 1)
        if args.encrypt:
            server_encryption(peer, deadline)
        if args.threshold >= 0:
            peer.send(v.set_compression(args.threshold))
            peer.threshold = args.threshold
            peer.reader.threshold = args.threshold
        peer.send(v.login_success(name))
        if v.has_configuration:
            pid, _ = peer.recv_packet(deadline)
            if pid != v.pid("login", TO_SERVER, "login_acknowledged"):
                raise WireError(f"expected login acknowledged, got packet {pid}")
            peer.send(bytes([v.pid("configuration", TO_CLIENT, "finish_configuration")]))
            # real clients send client information and their brand first: skip to the acknowledgement
            while peer.recv_packet(deadline)[0] != v.pid("configuration", TO_SERVER, "finish_configuration"):
                pass
        # sync: the first chat from the client, answered once
        while True:
            pid, packet = peer.recv_packet(deadline)
            text = peer.chat_text_of(packet, TO_SERVER)
            if text == SYNC:
                peer.send(v.chat_down(SYNC))
                break
        emit(event="playing", name=name)
        if args.workload in ("small", "big"):
            return flood(sock, workload_stream(args.workload, v, args.threshold), args)
        if args.workload == "chat":
            # drop repeated syncs (the client retries when an echo is slow), keep the rest
            rest = leftover_after_syncs(peer, deadline)
            return sink(sock, workload_stream("chat", v, args.threshold), rest, args)
        if args.workload == "echo":
            return echo_server(peer, args)
        raise WireError(f"unknown workload {args.workload}")
    except (OSError, WireError, TimeoutError, ConnectionError) as exc:
        emit(event="error", error=f"{type(exc).__name__}: {exc}")
        return 1


def server_encryption(peer: Peer, deadline: float) -> None:
    from cryptography.hazmat.primitives.asymmetric import padding, rsa
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    der = key.public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    token = os.urandom(4)
    peer.send(peer.v.encryption_request(der, token))
    pid, packet = peer.recv_packet(deadline)
    if pid != peer.v.pid("login", TO_SERVER, "encryption_begin"):
        raise WireError(f"expected an encryption response, got packet {pid}")
    size, pos = read_varint(packet, 1)
    secret = key.decrypt(packet[pos:pos + size], padding.PKCS1v15())
    pos += size
    size, pos = read_varint(packet, pos)
    if key.decrypt(packet[pos:pos + size], padding.PKCS1v15()) != token:
        raise WireError("encryption response with a wrong verify token")
    peer.sock.enable(secret)


def client_encryption(peer: Peer, packet: bytes) -> None:
    from cryptography.hazmat.primitives.asymmetric import padding
    from cryptography.hazmat.primitives.serialization import load_der_public_key

    _, pos = read_string(packet, 1)  # server id
    size, pos = read_varint(packet, pos)
    key = load_der_public_key(packet[pos:pos + size])
    pos += size
    size, pos = read_varint(packet, pos)
    token = packet[pos:pos + size]
    secret = os.urandom(16)
    peer.send(peer.v.encryption_response(key.encrypt(secret, padding.PKCS1v15()), key.encrypt(token, padding.PKCS1v15())))
    peer.sock.enable(secret)


def leftover_after_syncs(peer: Peer, deadline: float) -> bytes:
    reader = peer.reader
    while True:
        snapshot = bytes(reader.buf)
        got = reader.next()
        if got is None:
            if snapshot:
                return snapshot  # an incomplete frame of the flood
            peer.sock.settimeout(max(0.01, deadline - time.monotonic()))
            data = peer.sock.recv(65536)
            if not data:
                raise ConnectionError("closed before the flood")
            reader.feed(data)
            continue
        if peer.chat_text_of(got[1], TO_SERVER) != SYNC:
            return snapshot  # the flood starts with this frame


def echo_server(peer: Peer, args: argparse.Namespace) -> int:
    deadline = time.monotonic() + args.max_seconds
    answered = 0
    while time.monotonic() < deadline:
        try:
            _, packet = peer.recv_packet(deadline)
        except (ConnectionError, TimeoutError, OSError):
            break
        text = peer.chat_text_of(packet, TO_SERVER)
        if text is not None:
            peer.send(peer.v.chat_down(text))
            answered += 1
    emit(event="done", answered=answered)
    return 0


# -- generator and sink -------------------------------------------------------------------
def flood(sock: socket.socket, stream, args: argparse.Namespace) -> int:
    chunk = stream.chunk(1 << 18)
    sock.settimeout(None)
    deadline = time.monotonic() + args.max_seconds
    sent = 0
    try:
        while time.monotonic() < deadline:
            sock.sendall(chunk)
            sent += len(chunk)
    except OSError:
        pass  # the sink (or the relay in front of it) closed: the measurement is over
    emit(event="done", sent_bytes=sent)
    return 0


def sink(sock: socket.socket, stream, first: bytes, args: argparse.Namespace) -> int:
    counter = StreamCounter(stream, MAX_READ)
    buf = bytearray(MAX_READ)
    view = memoryview(buf)
    sock.settimeout(0.25)
    started = time.monotonic()
    if first:
        counter.feed(memoryview(first))
    window_start = started + args.warmup
    window_end = window_start + args.duration
    give_up = window_end + args.stall_timeout
    in_window = False
    frames0 = bytes0 = 0
    t0 = 0.0
    while True:
        try:
            n = sock.recv_into(buf)
        except socket.timeout:
            n = -1
        now = time.monotonic()
        if n == 0:
            emit(event="error", error="the stream ended before the window did",
                 frames=counter.frames, bytes=counter.pos)
            return 1
        if n > 0:
            counter.feed(view[:n])
        if not in_window and now >= window_start:
            in_window = True
            frames0, bytes0, t0 = counter.frames, counter.pos, now
            emit(event="window_start")
        if in_window and now >= window_end:
            seconds = now - t0
            emit(event="result", frames=counter.frames - frames0, bytes=counter.pos - bytes0, seconds=seconds,
                 verified=counter.verified, mismatch_at=counter.mismatch_at, total_frames=counter.frames,
                 packet=stream.packet, wire_frame_bytes=len(stream.period) / stream.frames,
                 packet_bytes=stream.packet_bytes)
            sock.close()
            return 0
        if now > give_up:
            emit(event="error", error="stalled", frames=counter.frames, bytes=counter.pos)
            return 1


# -- client ---------------------------------------------------------------------------------
def run_client(args: argparse.Namespace) -> int:
    v = load_version(args.version)
    host, _, port = args.connect.rpartition(":")
    deadline = time.monotonic() + args.login_timeout
    try:
        sock = CipherSocket(socket.create_connection((host, int(port)), timeout=args.login_timeout))
        peer = Peer(sock, v, args.threshold)
        name = args.name
        peer.send(v.handshake(host, int(port)))
        peer.send(v.login_start(name))
        while True:
            pid, packet = peer.recv_packet(deadline)
            if pid == v.pid("login", TO_CLIENT, "compress"):
                threshold, _ = read_varint(packet, 1)
                peer.threshold = peer.reader.threshold = threshold
            elif pid == v.pid("login", TO_CLIENT, "success"):
                break
            elif pid == v.pid("login", TO_CLIENT, "encryption_begin"):
                client_encryption(peer, packet)
            elif pid == v.pid("login", TO_CLIENT, "disconnect"):
                reason, _ = read_string(packet, 1)
                emit(event="error", error=f"refused at login: {reason}")
                return 2
            else:
                raise WireError(f"unexpected login packet {pid}")
        if v.has_configuration:
            peer.send(bytes([v.pid("login", TO_SERVER, "login_acknowledged")]))
            while True:
                pid, _ = peer.recv_packet(deadline)
                if pid == v.pid("configuration", TO_CLIENT, "finish_configuration"):
                    peer.send(bytes([v.pid("configuration", TO_SERVER, "finish_configuration")]))
                    break
        sync(peer, deadline)
        emit(event="playing", threshold=peer.threshold)
        if args.workload in ("small", "big"):
            return sink(sock, workload_stream(args.workload, v, peer.threshold), peer.reader.take_rest(), args)
        if args.workload == "chat":
            return flood(sock, workload_stream("chat", v, peer.threshold), args)
        if args.workload == "echo":
            return echo_client(peer, args)
        raise WireError(f"unknown workload {args.workload}")
    except (OSError, WireError, TimeoutError, ConnectionError) as exc:
        emit(event="error", error=f"{type(exc).__name__}: {exc}")
        return 1


def sync(peer: Peer, deadline: float) -> None:
    """Send ``sync`` until the server's answer comes back: the path is up both ways."""
    while True:
        peer.send(peer.v.chat_up(SYNC))
        retry = min(deadline, time.monotonic() + 1.0)
        try:
            while True:
                pid, packet = peer.recv_packet(retry)
                if peer.chat_text_of(packet, TO_CLIENT) == SYNC:
                    return
        except TimeoutError:
            if time.monotonic() >= deadline:
                raise TimeoutError("no answer to the sync chat") from None


def echo_client(peer: Peer, args: argparse.Namespace) -> int:
    v = peer.v
    rtts: list[float] = []
    started = time.monotonic()
    deadline = started + args.duration
    i = 0
    # a few unmeasured round trips first (connection warm-up, lazy imports in the relays)
    warm = 50
    while (i < args.count + warm) and time.monotonic() < deadline:
        token = f"ping {i:06d} how is the build going"
        packet = frame(v.chat_up(token), peer.threshold)
        t0 = time.perf_counter()
        peer.sock.sendall(packet)
        limit = time.monotonic() + 5.0
        while True:
            _, answer = peer.recv_packet(limit)
            if peer.chat_text_of(answer, TO_CLIENT) == token:
                break
        rtt = time.perf_counter() - t0
        if i >= warm:
            rtts.append(rtt)
        i += 1
    peer.sock.close()
    if not rtts:
        emit(event="error", error="no round trip completed")
        return 1
    rtts.sort()

    def pct(p: float) -> float:
        return rtts[min(len(rtts) - 1, int(p / 100 * len(rtts)))] * 1e6

    emit(event="result", n=len(rtts), p50_us=pct(50), p90_us=pct(90), p99_us=pct(99),
         mean_us=sum(rtts) / len(rtts) * 1e6, max_us=rtts[-1] * 1e6,
         rtts_us=[round(r * 1e6, 1) for r in rtts])
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("role", choices=["server", "client"])
    parser.add_argument("--version", default="1.18.2")
    parser.add_argument("--workload", required=True, choices=["small", "big", "chat", "echo"])
    parser.add_argument("--port", type=int, default=0, help="server: port to listen on (0: any)")
    parser.add_argument("--connect", default="127.0.0.1:25565", help="client: HOST:PORT")
    parser.add_argument("--name", default="benchbot")
    parser.add_argument("--threshold", type=int, default=256, help="server: compression threshold")
    parser.add_argument("--warmup", type=float, default=0.5)
    parser.add_argument("--duration", type=float, default=3.0, help="measuring window (echo: time budget)")
    parser.add_argument("--count", type=int, default=2000, help="echo: round trips to measure")
    parser.add_argument("--max-seconds", type=float, default=30.0, help="generator / echo server bound")
    parser.add_argument("--stall-timeout", type=float, default=10.0)
    parser.add_argument("--login-timeout", type=float, default=15.0)
    parser.add_argument("--accept-timeout", type=float, default=30.0)
    parser.add_argument("--encrypt", action="store_true", help="server: ask for online mode's encryption")
    args = parser.parse_args(argv)
    return run_server(args) if args.role == "server" else run_client(args)


if __name__ == "__main__":
    raise SystemExit(main())
