"""The one switch between compiled and plain Python for the simulation fast path.

Fast-path kernels are written in the subset of Python that numba compiles (ints, floats, numpy
arrays, tuples, loops). ``njit`` compiles them with numba, caching the machine code on disk, so
workers of a process pool load it instead of compiling again. Without numba — or with
``NUMBA_DISABLE_JIT=1`` for debugging — the very same functions run as ordinary Python: slower,
with identical results.

The cache is per module. numba invalidates a cached function only when *its own* file changes, while a
compiled function inlines constants and functions from the modules it imports; so each module's functions
live in a directory named after a digest of that module's source **and of every fast-path module it
imports, transitively** (plus the numba and Python versions and the compile options). A change to
``kernel.py`` recompiles the kernel only (``paths``, ``geometry`` and ``grid`` load from disk); a change to
``compile.py``'s column layout recompiles the kernel that reads it; a change to ``grid.py`` recompiles
everything that imports it. Modules without compiled functions (``runner.py``, ``trace.py``, ``warm.py``)
invalidate nothing.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import logging
import os
import sys
import time
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

OPTIONS: dict[str, bool] = {"nogil": True, "_nrt": True}
"""numba options of every fast-path function (part of every cache digest). Reference counting is asked for
explicitly: numba would otherwise compile a function called from a :func:`njit_borrowing` one without it too."""
BORROWING: dict[str, bool] = {**OPTIONS, "_nrt": False}
"""numba options of :func:`njit_borrowing`'s functions: no reference counting (part of every cache digest)."""
FAST_DIR = Path(__file__).resolve().parent
_THIS_SOURCE = Path(__file__).read_bytes()
_PACKAGE = "d20combat.simulation.fast"


def fast_imports(path: Path, fast_dir: Path = FAST_DIR) -> set[Path]:
    """The fast-path modules (files in ``fast_dir``, ``jit`` itself excepted) a source file imports;
    relative imports are looked up beside the file."""
    found: set[Path] = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        names: list[tuple[Path, str]] = []
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level == 1:
                names = [(path.parent, module)] if module else [(path.parent, a.name) for a in node.names]
            elif node.level == 0 and module == _PACKAGE:
                names = [(fast_dir, a.name) for a in node.names]
            elif node.level == 0 and module.startswith(_PACKAGE + "."):
                names = [(fast_dir, module[len(_PACKAGE) + 1:])]
        elif isinstance(node, ast.Import):
            names = [(fast_dir, a.name[len(_PACKAGE) + 1:]) for a in node.names if a.name.startswith(_PACKAGE + ".")]
        for where, name in names:
            file = where / f"{name.split('.')[0]}.py"
            if file.name != "jit.py" and file.is_file():
                found.add(file.resolve())
    return found


def module_digest(path: Path, fast_dir: Path = FAST_DIR) -> str:
    """A digest of ``path``'s source, of every fast-path module it imports (transitively), of the compile
    options and of this module's source (how it compiles), and of the compiler versions: the name of the cache
    of the functions ``path`` defines."""
    path = path.resolve()
    closure, todo = {path}, [path]
    while todo:
        for dep in fast_imports(todo.pop(), fast_dir):
            if dep not in closure:
                closure.add(dep)
                todo.append(dep)
    options = f"{sorted(OPTIONS.items())}|{sorted(BORROWING.items())}"
    h = hashlib.sha256(f"{sys.version}|{getattr(_numba, '__version__', '')}|{options}".encode())
    h.update(_THIS_SOURCE)  # how every function is compiled (_compile) is part of what each module's cache holds
    for file in sorted(closure):
        h.update(file.name.encode() + b"\0" + file.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def cache_root() -> Path:
    """``$NUMBA_CACHE_DIR`` (or ``$XDG_CACHE_HOME``/``~/.cache``) ``/d20combat``."""
    base = os.environ.get("NUMBA_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "d20combat"


_DIRS: dict[Path, Path | None] = {}


def cache_dir(source: Path) -> Path | None:
    """``<cache_root>/numba/<module>-<digest>`` for the functions defined in ``source``, or None when it cannot
    be written (then every process compiles them for itself: slower, never stale)."""
    source = source.resolve()
    if source not in _DIRS:
        path = cache_root() / "numba" / f"{source.stem}-{module_digest(source)}"
        try:
            path.mkdir(parents=True, exist_ok=True)
            _DIRS[source] = path if os.access(path, os.W_OK) else None
        except OSError:
            _DIRS[source] = None
    return _DIRS[source]


def njit(fn: F) -> F:
    """Compile ``fn`` with numba in nopython mode (cached on disk per module), or return it unchanged."""
    return _compile(fn, OPTIONS)


def njit_borrowing(fn: F) -> F:
    """:func:`njit` for a function that only *borrows* arrays: it allocates none and returns none (only numbers or
    tuples of numbers), and calls no function that returns one. numba then compiles it without reference counting
    (``_nrt=False``): a call no longer increments and decrements the count of every array of the tuples it is
    passed — about 30 atomic operations on entry and 30 on return for a helper given the battle's tables, which
    was over a third of the kernel's time. The arrays are safe: the caller holds them for the whole call.

    numba refuses to compile an allocation here ("No implementation of function zeros"); that the function
    returns no array and calls none that does is checked by ``tests/simulation/fast/test_jit.py``, and that
    the kernel neither leaks nor frees twice by its allocation counters."""
    return _compile(fn, BORROWING)


def _compile(fn: F, options: dict[str, bool]) -> F:
    if _numba is None:
        return fn
    directory = cache_dir(Path(fn.__code__.co_filename))
    before = _numba.config.CACHE_DIR
    _numba.config.CACHE_DIR = str(directory or "")  # read when the dispatcher sets up its cache, just below
    try:
        dispatcher = _numba.njit(cache=directory is not None, **options)(fn)
    finally:
        _numba.config.CACHE_DIR = before  # other numba users in the process keep their own setting
    _typed_by_kind(dispatcher)
    return cast(F, dispatcher)


def _typed_by_kind(dispatcher: Any) -> None:
    """Compile ``dispatcher`` once per *kind* of argument, not once per constant it is called with.

    Called from compiled code, a numba function is specialized for every literal argument — ``emit(ev, t,
    E_EQUIP, …)`` and ``emit(ev, t, E_MOVE, …)`` are two compilations, and each drags its callees along —
    which made the kernel 428 compilations of its 193 functions (``emit`` alone 91) and its first run minutes
    long. The fast path's functions never need a literal (no function indexes a tuple by an argument), so the
    arguments lose their literal types before numba looks for a compiled version; LLVM still folds the constants
    where it inlines a call."""
    unliteral = getattr(importlib.import_module("numba.core.types"), "unliteral", None)
    template = getattr(dispatcher, "get_call_template", None)
    if unliteral is None or template is None:  # a numba without these: compiled per literal (slower, the same code)
        return

    def get_call_template(args: tuple[Any, ...], kws: dict[str, Any]) -> Any:
        return template(tuple(unliteral(a) for a in args), {k: unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template


COMPILING = "compiling the fast path (first run only, a few minutes; cached on disk for every later run)…"
"""Said once per process when a fast-path function starts compiling (machine code not found on disk)."""
PROGRESS_EVERY = 20.0
"""Seconds between the progress lines of a long compilation (:func:`progress`)."""
log = logging.getLogger(_PACKAGE)
_notice: Callable[[str], None] | None = None


def fresh_watch() -> dict[str, float]:
    """The compilation watch of a process that has compiled nothing yet: nesting depth, start of the outermost
    compilation, seconds spent, whether :data:`COMPILING` was said, functions done, when progress was last told."""
    return {"depth": 0, "start": 0.0, "seconds": 0.0, "said": 0, "done": 0, "told": 0.0}


_watch: dict[str, float] = fresh_watch()


def on_compile(notice: Callable[[str], None] | None) -> None:
    """Say :data:`COMPILING` with ``notice`` (the CLI prints it on stderr) instead of the default, a logging
    warning on ``d20combat.simulation.fast`` (which Python prints on stderr when logging is not set up)."""
    global _notice
    _notice = notice


def compile_seconds() -> float:
    """Seconds this process has spent compiling fast-path functions (0 when all came from the disk cache)."""
    return _watch["seconds"] + (time.perf_counter() - _watch["start"] if _watch["depth"] else 0.0)


def progress(done: int, seconds: float) -> str:
    """The line said every :data:`PROGRESS_EVERY` seconds while the fast path compiles, so a first run that takes
    minutes is never silent."""
    return f"  … still compiling the fast path: {done} functions done, {seconds:.0f} s so far"


def _say(message: str) -> None:
    (_notice or log.warning)(message)


def _started(dispatcher: object) -> None:
    if not getattr(getattr(dispatcher, "py_func", None), "__module__", "").startswith(_PACKAGE):
        return
    _watch["depth"] += 1
    if _watch["depth"] == 1:
        _watch["start"] = _watch["told"] = time.perf_counter()
        if not _watch["said"]:
            _watch["said"] = 1
            _say(COMPILING)


def _ended(dispatcher: object) -> None:
    if getattr(getattr(dispatcher, "py_func", None), "__module__", "").startswith(_PACKAGE) and _watch["depth"]:
        _watch["depth"] -= 1
        _watch["done"] += 1
        now = time.perf_counter()
        if not _watch["depth"]:
            _watch["seconds"] += now - _watch["start"]
        elif now - _watch["told"] >= PROGRESS_EVERY:
            _watch["told"] = now
            _say(progress(int(_watch["done"]), _watch["seconds"] + now - _watch["start"]))


def _listen() -> None:
    """numba announces ``numba:compile`` around every real compilation (not around a load from its disk cache)."""
    try:
        event = importlib.import_module("numba.core.event")
    except ImportError:  # pragma: no cover - a numba without the event API compiles silently
        return

    class Watch(event.Listener):  # type: ignore[misc, name-defined]
        def on_start(self, ev: Any) -> None:
            _started(ev.data.get("dispatcher"))

        def on_end(self, ev: Any) -> None:
            _ended(ev.data.get("dispatcher"))

    event.register("numba:compile", Watch())


if COMPILED:
    _listen()


def on_disk(dispatcher: object) -> bool | None:
    """Whether numba's disk cache holds fresh machine code for ``dispatcher`` (a function made by :func:`njit`):
    True or False, or None when this numba does not say (its private cache API moved)."""
    try:
        return bool(cast(Any, dispatcher)._cache._cache_file._load_index())
    except Exception:  # numba's private API: any failure means "cannot tell"
        return None
