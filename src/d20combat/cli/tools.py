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
    token: Annotated[str | None, typer.Option(
        help="the GM's key (default: $D20COMBAT_TOKEN, else the database's own random one)")] = None,
    allow_host: Annotated[list[str] | None, typer.Option(
        help="another name the server may be reached by (its Host header), e.g. a LAN name; repeatable")] = None,
) -> None:
    """Serve the game master's table: the HTTP API (docs/api.md) and the pages, on one SQLite file.

    Prints the GM's link with the key (like Jupyter): whoever has it is the GM. Players get each encounter's
    own players' link from the GM's page; it shows only what their side sees and changes nothing."""
    import os
    import sqlite3

    check_database(db)

    from d20combat.server.app import create_app
    from d20combat.server.run import serve as run_server
    from d20combat.server.service import ServiceError

    try:
        web = create_app(db, token=token or os.environ.get("D20COMBAT_TOKEN") or None,
                         hosts=[host, *(allow_host or [])])
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
    shown = f"[{host}]" if ":" in host else ("127.0.0.1" if host in ("0.0.0.0", "") else host)
    console.print(f"the game master's table: http://{shown}:{port}/?token={web.state.token}  (database {db})",
                  markup=False)
    if host not in ("127.0.0.1", "localhost", "::1"):
        console.print(f"warning: listening on {host}, not only on this machine: the GM link above is a secret "
                      "(whoever has it is the GM); give players only the players' links, and reach the server by "
                      "its address or a name given with --allow-host", markup=False)
    run_server(web, host=host, port=port, log_level="info")  # stops within seconds on SIGTERM
