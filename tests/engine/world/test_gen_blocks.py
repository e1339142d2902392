"""The shipped block table is exactly what scripts/gen_blocks.py makes from its sources.

Rows read from the pinned npm package are regenerated here. A row versions.json reads from a
commit of the minecraft-data repository (a release the npm package lacks) is regenerated too
when a clone holding that commit is named in ``MCAGENT_MINECRAFT_DATA_REPO``; without one (a
fresh machine has only the package registries) the shipped table must name that commit for
the row (and the base it was rebased onto), and every other row must be table for table what
the package gives."""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[3]
PC = ROOT / ".peers" / "node_modules" / "minecraft-data" / "minecraft-data" / "data" / "pc"
SHIPPED = ROOT / "engine" / "world" / "data" / "blocks.json"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_blocks", ROOT / "scripts" / "gen_blocks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not PC.is_dir(), reason="npm peers not installed (scripts/install-peers.sh)")
def test_shipped_table_matches_a_fresh_generation(tmp_path: Path) -> None:
    module = _generator()
    data = sys.modules["minecraft_data"]
    npm = data.NpmPackage(PC.parents[2])
    chosen, unavailable = data.sources(npm, data.repository_clone(None))
    fresh = module.generate(npm, chosen)
    if not unavailable:
        assert module.render(fresh) == SHIPPED.read_text(encoding="utf-8")
        return
    shipped = json.loads(SHIPPED.read_text(encoding="utf-8"))
    assert set(shipped["versions"]) == set(fresh["versions"]) | set(unavailable)
    assert shipped["source"] == fresh["source"]
    for version in fresh["versions"]:
        assert module.expand(shipped, version) == module.expand(fresh, version), version
    labels = data.source_labels()
    for version in unavailable:
        assert shipped["sources"][version] == labels[version]
