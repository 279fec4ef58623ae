"""The request and answer shapes of the HTTP API (``docs/api.md``), as pydantic models.

Actions are the engine's own dataclasses: one model per action kind is built from them (the core's
and every ruleset's), so the OpenAPI names every field of every action and a malformed one is
rejected with the field's path before the engine sees it.
"""

from __future__ import annotations

import dataclasses
import sys
import typing
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, create_model

import d20combat.rulesets  # noqa: F401  (registers the rulesets' own actions)
from d20combat.encounter import actions as ax
from d20combat.encounter.gm_actions import GmAction
from d20combat.limits import MAX_LOG_EVENTS, MAX_LOG_WRITES, MAX_WRITE_DICE

Square = tuple[int, int]
SEED_MAX = 2**63 - 1


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------------------------------- actions
def action_classes() -> dict[str, list[type[ax.Action]]]:
    """Every action dataclass by kind. Two rulesets may give one kind each their own class
    (``cast_spell``): the list then holds both, the registered one first."""
    out: dict[str, list[type[ax.Action]]] = {k: [cls] for k, cls in ax.ACTION_TYPES.items()}
    stack: list[type[ax.Action]] = [ax.Action]
    while stack:
        cls = stack.pop()
        for sub in cls.__subclasses__():
            if issubclass(sub, GmAction):
                continue  # the game master's writes have their own route (server/gm_models.py)
            stack.append(sub)
            module = sys.modules.get(sub.__module__)
            if not dataclasses.is_dataclass(sub) or getattr(module, sub.__name__, None) is not sub:
                continue  # the pre-``slots`` copy of a dataclass, or a class defined inside a function
            known = out.setdefault(sub.kind, [])
            if sub not in known:
                known.append(sub)
    return out


def _action_model(kind: str, classes: list[type[ax.Action]], suffix: str = "Action") -> type[BaseModel]:
    fields: dict[str, Any] = {"kind": (Literal[kind], ...)}
    for cls in classes:
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            if f.name in fields:
                continue
            default = f.default if f.default is not dataclasses.MISSING else None
            fields[f.name] = (hints[f.name], default)
    doc = (classes[0].__doc__ or kind).strip().split("\n\n")[0]
    if len(classes) > 1:
        doc += " (the fields a ruleset's own version does not have are rejected in its encounters)"
    name = "".join(part.title() for part in kind.split("_")) + suffix
    model: type[BaseModel] = create_model(name, __config__=ConfigDict(extra="forbid"),
                                          __doc__=doc, **fields)
    return model


def _action_union() -> Any:
    models = tuple(_action_model(kind, classes) for kind, classes in sorted(action_classes().items()))
    return Annotated[Union[models], Field(discriminator="kind")]  # noqa: UP007


if TYPE_CHECKING:
    Action = BaseModel
else:
    Action = _action_union()


# ---------------------------------------------------------------------------------------- answers
class ErrorOut(BaseModel):
    detail: str = Field(description="what is wrong, naming the field or the rule")


class Summary(BaseModel):
    id: str
    name: str
    ruleset: str
    round: int
    ended: bool
    winner: str | None
    version: int
    players: str
    player_id: str = Field(description="the players' page's own id: /player/{player_id}, /api/play/{player_id}/…")


class Prompt(BaseModel):
    """A reaction window: the engine asks one creature before the action goes on."""

    reactor: str
    kind: str = Field(description="attack_of_opportunity, active_defense, …")
    trigger: str
    options: list[str]
    detail: str


class Turn(BaseModel):
    actor: str
    pools: dict[str, int]
    pool_labels: list[str] = Field([], description="what is left, as a person reads it (\"1 standard\", "
                                                   "\"1 move\", \"free actions\"; off-guard: major, minor)")
    moved: bool
    stepped: bool


class MapView(BaseModel):
    width: int
    height: int
    walls: list[Square]
    low_walls: list[Square]
    difficult: list[Square]
    pits: list[Square]
    water: list[Square]
    climb: list[Square]
    concealing: list[tuple[int, int, int]] = Field(description="[column, row, miss chance %]")
    dim: list[Square]
    dark: list[Square]
    elevation: list[tuple[int, int, int]] = Field([], description="[column, row, height in ft] of raised ground")
    lights: list[tuple[int, int, int, int]] = Field([], description="light sources (torches): [column, row, bright "
                                                                    "radius ft, further dim radius ft]")
    impeded: list[Square] = Field([], description="impeded terrain (`%`, epic-path EP-MOVE-05): a full-round action "
                                                  "moves 5 ft into, within or out of it; impassable elsewhere")
    blocked: list[Square] = Field([], description="blocked terrain that lets sight through (`B`, EP-MOVE-11)")
    splash_soft: list[Square] = Field([], description="squares too soft to break a thrown flask (EP-SPLASH-13)")


class EffectView(BaseModel):
    name: str
    until_round: int
    anchor: str
    ac: int = Field(0, description="a flat Armor Class modifier while it lasts")
    attack: int = Field(0, description="a flat attack modifier while it lasts")
    condition: str = Field("", description="a condition it brings while it lasts")


class StatOut(BaseModel):
    value: int
    explain: str = Field(description="e.g. 'Str +2 (17, fatigued −2)', 'AC 15 = 10 + armor 4 + Dex 1', "
                                     "'speed 15 ft (30, staggered half)', 'Will +3 = base 2 + Wis 1'")


class StatsOut(BaseModel):
    abilities: dict[str, StatOut] = Field(description="str, dex, con, int, wis, cha: the modifiers now")
    ac: StatOut = Field(description="the target number of an ordinary attack now (AC, Passive Defense…)")
    defenses: dict[str, StatOut] = Field(description="the ruleset's other target numbers: flat-footed or off-guard, "
                                                     "touch")
    speed: StatOut
    saves: dict[str, StatOut] = Field(description="fort, ref, will (and death where the ruleset has it)")


class ReactionBudgetView(BaseModel):
    pool: str = Field(description="the reactions component's per-round pool (`reactions`, `aoo`)")
    left: int = Field(description="how many it has left this round")
    budget: int = Field(description="how many it was given at the start of this round (never fewer than left)")


class CombatantView(BaseModel):
    id: str
    name: str
    side: str
    position: Square
    size: int
    hp: int | None = Field(description="null in the player view for creatures not on the players' side")
    max_hp: int | None
    status: str = Field(description="ok, disabled, dying, stable, dead, fled, surrendered — or the ruleset's own")
    conditions: list[str]
    labels: list[str] = Field(default_factory=list,
                              description="each condition (same order) as a person reads it, e.g. "
                                          "'panicked (by valeros, Will DC 12)' for 'panicked:valeros:12'")
    initiative: int | None
    effects: list[EffectView]
    wielding: str | None
    attacks: list[str]
    stats: StatsOut | None = Field(None, description="effective numbers under the conditions, explained; in the "
                                                     "player view only for the players' own characters")
    action_points: int | None = Field(None, description="unspent action points (epic-path, EP-MISC-22); null "
                                                        "without them, and in the player view for other sides")
    reactions: ReactionBudgetView | None = Field(
        None, description="its off-turn reactions this round (worlds-of-adventure's combat reactions, WOA-REACT-02; "
                          "epic-path's attack of opportunity): null in a ruleset without a per-round budget, and in "
                          "the player view for other sides")


class DeclarationView(BaseModel):
    combatant: str
    declaration: dict[str, Any] = Field(description="what it is held to now: a 'declare' action's fields without "
                                                    "the empty ones (after any ruling)")
    text: str = Field(description="the same in words: \"attack and move — at Valeros\"")
    declared: str = Field(description="what it declared, in words")
    ruled: str | None = Field(description="why its declaration was ruled (WOA-CYCLE-25: its foe is down or gone — "
                                          "the ruleset's default — or the GM's ruling), or null")
    by_gm: bool = Field(description="the ruling is the GM's (gm_rule_declaration)")


class InitiativeRoll(BaseModel):
    combatant: str
    total: int
    explanation: str = Field(description="\"19 = d20 12 + Ref base 3 + Dex 4 (round 2)\"")


class StateView(BaseModel):
    id: str
    version: int
    view: Literal["gm", "player"]
    name: str
    ruleset: str
    round: int
    combat_round: int = Field(1, description="the round of the current combat: differs from `round` after a "
                                             "surprise round or a reset (epic-path's 10-round limit, EP-TIME-13)")
    surprise_round: bool
    surprise_phase: str = Field("surprise round", description="what the ruleset calls the round with "
                                "`surprise_round` set: a surprise round (PFB, EP), the surprise attacks before round 1 "
                                "(worlds-of-adventure, WOA-CYCLE-07)")
    ended: bool
    winner: str | None
    end_reason: str
    map: MapView
    order: list[str]
    active: str | None
    declaring: list[str] = Field(default_factory=list, description="the creatures still to declare this round, the "
                                 "first declaring now (worlds-of-adventure's declaration phase, WOA-CYCLE-14)")
    declarations: list[DeclarationView] = Field(
        default_factory=list, description="this round's declarations, in the order made (the players' view: only "
        "their own side's — declarations are simultaneous, WOA-CYCLE-14)")
    initiative_rolls: list[InitiativeRoll] = Field(
        default_factory=list, description="this round's re-rolled initiative, in the order of play (a ruleset that "
        "re-rolls every round, WOA-CYCLE-02/17)")
    turn: Turn | None
    pending: Prompt | None
    combatants: list[CombatantView]
    revealed: list[str] = Field(default_factory=list,
                                description="the GM view only: creatures the GM revealed to the players")
    history: History | None = Field(None, description="the GM view only: what undo and redo would do now")


class History(BaseModel):
    undo: str | None = Field(description="what undo takes back (the step's first words), or null: nothing to undo")
    redo: str | None = Field(description="what redo puts back, or null: nothing to redo")


class Offer(BaseModel):
    kind: str = Field(description="action_point, hold, ready, throw_splash (a square): a registered action of the "
                                  "ruleset that takes a free choice")
    action: dict[str, Any] = Field(description="a representative form of it, checked by the engine now")
    legal: bool
    reason: str | None = Field(description="why the engine refuses it now, or null")
    label: str
    detail: str = Field(description="what it would do, in the engine's words (an action that rolls no die: "
                                    "the action point's benefit this round); empty otherwise")
    choices: dict[str, list[str]] = Field(description="the values the page may put in the action's fields "
                                                      "(hold: after; ready: trigger, target, attack)")


class DecisionOut(BaseModel):
    version: int
    actor: str | None
    round: int
    phase: Literal["turn", "declare"] = Field(
        "turn", description="'declare': the actor declares its round before initiative (worlds-of-adventure, "
        "WOA-CYCLE-14) and the options are 'declare' actions; 'turn': its turn or a reaction prompt")
    prompt: Prompt | None
    options: list[Action] = Field(description="every legal action now (empty while a reaction is asked for)")
    labels: list[str] = Field([], description="each option as a person reads it, in the same order "
                                              "(\"Hold 1 complex action in reserve (block, dodge, counterspell)\")")
    offers: list[Offer] = Field([], description="actions with a free choice (whom to act after, a trigger, a "
                                                "square), each checked now — see docs/api.md")


class EventOut(BaseModel):
    kind: str
    text: str


class Result(BaseModel):
    version: int
    events: list[EventOut]
    pending: Prompt | None
    state: StateView


class LogEntry(BaseModel):
    seq: int
    kind: str
    text: str
    event: dict[str, Any]


class ExportData(_In):
    """An encounter as a file: its scenario, the start's dice, committed event log and the write that made each
    step. An import replays the start and every write through the engine and refuses an event the engine would
    not have produced, naming ``events[i]`` (issue 12); it rolls what comes next from a fresh seed (issue 13)."""

    scenario: dict[str, Any]
    start_dice: list[list[int]] | None = Field(
        None, max_length=MAX_WRITE_DICE,
        description="the faces the start (surprise, initiative) rolled, [[sides, face], ...], in order")
    name: str = Field(min_length=1, max_length=200)
    players: str
    events: list[dict[str, Any]] = Field(min_length=1, max_length=MAX_LOG_EVENTS,
                                         description="the event log, encounter_started first")
    batches: list[Annotated[int, Field(ge=1)]] | None = Field(
        None, max_length=MAX_LOG_WRITES + 1,
        description="how many events the start and each committed write made, in order; checked against the "
                    "replay when given")
    writes: list[dict[str, Any] | None] | None = Field(
        None, max_length=MAX_LOG_WRITES,
        description="one per step after the start: {action, answers, dice: [[sides, face], ...]}, the action "
                    "with the reaction answers it was given and every die it rolled. Required by an import: "
                    "without it the log cannot be verified")


class ExportIn(ExportData):
    """An export to import: also one from before issue 13, which gave the start's seed instead of its dice."""

    seed: int | None = Field(None, ge=0, le=SEED_MAX,
                             description="an export from before issue 13: the seed the start was rolled with "
                                         "(give start_dice or seed)")


# ---------------------------------------------------------------------------------------- requests
Dice = Annotated[list[Annotated[str, Field(max_length=20)]], Field(
    max_length=200, description='typed dice "dN=F" in the order the engine asks for them; '
                                "the server rolls the others")]
Version = Annotated[int, Field(ge=0, description="the state version this write saw")]


class CreateIn(_In):
    example: str | None = Field(None, max_length=200, description="the name of a shipped example")
    scenario: dict[str, Any] | None = Field(None, description="a scenario in the scenario format")
    scenario_yaml: str | None = Field(None, max_length=1_000_000, description="a scenario as YAML or JSON text")
    seed: int | None = Field(None, ge=0, le=SEED_MAX, description="dice seed (default: a random one)")
    name: str | None = Field(None, min_length=1, max_length=200)
    players: str | None = Field(None, max_length=200, description="the side the player view shows in full")


class ActIn(_In):
    action: Action
    dice: Dice = []
    expected_version: Version


class ReactIn(_In):
    answer: str = Field(max_length=200)
    dice: Dice = []
    expected_version: Version


class VersionIn(_In):
    expected_version: Version


class RenameIn(_In):
    name: str = Field(min_length=1, max_length=200)
    expected_version: Version


class AiIn(_In):
    expected_version: Version
    until: Literal["action", "turn", "players", "reaction"] = Field(
        "turn", description="one action; the rest of this creature's turn; or every turn until the players' side "
                            "is to act (it also stops at a reaction the players' side must answer); ``reaction``: "
                            "answer the reaction being asked for now, whichever side's")


class RevealIn(_In):
    combatant: str = Field(max_length=200)
    revealed: bool = Field(True, description="true: the players see it whatever the rules say; false: the rules "
                                             "decide again")
