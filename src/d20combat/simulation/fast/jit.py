"""The one switch between compiled and plain Python for the simulation fast path.

Fast-path kernels are written in the subset of Python that numba compiles (ints, floats, numpy
arrays, tuples, loops). ``njit`` compiles them with numba, caching the machine code on disk, so
workers of a process pool load it instead of compiling again. Without numba — or with
``NUMBA_DISABLE_JIT=1`` for debugging — the very same functions run as ordinary Python: slower,
with identical results.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

_numba: Any
try:  # numba is a dependency, but a platform without its wheels still gets correct (slow) results
    _numba = importlib.import_module("numba")
except ImportError:  # pragma: no cover - exercised only where numba cannot be installed
    _numba = None

COMPILED = _numba is not None and not getattr(getattr(_numba, "config", None), "DISABLE_JIT", False)


def njit(fn: F) -> F:
    """Compile ``fn`` with numba in nopython mode (cached on disk), or return it unchanged."""
    if _numba is None:
        return fn
    return cast(F, _numba.njit(cache=True, nogil=True)(fn))
