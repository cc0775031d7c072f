"""Giving freed memory back to the operating system.

Python frees a dropped client's queued frames at once, but glibc's malloc keeps
freed heap pages for reuse, so the process's RSS stays at its peak. After a
connection that held a lot is dropped, the server asks malloc to return whole
free pages (``malloc_trim``); elsewhere (other C libraries) this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
from collections.abc import Callable

log = logging.getLogger("gridhall.memory")


def _find_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


_TRIM = _find_trim()


def release_free_memory() -> bool:
    """Return free heap pages to the OS; False where the C library cannot."""
    if _TRIM is None:
        return False
    _TRIM(0)
    return True
