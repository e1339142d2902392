"""The modules a source file imports, read from its text: what the isolation and house tests check."""
from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path


def absolute_imports(path: Path) -> Iterator[str]:
    """Every ``import x.y`` and ``from x.y import …`` in ``path``, wherever it stands (functions,
    ``TYPE_CHECKING`` blocks included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
