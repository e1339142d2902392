"""Where the generators read minecraft-data from: the pinned npm package, or, for a row of
proxy/data/versions.json that names a ``commit``, that commit of the minecraft-data
repository (a release the npm package does not have yet).

Both are read as the package lays its files out under ``data/`` (``dataPaths.json``,
``pc/common/protocolVersions.json``, ``pc/<version>/<file>.json``). A repository commit is
read with ``git show COMMIT:data/...`` from a clone of the repository that holds the
commit (``--minecraft-data-repo PATH``, or the ``MCAGENT_MINECRAFT_DATA_REPO`` environment
variable), so what the generators read is exactly that commit's data. A commit that only a
pull request holds is fetched into the clone with ``git fetch origin pull/N/head``.

A commit's row may also name a ``base`` (a version of the npm package) and a ``commit_base``
(the version at that commit its data was built from; default ``base``): the row is then read
as the commit's changes from ``commit_base`` rebased onto the package's ``base``
(``RebasedCommit``), so fixes the package made to older data after the commit are kept.

A row may finally name ``files``: files of a repository commit that no git copy here holds
(the ``fetch`` tool's snapshot stops before it), rebuilt from the code index's stored copy into
a directory (``--minecraft-data-files DIR``, ``$MCAGENT_MINECRAFT_DATA_FILES``, else
``/work/shared/minecraft-data``) as ``DIR/<commit>/<path>``. Each is checked against the length
and sha256 the row records before use, and read as its changes from the repository's
``commit_base`` at ``commit_base_at`` rebased onto the package's ``base`` (``RebuiltFiles``).
"""
from __future__ import annotations

import hashlib
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
FILES_ENV = "MCAGENT_MINECRAFT_DATA_FILES"
# Where files rebuilt from the code index's copies of repository commits are kept (``files``).
REBUILT_FILES = Path("/work/shared/minecraft-data")
# Where the ``fetch`` tool leaves its copy of github:PrismarineJS/minecraft-data (a bare git dir).
FETCHED_COPY = Path("/work/.mirror/PrismarineJS+minecraft-data/repo")


def repo_option(argv: list[str]) -> tuple[str | None, list[str]]:
    """``--minecraft-data-repo CLONE`` taken out of a generator's arguments: (CLONE or None, the rest)."""
    args = list(argv)
    if "--minecraft-data-repo" not in args:
        return None, args
    at = args.index("--minecraft-data-repo")
    return args[at + 1], args[:at] + args[at + 2:]


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


MISSING = object()


def rebased(new: Any, old: Any, onto: Any) -> Any:
    """One unit of data: the commit's ``new`` value if the commit changed it from ``old``, else ``onto``.

    ``MISSING`` stands for a unit one side lacks: a unit the commit added is ``new``, one it
    removed stays removed, and one neither commit version has is the package's (``onto``)."""
    if new is MISSING:
        return onto if old is MISSING else MISSING
    if old is not MISSING and new == old and onto is not MISSING:
        return onto
    return new


def rebased_dict(new: dict[str, Any], old: dict[str, Any], onto: dict[str, Any],
                 whole: frozenset[str] = frozenset()) -> dict[str, Any]:
    """``rebased`` key by key: the commit's keys in its order, then keys only the package has."""
    out: dict[str, Any] = {}
    for key in list(new) + [k for k in onto if k not in new]:
        value = new[key] if key in whole else rebased(new.get(key, MISSING), old.get(key, MISSING),
                                                       onto.get(key, MISSING))
        if value is not MISSING:
            out[key] = value
    return out


def rebased_protocol(new: dict[str, Any], old: dict[str, Any], onto: dict[str, Any]) -> dict[str, Any]:
    """A protocol.json rebased per named type and per packet layout.

    The top-level ``types`` and each state's and direction's ``types`` are rebased name by name
    (``rebased_dict``). A direction's ``packet`` type (the id mapping and the name -> layout
    switch) is one unit and always the commit's: ids shift when packets are added or removed,
    so the commit's whole mapping is the only consistent one. Anything else is one unit."""
    out: dict[str, Any] = {}
    for key in list(new) + [k for k in onto if k not in new]:
        n, o, t = new.get(key, MISSING), old.get(key, MISSING), onto.get(key, MISSING)
        if key == "types" and isinstance(n, dict):
            out[key] = rebased_dict(n, o if isinstance(o, dict) else {}, t if isinstance(t, dict) else {})
        elif isinstance(n, dict) and "toClient" in n:
            o = o if isinstance(o, dict) else {}
            t = t if isinstance(t, dict) else {}
            out[key] = {direction: {"types": rebased_dict(
                n[direction]["types"], o.get(direction, {}).get("types", {}),
                t.get(direction, {}).get("types", {}), whole=frozenset({"packet"}))}
                for direction in n}
        else:
            value = rebased(n, o, t)
            if value is not MISSING:
                out[key] = value
    return out


class RebasedCommit(Source):
    """A row's data as its commit's change from ``commit_base``, laid onto the package's ``base``.

    Why: a commit made before the package's ``base`` data was fixed carries the older copy of
    every layout it did not touch. 26.2's commit (pull request 1211 of the repository) was built
    on the repository's 1.21.11 (the repository had no 26.1 yet) and left e.g. entity_teleport,
    the dust particle and intangible_projectile as they were there, which vanilla 26.x does not
    send. So, unit by unit, where the commit's value equals its own ``commit_base`` value the
    package's ``base`` value is taken, and where the commit changed it, the commit's value.
    The units are what the generators read: for protocol.json each named type and each packet
    layout, with each state's and direction's id mapping whole from the commit
    (``rebased_protocol``); every other file (items, entities, blocks, collision shapes, whose
    ids shift when entries are added) is one unit."""

    def __init__(self, commit: RepositoryCommit, npm: Source, data: str, commit_base: str, base: str) -> None:
        self.commit = commit
        self.npm = npm
        self.data = data
        self.commit_base = commit_base
        self.base = base
        self.label = f"{commit.label} ({commit_base} -> {data}) on {npm.label} {base}"

    def read(self, relative: str) -> Any:
        return self.commit.read(relative)

    def file(self, version: str, kind: str) -> Any:
        new = self.commit.file(version, kind)
        if version != self.data:
            return new
        old = self.commit.file(self.commit_base, kind)
        onto = self.npm.file(self.base, kind)
        if kind == "protocol":
            return rebased_protocol(new, old, onto)
        return rebased(new, old, onto)


class RebuiltFiles(Source):
    """A row's source with some files replaced by rebuilt copies of a later commit's.

    Why: the 26.2 data merged into the repository (its pull request 1298, with the
    ``sulfur_cube_content`` item component) is in no snapshot ``fetch`` gives, only in the code
    index, whose copy was rebuilt character for character into a file. That commit's
    protocol.json was built on the repository's own 26.1 (which lags the npm package's: byte
    angles in entity_teleport, hands without names), so, as ``RebasedCommit`` does, a unit the
    file did not change from the repository's 26.1 is taken from the package's 26.1."""

    def __init__(self, inner: Source, files: dict[str, dict[str, Any]], directory: Path, clone: Path,
                 npm: Source, data: str, base: str) -> None:
        self.inner = inner
        self.files = files
        self.directory = directory
        self.clone = clone
        self.npm = npm
        self.data = data
        self.base = base
        self.label = inner.label

    def read(self, relative: str) -> Any:
        return self.inner.read(relative)

    def load(self, kind: str) -> Any:
        spec = self.files[kind]
        path = self.directory / spec["commit"] / spec["path"]
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise SystemExit(f"{path}: cannot read the rebuilt {spec['path']} ({e})") from None
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        if len(text) != spec["chars"] or digest != spec["sha256"]:
            raise SystemExit(f"{path}: {len(text)} characters, sha256 {digest}; {VERSION_LIST} records "
                             f"{spec['chars']} and {spec['sha256']} for {spec['path']} at {spec['commit']}")
        return json.loads(text)

    def file(self, version: str, kind: str) -> Any:
        if version != self.data or kind not in self.files:
            return self.inner.file(version, kind)
        spec = self.files[kind]
        new = self.load(kind)
        old = RepositoryCommit(self.clone, spec["commit_base_at"]).file(spec["commit_base"], kind)
        onto = self.npm.file(self.base, kind)
        if kind == "protocol":
            return rebased_protocol(new, old, onto)
        return rebased(new, old, onto)


def rebuilt_files_dir(arg: str | None = None) -> Path:
    return Path(arg or os.environ.get(FILES_ENV) or REBUILT_FILES)


def files_available(directory: Path, clone: Path | None, files: dict[str, dict[str, Any]]) -> bool:
    return all((directory / spec["commit"] / spec["path"]).exists() and commit_available(clone, spec["commit_base_at"])
               for spec in files.values())


def repository_clone(arg: str | None) -> Path | None:
    """The clone named on the command line or in the environment, else the fetched copy if any."""
    value = arg or os.environ.get(REPO_ENV)
    if value:
        return Path(value)
    return FETCHED_COPY if FETCHED_COPY.exists() else None


def commit_available(clone: Path | None, commit: str) -> bool:
    if clone is None:
        return False
    out = subprocess.run(["git", "-C", str(clone), "cat-file", "-e", f"{commit}^{{commit}}"],
                         capture_output=True, check=False)
    return out.returncode == 0


def sources(npm: NpmPackage, clone: Path | None,
            files_dir: Path | None = None) -> tuple[dict[str, Source], list[str]]:
    """Each accepted row's source, and the rows whose repository commit (or rebuilt file) is not at hand."""
    files_dir = files_dir or rebuilt_files_dir()
    found: dict[str, Source] = {}
    unavailable: list[str] = []
    commits: dict[str, RepositoryCommit] = {}
    for row in accepted_rows():
        commit = row.get("commit")
        if not commit:
            found[row["name"]] = npm
        elif commit_available(clone, commit):
            assert clone is not None
            source: Source = commits.setdefault(commit, RepositoryCommit(clone, commit))
            if row.get("base"):
                source = RebasedCommit(commits[commit], npm, row["data"], row.get("commit_base", row["base"]),
                                       row["base"])
            if row.get("files"):
                if not files_available(files_dir, clone, row["files"]):
                    unavailable.append(row["name"])
                    continue
                source = RebuiltFiles(source, row["files"], files_dir, clone, npm, row["data"], row["base"])
            found[row["name"]] = source
        else:
            unavailable.append(row["name"])
    return found, unavailable


def repository_rows() -> dict[str, str]:
    """Rows generated from a repository commit: name -> commit."""
    return {row["name"]: row["commit"] for row in accepted_rows() if row.get("commit")}


def source_labels() -> dict[str, str]:
    """Rows generated from a repository commit: name -> how (the generated files' ``sources``)."""
    labels = {}
    for row in accepted_rows():
        if row.get("commit"):
            label = f"minecraft-data repository commit {row['commit']}"
            if row.get("base"):
                label += (f", its changes from its {row.get('commit_base', row['base'])} rebased onto "
                          f"minecraft-data {version_list()['minecraft_data']} {row['base']}")
            for kind, spec in sorted(row.get("files", {}).items()):
                label += (f"; {kind}.json from {spec['path']} at commit {spec['commit']} (rebuilt from the code "
                          f"index, sha256 {spec['sha256'][:16]}), its changes from the repository's "
                          f"{spec['commit_base']} at {spec['commit_base_at'][:12]} rebased onto minecraft-data "
                          f"{version_list()['minecraft_data']} {row['base']}")
            labels[row["name"]] = label
    return labels
