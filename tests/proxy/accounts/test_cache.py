"""The token cache: private (0600 in 0700), written atomically, and a bad file is reported, never overwritten."""
from __future__ import annotations

import json
import os
import stat
import uuid
from pathlib import Path

import pytest

from proxy.accounts.cache import CachedAccount, TokenCache
from proxy.accounts.errors import CacheError
from tests.account_services import AccountServices
from tests.proxy.accounts.conftest import StoreFactory

SECRET = "msa-rt-do-not-print-this-0123456789"


def _entry(name: str = "Steve") -> CachedAccount:
    return CachedAccount(name, uuid.uuid4(), "00000000402b5328", SECRET, "mc-" + name, 2e9, 1.8e9)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_file_is_0600_in_a_0700_directory(tmp_path: Path) -> None:
    old = os.umask(0)  # even with a permissive umask
    try:
        path = tmp_path / "new" / "mcagent" / "accounts.json"
        TokenCache(path).change(lambda a: a.__setitem__("Steve", _entry()))
    finally:
        os.umask(old)
    assert _mode(path) == 0o600 and _mode(path.parent) == 0o700
    assert _mode(path.with_name("accounts.json.lock")) == 0o600


def test_an_existing_directory_is_left_alone(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    TokenCache(tmp_path / "accounts.json").change(lambda a: a.__setitem__("Steve", _entry()))
    assert _mode(tmp_path) == 0o755 and _mode(tmp_path / "accounts.json") == 0o600


def test_a_loose_file_is_tightened_by_the_next_write(tmp_path: Path) -> None:
    path = tmp_path / "accounts.json"
    cache = TokenCache(path)
    cache.change(lambda a: a.__setitem__("Steve", _entry()))
    path.chmod(0o644)
    cache.change(lambda a: a.__setitem__("Alex", _entry("Alex")))
    assert _mode(path) == 0o600


def test_writes_are_atomic_and_private_before_any_secret(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "accounts.json"
    cache = TokenCache(path)
    cache.change(lambda a: a.__setitem__("Steve", _entry()))
    before = path.read_bytes()
    seen: list[tuple[str, int, bool]] = []

    def failing_replace(source: str, target: object) -> None:
        seen.append((os.path.dirname(source), _mode(Path(source)), SECRET in Path(source).read_text()))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(CacheError, match="cannot write the account cache .*No space left"):
        cache.change(lambda a: a.__setitem__("Alex", _entry("Alex")))
    assert seen == [(str(tmp_path), 0o600, True)]  # a temp file beside it, 0600, fully written
    assert path.read_bytes() == before  # the old file, whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["accounts.json", "accounts.json.lock"]  # no temp left


def test_the_temp_file_is_private_before_anything_is_in_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tempfile

    born: list[tuple[int, int]] = []
    real = tempfile.mkstemp

    def spying(*args: object, **kwargs: object) -> tuple[int, str]:
        fd, name = real(*args, **kwargs)  # type: ignore[call-overload]
        born.append((_mode(Path(name)), Path(name).stat().st_size))
        return fd, name

    monkeypatch.setattr(tempfile, "mkstemp", spying)
    TokenCache(tmp_path / "accounts.json").change(lambda a: a.__setitem__("Steve", _entry()))
    assert born == [(0o600, 0)]


@pytest.mark.parametrize(("content", "words"), [
    (b'{"format": 1, "accounts": {"Steve": {"refresh_token": "' + SECRET.encode() + b'"', "not valid JSON"),
    (b'\xff\xfe' + SECRET.encode(), "not UTF-8"),
    (json.dumps({"format": 1, "accounts": {"Steve": {"refresh_token": SECRET}}}).encode(),
     "not in the format mcagent writes (at accounts.Steve.name"),
    (json.dumps({"format": 2, "accounts": {}}).encode(), "written by a newer mcagent"),
    (json.dumps([SECRET]).encode(), "not in the format"),
])
def test_a_corrupt_file_is_named_and_left_untouched(account_services: AccountServices, make_store: StoreFactory,
                                                    cache_file: Path, content: bytes, words: str) -> None:
    cache_file.parent.mkdir(parents=True)
    cache_file.write_bytes(content)
    stamp = cache_file.stat().st_mtime_ns
    store = make_store()
    account_services.add_account("Steve")
    account_services.next_sign_in("Steve")
    for attempt in (lambda: store.login(None, lambda code: None), lambda: store.session("Steve"),
                    lambda: store.logout("Steve"), store.accounts):
        with pytest.raises(CacheError) as info:
            attempt()
        assert str(cache_file) in str(info.value) and words in str(info.value)
        assert SECRET not in str(info.value) and "delete the file" in info.value.action
    assert cache_file.read_bytes() == content and cache_file.stat().st_mtime_ns == stamp


def test_an_unreadable_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "accounts.json"
    path.mkdir()  # we run as root here, so a mode cannot make it unreadable; a directory can
    with pytest.raises(CacheError, match=f"cannot read the account cache {path}"):
        TokenCache(path).read()


def test_logout(account_services: AccountServices, make_store: StoreFactory) -> None:
    store = make_store()
    for name in ("Steve", "Alex"):
        account_services.add_account(name)
        account_services.next_sign_in(name)
        store.login(None, lambda code: None)
    assert store.logout("steve") is True
    assert store.logout("Steve") is False
    assert [a.account for a in store.accounts()] == ["Alex"]
    assert SECRET not in store.path.read_text()
