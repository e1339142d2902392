"""Relay throughput and latency, measured side by side in one run.

Paths: direct (client -> server), raw (a Twisted byte relay), quarry (quarry's
default Bridge, which decodes and re-packs every packet) and mcagent (the real
``mcagent run`` process). Workloads: small (entity velocity floods, server ->
client), big (~1 KB plugin messages, compressed on the wire, server -> client),
chat (chat floods, client -> server, whose text mcagent reads) and latency (chat
round trips: the client sends a chat message, the scripted server answers with a
chat message). See bench/README.md for what each column means.

How this works: the scripted server and client (``relay_peers/peer.py``) are
separate processes; the sink prints ``window_start`` and ``result`` lines, and
at those two moments this script reads the CPU time of the relay and both peers
from /proc. By default the relay runs on CPU 1 and everything else on CPU 0, so
a relay at ~100 % CPU is the bottleneck and the ``direct`` row shows what the
load generator and sink can do on their core.

Encryption (``--encrypt``): ``none`` (default) is offline mode everywhere. ``server``
encrypts the server leg as online mode does (AES/CFB8): the scripted server asks for
encryption and checks every join at a local session server; mcagent answers it as a
Microsoft account signed in on local account services (``tests/account_services.py``,
HTTP on 127.0.0.1: nothing reaches Microsoft or Mojang), so it decrypts what the server
sends and encrypts what goes up. ``both`` also puts mcagent's client leg in online mode:
the scripted client joins at the same session server and answers mcagent's encryption
request, and mcagent asks that session server ``hasJoined``. On the direct and raw paths
encryption is end to end between the peers (raw copies ciphertext); quarry's bridge
cannot log in to an online-mode server and its session server is Mojang's, so it is
skipped with the reason. mcagent's own fast-path and decoded counters (from its metrics
endpoint, read between windows) are reported per workload.

Usage: python bench/relay.py [--version 1.18.2] [--json] [--paths direct,raw,quarry,mcagent] [--encrypt none]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
PEERS = HERE / "relay_peers"
sys.path.insert(0, str(PEERS))
from mcwire import WireError, load_version, workload_stream  # noqa: E402

sys.path.insert(0, str(REPO))
from proxy.operations import node_peers  # noqa: E402
from proxy.operations.announcements import announced_port  # noqa: E402

PATHS = ("direct", "raw", "quarry", "mcagent")
FLOODS = ("small", "big", "chat")
FLOOD_SINK = {"small": "client", "big": "client", "chat": "server"}
CLK_TCK = os.sysconf("SC_CLK_TCK")
THRESHOLD = 256
ENCRYPT_MODES = ("none", "server", "both")
# mcagent's counters on its metrics endpoint (proxy/metrics.py)
METRICS = {"fast": r'^mcagent_play_packets_total\{path="fast"\} (\S+)$',
           "decoded": r'^mcagent_play_packets_total\{path="decoded"\} (\S+)$',
           "swallowed": r"^mcagent_swallowed_chat_total (\S+)$",
           "open": r"^mcagent_open_connections (\S+)$"}
# The local HTTP servers (mcagent's metrics, the account services) never through a proxy from the environment.
HTTP = urllib.request.build_opener(urllib.request.ProxyHandler({}))
ACCOUNT = "BenchPlayer"  # the local Microsoft account of --encrypt server|both (the fake services' only one)

# What each path's row is under --encrypt server|both, and the paths that cannot run a mode (why).
_END_TO_END = {
    "direct": "client <-> server encrypted end to end (one AES/CFB8 stream each way, the peers do all the crypto)",
    "raw": "the same end-to-end stream, copied as ciphertext (a byte relay has nothing to decrypt)",
}
ENCRYPTED_LEGS: dict[str, dict[str, str]] = {
    "server": {**_END_TO_END,
               "mcagent": "the server leg encrypted by mcagent, logged in as the account; the client leg plain: "
                          "it decrypts what the server sends and encrypts what goes up"},
    "both": {**_END_TO_END,
             "mcagent": "both legs encrypted, each with its own secret (online mode toward the client, the account "
                        "toward the server): every byte decrypted on one leg and encrypted on the other"},
}
SKIPPED = {
    "server": {"quarry": "quarry's bridge logs in upstream with an offline profile and refuses an online-mode "
                         "server, and its session server (Mojang's) is fixed in quarry; nothing here may reach it"},
    "both": {"quarry": "quarry's bridge refuses an online-mode server upstream, and its own online mode asks "
                       "Mojang's session server (fixed in quarry); nothing here may reach it"},
}


def log(*parts: Any) -> None:
    print(*parts, file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int | None) -> float | None:
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat") as f:
            rest = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(rest[11]) + int(rest[12])) / CLK_TCK  # utime + stime, all threads


def machine_busy_seconds() -> float | None:
    """CPU seconds spent by everything on the machine (all CPUs), from /proc/stat."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()[1:]
    except OSError:
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[:8])
    return (user + nice + system + irq + softirq + steal) / CLK_TCK


def pin(pid: int, cpu: int | None) -> None:
    if cpu is not None:
        try:
            os.sched_setaffinity(pid, {cpu})
        except OSError:
            pass


class Line:
    """Read JSON lines from a child's stdout with a timeout."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self.buf = b""

    def next(self, timeout: float) -> dict[str, Any] | None:
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()  # type: ignore[union-attr]
        while b"\n" not in self.buf:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], remaining)
            if not ready:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        try:
            value: dict[str, Any] = json.loads(line)
            return value
        except ValueError:
            return {"event": "noise", "text": line.decode(errors="replace")}


def stop(proc: subprocess.Popen[bytes] | None, grace: float = 5.0) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


# -- online mode: the local account services ------------------------------------------------
class Online:
    """Local stand-ins for Microsoft, Xbox Live, XSTS, Minecraft services and the session
    server (``tests/account_services.py``, real HTTP on 127.0.0.1) with one account signed in.

    mcagent's server leg logs in as that account (its token cache is a file in the bench's
    temporary directory) and joins at the local session server; the scripted client joins
    there with a token of the same account before it answers an encryption request (the
    proxy's ``hasJoined``, or the scripted server's on the direct and raw paths), and the
    scripted server checks every join there. Nothing reaches the internet.
    """

    def __init__(self, workdir: Path) -> None:
        from tests.account_services import AccountServices  # the repository is on sys.path (above)

        self.services = AccountServices().start()
        account = self.services.add_account(ACCOUNT)
        self.uuid = account.uuid.hex
        self.cache_file = workdir / "accounts.json"
        self.services.signed_in_cache(self.cache_file, ACCOUNT)  # as `mcagent login` would leave it
        self.client_token = self.services.minecraft_token(ACCOUNT)  # the player's own client's

    @property
    def url(self) -> str:
        return self.services.base_url

    def proxy_config(self, mode: str) -> dict[str, Any]:
        config: dict[str, Any] = {"upstream_auth": {"mode": "microsoft", "account": ACCOUNT},
                                  "session_server": self.url, "accounts": self.services.config_section(self.cache_file)}
        if mode == "both":
            config["online_mode"] = True
        return config

    def joins(self) -> int:
        return len(self.services.joins)

    def close(self) -> None:
        self.services.close()


def tail(path: Path, since: int = 0, size: int = 600) -> str:
    """The last ``size`` characters of a file from offset ``since`` on ("" if none)."""
    try:
        with open(path, "rb") as f:
            f.seek(since)
            return f.read().decode(errors="replace")[-size:].strip()
    except OSError:
        return ""


# -- relays -------------------------------------------------------------------------------
class Relay:
    def __init__(self, path: str, upstream_port: int, args: argparse.Namespace, workdir: Path,
                 online: Online | None = None) -> None:
        self.path = path
        self.online = online
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = upstream_port
        self.error: str | None = None
        self.upstream_port = upstream_port
        self.args = args
        self.workdir = workdir
        self.logfile: Path | None = None
        self.metrics_url: str | None = None

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    def start(self) -> bool:
        if self.path == "direct":
            return True
        py = sys.executable
        upstream = f"127.0.0.1:{self.upstream_port}"
        if self.path in ("raw", "quarry"):
            script = PEERS / ("raw_relay.py" if self.path == "raw" else "quarry_bridge.py")
            self.logfile = self.workdir / f"{self.path}.log"
            with open(self.logfile, "wb") as err:  # stderr to a file: an unread pipe could fill and block it
                self.proc = subprocess.Popen([py, str(script), "--upstream", upstream], stdout=subprocess.PIPE,
                                             stderr=err)
            pin(self.proc.pid, self.args.relay_cpu)
            line = Line(self.proc).next(20)
            if not line or line.get("event") != "listening":
                self.error = (f"{self.path} relay did not start: {line} "
                              f"{self.logfile.read_text(errors='replace')[-500:]}")
                stop(self.proc)
                return False
            self.port = int(line["port"])
            return True
        # mcagent: the real CLI, with logins not rate-limited (several logins from 127.0.0.1 in a row)
        # and no packet rate limit (the floods are the point)
        config = self.workdir / "mcagent-bench.json"
        base: dict[str, Any] = {}
        default = REPO / "config" / "proxy.json"
        if default.exists():
            base = json.loads(default.read_text(encoding="utf-8"))
        base["login_rate_limit_seconds"] = 0.0
        base.setdefault("limits", {}).update(packets_per_second=0, packet_burst_per_second=0)
        if self.online is not None:
            base.update(self.online.proxy_config(self.args.encrypt))
        config.write_text(json.dumps(base), encoding="utf-8")
        run = ["run", "--config", str(config), "--listen", "127.0.0.1:0", "--upstream", upstream,
               "--metrics", "127.0.0.1:0"]
        if self.args.profile and not self.args.py_spy:
            prof = Path(self.args.profile).resolve()
            prof.mkdir(parents=True, exist_ok=True)
            cmd = [py, "-m", "cProfile", "-o", str(prof / "mcagent.prof"), "-m", "proxy.operations.cli", *run]
        else:
            cmd = [py, "-m", "proxy.operations.cli", *run]
        self.logfile = self.workdir / "mcagent.log"
        out = open(self.logfile, "wb")
        env = dict(os.environ)
        env.pop("MCAGENT_ACCOUNTS_FILE", None)  # it would win over the config's token cache
        self.proc = subprocess.Popen(cmd, cwd=REPO, stdout=out, stderr=subprocess.STDOUT, env=env)
        out.close()
        pin(self.proc.pid, self.args.relay_cpu)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            text = self.logfile.read_text(errors="replace")
            port, metrics_port = announced_port(text, "proxy"), announced_port(text, "metrics")
            if port is not None and metrics_port is not None:
                if self.online is not None and f"logs in as the Microsoft account {ACCOUNT}" not in text:
                    break  # it did not find the signed-in account
                self.port = port
                self.metrics_url = f"http://127.0.0.1:{metrics_port}/metrics"
                return True
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.error = "mcagent did not start: " + self.logfile.read_text(errors="replace")[-500:]
        stop(self.proc)
        return False

    def log_size(self) -> int:
        try:
            return self.logfile.stat().st_size if self.logfile is not None else 0
        except OSError:
            return 0

    def counters(self) -> dict[str, int] | None:
        """mcagent's own traffic counters from its metrics endpoint, over all its connections so
        far: play frames forwarded without decoding (fast path), decoded ones, chat lines it
        swallowed, and how many client connections are open now. None for the other relays."""
        if self.metrics_url is None:
            return None
        try:
            with HTTP.open(self.metrics_url, timeout=5) as answer:
                text = answer.read().decode("utf-8", "replace")
        except OSError:
            return None
        values: dict[str, int] = {}
        for key, pattern in METRICS.items():
            found = re.search(pattern, text, re.MULTILINE)
            if found is None:
                return None
            values[key] = int(float(found[1]))
        return values

    def idle_counters(self, timeout: float = 5.0) -> dict[str, int] | None:
        """The counters once no client connection is open (so the next login is not refused
        as a second player of the account, and the last connection's frames are all counted)."""
        deadline = time.monotonic() + timeout
        while True:
            values = self.counters()
            if values is None or values["open"] == 0 or time.monotonic() >= deadline:
                return values
            time.sleep(0.05)

    def stop(self) -> None:
        stop(self.proc)


# -- one measurement ------------------------------------------------------------------------
def peer_cmd(role: str, workload: str, args: argparse.Namespace, **extra: Any) -> list[str]:
    cmd = [sys.executable, str(PEERS / "peer.py"), role, "--version", args.version, "--workload", workload,
           "--warmup", str(args.warmup), "--duration", str(args.duration), "--threshold", str(THRESHOLD),
           "--login-timeout", "8"]
    for key, value in extra.items():
        if value is True:
            cmd.append("--" + key.replace("_", "-"))
        elif value is not False and value is not None:
            cmd += ["--" + key.replace("_", "-"), str(value)]
    return cmd


def start_py_spy(args: argparse.Namespace, pid: int, workload: str) -> subprocess.Popen[bytes]:
    """Sample mcagent during the measuring window (py-spy is not a project dependency: pass its path)."""
    out = Path(args.profile or ".").resolve()
    out.mkdir(parents=True, exist_ok=True)
    n = len(list(out.glob(f"py-spy-{workload}-*.txt")))
    target = out / f"py-spy-{workload}-{n + 1}.txt"
    cmd = [args.py_spy, "record", "--pid", str(pid), "--duration", str(max(1, int(args.duration))), "--rate", "250",
           "--format", "raw", "--nonblocking", "-o", str(target)]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def py_spy_summary(directory: Path, top: int = 12) -> dict[str, list[tuple[str, float]]]:
    """Share of samples per function (self time), from py-spy's raw (collapsed stack) files."""
    summary: dict[str, list[tuple[str, float]]] = {}
    for workload in FLOODS:
        counts: dict[str, int] = {}
        total = 0
        for path in sorted(directory.glob(f"py-spy-{workload}-*.txt")):
            for line in path.read_text(errors="replace").splitlines():
                stack, _, n = line.rpartition(" ")
                if not stack or not n.isdigit():
                    continue
                leaf = stack.split(";")[-1]
                # "function (file:line)" -> "function (file)", so lines of one function add up
                name, _, where = leaf.partition(" (")
                where = where.rstrip(")").rsplit(":", 1)[0]
                for prefix in (str(REPO) + "/", "/usr/lib/", "site-packages/"):
                    if prefix in where:
                        where = where.split(prefix, 1)[1]
                key = f"{name} ({where})"
                counts[key] = counts.get(key, 0) + int(n)
                total += int(n)
        if total:
            summary[workload] = [(k, v / total) for k, v in sorted(counts.items(), key=lambda kv: -kv[1])[:top]]
    return summary


def measure(workload: str, relay: Relay, server_port: int, args: argparse.Namespace,
            online: Online | None = None) -> dict[str, Any]:
    """One window of one workload on one path; with ``online``, the server asks for encryption
    and checks the join at the local session server, and the client plays as the account."""
    before = relay.counters()
    log_from = relay.log_size()
    result = _measure(workload, relay, server_port, args, online)
    if "error" in result:
        # what the peers wrote to stderr (a traceback), and the relay's log lines of this measurement
        details = [f"{role} stderr: {text}" for role in ("server", "client")
                   if (text := tail(relay.workdir / f"{role}.err"))]
        if relay.path == "mcagent" and relay.logfile is not None:
            details += [f"mcagent log: {line}" for line in tail(relay.logfile, since=log_from, size=1500).splitlines()]
        if details:
            result["details"] = details
    after = relay.idle_counters()
    if before is not None and after is not None and "error" not in result:
        result["mcagent_frames"] = {k: after[k] - before[k] for k in ("fast", "decoded", "swallowed")}
    return result


def _measure(workload: str, relay: Relay, server_port: int, args: argparse.Namespace,
             online: Online | None) -> dict[str, Any]:
    budget = args.warmup + args.duration + 25.0
    server_extra: dict[str, Any] = {"port": server_port, "max_seconds": budget}
    if online is not None:
        server_extra.update(encrypt=True, session_server=online.url)
    with open(relay.workdir / "server.err", "wb") as err:
        server = subprocess.Popen(peer_cmd("server", workload, args, **server_extra), stdout=subprocess.PIPE,
                                  stderr=err)
    client: subprocess.Popen[bytes] | None = None
    try:
        # round trips: the server shares the relay's CPU, so every path crosses between the CPUs
        # the same number of times (twice) and "added" latency is the relay's own work
        pin(server.pid, args.relay_cpu if workload == "echo" else args.peer_cpu)
        lines = {"server": Line(server)}
        first = lines["server"].next(20)
        if not first or first.get("event") != "listening":
            return {"error": f"scripted server did not start: {first}"}
        extra: dict[str, Any] = {"connect": f"127.0.0.1:{relay.port}", "name": f"bench_{workload}",
                                 "max_seconds": budget}
        if online is not None:
            # the account's name, and its session for the join before any encryption response
            extra.update(name=ACCOUNT, session_server=online.url, access_token=online.client_token,
                         uuid=online.uuid)
        if workload == "echo":
            extra["count"] = args.latency_count
            extra["duration"] = args.latency_seconds
        with open(relay.workdir / "client.err", "wb") as err:
            client = subprocess.Popen(peer_cmd("client", workload, args, **extra), stdout=subprocess.PIPE,
                                      stderr=err)
        pin(client.pid, args.peer_cpu)
        lines["client"] = Line(client)
        sink_role = "client" if workload == "echo" else FLOOD_SINK[workload]
        sink = lines[sink_role]
        pids = {"relay": relay.pid, "server": server.pid, "client": client.pid}
        spy: subprocess.Popen[bytes] | None = None
        before: dict[str, float | None] = {}
        deadline = time.monotonic() + budget + 10
        result: dict[str, Any] | None = None
        while time.monotonic() < deadline:
            line = sink.next(max(0.1, deadline - time.monotonic()))
            if line is None:
                break
            event = line.get("event")
            if event == "window_start":
                before = {k: cpu_seconds(p) for k, p in pids.items()}
                before["machine"] = machine_busy_seconds()
                if args.py_spy and relay.path == "mcagent" and relay.pid is not None:
                    spy = start_py_spy(args, relay.pid, workload)
            elif event in ("result", "error"):
                after = {k: cpu_seconds(p) for k, p in pids.items()}
                after["machine"] = machine_busy_seconds()
                result = dict(line)
                if event == "result" and before and "seconds" in line:
                    cpu = {k: (after[k] - before[k]) / line["seconds"]  # type: ignore[operator]
                           for k in after if after.get(k) is not None and before.get(k) is not None}
                    if "machine" in cpu:
                        # whatever else ran on the machine meanwhile (other test runs, the orchestrator)
                        cpu["other"] = max(0.0, cpu.pop("machine") - sum(cpu.get(k, 0.0) for k in pids))
                    result["cpu"] = cpu
                break
        if spy is not None:
            try:
                spy.wait(args.duration + 10)
            except subprocess.TimeoutExpired:
                stop(spy)
        if result is None:
            result = {"event": "error", "error": "no result from the sink (timed out)"}
        if result.get("event") == "error":
            # the other side may know why (e.g. refused at login)
            other = lines["server" if sink_role == "client" else "client"]
            for _ in range(5):
                line = other.next(0.5)
                if line is None:
                    break
                if line.get("event") == "error":
                    result["error"] += f"; {'server' if sink_role == 'client' else 'client'}: {line['error']}"
            return {"error": result.get("error", "?")}
        return result
    finally:
        for proc in (client, server):
            if proc is not None:
                try:
                    proc.wait(5)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(5)


# -- cross-check of the scripted peers with minecraft-protocol ---------------------------------
def find_node_modules(explicit: str | None) -> Path | None:
    """The repo's peers first (.peers, or $MCAGENT_PEERS_DIR as install-peers.sh uses), then --peers, then NODE_PATH."""
    candidates: list[Path] = []
    if os.environ.get("MCAGENT_PEERS_DIR"):
        candidates.append(Path(os.environ["MCAGENT_PEERS_DIR"]) / "node_modules")
    candidates.append(REPO / ".peers" / "node_modules")
    if explicit:
        candidates += [Path(explicit), Path(explicit) / "node_modules"]
    candidates += [Path(p) for p in os.environ.get("NODE_PATH", "").split(os.pathsep) if p]
    for candidate in candidates:
        if (candidate / "minecraft-protocol" / "package.json").exists():
            return candidate.resolve()
    return None


def validate(args: argparse.Namespace) -> dict[str, Any]:
    """minecraft-protocol parses what the scripted peers write, both directions, for --version."""
    modules = find_node_modules(args.peers)
    try:
        node = node_peers.node_executable()
    except node_peers.PeersNotInstalled as exc:
        return {"ok": False, "error": str(exc)}
    if modules is None:
        return {"ok": False, "error": "node or minecraft-protocol not found (run scripts/install-peers.sh, "
                                      "or pass --peers DIR / set NODE_PATH)"}
    mp_version = json.loads((modules / "minecraft-protocol" / "package.json").read_text())["version"]
    env = dict(os.environ, NODE_PATH=str(modules))
    script = str(PEERS / "validate.js")
    checks: dict[str, Any] = {}
    for workload in ("small", "big", "echo", "chat"):
        py_role = "client" if workload == "chat" else "server"
        py_extra: dict[str, Any] = {"max_seconds": 15, "accept_timeout": 20}
        if workload == "chat":
            node_cmd = [node, script, "server", "--port", "0", "--version", args.version, "--workload", "chat",
                        "--count", "3000"]
            first = subprocess.Popen(node_cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
            line = Line(first).next(20)
            if not line or line.get("event") != "listening":
                checks[workload] = {"ok": False, "error": f"minecraft-protocol server did not start: {line}"}
                stop(first)
                continue
            py_extra["connect"] = f"127.0.0.1:{line['port']}"
            second = subprocess.Popen(peer_cmd(py_role, workload, args, **py_extra), stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL)
            judge = Line(first)
        else:
            first = subprocess.Popen(peer_cmd(py_role, workload, args, port=0, **py_extra), stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
            line = Line(first).next(20)
            if not line or line.get("event") != "listening":
                checks[workload] = {"ok": False, "error": f"scripted server did not start: {line}"}
                stop(first)
                continue
            node_cmd = [node, script, "client", "--connect", f"127.0.0.1:{line['port']}", "--version", args.version,
                        "--workload", workload, "--count", "3000"]
            second = subprocess.Popen(node_cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
            judge = Line(second)
        result = None
        while True:
            line = judge.next(40)
            if line is None or line.get("event") in ("validated", "error"):
                result = line
                break
        for proc in (second, first):
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                stop(proc)
        if result is None:
            checks[workload] = {"ok": False, "error": "no answer from the validator"}
        else:
            checks[workload] = {"ok": result.get("event") == "validated", "counts": result.get("counts"),
                                **({"error": result.get("error")} if result.get("event") != "validated" else {})}
    return {"ok": all(c["ok"] for c in checks.values()), "minecraft_protocol": mp_version,
            "node_modules": str(modules), "checks": checks}


# -- report ---------------------------------------------------------------------------------
def ratio(a: float | None, b: float | None) -> float | None:
    if a is None or b is None or b == 0:
        return None
    return a / b


def percentile(sorted_values: list[float], p: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(p / 100 * len(sorted_values)))]


def flood_row(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    skipped = [r["skipped"] for r in rounds if "skipped" in r]
    if skipped:
        return {"skipped": skipped[0]}
    ok = [r for r in rounds if "error" not in r]
    errors = [r["error"] for r in rounds if "error" in r]
    if not ok:
        return {"error": errors[0] if errors else "not measured"}
    seconds = sum(r["seconds"] for r in ok)
    per_round = [r["frames"] / r["seconds"] for r in ok]
    cpu: dict[str, float] = {}
    for key in ("relay", "server", "client", "other"):
        weighted = [(r["cpu"][key], r["seconds"]) for r in ok if key in r.get("cpu", {})]
        if weighted:
            cpu[key] = sum(v * t for v, t in weighted) / sum(t for _, t in weighted)
    mean = sum(per_round) / len(per_round)
    relay_cpu_seconds = sum(r["cpu"]["relay"] * r["seconds"] for r in ok if "relay" in r.get("cpu", {}))
    row: dict[str, Any] = {
        "packets_per_s": sum(r["frames"] for r in ok) / seconds,
        "mb_per_s": sum(r["bytes"] for r in ok) / seconds / 1e6,
        "seconds": seconds,
        "rounds_packets_per_s": per_round,
        "spread": (max(per_round) - min(per_round)) / mean if len(per_round) > 1 and mean else None,
        "verified": all(r["verified"] for r in ok),
        "relay_cpu": cpu.get("relay"),
        # throughput per CPU-second of the relay: what it would do with a core to itself
        "packets_per_relay_cpu_s": (sum(r["frames"] for r in ok) / relay_cpu_seconds) if relay_cpu_seconds > 0 else None,
        "peers_cpu": (cpu["server"] + cpu["client"]) if "server" in cpu and "client" in cpu else None,
        "other_cpu": cpu.get("other"),
    }
    counted = [r["mcagent_frames"] for r in ok if "mcagent_frames" in r]
    if counted:
        # mcagent's own counters over whole connections (login, sync, warm-up and window)
        row["mcagent_frames"] = {key: sum(c[key] for c in counted) for key in ("fast", "decoded", "swallowed")}
        row["mcagent_frames"]["connections"] = len(counted)
    if errors:
        row["errors"] = errors
    return row


def build_report(results: dict[str, dict[str, list[dict[str, Any]]]], latency: dict[str, list[dict[str, Any]]],
                 args: argparse.Namespace, version: Any, streams: dict[str, Any], pinned: bool) -> dict[str, Any]:
    table: dict[str, Any] = {}
    for workload, by_path in results.items():
        rows = {path: flood_row(rounds) for path, rounds in by_path.items()}
        raw_pps = rows.get("raw", {}).get("packets_per_s")
        quarry_pps = rows.get("quarry", {}).get("packets_per_s")
        direct_pps = rows.get("direct", {}).get("packets_per_s")
        for path, row in rows.items():
            if "error" in row or "skipped" in row:
                continue
            row["vs_raw"] = ratio(row["packets_per_s"], raw_pps)
            row["vs_quarry"] = ratio(row["packets_per_s"], quarry_pps)
            row["cpu_vs_raw"] = ratio(row["packets_per_relay_cpu_s"], rows.get("raw", {}).get("packets_per_relay_cpu_s"))
            row["cpu_vs_quarry"] = ratio(row["packets_per_relay_cpu_s"],
                                         rows.get("quarry", {}).get("packets_per_relay_cpu_s"))
            # a relay close to the direct path measures the harness, not itself
            row["harness_bound"] = (path != "direct" and direct_pps is not None
                                    and row["packets_per_s"] > 0.85 * direct_pps)
        s = streams[workload]
        table[workload] = {"packet": s.packet, "direction": s.direction,
                           "wire_bytes_per_packet": len(s.period) / s.frames, "packet_bytes": s.packet_bytes,
                           "paths": rows}
    lat: dict[str, Any] = {}
    for path, rounds in latency.items():
        skipped = [r["skipped"] for r in rounds if "skipped" in r]
        if skipped:
            lat[path] = {"skipped": skipped[0]}
            continue
        samples = sorted(x for r in rounds if "error" not in r for x in r["rtts_us"])
        errors = [r["error"] for r in rounds if "error" in r]
        if not samples:
            lat[path] = {"error": errors[0] if errors else "not measured"}
            continue
        lat[path] = {"n": len(samples), "p50_us": percentile(samples, 50), "p90_us": percentile(samples, 90),
                     "p99_us": percentile(samples, 99), "mean_us": sum(samples) / len(samples), "max_us": samples[-1]}
        if errors:
            lat[path]["errors"] = errors
    direct = lat.get("direct", {})
    for path, row in lat.items():
        if path != "direct" and "p50_us" in row and "p50_us" in direct:
            row["added_p50_us"] = row["p50_us"] - direct["p50_us"]
            row["added_p99_us"] = row["p99_us"] - direct["p99_us"]

    def cell(workload: str, path: str, key: str) -> float | None:
        value = table.get(workload, {}).get("paths", {}).get(path, {}).get(key)
        return None if value is None else float(value)

    def pps(workload: str, path: str) -> float | None:
        return cell(workload, path, "packets_per_s")

    def per_cpu(workload: str, path: str) -> float | None:
        return cell(workload, path, "packets_per_relay_cpu_s")

    goals: dict[str, dict[str, Any]] = {}
    for key, workload, other, goal in (("mcagent_vs_raw_small", "small", "raw", 0.8),
                                       ("mcagent_vs_raw_big", "big", "raw", 0.8),
                                       ("mcagent_vs_quarry_chat", "chat", "quarry", 2.0)):
        goals[key] = {"value": ratio(pps(workload, "mcagent"), pps(workload, other)), "goal": goal,
                      "per_cpu_second": ratio(per_cpu(workload, "mcagent"), per_cpu(workload, other))}
    for g in goals.values():
        g["met"] = None if g["value"] is None else g["value"] >= g["goal"]
    return {
        "version": version.name, "protocol": version.protocol, "compression_threshold": THRESHOLD,
        "window_seconds": args.duration, "warmup_seconds": args.warmup, "rounds": args.rounds,
        "cpus": os.cpu_count(),
        "pinning": {"relay_cpu": args.relay_cpu, "peer_cpu": args.peer_cpu} if pinned else None,
        "python": sys.version.split()[0], "throughput": table, "latency": lat, "goals": goals,
        "encryption": encryption_section(args),
    }


def encryption_section(args: argparse.Namespace) -> dict[str, Any]:
    """What --encrypt meant for each path of this run."""
    paths = [p for p in args.paths.split(",") if p]
    if args.encrypt == "none":
        return {"mode": "none", "paths": {p: "no encryption (offline mode on every leg)" for p in paths}}
    skipped = SKIPPED[args.encrypt]
    meaning = {p: f"skipped: {skipped[p]}" if p in skipped else ENCRYPTED_LEGS[args.encrypt][p] for p in paths}
    return {"mode": args.encrypt, "paths": meaning, "account": ACCOUNT,
            "session_server": "local (tests/account_services.py on 127.0.0.1)",
            "session_joins": getattr(args, "session_joins", None)}


def fmt_num(value: float | None, digits: int = 0) -> str:
    if value is None:
        return "-"
    return f"{value:,.{digits}f}"


def fmt_pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.0f}%"


def fmt_ratio(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.4f}" if value < 0.01 else f"{value:.3f}" if value < 0.1 else f"{value:.2f}"


def print_table(report: dict[str, Any]) -> None:
    pin_text = (f"relay on CPU {report['pinning']['relay_cpu']}, peers on CPU {report['pinning']['peer_cpu']}"
                if report["pinning"] else "no CPU pinning")
    enc = report.get("encryption", {"mode": "none"})
    print(f"Relay benchmark: Minecraft {report['version']} (protocol {report['protocol']}), compression threshold "
          f"{report['compression_threshold']}, {report['rounds']} rounds x {report['window_seconds']:g} s per path "
          f"(after {report['warmup_seconds']:g} s warm-up), {pin_text}, Python {report['python']}, "
          f"encryption: {enc['mode']}")
    if enc["mode"] != "none":
        joins = enc.get("session_joins")
        print(f"  AES/CFB8 as in online mode; the account {enc['account']} on local account services"
              f"{f' ({joins} joins accepted by the session server)' if joins is not None else ''}; each path's row:")
        for path, meaning in enc["paths"].items():
            print(f"    {path:<8} {meaning}")
    names = {"small": "small packets, not inspected by mcagent",
             "big": "~1 KB packets compressed on the wire, not inspected by mcagent",
             "chat": "chat packets, their text read by mcagent (decoded whole where it keeps signed chat valid)"}
    for workload, t in report["throughput"].items():
        print()
        print(f"{names[workload]}: {t['packet']} {'server->client' if t['direction'] == 'toClient' else 'client->server'}, "
              f"{t['packet_bytes']:.0f} B packet, {t['wire_bytes_per_packet']:.1f} B per frame on the wire")
        print(f"  {'path':<8} {'packets/s':>13} {'MB/s':>8} {'/raw':>7} {'/quarry':>7} {'spread':>6} "
              f"{'relay CPU':>9} {'per CPU-s':>12} {'/raw':>7} {'/quarry':>7} {'peers CPU':>9} {'other CPU':>9}  note")
        counters = []
        for path, row in t["paths"].items():
            if "skipped" in row:
                print(f"  {path:<8} skipped (see above)")
                continue
            if "error" in row:
                print(f"  {path:<8} failed: {row['error']}")
                continue
            if row.get("mcagent_frames"):
                c = row["mcagent_frames"]
                counters.append(f"  mcagent's own counters, {c['connections']} connection(s): fast path {c['fast']:,} "
                                f"play frames, decoded {c['decoded']:,} ({c['decoded'] / c['connections']:,.0f} per "
                                f"connection), swallowed {c['swallowed']:,}")
            notes = []
            if not row["verified"]:
                notes.append("re-framed on the way (counted by length prefix)")
            if row["harness_bound"]:
                notes.append("near the direct path: harness-bound")
            if path != "direct" and row["relay_cpu"] is not None and row["relay_cpu"] < 0.8:
                notes.append("relay below 80% CPU")
            if row.get("errors"):
                notes.append(f"{len(row['errors'])} round(s) failed: {row['errors'][0]}")
            print(f"  {path:<8} {fmt_num(row['packets_per_s']):>13} {fmt_num(row['mb_per_s'], 1):>8} "
                  f"{fmt_ratio(row['vs_raw']):>7} {fmt_ratio(row['vs_quarry']):>7} {fmt_pct(row['spread']):>6} "
                  f"{fmt_pct(row['relay_cpu']) if path != 'direct' else '-':>9} "
                  f"{fmt_num(row['packets_per_relay_cpu_s']):>12} {fmt_ratio(row['cpu_vs_raw']):>7} "
                  f"{fmt_ratio(row['cpu_vs_quarry']):>7} {fmt_pct(row['peers_cpu']):>9} "
                  f"{fmt_pct(row['other_cpu']):>9}  {'; '.join(notes)}")
        for line in counters:
            print(line)
    if report["latency"]:
        print()
        n = max((r.get("n", 0) for r in report["latency"].values()), default=0)
        print(f"chat round trip (client chat -> server -> chat message back), up to {n} round trips per path, "
              f"microseconds")
        print(f"  {'path':<8} {'p50':>8} {'p90':>8} {'p99':>8} {'added p50':>10} {'added p99':>10}")
        for path, r in report["latency"].items():
            if "skipped" in r:
                print(f"  {path:<8} skipped (see above)")
                continue
            if "error" in r:
                print(f"  {path:<8} failed: {r['error']}")
                continue
            print(f"  {path:<8} {fmt_num(r['p50_us']):>8} {fmt_num(r['p90_us']):>8} {fmt_num(r['p99_us']):>8} "
                  f"{fmt_num(r.get('added_p50_us')):>10} {fmt_num(r.get('added_p99_us')):>10}")
    print()
    labels = {"mcagent_vs_raw_small": "mcagent / raw relay, small packets (not inspected)",
              "mcagent_vs_raw_big": "mcagent / raw relay, ~1 KB compressed packets (not inspected)",
              "mcagent_vs_quarry_chat": "mcagent / quarry bridge, chat packets"}
    if report.get("validation"):
        v = report["validation"]
        if v["ok"]:
            print(f"  scripted peers checked with minecraft-protocol {v['minecraft_protocol']}: every flood, echo "
                  f"and chat packet parsed")
        else:
            print(f"  scripted peers check with minecraft-protocol FAILED: "
                  f"{json.dumps(v.get('checks') or v.get('error'))}")
    print(f"  {'goal':<62} {'ratio':>7} {'per CPU-s':>10}")
    for key, g in report["goals"].items():
        verdict = "n/a" if g["met"] is None else ("met" if g["met"] else "MISSED")
        print(f"  {labels[key]:<62} {fmt_ratio(g['value']):>7} {fmt_ratio(g['per_cpu_second']):>10}  "
              f"goal >= {g['goal']:g}  {verdict}")
    if report.get("py_spy"):
        print(f"\n  where mcagent spends its time (py-spy self time per function, {report['py_spy']['directory']}):")
        for workload, rows in report["py_spy"]["self_time"].items():
            print(f"    {workload}:")
            for name, share in rows:
                print(f"      {share * 100:5.1f}%  {name}")
    others = [row["other_cpu"] for t in report["throughput"].values() for row in t["paths"].values()
              if row.get("other_cpu") is not None]
    if others and sum(others) / len(others) > 0.2:
        print(f"\n  note: other processes used {sum(others) / len(others) * 100:.0f}% of a CPU on average during the "
              f"windows; throughput is noisy, compare the per CPU-s columns")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", default="1.18.2", help="Minecraft version the peers speak (default 1.18.2)")
    parser.add_argument("--paths", default=",".join(PATHS), help="comma list of direct,raw,quarry,mcagent")
    parser.add_argument("--workloads", default="small,big,chat,latency", help="comma list of small,big,chat,latency")
    parser.add_argument("--rounds", type=int, default=2, help="interleaved rounds over the paths (default 2)")
    parser.add_argument("--duration", type=float, default=1.5, help="measuring window per flood and round, seconds")
    parser.add_argument("--warmup", type=float, default=0.5, help="warm-up before each window, seconds")
    parser.add_argument("--latency-count", type=int, default=1000, help="chat round trips per path and round")
    parser.add_argument("--latency-seconds", type=float, default=2.0, help="time budget for them, seconds")
    parser.add_argument("--no-pin", action="store_true", help="do not pin the relay and the peers to separate CPUs")
    parser.add_argument("--profile", metavar="DIR", help="run mcagent under cProfile, write DIR/mcagent.prof "
                        "(with --py-spy: where py-spy writes instead; mcagent then runs unprofiled)")
    parser.add_argument("--py-spy", metavar="PATH", help="sample mcagent with this py-spy binary during each "
                        "mcagent window; raw stacks to --profile DIR (default .), summary at the end")
    parser.add_argument("--validate", action="store_true",
                        help="first check with minecraft-protocol (Node) that the scripted peers speak --version")
    parser.add_argument("--peers", metavar="DIR", help="node_modules with minecraft-protocol, if not in .peers/")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    parser.add_argument("--encrypt", choices=ENCRYPT_MODES, default="none",
                        help="none (default); server: online mode's encryption on the server leg (mcagent logs in "
                        "as a local Microsoft account; direct and raw are encrypted end to end); both: the client "
                        "leg too (mcagent in online mode). Local account services, nothing leaves the machine")
    args = parser.parse_args(argv)

    paths = [p for p in args.paths.split(",") if p]
    workloads = [w for w in args.workloads.split(",") if w]
    for p in paths:
        if p not in PATHS:
            parser.error(f"unknown path {p}")
    for w in workloads:
        if w not in (*FLOODS, "latency"):
            parser.error(f"unknown workload {w}")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    try:
        version = load_version(args.version)
    except WireError as exc:
        print(f"relay bench: {exc}", file=sys.stderr)
        return 2
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    pinned = not args.no_pin and len(cpus) >= 2
    args.peer_cpu = cpus[0] if pinned else None
    args.relay_cpu = cpus[1] if pinned else None
    if pinned:
        os.sched_setaffinity(0, {args.peer_cpu})
    started = time.monotonic()
    streams = {w: workload_stream(w, version, THRESHOLD) for w in FLOODS}
    validation = None
    if args.validate:
        validation = validate(args)
        log(f"validation with minecraft-protocol: {'ok' if validation['ok'] else 'FAILED'} "
            f"{json.dumps(validation.get('checks', validation.get('error')))}")
    server_port = free_port()
    results: dict[str, dict[str, list[dict[str, Any]]]] = {w: {p: [] for p in paths} for w in FLOODS if w in workloads}
    latency: dict[str, list[dict[str, Any]]] = {p: [] for p in paths} if "latency" in workloads else {}
    workdir = Path(tempfile.mkdtemp(prefix="mcagent-relay-bench-"))
    relays: dict[str, Relay] = {}
    online: Online | None = None
    try:
        if args.encrypt != "none":
            online = Online(workdir)
        # every relay stays up for the whole run; the paths take turns, so background load hits all alike
        for path in paths:
            skip = SKIPPED.get(args.encrypt, {}).get(path)
            if skip is not None:
                log(f"[{path}] skipped with --encrypt {args.encrypt}: {skip}")
                for w in results:
                    results[w][path].append({"skipped": skip})
                if latency:
                    latency[path].append({"skipped": skip})
                continue
            relay = Relay(path, server_port, args, workdir, online)
            if relay.start():
                relays[path] = relay
            else:
                log(f"[{path}] {relay.error}")
                for w in results:
                    results[w][path].append({"error": relay.error})
                if latency:
                    latency[path].append({"error": relay.error})
        live = [p for p in paths if p in relays]
        failures: dict[str, int] = {}
        last_error: dict[str, str] = {}
        for rnd in range(args.rounds):
            order = live[rnd % len(live):] + live[:rnd % len(live)] if live else []
            for w in workloads:
                kind = "echo" if w == "latency" else w
                for path in order:
                    r: dict[str, Any]
                    if failures.get(path, 0) >= 2:
                        r = {"error": f"skipped after two failures; last: {last_error[path]}"}
                        (latency if w == "latency" else results[w])[path].append(r)
                        continue
                    r = measure(kind, relays[path], server_port, args, online)
                    if "error" in r:
                        # a refusal at login will not change: stop trying that path (unless it was
                        # the relay not reaching the scripted server: that one is worth another try)
                        final = "refused at login" in r["error"] and "Cannot reach the server" not in r["error"]
                        failures[path] = failures.get(path, 0) + (2 if final else 1)
                        last_error[path] = r["error"]
                    else:
                        failures[path] = 0
                    (latency if w == "latency" else results[w])[path].append(r)
                    tag = f"[round {rnd + 1}/{args.rounds}] {path:<7} {w:<7}"
                    if "error" in r:
                        log(f"{tag} failed: {r['error']}")
                        for line in r.get("details", []):
                            log(f"    {line}")
                    elif w == "latency":
                        log(f"{tag} p50 {r['p50_us']:.0f} us, p99 {r['p99_us']:.0f} us ({r['n']} round trips)")
                    else:
                        counts = r.get("mcagent_frames")
                        seen = (f", mcagent: fast path {counts['fast']:,}, decoded {counts['decoded']:,}"
                                if counts else "")
                        log(f"{tag} {r['frames'] / r['seconds']:,.0f} packets/s, {r['bytes'] / r['seconds'] / 1e6:,.1f} "
                            f"MB/s, relay CPU {fmt_pct(r.get('cpu', {}).get('relay'))}{seen}")
    finally:
        for relay in relays.values():
            relay.stop()
        if online is not None:
            args.session_joins = online.joins()
            online.close()
        shutil.rmtree(workdir, ignore_errors=True)
    report = build_report(results, latency, args, version, streams, pinned)
    if args.py_spy and "mcagent" in relays:
        spy_dir = Path(args.profile or ".").resolve()
        report["py_spy"] = {"directory": str(spy_dir), "self_time": py_spy_summary(spy_dir)}
        log(f"py-spy samples of mcagent: {spy_dir}/py-spy-*.txt")
    elif args.profile and "mcagent" in relays:
        log(f"mcagent profile: {Path(args.profile).resolve() / 'mcagent.prof'}")
    report["elapsed_seconds"] = time.monotonic() - started
    if validation is not None:
        report["validation"] = validation
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_table(report)
        print(f"\n({report['elapsed_seconds']:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
