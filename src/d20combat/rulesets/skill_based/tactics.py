"""P20 AI tactics of the skill-based rules: what to do with the round's complex actions."""

from __future__ import annotations

from typing import Any

from d20combat.encounter.actions import Attack, EndTurn
from d20combat.encounter.state import EncounterState
from d20combat.model.creature import AttackOption
from d20combat.model.statblock import WeaponKind, ability_mod
from d20combat.rulesets.components import CoreTactics, View
from d20combat.rulesets.skill_based.actions import BonusAttack, CastSpell, Feint, Reserve
from d20combat.rulesets.skill_based.active_defense import BlockAndDodge
from d20combat.rulesets.skill_based.criticals import DeclaredCriticalAttack
from d20combat.rulesets.skill_based.damage import ArmorRatingDamage
from d20combat.rulesets.skill_based.feint import feint_opening
from d20combat.rulesets.skill_based.options import OFFHAND, RESERVE
from d20combat.rulesets.skill_based.reactions import SkillAttacksOfOpportunity
from d20combat.rulesets.skill_based.skills import skill_rating, weapon_skill
from d20combat.rulesets.skill_based.two_weapon import TwoWeapons


class SkillTactics(CoreTactics):
    """What the skill-based rules recommend: cast spells through :class:`CastSpell` (SKL-CSPL-02); hold the
    round's actions when wounded and engaged, or before walking out of a threatened square (SKL-RES-02,
    SKL-AOO-11); feint a foe whose block or dodge would spoil our attack (SKL-FEINT-05); pick the critical-attack
    penalty with the best expected damage, armor making small hits worthless (SKL-CRIT, SKL-DMG-03); use the
    off-hand bonus attack (SKL-TWF-01); never walk out of a threatened square with nothing left to strike or
    defend with."""

    def __init__(self, hands: TwoWeapons, reactions: SkillAttacksOfOpportunity, active_defense: BlockAndDodge,
                 damage: ArmorRatingDamage, criticals: DeclaredCriticalAttack) -> None:
        self.hands = hands
        self.reactions = reactions
        self.active_defense = active_defense
        self.damage = damage
        self.criticals = criticals

    def ai_suggestion(self, enc: Any, actor: str) -> Any:
        s: EncounterState = enc.state
        turn = s.turn
        if turn is None:
            return None
        creature, cs = enc.creature(actor), s.get(actor)
        foes = sorted((f for f in enc.enemies(actor) if not self.rules.injury.out_of_fight(enc.creature(f), s.get(f))),
                      key=lambda f: (s.get(f).hp, f))
        if not foes:
            return None
        complex_left, offhand_left = turn.pools.get("complex", 0), turn.pools.get(OFFHAND, 0)
        main = self.hands.wielded(creature, cs)
        if complex_left and main is not None and main.kind is WeaponKind.SPELL:
            for foe in foes:
                cast = CastSpell(main.name, foe)
                if enc.check(cast) is None:
                    return cast
        view = enc.view(s)
        engaged = self.reactions.engaged(view, actor)
        off = self.hands.off_hand(creature, cs) if self.hands.two_weapon_on(cs) else None
        off_attack = off.option if offhand_left and off is not None else None
        choices: list[tuple[float, Any]] = []
        for foe in foes:
            if complex_left and main is not None:
                choices += self._strike_choices(enc, view, actor, main, foe, off_attack is not None, bonus=False)
            if off_attack is not None:
                choices += self._strike_choices(enc, view, actor, off_attack, foe, False, bonus=True)
        best = max((c[0] for c in choices), default=0.0)
        if (turn.pools.get("declare", 0) and complex_left and engaged and cs.hp * 3 <= creature.sheet.hp
                and best < 1):
            return Reserve(complex_left, offhand_left)  # wounded, and no attack worth making: defend
        for _, action in sorted(choices, key=lambda c: -c[0]):
            if enc.check(action) is None:
                return action
        if (turn.pools.get("declare", 0) and complex_left and engaged
                and not any(self._can_attack(enc, actor, main, f) for f in foes)):
            return Reserve(complex_left, offhand_left)  # any move from here provokes: hold the action for it
        if engaged and not complex_left and not offhand_left and not cs.reactions.get(RESERVE, 0):
            return EndTurn()  # nothing left to strike or defend with: do not provoke for nothing
        return None

    @staticmethod
    def _can_attack(enc: Any, actor: str, option: AttackOption | None, foe: str) -> bool:
        if option is None:
            return False
        try:
            enc.plan_attack(actor, foe, option.name, square=enc.state.get(foe).position)
        except ValueError:
            return False
        return True

    def _expected_damage(self, bonus: int, pd: int, mean: float, factor: int, best_def: int | None) -> list[float]:
        """Expected damage of one attack at each critical-attack penalty 0..5, the defender answering a hit with
        its best block or dodge (``best_def``) when it can."""
        out: list[float] = []
        for p in range(6):
            value = 0.0
            for face in range(1, 21):
                roll = self.rules.attack.effective_face(face) + bonus - p
                if roll >= pd:
                    stop = 0.0 if best_def is None else min(max(21 - (roll - best_def), 0), 20) / 20
                    value += (1 - stop) * max(mean + p * factor, 0) / 20
            out.append(value)
        return out

    def _strike_choices(self, enc: Any, view: View, actor: str, option: AttackOption, foe: str,
                        follow_up: bool, *, bonus: bool) -> list[tuple[float, Any]]:
        """(expected damage, action): the attack at its best penalty, and a feint when the foe's defenses would
        spoil more than the attack is worth (``follow_up``: an off-hand attack can use the opening at once)."""
        s = enc.state
        square = s.get(foe).position
        try:
            plan = enc.plan_attack(actor, foe, option.name, square=square)
        except ValueError:
            return []
        creature, target, ts = enc.creature(actor), enc.creature(foe), s.get(foe)
        hit_bonus = sum(m.value for m in plan.modifiers)
        pd, _ = enc.target_ac(plan, s)
        defenses = {} if feint_opening(ts, actor) else self.active_defense.available_defenses(view, plan)
        best_def = max(defenses.values(), default=None)
        mean = (option.dice.mean + self.rules.damage.damage_strength(creature, option)
                - self.damage.armor_rating(target))
        factor = self.criticals.damage_factor(option)
        values = self._expected_damage(hit_bonus, pd, mean, factor, best_def)
        p = max(range(6), key=lambda k: (values[k], -k))
        action: Any = (BonusAttack(foe, option.name, -p, square) if bonus
                       else Attack(foe, option.name, square=square, critical=-p))
        out: list[tuple[float, Any]] = [(values[p], action)]
        if best_def is not None and not bonus and not option.is_ranged:
            open_value = max(self._expected_damage(hit_bonus, pd, mean, factor, None))
            feint = (skill_rating(creature, weapon_skill(option.weapon)) + ability_mod(creature.sheet.abilities.int))
            resist = skill_rating(target, "defense") + ability_mod(target.sheet.abilities.wis)
            wins = sum(1 for x in range(1, 21) for y in range(1, 21) if x + feint > y + resist) / 400
            gain = wins * (open_value - values[p]) * (2 if follow_up else 1)
            if gain > values[p]:
                out.append((gain, Feint(foe)))
        return out
