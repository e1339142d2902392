"""The shipped block table is exactly what scripts/gen_blocks.py makes from the pinned data."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
PC = ROOT / ".peers" / "node_modules" / "minecraft-data" / "minecraft-data" / "data" / "pc"


@pytest.mark.skipif(not PC.is_dir(), reason="npm peers not installed (scripts/install-peers.sh)")
def test_shipped_table_matches_a_fresh_generation(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("gen_blocks", ROOT / "scripts" / "gen_blocks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path / "blocks.json"
    assert module.main([str(PC), str(out)]) == 0
    assert out.read_bytes() == (ROOT / "engine" / "world" / "data" / "blocks.json").read_bytes()
