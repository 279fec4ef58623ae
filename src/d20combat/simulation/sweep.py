"""Sweeps: a grid of scenario variants ("goblin.count=2..10", "ogre.ac=14..20"), each simulated with
the same seed (common random numbers), one row per variant."""

from __future__ import annotations

import copy
import itertools
import re
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from d20combat.encounter.state import CombatantState
from d20combat.errors import D20CombatError
from d20combat.model.catalog import default_catalog
from d20combat.model.creature import compile_creature
from d20combat.model.statblock import StatBlock
from d20combat.rules.armor_class import DefenseContext, armor_class
from d20combat.scenario import battle_from_data

FIELDS = ("count", "hp", "ac", "attack_bonus", "speed")
_SPEC = re.compile(r"^\s*([A-Za-z][\w\-]*)\.(\w+)\s*=\s*(.+?)\s*$")


class SweepError(D20CombatError):
    """A --vary specification that cannot be applied; the message names it."""


@dataclass(frozen=True)
class Vary:
    combatant: str
    field: str
    values: tuple[int, ...]

    @property
    def label(self) -> str:
        return f"{self.combatant}.{self.field}"


def parse_vary(text: str) -> Vary:
    """``ID.FIELD=A..B`` (inclusive, optional ``:STEP``) or ``ID.FIELD=a,b,c``."""
    m = _SPEC.match(text)
    if not m:
        raise SweepError(f"--vary {text!r}: expected ID.FIELD=A..B or ID.FIELD=a,b,c (fields: {', '.join(FIELDS)})")
    cid, field, rng = m.groups()
    if field not in FIELDS:
        raise SweepError(f"--vary {text!r}: unknown field {field!r}; one of {', '.join(FIELDS)}")
    try:
        if ".." in rng:
            lo_s, hi_s = rng.split("..", 1)
            step = 1
            if ":" in hi_s:
                hi_s, step_s = hi_s.split(":", 1)
                step = int(step_s)
            lo, hi = int(lo_s), int(hi_s)
            if step <= 0 or hi < lo:
                raise ValueError
            values = tuple(range(lo, hi + 1, step))
        else:
            values = tuple(int(v) for v in rng.split(","))
    except ValueError:
        raise SweepError(f"--vary {text!r}: {rng!r} is not a range A..B (A ≤ B) or a list of integers") from None
    if len(values) > 200:
        raise SweepError(f"--vary {text!r}: {len(values)} values; at most 200")
    return Vary(cid, field, values)


def _entry(data: dict[str, Any], cid: str) -> dict[str, Any]:
    for entry in data.get("combatants", []):
        if entry.get("id") == cid:
            return entry  # type: ignore[no-any-return]
    known = ", ".join(str(e.get("id")) for e in data.get("combatants", []))
    raise SweepError(f"--vary: no combatant {cid!r} in the scenario (known: {known})")


def _inline_stats(entry: dict[str, Any]) -> dict[str, Any]:
    stats = entry["stats"]
    if isinstance(stats, str):
        catalog = default_catalog()
        if stats not in catalog.bestiary:
            raise SweepError(f"--vary: {entry['id']!r} uses an unknown stat block {stats!r}")
        stats = catalog.bestiary[stats].model_dump(mode="json", exclude_defaults=False)
    entry["stats"] = stats
    return stats  # type: ignore[no-any-return]


def _current_ac(stats: dict[str, Any]) -> int:
    sheet = StatBlock.model_validate(stats)
    creature = compile_creature("x", "x", "x", sheet, default_catalog())
    state = CombatantState("x", (0, 0), sheet.hp, None, sheet.shield_state)
    return armor_class(creature, state, DefenseContext()).value


def _free_positions(data: dict[str, Any], near: tuple[int, int], want: int, taken: set[tuple[int, int]]
                    ) -> list[list[int]]:
    """The ``want`` free squares nearest ``near`` (breadth first), for extra copies of a creature."""
    battle = battle_from_data(data)
    gm = battle.game_map
    blocked = set(taken)
    for cid, p in battle.placements.items():
        blocked.update(battle.footprint(cid, p.position).squares())
    out: list[list[int]] = []
    queue: deque[tuple[int, int]] = deque([near])
    seen = {near}
    while queue and len(out) < want:
        sq = queue.popleft()
        if gm.is_passable(sq) and sq not in blocked:
            out.append([sq[0], sq[1]])
            blocked.add(sq)
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)):
            nxt = (sq[0] + dc, sq[1] + dr)
            if nxt not in seen and gm.in_bounds(nxt):
                seen.add(nxt)
                queue.append(nxt)
    if len(out) < want:
        raise SweepError(f"--vary: no room on the map for {want} more creature(s)")
    return out


def apply_variant(scenario: Mapping[str, Any], settings: Sequence[tuple[Vary, int]]) -> dict[str, Any]:
    data = copy.deepcopy(dict(scenario))
    for vary, value in settings:
        entry = _entry(data, vary.combatant)
        if vary.field == "count":
            if value < 1:
                raise SweepError(f"--vary {vary.label}: a count must be at least 1")
            positions = [list(p) for p in (entry.get("positions") or ([entry["position"]] if "position" in entry
                                                                        else []))]
            positions = positions[:value]
            if len(positions) < value:
                base = dict(data)
                base["combatants"] = [e for e in data["combatants"] if e is not entry]
                near = (int(positions[-1][0]), int(positions[-1][1])) if positions else (0, 0)
                taken = {(int(p[0]), int(p[1])) for p in positions}
                positions += _free_positions(base, near, value - len(positions), taken)
            entry.pop("position", None)
            entry["count"] = value
            entry["positions"] = positions
        elif vary.field == "hp":
            if value < 1:
                raise SweepError(f"--vary {vary.label}: hit points must be at least 1")
            _inline_stats(entry)["hp"] = value
            entry.pop("hp", None)
        elif vary.field == "attack_bonus":
            _inline_stats(entry)["attack_bonus"] = value
        elif vary.field == "speed":
            if value < 0 or value % 5:
                raise SweepError(f"--vary {vary.label}: a speed is a multiple of 5 ft")
            _inline_stats(entry)["speed_ft"] = value
        elif vary.field == "ac":
            stats = _inline_stats(entry)
            stats["ac_other"] = int(stats.get("ac_other", 0)) + value - _current_ac(stats)
    return data


def grid(varies: Sequence[Vary]) -> list[tuple[tuple[Vary, int], ...]]:
    if not varies:
        raise SweepError("a sweep needs at least one --vary")
    return [tuple(zip(varies, combo, strict=True)) for combo in itertools.product(*(v.values for v in varies))]


def deadly_verdict(rows: Sequence[Mapping[str, Any]], labels: Sequence[str], side: str, threshold: float) -> str:
    """Name the first variant where ``side``'s win rate drops below ``threshold`` — and say whether its
    95 % interval lies wholly below (a verdict) or still reaches the threshold (noise could have put the
    line there: play more encounters)."""
    below = next((r for r in rows if r[f"{side}_win_rate"] < threshold), None)
    if below is None:
        return f"{side} keep a win rate of at least {threshold:.0%} in every variant"
    setting = ", ".join(f"{label}={below[label]}" for label in labels)
    low, high = below[f"{side}_low"], below[f"{side}_high"]
    sure = ("the whole interval is below" if high < threshold
            else f"the interval still reaches {threshold:.0%}: more encounters per variant would settle it")
    return (f"the encounter becomes deadly for {side} at {setting}: win rate {below[f'{side}_win_rate']:.1%} "
            f"< {threshold:.0%} (95 % interval {low:.1%} – {high:.1%}; {sure})")
