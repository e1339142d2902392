"""scripts/bootstrap.sh --with-browser: Debian's chromium for the dashboard's browser tests, installed
only when asked (scripts/test.sh asks), waiting for apt's lock, and never fatal."""
from __future__ import annotations

from pathlib import Path

from tests.test_scripts import ROOT, _bootstrap, one_bootstrap_at_a_time

NOTE = ROOT / ".venv" / "browser-unavailable"


def _run(tmp_path: Path, *args: str, always_fails: bool = False) -> tuple[int, str, str, str]:
    with one_bootstrap_at_a_time():
        saved = NOTE.read_text() if NOTE.exists() else None
        try:
            done, calls = _bootstrap(tmp_path, *args, always_fails=always_fails,
                                     extra_env={"MCAGENT_CHROMIUM": str(tmp_path / "absent-chromium")})
            note = NOTE.read_text() if NOTE.exists() else ""
        finally:
            NOTE.unlink(missing_ok=True)
            if saved is not None:
                NOTE.write_text(saved)
    return done.returncode, done.stdout, calls, note


def test_the_browser_install_waits_for_apts_lock_and_installs_both_packages(tmp_path: Path) -> None:
    code, _out, calls, note = _run(tmp_path, "--with-browser")
    assert code == 0 and note == ""
    install = [line for line in calls.splitlines() if "install" in line]
    assert install and "chromium chromium-driver" in install[0]
    assert all("DPkg::Lock::Timeout=" in line for line in calls.splitlines() if line and not line.startswith("NOTE"))
    assert "--with-browser" in (ROOT / "scripts" / "test.sh").read_text()
    assert "--with-browser" not in (ROOT / "scripts" / "dev.sh").read_text()


def test_a_failed_browser_install_is_reported_and_not_fatal(tmp_path: Path) -> None:
    code, out, _calls, note = _run(tmp_path, "--with-browser", always_fails=True)
    assert code == 0
    assert "the browser tests will skip" in out
    assert note.startswith("apt-get failed: E: broken mirror")


def test_without_the_flag_the_browser_is_not_installed(tmp_path: Path) -> None:
    code, _out, calls, _note = _run(tmp_path)
    assert code == 0 and "chromium" not in calls
