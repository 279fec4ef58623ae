"""The scenario format (YAML or JSON): ruleset, map, sides, combatants. Its JSON Schema is published
by ``d20combat schema``; field names here are the stable contract."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from d20combat.model.statblock import StatBlock

SquareIn = tuple[int, int]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Rect(_Strict):
    """A filled rectangle of squares, corners inclusive."""

    from_: SquareIn = Field(alias="from")
    to: SquareIn

    def squares(self) -> list[tuple[int, int]]:
        (c0, r0), (c1, r1) = self.from_, self.to
        return [(c, r) for c in range(min(c0, c1), max(c0, c1) + 1) for r in range(min(r0, r1), max(r0, r1) + 1)]


Area = SquareIn | Rect

LEGEND: dict[str, tuple[str, ...]] = {
    ".": (),
    "#": ("walls",),
    "=": ("low_walls",),
    "~": ("difficult",),
    "*": ("difficult", "bushes"),
    "f": ("fog",),
    "o": ("pits",),
    "d": ("dim",),
    "D": ("dark",),
    "w": ("water",),
    "^": ("climb",),
    "t": ("torches",),
}
"""ASCII map legend: ``.`` floor, ``#`` wall, ``=`` low wall, ``~`` difficult terrain, ``*`` bushes
(difficult and 20 % concealment), ``f`` fog (20 % concealment), ``o`` pit, ``d`` dim light, ``D`` darkness,
``w`` deep water (swim), ``^`` a surface to climb, ``t`` a torch (bright 20 ft, dim 20 ft further)."""


class MapSpec(_Strict):
    width: int | None = Field(None, ge=1, le=200)
    height: int | None = Field(None, ge=1, le=200)
    rows: list[str] | None = Field(None, description="ASCII rows, north first; legend: " + " ".join(LEGEND))
    walls: list[Area] = []
    low_walls: list[Area] = []
    difficult: list[Area] = []
    bushes: list[Area] = Field([], description="difficult terrain that also conceals (20 %)")
    fog: list[Area] = Field([], description="concealing squares (20 %)")
    pits: list[Area] = []
    dim: list[Area] = []
    dark: list[Area] = []
    water: list[Area] = Field([], description="deep water: Swim check to enter (DC 10 unless skill_dc says)")
    climb: list[Area] = Field([], description="climbing surface: Climb check to enter (DC 15 unless skill_dc says)")
    torches: list[SquareIn] = Field([], description="torches: bright light 20 ft, dim light 20 ft further")
    skill_dc: list[tuple[int, int, int]] = Field([], description="[column, row, DC] for a water or climb square")
    elevation: list[tuple[int, int, int]] = Field([], description="[column, row, height in ft] of raised ground")
    narrow: list[Area] = Field([], description="squares a creature squeezes through (narrower than its space)")
    narrow_openings: list[Area] = Field([], description="arrow slits and the like: lines and long piercing "
                                                        "weapons pass, creatures don't")
    improved_cover: list[Area] = Field([], description="squares or openings the GM grades as improved cover")
    concealment: list[tuple[int, int, int]] = Field([], description="[column, row, miss chance %] of a concealing "
                                                                    "square, e.g. light fog 10, near-darkness 40")

    @field_validator("rows")
    @classmethod
    def _rows_use_legend(cls, rows: list[str] | None) -> list[str] | None:
        if rows is None:
            return rows
        for i, row in enumerate(rows):
            bad = sorted(set(row) - set(LEGEND))
            if bad:
                raise ValueError(f"row {i} uses {bad}, not in the legend {''.join(LEGEND)}")
        return rows


class CombatantSpec(_Strict):
    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_\-]*$")
    name: str | None = None
    side: str
    stats: str | StatBlock = Field(description="a bestiary name or an inline stat block")
    position: SquareIn | None = None
    positions: list[SquareIn] | None = Field(None, description="with count: one position per copy")
    count: int = Field(1, ge=1, le=100)
    hp: int | None = Field(None, description="current hit points, if not full")
    sneaky: bool = Field(False, description="makes a Stealth check for surprise (PFB-SURP-02)")
    initiative: int | None = Field(None, description="a fixed initiative result instead of a roll")
    conditions: list[str] = []
    wielding: str | None = None


class SurpriseSpec(_Strict):
    surprised: list[str] | None = Field(None, description="ids surprised, decided by the GM (no checks)")


class Scenario(_Strict):
    name: str = "Unnamed encounter"
    description: str = ""
    ruleset: str = "pathfinder-beginner"
    variants: dict[str, Any] = Field(default_factory=dict, description="named variant options of the ruleset")
    map: MapSpec
    combatants: list[CombatantSpec] = Field(min_length=2)
    surprise: SurpriseSpec | None = None
    max_rounds: int = Field(100, ge=1, le=10000)
