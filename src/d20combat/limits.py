"""Input limits, declared once and enforced before any work is done (DESIGN.md: every input is bounded).

Each limit is checked where the input enters: dice expressions in :func:`d20combat.dice.parse_dice`, scenario
text in :func:`d20combat.scenario.loader.parse_scenario_text` (size, YAML aliases, nesting). Going over one is
an error naming the input and the limit, raised in well under a second with bounded memory.
"""

from __future__ import annotations

MAX_DICE_TEXT = 64
"""Characters in one dice expression ("2d6+3")."""
MAX_DICE_COUNT = 100
"""Dice in one expression (a critical multiplies them later; 100 is far above any weapon's)."""
MAX_DICE_SIDES = 1000
"""Sides of one die (d% is 100)."""
MAX_DICE_BONUS = 10_000
"""Absolute flat bonus of one expression."""

MAX_SCENARIO_BYTES = 1_000_000
"""Bytes of scenario text (YAML or JSON)."""
MAX_YAML_VALUES = 100_000
"""Values in a scenario once its YAML aliases (``*name``) are expanded: anchors are handy, alias bombs are
refused while composing, before anything expands them."""
MAX_NESTING = 32
"""Nesting depth of a scenario's mappings and lists."""
