"""P8 attack of the skill-based rules: the weapon skill on the roll, what a natural 20 and 1 count as, the
weapons a creature attacks with undrawn, reach and range."""

from __future__ import annotations

from d20combat.battlefield.distance import footprint_gap
from d20combat.battlefield.grid import Footprint
from d20combat.battlefield.reach import within_reach
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import AttackOption, Creature
from d20combat.numbers import Modifier
from d20combat.rules import attack as attack_rules
from d20combat.rulesets.components import AttackInfo, D20Attack, View
from d20combat.rulesets.skill_based.options import UNARMED
from d20combat.rulesets.skill_based.skills import skill_rating, weapon_skill
from d20combat.rulesets.skill_based.two_weapon import TwoWeapons


class WeaponSkillAttack(D20Attack):
    """SKL-ATK-01..09: d20 + weapon skill + Str (melee) or Dex (ranged) against Passive Defense; a natural 20
    counts as 30 and a natural 1 as −10, with no automatic hit or miss (SKL-ATK-05..07). The two-weapon
    penalties of each hand (SKL-TWF-03/04). No −4 into melee and no minimum range: shooting next to an enemy
    provokes instead (SKL-AOO-14); range increments only as a variant (rules-diff §2.5). A Small or Medium
    creature's reach weapon reaches the ring 2 squares away, diagonals included (SKL-AOO-05..09)."""

    def __init__(self, hands: TwoWeapons, *, range_increments: bool = False, reach_inclusive: bool = False) -> None:
        super().__init__()
        self.hands = hands
        self.range_increments = range_increments
        """rules-diff §2.5 (variant ``skl_range_increments``): PFB's −2 per range increment."""
        self.reach_inclusive = reach_inclusive
        """SKL-AOO-08 (variant ``skl_reach_inclusive``): a reach weapon also reaches the adjacent squares."""

    def attack_modifiers(self, creature: Creature, option: AttackOption) -> list[Modifier]:
        """SKL-ATK-08/09: weapon skill + Str (melee) or Dex (ranged, thrown included). PF's Weapon Focus
        (the profile's ``bonus``) is not part of it; a magic weapon's enhancement is."""
        skill = weapon_skill(option.weapon)
        mods = [Modifier(skill_rating(creature, skill), f"{skill} skill"),
                Modifier(creature.dex_mod, "Dex") if option.is_ranged else Modifier(creature.str_mod, "Str")]
        if option.weapon.enhancement:
            mods.append(Modifier(option.weapon.enhancement, "enhancement", "enhancement"))
        return mods

    def situational_attack_modifiers(self, view: View, attack: AttackInfo) -> list[Modifier]:
        """SKL-TWF-03/04: the two-weapon penalty of the attacking hand."""
        penalty = self.hands.hand_penalty(view.creature(attack.attacker), view.state.get(attack.attacker),
                                          "off" if attack.option.off_hand else "primary")
        return [penalty] if penalty is not None else []

    def effective_face(self, face: int) -> int:
        """SKL-ATK-05/06: a natural 20 counts as 30, a natural 1 as −10 (attack rolls only, SKL-ATK-07)."""
        return 30 if face == 20 else -10 if face == 1 else face

    def natural(self, face: int) -> tuple[bool, bool]:
        """SKL-ATK-07: no automatic hit or miss."""
        return False, False

    def holds(self, creature: Creature, state: CombatantState, option: AttackOption) -> bool:
        """The weapon in hand, the off-hand weapon and the unarmed strike need no drawing."""
        if self.hands.broken(state, option.name):
            return False
        return state.wielding == option.name or option.off_hand or weapon_skill(option.weapon) == UNARMED

    def in_melee_reach(self, creature: Creature, option: AttackOption, attacker: Footprint, target: Footprint) -> bool:
        """SKL-AOO-03/05: the adjacent squares; SKL-AOO-08: a Small or Medium creature's reach weapon reaches
        every square 2 squares away, diagonals included (``skl_reach_inclusive``: and the adjacent ones);
        SKL-AOO-07/09: otherwise the creature's reach by the 5/10 rule."""
        if option.weapon.reach and creature.space == 1:
            gap = max(footprint_gap(attacker, target))
            return gap == 2 or (self.reach_inclusive and gap == 1)
        return within_reach(attacker, creature.reach_ft, target)

    def into_melee_penalty(self, creature: Creature) -> Modifier | None:
        return None

    def ranged_needs_clearance(self) -> bool:
        """Shooting next to an enemy is allowed; it provokes (SKL-AOO-14)."""
        return False

    def ranged_limits(self, distance_ft: int, option: AttackOption) -> attack_rules.RangeCheck:
        """No minimum range; the weapon's maximum range stands; −2 per increment only with ``skl_range_increments``."""
        rc = attack_rules.range_check(max(distance_ft, attack_rules.MIN_RANGED_DISTANCE_FT), option)
        return rc if self.range_increments or rc.problem else attack_rules.RangeCheck(0, None)
