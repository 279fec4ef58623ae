"""Scenario files: schema, loading and validation."""

from d20combat.scenario.loader import (
    ScenarioError,
    battle_from_data,
    build_battle,
    load_battle,
    read_scenario_data,
    validate_scenario,
)
from d20combat.scenario.schema import Scenario

__all__ = [
    "Scenario",
    "ScenarioError",
    "battle_from_data",
    "build_battle",
    "load_battle",
    "read_scenario_data",
    "validate_scenario",
]
