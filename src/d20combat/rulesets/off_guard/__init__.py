"""Combat Modifiers variant (seed 003, rule prefix CMV): the ``off-guard`` ruleset.

CMV is one chapter written on top of a Pathfinder-style core, so everything it does not say is
PFB's rule (initiative, the action budget, movement, criticals, damage: see ``inherits``). What it
swaps, each policy small:

- situational modifiers (CMV-SIT): higher ground +1, flanking +2 in melee, squeezing −4 attack /
  −4 AC, prone −4 AC against melee and +4 against ranged, −4 on its own melee attacks
- off-guard instead of flat-footed (CMV-COND-37..41): −2 AC *and* no Dex bonus, no reactions; the
  surprised are off-guard until their first turn, and so is anyone attacked by a foe it cannot see
- cover (CMV-COV): the attacker's best corner of any of its squares, a big target's best square in
  melee, soft cover from creatures against ranged and reach attacks, low obstacles only within
  30 ft, improved cover +8 on GM-graded squares, narrow openings only for long piercing weapons
- concealment (CMV-CONC): the sources add up, to at most 50 %, and the defender rolls d% after a hit
- reaction attacks are Epic Path's attacks of opportunity (leaving a threatened square, 1 a round);
  never by an off-guard creature, never against cover or total concealment
- helpless (CMV-HELP): Dex counts −5, −4 against melee; coup de grace (CMV-CDG): a full round,
  +4 to hit, then a death save DC 10 + damage
- health counts damage *taken* against a fixed hp (CMV-INJ): bloodied at half, staggered at hp,
  a death save when the damage passes hp, dying, stable, dead
- the 24 conditions (CMV-COND) are the table in ``data/cmv_conditions.yaml``; the procedures
  (death saves, fear saves, escaping, flanking, cornering) are the code below

Every AMBIGUOUS or MISSING point of CMV.md with a proposed reading is an option of
:class:`OffGuardOptions`, with that reading as its default.
"""

from __future__ import annotations

from d20combat.rulesets.off_guard.actions import BlindMove, CastSpell, CoupDeGrace, Escape, GmAttack, Guide
from d20combat.rulesets.off_guard.conditions import (
    CATEGORIES,
    CmvAllowance,
    CmvCover,
    cmv_data,
    damage_taken,
    long_piercing,
    parse_condition,
    reflex_damage,
    stored_conditions,
    wound_points,
)
from d20combat.rulesets.off_guard.options import OffGuardOptions
from d20combat.rulesets.off_guard.ruleset import OffGuard

__all__ = [
    "CATEGORIES",
    "BlindMove",
    "CastSpell",
    "CmvAllowance",
    "CmvCover",
    "CoupDeGrace",
    "Escape",
    "GmAttack",
    "Guide",
    "OffGuard",
    "OffGuardOptions",
    "cmv_data",
    "damage_taken",
    "long_piercing",
    "parse_condition",
    "reflex_damage",
    "stored_conditions",
    "wound_points",
]
