"""The command line: run, replay, validate, schema."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table

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


def _fail(message: str, code: int = 2) -> NoReturn:
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


@app.command(name="play")
def play_at_the_table(
    scenario: Annotated[Path, typer.Argument(help="scenario file (YAML or JSON)")],
    human: Annotated[list[str], typer.Option(help="a side you play at the terminal (repeat); the AI plays "
                                                  "the others")] = [],  # noqa: B006
    seed: Annotated[int, typer.Option(help="dice seed for the dice you do not type")] = 1,
    typed_dice: Annotated[bool, typer.Option(help="ask for every die: type the physical roll, or Enter to "
                                                  "let the computer roll it")] = False,
    ruleset: Annotated[str | None, typer.Option(help="override the scenario's ruleset")] = None,
    log: Annotated[Path | None, typer.Option(help="write the event log here (JSON lines)")] = None,
) -> None:
    """Play SCENARIO at the terminal: choose the actions of your sides, answer reaction prompts, type dice."""
    from d20combat.controllers import Controller
    from d20combat.controllers.console import ConsoleController, typed_die_asker
    from d20combat.dice import DiceError, TypedDice
    from d20combat.encounter.engine import IllegalAction

    try:
        battle = load_battle(scenario, ruleset_override=ruleset)
    except ScenarioError as exc:
        _fail(str(exc))
    unknown = sorted(set(human) - set(battle.sides))
    if unknown:
        _fail(f"--human {', '.join(unknown)}: the sides are {', '.join(battle.sides)}")

    def ask(text: str) -> str:
        return str(typer.prompt(text, default="", show_default=False))

    def say(text: str) -> None:
        console.print(text, markup=False)

    dice = TypedDice(typed_die_asker(ask, say), fallback=SeededDice(seed)) if typed_dice else SeededDice(seed)
    enc = Encounter(battle, dice)
    person = ConsoleController(ask, say)
    ai = TacticalAI()
    controllers: dict[str, Controller] = {side: (person if side in human else ai) for side in battle.sides}

    def show(events: list[ev.Event]) -> None:
        for e in events:
            text = describe_event(enc, e)
            if text:
                console.print(text, markup=False)
            if isinstance(e, ev.RoundStarted):
                console.print(draw_map(enc), markup=False)

    show(enc.start())
    while not enc.state.ended:
        try:
            if enc.pending is not None:
                prompt = enc.pending.prompt
                show(enc.respond(controllers[enc.creature(prompt.reactor).side].react(enc, prompt)))
            elif enc.state.turn is not None:
                show(enc.act(controllers[enc.creature(enc.state.turn.actor).side].choose(enc)))
            else:
                break
        except (IllegalAction, DiceError) as exc:
            say(f"  refused, nothing changed: {exc}")
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


def _progress_run(n: int, job: Any) -> Any:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn, TimeRemainingColumn

    columns = (BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=err, transient=True) as bar:
        task = bar.add_task("encounters", total=n)
        return job(lambda k: bar.advance(task, k))


def _say_engine(data: dict[str, Any], ruleset: str | None, engine: str) -> None:
    """Name the engine that will play, and why the fast path does not where it does not."""
    from d20combat.simulation.runner import engine_for

    try:
        chosen, why = engine_for(data, ruleset, engine)
    except ValueError as exc:
        _fail(str(exc))
    if chosen == "fast":
        err.print("engine: fast path (compiled; the first run on a machine compiles it, about a minute)")
    else:
        err.print(f"engine: reference ({why})")


def _load_data(scenario: Path) -> dict[str, Any]:
    from d20combat.scenario import read_scenario_data

    try:
        data = read_scenario_data(scenario)
        load_battle(scenario)
    except ScenarioError as exc:
        _fail(str(exc))
    return data


@app.command()
def simulate(
    scenario: Annotated[Path, typer.Argument(help="scenario file (YAML or JSON)")],
    n: Annotated[int, typer.Option("-n", "--encounters", help="encounters to play", min=1)] = 1000,
    seed: Annotated[int, typer.Option(help="master seed: same seed, same results, whatever the workers")] = 0,
    workers: Annotated[int, typer.Option(help="local worker processes", min=1)] = 1,
    dask: Annotated[str | None, typer.Option(help="Dask scheduler address, or 'local' for a LocalCluster")] = None,
    ruleset: Annotated[str | None, typer.Option(help="override the scenario's ruleset")] = None,
    out: Annotated[Path | None, typer.Option(help="write the results (.json or .csv)")] = None,
    plot: Annotated[Path | None, typer.Option(help="write a figure (.png)")] = None,
    engine: Annotated[str, typer.Option(help="auto (the compiled fast path where it replays the scenario "
                                             "exactly), fast, or reference")] = "auto",
) -> None:
    """Play SCENARIO N times with the AI on every side: win rates with 95 % intervals, rounds, damage."""
    from rich.table import Table

    from d20combat.simulation import simulate_outcomes, summarize
    from d20combat.simulation.runner import sides_of

    data = _load_data(scenario)
    if out is not None and out.suffix.lower() not in (".json", ".csv"):
        _fail(f"--out {out}: use a .json or .csv file")
    _say_engine(data, ruleset, engine)
    try:
        outcomes = _progress_run(n, lambda tick: simulate_outcomes(
            data, n, seed=seed, workers=workers, dask=dask, ruleset=ruleset, progress=tick, engine=engine))
    except (ValueError, OSError) as exc:
        _fail(str(exc))
    sides = sides_of(data, ruleset)
    summary = summarize(outcomes, sides, seed)
    table = Table(title=f"{data.get('name', scenario.name)} — {n} encounters, seed {seed}")
    for col in ("side", "wins", "win rate", "95 % interval"):
        table.add_column(col, justify="right" if col != "side" else "left")
    for s in summary.sides:
        table.add_row(s.side, str(s.wins), f"{s.rate:.1%}", f"{s.low:.1%} – {s.high:.1%}")
    console.print(table)
    console.print(f"draws {summary.draws}, timeouts {summary.timeouts}; rounds mean {summary.rounds_mean:.2f}, "
                  f"median {summary.rounds_median:g}; attacks per encounter {summary.attacks_mean:.1f}")
    per = Table(title="per combatant (means per encounter)")
    for col in ("combatant", "side", "damage dealt", "damage taken", "downed", "killed"):
        per.add_column(col, justify="right" if col not in ("combatant", "side") else "left")
    for c in summary.combatants:
        per.add_row(c.id, c.side, f"{c.dealt_mean:.1f}", f"{c.taken_mean:.1f}", f"{c.downed_rate:.1%}",
                    f"{c.killed_rate:.1%}")
    console.print(per)
    if out is not None:
        text = summary.to_csv() if out.suffix.lower() == ".csv" else json.dumps(summary.to_dict(), indent=2)
        out.write_text(text, encoding="utf-8")
        console.print(f"results: {out}")
    if plot is not None:
        from d20combat.simulation.plots import plot_summary

        plot_summary(summary, outcomes, list(sides), plot, str(data.get("name", "")))
        console.print(f"figure: {plot}")


@app.command()
def sweep(
    scenario: Annotated[Path, typer.Argument(help="scenario file (YAML or JSON)")],
    vary: Annotated[list[str], typer.Option(help="ID.FIELD=A..B or ID.FIELD=a,b,c; fields: count, hp, ac, "
                                                 "attack_bonus, speed (repeat for a grid)")],
    n: Annotated[int, typer.Option("-n", "--encounters", help="encounters per variant", min=1)] = 500,
    seed: Annotated[int, typer.Option(help="master seed, the same for every variant")] = 0,
    workers: Annotated[int, typer.Option(help="local worker processes", min=1)] = 1,
    dask: Annotated[str | None, typer.Option(help="Dask scheduler address, or 'local'")] = None,
    side: Annotated[str | None, typer.Option(help="the side whose win rate is watched (default: the first)")] = None,
    threshold: Annotated[float, typer.Option(help="name the first variant where that side's win rate "
                                                  "drops below this", min=0, max=1)] = 0.5,
    out: Annotated[Path | None, typer.Option(help="write the rows (.json or .csv)")] = None,
    plot: Annotated[Path | None, typer.Option(help="write a figure (.png)")] = None,
    engine: Annotated[str, typer.Option(help="auto (the compiled fast path where it replays the scenario "
                                             "exactly), fast, or reference")] = "auto",
) -> None:
    """Simulate a grid of variants of SCENARIO, one row per variant with win rates and intervals."""
    import csv
    import io

    from rich.table import Table

    from d20combat.simulation import simulate_outcomes, summarize
    from d20combat.simulation.runner import sides_of
    from d20combat.simulation.sweep import SweepError, apply_variant, deadly_verdict, grid, parse_vary

    data = _load_data(scenario)
    try:
        varies = [parse_vary(v) for v in vary]
        variants = [(settings, apply_variant(data, settings)) for settings in grid(varies)]
        sides_list = list(dict.fromkeys(sides_of(variants[0][1]).values()))
    except (SweepError, ScenarioError) as exc:
        _fail(str(exc))
    watched = side or sides_list[0]
    if watched not in sides_list:
        _fail(f"--side {watched!r}: the sides are {', '.join(sides_list)}")
    if out is not None and out.suffix.lower() not in (".json", ".csv"):
        _fail(f"--out {out}: use a .json or .csv file")
    labels = [v.label for v in varies]
    rows: list[dict[str, Any]] = []
    _say_engine(variants[0][1], None, engine)

    def job(tick: Any) -> None:
        for settings, variant in variants:
            try:
                outcomes = simulate_outcomes(variant, n, seed=seed, workers=workers, dask=dask, progress=tick,
                                             engine=engine)
            except ScenarioError as exc:
                _fail(f"variant {', '.join(f'{v.label}={x}' for v, x in settings)}: {exc}")
            summary = summarize(outcomes, sides_of(variant), seed)
            row: dict[str, Any] = {v.label: x for v, x in settings}
            for s in summary.sides:
                row[f"{s.side}_win_rate"] = round(s.rate, 6)
                row[f"{s.side}_low"] = round(s.low, 6)
                row[f"{s.side}_high"] = round(s.high, 6)
            row["rounds_mean"] = round(summary.rounds_mean, 4)
            rows.append(row)

    _progress_run(n * len(variants), job)
    table = Table(title=f"sweep of {data.get('name', scenario.name)} — {n} encounters per variant, seed {seed}")
    for label in labels:
        table.add_column(label, justify="right")
    for s_name in sides_list:
        table.add_column(f"{s_name} win rate (95 %)", justify="right")
    table.add_column("rounds", justify="right")
    for row in rows:
        table.add_row(*[str(row[label]) for label in labels],
                      *[f"{row[f'{s}_win_rate']:.1%} ({row[f'{s}_low']:.0%}–{row[f'{s}_high']:.0%})"
                        for s in sides_list], f"{row['rounds_mean']:.1f}")
    console.print(table)
    console.print(deadly_verdict(rows, labels, watched, threshold))
    if out is not None:
        if out.suffix.lower() == ".csv":
            buf = io.StringIO()
            writer = csv.DictWriter(buf, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
            out.write_text(buf.getvalue(), encoding="utf-8")
        else:
            out.write_text(json.dumps({"side": watched, "threshold": threshold, "rows": rows}, indent=2),
                           encoding="utf-8")
        console.print(f"results: {out}")
    if plot is not None:
        from d20combat.simulation.plots import plot_sweep

        plot_sweep(rows, labels, watched, plot, threshold)
        console.print(f"figure: {plot}")


@app.command()
def odds(
    scenario: Annotated[Path | None, typer.Argument(help="scenario file: odds for --attacker against --target")] = None,
    attacker: Annotated[str | None, typer.Option(help="attacker id (scenario form)")] = None,
    target: Annotated[str | None, typer.Option(help="target id (scenario form)")] = None,
    attack: Annotated[str | None, typer.Option(help="attack name (scenario form; default: the wielded one)")] = None,
    bonus: Annotated[int | None, typer.Option(help="attack bonus, e.g. +8")] = None,
    ac: Annotated[int | None, typer.Option(help="target AC (the number to reach)")] = None,
    damage: Annotated[str | None, typer.Option(help="damage dice, e.g. 1d8+5 (multiplied on a critical)")] = None,
    crit: Annotated[str | None, typer.Option(help="threat range and multiplier, e.g. 19-20/x2")] = None,
    iteratives: Annotated[str | None, typer.Option(help="full attack bonuses, e.g. +8/+3")] = None,
    concealment: Annotated[int | None, typer.Option(help="miss chance in percent, e.g. 20")] = None,
    extra: Annotated[list[str] | None, typer.Option(help="dice added once per hit (energy, sneak attack)")] = None,
    spell: Annotated[bool, typer.Option(help="a spell attack: the ruleset's spell critical (20/x2)")] = False,
    min_damage: Annotated[int | None, typer.Option(help="minimum damage of a hit (default: the ruleset's)")] = None,
    hp: Annotated[int | None, typer.Option(help="target hit points for the kill odds (scenario: its hp)")] = None,
    rounds: Annotated[int, typer.Option(help="kill odds within 1..ROUNDS rounds")] = 10,
    ruleset: Annotated[str | None, typer.Option(help="ruleset whose policies apply (default: PFB / the scenario's)")]
    = None,
) -> None:
    """Exact odds of an attack: hit, threat, critical, the damage distribution, damage per round
    and the chance to bring a target down — from flags (--bonus --ac --damage …) or from a SCENARIO
    attacker/target pair, through the ruleset's policies."""
    from d20combat.odds import OddsError
    from d20combat.odds import report as odds_report

    try:
        if scenario is not None:
            flags = {"--bonus": bonus, "--ac": ac, "--damage": damage, "--crit": crit, "--iteratives": iteratives,
                     "--concealment": concealment, "--extra": extra or None, "--spell": spell or None,
                     "--min-damage": min_damage}
            given = [name for name, value in flags.items() if value is not None]
            if given:
                _fail(f"{', '.join(given)}: not with a SCENARIO — the engine takes these from the scenario")
            profile, target_hp = odds_report.from_scenario(scenario, attacker, target, attack, ruleset)
            report = odds_report.compute(profile.label, profile, (profile,), hp if hp is not None else target_hp,
                                         rounds)
        else:
            given = [n for n, v in (("--attacker", attacker), ("--target", target), ("--attack", attack)) if v]
            if given:
                _fail(f"{', '.join(given)}: needs a SCENARIO file before the options")
            profile, attacks = odds_report.from_flags(
                bonus=bonus, ac=ac, damage=damage, crit=crit, iterative_text=iteratives, concealment=concealment,
                extra=extra, spell=spell, min_damage=min_damage, ruleset_id=ruleset)
            report = odds_report.compute(profile.label, profile, attacks, hp, rounds)
    except ScenarioError as exc:
        _fail(f"{scenario}: " + "; ".join(exc.problems))
    except OddsError as exc:
        _fail(str(exc))
    for part in odds_report.render(report):
        console.print(part)


@app.command(name="rulesets")
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
            _fail(str(exc))
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


@app.command()
def schema() -> None:
    """Print the scenario format's JSON Schema."""
    data: dict[str, Any] = Scenario.model_json_schema(by_alias=True)
    sys.stdout.write(json.dumps(data, indent=2) + "\n")


@app.command()
def serve(
    db: Annotated[Path, typer.Option(help="SQLite file of the encounters (created if missing)")] = Path("d20combat.db"),
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on", min=1, max=65535)] = 8000,
    demo: Annotated[bool, typer.Option(help="an empty database gets the demo encounter (goblin-ambush)")] = True,
) -> None:
    """Serve the game master's table: the HTTP API (docs/api.md) and the pages, on one SQLite file."""
    import uvicorn

    from d20combat.server.app import create_app
    from d20combat.server.service import ServiceError

    web = create_app(db)
    service = web.state.service
    if demo and service.store.count() == 0:
        try:
            made = service.create(example="goblin-ambush", seed=1)
        except ServiceError as exc:
            _fail(f"demo encounter: {exc.detail}")
        console.print(f"demo encounter: {made['name']} (id {made['id']})")
    console.print(f"the game master's table: http://{host}:{port}/  (database {db})")
    uvicorn.run(web, host=host, port=port, log_level="info")


if __name__ == "__main__":  # pragma: no cover
    app()
