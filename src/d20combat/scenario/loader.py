"""Scenario loading: YAML/JSON → validated :class:`Scenario` → :class:`Battle`.

A malformed scenario is rejected with *every* problem listed by field path
(``combatants[2].position: square (31, 4) is outside the 20×20 map``), never a traceback.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from d20combat.battlefield.grid import GameMap, Light, Square
from d20combat.encounter.battle import Battle, Placement
from d20combat.errors import D20CombatError
from d20combat.limits import MAX_NESTING, MAX_SCENARIO_BYTES, MAX_YAML_VALUES
from d20combat.model.catalog import Catalog, default_catalog
from d20combat.model.creature import Creature, compile_creature
from d20combat.model.statblock import StatBlock
from d20combat.rulesets import get_ruleset
from d20combat.scenario.schema import LEGEND, Area, Rect, Scenario


class ScenarioError(D20CombatError):
    """Every problem of a scenario, one per line, each with its field path."""

    def __init__(self, problems: list[str], source: str = "scenario") -> None:
        self.problems = problems
        super().__init__(f"{source}: {len(problems)} problem(s)\n" + "\n".join(f"  {p}" for p in problems))


def _path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("str", "StatBlock", "tuple[int, int]", "Rect", "function-after[_rows_use_legend(), "
                      "nullable[list[str]]]"):
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


class _BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader bounded while composing, before any alias is expanded into data: the nesting depth,
    and the number of values the document stands for with every alias expanded (a 400-byte alias bomb would
    otherwise grow to gigabytes downstream)."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._sizes: dict[int, int] = {}
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self._depth += 1
        try:
            if self._depth > MAX_NESTING:
                raise yaml.YAMLError(f"nested deeper than {MAX_NESTING} levels")
            node = super().compose_node(parent, index)
        finally:
            self._depth -= 1
        size = self._sizes.get(id(node))
        if size is None:  # a new node (an alias returns a node already sized)
            if isinstance(node, yaml.SequenceNode):
                size = 1 + sum(self._sizes.get(id(child), 1) for child in node.value)
            elif isinstance(node, yaml.MappingNode):
                size = 1 + sum(self._sizes.get(id(k), 1) + self._sizes.get(id(v), 1) for k, v in node.value)
            else:
                size = 1
            if size > MAX_YAML_VALUES:
                raise yaml.YAMLError(f"the aliases (*name) expand to more than {MAX_YAML_VALUES:,} values: refused "
                                     "before expanding")
            self._sizes[id(node)] = size
        return node


def _bounded_yaml(text: str) -> Any:
    loader = _BoundedLoader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


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
    if not isinstance(data, dict):
        raise ScenarioError(["the scenario must be a mapping with 'map' and 'combatants'"], source)
    return data


def validate_scenario(data: Mapping[str, Any], source: str = "scenario") -> Scenario:
    try:
        return Scenario.model_validate(data)
    except ValidationError as exc:
        problems = []
        seen = set()
        for err in exc.errors():
            line = f"{_path(err['loc'])}: {err['msg']}"
            if line not in seen:
                seen.add(line)
                problems.append(line)
        raise ScenarioError(problems, source) from None


def _squares(areas: list[Area]) -> list[Square]:
    out: list[Square] = []
    for a in areas:
        out.extend(a.squares() if isinstance(a, Rect) else [(a[0], a[1])])
    return out


def build_map(scn: Scenario, problems: list[str]) -> GameMap:
    spec = scn.map
    layers: dict[str, list[Square]] = {k: [] for k in ("walls", "low_walls", "difficult", "bushes", "fog", "pits",
                                                        "dim", "dark", "water", "climb", "torches", "narrow",
                                                        "narrow_openings", "improved_cover")}
    width, height = spec.width, spec.height
    if spec.rows is not None:
        rows_w = max((len(r) for r in spec.rows), default=0)
        width = width or rows_w
        height = height or len(spec.rows)
        if rows_w > width or len(spec.rows) > height:
            problems.append(f"map.rows: {rows_w}×{len(spec.rows)} rows do not fit the {width}×{height} map")
        for r, row in enumerate(spec.rows):
            for c, ch in enumerate(row):
                for layer in LEGEND[ch]:
                    layers[layer].append((c, r))
    if width is None or height is None:
        problems.append("map: give width and height, or rows")
        width, height = width or 1, height or 1
    for layer in layers:
        explicit = _squares(getattr(spec, layer))
        for i, sq in enumerate(explicit):
            if not (0 <= sq[0] < width and 0 <= sq[1] < height):
                problems.append(f"map.{layer}[{i}]: square {sq} is outside the {width}×{height} map")
        layers[layer].extend(explicit)
    concealing = dict.fromkeys(layers["bushes"] + layers["fog"], 20)
    for name, triples in (("elevation", spec.elevation), ("concealment", spec.concealment)):
        for i, (c, r, _) in enumerate(triples):
            if not (0 <= c < width and 0 <= r < height):
                problems.append(f"map.{name}[{i}]: square {(c, r)} is outside the {width}×{height} map")
    concealing.update({(c, r): pct for c, r, pct in spec.concealment})
    light = {sq: Light.DIM for sq in layers["dim"]}
    light.update({sq: Light.DARK for sq in layers["dark"]})
    return GameMap(
        width=width, height=height, walls=frozenset(layers["walls"]), low_walls=frozenset(layers["low_walls"]),
        difficult=frozenset(layers["difficult"] + layers["bushes"]), pits=frozenset(layers["pits"]),
        concealing=concealing, light=light, water=frozenset(layers["water"]), climb=frozenset(layers["climb"]),
        skill_dc={(c, r): dc for c, r, dc in spec.skill_dc},
        lights=tuple((sq, 20, 20) for sq in sorted(set(layers["torches"]))),
        elevation={(c, r): h for c, r, h in spec.elevation}, narrow=frozenset(layers["narrow"]),
        narrow_openings=frozenset(layers["narrow_openings"]), improved_cover=frozenset(layers["improved_cover"]),
    )


def build_battle(scn: Scenario, source: str = "scenario", catalog: Catalog | None = None,
                 ruleset_override: str | None = None, raw: Mapping[str, Any] | None = None) -> Battle:
    """Check what the schema cannot (references, squares, overlaps) and compile the battle."""
    catalog = catalog or default_catalog()
    problems: list[str] = []
    game_map = build_map(scn, problems)
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
    for i, spec in enumerate(scn.combatants):
        where = f"combatants[{i}]"
        if isinstance(spec.stats, str):
            if spec.stats not in catalog.bestiary:
                problems.append(f"{where}.stats: no stat block named {spec.stats!r} in the bestiary "
                                f"(known: {', '.join(sorted(catalog.bestiary))})")
                continue
            sheet: StatBlock = catalog.bestiary[spec.stats]
        else:
            sheet = spec.stats
        unknown = [str(ref) for ref in (*(a.weapon for a in sheet.attacks if isinstance(a.weapon, str)),)
                   if ref not in catalog.weapons]
        if isinstance(sheet.armor, str) and sheet.armor not in catalog.armor:
            unknown.append(sheet.armor)
        if isinstance(sheet.shield, str) and sheet.shield not in catalog.shields:
            unknown.append(sheet.shield)
        if unknown:
            problems.append(f"{where}.stats: unknown equipment {', '.join(sorted(unknown))}")
            continue
        unusable = ruleset.sheets.check_stat_block(sheet)
        if unusable:
            problems.extend(f"{where}.stats: {p} (needed by the {ruleset.id} ruleset)" for p in unusable)
            continue
        sheet = ruleset.sheets.complete_sheet(sheet)
        if spec.count == 1:
            ids = [spec.id]
            positions = [spec.position] if spec.position is not None else (spec.positions or [])
        else:
            ids = [f"{spec.id}-{n}" for n in range(1, spec.count + 1)]
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
                problems.append(f"{where}.wielding: {wielding!r} is not one of its attacks")
                continue
            hp = spec.hp if spec.hp is not None else sheet.hp
            if hp > sheet.hp:
                problems.append(f"{where}.hp: {hp} is more than the maximum {sheet.hp}")
            creatures[cid] = creature
            placements[cid] = Placement((pos[0], pos[1]), hp, wielding, sheet.shield_state,
                                        frozenset(spec.conditions))
            if spec.initiative is not None:
                fixed_init[cid] = spec.initiative
    sides = {spec.side for spec in scn.combatants}
    if len(sides) < 2:
        problems.append(f"combatants: at least two sides are needed, got {sorted(sides)}")
    surprised: tuple[str, ...] | None = None
    if scn.surprise is not None and scn.surprise.surprised is not None:
        for j, cid in enumerate(scn.surprise.surprised):
            if cid not in creatures:
                problems.append(f"surprise.surprised[{j}]: no combatant {cid!r}")
        surprised = tuple(scn.surprise.surprised)
    if problems:
        raise ScenarioError(problems, source)
    return Battle(game_map, creatures, ruleset, placements,
                  scenario={**(dict(raw) if raw is not None else scn.model_dump(mode="json", by_alias=True)),
                            "ruleset": ruleset_id, "variants": variants},
                  surprised=surprised, initiative=fixed_init, max_rounds=scn.max_rounds)


def _footprint(pos: tuple[int, int], size: int) -> list[Square]:
    return [(pos[0] + dc, pos[1] + dr) for dc in range(size) for dr in range(size)]


def load_battle(path: str | Path, ruleset_override: str | None = None) -> Battle:
    data = read_scenario_data(path)
    return battle_from_data(data, str(path), ruleset_override)


def battle_from_data(data: Mapping[str, Any], source: str = "scenario",
                     ruleset_override: str | None = None) -> Battle:
    scn = validate_scenario(data, source)
    return build_battle(scn, source, ruleset_override=ruleset_override, raw=data)
