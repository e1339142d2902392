"""A first run cannot trip: the install scripts wait for apt's lock, only the test command
installs nginx, and a failed nginx install is reported, never fatal."""
from __future__ import annotations

import contextlib
import fcntl
import os
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTE = ROOT / ".venv" / "nginx-unavailable"

# A stand-in apt-get: records its arguments; like the real one while another process holds
# the lock, it fails with status 100 unless told to wait for the lock.
FAKE_APT = """#!/usr/bin/env bash
echo "$*" >> "$APT_CALLS"
case "$*" in
  *DPkg::Lock::Timeout=*) [ -n "$APT_ALWAYS_FAILS" ] && { echo "E: broken mirror" >&2; exit 100; }; exit 0 ;;
  *) echo "E: Could not get lock /var/lib/dpkg/lock-frontend" >&2; exit 100 ;;
esac
"""


_held = 0


@contextlib.contextmanager
def one_bootstrap_at_a_time() -> Iterator[None]:
    """Bootstrap runs share the checkout's .venv and its note files (nginx-unavailable,
    browser-unavailable), which each run rewrites: on parallel test workers, one at a time.
    Re-entrant within a process (a test holding it may call ``_bootstrap``)."""
    global _held
    if _held:
        _held += 1
        try:
            yield
        finally:
            _held -= 1
        return
    home = ROOT / ".venv" if (ROOT / ".venv").is_dir() else Path(tempfile.gettempdir())
    with open(home / ".mcagent-bootstrap-tests.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _held = 1
        try:
            yield
        finally:
            _held = 0
            fcntl.flock(lock, fcntl.LOCK_UN)


def _bootstrap(tmp_path: Path, *args: str, always_fails: bool = False,
               extra_env: dict[str, str] | None = None) -> tuple[subprocess.CompletedProcess[str], str]:
    if os.geteuid() != 0:
        pytest.skip("bootstrap installs nginx only as root")
    if not (ROOT / ".venv" / ".mcagent-installed").exists():
        pytest.skip("needs a bootstrapped checkout (the scripts then only check)")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    apt = bin_dir / "apt-get"
    apt.write_text(FAKE_APT)
    apt.chmod(0o755)
    calls = tmp_path / "calls"
    calls.touch()
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}", APT_CALLS=str(calls),
               NGINX_STREAM_MODULE=str(tmp_path / "absent.so"), APT_ALWAYS_FAILS="1" if always_fails else "",
               **(extra_env or {}))
    with one_bootstrap_at_a_time():
        saved = NOTE.read_text() if NOTE.exists() else None
        try:
            done = subprocess.run([str(ROOT / "scripts" / "bootstrap.sh"), *args], cwd=ROOT, env=env, text=True,
                                  capture_output=True, timeout=300)
            note = NOTE.read_text() if NOTE.exists() else ""
        finally:
            NOTE.unlink(missing_ok=True)
            if saved is not None:
                NOTE.write_text(saved)
    return done, calls.read_text() + ("\nNOTE " + note if note else "")


def test_the_nginx_install_waits_for_apts_lock(tmp_path: Path) -> None:
    done, calls = _bootstrap(tmp_path, "--with-nginx")
    assert done.returncode == 0, done.stderr
    lines = calls.splitlines()
    assert any("update" in line for line in lines) and any("install" in line for line in lines)
    assert all("DPkg::Lock::Timeout=" in line for line in lines)


def test_the_demo_bootstrap_does_not_touch_apt(tmp_path: Path) -> None:
    done, calls = _bootstrap(tmp_path)
    assert done.returncode == 0, done.stderr
    assert calls == ""
    assert "--with-nginx" in (ROOT / "scripts" / "test.sh").read_text()
    assert "--with-nginx" not in (ROOT / "scripts" / "dev.sh").read_text()


def test_a_failed_nginx_install_is_reported_and_not_fatal(tmp_path: Path) -> None:
    done, calls = _bootstrap(tmp_path, "--with-nginx", always_fails=True)
    assert done.returncode == 0, done.stderr
    assert "the scale-out test will skip" in done.stdout
    assert "NOTE apt-get failed: E: broken mirror" in calls
