"""``python -m d20combat.simulation.fast.warm`` compiles the fast path ahead of time; ``--background`` (make demo)
starts a detached compilation only when the disk cache lacks the kernel, and says so."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from d20combat.simulation.fast import jit, warm


@pytest.mark.skipif(not jit.COMPILED, reason="numba is not available")
def test_warm_plays_the_small_battle_and_says_how_it_went(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(jit, "_notice", None)  # main() sets its own; restored after the test
    assert warm.main([]) == 0
    said = capsys.readouterr().err
    assert "fast path compiled in" in said or "fast path already compiled" in said
    assert warm.needs_compiling() is False  # the kernel is on disk now


def test_background_starts_a_detached_compilation_only_when_needed(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    started: list[tuple[Any, ...]] = []
    monkeypatch.setattr(subprocess, "Popen", lambda *a, **k: started.append((a, k)))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(warm, "needs_compiling", lambda: False)
    warm.background()
    assert started == [] and capsys.readouterr().err == ""
    monkeypatch.setattr(warm, "needs_compiling", lambda: True)
    warm.background()
    (args, kwargs), = started
    assert args[0][1:] == ["-m", "d20combat.simulation.fast.warm"] and kwargs["start_new_session"]
    said = capsys.readouterr().err
    assert said.startswith("compiling the fast path (first run only, a few minutes; cached on disk for every later "
                           "run) in the background")
    assert str(tmp_path / "d20combat" / "warm.log") in said


def test_a_long_compilation_says_how_it_goes_every_20_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14, item 5: a first run that compiles for minutes is never silent — the notice first, then a progress
    line every :data:`jit.PROGRESS_EVERY` seconds while functions are still compiling (nested compilations: numba
    compiles a function's callees inside it)."""
    said: list[str] = []
    clock = [100.0]
    monkeypatch.setattr(jit, "_notice", said.append)
    monkeypatch.setattr(jit, "_watch", jit.fresh_watch())
    monkeypatch.setattr(jit.time, "perf_counter", lambda: clock[0])

    class Fake:
        def py_func(self) -> None:
            """A fast-path function."""

    Fake.py_func.__module__ = "d20combat.simulation.fast.kernel"
    kernel_fn, helper = Fake(), Fake()
    jit._started(kernel_fn)  # the kernel, then its callees inside it
    assert said == [jit.COMPILING]
    for _ in range(6):
        jit._started(helper)
        clock[0] += 9.0
        jit._ended(helper)
    assert said[1:] == [jit.progress(3, 27.0), jit.progress(6, 54.0)]  # 27 s, then 20 s or more later
    clock[0] += 1.0
    jit._ended(kernel_fn)  # done: no progress line at the end, the seconds kept for the last line
    assert len(said) == 3 and jit.compile_seconds() == 55.0
    jit._started(kernel_fn)  # a later compilation in the same process says nothing new at its start
    assert len(said) == 3
