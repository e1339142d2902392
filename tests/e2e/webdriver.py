"""Headless Chromium driven through Debian's chromedriver, over the W3C WebDriver HTTP protocol.

WebDriver is plain JSON over HTTP, so httpx (already a dependency) is the whole
client: no selenium, no new package. ``Browser`` starts chromedriver on port 0 (it
names the port it got), opens one session with the flags scripts/bootstrap.sh's --with-browser
block expects, and offers the few commands the dashboard tests need.
"""
from __future__ import annotations

import base64
import queue
import re
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"   # the W3C key of an element reference
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1280,900")


def unavailable_reason() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not CHROMIUM.exists() or shutil.which("chromedriver") is None:
        note = ROOT / ".venv" / "browser-unavailable"
        why = note.read_text().strip() if note.exists() else "scripts/test.sh (bootstrap --with-browser) was not run"
        return f"Debian's chromium and chromium-driver are not installed ({why})"
    return None


class WebDriverError(Exception):
    pass


class Browser:
    def __init__(self) -> None:
        self.profile = tempfile.TemporaryDirectory(prefix="mcagent-chromium-")
        # Port 0: chromedriver binds a free port and names it ("... started successfully on port N.").
        self.driver = subprocess.Popen([shutil.which("chromedriver") or "chromedriver", "--port=0"],
                                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.http = httpx.Client(timeout=30.0)
        self.session = ""
        try:
            self.port = self._announced_port()
            self.http.base_url = httpx.URL(f"http://127.0.0.1:{self.port}")
            self._wait_ready()
            caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
                "binary": str(CHROMIUM), "args": [*FLAGS, f"--user-data-dir={self.profile.name}"]}}}}
            self.session = self._call("POST", "/session", caps)["sessionId"]
        except Exception:
            self.close()
            raise

    def _announced_port(self) -> int:
        """The port chromedriver prints once it listens; its output is drained after that."""
        announced: queue.Queue[int | None] = queue.Queue()

        def read() -> None:
            assert self.driver.stdout is not None
            for line in self.driver.stdout:
                found = re.search(r"started successfully on port (\d+)", line)
                if found:
                    announced.put(int(found.group(1)))
            announced.put(None)  # it exited

        threading.Thread(target=read, daemon=True).start()
        try:
            port = announced.get(timeout=15)
        except queue.Empty:
            port = None
        if port is None:
            raise WebDriverError("chromedriver did not start")
        return port

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                if self.http.get("/status").json()["value"]["ready"]:
                    return
            except (httpx.HTTPError, KeyError, ValueError):
                pass
            time.sleep(0.05)
        raise WebDriverError("chromedriver did not start")

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        response = self.http.request(method, path, json=body)
        value = response.json().get("value")
        if response.status_code != 200:
            message = value.get("message", "") if isinstance(value, dict) else value
            raise WebDriverError(f"{method} {path}: {response.status_code} {message}"[:500])
        return value

    def _s(self, path: str) -> str:
        return f"/session/{self.session}{path}"

    # -- commands ----------------------------------------------------------------------------
    def get(self, url: str) -> None:
        self._call("POST", self._s("/url"), {"url": url})

    def run(self, script: str, *args: Any) -> Any:
        return self._call("POST", self._s("/execute/sync"), {"script": script, "args": list(args)})

    def find(self, css: str) -> str:
        return str(self._call("POST", self._s("/element"), {"using": "css selector", "value": css})[ELEMENT])

    def type(self, css: str, text: str) -> None:
        self._call("POST", self._s(f"/element/{self.find(css)}/value"), {"text": text})

    def click(self, css: str) -> None:
        self._call("POST", self._s(f"/element/{self.find(css)}/click"), {})

    def accept_alert(self) -> None:
        self._call("POST", self._s("/alert/accept"), {})

    def wait_for(self, script: str, *args: Any, timeout: float = 10.0) -> Any:
        """Run ``script`` until it returns something truthy; that value."""
        deadline = time.monotonic() + timeout
        last: Any = None
        while time.monotonic() < deadline:
            last = self.run(script, *args)
            if last:
                return last
            time.sleep(0.05)
        raise TimeoutError(f"the page never satisfied {script!r} (last: {last!r})")

    def screenshot(self, path: Path) -> None:
        path.write_bytes(base64.b64decode(self._call("GET", self._s("/screenshot"))))

    def close(self) -> None:
        if self.session:
            try:
                self._call("DELETE", self._s(""))
            except (WebDriverError, httpx.HTTPError):
                pass
        self.http.close()
        self.driver.terminate()
        try:
            self.driver.wait(5)
        except subprocess.TimeoutExpired:
            self.driver.kill()
            self.driver.wait(5)
        self.profile.cleanup()
