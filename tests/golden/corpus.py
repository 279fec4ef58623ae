"""The golden battle corpus: seeded AI battles per ruleset whose event logs must stay byte-identical
across refactorings (issue 10). Shared by the fast path's equivalence tests.

A corpus entry is (ruleset, index) → a scenario dict and a dice seed. The examples of each ruleset come
first; the rest are random battles over every terrain of the legend, every bestiary creature (Large ones
too), 2–3 sides, sneaky sides, short round limits, crossbows and empty hands, the ruleset's variant options
sampled from its own options model, and (off-guard, skill-based) starting conditions.
"""

from __future__ import annotations

import hashlib
import random
import types
import typing
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
RULESETS = ("pathfinder-beginner", "off-guard", "skill-based")
PER_RULESET = 300

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

PFB_VARIANTS: dict[str, list[Any]] = {
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
"""PFB's options (kept literally: the fast path's equivalence battles were recorded with exactly these)."""

CONDITIONS: dict[str, list[str]] = {
    "off-guard": ["prone", "shaken", "fatigued", "exhausted", "sickened", "dazed", "deafened", "disoriented",
                  "debilitated", "blinded", "off-guard", "stunned", "blur", "wounded", "held", "cowering",
                  "frightened:{foe}:12", "panicked:{foe}:12"],
    "skill-based": ["two-weapon fighting", "prone"],
}


NEEDS_SHEET_DATA = {"skl_init_agility_score"}
"""Options that need data the bestiary's stat blocks lack (an Agility score); the unit tests cover them."""


def option_values(ruleset_id: str) -> dict[str, list[Any]]:
    """Every variant option of a ruleset with the values a random battle may give it, read from its options model
    (booleans both ways, literals every value, bounded integers a few values; free-form fields are left out)."""
    if ruleset_id == "pathfinder-beginner":
        return PFB_VARIANTS
    from d20combat.rulesets import RULESETS

    model = RULESETS[ruleset_id].Options
    out: dict[str, list[Any]] = {}
    for name, field in model.model_fields.items():
        if name in NEEDS_SHEET_DATA:
            continue
        ann = field.annotation
        if ann is bool:
            out[name] = [True, False]
        elif typing.get_origin(ann) is typing.Literal:
            out[name] = list(typing.get_args(ann))
        elif ann is int or (isinstance(ann, types.UnionType) and int in typing.get_args(ann)):
            lo = next((m.ge for m in field.metadata if hasattr(m, "ge")), 0)
            out[name] = sorted({lo, lo + 1, lo + 2, field.default if isinstance(field.default, int) else lo})
    return out


def random_battle(seed: int, ruleset: str = "pathfinder-beginner") -> dict[str, Any]:
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
    values = option_values(ruleset)
    if ruleset == "pathfinder-beginner":
        variants = {name: rnd.choice(vals) for name, vals in values.items() if rnd.random() < 0.3}
    else:
        # Each option draws from its own stream, so a new option changes only the battles that draw it.
        variants = {}
        for name, vals in values.items():
            own = random.Random(f"{seed}:{name}")
            if own.random() < 0.3:
                variants[name] = own.choice(vals)
    scenario: dict[str, Any] = {
        "name": f"random battle {seed}",
        "ruleset": ruleset,
        "map": {"rows": ["".join(row) for row in rows]},
        "combatants": combatants,
        "max_rounds": rnd.choice([3, 10, 100, 100]),
    }
    if ruleset in CONDITIONS and len(combatants) > 1:
        # Starting conditions (only for rulesets that define a condition table; PFB battles stay as recorded).
        for entry in combatants:
            if rnd.random() < 0.2:
                foe = next(e["id"] for e in combatants if e["side"] != entry["side"]) if any(
                    e["side"] != entry["side"] for e in combatants) else entry["id"]
                entry["conditions"] = [rnd.choice(CONDITIONS[ruleset]).format(foe=foe)]
    if variants:
        scenario["variants"] = variants
    return scenario


def examples_of(ruleset: str) -> list[tuple[str, dict[str, Any]]]:
    """Every shipped example, played under ``ruleset`` (its own, or switched to it). Examples written for a ruleset
    that has no recorded corpus yet (epic-path) are left out, so the recorded corpus stays as it was recorded."""
    out = []
    for path in sorted(EXAMPLES.glob("*.yaml")):
        data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
        if data.get("ruleset", "pathfinder-beginner") not in RULESETS:
            continue  # an example of a ruleset the corpus was not recorded with (epic-path): its own tests play it
        if data.get("ruleset", "pathfinder-beginner") != ruleset:
            data = {**data, "ruleset": ruleset}
            data.pop("variants", None)
        out.append((path.stem, data))
    return out


def corpus(ruleset: str, n: int = PER_RULESET) -> list[tuple[str, dict[str, Any], int]]:
    """(name, scenario, dice seed) for the first ``n`` battles of a ruleset's corpus."""
    items: list[tuple[str, dict[str, Any], int]] = []
    for name, data in examples_of(ruleset):
        for seed in (1, 2, 3):
            items.append((f"{name}@{seed}", data, seed))
    i = 0
    while len(items) < n:
        items.append((f"random-{i}", random_battle(10_000 + i, ruleset), i))
        i += 1
    return items[:n]


def play_log(data: dict[str, Any], seed: int) -> bytes:
    """The AI battle's event log, as ``d20combat run --log`` writes it."""
    from d20combat.controllers import TacticalAI, play
    from d20combat.dice import SeededDice
    from d20combat.encounter.engine import Encounter
    from d20combat.scenario import battle_from_data

    battle = battle_from_data(data, "scenario", None)
    enc = play(Encounter(battle, SeededDice(seed)), TacticalAI())
    return "".join(e.to_json() + "\n" for e in enc.log).encode("utf-8")


def digest(log: bytes) -> str:
    return hashlib.sha256(log).hexdigest()
