"""The lab: many battles (simulate, sweep) and the exact odds of one attack."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from d20combat.cli.io import console, err, fail, load_scenario, one_line, read_text_file, scenario_message
from d20combat.cli.io import writable_output as check_output
from d20combat.cli.io import write_output as write_text
from d20combat.scenario import ScenarioError

RESULTS = (".json", ".csv")
FIGURES = (".png", ".svg", ".pdf")
ScenarioArg = Annotated[Path, typer.Argument(help="scenario file (YAML or JSON)")]
EngineOption = Annotated[str, typer.Option(help="auto (the compiled fast path where it replays the scenario "
                                                "exactly), fast, or reference")]
WorkersOption = Annotated[int, typer.Option(help="local worker processes", min=1)]


def _progress_run(n: int, job: Callable[[Callable[[int], None]], Any]) -> Any:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn, TimeRemainingColumn

    columns = (BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=err, transient=True) as bar:
        task = bar.add_task("encounters", total=n)
        return job(lambda k: bar.advance(task, k))


def _say_engine(data: dict[str, Any], ruleset: str | None, engine: str) -> tuple[str, str]:
    """Name the engine that will play, and why the fast path does not where it does not; from here on, a
    first compilation of the fast path is announced on stderr."""
    from d20combat.simulation.fast import jit
    from d20combat.simulation.runner import engine_for

    jit.on_compile(lambda message: err.print(message, markup=False))
    try:
        chosen, why = engine_for(data, ruleset, engine)
    except ValueError as exc:
        fail(f"--engine: {one_line(str(exc))}")
    if chosen == "fast":
        err.print("engine: fast path (compiled)")
    else:
        err.print(f"engine: reference ({why})", markup=False)
    return chosen, why


_MISSING = "this battle uses policy components the kernel does not implement: "


def _short(why: str) -> str:
    """Why the reference engine played, in a few words (the components' areas, not their every hook)."""
    if why.startswith(_MISSING):
        areas = [part.split("=")[0].strip() for part in why[len(_MISSING):].split("; ")]
        return f"the fast path does not implement its {', '.join(areas)} components"
    return why if why == "asked for" else f"the fast path cannot play it: {why}"


class _Clock:
    """Wall time of a run and the part of it spent compiling the fast path."""

    def __init__(self) -> None:
        from d20combat.simulation.fast import jit

        self._compile = jit.compile_seconds
        self.compile0, self.t0 = self._compile(), time.perf_counter()

    def report(self, played: int, chosen: str, why: str, workers: int) -> str:
        """``N encounters in T s: R encounters/s on <engine>``, T without the fast path's compilation (said apart)."""
        compiling = self._compile() - self.compile0
        playing = max(time.perf_counter() - self.t0 - compiling, 1e-9)
        rate = played / playing
        where = "the fast path" if chosen == "fast" else f"the reference engine ({_short(why)})"
        text = (f"{played:,} encounters in {playing:.1f} s: {rate:,.{0 if rate >= 100 else 1}f} encounters/s "
                f"on {where}" + (f", {workers} workers" if workers > 1 else ""))
        if compiling >= 0.05:
            text += f" (after {compiling:.0f} s compiling the fast path, once per machine)"
        return text


def _check_engine(engine: str) -> None:
    from d20combat.simulation.runner import ENGINES

    if engine not in ENGINES:
        fail(f"--engine {engine!r}: use one of {', '.join(ENGINES)}")


def simulate(
    scenario: ScenarioArg,
    n: Annotated[int, typer.Option("-n", "--encounters", help="encounters to play", min=1)] = 1000,
    seed: Annotated[int, typer.Option(help="master seed: same seed, same results, whatever the workers")] = 0,
    workers: WorkersOption = 1,
    dask: Annotated[str | None, typer.Option(help="Dask scheduler address, or 'local' for a LocalCluster")] = None,
    ruleset: Annotated[str | None, typer.Option(help="override the scenario's ruleset")] = None,
    out: Annotated[Path | None, typer.Option(help="write the results (.json or .csv)")] = None,
    plot: Annotated[Path | None, typer.Option(help="write a figure (.png, .svg or .pdf)")] = None,
    engine: EngineOption = "auto",
) -> None:
    """Play SCENARIO N times with the AI on every side: win rates with 95 % intervals, rounds, damage."""
    check_output(out, "--out", RESULTS)
    check_output(plot, "--plot", FIGURES)
    data, _ = load_scenario(scenario, ruleset)
    _check_engine(engine)

    from d20combat.simulation import simulate_outcomes, summarize
    from d20combat.simulation.runner import sides_of

    clock = _Clock()
    chosen, why = _say_engine(data, ruleset, engine)
    try:
        outcomes = _progress_run(n, lambda tick: simulate_outcomes(
            data, n, seed=seed, workers=workers, dask=dask, ruleset=ruleset, progress=tick, engine=engine))
    except (ValueError, OSError) as exc:
        fail(one_line(str(exc)) or type(exc).__name__)
    speed = clock.report(len(outcomes), chosen, why, workers)
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
        write_text(out, text, "--out")
        console.print(f"results: {out}", markup=False)
    if plot is not None:
        from d20combat.simulation.plots import plot_summary

        _figure(plot, lambda: plot_summary(summary, outcomes, list(sides), plot, str(data.get("name", ""))))
    err.print(speed, markup=False)


def _figure(plot: Path, draw: Callable[[], None]) -> None:
    try:
        draw()
    except (OSError, ValueError) as exc:
        fail(f"--plot {plot}: {one_line(str(exc))}")
    console.print(f"figure: {plot}", markup=False)


def _rows_csv(rows: list[dict[str, Any]]) -> str:
    import csv
    import io

    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()


def sweep(
    scenario: ScenarioArg,
    vary: Annotated[list[str], typer.Option(help="ID.FIELD=A..B or ID.FIELD=a,b,c; fields: count, hp, ac, "
                                                 "attack_bonus, speed (repeat for a grid)")],
    n: Annotated[int, typer.Option("-n", "--encounters", help="encounters per variant", min=1)] = 500,
    seed: Annotated[int, typer.Option(help="master seed, the same for every variant")] = 0,
    workers: WorkersOption = 1,
    dask: Annotated[str | None, typer.Option(help="Dask scheduler address, or 'local'")] = None,
    side: Annotated[str | None, typer.Option(help="the side whose win rate is watched (default: the first)")] = None,
    threshold: Annotated[float, typer.Option(help="name the first variant where that side's win rate "
                                                  "drops below this", min=0, max=1)] = 0.5,
    out: Annotated[Path | None, typer.Option(help="write the rows (.json or .csv)")] = None,
    plot: Annotated[Path | None, typer.Option(help="write a figure (.png, .svg or .pdf)")] = None,
    engine: EngineOption = "auto",
) -> None:
    """Simulate a grid of variants of SCENARIO, one row per variant with win rates and intervals."""
    check_output(out, "--out", RESULTS)
    check_output(plot, "--plot", FIGURES)
    data, _ = load_scenario(scenario)
    _check_engine(engine)

    from d20combat.simulation import simulate_outcomes, summarize
    from d20combat.simulation.runner import sides_of
    from d20combat.simulation.sweep import SweepError, apply_variant, deadly_verdict, grid, parse_vary

    try:
        varies = [parse_vary(v) for v in vary]
        variants = [(settings, apply_variant(data, settings)) for settings in grid(varies)]
        sides_list = list(dict.fromkeys(sides_of(variants[0][1]).values()))
    except SweepError as exc:
        fail(one_line(str(exc)))
    except ScenarioError as exc:
        fail(scenario_message(scenario, exc))
    watched = side or sides_list[0]
    if watched not in sides_list:
        fail(f"--side {watched!r}: the sides are {', '.join(sides_list)}")
    labels = [v.label for v in varies]
    rows: list[dict[str, Any]] = []
    clock = _Clock()
    chosen, why = _say_engine(variants[0][1], None, engine)

    def job(tick: Callable[[int], None]) -> None:
        for settings, variant in variants:
            try:
                outcomes = simulate_outcomes(variant, n, seed=seed, workers=workers, dask=dask, progress=tick,
                                             engine=engine)
            except ScenarioError as exc:
                fail(f"variant {', '.join(f'{v.label}={x}' for v, x in settings)}: "
                     + "; ".join(one_line(p) for p in exc.problems))
            except (ValueError, OSError) as exc:
                fail(one_line(str(exc)) or type(exc).__name__)
            summary = summarize(outcomes, sides_of(variant), seed)
            row: dict[str, Any] = {v.label: x for v, x in settings}
            for s in summary.sides:
                row[f"{s.side}_win_rate"] = round(s.rate, 6)
                row[f"{s.side}_low"] = round(s.low, 6)
                row[f"{s.side}_high"] = round(s.high, 6)
            row["rounds_mean"] = round(summary.rounds_mean, 4)
            rows.append(row)

    _progress_run(n * len(variants), job)
    speed = clock.report(n * len(variants), chosen, why, workers)
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
        text = (_rows_csv(rows) if out.suffix.lower() == ".csv"
                else json.dumps({"side": watched, "threshold": threshold, "rows": rows}, indent=2))
        write_text(out, text, "--out")
        console.print(f"results: {out}", markup=False)
    if plot is not None:
        from d20combat.simulation.plots import plot_sweep

        _figure(plot, lambda: plot_sweep(rows, labels, watched, plot, threshold))
    err.print(speed, markup=False)


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

    if scenario is not None:
        flags = {"--bonus": bonus, "--ac": ac, "--damage": damage, "--crit": crit, "--iteratives": iteratives,
                 "--concealment": concealment, "--extra": extra or None, "--spell": spell or None,
                 "--min-damage": min_damage}
        given = [name for name, value in flags.items() if value is not None]
        if given:
            fail(f"{', '.join(given)}: not with a SCENARIO — the engine takes these from the scenario")
        read_text_file(scenario, "a scenario")  # readable, bounded, UTF-8: before the loader parses it
    else:
        given = [n for n, v in (("--attacker", attacker), ("--target", target), ("--attack", attack)) if v]
        if given:
            fail(f"{', '.join(given)}: needs a SCENARIO file before the options")
    try:
        if scenario is not None:
            profile, target_hp = odds_report.from_scenario(scenario, attacker, target, attack, ruleset)
            report = odds_report.compute(profile.label, profile, (profile,), hp if hp is not None else target_hp,
                                         rounds)
        else:
            profile, attacks = odds_report.from_flags(
                bonus=bonus, ac=ac, damage=damage, crit=crit, iterative_text=iteratives, concealment=concealment,
                extra=extra, spell=spell, min_damage=min_damage, ruleset_id=ruleset)
            report = odds_report.compute(profile.label, profile, attacks, hp, rounds)
    except ScenarioError as exc:
        fail(scenario_message(scenario or Path("scenario"), exc))
    except OddsError as exc:
        fail(one_line(str(exc)))
    for part in odds_report.render(report):
        console.print(part)
