"""Dice expressions ("2d6+3", "1d8 - 1") parsed by the ``d20`` library and compiled to sums of
dice and a flat bonus, so the hot path never re-parses text."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import d20
from d20 import diceast

from d20combat.dice.source import DiceSource
from d20combat.errors import D20CombatError
from d20combat.limits import MAX_DICE_BONUS, MAX_DICE_COUNT, MAX_DICE_SIDES, MAX_DICE_TEXT


class DiceSyntaxError(D20CombatError):
    """A dice expression the engine cannot use."""


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """``count`` d ``sides`` + ``bonus``; ``count`` 0 is a flat number."""

    count: int
    sides: int
    bonus: int = 0

    def __str__(self) -> str:
        if self.count == 0:
            return str(self.bonus)
        text = f"{self.count}d{self.sides}"
        if self.bonus:
            text += f"{self.bonus:+d}"
        return text

    @property
    def minimum(self) -> int:
        return self.count + self.bonus

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.bonus

    @property
    def mean(self) -> float:
        return self.count * (self.sides + 1) / 2 + self.bonus

    def times(self, n: int) -> DiceExpr:
        """The same expression rolled ``n`` times and summed (critical multiplication)."""
        return DiceExpr(self.count * n, self.sides, self.bonus * n)

    def roll_faces(self, dice: DiceSource, purpose: str) -> tuple[int, ...]:
        return tuple(dice.roll(self.sides, purpose) for _ in range(self.count))


@lru_cache(maxsize=1024)
def parse_dice(text: str) -> DiceExpr:
    """Parse ``NdS+B`` forms. Mixed die sizes are rejected: the engine keeps one die size per part. The limits
    of :mod:`d20combat.limits` are checked before the parser runs and on its result, so no expression costs
    more than a parse of 64 characters."""
    if len(text) > MAX_DICE_TEXT:
        raise DiceSyntaxError(f"{text[:20]!r}…: a dice expression has at most {MAX_DICE_TEXT} characters")
    try:
        ast = d20.parse(text)
    except d20.RollSyntaxError as exc:
        raise DiceSyntaxError(_plain_syntax_error(text, exc)) from None
    except RecursionError:
        raise DiceSyntaxError(f"{text!r}: too deeply nested") from None
    count, sides, bonus = _walk(ast.roll, text, 1)
    if count < 0:
        raise DiceSyntaxError(f"{text!r}: a negative number of dice")
    if count > MAX_DICE_COUNT:
        raise DiceSyntaxError(f"{text!r}: {count} dice; at most {MAX_DICE_COUNT} in one expression")
    if abs(bonus) > MAX_DICE_BONUS:
        raise DiceSyntaxError(f"{text!r}: a bonus of {bonus}; at most ±{MAX_DICE_BONUS}")
    return DiceExpr(count, sides, bonus)


def _plain_syntax_error(text: str, exc: d20.RollSyntaxError) -> str:
    """The parser's complaint in plain words: no grammar token names (``DICE_VALUE``, ``U_OP``…)."""
    expected = set(getattr(exc, "expected", ()) or ())
    got = getattr(exc, "got", None)
    got_text = str(getattr(got, "value", got) or "")
    at_end = getattr(got, "type", "") == "$END" or not got_text.strip()
    if not text.strip():
        return "an empty dice expression; write one like 2d6+3"
    if "DICE_VALUE" in expected:
        return f"{text!r}: a die needs its number of sides, like 2d6"
    if at_end and "RPAR" in expected:
        return f"{text!r}: a '(' is never closed"
    if at_end:
        return f"{text!r} is not a dice expression like 2d6+3: it stops short after {text.rstrip()[-1]!r}"
    col = getattr(exc, "col", None)
    where = f" at position {col}" if isinstance(col, int) else ""
    return f"{text!r} is not a dice expression like 2d6+3: unexpected {got_text.strip()[:10]!r}{where}"


def _walk(node: object, text: str, sign: int) -> tuple[int, int, int]:
    if isinstance(node, diceast.Literal):
        return 0, 0, sign * int(node.value)
    if isinstance(node, diceast.Dice):
        if not isinstance(node.size, int):  # d20's "d%"
            raise DiceSyntaxError(f"{text!r}: write a percentile die as d100")
        if node.num < 0 or node.size < 1:
            raise DiceSyntaxError(f"{text!r}: impossible dice {node.num}d{node.size}")
        if node.num > MAX_DICE_COUNT or node.size > MAX_DICE_SIDES:
            raise DiceSyntaxError(f"{text!r}: {node.num}d{node.size}; at most {MAX_DICE_COUNT} dice of at most "
                                  f"{MAX_DICE_SIDES} sides")
        return sign * int(node.num), int(node.size), 0
    if isinstance(node, diceast.Parenthetical):
        return _walk(node.value, text, sign)
    if isinstance(node, diceast.UnOp) and node.op in "+-":
        return _walk(node.value, text, -sign if node.op == "-" else sign)
    if isinstance(node, diceast.BinOp) and node.op in "+-":
        lc, ls, lb = _walk(node.left, text, sign)
        rc, rs, rb = _walk(node.right, text, -sign if node.op == "-" else sign)
        if lc and rc and ls != rs:
            raise DiceSyntaxError(f"{text!r}: mixed die sizes; give each die size its own part")
        return lc + rc, ls or rs, lb + rb
    raise DiceSyntaxError(f"{text!r}: only sums of NdS and numbers are supported")
