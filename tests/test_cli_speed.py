"""`simulate` and `sweep` end with how long they took, encounters per second and the engine that played
(and why the fast path did not); a first compilation of the fast path is announced before it starts."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from d20combat.cli import app
from d20combat.rulesets import get_ruleset
from d20combat.simulation.fast import jit
from d20combat.simulation.fast.compile import unsupported_components

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
runner = CliRunner()
SPEED = re.compile(r"^(?P<n>[\d,]+) encounters in [\d.]+ s: [\d,.]+ encounters/s on (?P<engine>.+)$", re.M)


def test_simulate_ends_with_time_rate_and_the_fast_path() -> None:
    result = runner.invoke(app, ["simulate", str(EXAMPLES / "odds-duel.yaml"), "-n", "30", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "engine: fast path" in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    match = SPEED.match(last)
    assert match, last
    assert match["n"] == "30" and match["engine"].startswith("the fast path")
    assert "encounters/s" not in result.stdout  # the results on stdout stay the same for the same seed


def test_simulate_names_the_reference_engine_and_why() -> None:
    result = runner.invoke(app, ["simulate", str(EXAMPLES / "epic-path-splash.yaml"), "-n", "1"])
    assert result.exit_code == 0, result.output
    match = SPEED.search(result.stderr)
    assert match and match["n"] == "1", result.stderr
    assert match["engine"].startswith("the reference engine (the fast path does not implement its ")
    first_missing = unsupported_components(get_ruleset("epic-path"))[0].split("=")[0]
    assert first_missing in match["engine"] and match["engine"].endswith("components)")
    asked = runner.invoke(app, ["simulate", str(EXAMPLES / "odds-duel.yaml"), "-n", "2", "--engine", "reference"])
    assert asked.exit_code == 0, asked.output
    assert "on the reference engine (asked for)" in asked.stderr


def test_sweep_ends_with_time_rate_and_engine() -> None:
    result = runner.invoke(app, ["sweep", str(EXAMPLES / "ogre-charge.yaml"), "--vary", "ogre.hp=5,60", "-n", "4"])
    assert result.exit_code == 0, result.output
    match = SPEED.search(result.stderr.strip().splitlines()[-1])
    assert match and match["n"] == "8" and match["engine"] == "the fast path", result.stderr


def test_the_first_compilation_is_announced_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    said: list[str] = []
    monkeypatch.setattr(jit, "_watch", jit.fresh_watch())
    monkeypatch.setattr(jit, "_notice", said.append)
    ours = SimpleNamespace(py_func=SimpleNamespace(__module__="d20combat.simulation.fast.kernel"))
    theirs = SimpleNamespace(py_func=SimpleNamespace(__module__="somebody.else"))
    jit._started(theirs)
    jit._ended(theirs)
    assert said == [] and jit.compile_seconds() == 0
    for _ in range(2):  # a compilation, with a nested one (a callee), twice: said once
        jit._started(ours)
        jit._started(ours)
        jit._ended(ours)
        jit._ended(ours)
    assert said == [jit.COMPILING] and jit.compile_seconds() > 0


@pytest.mark.skipif(not jit.COMPILED, reason="numba is not available")
def test_a_real_compilation_is_announced_and_timed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    said: list[str] = []
    monkeypatch.setattr(jit, "_watch", jit.fresh_watch())
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    jit.on_compile(said.append)
    try:
        def probe(x: int) -> int:
            return x * 2 + 1

        probe.__module__ = "d20combat.simulation.fast.probe"  # counts as the fast path's
        fast_probe = jit.njit(probe)
        assert fast_probe(20) == 41
    finally:
        jit.on_compile(None)
    assert said == [jit.COMPILING] and jit.compile_seconds() > 0
    assert any((tmp_path / "d20combat" / "numba").iterdir())  # cached on disk, in its module's directory


def test_the_compilation_is_reported_apart_from_the_playing_time(monkeypatch: pytest.MonkeyPatch) -> None:
    from d20combat.cli import lab

    spent = iter([0.0, 58.0])
    monkeypatch.setattr(jit, "compile_seconds", lambda: next(spent))
    clock = lab._Clock()
    clock.t0 -= 59.1  # 58 s compiling, 1.1 s playing
    text = clock.report(1000, "fast", "the ruleset keeps the core procedure", 2)
    match = SPEED.match(text)
    assert match and match["n"] == "1,000", text
    assert text.startswith("1,000 encounters in 1.1 s: ")
    assert text.endswith("on the fast path, 2 workers (after 58 s compiling the fast path, once per machine)")
