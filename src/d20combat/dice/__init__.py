"""Dice: injected sources of randomness, every roll recorded, expressions parsed by ``d20``."""

from d20combat.dice.expression import DiceExpr, DiceSyntaxError, parse_dice
from d20combat.dice.source import (
    DiceError,
    DiceSource,
    Roll,
    ScriptedDice,
    SeededDice,
    TypedDice,
)

__all__ = [
    "DiceError",
    "DiceExpr",
    "DiceSource",
    "DiceSyntaxError",
    "Roll",
    "ScriptedDice",
    "SeededDice",
    "TypedDice",
    "parse_dice",
]
