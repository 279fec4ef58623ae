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
    assert said.startswith("compiling the fast path (first run only, about a minute) in the background")
    assert str(tmp_path / "d20combat" / "warm.log") in said
