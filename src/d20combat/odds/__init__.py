"""Exact odds (the designers' lab): hit, threat and critical chances, damage distributions and
rounds to bring a target down, computed exactly with ``icepool`` from the same ruleset policies the
engine rolls with.

    >>> from d20combat.odds import attack_odds, profile_from_numbers
    >>> attack_odds(profile_from_numbers(8, 18, "1d8+5", crit="19-20/x2")).p_hit
    Fraction(11, 20)
"""

from d20combat.odds.attack import (
    AttackOdds,
    AttackProfile,
    KillOdds,
    OddsError,
    Policies,
    RoundOdds,
    attack_odds,
    clear_caches,
    full_attack,
    iteratives,
    kill_odds,
    percentiles,
)
from d20combat.odds.profiles import (
    combatant_id,
    parse_crit,
    parse_iteratives,
    profile_from_encounter,
    profile_from_numbers,
)

__all__ = [
    "AttackOdds",
    "AttackProfile",
    "KillOdds",
    "OddsError",
    "Policies",
    "RoundOdds",
    "attack_odds",
    "clear_caches",
    "combatant_id",
    "full_attack",
    "iteratives",
    "kill_odds",
    "parse_crit",
    "parse_iteratives",
    "percentiles",
    "profile_from_encounter",
    "profile_from_numbers",
]
