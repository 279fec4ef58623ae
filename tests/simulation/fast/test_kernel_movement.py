"""Off-guard's movement (staggered: half speed, CMV-INJ-07; the charge's −2 AC from the start of the charge,
PFB-CHG-12 with ``cmv_charge_ac_from_start``) and active defense (CMV-COND-08's fumble, which needs a deafened
caster) on the fast path, proven against the reference under hybrids of Pathfinder Beginner with those areas of
off-guard, alone or with the table, injury, economy and defense."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

import pytest
from tests.simulation.fast.hybrids import HybridPathfinder, battles, hybrid, register, replay

from d20combat.encounter import events as ev
from d20combat.rulesets import get_ruleset
from d20combat.simulation.fast.compile import unsupported_components

INJURY = ("conditions", "injury", "economy")


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    yield from register()


def test_half_speed_and_the_early_charge_penalty_replay_the_reference_log() -> None:
    """A staggered creature's moves reach half as far (under PFB's hit points, one at 0 hp or below); the
    charging effect is added before the charge's movement, or after it (variant)."""
    charges = {True: 0, False: 0}
    staggered_moves = 0
    for data, rnd in battles(60, 21):
        areas = ["movement", "active_defense", *(INJURY if rnd.random() < 0.6 else ())]
        if rnd.random() < 0.5:
            areas.append("defense")
        early = rnd.random() < 0.7
        game = hybrid(data, areas, {"cmv_charge_ac_from_start": early})
        for seed in (0, 1):
            log = replay(game, seed)
            for before, after in pairwise(log):
                if isinstance(before, ev.EffectAdded) and isinstance(after, ev.Moved) and after.mode == "charge":
                    charges[True] += 1
                if isinstance(before, ev.Moved) and before.mode == "charge" and isinstance(after, ev.EffectAdded):
                    charges[False] += 1
            staggered = set()
            for e in log:
                if isinstance(e, ev.ConditionSet) and e.condition == "staggered":
                    (staggered.add if e.present else staggered.discard)(e.target)
                elif isinstance(e, ev.Moved) and e.combatant in staggered and e.mode == "move":
                    staggered_moves += 1
    assert charges[True] and charges[False], charges
    assert staggered_moves


def test_movement_and_active_defense_are_chosen_by_data() -> None:
    assert unsupported_components(get_ruleset(HybridPathfinder.id, {"hybrid_areas": ["movement",
                                                                                      "active_defense"]})) == []
    missing = unsupported_components(get_ruleset("off-guard"))
    assert not any(m.split("=")[0] in ("movement", "active_defense") for m in missing), missing
