"""Off-guard's attack on the fast path — the situational modifiers (CMV-SIT-01): bloodied −1 (CMV-INJ-02),
squeezing −4 (CMV-SIT-10), higher ground +1 (CMV-SIT-04, every attack or melee only), flanking +2 in melee
(CMV-COND-33/34) — proven against the reference under hybrids of Pathfinder Beginner with off-guard's attack,
alone or with the table, injury, economy, defense and movement, on maps given hills and narrow squares."""

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
from d20combat.simulation.fast.kernel_attack import crossing, flanks

OTHERS = ("conditions", "injury", "economy", "defense", "movement")


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    yield from register()


def _terrain(data: dict[str, Any], rnd: Any) -> dict[str, Any]:
    """Hills (elevation 5 or 10 on a sixth of the squares) and a few narrow squares."""
    rows = data.get("map", {}).get("rows")
    if not rows:
        return data
    w, h = max(len(row) for row in rows), len(rows)
    squares = [(c, r) for c in range(w) for r in range(h)]
    hills = rnd.sample(squares, len(squares) // 6)
    return {**data, "map": {**data["map"], "elevation": [[c, r, rnd.choice([5, 10])] for c, r in hills],
                            "narrow": [list(sq) for sq in rnd.sample(squares, max(len(squares) // 15, 1))]}}


def test_situational_modifiers_replay_the_reference_log() -> None:
    """Every attack's die and total equal the reference's, with the modifiers it names."""
    seen: set[str] = set()
    for data, rnd in battles(80, 5):
        areas = ["attack", *(area for area in OTHERS if rnd.random() < 0.5)]
        variants = {"cmv_higher_ground_melee_only": rnd.random() < 0.3,
                    "cmv_bloodied_rounding": rnd.choice(["up", "down"])}
        game = hybrid(_terrain(data, rnd) if rnd.random() < 0.7 else data, areas, variants)
        for seed in (0, 1):
            for e in replay(game, seed):
                if isinstance(e, ev.AttackResolved):
                    text = "\n".join(e.lines)
                    seen |= {word for word in ("higher ground", "flanking with", "squeezing", "bloodied")
                             if word in text}
    assert seen == {"higher ground", "flanking with", "squeezing", "bloodied"}, seen


def test_flanking_geometry_is_the_reference_geometry() -> None:
    """CMV-COND-34: the kernel's exact-fraction crossing test against ``battlefield.flanking`` over every
    placement of a 1- or 2-square attacker and ally around a 1- or 2-square defender."""
    from d20combat.battlefield.flanking import crossing as ref_crossing
    from d20combat.battlefield.flanking import flanks as ref_flanks
    from d20combat.battlefield.grid import Footprint

    bits = {"W": 1, "E": 2, "N": 4, "S": 8}
    for tn in (1, 2):
        for an in (1, 2):
            for ac in range(-2, 5):
                for ar in range(-2, 5):
                    for bc in range(-2, 5):
                        for br in range(-2, 5, 2):
                            got = flanks(ac, ar, an, bc, br, 1, 1, 1, tn)
                            assert got == ref_flanks(Footprint((ac, ar), an), Footprint((bc, br), 1),
                                                     Footprint((1, 1), tn))
    box = (2, 6, 2, 6)
    for p in [(1, 1), (1, 3), (3, 1), (7, 3), (3, 7), (1, 7)]:
        for q in [(7, 7), (7, 3), (3, 7), (1, 3), (5, 1)]:
            ref = ref_crossing(p, q, box)
            ok, enter, leave = crossing(*p, *q, *box)
            assert ok == (ref is not None)
            if ref is not None:
                assert (enter, leave) == (sum(bits[x] for x in ref[0]), sum(bits[x] for x in ref[1]))


def test_the_attack_is_chosen_by_data_and_narrow_openings_are_refused() -> None:
    assert unsupported_components(get_ruleset(HybridPathfinder.id, {"hybrid_areas": ["attack"]})) == []
    assert not any(m.startswith("attack=") for m in unsupported_components(get_ruleset("off-guard")))
    data, _ = next(battles(0, 0))
    battle = battle_from_data(hybrid(data, ["attack"], {}), "scenario", None)
    gm = replace(battle.game_map, narrow_openings=frozenset({(0, 0)}))
    with pytest.raises(NotCompilable, match="narrow openings"):
        compile_battle(replace(battle, game_map=gm))
