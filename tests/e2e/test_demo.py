"""The demo (`scripts/dev.sh` runs `mcagent dev`): the embedded server's output goes to a log
file whose path is printed, nothing of it reaches the terminal (no stack trace when a player
leaves), and SIGINT (Ctrl-C) stops the demo cleanly, as any server."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.e2e.peers import Bot
from tests.e2e.proxy_process import ROOT, announced_port


def test_the_demo_keeps_the_servers_output_off_the_terminal_and_stops_on_ctrl_c(peers_installed: Path) -> None:
    # Port 0 for both: the embedded server and the proxy each bind a free port and print it.
    proc = subprocess.Popen(
        [sys.executable, "-m", "proxy.operations.cli", "dev", "--no-console", "--server-port", "0",
         "--listen", "127.0.0.1:0"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1", NODE_PATH=str(peers_installed)))
    lines: list[str] = []
    ports: list[int] = []
    ready = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            port = announced_port(line)
            if port is not None:
                ports.append(port)
                ready.set()

    threading.Thread(target=read, daemon=True).start()
    bot = Bot()
    try:
        assert ready.wait(90), "".join(lines)
        found = re.search(r"its output goes to (\S+)", "".join(lines))
        assert found, "".join(lines)
        log_path = Path(found.group(1))
        assert re.search(r"on 127\.0\.0\.1:[1-9]\d*; its output", "".join(lines)), "".join(lines)  # the real port
        bot.connect(port=ports[0], username="demo", version="1.18.2", timeout=60)
        bot.quit()
        time.sleep(2)  # a client gone: flying-squid writes its EPIPE trace, if any, now
        proc.send_signal(signal.SIGINT)
        assert proc.wait(20) == 0
    finally:
        bot.close()
        if proc.poll() is None:
            proc.kill()
    output = "".join(lines)
    assert log_path.exists() and '"ready"' in log_path.read_text()
    assert "EPIPE" not in output and "    at " not in output  # no Node stack trace on the terminal
