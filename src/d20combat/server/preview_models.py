"""The request and answer shapes of the preview routes (``/moves``, ``/preview/move``, ``/preview/attack``,
``/preview/dice``, ``/preview/charge``): what an action would do, before it is taken."""

from __future__ import annotations

from pydantic import BaseModel, Field

from d20combat.server.models import Action, Dice, Prompt, Square, _In


class MoveSquare(BaseModel):
    to: Square
    cost_ft: int
    path: list[Square]
    provokes: list[str] = Field(description="enemies whose reaction attack leaving a square on the way would draw")


class MovesOut(BaseModel):
    combatant: str
    squares: list[MoveSquare]


class Provoke(BaseModel):
    by: str
    square: Square = Field(description="the square whose leaving provokes")


class CoverOut(BaseModel):
    target: str
    degree: str = Field(description="none, partial, cover or total")
    reason: str
    ac_bonus: int


class PreviewMoveOut(BaseModel):
    legal: bool
    reason: str | None
    path: list[Square]
    cost_ft: int | None
    provokes: list[Provoke]
    cover: list[CoverOut] = Field(description="cover each enemy would have against an attack from the destination")


class ModifierOut(BaseModel):
    source: str
    value: int


class AttackCover(BaseModel):
    degree: str
    reason: str


class OddsOut(BaseModel):
    hit: float
    crit: float
    mean_damage: float
    drop_chance: float = Field(description="the chance this one attack brings the target to 0 hp or below")


class WeaponOut(BaseModel):
    name: str
    damage: str = Field(description="the weapon's damage dice with every static bonus, e.g. '1d8+3'")
    threat: str = Field(description="threat range and multiplier, e.g. '19-20/×2'")


class PreviewAttackOut(BaseModel):
    legal: bool
    reason: str | None
    modifiers: list[ModifierOut]
    bonus: int | None
    target_number: int | None
    defense_name: str
    defense_explanation: str
    cover: AttackCover | None
    concealment: int
    odds: OddsOut | None
    weapon: WeaponOut | None = Field(None, description="the attack's damage dice and threat range")


class PreviewMoveIn(_In):
    combatant: str = Field(max_length=200)
    to: Square
    via: list[Square] = Field([], max_length=20, description="waypoints the path passes in order (the cheapest "
                                                          "legal path through them); move with its path")


class PreviewAttackIn(_In):
    attacker: str = Field(max_length=200)
    target: str = Field(max_length=200)
    attack: str | None = Field(None, max_length=200)


class PreviewDiceIn(_In):
    """The dice an action (or the answer to the open prompt) rolls with the faces typed so far."""

    action: Action | None = Field(None, description="the action the GM is about to send (or give answer)")
    answer: str | None = Field(None, max_length=200, description="the answer to the open reaction prompt")
    dice: Dice = Field([], description="the faces typed so far, in order, like 'd20=14' (or a bare '14')")


class DieOut(BaseModel):
    sides: int
    purpose: str = Field(description="what the die decides: 'attack valeros->goblin', 'concealment …', "
                                     "'damage longsword', 'confirm …'")
    face: int | None = Field(description="the face typed for it; null for the next die")


class PreviewDiceOut(BaseModel):
    typed: list[DieOut] = Field(description="the dice the typed faces went to, in the engine's order")
    next: DieOut | None = Field(description="the next die the engine rolls; null when the action resolves with "
                                            "these, pauses for a reaction, or is refused")
    prompt: Prompt | None = Field(description="the reaction the action pauses for before any further die")
    error: str | None = Field(description="why these dice or this action are refused (naming the die expected)")
    complete: bool = Field(description="the typed faces are exactly the dice the action rolls")


class PreviewChargeIn(_In):
    attacker: str = Field(max_length=200)
    target: str = Field(max_length=200)


class ChargeEnd(BaseModel):
    to: Square
    legal: bool
    reason: str | None
    path: list[Square] = Field(description="the squares the charge passes, in order, ending at ``to``")
    provokes: list[Provoke]


class PreviewChargeOut(BaseModel):
    attacker: str
    target: str
    ends: list[ChargeEnd] = Field(description="the closest squares from which the charger could attack "
                                              "(PFB-CHG-09), each legal or not with the reason")
