"""The compiled kernels' disk cache is named after every fast-path source file, so an upgrade that
changes any of them (a column number in compile.py, a helper in geometry.py) never loads stale code."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from d20combat.simulation.fast import jit


def test_cache_is_named_after_the_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if jit.CACHE_DIR is not None:
        assert jit.CACHE_DIR.name == f"numba-{jit.source_digest()}"
    here = Path(jit.__file__).resolve().parent
    copy = tmp_path / "fast"
    shutil.copytree(here, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(jit, "__file__", str(copy / "jit.py"))
    before = jit.source_digest()
    assert before == jit.source_digest()
    compile_py = copy / "compile.py"
    compile_py.write_text(compile_py.read_text(encoding="utf-8") + "\n# a changed column\n", encoding="utf-8")
    assert jit.source_digest() != before
