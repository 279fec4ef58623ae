"""The designers' lab: Monte Carlo of whole encounters, sweeps of variants, plots."""

from d20combat.simulation.runner import Outcome, encounter_seed, play_one, simulate_outcomes
from d20combat.simulation.stats import Summary, summarize, wilson

__all__ = ["Outcome", "Summary", "encounter_seed", "play_one", "simulate_outcomes", "summarize", "wilson"]
