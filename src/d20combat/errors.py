"""The one error family the library raises for bad input.

Every refusal of input — a malformed scenario, an illegal action, a wrongly typed die, a bad dice
expression, a tampered log — is a :class:`D20CombatError` (and a ``ValueError``), with a message
naming the problem and where. Catch ``D20CombatError`` to catch them all; anything else escaping the
library is a bug. The specific classes live beside the code that raises them and are re-exported here
(imported on first use, so that ``d20combat.errors`` itself imports nothing):

- ``IllegalAction`` (``d20combat.encounter.resolution``): an action the rules forbid now, an action of another
  ruleset, any action before ``start()``;
- ``ActionFormatError`` (``d20combat.encounter.actions``): action data (JSON) that makes no action — an unknown
  kind, an unknown field, a value of the wrong type or outside its list;
- ``ScenarioError`` (``d20combat.scenario.loader``): a scenario that cannot be loaded, every problem by path;
- ``DiceError`` (``d20combat.dice.source``): a typed die the engine did not ask for, or a face it cannot show;
- ``DiceSyntaxError`` (``d20combat.dice.expression``): a dice expression that does not parse or is too big;
- ``OddsError`` (``d20combat.odds.attack``): odds asked of impossible numbers or of an illegal attack;
- ``SweepError`` (``d20combat.simulation.sweep``): a sweep's ``--vary`` that cannot be applied;
- ``LogError`` (``d20combat.encounter.verify``): an imported export or a replay log whose events the engine would
  not have produced, with ``.index``, the first bad event.

    >>> from d20combat.errors import D20CombatError, IllegalAction
    >>> issubclass(IllegalAction, D20CombatError) and issubclass(D20CombatError, ValueError)
    True
"""

from __future__ import annotations

from importlib import import_module
from typing import Any


class D20CombatError(ValueError):
    """Bad input, refused: nothing changed. The message names the field, rule or die and why."""


_HOMES = {
    "IllegalAction": "d20combat.encounter.resolution",
    "ActionFormatError": "d20combat.encounter.actions",
    "ScenarioError": "d20combat.scenario.loader",
    "DiceError": "d20combat.dice.source",
    "DiceSyntaxError": "d20combat.dice.expression",
    "OddsError": "d20combat.odds.attack",
    "SweepError": "d20combat.simulation.sweep",
    "LogError": "d20combat.encounter.verify",
}

__all__ = ["D20CombatError", *_HOMES]


def __getattr__(name: str) -> Any:
    """``from d20combat.errors import IllegalAction``: the subclass from the module that raises it (imported late,
    since those modules import this one)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    cls = getattr(import_module(home), name)
    globals()[name] = cls
    return cls
