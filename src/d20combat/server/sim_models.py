"""The request and answer shapes of the simulation routes (``/api/simulations``, jobs)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from d20combat.server.models import SEED_MAX, _In
from d20combat.server.simulations import BUDGET_SECONDS, MAX_N, REFERENCE_LIMIT


class SimulateIn(_In):
    example: str | None = Field(None, max_length=200, description="the name of a shipped example")
    scenario: dict[str, Any] | None = Field(None, description="a scenario in the scenario format")
    scenario_yaml: str | None = Field(None, max_length=1_000_000, description="a scenario as YAML or JSON text")
    n: int = Field(1000, ge=1, le=MAX_N, description=f"encounters to play (the reference engine: at most "
                   f"{REFERENCE_LIMIT:,}); a simulation plays for at most {BUDGET_SECONDS:g} s, then answers "
                   "with the encounters it finished")
    seed: int = Field(0, ge=0, le=SEED_MAX, description="master seed: same seed, same results")
    engine: Literal["auto", "fast", "reference"] = Field(
        "auto", description="auto: the compiled fast path where it replays the scenario exactly")
    ruleset: str | None = Field(None, max_length=100, description="play the scenario under another ruleset")


class SideOut(BaseModel):
    side: str
    wins: int
    rate: float
    low: float = Field(description="95 % Wilson interval")
    high: float


class CombatantOutcome(BaseModel):
    id: str
    side: str
    dealt_mean: float
    taken_mean: float
    downed_rate: float
    killed_rate: float


class SimulationOut(BaseModel):
    n: int
    seed: int
    sides: list[SideOut]
    draws: int
    timeouts: int
    rounds_mean: float
    rounds_median: float
    rounds_histogram: dict[str, int]
    attacks_mean: float
    combatants: list[CombatantOutcome]
    n_requested: int = Field(description="the n asked for; n is the encounters actually played")
    stopped: Literal["time budget", "cancelled"] | None = Field(
        description="why fewer than n_requested were played (null: all were)")
    engine: Literal["fast", "reference"]
    engine_reason: str


class JobCreated(BaseModel):
    id: str


class JobOut(BaseModel):
    id: str
    status: Literal["queued", "running", "done", "cancelled", "failed"] = Field(
        description="queued (waiting for a worker), running, done, cancelled (DELETE, or the server stopped) "
                    "or failed (see detail)")
    played: int = Field(description="encounters finished so far")
    n: int = Field(description="encounters asked for")
    result: SimulationOut | None = Field(
        description="when done (or cancelled after some encounters): the summary of those played")
    detail: str | None = Field(description="why it failed or was cancelled")
