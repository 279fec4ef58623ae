"""Everything of off-guard the kernel plays, together: off-guard's whole composition but its actions and tactics
under PFB's (every other area at once, so the components meet as they do in the ruleset: a staggered flanker at
half speed, a bloodied archer behind soft cover, the surprised off-guard and dying…), proven event by event
against the reference on the examples and random battles, variants sampled. The off-guard ruleset itself (its
coup de grace and reaction attacks included) is proven in ``test_equivalence.py``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.simulation.fast.hybrids import HybridPathfinder, battles, hybrid, register, replay

from d20combat.encounter import events as ev
from d20combat.rulesets import get_ruleset
from d20combat.rulesets.base import AREAS
from d20combat.simulation.fast.compile import unsupported_components

PORTED = tuple(area for area in AREAS if area not in ("stacking", "actions", "tactics"))


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    yield from register()


def test_off_guard_without_its_actions_and_tactics_replays_the_reference_log() -> None:
    kinds: set[str] = set()
    for data, rnd in battles(60, 99):
        variants = {
            "cmv_concealment_stack": rnd.choice(["add", "independent"]),
            "cmv_death_save_pass": rnd.choice(["staggered", "stable"]),
            "cmv_bloodied_rounding": rnd.choice(["up", "down"]),
            "cmv_charge_ac_from_start": rnd.random() < 0.7,
            "cmv_soft_cover_ranged_only": rnd.random() < 0.3,
            "cmv_higher_ground_melee_only": rnd.random() < 0.3,
        }
        game = hybrid(data, PORTED, variants)
        for seed in (0, 1):
            log = replay(game, seed)
            kinds |= {e.kind for e in log}
            kinds |= {f"{e.condition} {e.present}" for e in log if isinstance(e, ev.ConditionSet)}
    assert {"condition_set", "stabilized", "healed", "off-guard True", "dead True", "staggered True"} <= kinds


def test_nothing_of_off_guard_is_refused() -> None:
    """Every component of the off-guard ruleset has its kernel implementation, with its reaction attacks on or
    off (what is still refused are battles the kernel does not model: starting conditions, fliers, and the maps
    and variants the compile steps name)."""
    assert unsupported_components(get_ruleset(HybridPathfinder.id, {"hybrid_areas": list(PORTED),
                                                                     "cmv_reaction_attack_rules": "none"})) == []
    assert unsupported_components(get_ruleset("off-guard")) == []
    assert unsupported_components(get_ruleset("off-guard", {"cmv_reaction_attack_rules": "none"})) == []
