"""A real ``mcagent run`` between a scripted Minecraft server and client over loopback sockets.

No Node peers: the server and the client are a few lines of Python speaking
1.18.2 with ``proxy.testing``'s packet builders, so a test can time exactly
what it cares about:

* ``FakeUpstream`` accepts the proxy's connection, answers the login, then
  sends a keep-alive every ``interval`` seconds and records, per id, when it
  was sent and when the answer came back through the proxy (the round trip
  server → proxy → client → proxy → server).
* ``RawClient`` logs in through the proxy, answers every keep-alive at once,
  sends chat, and keeps the chat lines the proxy shows it.

Used by the model-service integration tests and ``bench/model.py``.
"""
from __future__ import annotations

import socket
import statistics
import threading
import time
from typing import Any

from proxy.codec.chat import plain_text
from proxy.protocol.handshake import LOGIN, parse_handshake
from proxy.testing import FrameReader, build_packet, codec_for, frame, handshake_packet, packet_id

VERSION = "1.18.2"


class _Conn:
    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.reader = FrameReader()
        self.lock = threading.Lock()

    def send(self, packet: bytes) -> None:
        with self.lock:
            self.sock.sendall(frame(packet))

    def packets(self) -> list[bytes]:
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("closed")
        return self.reader.feed(data)


class FakeUpstream:
    def __init__(self, interval: float = 0.05) -> None:
        self.codec = codec_for(VERSION)
        self.interval = interval
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(4)
        self.port = self.listener.getsockname()[1]
        self.sent: dict[int, float] = {}
        self.answered: dict[int, float] = {}
        self.chats: list[str] = []
        self.logged_in = threading.Event()
        self.stopped = threading.Event()
        self._conn: _Conn | None = None
        threading.Thread(target=self._serve, name="fake-upstream", daemon=True).start()

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                sock, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._connection, args=(sock,), daemon=True).start()

    def _connection(self, sock: socket.socket) -> None:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conn = _Conn(sock)
        got: list[bytes] = []
        try:
            while not got:
                got += conn.packets()
            if parse_handshake(got[0]).next_state != LOGIN:
                sock.close()  # the proxy's own status probe: not what we test
                return
            while len(got) < 2:  # handshake, login start
                got += conn.packets()
        except (ConnectionError, OSError):
            return
        self._conn = conn
        conn.send(build_packet(self.codec, "login", "toClient", "success", username="alice"))
        self.logged_in.set()
        threading.Thread(target=self._keepalives, daemon=True).start()
        ka = self.codec.table.packet_id("play", "toServer", "keep_alive")
        chat = self.codec.table.packet_id("play", "toServer", "chat")
        try:
            while not self.stopped.is_set():
                for packet in conn.packets():
                    pid = packet_id(packet)
                    if pid == ka:
                        fields = self.codec.decode("play", "toServer", "keep_alive", packet)
                        self.answered.setdefault(int(fields["keepAliveId"]), time.perf_counter())
                    elif pid == chat:
                        self.chats.append(self.codec.decode("play", "toServer", "chat", packet)["message"])
        except (ConnectionError, OSError):
            pass

    def _keepalives(self) -> None:
        n = 0
        assert self._conn is not None
        while not self.stopped.is_set():
            n += 1
            self.sent[n] = time.perf_counter()
            try:
                self._conn.send(build_packet(self.codec, "play", "toClient", "keep_alive", keepAliveId=n))
            except OSError:
                return
            time.sleep(self.interval)

    def round_trips(self, since: float = 0.0, until: float = float("inf")) -> list[float]:
        """Seconds from each keep-alive sent in [since, until) to its answer."""
        return [self.answered[k] - t for k, t in list(self.sent.items())
                if since <= t < until and k in self.answered]

    def unanswered(self, since: float, until: float) -> int:
        return sum(1 for k, t in list(self.sent.items()) if since <= t < until and k not in self.answered)

    def close(self) -> None:
        self.stopped.set()
        for s in (self.listener, self._conn.sock if self._conn else None):
            if s is not None:
                try:
                    s.close()
                except OSError:
                    pass


class RawClient:
    def __init__(self, port: int, name: str = "alice") -> None:
        self.codec = codec_for(VERSION)
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.settimeout(None)
        self.conn = _Conn(sock)
        self.lines: list[tuple[float, str, Any]] = []  # (time, plain text, component)
        self.closed = threading.Event()
        self.conn.send(handshake_packet(self.codec.protocol))
        self.conn.send(build_packet(self.codec, "login", "toServer", "login_start", username=name))
        self.in_play = threading.Event()
        threading.Thread(target=self._read, name="raw-client", daemon=True).start()

    def _read(self) -> None:
        codec = self.codec
        success = codec.table.packet_id("login", "toClient", "success")
        ka = codec.table.packet_id("play", "toClient", "keep_alive")
        chat = codec.table.packet_id("play", "toClient", codec.chat_packet)
        try:
            while True:
                for packet in self.conn.packets():
                    pid = packet_id(packet)
                    if not self.in_play.is_set():
                        if pid == success:
                            self.in_play.set()
                        continue
                    if pid == ka:
                        fields = codec.decode("play", "toClient", "keep_alive", packet)
                        self.conn.send(build_packet(codec, "play", "toServer", "keep_alive",
                                                    keepAliveId=fields["keepAliveId"]))
                    elif pid == chat:
                        fields = codec.decode("play", "toClient", codec.chat_packet, packet)
                        component = fields.get("message") or fields.get("content")
                        self.lines.append((time.perf_counter(), plain_text(component), component))
        except (ConnectionError, OSError):
            self.closed.set()

    def chat(self, text: str) -> float:
        sent = time.perf_counter()
        self.conn.send(build_packet(self.codec, "play", "toServer", "chat", message=text))
        return sent

    def wait_line(self, fragment: str, timeout: float = 10.0, since: float = 0.0) -> tuple[float, str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.lines):
                if line[0] >= since and fragment in line[1]:
                    return line
            time.sleep(0.01)
        raise TimeoutError(f"{fragment!r} not shown; lines: {[l[1] for l in self.lines[-10:]]}")

    def close(self) -> None:
        try:
            self.conn.sock.close()
        except OSError:
            pass


def summary(samples: list[float]) -> dict[str, float]:
    if not samples:
        return {"n": 0, "p50_ms": float("nan"), "p99_ms": float("nan"), "max_ms": float("nan")}
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    return {"n": len(ordered), "p50_ms": statistics.median(ordered) * 1000, "p99_ms": p99 * 1000,
            "max_ms": ordered[-1] * 1000}
