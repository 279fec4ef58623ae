"""P10 active defense of the skill-based rules: block and dodge, paid from the reserve, against an attack roll
that would hit — and the AI's answer to that window."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from d20combat import numbers
from d20combat.encounter import events as ev
from d20combat.encounter.prompts import ReactionPrompt
from d20combat.encounter.state import CombatantState, EncounterState
from d20combat.model.statblock import WeaponKind
from d20combat.numbers import Modifier, Total
from d20combat.rulesets.components import AttackInfo, NoActiveDefense, RuleError, View
from d20combat.rulesets.skill_based.criticals import DeclaredCriticalAttack
from d20combat.rulesets.skill_based.damage import ArmorRatingDamage
from d20combat.rulesets.skill_based.feint import feint_opening
from d20combat.rulesets.skill_based.options import FEINTED, OFFHAND, RESERVE, UNARMED
from d20combat.rulesets.skill_based.reactions import SkillAttacksOfOpportunity
from d20combat.rulesets.skill_based.skills import skill_rating, weapon_skill
from d20combat.rulesets.skill_based.two_weapon import TwoWeapons


@dataclass(frozen=True, slots=True)
class DefenseHint:
    """What the AI weighs when it is asked to block or dodge (never read by the rules): the attack's total, the
    defenses and their bonuses, the damage the hit would do, the defender's hp, and whether its held action
    would lapse unused anyway (it has had its turn this round)."""

    total: int
    bonuses: Mapping[str, int]
    danger: float
    hp: int
    spare: bool


@dataclass(frozen=True, slots=True)
class DefensePrompt(ReactionPrompt):
    """An active-defense prompt that carries its :class:`DefenseHint` to the AI (the prompt outlives the paused
    action, so this is where the hint travels)."""

    hint: DefenseHint | None = None


class BlockAndDodge(NoActiveDefense):
    """SKL-DEF-02..08: against an attack roll that would hit, the defender may spend a held complex action
    (SKL-RES-05) to block (d20 + weapon skill + Str, SKL-DEF-03/04; an empty hand blocks unless
    ``skl_block_needs_item``) or dodge (d20 + Defense + Dex, SKL-DEF-06); matching or beating the attack total
    negates it (SKL-DEF-05/07); ``skl_declare_before_roll``: committed before the roll (SKL-DEF-08). Bonus actions
    restricted to block or dodge pay first, then the off-hand bonus action for an off-hand block (SKL-ACT-09,
    SKL-TWF-02). −6 with a ranged weapon in melee (SKL-RNG-01); a ranged weapon blocks, and may break
    (SKL-RNG-02/03). No block or dodge against a successful feinter's next attack (SKL-FEINT-05)."""

    def __init__(self, hands: TwoWeapons, reactions: SkillAttacksOfOpportunity, damage: ArmorRatingDamage,
                 criticals: DeclaredCriticalAttack, *, declare_before_roll: bool = False,
                 block_needs_item: bool = False, double_weapon_blocks: bool = True,
                 ranged_block_breaks: bool = False) -> None:
        self.hands = hands
        self.reactions = reactions
        """Who is engaged in melee (SKL-RNG-01)."""
        self.damage = damage
        """The armor rating, for the AI's hint."""
        self.criticals = criticals
        """The critical-attack damage factor, for the AI's hint."""
        self.declare_before_roll = declare_before_roll
        """SKL-DEF-08 (variant ``skl_declare_before_roll``)."""
        self.block_needs_item = block_needs_item
        """SKL-DEF-03 (variant ``skl_block_needs_item``): an empty hand cannot block."""
        self.double_weapon_blocks = double_weapon_blocks
        """SKL-TWF-20 (``skl_double_weapon_blocks``): a double weapon's off-hand end blocks with the bonus action."""
        self.ranged_block_breaks = ranged_block_breaks
        """SKL-RNG-03 (variant ``skl_ranged_block_breaks``): a ranged weapon breaks in a failed block."""

    # ------------------------------------------------------------------------ the rolls and who pays
    def ranged_in_melee(self, view: View, cid: str) -> Modifier | None:
        """SKL-RNG-01: −6 on block and dodge while holding a ranged weapon in melee."""
        option = self.hands.wielded(view.creature(cid), view.state.get(cid))
        if option is None or not option.is_ranged or option.kind is WeaponKind.SPELL:
            return None
        return Modifier(-6, "ranged weapon in melee") if self.reactions.engaged(view, cid) else None

    def defense_rolls(self, view: View, cid: str) -> dict[str, list[Modifier]]:
        """Every active defense the creature could make now and its modifiers, whatever it has left to pay."""
        creature, cs = view.creature(cid), view.state.get(cid)
        ranged = self.ranged_in_melee(view, cid)
        tail = [ranged] if ranged is not None else []
        out: dict[str, list[Modifier]] = {
            "dodge": [Modifier(skill_rating(creature, "defense"), "Defense skill"), Modifier(creature.dex_mod, "Dex"),
                      *tail]}  # SKL-DEF-06
        main = self.hands.wielded(creature, cs)
        if main is not None and (main.kind is WeaponKind.SPELL or weapon_skill(main.weapon) == UNARMED):
            main = None  # an empty hand
        shield = self.hands.shield_in_hand(creature, cs)
        if main is not None or shield is not None or not self.block_needs_item:  # SKL-DEF-03
            if main is not None:
                skill, label = weapon_skill(main.weapon), f"{weapon_skill(main.weapon)} skill"
            elif shield is not None:
                skill = (shield.skill or UNARMED).lower()
                label = f"{skill} skill ({shield.name})"
            else:
                skill, label = UNARMED, "unarmed skill"
            pen = self.hands.hand_penalty(creature, cs, "primary")
            out["block"] = [Modifier(skill_rating(creature, skill), label),
                            Modifier(creature.str_mod, "Str"), *([pen] if pen else []), *tail]  # SKL-DEF-04
        off = self.hands.off_hand(creature, cs)
        if off is not None and (not off.double_end or self.double_weapon_blocks):
            pen = self.hands.hand_penalty(creature, cs, "off")
            out["block-off-hand"] = [Modifier(skill_rating(creature, off.skill), f"{off.skill} skill ({off.name})"),
                                     Modifier(creature.str_mod, "Str"), *([pen] if pen else []), *tail]
        return out

    @staticmethod
    def pool_for(cs: CombatantState, choice: str) -> str | None:
        """Which held action pays: restricted ones first, the general reserve last (SKL-ACT-09, SKL-TWF-02)."""
        r = cs.reactions
        order = {"dodge": (f"{RESERVE}_dodge", RESERVE), "block": (f"{RESERVE}_block", RESERVE),
                 "block-off-hand": (OFFHAND, f"{RESERVE}_block", RESERVE)}[choice]
        return next((p for p in order if r.get(p, 0) > 0), None)

    def available_defenses(self, view: View, attack: AttackInfo) -> dict[str, int]:
        """The defenses the target can pay for now against this attack, with their bonuses."""
        target = attack.target
        cs = view.state.get(target)
        if not self.rules.injury.can_act(view.creature(target), cs) or feint_opening(cs, attack.attacker):
            return {}
        rolls = self.defense_rolls(view, target)
        return {c: sum(m.value for m in mods) for c, mods in rolls.items() if self.pool_for(cs, c) is not None}

    def _spend(self, view: View, attack: AttackInfo, choice: str) -> None:
        pool = self.pool_for(view.state.get(attack.target), choice)
        if pool is None:
            raise RuleError(f"{attack.target} has no held complex action left for a {choice} (SKL-DEF-02)")
        view.emit(ev.ReactionSpent(attack.target, pool, f"{choice} against {attack.attacker}'s attack ({pool})"))

    # ------------------------------------------------------------------------ the windows
    def active_defense_options(self, view: View, attack: AttackInfo, total: int) -> tuple[str, ...]:
        """SKL-DEF-02/08: after a hit, the defender may block or dodge, paying from reserve (best bonus first)."""
        if self.declare_before_roll:
            return ()
        bonuses = self.available_defenses(view, attack)
        return tuple(sorted(bonuses, key=lambda c: (-bonuses[c], c)))

    def active_defense_prompt(self, view: View, attack: AttackInfo, roll: Total) -> ReactionPrompt | None:
        """The after-roll window (SKL-DEF-02..08), carrying the AI's :class:`DefenseHint`: what the hit would
        cost, worked out while the attack resolves, so the answer needs no memory on the ruleset."""
        bonuses = {} if self.declare_before_roll else self.available_defenses(view, attack)
        if not bonuses:
            return None
        options = tuple(sorted(bonuses, key=lambda c: (-bonuses[c], c)))
        return DefensePrompt(attack.target, "active_defense",
                             f"{attack.attacker}'s attack ({roll.value}) would hit {attack.target}",
                             (*options, "none"), detail=roll.explain(),
                             hint=self.hint(view, attack, roll.value, bonuses))

    def before_attack_roll(self, view: View, attack: AttackInfo) -> str | None:
        """``skl_declare_before_roll`` (SKL-DEF-08): the defender commits, and pays, before the roll."""
        if not self.declare_before_roll:
            return None
        bonuses = self.available_defenses(view, attack)
        if not bonuses:
            return None
        expected = 11 + sum(m.value for m in getattr(attack, "modifiers", ()))
        options = tuple(sorted(bonuses, key=lambda c: (-bonuses[c], c)))
        choice = view.ask(DefensePrompt(
            attack.target, "active_defense",
            f"{attack.attacker} is about to attack {attack.target}: block or dodge now, before the roll "
            f"(skl_declare_before_roll)", (*options, "none"),
            detail=", ".join(f"{c} {bonuses[c]:+d}" for c in options),
            hint=self.hint(view, attack, expected, bonuses)))
        if choice == "none":
            return None
        self._spend(view, attack, choice)
        return "committed:" + choice

    def resolve_active_defense(self, view: View, attack: AttackInfo, choice: str, total: int) -> tuple[bool, str]:
        """SKL-DEF-04..07: the roll (a plain d20, SKL-ATK-07) matches or beats the attack total → negated."""
        committed = choice.startswith("committed:")
        choice = choice.removeprefix("committed:")
        target = attack.target
        mods = self.defense_rolls(view, target).get(choice)
        if mods is None:
            raise RuleError(f"{target} cannot {choice} now")
        if not committed:
            self._spend(view, attack, choice)
        face = view.dice.d20(f"{choice} {target}")
        roll = numbers.total(face, mods, base_label="d20", stacking=self.rules.stacking)
        negated = roll.value >= total
        text = (f"{target} {'blocks' if choice.startswith('block') else 'dodges'}"
                f"{' (committed before the roll)' if committed else ''}: {roll.explain()} vs attack {total}: "
                f"{'negates the attack' if negated else 'fails'} (SKL-DEF-05/07)")
        if choice == "block":
            self._ranged_block(view, target, negated)
        return negated, text

    def _ranged_block(self, view: View, cid: str, negated: bool) -> None:
        """SKL-RNG-02/03: a ranged weapon can block; each such block is counted; the variant breaks it on a failure."""
        cs = view.state.get(cid)
        option = self.hands.wielded(view.creature(cid), cs)
        if option is None or not option.is_ranged or option.kind is WeaponKind.SPELL:
            return
        key = f"blocks:{option.name}"
        count = cs.reactions.get(key, 0) + 1
        view.emit(ev.ReactionsSet(cid, {**cs.reactions, key: count}))
        view.emit(ev.Note(f"{cid} has blocked with its {option.name} {count} time(s); ranged weapons misused so "
                          f"soon break (SKL-RNG-03)"))
        if self.ranged_block_breaks and not negated:
            cs = view.state.get(cid)
            view.emit(ev.EquipmentChanged(cid, None, cs.shield_state, sorted(cs.loaded),
                                          f"'s {option.name} breaks in the failed block (skl_ranged_block_breaks)"))
            view.emit(ev.ConditionSet(cid, f"broken {option.name}", True, "SKL-RNG-03"))

    def attack_rolled(self, view: View, attack: AttackInfo, total: int, hit: bool) -> None:
        """SKL-FEINT-05: the feinter's next attack roll against the target uses the opening up."""
        cs = view.state.get(attack.target)
        if feint_opening(cs, attack.attacker):
            view.emit(ev.EffectEnded(attack.target, FEINTED + attack.attacker))
            view.emit(ev.Note(f"{attack.target} could not block or dodge: {attack.attacker}'s feint (SKL-FEINT-05)"))

    # ------------------------------------------------------------------------ the AI's answer
    def hint(self, view: View, attack: AttackInfo, total: int, bonuses: Mapping[str, int]) -> DefenseHint:
        """The :class:`DefenseHint` for this attack against these defenses."""
        s = view.state
        target, ts = view.creature(attack.target), s.get(attack.target)
        option = attack.option
        crit = -sum(m.value for m in getattr(attack, "modifiers", ()) if m.source == "critical attack")
        danger = (option.dice.mean + self.rules.damage.damage_strength(view.creature(attack.attacker), option)
                  + crit * self.criticals.damage_factor(option) - self.damage.armor_rating(target))
        acted = attack.target in s.order and s.turn is not None and s.order.index(attack.target) <= s.turn_index
        return DefenseHint(total, dict(bonuses), max(danger, 0.0), ts.hp, acted)

    def reaction_preference(self, state: EncounterState, prompt: ReactionPrompt) -> str:
        """The AI's answer: block or dodge with the better bonus if it has a fair chance; always counter a spell."""
        if prompt.kind == "counterspell":
            return "counterspell"
        if prompt.kind != "active_defense":
            return super().reaction_preference(state, prompt)
        choices = [o for o in prompt.options if o != "none"]
        hint = prompt.hint if isinstance(prompt, DefensePrompt) else None
        if not choices:
            return "none"
        if hint is None:
            return choices[0]
        best = max(choices, key=lambda c: hint.bonuses.get(c, -99))  # the first best: the prompt lists main hand first
        chance = min(max(21 - (hint.total - hint.bonuses.get(best, -99)), 0), 20) / 20
        if hint.spare:  # the held action would lapse unused anyway
            return best if chance >= 0.1 else "none"
        # Before its turn the action is also the defender's own attack: spend it only on a dangerous hit.
        return best if chance >= 0.25 and hint.danger * 3 >= max(hint.hp, 1) else "none"
