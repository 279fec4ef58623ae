"""The compiled kernels' disk cache is per module, named after a digest of the module's source and of every
fast-path module it imports: an upgrade that changes a column number in compile.py or a helper in grid.py
never loads stale code, and a change to one module recompiles only what depends on it."""

from __future__ import annotations

import shutil
from pathlib import Path

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
