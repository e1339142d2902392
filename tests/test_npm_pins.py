"""The Node peers used by tests/e2e are pinned exactly (peers/package.json and its lock)."""

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
CORE = ("flying-squid", "mineflayer", "minecraft-protocol", "minecraft-data")
INSTALL_SCRIPTS = ("preinstall", "install", "postinstall", "prepare")


def _load(name: str) -> dict[str, Any]:
    data = json.loads((PEERS / name).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def package() -> dict[str, Any]:
    return _load("package.json")


@pytest.fixture(scope="module")
def lock() -> dict[str, Any]:
    return _load("package-lock.json")


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


def test_core_peers_are_direct_dependencies(package: dict[str, Any]) -> None:
    deps = package.get("dependencies") or {}
    missing = [name for name in CORE if name not in deps]
    assert not missing, f"peers/package.json must pin {missing} directly"


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


@pytest.mark.parametrize("name", CORE)
def test_core_peer_resolves_to_one_exact_version(name: str, package: dict[str, Any], lock: dict[str, Any]) -> None:
    pinned = package["dependencies"][name]
    copies = {
        path: entry.get("version")
        for path, entry in lock["packages"].items()
        if path == f"node_modules/{name}" or path.endswith(f"/node_modules/{name}")
    }
    assert copies, f"{name} not in package-lock.json"
    wrong = {path: v for path, v in copies.items() if v != pinned}
    assert not wrong, f"{name} is pinned to {pinned} but the lock also installs {wrong}"


def test_lock_has_integrity_and_no_install_scripts(lock: dict[str, Any]) -> None:
    entries = {path: e for path, e in lock["packages"].items() if path}
    assert entries
    no_integrity = [p for p, e in entries.items() if not e.get("link") and not e.get("integrity")]
    assert not no_integrity, f"lock entries without integrity: {no_integrity[:10]}"
    scripted = [p for p, e in entries.items() if e.get("hasInstallScript")]
    assert not scripted, f"dependencies with install scripts (could download binaries): {scripted}"
