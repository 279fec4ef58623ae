"""The one error family the library raises for bad input.

Every refusal of input — a malformed scenario, an illegal action, a wrongly typed die, a bad dice
expression, a tampered log — is a :class:`D20CombatError` (and a ``ValueError``), with a message
naming the problem and where. Catch ``D20CombatError`` to catch them all; anything else escaping the
library is a bug. The specific classes live beside the code that raises them and are re-exported here.
"""

from __future__ import annotations


class D20CombatError(ValueError):
    """Bad input, refused: nothing changed. The message names the field, rule or die and why."""
