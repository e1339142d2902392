"""The real mcagent proxy as a child process, for end-to-end tests."""
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

from tests.e2e.peers import free_port

ROOT = Path(__file__).resolve().parents[2]


class ProxyProcess:
    def __init__(self, upstream_port: int, extra_args: tuple[str, ...] = (), **config: Any) -> None:
        self.port = free_port()
        self.upstream_port = upstream_port
        base: dict[str, Any] = {
            "listen": {"host": "127.0.0.1", "port": self.port},
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
        if not self._ready.wait(30):
            self.close()
            raise RuntimeError("mcagent did not start:\n" + "\n".join(self.lines[-30:]))

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))
            if "connect your Minecraft client" in line:
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
