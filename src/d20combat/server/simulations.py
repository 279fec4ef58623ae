"""The designers' lab over HTTP: Monte Carlo of a scenario (win rates with 95 % intervals, rounds, damage)."""

from __future__ import annotations

from d20combat.server.inputs import Json, Rejected
from d20combat.server.live import build_battle, scenario_data

REFERENCE_LIMIT = 2000
"""The most encounters one HTTP request may ask of the reference engine (about 100 s)."""


def simulate(*, example: str | None = None, scenario: Json | None = None, scenario_yaml: str | None = None,
             n: int = 1000, seed: int = 0, engine: str = "auto", ruleset: str | None = None) -> Json:
    """Monte Carlo of a scenario, on the fast path where it replays the scenario, in this process."""
    from d20combat.simulation import simulate_outcomes, summarize
    from d20combat.simulation.runner import engine_for, sides_of

    data, where = scenario_data(example, scenario, scenario_yaml)
    if ruleset is not None:
        data = {**data, "ruleset": ruleset}
        data.pop("variants", None)  # another ruleset's variant options mean nothing here
    build_battle(data, where)
    try:
        chosen, why = engine_for(data, None, engine)
    except ValueError as exc:
        raise Rejected(f"engine: {exc}") from None
    if chosen == "reference" and n > REFERENCE_LIMIT:
        raise Rejected(f"n: {n} encounters on the reference engine (about 20 a second) is too many for one "
                       f"request; at most {REFERENCE_LIMIT} (the fast path cannot play it: {why})")
    outcomes = simulate_outcomes(data, n, seed=seed, engine=chosen)
    summary = summarize(outcomes, sides_of(data), seed).to_dict()
    return {**summary, "engine": chosen, "engine_reason": why}
