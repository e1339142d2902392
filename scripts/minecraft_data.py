"""Where the generators read minecraft-data from: the pinned npm package, or, for a row of
proxy/data/versions.json that names a ``commit``, that commit of the minecraft-data
repository (a release the npm package does not have yet).

Both are read as the package lays its files out under ``data/`` (``dataPaths.json``,
``pc/common/protocolVersions.json``, ``pc/<version>/<file>.json``). A repository commit is
read with ``git show COMMIT:data/...`` from a clone of the repository that holds the
commit (``--minecraft-data-repo PATH``, or the ``MCAGENT_MINECRAFT_DATA_REPO`` environment
variable), so what the generators read is exactly that commit's data. A commit that only a
pull request holds is fetched into the clone with ``git fetch origin pull/N/head``.
"""
from __future__ import annotations

import json
import os
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
NPM_PACKAGE = ROOT / ".peers" / "node_modules" / "minecraft-data"
VERSION_LIST = ROOT / "proxy" / "data" / "versions.json"
REPO_ENV = "MCAGENT_MINECRAFT_DATA_REPO"


def version_list() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(VERSION_LIST.read_text(encoding="utf-8"))
    return document


def accepted_rows() -> list[dict[str, Any]]:
    """Every accepted row of the one list of versions, in its order."""
    rows: list[dict[str, Any]] = version_list()["protocols"]
    return [row for row in rows if not row.get("missing")]


class Source:
    """One copy of minecraft-data's ``data/`` folder."""

    label = ""

    def read(self, relative: str) -> Any:
        raise NotImplementedError

    @cache
    def paths(self) -> dict[str, Any]:
        paths: dict[str, Any] = self.read("dataPaths.json")["pc"]
        return paths

    @cache
    def protocol_versions(self) -> dict[str, dict[str, Any]]:
        return {e["minecraftVersion"]: e for e in self.read("pc/common/protocolVersions.json")}

    def file(self, version: str, kind: str) -> Any:
        """``kind`` (``protocol``, ``blocks``...) of ``version``, through ``dataPaths.json``."""
        return self.read(f"{self.paths()[version][kind]}/{kind}.json")

    def check_releases(self, row: dict[str, Any]) -> None:
        known = self.protocol_versions()
        wrong = [r for r in row["releases"] if r not in known or known[r]["version"] != row["protocol"]]
        if wrong:
            raise SystemExit(f"{VERSION_LIST}: {self.label} says {wrong} do not speak protocol {row['protocol']}")


class NpmPackage(Source):
    def __init__(self, root: Path) -> None:
        self.root = root
        self.version = str(json.loads((root / "package.json").read_text(encoding="utf-8"))["version"])
        self.label = f"minecraft-data {self.version}"

    def read(self, relative: str) -> Any:
        return json.loads((self.root / "minecraft-data" / "data" / relative).read_text(encoding="utf-8"))


class RepositoryCommit(Source):
    def __init__(self, clone: Path, commit: str) -> None:
        self.clone = clone
        self.commit = commit
        self.label = f"the minecraft-data repository at {commit}"

    def read(self, relative: str) -> Any:
        out = subprocess.run(["git", "-C", str(self.clone), "show", f"{self.commit}:data/{relative}"],
                             capture_output=True, check=False)
        if out.returncode != 0:
            raise SystemExit(f"{self.label}: cannot read data/{relative}: {out.stderr.decode().strip()}")
        return json.loads(out.stdout)


def repository_clone(arg: str | None) -> Path | None:
    """The clone named on the command line or in the environment, if any."""
    value = arg or os.environ.get(REPO_ENV)
    return Path(value) if value else None


def commit_available(clone: Path | None, commit: str) -> bool:
    if clone is None:
        return False
    out = subprocess.run(["git", "-C", str(clone), "cat-file", "-e", f"{commit}^{{commit}}"],
                         capture_output=True, check=False)
    return out.returncode == 0


def sources(npm: NpmPackage, clone: Path | None) -> tuple[dict[str, Source], list[str]]:
    """Each accepted row's source, and the rows whose repository commit is not at hand."""
    found: dict[str, Source] = {}
    unavailable: list[str] = []
    commits: dict[str, RepositoryCommit] = {}
    for row in accepted_rows():
        commit = row.get("commit")
        if not commit:
            found[row["name"]] = npm
        elif commit_available(clone, commit):
            assert clone is not None
            found[row["name"]] = commits.setdefault(commit, RepositoryCommit(clone, commit))
        else:
            unavailable.append(row["name"])
    return found, unavailable


def repository_rows() -> dict[str, str]:
    """Rows generated from a repository commit: name -> commit (the generated files' headers)."""
    return {row["name"]: row["commit"] for row in accepted_rows() if row.get("commit")}
