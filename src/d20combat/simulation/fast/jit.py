"""The one switch between compiled and plain Python for the simulation fast path.

Fast-path kernels are written in the subset of Python that numba compiles (ints, floats, numpy
arrays, tuples, loops). ``njit`` compiles them with numba, caching the machine code on disk, so
workers of a process pool load it instead of compiling again. Without numba — or with
``NUMBA_DISABLE_JIT=1`` for debugging — the very same functions run as ordinary Python: slower,
with identical results.

The cache lives in a directory named after a digest of every fast-path source file (and the numba and
Python versions): numba invalidates a cached function only when *its own* file changes, while the
kernel inlines constants and functions from its neighbours — after an upgrade that changed only
``compile.py``, an in-tree cache would silently run the old column layout.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

_numba: Any
try:  # numba is a dependency, but a platform without its wheels still gets correct (slow) results
    _numba = importlib.import_module("numba")
except ImportError:  # pragma: no cover - exercised only where numba cannot be installed
    _numba = None

COMPILED = _numba is not None and not getattr(getattr(_numba, "config", None), "DISABLE_JIT", False)


def source_digest() -> str:
    """A digest of the fast path's sources and the compiler versions: the name of its cache."""
    h = hashlib.sha256(f"{sys.version}|{getattr(_numba, '__version__', '')}".encode())
    for path in sorted(Path(__file__).resolve().parent.glob("*.py")):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _cache_dir() -> Path | None:
    """``$NUMBA_CACHE_DIR`` (or ``$XDG_CACHE_HOME``/``~/.cache``) ``/d20combat/numba-<digest>``, or None when
    it cannot be written (then every process compiles for itself: slower, never stale)."""
    base = os.environ.get("NUMBA_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    path = Path(base) / "d20combat" / f"numba-{source_digest()}"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return path if os.access(path, os.W_OK) else None


CACHE_DIR = _cache_dir() if _numba is not None else None
if CACHE_DIR is not None:
    _numba.config.CACHE_DIR = str(CACHE_DIR)  # read when each dispatcher below sets up its cache


def njit(fn: F) -> F:
    """Compile ``fn`` with numba in nopython mode (cached on disk), or return it unchanged."""
    if _numba is None:
        return fn
    return cast(F, _numba.njit(cache=CACHE_DIR is not None, nogil=True)(fn))
