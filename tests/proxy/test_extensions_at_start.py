"""The real proxy loads extension modules at start; a broken one is named in the log and the proxy goes on."""
from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.modules.extensions import GROUP
from tests.e2e.proxy_process import ProxyProcess
from tests.proxy.model_rig import FakeUpstream, RawClient

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "mcagent-origin"


@pytest.fixture
def upstream() -> Iterator[FakeUpstream]:
    server = FakeUpstream()
    yield server
    server.close()


def _dist_info(root: Path, name: str, entry_point: str) -> None:
    info = root / f"{name.replace('-', '_')}-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n{entry_point}\n", encoding="utf-8")


def test_the_proxy_routes_to_an_installed_extension_and_survives_a_broken_one(
    tmp_path: Path, upstream: FakeUpstream, monkeypatch: pytest.MonkeyPatch
) -> None:
    _dist_info(tmp_path, "mcagent-origin", "origin = mcagent_origin:OriginModule")
    _dist_info(tmp_path, "mcagent-broken", "broken = mcagent_no_such_package:Module")
    paths = [str(tmp_path), str(EXAMPLE), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in paths if p))
    monkeypatch.delenv("DEEPSEEK_API_KEY", raising=False)
    proxy = ProxyProcess(upstream.port)
    try:
        assert "example:origin" in proxy.wait_log("extension origin: modules")
        assert "ModuleNotFoundError" in proxy.wait_log("extension broken not loaded")
        client = RawClient(proxy.port)
        assert upstream.logged_in.wait(10) and client.in_play.wait(10)
        asked = client.chat("@ai how far am i from the origin")
        # The scripted server sends no position, so the extension says it cannot tell yet.
        assert client.wait_line("how far the origin is", timeout=10, since=asked)
    finally:
        proxy.close()
