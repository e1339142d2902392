"""The relay benchmark's scripted Minecraft server and client (no world).

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

Offline mode by default. With ``--encrypt`` the server runs online mode's exchange
(RSA-1024 key, verify token) and both sides switch to AES/CFB8. It is a load peer,
but it checks the join as a vanilla server does when given ``--session-server`` (the
bench's local session server, never Mojang's): ``hasJoined`` with the name and digest,
and a player the session server does not confirm is refused. The client answers any
encryption request, joining at ``--session-server`` first with ``--access-token`` and
``--uuid`` when given (without them it skips the join, and a checking server refuses it).
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import struct
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import TYPE_CHECKING

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcwire import (TO_CLIENT, TO_SERVER, FrameReader, Incomplete, Stream, StreamCounter, Version,  # noqa: E402
                    WireError, frame, load_version, read_string, read_varint, server_hash, string, workload_stream)

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.ciphers import CipherContext

MAX_READ = 1 << 20
SYNC = "sync"
# The session server is a local one (the bench's): never through an HTTP proxy from the environment.
HTTP = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def emit(**fields: object) -> None:
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


class CipherSocket:
    """A socket whose bytes are AES/CFB8 both ways once ``enable`` is called."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self._enc: CipherContext | None = None
        self._dec: CipherContext | None = None

    def enable(self, secret: bytes) -> None:
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

        try:
            from cryptography.hazmat.decrepit.ciphers.modes import CFB8
        except ImportError:  # cryptography < 43
            from cryptography.hazmat.primitives.ciphers.modes import CFB8  # type: ignore[attr-defined,no-redef,unused-ignore]
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

    def settimeout(self, timeout: float | None) -> None:
        self.sock.settimeout(timeout)

    def setsockopt(self, level: int, option: int, value: int) -> None:
        self.sock.setsockopt(level, option, value)

    def close(self) -> None:
        self.sock.close()


class Peer:
    def __init__(self, sock: CipherSocket, version: Version, threshold: int) -> None:
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
    accept_until = time.monotonic() + args.accept_timeout
    pid, packet = -1, b""
    while True:
        listener.settimeout(max(0.01, accept_until - time.monotonic()))
        try:
            accepted, _ = listener.accept()
        except socket.timeout:
            emit(event="error", error="no connection arrived")
            return 1
        sock = CipherSocket(accepted)
        peer = Peer(sock, v, args.threshold)
        deadline = time.monotonic() + args.login_timeout
        try:
            pid, packet = peer.recv_packet(deadline)  # handshake
            next_state = handshake_next_state(packet) if pid == 0 else -1
        except (OSError, WireError, Incomplete, TimeoutError, ConnectionError):
            sock.close()
            continue  # not a client of ours
        if next_state == 1:
            # A server-list ping (mcagent probes its upstream every 30 s): answered as a
            # server would, and the connection to measure is still to come.
            answer_status(peer, v, deadline)
            continue
        break
    listener.close()
    try:
        if pid != 0:
            raise WireError(f"expected a handshake, got packet {pid}")
        pid, packet = peer.recv_packet(deadline)
        if pid != v.pid("login", TO_SERVER, "login_start"):
            raise WireError(f"expected login start, got packet {pid}")
        name, _ = read_string(packet, 1)
        if args.encrypt:
            server_encryption(peer, name, args, deadline)
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
    except (OSError, WireError, Incomplete, TimeoutError, ConnectionError) as exc:
        emit(event="error", error=f"{type(exc).__name__}: {exc}")
        return 1


def handshake_next_state(packet: bytes) -> int:
    _, pos = read_varint(packet, 0)  # packet id
    _, pos = read_varint(packet, pos)  # protocol
    _, pos = read_string(packet, pos)  # server address
    state, _ = read_varint(packet, pos + 2)  # after the port
    return state


def answer_status(peer: Peer, v: Version, deadline: float) -> None:
    """Status response and pong for one server-list ping; whatever the pinger does, the
    connection is closed after."""
    status = {"version": {"name": v.name, "protocol": v.protocol}, "players": {"max": 1, "online": 0},
              "description": {"text": "relay bench peer"}}
    try:
        while True:
            pid, packet = peer.recv_packet(min(deadline, time.monotonic() + 2.0))
            if pid == 0:
                peer.send(b"\x00" + string(json.dumps(status)))
            elif pid == 1:
                peer.send(packet)  # pong: the ping's payload back
                break
    except (OSError, WireError, Incomplete, TimeoutError, ConnectionError):
        pass
    peer.sock.close()


def server_encryption(peer: Peer, name: str, args: argparse.Namespace, deadline: float) -> None:
    """Online mode's exchange, as a vanilla server runs it; with ``--session-server``, the
    join is checked there (``hasJoined``) and a player who did not join is refused."""
    from cryptography.hazmat.primitives.asymmetric import padding, rsa
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    der = key.public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    token = os.urandom(4)
    peer.send(peer.v.encryption_request(der, token))
    pid, packet = peer.recv_packet(deadline)
    if pid != peer.v.pid("login", TO_SERVER, "encryption_begin"):
        raise WireError(f"expected an encryption response, got packet {pid}")
    encrypted_secret, encrypted_token = peer.v.read_encryption_response(packet)
    secret = key.decrypt(encrypted_secret, padding.PKCS1v15())
    if key.decrypt(encrypted_token, padding.PKCS1v15()) != token:
        raise WireError("encryption response with a wrong verify token")
    if args.session_server:
        query = urllib.parse.urlencode({"username": name, "serverId": server_hash("", secret, der)})
        with HTTP.open(f"{args.session_server}/session/minecraft/hasJoined?{query}",
                       timeout=max(0.5, deadline - time.monotonic())) as answer:
            body = answer.read()
        try:
            profile = json.loads(body) if answer.status == 200 and body else None
        except ValueError:
            profile = None
        if not isinstance(profile, dict) or profile.get("name") != name:
            raise WireError(f"the session server did not confirm that {name} joined (HTTP {answer.status})")
    peer.sock.enable(secret)


def client_encryption(peer: Peer, packet: bytes, args: argparse.Namespace, deadline: float) -> None:
    """Answer an encryption request; with ``--session-server`` (and the account's token and
    UUID), join there first, as a vanilla client does."""
    from cryptography.hazmat.primitives.asymmetric import padding
    from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey
    from cryptography.hazmat.primitives.serialization import load_der_public_key

    server_id, der, token, authenticate = peer.v.read_encryption_request(packet)
    key = load_der_public_key(der)
    if not isinstance(key, RSAPublicKey):
        raise WireError("the encryption request's key is not RSA")
    secret = os.urandom(16)
    if authenticate and args.session_server:
        body = json.dumps({"accessToken": args.access_token, "selectedProfile": args.uuid,
                           "serverId": server_hash(server_id, secret, der)}).encode()
        request = urllib.request.Request(f"{args.session_server}/session/minecraft/join", data=body,
                                         headers={"Content-Type": "application/json"}, method="POST")
        try:
            with HTTP.open(request, timeout=max(0.5, deadline - time.monotonic())) as answer:
                answer.read()
        except urllib.error.HTTPError as exc:
            raise WireError(f"the session server refused the join: HTTP {exc.code}") from None
    peer.send(peer.v.encryption_response(key.encrypt(secret, padding.PKCS1v15()),
                                         key.encrypt(token, padding.PKCS1v15())))
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
def flood(sock: CipherSocket, stream: Stream, args: argparse.Namespace) -> int:
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


def sink(sock: CipherSocket, stream: Stream, first: bytes, args: argparse.Namespace) -> int:
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
                client_encryption(peer, packet, args, deadline)
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
    except (OSError, WireError, Incomplete, TimeoutError, ConnectionError) as exc:
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
    parser.add_argument("--session-server", help="server: check joins here (hasJoined); client: join here first "
                        "(with --access-token and --uuid)")
    parser.add_argument("--access-token", default="", help="client: the account's Minecraft access token")
    parser.add_argument("--uuid", default="", help="client: the account's UUID without dashes")
    args = parser.parse_args(argv)
    return run_server(args) if args.role == "server" else run_client(args)


if __name__ == "__main__":
    raise SystemExit(main())
