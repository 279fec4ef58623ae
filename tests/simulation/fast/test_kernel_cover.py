"""Off-guard's cover on the fast path (CMV-COV-01..07, 11, 14..17): the attacker's best corner of any of its
squares, soft cover from creatures (against reach attacks too, or not — variant), any line in adjacent melee and
never a creature there, low obstacles only within 30 ft of the target — proven against the reference under
hybrids of Pathfinder Beginner with off-guard's cover, alone or with its other ported areas, on maps given
low walls and crowds."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from tests.simulation.fast.hybrids import HybridPathfinder, battles, hybrid, register, replay

from d20combat.encounter import events as ev
from d20combat.rulesets import get_ruleset
from d20combat.scenario import battle_from_data
from d20combat.simulation.fast.compile import NotCompilable, compile_battle, unsupported_components

OTHERS = ("conditions", "injury", "economy", "defense", "movement", "attack", "active_defense")


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    yield from register()


def _low_walls(data: dict[str, Any], rnd: Any) -> dict[str, Any]:
    """A tenth of the plain floor turned into low walls (runs near and far from the fighters)."""
    rows = data.get("map", {}).get("rows")
    if not rows:
        return data
    return {**data, "map": {**data["map"], "rows": ["".join("=" if ch == "." and rnd.random() < 0.1 else ch
                                                            for ch in row) for row in rows]}}


def test_soft_and_improved_cover_replays_the_reference_log() -> None:
    seen: set[str] = set()
    for data, rnd in battles(100, 13):
        areas = ["cover", *(area for area in OTHERS if rnd.random() < 0.4)]
        variants = {"cmv_soft_cover_ranged_only": rnd.random() < 0.3}
        game = hybrid(_low_walls(data, rnd) if rnd.random() < 0.6 else data, areas, variants)
        for seed in (0, 1):
            for e in replay(game, seed):
                if isinstance(e, ev.AttackResolved):
                    text = "\n".join(e.lines)
                    seen |= {word for word in ("soft cover 4", "+ cover 4") if word in text}
    assert seen == {"soft cover 4", "+ cover 4"}, seen


def test_the_cover_is_chosen_by_data_and_improved_cover_is_refused() -> None:
    assert unsupported_components(get_ruleset(HybridPathfinder.id, {"hybrid_areas": ["cover"]})) == []
    assert not any(m.startswith("cover=") for m in unsupported_components(get_ruleset("off-guard")))
    data, _ = next(battles(0, 0))
    battle = battle_from_data(hybrid(data, ["cover"], {}), "scenario", None)
    with pytest.raises(NotCompilable, match="improved cover"):
        compile_battle(replace(battle, game_map=replace(battle.game_map, improved_cover=frozenset({(0, 0)}))))
    tie = battle_from_data(hybrid(data, ["cover"], {"cmv_low_obstacle_tie_keeps_cover": False}), "scenario", None)
    with pytest.raises(NotCompilable, match="cmv_low_obstacle_tie_keeps_cover"):
        compile_battle(tie)
