"""A scenario's map → :class:`GameMap`, every area bounded before it is expanded into squares.

Rows must be as long as each other (or, if the map gives its width, no longer than it). A rectangle is checked
against the map by its corners and counted by arithmetic (:data:`~d20combat.limits.MAX_AREA_SQUARES` per list)
before a single square is listed, so a rectangle from (0, 0) to (10⁹, 10⁹) costs one line of error, not gigabytes.
"""

from __future__ import annotations

from collections.abc import Sequence

from d20combat.battlefield.grid import GameMap, Light, Square
from d20combat.limits import MAX_AREA_SQUARES
from d20combat.scenario.schema import LEGEND, Area, MapSpec, Rect

LAYERS = ("walls", "low_walls", "difficult", "bushes", "fog", "pits", "dim", "dark", "water", "climb", "torches",
          "narrow", "narrow_openings", "improved_cover", "impeded", "blocked", "splash_soft")


def _rows(spec: MapSpec, problems: list[str]) -> bool:
    """Every row as long as the first (the first that is not is named), unless the map gives its ``width``: then
    a row may be shorter, the rest of it floor (longer rows are refused below). True if the rows are usable."""
    rows = spec.rows or []
    if spec.width is not None:
        return True
    for r, row in enumerate(rows[1:], start=1):
        if len(row) != len(rows[0]):
            problems.append(f"map.rows[{r}]: {len(row)} squares, but row 0 has {len(rows[0])}; every row must be "
                            "as long as the first")
            return False
    return True


def _corner(sq: tuple[int, int]) -> str:
    return f"({sq[0]},{sq[1]})"


def _areas(layer: str, areas: Sequence[Area], width: int, height: int, problems: list[str]) -> list[Square]:
    """The squares of one area list, or none (with problems) if any entry leaves the map or the list covers more
    than :data:`MAX_AREA_SQUARES` squares. Checked entry by entry on the corners; expanded only once all fit."""
    covered = 0
    bad = False
    for i, a in enumerate(areas):
        if isinstance(a, Rect):
            (c0, r0), (c1, r1) = a.from_, a.to
            if not all(0 <= c < width and 0 <= r < height for c, r in ((c0, r0), (c1, r1))):
                problems.append(f"map.{layer}[{i}]: the rectangle {_corner(a.from_)}–{_corner(a.to)} leaves the "
                                f"{width}×{height} map")
                bad = True
                continue
            covered += (abs(c1 - c0) + 1) * (abs(r1 - r0) + 1)
        else:
            if not (0 <= a[0] < width and 0 <= a[1] < height):
                problems.append(f"map.{layer}[{i}]: square {(a[0], a[1])} is outside the {width}×{height} map")
                bad = True
                continue
            covered += 1
        if covered > MAX_AREA_SQUARES:
            problems.append(f"map.{layer}: the areas up to entry {i} cover more than {MAX_AREA_SQUARES:,} squares "
                            "(the limit per list)")
            return []
    if bad:
        return []
    out: list[Square] = []
    for a in areas:
        out.extend(a.squares() if isinstance(a, Rect) else [(a[0], a[1])])
    return out


def build_map(spec: MapSpec, problems: list[str]) -> GameMap:
    layers: dict[str, list[Square]] = {k: [] for k in LAYERS}
    width, height = spec.width, spec.height
    if spec.rows is not None:
        even = _rows(spec, problems)
        rows_w = max((len(r) for r in spec.rows), default=0)
        width = width or rows_w or None
        height = height or len(spec.rows) or None
        if width is not None and height is not None and (rows_w > width or len(spec.rows) > height):
            problems.append(f"map.rows: {rows_w}×{len(spec.rows)} rows do not fit the {width}×{height} map")
        for r, row in enumerate(spec.rows if even else ()):
            for c, ch in enumerate(row):
                for layer in LEGEND[ch]:
                    layers[layer].append((c, r))
    if width is None or height is None:
        problems.append("map: give width and height, or rows")
        width, height = width or 1, height or 1
    for layer in layers:
        layers[layer].extend(_areas(layer, getattr(spec, layer), width, height, problems))
    concealing = dict.fromkeys(layers["bushes"] + layers["fog"], 20)
    for name, triples in (("elevation", spec.elevation), ("concealment", spec.concealment),
                          ("skill_dc", spec.skill_dc)):
        for i, (c, r, _) in enumerate(triples):
            if not (0 <= c < width and 0 <= r < height):
                problems.append(f"map.{name}[{i}]: square {(c, r)} is outside the {width}×{height} map")
    for i, (_, _, pct) in enumerate(spec.concealment):
        if not 0 <= pct <= 100:
            problems.append(f"map.concealment[{i}]: a miss chance of {pct} % is not between 0 and 100")
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
        impeded=frozenset(layers["impeded"]), blocked=frozenset(layers["blocked"]),
        splash_soft=frozenset(layers["splash_soft"]),
    )
