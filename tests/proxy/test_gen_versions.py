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


def test_a_rebuilt_file_is_used_only_with_the_length_and_hash_versions_json_records(tmp_path: Path) -> None:
    """A file rebuilt from the code index (26.2's protocol.json) is checked before the generators
    read it: a copy that differs by one character is refused, naming the file and the commit."""
    import hashlib
    import json

    import minecraft_data

    text = json.dumps({"types": {"varint": "native"}}, indent=2)
    spec = {"path": "data/pc/26.2/protocol.json", "commit": "ab" * 20, "chars": len(text),
            "sha256": hashlib.sha256(text.encode()).hexdigest(), "commit_base_at": "cd" * 20, "commit_base": "26.1"}
    where = tmp_path / spec["commit"] / spec["path"]
    where.parent.mkdir(parents=True)
    where.write_text(text, encoding="utf-8")
    rebuilt = minecraft_data.RebuiltFiles(minecraft_data.Source(), {"protocol": spec}, tmp_path, tmp_path,
                                          minecraft_data.Source(), "26.2", "26.1")
    assert rebuilt.load("protocol") == {"types": {"varint": "native"}}
    where.write_text(text.replace("native", "nativE"), encoding="utf-8")
    with pytest.raises(SystemExit, match=f"protocol.json at {spec['commit']}"):
        rebuilt.load("protocol")
