"""The real mcagent proxy as a child process, for end-to-end tests.

Every port the proxy opens is port 0 unless a test says otherwise: the proxy binds it and
prints the port the OS gave (``connect your Minecraft client to HOST:PORT``, ``metrics on
http://HOST:PORT/metrics``, ``console on HOST:PORT``, ``dashboard on http://HOST:PORT/``),
and the harness reads it from that line. A port picked here and bound later by the proxy
could be taken in between by any other process on the machine.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from proxy.operations.announcements import ANNOUNCED, announced_port

ROOT = Path(__file__).resolve().parents[2]
READY = ANNOUNCED["proxy"]


class ProxyProcess:
    def __init__(self, upstream_port: int, extra_args: tuple[str, ...] = (), **config: Any) -> None:
        self.port = 0  # the real one once the proxy has announced it
        self.upstream_port = upstream_port
        base: dict[str, Any] = {
            "listen": {"host": "127.0.0.1", "port": 0},
            "upstream": {"host": "127.0.0.1", "port": upstream_port},
            "login_rate_limit_seconds": 0,
        }
        base.update(config)
        self._dir = tempfile.TemporaryDirectory(prefix="mcagent-e2e-")
        self.config_path = Path(self._dir.name) / "proxy.json"
        self.config_path.write_text(json.dumps(base))
        self.lines: list[str] = []
        self._ready = threading.Event()
        self._stopped = False
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "proxy.operations.cli", "run", "--config", str(self.config_path), *extra_args],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True,
            env=dict(os.environ, PYTHONUNBUFFERED="1"),
        )
        threading.Thread(target=self._read, daemon=True).start()
        # Set by the announcement, or by the end of the output (the proxy exited: no need to wait on).
        # The bound only catches a proxy that never starts: it starts in about a second, but a loaded
        # 2-core machine ran four starts past 30 s in a local CI run.
        if not self._ready.wait(90) or not self.port:
            self.close()
            raise RuntimeError("mcagent did not start:\n" + "\n".join(self.lines[-30:]))

    def _read(self) -> None:
        assert self.proc.stdout is not None
        try:
            for line in self.proc.stdout:
                self.lines.append(line.rstrip("\n"))
                port = announced_port(line)
                if port is not None and not self._ready.is_set():
                    self.port = port
                    self._ready.set()
        finally:
            self._ready.set()

    def log_text(self) -> str:
        return "\n".join(self.lines)

    def wait_log(self, fragment: str, timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.lines):
                if fragment in line:
                    return line
            time.sleep(0.05)
        raise TimeoutError(f"{fragment!r} not in the proxy log:\n" + "\n".join(self.lines[-30:]))

    def port_of(self, what: str, timeout: float = 10.0) -> int:
        """The port ``what`` (metrics, console, dashboard) listens on, from its announcement."""
        port = announced_port(self.wait_log(ANNOUNCED[what], timeout), what)
        assert port is not None, f"no port in the {what} announcement:\n{self.log_text()}"
        return port

    def rewrite_config(self, text: str) -> None:
        self.config_path.write_text(text)

    def stop(self) -> None:
        """SIGTERM (once), without waiting for the exit (``close`` waits)."""
        if not self._stopped and self.proc.poll() is None:
            self._stopped = True
            self.proc.send_signal(signal.SIGTERM)

    def close(self) -> int | None:
        if self.proc.poll() is None:
            self.stop()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._dir.cleanup()
        return self.proc.returncode
