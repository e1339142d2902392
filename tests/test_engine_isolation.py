"""engine/ is sans-IO: it never imports Twisted or quarry (docs/architecture.md, Packages)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.source_imports import absolute_imports

ENGINE = Path(__file__).resolve().parent.parent / "engine"
FORBIDDEN = ("twisted", "quarry", "proxy")


def test_engine_sources_never_import_twisted_or_quarry() -> None:
    offenders = [f"{path}: {name}" for path in ENGINE.rglob("*.py") for name in absolute_imports(path)
                 if name.split(".")[0] in FORBIDDEN]
    assert offenders == []


def test_importing_every_engine_module_loads_no_twisted_or_quarry() -> None:
    modules = sorted(
        ".".join(p.relative_to(ENGINE.parent).with_suffix("").parts)
        for p in ENGINE.rglob("*.py")
        if p.name != "__main__.py"
    )
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}:\n"
        "    importlib.import_module(m.removesuffix('.__init__'))\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('twisted', 'quarry')]\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ENGINE.parent)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""
