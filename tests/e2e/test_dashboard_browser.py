"""The dashboard in a real browser: headless Chromium (Debian's) against the real proxy and peers.

One flying-squid server and one ``mcagent run`` with its dashboard serve the live test, and
one browser (module scope) serves both tests; the replay test needs no server or proxy. The tests sign
in through the login form, as a person would, and read what the pages drew back out
of the page (the map canvas writes where it drew the player into its data attributes).
Screenshots go to a temporary folder, or to ``MCAGENT_DASHBOARD_SHOTS`` when set
(how docs/dashboard/*.png were made).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.peers import PeerPool, SquidServer, install_dir
from tests.e2e.proxy_process import ROOT, ProxyProcess
from tests.e2e.webdriver import Browser, unavailable_reason

TOKEN = "dashboard-e2e-token-5f2c"
VERSION = "1.18.2"

pytestmark = pytest.mark.skipif(unavailable_reason() is not None, reason=unavailable_reason() or "")


def _shots(tmp: str) -> Path:
    wanted = os.environ.get("MCAGENT_DASHBOARD_SHOTS")
    shots = Path(wanted) if wanted else Path(tmp) / "shots"
    shots.mkdir(parents=True, exist_ok=True)
    return shots


class Screen:
    """The shared browser and where its screenshots go."""

    def __init__(self, shots: Path) -> None:
        self.shots = shots
        self.browser = Browser()

    def shot(self, name: str) -> Path:
        path = self.shots / f"{name}.png"
        self.browser.screenshot(path)
        return path


class Stage:
    """The shared server and proxy, with the browser signed in to the proxy's dashboard."""

    def __init__(self, pool: PeerPool, screen: Screen, logs: Path) -> None:
        self.pool = pool
        self.screen = screen
        self.browser = screen.browser
        self.server: SquidServer = pool.server(version=VERSION, gamemode="creative", view_distance=2)
        self.proxy = ProxyProcess(self.server.port, ("--no-console",), console={"token": TOKEN},
                                  dashboard={"port": 0}, autopilot={"log_dir": str(logs)})
        line = self.proxy.wait_log("dashboard on http://", timeout=10)
        found = re.search(r"http://[\d.]+:\d+", line)
        assert found, line
        self.url = found.group(0)
        self.browser.get(self.url + "/")
        self.browser.type("#token", TOKEN)
        self.browser.click("#submit")
        self.browser.wait_for("return document.body.dataset.updated")

    def shot(self, name: str) -> Path:
        return self.screen.shot(name)


# The replay test needs only the browser: if xdist hands it to another worker, that worker
# starts no server and no proxy.
@pytest.fixture(scope="module")
def screen() -> Iterator[Screen]:
    with tempfile.TemporaryDirectory(prefix="mcagent-dashboard-") as tmp:
        screen = Screen(_shots(tmp))
        try:
            yield screen
        finally:
            screen.browser.close()


@pytest.fixture(scope="module")
def stage(screen: Screen) -> Iterator[Stage]:
    install_dir()
    with tempfile.TemporaryDirectory(prefix="mcagent-dashboard-logs-") as logs, PeerPool() as pool:
        stage = Stage(pool, screen, Path(logs))
        try:
            yield stage
        finally:
            stage.proxy.close()


def test_the_overview_and_the_players_map_follow_a_bot_through_the_real_proxy(stage: Stage) -> None:
    """One test, so one server and proxy however xdist deals the tests: the overview lists the bot
    after its login, its map marks it where the server says, the autopilot's path shows, the
    admin's Stop works, and the overview drops the bot after it leaves."""
    b = stage.browser
    b.get(stage.url + "/")
    bot = stage.pool.bot(stage.proxy.port, username="walker", version=VERSION)
    stage.server.wait_login("walker")
    seen = time.monotonic()
    b.wait_for("return !!document.querySelector(`#players tr[data-player='walker']`)", timeout=10)
    listed_after = time.monotonic() - seen
    cells = b.run("return [...document.querySelectorAll(`#players tr[data-player='walker'] td`)]"
                  ".map(td => td.textContent)")
    assert cells[1] == VERSION and cells[2] == f"127.0.0.1:{stage.server.port}"

    b.get(stage.url + "/player/walker")
    b.wait_for("return document.getElementById('map').dataset.playerX")
    where = stage.server.server_position("walker")
    drawn = b.run("const d = document.getElementById('map').dataset;"
                  "return [Number(d.playerX), Number(d.playerZ), Number(d.playerPx), Number(d.playerPy),"
                  "        Number(d.x0), Number(d.z0), Number(d.cell)]")
    x, z, px, py, x0, z0, cell = drawn
    assert abs(x - where.x) < 0.5 and abs(z - where.z) < 0.5, (drawn, where)
    assert abs(px - (x - x0) * cell) < 1e-6 and abs(py - (z - z0) * cell) < 1e-6
    # The marker is there in the pixels too (white, drawn last).
    pixel = b.run("const c = document.getElementById('map');"
                  "return [...c.getContext('2d').getImageData(Math.round(arguments[0]), Math.round(arguments[1]), 1, 1)"
                  ".data]", px, py)
    assert pixel[:3] == [255, 255, 255], pixel
    mark = bot.mark()
    bot.chat("!autopilot on")
    bot.wait_chat("Autopilot on", since=mark)
    steps = b.wait_for("return Number(document.getElementById('map').dataset.pathLength)", timeout=20)
    assert steps > 0
    stage.shot("player")
    # An admin's action from the page: confirmed, done, and the player is told.
    mark = bot.mark()
    b.click("#admin button[data-action='stop']")
    b.accept_alert()
    b.wait_for("return document.getElementById('action-status').textContent.startsWith('stopped')")
    bot.wait_chat("you have control again", since=mark)
    stage.proxy.wait_log("dashboard: an admin at 127.0.0.1 stopped the autopilot of walker")

    b.get(stage.url + "/")
    b.wait_for("return !!document.querySelector(`#players tr[data-player='walker']`)")
    # The bot's own round trip, from the keep-alives the proxy relayed (flying-squid sends one every 4 s).
    ping = b.wait_for("const td = document.querySelector(`#players tr[data-player='walker'] td.ping`);"
                      "return td && td.textContent.endsWith(' ms') && td.textContent", timeout=10)
    assert 0 <= float(ping.split()[0]) < 1000, ping
    stage.shot("overview")
    bot.quit()
    b.wait_for("return !document.querySelector(`#players tr[data-player='walker']`)", timeout=10)
    print(f"listed {listed_after:.2f} s after the server saw the login")


def test_a_simulated_episode_replays_to_its_last_milestone(screen: Screen, tmp_path: Path) -> None:
    from engine.sim.cli import main as sim_main

    # Seed 0 reaches its ninth milestone at tick 1745 (the simulator's own tests hold it there).
    assert sim_main(["--seeds", "1", "--ticks", "2000", "--log-dir", str(tmp_path)]) == 0
    summary = json.loads((tmp_path / "seed0" / "episode_events.json").read_text())["summary"]
    last = max(summary["milestones"], key=lambda name: summary["milestones"][name])
    viewer = subprocess.Popen([sys.executable, "-m", "proxy.operations.cli", "replay-view", str(tmp_path)],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env=dict(os.environ, PYTHONUNBUFFERED="1", MCAGENT_REPLAY_TOKEN=TOKEN))
    try:
        assert viewer.stdout is not None
        line = viewer.stdout.readline()
        found = re.search(r"http://[\d.]+:\d+", line)
        assert found, line
        b = screen.browser
        b.get(found.group(0) + "/replay")
        b.type("#token", TOKEN)
        b.click("#submit")
        assert b.wait_for("return document.body.dataset.loaded") == "seed0"
        b.click("#end")
        reached = b.run("const d = document.getElementById('now').dataset; return [d.milestone, d.milestones]")
        assert reached == [last, str(len(summary["milestones"]))]
        # The sim's terrain.json is drawn under the track (not the grid of an episode without one).
        assert b.run("return document.getElementById('map').dataset.terrain") == "drawn"
        b.run("const s = document.getElementById('scrub'); s.value = Math.round(s.max * 0.6);"
              "s.dispatchEvent(new Event('input'))")
        screen.shot("replay")
        b.click("#signout")    # the session is gone: the next page is the login form again
        b.wait_for("return !!document.getElementById('token')")
    finally:
        viewer.terminate()
        viewer.wait(5)
