"""The per-user token cache: one JSON file, private to its owner, changed atomically.

How this works: ``TokenCache.read`` parses the whole file into ``CachedAccount``
values (a missing file is an empty cache). ``TokenCache.change`` is the only
way to write: under a lock (a thread lock, and ``flock`` on a ``.lock`` file
beside the cache so another ``mcagent`` process waits too) it re-reads the
file, lets the caller edit a dict of accounts, and writes the result only if
it changed. Re-reading first is what keeps a ``mcagent login`` in another
process while the proxy runs: nobody writes from a stale copy.

A write goes to a temporary file in the same directory, created 0600 before
any secret is in it, flushed and synced, then renamed over the cache: a crash
leaves the old file or the new one, never half of one. The directory is made
0700 when we create it (an existing directory, perhaps a shared one the owner
chose, is left alone). A file that cannot be read or parsed raises
``CacheError`` naming the path and is never overwritten: ``change`` reads
before it writes, so it fails the same way. No error text quotes the file's
content, which holds tokens.
"""
from __future__ import annotations

import contextlib
import json
import os
import tempfile
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import attrs
import pydantic
from pydantic import BaseModel, ConfigDict, Field

from proxy.accounts.errors import CacheError

try:
    import fcntl
except ImportError:  # Windows: the thread lock alone (no second process is guarded there)
    fcntl = None  # type: ignore[assignment]

FORMAT = 1
T = TypeVar("T")


@attrs.frozen
class CachedAccount:
    name: str  # the Minecraft profile name
    uuid: uuid.UUID
    client_id: str  # a refresh token works only with the client id that obtained it
    refresh_token: str = attrs.field(repr=False)  # Microsoft's
    access_token: str = attrs.field(repr=False)  # Minecraft's
    expires_at: float  # of the Minecraft access token, unix seconds
    refreshed_at: float  # when the tokens were last obtained


class _Entry(BaseModel):
    model_config = ConfigDict(extra="ignore")

    name: str = Field(min_length=1)
    uuid: uuid.UUID
    client_id: str = Field(min_length=1)
    refresh_token: str = Field(min_length=1)
    access_token: str = Field(min_length=1)
    expires_at: float
    refreshed_at: float


class _File(BaseModel):
    model_config = ConfigDict(extra="ignore")

    format: int
    accounts: dict[str, _Entry]


class TokenCache:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    def read(self) -> dict[str, CachedAccount]:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise CacheError(f"cannot read the account cache {self.path}: {exc.strerror or type(exc).__name__}",
                             detail=type(exc).__name__) from None
        try:
            data: Any = json.loads(raw)
        except UnicodeDecodeError:
            raise CacheError(f"the account cache {self.path} is not UTF-8 text", detail="not UTF-8") from None
        except json.JSONDecodeError as exc:
            raise CacheError(f"the account cache {self.path} is not valid JSON (line {exc.lineno} column "
                             f"{exc.colno})", detail="not JSON") from None
        if isinstance(data, dict) and isinstance(data.get("format"), int) and data["format"] > FORMAT:
            raise CacheError(f"the account cache {self.path} was written by a newer mcagent "
                             f"(format {data['format']})", "use that mcagent, or delete the file and run "
                             "`mcagent login`", detail="newer format")
        try:
            parsed = _File.model_validate(data)
        except pydantic.ValidationError as exc:
            # Where, never what: the values are tokens.
            where = ", ".join(".".join(str(p) for p in err["loc"]) or "(file)" for err in exc.errors()[:3])
            raise CacheError(f"the account cache {self.path} is not in the format mcagent writes (at {where})",
                             detail="bad format") from None
        return {key: CachedAccount(e.name, e.uuid, e.client_id, e.refresh_token, e.access_token, e.expires_at,
                                   e.refreshed_at) for key, e in parsed.accounts.items()}

    def change(self, edit: Callable[[dict[str, CachedAccount]], T]) -> T:
        with self._lock, self._file_lock():
            current = self.read()
            edited = dict(current)
            result = edit(edited)
            if edited != current:
                self._write(edited)
            return result

    @contextlib.contextmanager
    def _file_lock(self) -> Iterator[None]:
        self._ensure_directory()
        if fcntl is None:
            yield
            return
        lock_path = self.path.with_name(self.path.name + ".lock")
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise CacheError(f"cannot lock the account cache {self.path} ({lock_path}: "
                             f"{exc.strerror or type(exc).__name__})", detail=type(exc).__name__) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing releases the lock

    def _ensure_directory(self) -> None:
        directory = self.path.parent
        if directory.is_dir():
            return
        try:
            directory.mkdir(parents=True, mode=0o700)
            os.chmod(directory, 0o700)  # mkdir's mode passes through the umask
        except FileExistsError:
            pass  # made by another process meanwhile
        except OSError as exc:
            raise CacheError(f"cannot create the directory for the account cache {self.path}: "
                             f"{exc.strerror or type(exc).__name__}", detail=type(exc).__name__) from None

    def _write(self, accounts: dict[str, CachedAccount]) -> None:
        body = {"format": FORMAT, "accounts": {key: {
            "name": a.name, "uuid": str(a.uuid), "client_id": a.client_id, "refresh_token": a.refresh_token,
            "access_token": a.access_token, "expires_at": a.expires_at, "refreshed_at": a.refreshed_at,
        } for key, a in sorted(accounts.items())}}
        data = (json.dumps(body, indent=2) + "\n").encode("utf-8")
        directory = self.path.parent
        try:
            fd, temp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=directory)
        except OSError as exc:
            raise CacheError(f"cannot write the account cache {self.path}: {exc.strerror or type(exc).__name__}",
                             detail=type(exc).__name__) from None
        try:
            with os.fdopen(fd, "wb") as out:
                if hasattr(os, "fchmod"):
                    os.fchmod(out.fileno(), 0o600)  # mkstemp's default, made explicit before any secret
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temp, self.path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise CacheError(f"cannot write the account cache {self.path}: {exc.strerror or type(exc).__name__}",
                             detail=type(exc).__name__) from None
        _sync_directory(directory)


def _sync_directory(directory: Path) -> None:
    # The rename is durable only once the directory is; not every platform can open one.
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
