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

MAX_PROBLEMS = 20
"""Problems listed by one :class:`~d20combat.scenario.ScenarioError`; the rest are counted ("… and 7 more"), so a
hostile scenario cannot make the error itself large."""

MAX_MAP_SIDE = 200
"""Squares along a map's side: ``width``, ``height``, the number of ``rows`` and the length of each row. A
200×200 map is 1,000 × 1,000 ft, far beyond any battle a table plays, and keeps line-of-sight and path searches
(which visit every square) cheap."""
MAX_AREA_ENTRIES = 1000
"""Entries (squares or rectangles) in one area list of a map (``walls``, ``fog``, ``torches``, ``skill_dc``…).
Bigger terrain is drawn with ``rows`` or a few rectangles."""
MAX_AREA_SQUARES = MAX_MAP_SIDE * MAX_MAP_SIDE
"""Squares one area list may cover, counted from its rectangles' corners before any rectangle is expanded: the
largest map once over."""

MAX_COMBATANTS = 200
"""Creatures in a scenario, counting every copy of a ``count``. Every turn the AI weighs each creature against
every other (lines of sight, reach, paths), so the work grows with the square of this number; 200 is ten times
the biggest fight a table runs and still plays a round in well under a second."""
MAX_COPIES = 100
"""``count`` of one combatant entry (a horde of identical creatures)."""
MAX_SIDES = 20
"""Sides in one battle (two or more are needed; a free-for-all of 20 is the most anyone plays)."""

MAX_NAME_CHARS = 100
"""Characters of a name, id, side, reference (bestiary, weapon, armor, skill, feat) or wielded attack."""
MAX_TEXT_CHARS = 2000
"""Characters of a free-text description."""
MAX_CONDITION_CHARS = 100
"""Characters of one starting condition (``"panicked:valeros:12"``)."""
MAX_LIST_ITEMS = 64
"""Items in a small list or table of a combatant or stat block: conditions, attacks, feats, skills, attributes,
variant options."""

MAX_HP = 10_000
"""Hit points of a stat block (its maximum) and, in either direction, a combatant's starting hit points."""
MAX_FEET = 1000
"""A distance in feet: speeds, reach, darkvision, a range increment."""
MAX_MODIFIER = 1000
"""Absolute value of a flat number on a sheet: bonuses, AC parts, skill ranks, a fixed initiative result."""

MAX_LOG_EVENTS = 200_000
"""Events in an imported export or a replayed log (a long battle has a few thousand); checked before any is
replayed, so a huge import is refused at once."""
MAX_LOG_WRITES = 20_000
"""Committed actions (write records) in an imported export or a replayed log."""
MAX_WRITE_DICE = 10_000
"""Dice one recorded action rolled (a full attack of many attacks, each critical, stays far below)."""
MAX_WRITE_ANSWERS = 100
"""Reaction answers one recorded action was given."""
MAX_WRITE_VALUES = 10_000
"""JSON values (numbers, strings, list items) in one recorded action: a ``path`` across the largest map fits."""

MAX_REQUEST_BYTES = 4_000_000
"""Bytes of one HTTP request body (the server answers 413 beyond it, counting a chunked body as it arrives): room
for a scenario at its limit written out as JSON text, or the import of a long battle (a 50-round fight of 20
creatures exports to about 190 KB)."""
