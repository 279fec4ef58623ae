"""The designers' lab over HTTP: Monte Carlo of a scenario (win rates with 95 % intervals, rounds, damage).

A request is checked here, in the server (:func:`prepare`: a bad scenario is a 422 at once), and played in
a worker process (:func:`compute`, run by :mod:`d20combat.server.jobs`), which asks a ``halt`` between
encounters — and between actions on the reference engine — so a cancelled, disconnected or over-budget
simulation stops within moments and answers with the encounters it finished.
"""

from __future__ import annotations

from collections.abc import Callable

from d20combat.server.inputs import Json, Rejected
from d20combat.server.live import build_battle, scenario_data

MAX_N = 100_000
"""The most encounters one simulation may ask for."""
REFERENCE_LIMIT = 2000
"""The most encounters one simulation may ask of the reference engine (about 100 s)."""
BUDGET_SECONDS = 60.0
"""Wall-clock seconds one simulation may play in its worker; then it stops and answers with the encounters it
finished (``stopped: "time budget"``)."""


def prepare(*, example: str | None = None, scenario: Json | None = None, scenario_yaml: str | None = None,
            n: int = 1000, seed: int = 0, engine: str = "auto", ruleset: str | None = None) -> Json:
    """Check a simulation request and choose its engine: the task :func:`compute` plays; a bad one is
    :class:`Rejected` naming the field."""
    from d20combat.simulation.runner import engine_for

    data, where = scenario_data(example, scenario, scenario_yaml)
    if ruleset is not None:
        data = {**data, "ruleset": ruleset}
        data.pop("variants", None)  # another ruleset's variant options mean nothing here
    build_battle(data, where)
    try:
        chosen, why = engine_for(data, None, engine)
    except ValueError as exc:
        raise Rejected(f"engine: {exc}") from None
    if n > MAX_N:
        raise Rejected(f"n: {n} encounters is too many for one simulation; at most {MAX_N}")
    if chosen == "reference" and n > REFERENCE_LIMIT:
        raise Rejected(f"n: {n} encounters on the reference engine (about 20 a second) is too many for one "
                       f"request; at most {REFERENCE_LIMIT} (the fast path cannot play it: {why})")
    return {"scenario": data, "n": n, "seed": seed, "engine": chosen, "engine_reason": why}


def compute(task: Json, halt: Callable[[], bool] | None = None,
            progress: Callable[[int], None] | None = None) -> Json | None:
    """Play a prepared task: the summary of the encounters finished (``n`` of them: fewer than asked when
    ``halt`` stopped it), or None when ``halt`` stopped it before the first one finished."""
    from d20combat.simulation import simulate_outcomes, summarize
    from d20combat.simulation.runner import sides_of

    data, seed = task["scenario"], int(task["seed"])
    outcomes = simulate_outcomes(data, int(task["n"]), seed=seed, engine=task["engine"], halt=halt,
                                 progress=progress)
    if not outcomes:
        return None
    summary = summarize(outcomes, sides_of(data), seed).to_dict()
    return {**summary, "n_requested": int(task["n"]), "stopped": None, "engine": task["engine"],
            "engine_reason": task["engine_reason"]}


def simulate(*, example: str | None = None, scenario: Json | None = None, scenario_yaml: str | None = None,
             n: int = 1000, seed: int = 0, engine: str = "auto", ruleset: str | None = None) -> Json:
    """Monte Carlo of a scenario in this process, to the end (no budget: the server uses workers)."""
    task = prepare(example=example, scenario=scenario, scenario_yaml=scenario_yaml, n=n, seed=seed,
                   engine=engine, ruleset=ruleset)
    result = compute(task)
    assert result is not None
    return result
