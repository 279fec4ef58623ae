"""The command line: run, replay, validate, schema."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from d20combat.controllers import TacticalAI, play
from d20combat.dice import SeededDice
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.render import describe_event, draw_map, summary
from d20combat.replay import encounter_from_log, read_log
from d20combat.scenario import Scenario, ScenarioError, load_battle

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="d20combat — a d20 tactical combat engine with explained numbers.")
console = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def _fail(message: str, code: int = 2) -> None:
    err.print(f"[bold red]error:[/] {message}")
    raise typer.Exit(code)


@app.command()
def run(
    scenario: Annotated[Path, typer.Argument(help="scenario file (YAML or JSON)")],
    seed: Annotated[int, typer.Option(help="dice seed: same seed, same battle")] = 1,
    log: Annotated[Path | None, typer.Option(help="write the event log here (JSON lines)")] = None,
    ruleset: Annotated[str | None, typer.Option(help="override the scenario's ruleset")] = None,
    quiet: Annotated[bool, typer.Option(help="print only the summary")] = False,
) -> None:
    """Play SCENARIO to the end with the tactical AI on every side, explaining every number."""
    try:
        battle = load_battle(scenario, ruleset_override=ruleset)
    except ScenarioError as exc:
        _fail(str(exc))
        return
    enc = Encounter(battle, SeededDice(seed))
    console.print(f"[bold]{battle.scenario.get('name', scenario.name)}[/] — ruleset {battle.ruleset.id}, seed {seed}")

    def show(events: list[ev.Event]) -> None:
        if quiet:
            return
        for e in events:
            if isinstance(e, ev.RoundStarted):
                console.print(describe_event(enc, e), markup=False)
                console.print(draw_map(enc), markup=False)
                continue
            text = describe_event(enc, e)
            if text:
                console.print(text, markup=False)

    play(enc, TacticalAI(), on_events=show)
    console.print()
    console.print(summary(enc), markup=False)
    if log is not None:
        log.write_text("".join(e.to_json() + "\n" for e in enc.log), encoding="utf-8")
        console.print(f"event log: {log} ({len(enc.log)} events)")


@app.command()
def replay(log: Annotated[Path, typer.Argument(help="an event log written by 'run --log'")]) -> None:
    """Rebuild an encounter from its event log and print its final state."""
    try:
        enc = encounter_from_log(read_log(log))
    except (ValueError, OSError) as exc:
        _fail(f"{log}: {exc}")
        return
    console.print(draw_map(enc), markup=False)
    console.print(summary(enc), markup=False)


@app.command()
def validate(scenario: Annotated[Path, typer.Argument(help="scenario file (YAML or JSON)")]) -> None:
    """Check SCENARIO and list every problem with its field path."""
    try:
        battle = load_battle(scenario)
    except ScenarioError as exc:
        _fail(str(exc), code=1)
        return
    console.print(f"{scenario}: ok — {len(battle.creatures)} combatants, sides {', '.join(battle.sides)}, "
                  f"{battle.game_map.width}×{battle.game_map.height} map, ruleset {battle.ruleset.id}")


@app.command()
def schema() -> None:
    """Print the scenario format's JSON Schema."""
    data: dict[str, Any] = Scenario.model_json_schema(by_alias=True)
    sys.stdout.write(json.dumps(data, indent=2) + "\n")


if __name__ == "__main__":  # pragma: no cover
    app()
