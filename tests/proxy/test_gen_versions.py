"""scripts/gen_versions.py, the one regeneration command: it rewrites only the version table
between docs/versions.md's markers, and says so when there is nothing to change."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import gen_versions  # noqa: E402

from proxy.protocol import versions  # noqa: E402

DOC = """# Supported versions

<!-- versions table: generated -->
| old | table |
<!-- end of versions table -->

## After the table
"""


def test_the_docs_table_is_rewritten_between_its_markers_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = tmp_path / "versions.md"
    doc.write_text(DOC, encoding="utf-8")
    monkeypatch.setattr(gen_versions, "DOC", doc)
    table = versions.markdown_table()
    assert gen_versions.write_docs_table(table) is True
    text = doc.read_text(encoding="utf-8")
    assert text == DOC.replace("| old | table |\n", table)
    assert "| 26.2 | 776 |" in text and "## After the table" in text
    assert gen_versions.write_docs_table(table) is False  # a second run changes nothing


def test_a_doc_without_markers_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = tmp_path / "versions.md"
    doc.write_text("# no table here\n", encoding="utf-8")
    monkeypatch.setattr(gen_versions, "DOC", doc)
    with pytest.raises(SystemExit, match="versions.md: the versions table markers are missing"):
        gen_versions.write_docs_table("| x |\n")
