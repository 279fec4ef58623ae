"""The command line: battles (run, play, replay, validate), the lab (simulate, sweep, odds) and the tools
(serve, schema, rulesets). Bad input is one ``error:`` line and a non-zero exit, never a traceback; an
unexpected exception is reported as an internal error."""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperCommand

from d20combat.cli.battle import play_at_the_table, replay, run, validate
from d20combat.cli.io import CliError, console, err, fail, one_line, print_error
from d20combat.cli.lab import odds, simulate, sweep
from d20combat.cli.tools import rulesets_table, schema, serve
from d20combat.errors import D20CombatError

__all__ = ["GuardedCommand", "app", "console", "err", "fail"]

INTERNAL_ERROR = 70
"""Exit code of an unexpected exception (EX_SOFTWARE)."""


class GuardedCommand(TyperCommand):
    """Runs a command with the top-level guard: ``CliError`` and the library's input errors become one
    ``error:`` line; any other exception is an internal error to report, not a traceback."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except CliError as exc:
            print_error(exc.message)
            raise typer.Exit(exc.code) from None
        except D20CombatError as exc:
            print_error(one_line(str(exc)))
            raise typer.Exit(2) from None
        except RecursionError:
            print_error("input nested too deeply")
            raise typer.Exit(2) from None
        except Exception as exc:
            if type(exc).__module__.split(".")[0] in ("typer", "click"):
                raise  # Exit, Abort, usage errors: the command line's own signals
            print_error(f"internal error: {type(exc).__name__}: {one_line(str(exc))} (please report)")
            raise typer.Exit(INTERNAL_ERROR) from None


app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="d20combat — a d20 tactical combat engine with explained numbers.")

app.command(cls=GuardedCommand)(run)
app.command(name="play", cls=GuardedCommand)(play_at_the_table)
app.command(cls=GuardedCommand)(replay)
app.command(cls=GuardedCommand)(validate)
app.command(cls=GuardedCommand)(simulate)
app.command(cls=GuardedCommand)(sweep)
app.command(cls=GuardedCommand)(odds)
app.command(name="rulesets", cls=GuardedCommand)(rulesets_table)
app.command(cls=GuardedCommand)(schema)
app.command(cls=GuardedCommand)(serve)
