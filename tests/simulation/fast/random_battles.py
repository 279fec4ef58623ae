"""Random Pathfinder Beginner Box battles for the fast path's equivalence tests: random terrain of every
kind the legend has, random creatures of every size from the bestiary, sneaky sides, variant options."""

from __future__ import annotations

import random
from typing import Any

CHARS = ".......................#=~*fodDwt^"
STATS = ["fighter", "rogue", "wizard", "cleric", "goblin", "goblin-archer", "goblin-leader", "ogre", "wolf"]
SIZES = {"ogre": 2}
WEAPONS = {
    "fighter": ["longsword", "shortbow"], "rogue": ["rapier", "dagger-thrown"],
    "wizard": ["quarterstaff", "ray-of-frost", "light-crossbow"], "cleric": ["heavy-mace", "light-crossbow"],
    "goblin": ["short-sword-small", "shortbow-small"], "goblin-archer": ["shortbow-small", "short-sword-small"],
    "goblin-leader": ["longsword-small", "shortbow-small"],
}
"""What a creature may start with in hand instead of its usual weapon (crossbows reload, empty hands draw)."""
VARIANTS = {
    "pfb_step_uses_free_action": [True, False],
    "pfb_difficult_diagonal_skips_count": [True, False],
    "pfb_surprise_free_actions": [True, False],
    "pfb_into_melee_ignores_helpless_allies": [True, False],
    "pfb_ranged_min_range_ignores_helpless": [True, False],
    "pfb_cover_any_line_everywhere": [True, False],
    "pfb_reach_ranged_cover_only_nonadjacent": [True, False],
    "pfb_partial_cover": [True, False],
    "pfb_flat_footed_loses_dodge": [True, False],
    "pfb_touch_keeps_natural_armor": [True, False],
    "pfb_dying": ["pf1", "static"],
    "max_free_actions": [0, 1, 2],
}


def random_battle(seed: int) -> dict[str, Any]:
    """A scenario dict: a W×H map, two or three sides of 1–4 creatures on free squares."""
    rnd = random.Random(seed)
    w, h = rnd.randint(8, 18), rnd.randint(7, 14)
    rows = [[rnd.choice(CHARS) for _ in range(w)] for _ in range(h)]
    free = {(c, r) for r in range(h) for c in range(w) if rows[r][c] in ".~*fdDt="}
    taken: set[tuple[int, int]] = set()
    combatants: list[dict[str, Any]] = []
    n_sides = rnd.choice([2, 2, 2, 3])
    for side in range(n_sides):
        sneaky = rnd.random() < 0.25
        for k in range(rnd.randint(1, 4)):
            stats = rnd.choice(STATS)
            size = SIZES.get(stats, 1)
            for _ in range(200):
                c, r = rnd.randrange(w - size + 1), rnd.randrange(h - size + 1)
                block = {(c + dc, r + dr) for dc in range(size) for dr in range(size)}
                if block <= free and not block & taken:
                    taken |= block
                    entry: dict[str, Any] = {"id": f"s{side}c{k}", "side": f"side{side}", "stats": stats,
                                             "position": [c, r]}
                    if sneaky:
                        entry["sneaky"] = True
                    if stats in WEAPONS and rnd.random() < 0.3:
                        entry["wielding"] = rnd.choice([*WEAPONS[stats], None])
                    combatants.append(entry)
                    break
    variants = {name: rnd.choice(values) for name, values in VARIANTS.items() if rnd.random() < 0.3}
    scenario: dict[str, Any] = {
        "name": f"random battle {seed}",
        "ruleset": "pathfinder-beginner",
        "map": {"rows": ["".join(row) for row in rows]},
        "combatants": combatants,
        "max_rounds": rnd.choice([3, 10, 100, 100]),
    }
    if variants:
        scenario["variants"] = variants
    return scenario
