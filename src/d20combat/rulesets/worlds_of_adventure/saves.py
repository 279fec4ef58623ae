"""Saving throws with degrees of success (WOA-STAT-59..83): superior success (beating the DC by 10 or more) and
catastrophic failure (failing it by 10 or more), and what they do to an attack that deals half damage on a save.

The save's bonus is the core's (base + ability, from the stat block). What WOA adds is the degree:
- natural 1 always fails, natural 20 always succeeds (WOA-STAT-79/82), without changing the degree beyond that:
  a natural 1 is catastrophic only if the result is also ≤ DC − 10, a natural 20 superior only if ≥ DC + 10
  (WOA-STAT-81/83);
- half damage on a save (WOA-STAT-76/78): superior → min(¼ of the full damage, the least the dice could roll);
  success → half; failure → full; catastrophic → max(1½ × the full damage, the most the dice could roll); all
  rounded down (WOA-1 conventions).
"""

from __future__ import annotations

from enum import StrEnum

from d20combat.rulesets.components.saves import _SAVE_ALIASES, D20Saves


class Degree(StrEnum):
    CATASTROPHIC = "catastrophic failure"
    FAILURE = "failure"
    SUCCESS = "success"
    SUPERIOR = "superior success"


def degree(face: int, result: int, dc: int) -> Degree:
    """WOA-STAT-75/77/79/81/82/83: the degree of a saving throw of ``result`` (the d20 showed ``face``) against
    ``dc``."""
    if result >= dc + 10 and face != 1:
        return Degree.SUPERIOR
    if result <= dc - 10 and face != 20:
        return Degree.CATASTROPHIC
    if face == 20:
        return Degree.SUCCESS
    if face == 1:
        return Degree.FAILURE
    return Degree.SUCCESS if result >= dc else Degree.FAILURE


def half_damage_on_save(grade: Degree, full: int, least: int, most: int) -> tuple[int, str]:
    """WOA-STAT-76/78: the damage of an attack that deals half on a successful save, by the save's degree; ``full``
    the damage rolled, ``least``/``most`` the least and most its dice could roll."""
    if grade is Degree.SUPERIOR:
        amount = min(full // 4, least)
        return amount, f"superior success: min(¼ × {full}, least roll {least}) = {amount} (WOA-STAT-76)"
    if grade is Degree.SUCCESS:
        return full // 2, f"success: half of {full} = {full // 2}"
    if grade is Degree.FAILURE:
        return full, f"failure: {full}"
    amount = max(full * 3 // 2, most)
    return amount, f"catastrophic failure: max(1½ × {full}, most roll {most}) = {amount} (WOA-STAT-78)"


class WoaSaves(D20Saves):
    """WOA-STAT-59..62 (the core's save bonus) with WOA's degrees: :meth:`degree` and :func:`half_damage_on_save`."""

    def degree(self, kind: str, face: int, result: int, dc: int) -> Degree:
        """The degree of a saving throw; a check (not a save) only succeeds or fails, with no natural results."""
        if kind.strip().lower() in _SAVE_ALIASES:
            return degree(face, result, dc)
        return Degree.SUCCESS if result >= dc else Degree.FAILURE

    def succeeds(self, kind: str, face: int, total: int, dc: int) -> bool:
        return self.degree(kind, face, total, dc) in (Degree.SUCCESS, Degree.SUPERIOR)
