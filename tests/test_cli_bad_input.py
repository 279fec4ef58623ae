"""Issue 12: every command refuses bad files, paths and options with one ``error:`` line naming the path or
option and a non-zero exit — never a traceback, never a hang (each refusal costs well under a second of CPU)."""

from __future__ import annotations

import itertools
import json
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from d20combat.cli import app

runner = CliRunner()
GOOD = "examples/goblin-ambush.yaml"
ODDS = ["--bonus", "5", "--ac", "15"]

# What a bad input file holds; "DIR" is a directory, "MISSING" does not exist.
FILES: dict[str, bytes | str] = {
    "binary": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00",
    "non-utf8": b"name: caf\xe9\nmap: {width: 8, height: 8}\n",
    "empty": b"",
    "directory": "DIR",
    "missing": "MISSING",
    "nested-json": b"[" * 10_000,
    "nested-yaml": b"[" * 10_000,
    "nested-map": b"a: " + b"{b: " * 5_000,
    "too-large": b"# " + b"x" * 1_000_001,
}
SUFFIX = {"nested-json": ".json"}

# Commands that read a scenario file: argv with {file} where the bad file goes.
SCENARIO_COMMANDS = {
    "run": ["run", "{file}"],
    "play": ["play", "{file}"],
    "validate": ["validate", "{file}"],
    "simulate": ["simulate", "{file}", "-n", "1"],
    "sweep": ["sweep", "{file}", "--vary", "leader.hp=1..2", "-n", "1"],
    "odds": ["odds", "{file}", "--attacker", "a", "--target", "b"],
}
# Commands that read an event log.
LOG_COMMANDS = {"replay": ["replay", "{file}"]}
TAMPERED_LOGS: dict[str, bytes | str] = {
    **FILES,
    "garbage-line": b"this is not json\n",
    "json-not-event": b"[1, 2, 3]\n",
    "json-number": b"42\n",
    "unknown-kind": b'{"kind": "dragon_arrives"}\n',
    "no-start": b'{"kind": "round_started", "round": 1}\n',
    "huge-number": b'{"kind": "round_started", "round": ' + b"9" * 5000 + b"}\n",
    # From a good log of `run --log`:
    "unknown-event-after-start": "GOOD:unknown-event",
    "changed-event": "GOOD:changed",
    "truncated": "GOOD:truncated",
    "swapped-lines": "GOOD:swapped",
}


def _tampered(lines: list[str], how: str) -> list[str]:
    """A good log's lines tampered with: the engine's verification must refuse each."""
    events = [i for i, line in enumerate(lines) if '"kind"' in line]
    if how == "unknown-event":
        return [*lines[:events[0] + 1], '{"kind": "dragon_arrives", "target": "nobody"}']
    if how == "changed":
        i = next(i for i in events if '"amount":' in lines[i])
        data = json.loads(lines[i])
        data["amount"] += 1
        return [*lines[:i], json.dumps(data), *lines[i + 1:]]
    if how == "truncated":  # in the middle of a write's events: the engine would have made more
        writes = [i for i, line in enumerate(lines) if line.startswith('{"write"')]
        i = next(i for i, j in itertools.pairwise(writes) if j - i > 2)
        return lines[: i + 2]
    a, b = events[2], events[3]
    return [*lines[:a], lines[b], lines[a], *lines[b + 1:]]

# Commands that write: argv with {out}; "dir" → a directory, "missing-dir" → a path in a missing directory.
OUTPUT_COMMANDS = {
    "run --log": (["run", GOOD, "--log", "{out}"], "--log"),
    "play --log": (["play", GOOD, "--log", "{out}"], "--log"),
    "simulate --out": (["simulate", GOOD, "-n", "1", "--out", "{out}"], "--out"),
    "simulate --plot": (["simulate", GOOD, "-n", "1", "--plot", "{out}"], "--plot"),
    "sweep --out": (["sweep", GOOD, "--vary", "leader.hp=1..2", "-n", "1", "--out", "{out}"], "--out"),
    "sweep --plot": (["sweep", GOOD, "--vary", "leader.hp=1..2", "-n", "1", "--plot", "{out}"], "--plot"),
}
OUTPUTS = {"directory": "adir{ext}", "missing-dir": "nowhere/out{ext}", "under-a-file": "afile/out{ext}",
           "wrong-suffix": "out.txt"}
EXT = {"--log": ".jsonl", "--out": ".json", "--plot": ".png"}

# Bad options, one per row.
OPTIONS = {
    "odds huge damage": (["odds", *ODDS, "--damage", "99999999d99999999"], "99999999d99999999"),
    "odds 2d": (["odds", *ODDS, "--damage", "2d"], "2d"),
    "odds x": (["odds", *ODDS, "--damage", "2d6+x"], "2d6+x"),
    "odds d%": (["odds", *ODDS, "--damage", "d%"], "d%"),
    "odds long": (["odds", *ODDS, "--damage", "1d6+" * 40], "1d6"),
    "odds deep": (["odds", *ODDS, "--damage", "(" * 30 + "1d6"], "((("),
    "odds empty": (["odds", *ODDS, "--damage", ""], "dice"),
    "odds extra": (["odds", *ODDS, "--damage", "1d8", "--extra", "9999d9999"], "9999d9999"),
    "odds extra bad": (["odds", *ODDS, "--damage", "1d8", "--extra", "fire"], "fire"),
    "odds crit": (["odds", *ODDS, "--damage", "1d8", "--crit", "1-99/x99"], "1-99/x99"),
    "odds iteratives": (["odds", *ODDS, "--damage", "1d8", "--iteratives", "+8/x"], "+8/x"),
    "odds rounds": (["odds", *ODDS, "--damage", "1d8", "--hp", "10", "--rounds", "999999999"], "rounds"),
    "odds ruleset": (["odds", *ODDS, "--damage", "1d8", "--ruleset", "chess"], "chess"),
    "odds missing": (["odds", "--bonus", "5"], "--ac"),
    "odds attacker": (["odds", GOOD, "--attacker", "nobody", "--target", "leader"], "nobody"),
    "run ruleset": (["run", GOOD, "--ruleset", "chess"], "chess"),
    "simulate engine": (["simulate", GOOD, "-n", "1", "--engine", "warp"], "warp"),
    "simulate ruleset": (["simulate", GOOD, "-n", "1", "--ruleset", "chess"], "chess"),
    "sweep vary": (["sweep", GOOD, "--vary", "nonsense"], "nonsense"),
    "sweep vary id": (["sweep", GOOD, "--vary", "nobody.hp=1..2"], "nobody"),
    "sweep side": (["sweep", GOOD, "--vary", "leader.hp=1..2", "-n", "1", "--side", "elves"], "elves"),
    "rulesets": (["rulesets", "chess"], "chess"),
    "play human": (["play", GOOD, "--human", "elves"], "elves"),
}


def _invoke(argv: list[str]) -> tuple[int, str, float]:
    start = time.process_time()
    result = runner.invoke(app, argv)
    return result.exit_code, result.output, time.process_time() - start


def _assert_refused(argv: list[str], output: str, code: int, cpu: float, names: str) -> None:
    assert code != 0, f"{argv}: accepted\n{output[-1500:]}"
    assert "Traceback" not in output and "internal error" not in output, output[-2000:]
    errors = [line for line in output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, f"{argv}: expected one error line\n{output}"
    assert names in errors[0], f"{argv}: the error does not name {names!r}: {errors[0]}"
    assert output.strip().splitlines()[-1] == errors[0], f"{argv}: more after the error line\n{output}"
    assert cpu < 1.0, f"{argv}: {cpu:.2f} s of CPU"


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    """Import what the commands import once, so the CPU timings measure the refusals, not the imports."""
    for argv in (["simulate", "nope.yaml"], ["odds", "--bonus", "1", "--ac", "1", "--damage", "1d4"],
                 ["serve", "--db", "."], ["replay", "nope.jsonl"], ["run", GOOD, "--quiet"]):
        runner.invoke(app, argv)
    from d20combat.simulation import plots, sweep  # noqa: F401


def _make(tmp_path: Path, kind: str, content: bytes | str, suffix: str = ".yaml") -> str:
    path = tmp_path / f"{kind}{suffix}"
    if content == "DIR":
        path.mkdir()
    elif content == "MISSING":
        pass
    elif isinstance(content, str) and content.startswith("GOOD:"):
        started = runner.invoke(app, ["run", GOOD, "--quiet", "--log", str(tmp_path / "good.jsonl")])
        assert started.exit_code == 0, started.output
        lines = (tmp_path / "good.jsonl").read_text().splitlines()
        path.write_text("\n".join(_tampered(lines, content.removeprefix("GOOD:"))) + "\n")
    else:
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return str(path)


@pytest.mark.parametrize("kind", list(FILES))
@pytest.mark.parametrize("command", list(SCENARIO_COMMANDS))
def test_bad_scenario_file(tmp_path: Path, command: str, kind: str) -> None:
    path = _make(tmp_path, kind, FILES[kind], SUFFIX.get(kind, ".yaml"))
    argv = [a.replace("{file}", path) for a in SCENARIO_COMMANDS[command]]
    code, output, cpu = _invoke(argv)
    _assert_refused(argv, output, code, cpu, path)


@pytest.mark.parametrize("kind", list(TAMPERED_LOGS))
@pytest.mark.parametrize("command", list(LOG_COMMANDS))
def test_tampered_event_log(tmp_path: Path, command: str, kind: str) -> None:
    path = _make(tmp_path, kind, TAMPERED_LOGS[kind], ".jsonl")
    argv = [a.replace("{file}", path) for a in LOG_COMMANDS[command]]
    code, output, cpu = _invoke(argv)
    _assert_refused(argv, output, code, cpu, path)


@pytest.mark.parametrize("where", list(OUTPUTS))
@pytest.mark.parametrize("command", list(OUTPUT_COMMANDS))
def test_unwritable_output_is_refused_before_any_work(tmp_path: Path, command: str, where: str) -> None:
    argv_template, option = OUTPUT_COMMANDS[command]
    (tmp_path / "afile").write_text("a file, not a directory\n")
    (tmp_path / f"adir{EXT[option]}").mkdir()
    out = str(tmp_path / OUTPUTS[where].format(ext=EXT[option]))
    if where == "wrong-suffix" and option == "--log":
        pytest.skip("a log may have any name")
    argv = [a.replace("{out}", out) for a in argv_template]
    code, output, cpu = _invoke(argv)
    _assert_refused(argv, output, code, cpu, option)
    assert "Initiative" not in output and "encounters" not in output.split("error:")[0]


@pytest.mark.parametrize("row", list(OPTIONS))
def test_bad_option(row: str) -> None:
    argv, names = OPTIONS[row]
    code, output, cpu = _invoke(argv)
    _assert_refused(argv, output, code, cpu, names)
    assert not any(token in output for token in ("DICE_VALUE", "U_OP", "LPAR", "INTEGER", "$END", "_WS"))


@pytest.mark.parametrize("kind", ["directory", "text-file", "binary-file", "under-a-file"])
def test_serve_refuses_a_bad_database_before_starting(tmp_path: Path, kind: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import d20combat.server.run

    monkeypatch.setattr(d20combat.server.run, "serve", lambda *a, **k: pytest.fail("the server started"))
    db = tmp_path / "encounters.db"
    if kind == "directory":
        db.mkdir()
    elif kind == "text-file":
        db.write_text("hello, not a database\n" * 10)
    elif kind == "binary-file":
        db.write_bytes(bytes(range(256)) * 8)
    else:
        (tmp_path / "afile").write_text("x")
        db = tmp_path / "afile" / "encounters.db"
    before = db.read_bytes() if db.is_file() else None
    code, output, cpu = _invoke(["serve", "--db", str(db)])
    _assert_refused(["serve"], output, code, cpu, "--db")
    assert before is None or db.read_bytes() == before  # the file is left as it was


def test_run_log_into_a_directory_fails_before_the_battle(tmp_path: Path) -> None:
    result = runner.invoke(app, ["run", GOOD, "--log", str(tmp_path)])
    assert result.exit_code != 0
    assert result.output.strip().splitlines() == [f"error: --log {tmp_path}: a directory; give a file name"]


def test_an_existing_output_is_not_truncated_by_the_check(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    out.write_text('{"kept": true}')
    result = runner.invoke(app, ["simulate", str(tmp_path / "missing.yaml"), "--out", str(out)])
    assert result.exit_code != 0 and json.loads(out.read_text()) == {"kept": True}
    fresh = tmp_path / "fresh.jsonl"
    assert runner.invoke(app, ["run", str(tmp_path / "missing.yaml"), "--log", str(fresh)]).exit_code != 0
    assert not fresh.exists()  # the check leaves no empty file behind


def test_an_unexpected_exception_is_an_internal_error_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from d20combat.cli import tools

    def broken() -> dict[str, object]:
        raise KeyError("boom")

    monkeypatch.setattr("d20combat.scenario.Scenario.model_json_schema", lambda **_: broken())
    result = runner.invoke(app, ["schema"])
    assert result.exit_code == 70 and tools is not None
    assert result.output.strip() == "error: internal error: KeyError: 'boom' (please report)"


@pytest.mark.parametrize("argv", [["run", "{scenario}", "--quiet"], ["run", GOOD, "--log", "{out}"],
                                  ["simulate", GOOD, "--out", "{out}.json"]])
def test_permission_denied_is_one_line(tmp_path: Path, argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Root reads and writes anything, so the refusal of the file system is simulated."""
    scenario, out = tmp_path / "locked.yaml", tmp_path / "locked"
    scenario.write_text(Path(GOOD).read_text())
    real_open = Path.open

    def locked_open(self: Path, *args: object, **kwargs: object) -> object:
        if self.name.startswith("locked"):
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(Path, "open", locked_open)
    argv = [a.replace("{scenario}", str(scenario)).replace("{out}", str(out)) for a in argv]
    code, output, cpu = _invoke(argv)
    _assert_refused(argv, output, code, cpu, "locked")
    assert "permission denied" in output
