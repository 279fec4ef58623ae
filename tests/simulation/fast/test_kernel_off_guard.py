"""Everything of off-guard the kernel plays, together: off-guard's whole composition but its actions and tactics
under PFB's (every other area at once, so the components meet as they do in the ruleset: a staggered flanker at
half speed, a bloodied archer behind soft cover, the surprised off-guard and dying…), and the off-guard ruleset
itself with its reaction attacks off (``cmv_reaction_attack_rules: none``) — its coup de grace included — proven
event by event against the reference on the examples and random battles, variants sampled. Only the reaction
attacks (``ThreatenedSquareAoO``) are still refused."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

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


def _variants(rnd: random.Random) -> dict[str, Any]:
    return {
        "cmv_reaction_attack_rules": "none",
        "cmv_concealment_stack": rnd.choice(["add", "independent"]),
        "cmv_death_save_pass": rnd.choice(["staggered", "stable"]),
        "cmv_bloodied_rounding": rnd.choice(["up", "down"]),
        "cmv_charge_ac_from_start": rnd.random() < 0.7,
        "cmv_soft_cover_ranged_only": rnd.random() < 0.3,
        "cmv_higher_ground_melee_only": rnd.random() < 0.3,
        "cmv_cdg_survivor_keeps_state": rnd.random() < 0.3,
        "cmv_cdg_find_removes_miss_chance": rnd.random() < 0.7,
        "cmv_surprise_unseen_attacker": rnd.random() < 0.7,
    }


def test_the_off_guard_ruleset_without_reaction_attacks_replays_the_reference_log() -> None:
    """CMV-CDG-01..11 with everything else: the AI's coup de grace on a helpless foe (a melee strike at +4, or a
    projectile from an adjacent square), the death save DC 10 + its damage, dead or a staggered survivor; in
    the dark the finding action first; on half the maps a third of the floor dark."""
    seen: set[str] = set()
    for data, rnd in battles(60, 31):
        rows = data.get("map", {}).get("rows")
        if rows and rnd.random() < 0.5:
            data = {**data, "map": {**data["map"], "rows": ["".join(rnd.choice("dD") if ch == "." and
                                                                   rnd.random() < 0.33 else ch for ch in row)
                                                           for row in rows]}}
        game = {**data, "ruleset": "off-guard", "variants": _variants(rnd),
                "combatants": [{k: v for k, v in c.items() if k != "conditions"} for c in data["combatants"]]}
        for seed in (0, 1):
            for e in replay(game, seed):
                if isinstance(e, ev.BudgetSpent) and e.action.split(" ")[0] in ("coup", "find"):
                    seen.add(e.action.split(" ")[0])
                elif isinstance(e, ev.Note) and "coup de grace" in e.text:
                    seen.add("survives" if "survives" in e.text else "save")
                elif isinstance(e, ev.ConditionSet) and "coup de grace" in e.reason:
                    seen.add(e.reason.split(" ")[0])
    assert {"coup", "save", "slain", "survives"} <= seen, seen


def test_only_the_reaction_attacks_are_left() -> None:
    """The off-guard ruleset names only its reaction attacks; with them off, nothing."""
    assert unsupported_components(get_ruleset(HybridPathfinder.id, {"hybrid_areas": list(PORTED),
                                                                     "cmv_reaction_attack_rules": "none"})) == []
    left = [m.split("=")[0] for m in unsupported_components(get_ruleset("off-guard"))]
    assert left == ["reactions"]
    assert unsupported_components(get_ruleset("off-guard", {"cmv_reaction_attack_rules": "none"})) == []
