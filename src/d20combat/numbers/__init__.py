"""Typed modifiers and totals that explain themselves."""

from d20combat.numbers.modifiers import Modifier, StackingPolicy, Total, core_stacking, total

__all__ = ["Modifier", "StackingPolicy", "Total", "core_stacking", "total"]
