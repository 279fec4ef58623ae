"""The tools: serve the game master's table, print the scenario schema, show the rulesets."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from d20combat.cli.io import check_database, console, fail, one_line


def rulesets_table(
    ruleset: Annotated[str | None, typer.Argument(help="a ruleset id; all of them if omitted")] = None,
    markdown: Annotated[bool, typer.Option(help="print Markdown tables (for the docs)")] = False,
) -> None:
    """Each ruleset's composition: policy area → component → the rule IDs it implements."""
    from d20combat.rulesets import RULESETS, get_ruleset

    ids = [ruleset] if ruleset else list(RULESETS)
    for rid in ids:
        try:
            rs = get_ruleset(rid)
        except ValueError as exc:
            fail(one_line(str(exc)))
        if markdown:
            console.print(f"**`{rs.id}`** — {rs.title}\n\n| area | component | rules |\n|---|---|---|", markup=False)
            for area, component, ids_ in rs.composition():
                console.print(f"| {area} | `{component}` | {', '.join(ids_)} |", markup=False)
            console.print("")
            continue
        table = Table(title=f"{rs.id} — {rs.title}")
        for column in ("area", "component", "rules"):
            table.add_column(column)
        for area, component, ids_ in rs.composition():
            table.add_row(area, component, ", ".join(ids_))
        console.print(table)


def schema() -> None:
    """Print the scenario format's JSON Schema."""
    from d20combat.scenario import Scenario

    data: dict[str, Any] = Scenario.model_json_schema(by_alias=True)
    sys.stdout.write(json.dumps(data, indent=2) + "\n")


def serve(
    db: Annotated[Path, typer.Option(help="SQLite file of the encounters (created if missing)")] = Path("d20combat.db"),
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on", min=1, max=65535)] = 8000,
    demo: Annotated[bool, typer.Option(help="an empty database gets the demo encounter (goblin-ambush)")] = True,
) -> None:
    """Serve the game master's table: the HTTP API (docs/api.md) and the pages, on one SQLite file."""
    import sqlite3

    check_database(db)

    from d20combat.server.app import create_app
    from d20combat.server.run import serve as run_server
    from d20combat.server.service import ServiceError

    try:
        web = create_app(db)
        service = web.state.service
        empty = service.store.count() == 0
    except (sqlite3.Error, OSError) as exc:
        fail(f"--db {db}: {one_line(str(exc))}")
    if demo and empty:
        try:
            made = service.create(example="goblin-ambush", seed=1)
        except ServiceError as exc:
            fail(f"demo encounter: {exc.detail}")
        except sqlite3.Error as exc:
            fail(f"--db {db}: {one_line(str(exc))}")
        console.print(f"demo encounter: {made['name']} (id {made['id']})", markup=False)
    console.print(f"the game master's table: http://{host}:{port}/  (database {db})", markup=False)
    run_server(web, host=host, port=port, log_level="info")  # stops within seconds on SIGTERM
