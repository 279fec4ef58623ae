"""The compiled kernels' disk cache is per module, named after a digest of the module's source and of every
fast-path module it imports: an upgrade that changes a column number in compile.py or a helper in grid.py
never loads stale code, and a change to one module recompiles only what depends on it."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from d20combat.simulation.fast import jit, kernel


def _digests(fast: Path) -> dict[str, str]:
    return {p.stem: jit.module_digest(p, fast) for p in sorted(fast.glob("*.py"))}


def test_the_kernels_cache_is_named_after_its_sources() -> None:
    source = Path(kernel.__file__)
    directory = jit.cache_dir(source)
    if directory is not None:
        assert directory.name == f"kernel-{jit.module_digest(source)}"
    closure, todo = set(), [source.resolve()]
    while todo:  # the modules the kernel's digest covers: what it imports, transitively
        for dep in jit.fast_imports(todo.pop()):
            if dep not in closure:
                closure.add(dep)
                todo.append(dep)
    assert {p.name for p in closure} >= {"layout.py", "geometry.py", "lines.py", "grid.py", "paths.py", "memo.py",
                                         "kernel_ai.py", "kernel_strike.py"}


def test_a_change_recompiles_what_depends_on_it_and_nothing_else(tmp_path: Path) -> None:
    copy = tmp_path / "fast"
    shutil.copytree(jit.FAST_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = _digests(copy)
    assert before == _digests(copy)

    def change(name: str) -> set[str]:
        nonlocal before
        (copy / name).write_text((copy / name).read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
        after = _digests(copy)
        changed = {stem for stem in after if after[stem] != before[stem]}
        before = after
        return changed

    def dependents(name: str) -> set[str]:
        target = (copy / name).resolve()
        out = set()
        for p in copy.glob("*.py"):
            closure, todo = {p.resolve()}, [p.resolve()]
            while todo:
                for dep in jit.fast_imports(todo.pop(), copy):
                    if dep not in closure:
                        closure.add(dep)
                        todo.append(dep)
            if target in closure:
                out.add(p.stem)
        return out

    assert change("kernel.py") == dependents("kernel.py")
    assert "geometry" not in dependents("kernel.py") and "kernel" in dependents("kernel.py")
    assert change("layout.py") == dependents("layout.py") >= {"layout", "compile", "kernel"}  # the kernel reads it
    assert change("compile.py") == dependents("compile.py") >= {"compile"}
    assert change("grid.py") == dependents("grid.py") >= {"grid", "geometry", "paths", "kernel"}
    assert change("runner.py") == dependents("runner.py")
    assert "kernel" not in dependents("runner.py") and "paths" not in dependents("runner.py")


# ---------------------------------------------------------------- functions compiled without reference counting
_ARRAY_TYPES = re.compile(r"\b(I8|I16|I64|U8|U32|F64|B1|NDArray|ndarray|Workspace|Memo)\b")
"""Return annotations that carry an array (the fast path's array aliases, and its tuple types holding arrays)."""
_ALLOCATING = re.compile(r"\bnp\.(zeros|empty|full|ones|array|arange|concatenate|argsort|sort|unique|where)"
                         r"(_like)?\(|\.copy\(\)")


def _fast_functions() -> dict[str, tuple[str, str, bool, set[str], str]]:
    """Every compiled fast-path function: name -> (file, return annotation, borrowing?, names it calls, source)."""
    out = {}
    for path in sorted(jit.FAST_DIR.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        for node in ast.parse(source).body:
            if not isinstance(node, ast.FunctionDef):
                continue
            decorators = {d.id for d in node.decorator_list if isinstance(d, ast.Name)}
            if not decorators & {"njit", "njit_borrowing"}:
                continue
            calls = {c.func.id for c in ast.walk(node) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)}
            out[node.name] = (path.name, ast.unparse(node.returns) if node.returns else "None",
                              "njit_borrowing" in decorators, calls, ast.get_source_segment(source, node) or "")
    return out


def test_functions_without_reference_counting_only_borrow_arrays() -> None:
    """``njit_borrowing`` (numba's ``_nrt=False``) is safe only for a function that returns no array (its caller
    would release a reference it never got: freed twice), allocates none (numba refuses that itself) and calls no
    function that returns one (that reference would never be released: a leak)."""
    functions = _fast_functions()
    returning_arrays = {name for name, (_, ret, *_rest) in functions.items() if _ARRAY_TYPES.search(ret)}
    borrowing = {name: f for name, f in functions.items() if f[2]}
    assert len(borrowing) > 100  # most helpers: the kernel's hot calls
    for name, (file, ret, _, calls, source) in borrowing.items():
        assert not _ARRAY_TYPES.search(ret), f"{file}: {name} returns {ret}"
        assert not _ALLOCATING.search(source), f"{file}: {name} allocates"
        assert not calls & returning_arrays, f"{file}: {name} calls {sorted(calls & returning_arrays)}"


_NRT_PROBE = """
import json, sys
from pathlib import Path
from numba.core.runtime import rtsys
from d20combat.scenario import battle_from_data, read_scenario_data
from d20combat.simulation.fast.compile import compile_battle
from d20combat.simulation.fast.runner import play_batch, play_fast

out = {}
for name, ruleset in json.loads(sys.argv[1]):
    data = read_scenario_data(Path(sys.argv[2]) / f"{name}.yaml")
    if ruleset:
        data = {**data, "ruleset": ruleset}
    cb = compile_battle(battle_from_data(data))
    play_batch(cb, [1, 2])
    play_fast(cb, 3, log=True)  # warm: compiled or loaded, the battle's own buffers made
    before = rtsys.get_allocation_stats()
    for rep in range(3):
        play_batch(cb, list(range(10 * rep, 10 * rep + 10)))
        play_fast(cb, 100 + rep, log=True)
    after = rtsys.get_allocation_stats()
    out[f"{name} {ruleset}"] = [after.alloc - before.alloc, after.free - before.free,
                                after.mi_alloc - before.mi_alloc, after.mi_free - before.mi_free]
print(json.dumps(out))
"""


@pytest.mark.skipif(not jit.COMPILED, reason="reference counting exists only in compiled code")
def test_the_kernel_frees_every_array_it_allocates_once() -> None:
    """numba's allocation counters (``NUMBA_NRT_STATS=1``) over whole encounters of every ruleset the fast path
    plays: as many frees as allocations — no leak (a borrowing function keeping a reference) and no early free
    (one releasing a reference it never got would free an array its caller still uses, or free it twice)."""
    cases = [("goblin-ambush", None), ("off-guard-ambush", None), ("skill-duel", None),
             ("goblin-ambush", "off-guard"), ("goblin-ambush", "skill-based"), ("ogre-charge", None)]
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run([sys.executable, "-c", _NRT_PROBE, json.dumps(cases), str(root / "examples")],
                          env={**os.environ, "NUMBA_NRT_STATS": "1"}, capture_output=True, text=True, timeout=900,
                          check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    counts = json.loads(done.stdout.strip().splitlines()[-1])
    for case, (alloc, free, mi_alloc, mi_free) in counts.items():
        assert alloc > 0, case  # the encounters allocated (so the counters count)
        assert (alloc, mi_alloc) == (free, mi_free), f"{case}: {alloc} allocations, {free} frees"


@pytest.mark.skipif(not jit.COMPILED, reason="numba is not available")
def test_a_function_called_with_different_constants_is_compiled_once() -> None:
    """Issue 14, item 5: numba would compile ``add(x, 1)``, ``add(x, 2)`` and ``add(x, 3)`` from compiled code as three
    functions (one per literal), and the kernel's first run took twice as long for it; the fast path's functions
    are compiled once per kind of argument."""
    import numba

    def add(x: int, k: int) -> int:
        return x + k

    def calls(x: int) -> int:
        return plain(x, 1) + plain(x, 2) + plain(x, 3) + typed(x, 1) + typed(x, 2) + typed(x, 3)

    plain = numba.njit(add)
    typed = numba.njit(add)
    jit._typed_by_kind(typed)
    assert numba.njit(calls)(10) == 72
    assert len(plain.overloads) == 3 and len(typed.overloads) == 1
