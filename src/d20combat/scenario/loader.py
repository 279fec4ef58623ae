"""Scenario loading: YAML/JSON → validated :class:`Scenario` → :class:`Battle`.

A malformed scenario is rejected with *every* problem listed by field path
(``combatants[2].position: square (31, 4) is outside the 20×20 map``), never a traceback.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from d20combat.battlefield.grid import Square
from d20combat.encounter.battle import Battle, Placement, StartingEffect
from d20combat.errors import D20CombatError
from d20combat.limits import (
    MAX_COMBATANTS,
    MAX_NESTING,
    MAX_PROBLEMS,
    MAX_SCENARIO_BYTES,
    MAX_SIDES,
    MAX_YAML_VALUES,
)
from d20combat.model.catalog import Catalog, default_catalog, did_you_mean
from d20combat.model.creature import Creature, compile_creature
from d20combat.model.statblock import StatBlock
from d20combat.rulesets import get_ruleset
from d20combat.scenario.checks import bestiary_problem, condition_problem, equipment_problems
from d20combat.scenario.map_builder import build_map
from d20combat.scenario.schema import UNION_TAGS, Scenario


class ScenarioError(D20CombatError):
    """Every problem of a scenario, one per line, each with its field path; at most
    :data:`~d20combat.limits.MAX_PROBLEMS` of them, then a count of the rest ("… and 7 more")."""

    def __init__(self, problems: list[str], source: str = "scenario") -> None:
        if len(problems) > MAX_PROBLEMS:
            problems = [*problems[:MAX_PROBLEMS], f"… and {len(problems) - MAX_PROBLEMS:,} more"]
        self.problems = problems
        super().__init__(f"{source}: {len(problems)} problem(s)\n" + "\n".join(f"  {p}" for p in problems))


_SCHEMA_NODE = re.compile(r"^[a-z][a-z-]*\[.*\]$|^(str|int|Rect|StatBlock|Weapon|Armor|Shield)$")
"""Parts of a pydantic error location that name its internal schema (``function-after[…]``, ``tuple[int, int]``,
a union branch), not a field."""


def _path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in UNION_TAGS or _SCHEMA_NODE.match(part):
            continue
        else:
            out += ("." if out else "") + str(part)
    return out or "(root)"


def read_scenario_data(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError([f"cannot read {p}: {exc.strerror}"], str(p)) from None
    return parse_scenario_text(text, str(p), json_hint=p.suffix.lower() == ".json")


_FAST_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser where installed (PyYAML's own is ~20 times slower), with the same safe constructor."""


def _check_yaml_events(text: str) -> None:
    """Bound a YAML document from its parser events, before anything is composed or constructed: the nesting
    depth, and the number of values it stands for with every alias (``*name``) expanded — a 400-byte alias bomb
    would otherwise grow to gigabytes downstream, and a long flat list would take seconds to build. Refuses as
    soon as a bound is passed, so the work done is bounded too."""
    sizes: dict[str, int] = {}
    open_nodes: list[list[Any]] = []  # [anchor, values so far] of each open sequence or mapping
    seen = 0
    for event in yaml.parse(text, Loader=_FAST_LOADER):
        if isinstance(event, yaml.CollectionEndEvent):
            anchor, size = open_nodes.pop()
        elif isinstance(event, yaml.NodeEvent):
            if len(open_nodes) + 1 > MAX_NESTING:
                raise yaml.YAMLError(f"nested deeper than {MAX_NESTING} levels")
            if isinstance(event, yaml.CollectionStartEvent):
                seen += 1
                open_nodes.append([event.anchor, 1])
                continue
            anchor, size = (None, sizes.get(event.anchor or "", 1)) if isinstance(event, yaml.AliasEvent) \
                else (event.anchor, 1)
            seen += size
        else:
            continue
        if seen > MAX_YAML_VALUES:
            raise yaml.YAMLError(f"the document and its aliases (*name) expand to more than {MAX_YAML_VALUES:,} "
                                 "values: refused before expanding")
        if anchor is not None:
            sizes[anchor] = size
        if open_nodes:
            open_nodes[-1][1] += size


def _bounded_yaml(text: str) -> Any:
    _check_yaml_events(text)
    return yaml.load(text, Loader=_FAST_LOADER)  # a safe loader: libyaml's or PyYAML's SafeLoader


def _json_depth_ok(text: str) -> bool:
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            continue
        if ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest <= MAX_NESTING


def parse_scenario_text(text: str, source: str = "scenario", json_hint: bool = False) -> dict[str, Any]:
    """Scenario text to data, bounded first (:mod:`d20combat.limits`): size, YAML aliases, nesting."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_SCENARIO_BYTES:
        raise ScenarioError([f"the scenario is larger than {MAX_SCENARIO_BYTES:,} bytes"], source)
    if json_hint and not _json_depth_ok(text):
        raise ScenarioError([f"not valid JSON: nested deeper than {MAX_NESTING} levels"], source)
    try:
        data = json.loads(text) if json_hint else _bounded_yaml(text)
    except RecursionError:
        raise ScenarioError([f"nested deeper than {MAX_NESTING} levels"], source) from None
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        raise ScenarioError([f"not valid {'JSON' if json_hint else 'YAML'}: {exc}"], source) from None
    except ValueError as exc:  # e.g. Python's limit on the digits of an integer
        raise ScenarioError([f"not valid {'JSON' if json_hint else 'YAML'}: {exc}"], source) from None
    if not isinstance(data, dict):
        raise ScenarioError(["the scenario must be a mapping with 'map' and 'combatants'"], source)
    return data


def validate_scenario(data: Mapping[str, Any], source: str = "scenario") -> Scenario:
    try:
        return Scenario.model_validate(data)
    except ValidationError as exc:
        problems = []
        seen = set()
        for err in exc.errors(include_url=False, include_input=False):
            msg = err["msg"].removeprefix("Value error, ")
            line = f"{_path(err['loc'])}: {msg}"
            if line not in seen:
                seen.add(line)
                problems.append(line)
        raise ScenarioError(problems, source) from None


def build_battle(scn: Scenario, source: str = "scenario", catalog: Catalog | None = None,
                 ruleset_override: str | None = None, raw: Mapping[str, Any] | None = None) -> Battle:
    """Check what the schema cannot (references, squares, overlaps) and compile the battle."""
    catalog = catalog or default_catalog()
    creature_count = sum(spec.count for spec in scn.combatants)
    if creature_count > MAX_COMBATANTS:
        raise ScenarioError([f"combatants: {creature_count:,} creatures with every copy of a count, more than "
                             f"{MAX_COMBATANTS} (the limit)"], source)
    problems: list[str] = []
    game_map = build_map(scn.map, problems)
    ruleset_id = ruleset_override or scn.ruleset
    # Variant options belong to the scenario's own ruleset; another ruleset starts from its defaults.
    variants = scn.variants if ruleset_id == scn.ruleset else {}
    try:
        ruleset = get_ruleset(ruleset_id, variants)
    except ValidationError as exc:
        problems.extend(f"variants.{_path(e['loc'])}: {e['msg']}" for e in exc.errors())
        ruleset = get_ruleset(ruleset_id)
    except ValueError as exc:
        raise ScenarioError([f"ruleset: {exc}"], source) from None
    creatures: dict[str, Creature] = {}
    placements: dict[str, Placement] = {}
    occupied: dict[Square, str] = {}
    fixed_init: dict[str, int] = {}
    all_ids = {cid for spec in scn.combatants for cid in _ids(spec.id, spec.count)}
    for i, spec in enumerate(scn.combatants):
        where = f"combatants[{i}]"
        for j, text in enumerate(spec.conditions):
            bad = condition_problem(f"{where}.conditions[{j}]", text, all_ids)
            if bad is not None:
                problems.append(bad)
        if isinstance(spec.stats, str):
            if spec.stats not in catalog.bestiary:
                problems.append(bestiary_problem(f"{where}.stats", spec.stats, catalog))
                continue
            sheet: StatBlock = catalog.bestiary[spec.stats]
        else:
            sheet = spec.stats
        unknown = equipment_problems(f"{where}.stats", sheet, catalog)
        if unknown:
            problems.extend(unknown)
            continue
        unusable = ruleset.sheets.check_stat_block(sheet)
        if unusable:
            problems.extend(f"{where}.stats: {p} (needed by the {ruleset.id} ruleset)" for p in unusable)
            continue
        sheet = ruleset.sheets.complete_sheet(sheet)
        ids = _ids(spec.id, spec.count)
        if spec.count == 1:
            positions = [spec.position] if spec.position is not None else (spec.positions or [])
        else:
            positions = list(spec.positions or [])
        if len(positions) != len(ids):
            problems.append(f"{where}.position{'s' if spec.count > 1 else ''}: {len(ids)} creature(s) need "
                            f"{len(ids)} position(s), got {len(positions)}")
            continue
        for n, (cid, pos) in enumerate(zip(ids, positions, strict=True)):
            pwhere = f"{where}.position" if spec.count == 1 else f"{where}.positions[{n}]"
            if cid in creatures:
                problems.append(f"{where}.id: {cid!r} is used twice")
                continue
            creature = compile_creature(cid, spec.name or cid, spec.side, sheet,
                                        catalog, spec.sneaky)
            ok = True
            for sq in _footprint(pos, creature.space):
                if not game_map.in_bounds(sq):
                    problems.append(f"{pwhere}: square {sq} is outside the {game_map.width}×{game_map.height} map")
                    ok = False
                    break
                if sq in game_map.walls or sq in game_map.pits:
                    problems.append(f"{pwhere}: square {sq} is a wall or pit")
                    ok = False
                    break
                if sq in occupied:
                    problems.append(f"{pwhere}: square {sq} is already occupied by {occupied[sq]}")
                    ok = False
                    break
            if not ok:
                continue
            for sq in _footprint(pos, creature.space):
                occupied[sq] = cid
            wielding = spec.wielding or sheet.wielding or (creature.attacks[0].name if creature.attacks else None)
            if wielding is not None and wielding not in {a.name for a in creature.attacks}:
                guess = did_you_mean(wielding, [a.name for a in creature.attacks])
                hint = f" — did you mean {guess!r}?" if guess is not None else ""
                problems.append(f"{where}.wielding: {wielding!r} is not one of its attacks{hint}")
                continue
            hp = spec.hp if spec.hp is not None else sheet.hp
            if hp > sheet.hp:
                problems.append(f"{where}.hp: {hp} is more than the maximum {sheet.hp}")
            elif hp <= 0 and not spec.starts_down:
                problems.append(f"{where}.hp: {hp} would start {cid} disabled, dying or dead; a combatant starts "
                                "with at least 1 hp (to start one down on purpose, add starts_down: true)")
            creatures[cid] = creature
            effects = tuple(StartingEffect(e.name, e.rounds, e.anchor or cid, e.ac, e.attack, e.condition)
                            for e in spec.effects)
            for k, e in enumerate(spec.effects):
                if e.anchor is not None and e.anchor not in all_ids:
                    guess = did_you_mean(e.anchor, sorted(all_ids))
                    hint = f" — did you mean {guess!r}?" if guess is not None else ""
                    problems.append(f"{where}.effects[{k}].anchor: no combatant {e.anchor!r}{hint}")
                if e.condition:
                    bad = condition_problem(f"{where}.effects[{k}].condition", e.condition, all_ids)
                    if bad is not None:
                        problems.append(bad)
                if [x.name for x in spec.effects].count(e.name) > 1:
                    problems.append(f"{where}.effects[{k}].name: {e.name!r} is used twice")
            placements[cid] = Placement((pos[0], pos[1]), hp, wielding, sheet.shield_state,
                                        frozenset(spec.conditions), effects)
            if spec.initiative is not None:
                fixed_init[cid] = spec.initiative
    sides = {spec.side for spec in scn.combatants}
    if len(sides) < 2:
        problems.append(f"combatants: at least two sides are needed, got {sorted(sides)}")
    elif len(sides) > MAX_SIDES:
        problems.append(f"combatants: {len(sides)} sides, more than {MAX_SIDES} (the limit)")
    surprised: tuple[str, ...] | None = None
    if scn.surprise is not None and scn.surprise.surprised is not None:
        for j, cid in enumerate(scn.surprise.surprised):
            if cid not in creatures:
                problems.append(f"surprise.surprised[{j}]: no combatant {cid!r}")
        surprised = tuple(scn.surprise.surprised)
    ambush = scn.surprise.ambush if scn.surprise is not None else None
    if ambush is not None:
        for list_name in ("ambushers", "spotting", "distracted"):
            for j, cid in enumerate(getattr(ambush, list_name)):
                if cid not in creatures:
                    problems.append(f"surprise.ambush.{list_name}[{j}]: no combatant {cid!r}")
        ambush_sides = {creatures[cid].side for cid in ambush.ambushers if cid in creatures}
        if len(ambush_sides) > 1:
            problems.append(f"surprise.ambush.ambushers: one party ambushes, got the sides {sorted(ambush_sides)}")
        for list_name in ("spotting", "distracted"):
            for j, cid in enumerate(getattr(ambush, list_name)):
                if cid in ambush.ambushers:
                    problems.append(f"surprise.ambush.{list_name}[{j}]: {cid!r} is an ambusher, not the prey")
    if problems:
        raise ScenarioError(problems, source)
    return Battle(game_map, creatures, ruleset, placements,
                  scenario={**(dict(raw) if raw is not None else scn.model_dump(mode="json", by_alias=True)),
                            "ruleset": ruleset_id, "variants": variants},
                  surprised=surprised, initiative=fixed_init, max_rounds=scn.max_rounds, ambush=ambush)


def fixed_initiative_problems(battle: Battle) -> list[str]:
    """The scenario's fixed ``initiative:`` values under a turn order that rolls initiative anew every round after
    the declarations (``turn_order.initiative_at_start`` false: worlds-of-adventure, WOA-CYCLE-02/17), where they
    mean nothing: the command line and the server refuse them naming the field (the library ignores them)."""
    if battle.ruleset.turn_order.initiative_at_start:
        return []
    entries = battle.scenario.get("combatants", [])
    return [f"combatants[{i}].initiative: {battle.ruleset.id} rolls initiative anew every round, after everyone "
            "has declared (WOA-CYCLE-02/17): a fixed initiative has no meaning there — remove it"
            for i, c in enumerate(entries if isinstance(entries, list) else [])
            if isinstance(c, dict) and c.get("initiative") is not None]


def _ids(cid: str, count: int) -> list[str]:
    """The ids of an entry's creatures: its own id, or ``id-1``, ``id-2``… for the copies of a count."""
    return [cid] if count == 1 else [f"{cid}-{n}" for n in range(1, count + 1)]


def _footprint(pos: tuple[int, int], size: int) -> list[Square]:
    return [(pos[0] + dc, pos[1] + dr) for dc in range(size) for dr in range(size)]


def load_battle(path: str | Path, ruleset_override: str | None = None) -> Battle:
    data = read_scenario_data(path)
    return battle_from_data(data, str(path), ruleset_override)


def battle_from_data(data: Mapping[str, Any], source: str = "scenario",
                     ruleset_override: str | None = None) -> Battle:
    scn = validate_scenario(data, source)
    return build_battle(scn, source, ruleset_override=ruleset_override, raw=data)
