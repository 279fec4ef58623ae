"""One battle: run it with the AI, play it at the terminal, replay its log, validate its scenario."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from d20combat.cli.io import (
    MAX_LOG_BYTES,
    console,
    fail,
    load_scenario,
    one_line,
    read_text_file,
    writable_output,
    write_output,
)
from d20combat.cli.rounds import RoundSummary
from d20combat.controllers import TacticalAI, play
from d20combat.dice import SeededDice
from d20combat.encounter import events as ev
from d20combat.encounter.engine import Encounter
from d20combat.render import describe_event, draw_map, summary

ScenarioArg = Annotated[Path, typer.Argument(help="scenario file (YAML or JSON)")]
LogOption = Annotated[Path | None, typer.Option(help="write the event log here (JSON lines)")]
RulesetOption = Annotated[str | None, typer.Option(help="override the scenario's ruleset")]


def _write_log(enc: Encounter, log: Path | None) -> None:
    if log is None:
        return
    from d20combat.replay import log_text

    write_output(log, log_text(enc), "--log")
    console.print(f"event log: {log} ({len(enc.log)} events)", markup=False)


def run(
    scenario: ScenarioArg,
    seed: Annotated[int, typer.Option(help="dice seed: same seed, same battle")] = 1,
    log: LogOption = None,
    ruleset: RulesetOption = None,
    quiet: Annotated[bool, typer.Option(help="print only the summary")] = False,
) -> None:
    """Play SCENARIO to the end with the tactical AI on every side, explaining every number."""
    writable_output(log, "--log")
    _, battle = load_scenario(scenario, ruleset)
    enc = Encounter(battle, SeededDice(seed))
    name = battle.scenario.get("name", scenario.name)
    console.print(f"[bold]{_escape(str(name))}[/] — ruleset {battle.ruleset.id}, seed {seed}")
    rounds = RoundSummary(enc)

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
            for line in rounds.see(e):  # a declaration phase: the round's declarations and initiative
                console.print(line, markup=False)

    play(enc, TacticalAI(), on_events=show)
    console.print()
    console.print(summary(enc), markup=False)
    _write_log(enc, log)


def play_at_the_table(
    scenario: ScenarioArg,
    human: Annotated[list[str], typer.Option(help="a side you play at the terminal (repeat); the AI plays "
                                                  "the others")] = [],  # noqa: B006
    seed: Annotated[int, typer.Option(help="dice seed for the dice you do not type")] = 1,
    typed_dice: Annotated[bool, typer.Option(help="ask for every die: type the physical roll (14 or d20=14), "
                                                  "or Enter to let the computer roll it")] = False,
    ruleset: RulesetOption = None,
    log: LogOption = None,
) -> None:
    """Play SCENARIO at the terminal: choose the actions of your sides, answer reaction prompts, type dice."""
    from d20combat.controllers import Controller
    from d20combat.controllers.console import ConsoleController, typed_die_asker
    from d20combat.dice import DiceError, TypedDice
    from d20combat.encounter.engine import IllegalAction

    writable_output(log, "--log")
    _, battle = load_scenario(scenario, ruleset)
    unknown = sorted(set(human) - set(battle.sides))
    if unknown:
        fail(f"--human {', '.join(unknown)}: the sides are {', '.join(battle.sides)}")

    def ask(text: str) -> str:
        return str(typer.prompt(text, default="", show_default=False, prompt_suffix=": "))

    def say(text: str) -> None:
        console.print(text, markup=False)

    dice = TypedDice(typed_die_asker(ask, say), fallback=SeededDice(seed)) if typed_dice else SeededDice(seed)
    enc = Encounter(battle, dice)
    person = ConsoleController(ask, say)
    ai = TacticalAI()
    controllers: dict[str, Controller] = {side: (person if side in human else ai) for side in battle.sides}
    rounds = RoundSummary(enc)

    def show(events: list[ev.Event]) -> None:
        for e in events:
            text = describe_event(enc, e)
            if text:
                console.print(text, markup=False)
            for line in rounds.see(e):
                console.print(line, markup=False)
            if isinstance(e, ev.RoundStarted):
                console.print(draw_map(enc), markup=False)

    show(enc.start())
    while not enc.state.ended:
        try:
            if enc.pending is not None:
                prompt = enc.pending.prompt
                show(enc.respond(controllers[enc.creature(prompt.reactor).side].react(enc, prompt)))
            elif enc.state.actor is not None:  # the creature declaring (WOA-CYCLE-14) or whose turn it is
                show(enc.act(controllers[enc.creature(enc.state.actor).side].choose(enc)))
            else:
                break
        except (IllegalAction, DiceError) as exc:
            say(f"  refused, nothing changed: {exc}")
    console.print()
    console.print(summary(enc), markup=False)
    _write_log(enc, log)


def replay(log: Annotated[Path, typer.Argument(help="an event log written by 'run --log'")]) -> None:
    """Rebuild an encounter from its event log and print its final state."""
    from d20combat.replay import encounter_from_log, read_log

    read_text_file(log, "an event log", MAX_LOG_BYTES)  # readable, bounded, UTF-8: before parsing it
    try:
        enc = encounter_from_log(read_log(log))
    except RecursionError:
        fail(f"{log}: nested too deeply to be an event log")
    except (ValueError, OSError) as exc:  # replay.LogError (a ValueError) names the first bad event
        fail(f"{log}: {one_line(str(exc)) or type(exc).__name__}")
    except (KeyError, TypeError, AttributeError, IndexError, AssertionError) as exc:
        fail(f"{log}: not a valid event log: an event cannot be applied ({type(exc).__name__}: "
             f"{one_line(str(exc))})")
    console.print(draw_map(enc), markup=False)
    console.print(summary(enc), markup=False)


def validate(scenario: ScenarioArg) -> None:
    """Check SCENARIO and list every problem with its field path."""
    _, battle = load_scenario(scenario, code=1)
    console.print(f"{scenario}: ok — {len(battle.creatures)} combatants, sides {', '.join(battle.sides)}, "
                  f"{battle.game_map.width}×{battle.game_map.height} map, ruleset {battle.ruleset.id}", markup=False)


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)
