"""The scenario format (YAML or JSON): ruleset, map, sides, combatants. Its JSON Schema is published
by ``d20combat schema``; field names here are the stable contract."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StringConstraints,
    Tag,
    field_validator,
    model_validator,
)

from d20combat.limits import (
    MAX_AREA_ENTRIES,
    MAX_COMBATANTS,
    MAX_CONDITION_CHARS,
    MAX_COPIES,
    MAX_HP,
    MAX_LIST_ITEMS,
    MAX_MAP_SIDE,
    MAX_MODIFIER,
    MAX_TEXT_CHARS,
)
from d20combat.model.statblock import BY_NAME, INLINE, Name, StatBlock

SquareIn = tuple[int, int]
Id = Annotated[Name, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9_\-]*$")]
Condition = Annotated[str, StringConstraints(max_length=MAX_CONDITION_CHARS)]
Row = Annotated[str, StringConstraints(max_length=MAX_MAP_SIDE)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Rect(_Strict):
    """A filled rectangle of squares, corners inclusive."""

    from_: SquareIn = Field(alias="from")
    to: SquareIn

    def squares(self) -> list[tuple[int, int]]:
        (c0, r0), (c1, r1) = self.from_, self.to
        return [(c, r) for c in range(min(c0, c1), max(c0, c1) + 1) for r in range(min(r0, r1), max(r0, r1) + 1)]


def _square_or_rect(value: Any) -> str:
    return "rect" if isinstance(value, dict | Rect) else "square"


Area = Annotated[Annotated[SquareIn, Tag("square")] | Annotated[Rect, Tag("rect")], Discriminator(_square_or_rect)]
"""A square ``[column, row]`` or a rectangle ``{from: [c, r], to: [c, r]}`` (a mapping means a rectangle)."""
Areas = Annotated[list[Area], Field(max_length=MAX_AREA_ENTRIES)]
Triples = Annotated[list[tuple[int, int, int]], Field(max_length=MAX_AREA_ENTRIES)]
UNION_TAGS = frozenset({"square", "rect", BY_NAME, INLINE})
"""The tags the discriminated unions add to an error's location (not field names: left out of field paths)."""

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
    "%": ("impeded",),
    "B": ("blocked",),
}
"""ASCII map legend: ``.`` floor, ``#`` wall, ``=`` low wall, ``~`` difficult terrain, ``*`` bushes
(difficult and 20 % concealment), ``f`` fog (20 % concealment), ``o`` pit, ``d`` dim light, ``D`` darkness,
``w`` deep water (swim), ``^`` a surface to climb, ``t`` a torch (bright 20 ft, dim 20 ft further), ``%`` impeded
terrain (EP-MOVE-05), ``B`` blocked terrain that lets sight through (EP-MOVE-11/13)."""


class MapSpec(_Strict):
    width: int | None = Field(None, ge=1, le=MAX_MAP_SIDE)
    height: int | None = Field(None, ge=1, le=MAX_MAP_SIDE)
    rows: list[Row] | None = Field(None, max_length=MAX_MAP_SIDE,
                                   description="ASCII rows, north first, all as long; legend: " + " ".join(LEGEND))
    walls: Areas = []
    low_walls: Areas = []
    difficult: Areas = []
    bushes: Areas = Field([], description="difficult terrain that also conceals (20 %)")
    fog: Areas = Field([], description="concealing squares (20 %)")
    pits: Areas = []
    dim: Areas = []
    dark: Areas = []
    water: Areas = Field([], description="deep water: Swim check to enter (DC 10 unless skill_dc says)")
    climb: Areas = Field([], description="climbing surface: Climb check to enter (DC 15 unless skill_dc says)")
    torches: list[SquareIn] = Field([], max_length=MAX_AREA_ENTRIES,
                                    description="torches: bright light 20 ft, dim light 20 ft further")
    skill_dc: Triples = Field([], description="[column, row, DC] for a water or climb square")
    elevation: Triples = Field([], description="[column, row, height in ft] of raised ground")
    narrow: Areas = Field([], description="squares a creature squeezes through (narrower than its space)")
    narrow_openings: Areas = Field([], description="arrow slits and the like: lines and long piercing "
                                                        "weapons pass, creatures don't")
    improved_cover: Areas = Field([], description="squares or openings the GM grades as improved cover")
    impeded: Areas = Field([], description="impeded terrain (epic-path: a full round moves 5 ft, EP-MOVE-05)")
    blocked: Areas = Field([], description="blocked terrain that lets sight through: a portcullis, a statue "
                                           "(EP-MOVE-11/13)")
    splash_soft: Areas = Field([], description="squares too soft to break a thrown splash weapon (webs, flesh, "
                                               "rubber; EP-SPLASH-14/15)")
    concealment: Triples = Field([], description="[column, row, miss chance %] of a concealing "
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


StatsRef = Annotated[Annotated[Name, Tag(BY_NAME)] | Annotated[StatBlock, Tag(INLINE)],
                     Discriminator(lambda v: BY_NAME if isinstance(v, str) else INLINE)]


class EffectSpec(_Strict):
    """A timed effect a creature starts the battle with (issue 13): *bless*, *blur*, a potion's bonus…"""

    name: Name = Field(description="what it is, as the log and the tracker show it")
    rounds: int = Field(ge=1, le=1000, description="how long it lasts: it ends just before its anchor's turn in "
                                                    "round rounds + 1 (PFB-TIME-03..05)")
    anchor: Id | None = Field(None, description="whose turn it ends before (a combatant's id); the creature itself "
                                                "if not given")
    ac: int = Field(0, ge=-MAX_MODIFIER, le=MAX_MODIFIER, description="a flat Armor Class modifier while it lasts")
    attack: int = Field(0, ge=-MAX_MODIFIER, le=MAX_MODIFIER, description="a flat attack modifier while it lasts")
    condition: Condition = Field("", description="a condition it brings while it lasts, e.g. concealed:20 (blur)")


class CombatantSpec(_Strict):
    id: Id
    name: Name | None = None
    side: Name
    stats: StatsRef = Field(description="a bestiary name or an inline stat block (whose name defaults to the "
                                        "combatant's)")
    position: SquareIn | None = None
    positions: list[SquareIn] | None = Field(None, max_length=MAX_COPIES,
                                             description="with count: one position per copy")
    count: int = Field(1, ge=1, le=MAX_COPIES)
    hp: int | None = Field(None, ge=-MAX_HP, le=MAX_HP,
                           description="starting hit points, if not the stat block's maximum; at least 1 "
                                       "unless starts_down is true")
    starts_down: bool = Field(False, description="allow hp 0 or below: the creature starts disabled, dying or "
                                                 "dead as the ruleset says (refused otherwise: a typo like "
                                                 "hp: -5 would end the battle in round 1)")
    sneaky: bool = Field(False, description="makes a Stealth check for surprise (PFB-SURP-02)")
    initiative: int | None = Field(None, ge=-MAX_MODIFIER, le=MAX_MODIFIER,
                                   description="a fixed initiative result instead of a roll")
    conditions: list[Condition] = Field([], max_length=MAX_LIST_ITEMS,
                                        description="starting conditions, e.g. prone, held:15, panicked:valeros:12 "
                                                    "(afraid of the combatant valeros, Will DC 12)")
    wielding: Name | None = None
    effects: list[EffectSpec] = Field([], max_length=MAX_LIST_ITEMS,
                                      description="timed effects it starts with (each with a duration in rounds)")

    @model_validator(mode="before")
    @classmethod
    def _inline_block_is_named(cls, data: Any) -> Any:
        """An inline stat block without a name takes the combatant's name (or id)."""
        if isinstance(data, dict) and isinstance(data.get("stats"), dict) and not data["stats"].get("name"):
            name = data.get("name") or data.get("id")
            if isinstance(name, str):
                data = {**data, "stats": {**data["stats"], "name": name}}
        return data


class AmbushSpec(_Strict):
    """An ambush prepared before the fight (Epic Path, EP-SURP-02..30): the ambush check's inputs and the
    awareness checks' — facts of the scene the GM sets, not rules."""

    ambushers: list[Name] = Field(default_factory=list, max_length=MAX_COMBATANTS,
                                  description="ids of the ambushing party (empty: no ambush was set up)")
    minutes: int = Field(1, ge=0, le=10000, description="full minutes of preparation (EP-SURP-02/05)")
    skilled: int = Field(0, ge=0, le=MAX_MODIFIER, description="skilled-ambusher bonus (EP-SURP-06)")
    hiding_places: bool = Field(False, description="every ambusher in good hiding places (EP-SURP-08/09)")
    invisible: bool = Field(False, description="every ambusher invisible (EP-SURP-10)")
    ruined: bool = Field(False, description="an ambusher spoke aloud or moved: the ambush is ruined (EP-SURP-12)")
    on_guard: bool = Field(False, description="the prey follow or approach a foe that just ducked out of sight: "
                                              "no surprise round is possible (EP-SURP-13)")
    dc_step: int = Field(0, ge=0, le=2, description="the ambushers raise the awareness DC: 1 = Hard, "
                                                     "2 = Impossible (EP-SURP-25)")
    spotting: list[Name] = Field(default_factory=list, max_length=MAX_COMBATANTS,
                                 description="ids of the prey that were making Spot checks (EP-SURP-26)")
    distracted: list[Name] = Field(default_factory=list, max_length=MAX_COMBATANTS,
                                   description="ids of the prey absorbed in a distraction (EP-SURP-15/16)")
    check: int | None = Field(None, ge=-MAX_MODIFIER, le=MAX_MODIFIER,
                              description="the GM's ambush check total instead of a roll")


class SurpriseSpec(_Strict):
    surprised: list[Name] | None = Field(None, max_length=MAX_COMBATANTS,
                                         description="ids surprised, decided by the GM (no checks)")
    ambush: AmbushSpec | None = Field(None, description="Epic Path's ambush check and awareness (EP-SURP)")


class Scenario(_Strict):
    name: Name = "Unnamed encounter"
    description: str = Field("", max_length=MAX_TEXT_CHARS)
    ruleset: Name = "pathfinder-beginner"
    variants: dict[Name, Any] = Field(default_factory=dict, max_length=MAX_LIST_ITEMS,
                                      description="named variant options of the ruleset")
    map: MapSpec
    combatants: list[CombatantSpec] = Field(min_length=2, max_length=MAX_COMBATANTS,
                                            description="creatures; with every copy of a count, at most "
                                                        f"{MAX_COMBATANTS}")
    surprise: SurpriseSpec | None = None
    max_rounds: int = Field(100, ge=1, le=10000)
