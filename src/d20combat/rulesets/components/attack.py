"""P8 attack: what is added to the roll, what a face means, reach and range, and what forbids an attack."""

from __future__ import annotations

from d20combat.battlefield.grid import Footprint
from d20combat.battlefield.reach import within_reach
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import AttackOption, Creature
from d20combat.numbers import Modifier
from d20combat.rules import attack as attack_rules
from d20combat.rulesets.components.component import AttackInfo, Component, View


class D20Attack(Component):
    """PFB-ATK / PFB-NAT: d20 + BAB + Str or Dex (+ feats) against the target number; a natural 20 always
    hits and a natural 1 always misses; −4 into melee; no ranged attack within 10 ft of an enemy."""

    def __init__(self, *, into_melee_ignores_helpless_allies: bool = False,
                 ranged_min_range_ignores_helpless: bool = False) -> None:
        self.into_melee_ignores_helpless_allies = into_melee_ignores_helpless_allies
        """PFB-ATK-07: helpless allies don't cause the −4."""
        self.ranged_min_range_ignores_helpless = ranged_min_range_ignores_helpless
        """PFB-ATK-09: helpless enemies don't forbid ranged attacks."""

    def attack_modifiers(self, creature: Creature, option: AttackOption) -> list[Modifier]:
        return attack_rules.attack_roll_modifiers(creature, option)

    def situational_attack_modifiers(self, view: View, attack: AttackInfo) -> list[Modifier]:
        """Position and condition modifiers on the attack roll (none in PFB)."""
        return []

    def flat_footed_against(self, view: View, attack: AttackInfo) -> bool:
        """Whether the way this attack is made catches the target flat-footed against it (Epic Path: from
        stealth, EP-SURP-14). None in PFB."""
        return False

    def attack_problem(self, view: View, attack: AttackInfo) -> str | None:
        """Why the attacker's own state or the terrain forbids this attack (P8 legality), else None.
        PFB has no such rule beyond reach, range and cover."""
        return None

    def natural(self, face: int) -> tuple[bool, bool]:
        """(automatic hit, automatic miss) for this face (PFB-NAT-01)."""
        return attack_rules.natural_result(face)

    def effective_face(self, face: int) -> int:
        """What the die counts as in the total (PFB-NAT-02: only the number on the die)."""
        return face

    def holds(self, creature: Creature, state: CombatantState, option: AttackOption) -> bool:
        """Can ``option`` attack without being drawn first (PFB-ITEM-01: only the weapon in hand)."""
        return state.wielding == option.name

    def in_melee_reach(self, creature: Creature, option: AttackOption, attacker: Footprint, target: Footprint) -> bool:
        """PFB-ATK-02 / PFB-GRID-07: the melee attack reaches the target."""
        return within_reach(attacker, creature.reach_ft, target)

    def ranged_limits(self, distance_ft: int, option: AttackOption) -> attack_rules.RangeCheck:
        """PFB-ATK-04..06/10/11: the range penalty, or why the target cannot be shot at."""
        return attack_rules.range_check(distance_ft, option)

    def into_melee_penalty(self, creature: Creature) -> Modifier | None:
        """PFB-ATK-07/08: −4 shooting at an enemy adjacent to an ally, unless Precise Shot."""
        if creature.has_feat("precise_shot"):
            return None
        return Modifier(-4, "into melee")

    def ranged_needs_clearance(self) -> bool:
        """PFB-ATK-09: no ranged weapon attack within 10 ft of any enemy."""
        return True
