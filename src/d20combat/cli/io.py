"""What every command shares: the consoles, the one-line error, reading input files and checking output
paths before any work is done. A bad file or path is an ``error: <path>: <reason>`` line and a non-zero
exit, never a traceback."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from rich.console import Console
from rich.markup import escape

from d20combat.limits import MAX_SCENARIO_BYTES

if TYPE_CHECKING:
    from d20combat.encounter.battle import Battle
    from d20combat.scenario import ScenarioError

console = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

MAX_LOG_BYTES = 64_000_000
"""Bytes of an event log ``replay`` reads (a long battle writes a few hundred kilobytes)."""


class CliError(Exception):
    """A refusal of the command line's input: printed as ``error: <message>``, exit ``code``."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def fail(message: str, code: int = 2) -> NoReturn:
    raise CliError(message, code)


def print_error(message: str) -> None:
    err.print(f"[bold red]error:[/] {escape(message)}")


_CARET = re.compile(r"^\s*\^\s*$")


def one_line(text: str) -> str:
    """A message on one line: a YAML error's quoted source line and caret are dropped, whitespace collapsed."""
    lines = text.splitlines()
    keep = [line for i, line in enumerate(lines)
            if not _CARET.match(line) and not (i + 1 < len(lines) and _CARET.match(lines[i + 1]))]
    flat = " ".join(" ".join(keep).split()).replace('in "<unicode string>", ', "")
    return flat[:500] + ("…" if len(flat) > 500 else "")


def _reason(exc: OSError) -> str:
    if isinstance(exc, IsADirectoryError):
        return "it is a directory"
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    return (exc.strerror or type(exc).__name__).lower()


def read_text_file(path: Path, what: str = "a file", limit: int = MAX_SCENARIO_BYTES, code: int = 2) -> str:
    """The UTF-8 text of ``path`` (a BOM is dropped), refused with a one-line reason before it is parsed: a
    missing, unreadable or special file, a directory, more than ``limit`` bytes, binary or not UTF-8."""
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            fail(f"{path}: a directory, not {what}", code)
        if not stat.S_ISREG(info.st_mode):
            fail(f"{path}: not a regular file", code)
        if info.st_size > limit:
            fail(f"{path}: {info.st_size:,} bytes; {what} has at most {limit:,}", code)
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        fail(f"{path}: cannot read: {_reason(exc)}", code)
    except ValueError as exc:  # an embedded NUL in the name
        fail(f"{path!r}: {exc}", code)
    if len(data) > limit:
        fail(f"{path}: more than {limit:,} bytes; {what} has at most {limit:,}", code)
    nul = data.find(b"\0")
    if nul >= 0:
        fail(f"{path}: a binary file (a NUL byte at offset {nul}), not {what}", code)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        fail(f"{path}: not UTF-8 text: byte 0x{data[exc.start]:02x} at offset {exc.start} cannot be decoded", code)


def writable_output(path: Path | None, option: str, suffixes: tuple[str, ...] = ()) -> None:
    """Check up front that ``path`` can be written (``option`` names it in the error): not a directory, in an
    existing directory, writable. The file is opened for appending (nothing is truncated); a file that did
    not exist is removed again."""
    if path is None:
        return
    if suffixes and path.suffix.lower() not in suffixes:
        names = f"{', '.join(suffixes[:-1])} or {suffixes[-1]}" if len(suffixes) > 1 else suffixes[0]
        fail(f"{option} {path}: use a {names} file")
    try:
        if path.is_dir():
            fail(f"{option} {path}: a directory; give a file name")
        parent = path.parent
        if not parent.exists():
            fail(f"{option} {path}: the directory {parent} does not exist")
        if not parent.is_dir():
            fail(f"{option} {path}: {parent} is not a directory")
        existed = path.exists()
        with path.open("a", encoding="utf-8"):
            pass
        if not existed:
            path.unlink(missing_ok=True)
    except OSError as exc:
        fail(f"{option} {path}: cannot write: {_reason(exc)}")
    except ValueError as exc:
        fail(f"{option} {path!r}: {exc}")


def write_output(path: Path, text: str, option: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"{option} {path}: cannot write: {_reason(exc)}")


def scenario_message(path: Path, exc: ScenarioError) -> str:
    """``path: problem`` for one problem; a count and one indented line per problem for several."""
    problems = [one_line(p) for p in exc.problems] or ["invalid"]
    if len(problems) == 1:
        return f"{path}: {problems[0]}"
    return f"{path}: {len(problems)} problems\n" + "\n".join(f"  {p}" for p in problems)


def read_scenario(path: Path, code: int = 2) -> dict[str, Any]:
    """The scenario file's data (JSON for ``.json``, YAML otherwise), bounded and parsed, not yet validated."""
    from d20combat.scenario import ScenarioError
    from d20combat.scenario.loader import parse_scenario_text

    text = read_text_file(path, "a scenario", code=code)
    if not text.strip():
        fail(f"{path}: an empty file; a scenario needs 'map' and 'combatants'", code)
    try:
        return parse_scenario_text(text, str(path), json_hint=path.suffix.lower() == ".json")
    except ScenarioError as exc:
        fail(scenario_message(path, exc), code)


def load_scenario(path: Path, ruleset: str | None = None, code: int = 2) -> tuple[dict[str, Any], Battle]:
    """The scenario's data and its validated battle (under ``ruleset`` if given); every problem → exit."""
    from d20combat.scenario import ScenarioError, battle_from_data
    from d20combat.scenario.loader import fixed_initiative_problems

    data = read_scenario(path, code)
    try:
        battle = battle_from_data(data, str(path), ruleset)
        problems = fixed_initiative_problems(battle)  # meaningless where initiative is re-rolled every round
        if problems:
            raise ScenarioError(problems, str(path))
        return data, battle
    except ScenarioError as exc:
        fail(scenario_message(path, exc), code)


def check_database(path: Path) -> None:
    """``serve --db``: a directory, a file that is not SQLite, or a place that cannot be written → exit."""
    import sqlite3
    from urllib.parse import quote

    if str(path) == ":memory:":
        return
    try:
        if path.is_dir():
            fail(f"--db {path}: a directory; give a database file")
        if path.exists():
            if not path.is_file():
                fail(f"--db {path}: not a regular file")
            try:
                db = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True)
                try:
                    db.execute("PRAGMA schema_version").fetchone()
                finally:
                    db.close()
            except sqlite3.Error as exc:
                fail(f"--db {path}: not an SQLite database ({exc})")
            writable_output(path, "--db")
            return
        ancestor = path.parent
        while not ancestor.exists() and ancestor != ancestor.parent:
            ancestor = ancestor.parent
        if not ancestor.is_dir():
            fail(f"--db {path}: {ancestor} is not a directory")
        if not os.access(ancestor, os.W_OK | os.X_OK):
            fail(f"--db {path}: cannot write in {ancestor}")
    except OSError as exc:
        fail(f"--db {path}: {_reason(exc)}")
