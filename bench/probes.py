"""Issue 16's probes, repeatable: attacks on the real proxy while real players measure it.

How this works: a flying-squid server (1.18.2, superflat) runs behind a small TCP relay
(``Relay``: a man-in-the-middle that forwards every frame as it came and can inject
packets toward the proxy into one named player's upstream connection), and the real
proxy process (``mcagent run``) runs in front of the relay. Two mineflayer observer bots
log in through the proxy and chat in a loop, each timing the echo of its own line
(flying-squid broadcasts chat back to the sender). Each attack then runs with raw
sockets speaking the protocol with the project's own framing (``proxy.protocol``):
the bench records the observers' echo round trips during the attack (p50/p99, a lost
echo counts as its 5 s timeout), whether the proxy closed the attacker and with what
reason, and the proxy's RSS (``/proc/<pid>/status``) before, at its peak during, and
once settled after the attacker left. Verdict per issue 16's "Done when": observers'
p99 under 100 ms, RSS after within 50 MB of the baseline, the attacker closed (or the
excess logins refused, or the spoofed admin refused), and both observers still connected.

The observers' echo passes through the server, so a server busy with its own login work
delays it whoever sent the logins. Each admission probe is therefore followed by a control
row with as many logins as the proxy admits there, sent straight to the server, and the
admission probes run a second time on the world server (peers/world.js, 1.20.1, rows
``*_world``), whose logins cost it less than flying-squid's.

    .venv/bin/python bench/probes.py [--quick] [--only NAME[,NAME...]] [--json]

``--quick`` shortens the timed attacks (flood, slow reader, slowloris, idle
connections) and the sampling windows; the sizes of the malicious packets stay as the
issue describes them. This is a bench: it prints its measurements and exits 1 when a
probe fails; it is not a timed unit test.
"""
from __future__ import annotations

import argparse
import functools
import itertools
import json
import os
import socket
import struct
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from proxy.codec.versioned import VersionCodec  # noqa: E402
from proxy.protocol.errors import PeerError  # noqa: E402
from proxy.protocol.framing import Framing, Writer  # noqa: E402
from proxy.protocol.tables import ProtocolTable, table_for_version  # noqa: E402
from proxy.protocol.wire import pack_string, pack_varint, read_string, read_varint  # noqa: E402
from tests.e2e.peers import Bot, GameServer, SquidServer, WorldServer  # noqa: E402
from tests.e2e.proxy_process import ProxyProcess  # noqa: E402

VERSION = "1.18.2"
# The login rows run a second time on the lighter world server (peers/world.js), whose
# own login work stalls the observers' echo less than flying-squid's (see docs/probes.md).
WORLD_VERSION = "1.20.1"
LOGIN_ROWS = ("max_players", "control_direct_logins", "control_direct_2", "name_case", "control_direct_1")
MIB = 1024 * 1024
RTT_BOUND_MS = 100.0
RSS_BOUND_MIB = 50.0
LOST_ECHO_MS = 5000.0
READ_TIMEOUT = 10.0  # the proxy's read_timeout_seconds in this bench
ADMIN = "owner"
ECHO_PREFIX = "rtt"
FLOOD_CHILD = """
import socket, sys, time
sock = socket.socket(fileno=int(sys.argv[1]))
seconds, burst = float(sys.argv[2]), bytes.fromhex(sys.stdin.read().strip())
sock.settimeout(1)
deadline, sent = time.monotonic() + seconds, 0
while time.monotonic() < deadline:
    try:
        sock.sendall(burst)
        sent += 1
    except TimeoutError:
        continue
    except OSError:
        break
sock.detach()
print(sent)
"""
SLOWLORIS_BOUND = 35.0
# Probes whose bug was buffering while the attacker was still connected: the peak counts too.
PEAK_CHECKED = {"prelogin_2mb", "slow_reader"}  # seconds: the 30 s default deadline for reaching play, plus slack


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (/proc/<pid>/stat fields 14 and 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def settled_rss(pid: int, timeout: float, window: float = 2.0) -> int:
    """The RSS once it stops moving by more than 1 % over ``window`` seconds."""
    deadline = time.monotonic() + timeout
    last = rss_kib(pid)
    while time.monotonic() < deadline:
        time.sleep(window)
        now = rss_kib(pid)
        if abs(now - last) <= max(last // 100, 512):
            return now
        last = now
    return last


def reason_text(raw: str) -> str:
    """A disconnect reason's plain text (it is a JSON chat component on the wire)."""
    try:
        value: Any = json.loads(raw)
    except (ValueError, RecursionError):
        return raw[:200]
    parts: list[str] = []

    def walk(node: Any, depth: int = 0) -> None:
        if depth > 20:
            return
        if isinstance(node, str):
            parts.append(node)
        elif isinstance(node, dict):
            parts.append(str(node.get("text", "")))
            if "translate" in node:
                parts.append(str(node["translate"]))
            for child in node.get("with", []) + node.get("extra", []):
                walk(child, depth + 1)
        elif isinstance(node, list):
            for child in node:
                walk(child, depth + 1)

    walk(value)
    return "".join(parts)


# -- raw attacking clients ------------------------------------------------------------


class RawClient:
    """One player on a raw socket: the project's framing, offline login, keep-alives answered.

    ``login()`` blocks until login success (or a refusal); then a reader thread answers
    keep-alives, keeps the chat lines it receives and notes the disconnect reason and the
    moment the proxy closed the socket. ``reading=False`` leaves the socket unread (a
    client that stops reading).
    """

    def __init__(self, port: int, table: ProtocolTable, rcvbuf: int | None = None) -> None:
        self.table = table
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf is not None:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(10)
        self.sock.connect(("127.0.0.1", port))
        self.port = port
        self.framing = Framing()
        self.writer = Writer()
        self.reason: str | None = None
        self.closed_at: float | None = None
        self.logged_in = False
        self.chats: list[str] = []
        self.keep_chats = False  # parsing chat costs the bench's GIL, which the observers share
        self.received: set[int] = set()  # play packet ids seen (to tell an injected packet was forwarded)
        self.reading = True
        self._send_lock = threading.Lock()
        self._thread: threading.Thread | None = None

    @property
    def closed(self) -> bool:
        return self.closed_at is not None

    def send_packet(self, packet: bytes) -> None:
        with self._send_lock:
            self.sock.sendall(self.writer.seal(self.writer.frame(packet)))

    def handshake(self, next_state: int) -> None:
        self.send_packet(
            pack_varint(0) + pack_varint(self.table.protocol) + pack_string("127.0.0.1")
            + struct.pack(">H", self.port) + pack_varint(next_state)
        )

    def login(self, name: str, timeout: float = 20.0) -> bool:
        self.handshake(2)
        self.send_packet(VersionCodec(self.table).build("login", "toServer", "login_start", username=name))
        deadline = time.monotonic() + timeout
        disconnect = self.table.packet_id("login", "toClient", "disconnect")
        compress = self.table.packet_id("login", "toClient", "compress")
        success = self.table.packet_id("login", "toClient", "success")
        while time.monotonic() < deadline:
            frame = self._next_frame(deadline)
            if frame is None:
                break
            packet = frame.packet
            pid, pos = read_varint(packet, 0)
            if pid == compress:
                threshold = read_varint(packet, pos)[0]
                self.framing.threshold = threshold
                self.writer.threshold = threshold
            elif pid == disconnect:
                self.reason = reason_text(read_string(packet, pos)[0])
                self.closed_at = time.monotonic()
                return False
            elif pid == success:
                self.logged_in = True
                self._thread = threading.Thread(target=self._read_loop, daemon=True)
                self._thread.start()
                return True
        self.closed_at = self.closed_at or time.monotonic()
        return False

    def _next_frame(self, deadline: float) -> Any:
        while True:
            frame = self.framing.next_frame()
            if frame is not None:
                return frame
            self.sock.settimeout(max(deadline - time.monotonic(), 0.01))
            try:
                data = self.sock.recv(65536)
            except (TimeoutError, socket.timeout):
                return None
            except OSError:
                self.closed_at = time.monotonic()
                return None
            if not data:
                self.closed_at = time.monotonic()
                return None
            self.framing.feed(data)

    def _read_loop(self) -> None:
        keep_alive = self.table.packet_id("play", "toClient", "keep_alive")
        kick = self.table.packet_id("play", "toClient", "kick_disconnect")
        chat = self.table.packet_id("play", "toClient", "chat")
        answer = self.table.packet_id("play", "toServer", "keep_alive")
        assert answer is not None
        self.sock.settimeout(1.0)
        while self.closed_at is None:
            if not self.reading:
                time.sleep(0.1)
                continue
            try:
                data = self.sock.recv(1 << 18)
            except (TimeoutError, socket.timeout):
                continue
            except OSError:
                break
            if not data:
                break
            self.framing.feed(data)
            try:
                while (frame := self.framing.next_frame()) is not None:
                    pid = frame.packet_id
                    self.received.add(pid)
                    if pid not in (keep_alive, kick) and not (pid == chat and self.keep_chats):
                        continue
                    packet = frame.packet
                    pos = read_varint(packet, 0)[1]
                    if pid == keep_alive:
                        try:
                            self.send_packet(pack_varint(answer) + packet[pos:])
                        except OSError:
                            pass
                    elif pid == kick:
                        self.reason = reason_text(read_string(packet, pos)[0])
                    elif len(self.chats) < 200:
                        self.chats.append(reason_text(read_string(packet, pos, 1 << 20)[0]))
            except PeerError as exc:
                self.reason = f"(unreadable frame from the proxy: {exc})"
                break
        self.closed_at = self.closed_at or time.monotonic()

    def wait_closed(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.closed_at is None:
            if not self.reading or self._thread is None:
                self._poll_eof()
            time.sleep(0.1)
        return self.closed_at is not None

    def _poll_eof(self) -> None:
        """Detect a close without parsing: drain what is buffered and look for EOF."""
        self.sock.settimeout(0.2)
        try:
            while True:
                data = self.sock.recv(1 << 20)
                if not data:
                    self.closed_at = time.monotonic()
                    return
        except (TimeoutError, socket.timeout, BlockingIOError):
            return
        except OSError:
            self.closed_at = time.monotonic()

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass
        self.closed_at = self.closed_at or time.monotonic()


# -- the man-in-the-middle upstream ----------------------------------------------------


class Relay:
    """A TCP relay between the proxy and the server that can inject toward the proxy.

    Each proxy connection gets its own server connection and two threads. The
    server-to-proxy thread forwards frame by frame (the project's ``Framing``, with the
    compression threshold read from the server's login ``compress``), so an injected
    frame always lands on a frame boundary, framed with the same threshold.
    """

    def __init__(self, server_port: int, table: ProtocolTable) -> None:
        self.server_port = server_port
        self.table = table
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self._legs: dict[str, tuple[socket.socket, threading.Lock, Writer]] = {}
        self._watched: set[str] = set()
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                down, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(down,), daemon=True).start()

    def _serve(self, down: socket.socket) -> None:
        try:
            up = socket.create_connection(("127.0.0.1", self.server_port))
        except OSError:
            down.close()
            return
        named = threading.Event()
        holder: dict[str, Any] = {"name": None, "lock": threading.Lock(), "writer": Writer(), "ready": threading.Event()}

        def client_to_server() -> None:
            framing = Framing()
            state_login = False
            try:
                while True:
                    data = down.recv(65536)
                    if not data:
                        break
                    if not named.is_set():
                        framing.feed(data)
                        while (frame := framing.next_frame()) is not None:
                            packet = frame.packet
                            pid, pos = read_varint(packet, 0)
                            if not state_login:
                                state_login = True  # the handshake
                            elif pid == 0:
                                holder["name"] = read_string(packet, pos)[0]
                                named.set()
                                break
                    up.sendall(data)
            except (OSError, PeerError):
                pass
            finally:
                for s in (up, down):
                    try:
                        s.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass

        def server_to_client() -> None:
            framing = Framing()
            compress = self.table.packet_id("login", "toClient", "compress")
            success = self.table.packet_id("login", "toClient", "success")
            in_play = False
            try:
                while True:
                    data = up.recv(1 << 18)
                    if not data:
                        break
                    framing.feed(data)
                    while (frame := framing.next_frame()) is not None:
                        if not in_play:
                            pid, pos = read_varint(frame.packet, 0)
                            if pid == compress:
                                with holder["lock"]:
                                    down.sendall(frame.raw)
                                framing.threshold = read_varint(frame.packet, pos)[0]
                                holder["writer"].threshold = framing.threshold
                                continue
                            if pid == success:
                                in_play = True
                        with holder["lock"]:
                            down.sendall(frame.raw)
                        if in_play and not holder["ready"].is_set():
                            named.wait(5)
                            holder["ready"].set()
                            with self._lock:
                                watched = holder["name"] in self._watched
                                if watched:
                                    self._legs[holder["name"]] = (down, holder["lock"], holder["writer"])
                            if not watched:
                                # Not a victim: relay bytes untouched from here, so the observers'
                                # traffic costs the bench (and its GIL) nothing.
                                rest = bytes(framing._buffer[framing._offset:])
                                if rest:
                                    down.sendall(rest)
                                while data := up.recv(1 << 18):
                                    down.sendall(data)
                                return
            except (OSError, PeerError):
                pass
            finally:
                with self._lock:
                    if holder["name"] is not None and self._legs.get(holder["name"], (None,))[0] is down:
                        del self._legs[holder["name"]]
                for s in (up, down):
                    try:
                        s.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                    s.close()

        threading.Thread(target=client_to_server, daemon=True).start()
        threading.Thread(target=server_to_client, daemon=True).start()

    def watch(self, name: str) -> None:
        """Keep framing this player's server leg after login, so packets can be injected."""
        with self._lock:
            self._watched.add(name)

    def inject(self, name: str, packet: bytes, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                leg = self._legs.get(name)
            if leg is not None:
                down, lock, writer = leg
                with lock:
                    down.sendall(writer.frame(packet))
                return
            time.sleep(0.05)
        raise RuntimeError(f"the relay has no play connection for {name}")

    def close(self) -> None:
        self.listener.close()


# -- the injected server packets (issue 16's man-in-the-middle findings) --------------

MILLION = 1_000_000


@functools.cache
def injected_packets(table: ProtocolTable) -> dict[str, bytes]:
    def pid(name: str) -> bytes:
        value = table.packet_id("play", "toClient", name)
        assert value is not None, name
        return pack_varint(value)

    root_node = b"\x00" + pack_varint(0)  # flags 0 (root), no children
    depth = 10_000
    nested = '{"text":"a","extra":[' * depth + '"x"' + "]}" * depth
    return {
        "mitm_commands_1M_nodes": pid("declare_commands") + pack_varint(MILLION) + root_node * MILLION + pack_varint(0),
        "mitm_multi_block_change_1M": pid("multi_block_change") + struct.pack(">q", 0) + b"\x00"
        + pack_varint(MILLION) + b"\x00" * MILLION,
        "mitm_window_items_1M": pid("window_items") + b"\x00" + pack_varint(1) + pack_varint(MILLION)
        + b"\x00" * MILLION + b"\x00",
        "mitm_entity_destroy_1M": pid("entity_destroy") + pack_varint(MILLION) + b"\x00" * MILLION,
        "mitm_chat_nested_10000": pid("chat") + pack_string(nested) + b"\x01" + bytes(16),
        "mitm_commands_bad_index": pid("declare_commands") + pack_varint(1)
        + b"\x00" + pack_varint(1) + pack_varint(5) + pack_varint(0),
    }


# -- observers -------------------------------------------------------------------------


class Observer:
    """A mineflayer bot that chats ``rtt<n>`` in a loop and times its own echo."""

    def __init__(self, port: int, name: str, version: str = VERSION) -> None:
        self.name = name
        self.bot = Bot().connect(port=port, username=name, version=version, timeout=60)
        self.seq = itertools.count()
        self.samples: list[tuple[float, float]] = []  # (sent at, round trip ms)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def connected(self) -> bool:
        return self.bot.alive and self.bot.find(lambda e: e.get("event") in ("kicked", "end")) is None

    def ping(self) -> tuple[float, float]:
        token = f"{ECHO_PREFIX}{self.name}x{next(self.seq)}"
        mark = self.bot.mark()
        sent = time.monotonic()
        self.bot.send({"cmd": "chat", "text": token})
        try:
            event = self.bot.wait_chat(token, timeout=LOST_ECHO_MS / 1000, since=mark)
        except Exception:  # noqa: BLE001 - a lost echo or a dead bot both count as the timeout
            return sent, LOST_ECHO_MS
        return sent, (self.bot.started_at + event["_t"] - sent) * 1000

    def start(self) -> None:
        self.samples = []
        self._stop.clear()

        def loop() -> None:
            while not self._stop.is_set() and self.connected:
                self.samples.append(self.ping())
                self._stop.wait(0.1)

        self._thread = threading.Thread(target=loop, daemon=True)
        self._thread.start()

    def stop(self) -> list[tuple[float, float]]:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(LOST_ECHO_MS / 1000 + 2)
        return list(self.samples)

    def close(self) -> None:
        self.bot.quit()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


# -- the attacks -----------------------------------------------------------------------


class Bench:
    """The peers and the proxy for one run of probes: flying-squid at ``VERSION`` (all
    rows), or with ``world`` the world server at ``WORLD_VERSION`` (the login rows)."""

    def __init__(self, quick: bool, world: bool = False) -> None:
        self.quick = quick
        self.world = world
        self.version = WORLD_VERSION if world else VERSION
        self.table = table_for_version(self.version)
        self.server: GameServer = (WorldServer() if world else SquidServer()).start(version=self.version)
        assert self.server.port is not None
        self.relay = Relay(self.server.port, self.table)
        self.proxy = ProxyProcess(
            self.relay.port,
            max_players=4,  # the two observers + 2: the simultaneous-logins probe has 2 free slots
            read_timeout_seconds=READ_TIMEOUT,
            admins=[ADMIN],
            admin_secret="probe-secret-not-guessed",
        )
        self.pid = self.proxy.proc.pid
        self.names = itertools.count(1)
        self.attack_began = 0.0
        self.observers: list[Observer] = []
        self.ensure_observers()

    def begin(self, settle: float = 2.0) -> None:
        """The attack proper starts now: the attacker's own login (which makes the server
        send it a world) is set-up, not attack, and the echoes until it settled are not counted."""
        time.sleep(settle)
        self.attack_began = time.monotonic()

    def proxy_lines(self, client: RawClient) -> list[str]:
        """What the proxy said to a raw client (other players' lines and echoes left out)."""
        return [line for line in client.chats if line.startswith("[mcagent]")]

    def name(self, prefix: str) -> str:
        return f"{prefix}{next(self.names)}"[:16]

    def ensure_observers(self) -> None:
        for obs in list(self.observers):
            if not obs.connected:
                obs.bot.close()
                self.observers.remove(obs)
        while len(self.observers) < 2:
            self.observers.append(Observer(self.proxy.port, self.name("obs"), self.version))

    def raw(self, rcvbuf: int | None = None) -> RawClient:
        return RawClient(self.proxy.port, self.table, rcvbuf)

    def chat_packet(self, text: str) -> bytes:
        pid = self.table.packet_id("play", "toServer", "chat")
        assert pid is not None
        return pack_varint(pid) + pack_string(text)

    # Each attack returns (closed, reason, detail); closed is None where it does not apply.

    def chat_line(self, text: str) -> tuple[bool | None, str, str]:
        client = self.raw()
        client.keep_chats = True
        client.login(self.name("atk"))
        self.begin()
        client.send_packet(self.chat_packet(text))
        closed = client.wait_closed(20 if not self.quick else 12)
        reason = client.reason or ("closed without a reason" if closed else "")
        lines = self.proxy_lines(client)
        answer = lines[-1][:60] if lines else ""
        client.close()
        return closed, reason, f"answered {answer!r}" if answer else "no answer"

    def quiet(self) -> tuple[bool | None, str, str]:
        time.sleep(4 if self.quick else 10)
        return None, "", "observers only"

    def ai_long_word(self) -> tuple[bool | None, str, str]:
        closed, reason, detail = self.chat_line("@ai " + "a" * 262_140)
        return None if not closed else True, reason, detail

    def abab_line(self) -> tuple[bool | None, str, str]:
        closed, reason, detail = self.chat_line(("@ai " + "ab" * 15_000)[:30_000])
        return None if not closed else True, reason, detail

    def mitm(self, key: str) -> Callable[[], tuple[bool | None, str, str]]:
        def attack() -> tuple[bool | None, str, str]:
            packet = injected_packets(self.table)[key]
            client = self.raw()
            name = self.name("mitm")
            self.relay.watch(name)
            if not client.login(name):
                return False, client.reason or "", "victim did not log in"
            self.begin()
            client.received.clear()
            self.relay.inject(name, packet)
            closed = client.wait_closed(20 if self.quick else 40)
            forwarded = read_varint(packet, 0)[0] in client.received
            reason = client.reason or ("closed without a reason" if closed else "")
            client.close()
            detail = f"injected {len(packet):,} bytes toward the proxy"
            if not closed and forwarded:
                # The proxy passed it on undecoded (fast path) and went on: nothing to bound.
                return None, "forwarded to the client as it came", detail
            return closed, reason, detail
        return attack

    def inflate(self) -> tuple[bool | None, str, str]:
        client = self.raw()
        if not client.login(self.name("zip")):
            return False, client.reason or "", "did not log in"
        if client.writer.threshold < 0:
            client.close()
            return None, "", "the proxy did not enable compression: nothing to inflate"
        pid = self.table.packet_id("play", "toServer", "position")
        assert pid is not None
        self.begin()
        packet = pack_varint(pid) + bytes(8 * MIB - 8)
        body = pack_varint(len(packet)) + zlib.compress(packet, 9)
        frame = pack_varint(len(body)) + body
        sent = 0
        try:
            for _ in range(30):
                client.sock.settimeout(5)
                client.sock.sendall(frame)
                sent += 1
        except OSError:
            pass
        closed = client.wait_closed(15)
        reason = client.reason or ("closed without a reason" if closed else "")
        client.close()
        return closed, reason, f"sent {sent} frames of {len(frame):,} bytes, each inflating to 8 MiB"

    def flood(self) -> tuple[bool | None, str, str]:
        client = self.raw()
        if not client.login(self.name("flood")):
            return False, client.reason or "", "did not log in"
        self.begin()
        pid = self.table.packet_id("play", "toServer", "flying")
        assert pid is not None
        one = client.writer.frame(pack_varint(pid) + b"\x01")
        per_burst = 65536 // len(one)
        seconds = 5 if self.quick else 15
        # The tight send loop runs in a child process on a copy of the socket: in this
        # process it would hold the GIL the observers' readers need, and their echoes
        # would look slow for the bench's own sake.
        child = subprocess.run(
            [sys.executable, "-c", FLOOD_CHILD, str(client.sock.fileno()), str(seconds)],
            input=(one * per_burst).hex(), pass_fds=(client.sock.fileno(),), capture_output=True, text=True,
            timeout=seconds + 30,
        )
        frames = int(child.stdout.strip() or 0) * per_burst
        closed = client.wait_closed(10)
        reason = client.reason or ("closed without a reason" if closed else "")
        client.close()
        return closed, reason, f"{frames:,} frames sent"

    def prelogin_big_frames(self) -> tuple[bool | None, str, str]:
        client = self.raw()
        client.handshake(2)
        payload = b"\x7f" + bytes((1 << 21) - 2)
        frame = pack_varint(len(payload)) + payload
        sent = 0
        client.sock.settimeout(5)
        try:
            for _ in range(100):
                client.sock.sendall(frame)
                sent += 1
        except OSError:
            pass
        # The proxy's answer (a login disconnect) is in our receive buffer if it sent one.
        disconnect = self.table.packet_id("login", "toClient", "disconnect")
        frame = client._next_frame(time.monotonic() + 5)
        if frame is not None and read_varint(frame.packet, 0)[0] == disconnect:
            client.reason = reason_text(read_string(frame.packet, read_varint(frame.packet, 0)[1])[0])
        closed = client.wait_closed(15)
        client.close()
        # Whether the proxy read (and dropped) the rest or not, what matters is that it did
        # not buffer it: run_one also checks this probe's peak RSS.
        reason = client.reason or ("closed without a reason" if closed else "still open")
        return closed, reason, f"{sent} of 100 frames of 2 MiB sent"

    def slow_reader(self) -> tuple[bool | None, str, str]:
        client = self.raw(rcvbuf=4096)
        name = self.name("slow")
        if not client.login(name):
            return False, client.reason or "", "did not log in"
        client.reading = False
        time.sleep(1.0)
        self.begin()
        text = "s" * 30_000
        sends = 0
        deadline = time.monotonic() + (8 if self.quick else 20)
        flying = self.table.packet_id("play", "toServer", "flying")
        assert flying is not None
        while time.monotonic() < deadline and not client.closed:
            try:
                self.server.send({"cmd": "say", "text": text, "to": name})
                if sends % 20 == 0:
                    # Still sending, only not reading: a read timeout is no excuse to close it.
                    client.send_packet(pack_varint(flying) + b"\x01")
            except Exception:  # noqa: BLE001 - the server or the proxy dropped the player: stop
                break
            sends += 1
            time.sleep(0.01)
        closed = client.wait_closed(15)
        client.close()
        return closed, "closed while not reading" if closed else "", f"server sent {sends} x 30 KB lines"

    def idle_connections(self) -> tuple[bool | None, str, str]:
        count = 500 if self.quick else 2000
        socks: list[socket.socket] = []
        for _ in range(count):
            try:
                socks.append(socket.create_connection(("127.0.0.1", self.proxy.port), timeout=5))
            except OSError:
                break
        opened = len(socks)
        deadline = time.monotonic() + READ_TIMEOUT + 10
        open_now = opened
        while time.monotonic() < deadline:
            time.sleep(1)
            open_now = sum(1 for s in socks if not _peer_closed(s))
            if open_now == 0:
                break
        for s in socks:
            s.close()
        return open_now == 0 and opened > 0, f"{opened - open_now} of {opened} closed by the proxy", \
            f"{opened} connections opened, {open_now} still open after {READ_TIMEOUT + 10:.0f} s"

    def slowloris(self) -> tuple[bool | None, str, str]:
        socks = [socket.create_connection(("127.0.0.1", self.proxy.port), timeout=5) for _ in range(5)]
        header = pack_varint(200)  # a handshake declaring 200 bytes, then one byte a second
        for s in socks:
            s.sendall(header)
        started = time.monotonic()
        closed_after: dict[int, float] = {}
        # A trickle must not reset the timeout: each connection must be closed by the read
        # timeout or, at the latest, by a login deadline (30 s by default) plus slack.
        limit = 45.0
        while time.monotonic() - started < limit and len(closed_after) < len(socks):
            for i, s in enumerate(socks):
                if i in closed_after:
                    continue
                try:
                    s.sendall(b"\x00")
                except OSError:
                    closed_after[i] = time.monotonic() - started
                    continue
                if _peer_closed(s):
                    closed_after[i] = time.monotonic() - started
            time.sleep(1)
        for s in socks:
            s.close()
        late = max(closed_after.values(), default=float("inf"))
        ok = len(closed_after) == len(socks) and late <= SLOWLORIS_BOUND
        return ok, f"{len(closed_after)} of 5 closed, the last after {late:.0f} s", \
            f"timeout {READ_TIMEOUT:.0f} s, one byte a second for up to {limit:.0f} s"

    def simultaneous_logins(self, names: list[str], allowed: int, port: int | None = None) -> tuple[bool | None, str, str]:
        time.sleep(3)  # the previous probe's connections are gone (the proxy's close grace is 2 s)
        clients = [RawClient(port or self.proxy.port, self.table) for _ in names]
        results: list[bool] = [False] * len(names)

        def go(i: int) -> None:
            results[i] = clients[i].login(names[i])

        threads = [threading.Thread(target=go, args=(i,)) for i in range(len(names))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        time.sleep(3)
        admitted = sum(1 for c, ok in zip(clients, results) if ok and not c.closed)
        reasons = sorted({c.reason for c in clients if c.reason})
        for c in clients:
            c.close()
        refusals = "; ".join(r[:60] for r in reasons)
        return admitted <= allowed, f"{admitted} of {len(names)} admitted" + (f" ({refusals})" if refusals else ""), \
            f"{admitted} of {len(names)} admitted (at most {allowed} allowed)"

    def max_players(self) -> tuple[bool | None, str, str]:
        return self.simultaneous_logins([self.name("full") for _ in range(8)], 2)

    def control_direct_logins(self) -> tuple[bool | None, str, str]:
        """Not an attack on the proxy: 8 logins straight to the server, to see what the
        server's own login work does to the observers' echo (which passes through it)."""
        assert self.server.port is not None
        _ok, reason, detail = self.simultaneous_logins([self.name("direct") for _ in range(8)], 8, self.server.port)
        return None, reason, detail + ", straight to the server"

    def control_direct_admitted(self, count: int) -> Callable[[], tuple[bool | None, str, str]]:
        """Not an attack: as many logins straight to the server as the proxy admits in
        a login probe, so the server's own work for the admitted players is seen alone."""
        def control() -> tuple[bool | None, str, str]:
            assert self.server.port is not None
            names = [self.name("direct") for _ in range(count)]
            _ok, reason, detail = self.simultaneous_logins(names, count, self.server.port)
            return None, reason, detail + ", straight to the server"
        return control

    def same_name(self) -> tuple[bool | None, str, str]:
        base = self.name("Case")
        return self.simultaneous_logins([base, base.lower(), base.upper()], 1)

    def spoofed_admin(self) -> tuple[bool | None, str, str]:
        client = self.raw()
        client.keep_chats = True
        if not client.login(ADMIN):
            return True, client.reason or "", "the admin name was refused at login"
        time.sleep(0.5)
        self.begin()
        client.send_packet(self.chat_packet("!system sessions"))
        time.sleep(3)
        lines = self.proxy_lines(client)
        leaked = any("127.0.0.1" in line for line in lines)
        answer = lines[-1][:70] if lines else "no answer"
        client.close()
        return not leaked, "admin command refused" if not leaked else "ADMIN COMMAND RAN", f"answer {answer!r}"

    def attacks(self) -> list[tuple[str, str, Callable[[], tuple[bool | None, str, str]]]]:
        if self.world:
            where = f" (world server {self.version})"
            return [(f"{key}_world", label + where, attack) for key, label, attack in self.login_attacks()]
        mitm = [
            (key, f"upstream injects {key.removeprefix('mitm_').replace('_', ' ')}", self.mitm(key))
            for key in injected_packets(self.table)
        ]
        return [
            ("quiet", "no attack (the machine's own noise)", self.quiet),
            ("ai_long_word", "@ai + a 262,140-letter word", self.ai_long_word),
            ("abab_line", "a 30,000-char abab... line", self.abab_line),
            *mitm,
            ("inflate_8mb", "8 KB frames inflating to 8 MB", self.inflate),
            ("frame_flood", "a client flooding frames", self.flood),
            ("prelogin_2mb", "100 x 2 MB frames before login", self.prelogin_big_frames),
            ("slow_reader", "a client that stops reading", self.slow_reader),
            ("idle_conns", f"{500 if self.quick else 2000} idle connections", self.idle_connections),
            ("slowloris", "5 slowloris connections", self.slowloris),
            *self.login_attacks(),
            ("spoofed_admin", "spoofed admin name (offline)", self.spoofed_admin),
        ]

    def login_attacks(self) -> list[tuple[str, str, Callable[[], tuple[bool | None, str, str]]]]:
        """The admission probes, each followed by a control row: the same number of logins
        as the proxy admits there, straight to the server."""
        rows = [
            ("max_players", "8 simultaneous logins, 2 free slots", self.max_players),
            ("control_direct_logins", "control: 8 logins straight to the server", self.control_direct_logins),
            ("control_direct_2", "control: 2 logins straight to the server", self.control_direct_admitted(2)),
            ("name_case", "3 logins, one name in 3 cases", self.same_name),
            ("control_direct_1", "control: 1 login straight to the server", self.control_direct_admitted(1)),
        ]
        assert tuple(key for key, _, _ in rows) == LOGIN_ROWS
        return rows

    def run_one(self, key: str, label: str, attack: Callable[[], tuple[bool | None, str, str]]) -> dict[str, Any]:
        self.ensure_observers()
        baseline = settled_rss(self.pid, timeout=20)
        peak = [baseline]
        sampling = threading.Event()

        def watch_rss() -> None:
            while not sampling.wait(0.2):
                try:
                    peak[0] = max(peak[0], rss_kib(self.pid))
                except OSError:
                    return

        watcher = threading.Thread(target=watch_rss, daemon=True)
        watcher.start()
        for obs in self.observers:
            obs.start()
        time.sleep(0.5)
        started = self.attack_began = time.monotonic()
        server_pid = self.server.proc.pid if self.server.proc is not None else self.pid
        cpu_before = cpu_seconds(self.pid), cpu_seconds(server_pid)
        try:
            closed, reason, detail = attack()
        except Exception as exc:  # noqa: BLE001 - a probe that cannot run is reported, not fatal
            closed, reason, detail = False, "", f"probe error: {type(exc).__name__}: {exc}"
        time.sleep(1.0)
        samples = [rtt for obs in self.observers for sent, rtt in obs.stop() if sent >= self.attack_began]
        sampling.set()
        watcher.join(2)
        elapsed = time.monotonic() - started
        alive = self.proxy.proc.poll() is None
        # Whose CPU the attack cost: the observers' echo passes through both processes.
        proxy_cpu = cpu_seconds(self.pid) - cpu_before[0] if alive else float("nan")
        server_cpu = cpu_seconds(server_pid) - cpu_before[1]
        after = settled_rss(self.pid, timeout=30) if alive else 0
        connected = alive and all(obs.connected for obs in self.observers)
        p50, p99 = percentile(samples, 0.5), percentile(samples, 0.99)
        delta_mib = (after - baseline) / 1024
        checks = {
            "rtt": bool(samples) and p99 < RTT_BOUND_MS,
            "rss": alive and delta_mib <= RSS_BOUND_MIB,
            "closed": closed is not False,
            "others": connected,
        }
        if key in PEAK_CHECKED:
            checks["peak"] = (peak[0] - baseline) / 1024 <= RSS_BOUND_MIB
        return {
            "probe": key, "attack": label, "p50_ms": p50, "p99_ms": p99, "samples": len(samples),
            "closed": closed, "reason": (reason or "").replace("\n", " ")[:90], "detail": detail,
            "rss_base_mib": baseline / 1024, "rss_peak_mib": peak[0] / 1024, "rss_delta_mib": delta_mib,
            "others_connected": connected, "seconds": elapsed, "proxy_cpu_s": proxy_cpu, "server_cpu_s": server_cpu,
            "failed": [k for k, ok in checks.items() if not ok],
            "verdict": "info" if key.startswith("control") else "PASS" if all(checks.values()) else "FAIL",
        }

    def close(self) -> None:
        for obs in self.observers:
            obs.close()
        self.proxy.close()
        self.relay.close()
        self.server.close()


def _peer_closed(s: socket.socket) -> bool:
    """True when the other side has closed (EOF or reset), without blocking."""
    try:
        s.setblocking(False)
        data = s.recv(65536)
        return not data
    except BlockingIOError:
        return False
    except OSError:
        return True
    finally:
        try:
            s.settimeout(5)
        except OSError:
            pass


def print_table(rows: list[dict[str, Any]]) -> None:
    print("| probe | observers' echo p50 / p99 (ms) | attacker closed, reason | RSS delta after (peak) | others connected | verdict |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        closed = {True: "yes", False: "NO", None: "n/a"}[r["closed"]]
        reason = f", {r['reason']}" if r["reason"] else ""
        verdict = r["verdict"] + (f" ({', '.join(r['failed'])})" if r["failed"] else "")
        print(
            f"| {r['attack']} | {r['p50_ms']:.0f} / {r['p99_ms']:.0f} | {closed}{reason} "
            f"| {r['rss_delta_mib']:+.0f} MiB ({r['rss_peak_mib'] - r['rss_base_mib']:+.0f}) "
            f"| {'yes' if r['others_connected'] else 'NO'} | {verdict} |"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter timed attacks and fewer idle connections")
    parser.add_argument("--only", default="", help="comma-separated probe names (default: all)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON too")
    args = parser.parse_args()
    wanted = {w for w in args.only.split(",") if w}
    rows: list[dict[str, Any]] = []
    world_keys = {f"{key}_world" for key in LOGIN_ROWS}
    for world in (False, True):
        if wanted and not (wanted & world_keys if world else wanted - world_keys):
            continue
        bench = Bench(args.quick, world=world)
        try:
            for key, label, attack in bench.attacks():
                if wanted and key not in wanted:
                    continue
                row = bench.run_one(key, label, attack)
                rows.append(row)
                print(
                    f"{row['verdict']} {key}: p50 {row['p50_ms']:.0f} ms p99 {row['p99_ms']:.0f} ms "
                    f"({row['samples']} echoes), closed={row['closed']} {row['reason']!r}, "
                    f"RSS {row['rss_base_mib']:.0f} -> peak {row['rss_peak_mib']:.0f} -> "
                    f"{row['rss_base_mib'] + row['rss_delta_mib']:.0f} MiB, "
                    f"others connected={row['others_connected']}; CPU proxy {row['proxy_cpu_s']:.1f} s, "
                    f"server {row['server_cpu_s']:.1f} s in {row['seconds']:.0f} s; {row['detail']}",
                    flush=True,
                )
                if bench.proxy.proc.poll() is not None:
                    print("the proxy process exited: the remaining probes cannot run", flush=True)
                    break
        finally:
            bench.close()
    print()
    print_table(rows)
    if args.json:
        print(json.dumps(rows, indent=1))
    return 0 if rows and all(r["verdict"] != "FAIL" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
