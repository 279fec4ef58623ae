"""CMV-COV-08, EP-AOO-01..17: the kernel's quick answer "is an attack of opportunity offered here?" (``kernel_offers``,
what the AI's path risks and every step of a provoking move ask) is exactly the legality of the full plan of that
attack (``kernel_reactions.aoo_plan``), on the states of played off-guard battles (random maps, every terrain,
dark squares, soft cover, low walls, variants sampled), each creature moved to every free square in reach of each
enemy."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from tests.simulation.fast.hybrids import battles

from d20combat.scenario import battle_from_data
from d20combat.simulation.fast import kernel_base as k
from d20combat.simulation.fast.compile import NotCompilable, compile_battle
from d20combat.simulation.fast.kernel_fear import move_options
from d20combat.simulation.fast.kernel_reactions import _could, aoo_plan, offered_at, path_risks
from d20combat.simulation.fast.layout import SIDE, SIZE
from d20combat.simulation.fast.paths import FOUND, FOUND_PATHS
from d20combat.simulation.fast.paths import workspace as search_workspace
from d20combat.simulation.fast.runner import battle_workspace, board, play_fast, world


def _variants(rnd: random.Random) -> dict[str, Any]:
    return {"cmv_concealment_stack": rnd.choice(["add", "independent"]),
            "cmv_soft_cover_ranged_only": rnd.random() < 0.3,
            "cmv_higher_ground_melee_only": rnd.random() < 0.3}


def test_the_quick_answer_is_the_full_plans_legality() -> None:
    compared = offered = 0
    for data, rnd in battles(12, 57):
        rows = data.get("map", {}).get("rows")
        if rows:
            data = {**data, "map": {**data["map"], "rows": ["".join(rnd.choice("dD") if ch == "." and
                                                                   rnd.random() < 0.2 else ch for ch in row)
                                                           for row in rows]}}
        game = {**data, "ruleset": "off-guard", "variants": _variants(rnd),
                "combatants": [{x: v for x, v in c.items() if x != "conditions"} for c in data["combatants"]]}
        try:
            cb = compile_battle(battle_from_data(game, "scenario", None))
        except NotCompilable:
            continue
        result = play_fast(cb, 3)
        s = result.state.copy()
        s[:, k.REACT] = 1
        t = result.scalars.copy()
        n = s.shape[0]
        occ = np.zeros(cb.walls.shape, dtype=np.int16)
        for i in range(n):
            occ[s[i, k.PC]:s[i, k.PC] + cb.cs[i, SIZE], s[i, k.PR]:s[i, k.PR] + cb.cs[i, SIZE]] += 1
        w, m = world(cb), board(cb)
        m = (*m, search_workspace(30, int(cb.cs[:, SIZE].max())), cb.low_walls.copy())
        width, height = cb.walls.shape
        for mover in range(n):
            size = int(cb.cs[mover, SIZE])
            for enemy in range(n):
                if cb.cs[enemy, SIDE] == cb.cs[mover, SIDE]:
                    continue
                ec, er = int(s[enemy, k.PC]), int(s[enemy, k.PR])
                for c in range(max(ec - 3, 0), min(ec + 4, width - size + 1)):
                    for r in range(max(er - 3, 0), min(er + 4, height - size + 1)):
                        if not _could(s, cb.cs, cb.opt, cb.kn, enemy, c, r, size):
                            continue
                        quick = offered_at(w, m, s, t, occ, enemy, mover, c, r)
                        c0, r0 = int(s[mover, k.PC]), int(s[mover, k.PR])
                        k.occupy(occ, s, cb.cs, mover, -1)
                        s[mover, k.PC], s[mover, k.PR] = c, r
                        k.occupy(occ, s, cb.cs, mover, 1)
                        full = aoo_plan(w, m, s, t, occ, enemy, mover)[0]
                        k.occupy(occ, s, cb.cs, mover, -1)
                        s[mover, k.PC], s[mover, k.PR] = c0, r0
                        k.occupy(occ, s, cb.cs, mover, 1)
                        assert quick == full, (data.get("name"), mover, enemy, c, r)
                        compared += 1
                        offered += int(full)
    assert compared > 200 and 0 < offered < compared, (compared, offered)


def test_path_risks_count_each_paths_offers_whatever_paths_are_asked() -> None:
    """CMV-COV-08, EP-AOO-10/11: the AI's path risks (``kernel_reactions.path_risks``, each (square, enemy) judged
    only while a path still needs it) count, for every path the move search found, the enemies offered an attack
    of opportunity at some square it leaves — as judging every square of every path one by one does; and asking
    for some of the paths only (the melee AI asks for those that end in reach first) gives those paths' counts."""
    checked = risky = 0
    for data, rnd in battles(10, 91):
        game = {**data, "ruleset": "off-guard", "variants": _variants(rnd),
                "combatants": [{x: v for x, v in c.items() if x != "conditions"} for c in data["combatants"]]}
        try:
            cb = compile_battle(battle_from_data(game, "scenario", None))
        except NotCompilable:
            continue
        result = play_fast(cb, 5)
        s = result.state.copy()
        s[:, k.REACT] = 1
        t = result.scalars.copy()
        n_all = s.shape[0]
        occ = np.zeros(cb.walls.shape, dtype=np.int16)
        for i in range(n_all):
            occ[s[i, k.PC]:s[i, k.PC] + cb.cs[i, SIZE], s[i, k.PR]:s[i, k.PR] + cb.cs[i, SIZE]] += 1
        ws = battle_workspace(cb)
        w, m = world(cb), board(cb)
        m = (*m, ws, cb.low_walls.copy())
        order = np.arange(n_all, dtype=np.int64)
        for mover in range(n_all):
            if s[mover, k.DOWN]:
                continue
            n = move_options(w, m, s, t, mover)
            found, paths = ws[FOUND], ws[FOUND_PATHS]
            full = path_risks(w, m, s, t, occ, order, mover, found, paths, n, np.arange(n, dtype=np.int64))
            for p in range(n):
                left = [(int(s[mover, k.PC]), int(s[mover, k.PR]))]
                left += [(int(paths[p, i, 0]), int(paths[p, i, 1])) for i in range(found[p, 4] - 1)]
                offers = {e for e in range(n_all) if cb.cs[e, SIDE] != cb.cs[mover, SIDE]
                          for c, r in left if offered_at(w, m, s, t, occ, e, mover, c, r)}
                assert full[p] == len(offers), (data.get("name"), mover, p)
                checked += 1
                risky += int(full[p] > 0)
            asked = np.array(sorted(rnd.sample(range(n), n // 3)), dtype=np.int64)
            some = path_risks(w, m, s, t, occ, order, mover, found, paths, n, asked)
            assert list(some[asked]) == list(full[asked])
            assert not np.delete(some, asked).any()
    assert checked > 500 and 0 < risky < checked, (checked, risky)
