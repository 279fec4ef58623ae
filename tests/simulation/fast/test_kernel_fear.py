"""Off-guard's fear in the kernel, piece by piece against the reference's own functions (the whole battles are in
``test_equivalence.py``): the source of a panic (CMV-COND-27/28) and being cornered (CMV-COND-26/29) on every
square of the misty ford, with the other creatures where the example puts them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint
from d20combat.dice import SeededDice
from d20combat.encounter.engine import Encounter, initial_state
from d20combat.numbers import total
from d20combat.scenario import battle_from_data
from d20combat.simulation.fast import kernel_base as k
from d20combat.simulation.fast.compile import compile_battle
from d20combat.simulation.fast.kernel_fear import cornered, fear_source, flee_square
from d20combat.simulation.fast.layout import FEAR_DC, FEAR_SRC, SIZE, SPEED, WILL_SAVE
from d20combat.simulation.fast.paths import FOUND
from d20combat.simulation.fast.paths import workspace as search_workspace
from d20combat.simulation.fast.runner import board, world

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _ford(coward_conditions: list[str]) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((EXAMPLES / "off-guard-ambush.yaml").read_text(encoding="utf-8"))
    data["combatants"][5]["conditions"] = coward_conditions
    return data


def _kernel_state(cb: Any, positions: dict[str, tuple[int, int]]) -> tuple[Any, Any, Any, Any]:
    """The arrays the kernel plays on, the creatures where ``positions`` says (as the runner fills them)."""
    n = len(cb.ids)
    s = np.zeros((n, k.LOADED + cb.loaded0.shape[1] + 64), dtype=np.int64)
    for i, cid in enumerate(cb.ids):
        s[i, k.PC], s[i, k.PR] = positions[cid]
    s[:, k.HP] = cb.hp0
    t = np.zeros(k.N_T, dtype=np.int64)
    w = world(cb)
    m = (*board(cb), search_workspace(max(int(np.max(cb.cs[:, SPEED])), 60), int(np.max(cb.cs[:, SIZE]))),
         cb.low_walls.copy())
    return s, t, w, m


def test_a_panics_source_is_the_creature_it_names_or_the_nearest_foe() -> None:
    """CMV-COND-27/28 (``Fear.source``): ``panicked:valeros:12`` is afraid of Valeros, DC 12, its Will save shaken
    (−2, CMV-COND-24); a bare ``panicked`` of the nearest foe, never overcome."""
    named = compile_battle(battle_from_data(_ford(["panicked:valeros:12"]), "scenario", None))
    coward = named.ids.index("coward")
    assert named.cs[coward, FEAR_SRC] == named.ids.index("valeros") and named.cs[coward, FEAR_DC] == 12
    rs = named.battle.ruleset
    calm = initial_state(battle_from_data(_ford([]), "scenario", None)).get("coward")
    will = total(0, rs.saves.save_modifiers(named.battle.creatures["coward"], calm, "will")).value
    assert named.cs[coward, WILL_SAVE] == will - 2  # shaken's −2 while panicked
    bare = compile_battle(battle_from_data(_ford(["panicked"]), "scenario", None))
    assert bare.cs[coward, FEAR_SRC] == -1 and bare.cs[coward, FEAR_DC] == -1
    positions = {cid: (int(bare.pos0[i, 0]), int(bare.pos0[i, 1])) for i, cid in enumerate(bare.ids)}
    s, _t, _w, _m = _kernel_state(bare, positions)
    assert bare.ids[fear_source(s, bare.cs, coward)] == "valeros"  # (5, 5) is 5 ft from (4, 4)
    positions["coward"] = (9, 10)
    s, _t, _w, _m = _kernel_state(bare, positions)
    assert bare.ids[fear_source(s, bare.cs, coward)] == "kyra"  # (6, 9) is the nearest hero now


def test_cornered_and_the_flight_are_the_references_on_every_square() -> None:
    """CMV-COND-26/29 (``Fear.cornered``): no square one move reaches is farther from Valeros; CMV-COND-28
    (``CmvTactics.flee``): the farthest square, then the cheapest — the coward put on every free square of the
    ford, Valeros where he stands."""
    data = _ford(["panicked:valeros:12"])
    battle = battle_from_data(data, "scenario", None)
    cb = compile_battle(battle)
    enc = Encounter(battle, SeededDice(1))
    enc.start()
    coward, valeros = cb.ids.index("coward"), cb.ids.index("valeros")
    fear = battle.ruleset.tactics.fear
    positions = {cid: (int(cb.pos0[i, 0]), int(cb.pos0[i, 1])) for i, cid in enumerate(cb.ids)}
    taken = {sq for cid, sq in positions.items() if cid != "coward"}
    gm = battle.game_map
    seen = {True: 0, False: 0}
    for c in range(gm.width):
        for r in range(gm.height):
            if (c, r) in taken or not cb.passable[c, r]:
                continue
            state = enc.state.with_combatant(replace(enc.state.get("coward"), position=(c, r)))
            view = enc.view(state)
            source = fear.source(view, "coward", "panicked")
            expected = fear.cornered(view, "coward", source)
            s, t, w, m = _kernel_state(cb, {**positions, "coward": (c, r)})
            assert cornered(w, m, s, t, coward, valeros) == expected, (c, r)
            seen[expected] += 1
            here = footprint_distance_ft(Footprint((c, r), 1), source)
            options = enc.move_options("coward", state)
            best = max(options.items(), key=lambda kv: (footprint_distance_ft(Footprint(kv[0], 1), source),
                                                        -kv[1].cost_ft, (-kv[0][0], -kv[0][1])))
            want = best[0] if footprint_distance_ft(Footprint(best[0], 1), source) > here else None
            got = flee_square(w, m, s, t, coward, valeros)
            assert (None if got == -1 else tuple(int(x) for x in m[8][FOUND][got, :2])) == want, (c, r)
    assert seen[True] and seen[False], seen
