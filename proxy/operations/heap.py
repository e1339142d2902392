"""Give the memory of closed sessions back to the system once the proxy is idle.

When every player has left, their world models, caches and engines are garbage: the
cycles among them go at the next full collection, and what CPython and numpy then free
mostly stays in glibc's heap (sections of a few KiB each, below the mmap threshold), so
the process's RSS stays where it was at its busiest. ``release`` collects the cycles and
asks glibc to hand free pages back (``malloc_trim(0)``). Elsewhere (musl, macOS) only the
collection runs; nothing here may fail the proxy.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import gc
import platform
from typing import Callable

_trim: Callable[[int], int] | None = None
_looked = False


def _malloc_trim() -> Callable[[int], int] | None:
    global _trim, _looked
    if not _looked:
        _looked = True
        if platform.system() == "Linux" and platform.libc_ver()[0] == "glibc":
            try:
                libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
                trim = libc.malloc_trim
                trim.argtypes = [ctypes.c_size_t]
                trim.restype = ctypes.c_int
                _trim = trim
            except (OSError, AttributeError):
                _trim = None
    return _trim


def release() -> bool:
    """Collect garbage and return free heap pages to the system; True if glibc trimmed."""
    gc.collect()
    return trim()


def trim() -> bool:
    """Return free heap pages to the system (no collection); True if glibc trimmed."""
    give_back = _malloc_trim()
    if give_back is None:
        return False
    try:
        give_back(0)
    except OSError:
        return False
    return True
