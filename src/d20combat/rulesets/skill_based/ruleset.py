"""The SkillBased policy class: each method is one policy of rules-diff §3 that SKL swaps."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar, Literal

from pydantic import BaseModel

from d20combat import numbers
from d20combat.battlefield.concealment import ConcealmentSource
from d20combat.battlefield.cover import CoverFact
from d20combat.battlefield.distance import footprint_distance_ft, footprint_gap
from d20combat.battlefield.grid import Footprint
from d20combat.battlefield.reach import within_reach
from d20combat.encounter import events as ev
from d20combat.encounter.actions import EndTurn
from d20combat.encounter.prompts import ReactionPrompt
from d20combat.encounter.state import CombatantState, EncounterState, TurnState
from d20combat.model.catalog import default_catalog
from d20combat.model.creature import AttackOption, Creature
from d20combat.model.statblock import AttackProfile, Shield, StatBlock, WeaponKind, ability_mod
from d20combat.numbers import Modifier, Total
from d20combat.rules import attack as attack_rules
from d20combat.rules.armor_class import DefenseContext
from d20combat.rulesets.base import AttackInfo, BudgetError, RuleError, Ruleset, TurnAllowance, View
from d20combat.rulesets.skill_based.actions import BonusAttack, CastSpell, Feint, Reserve, TwoWeaponFighting
from d20combat.rulesets.skill_based.options import (
    DISTRACTING_ACTIVITIES,
    FEINTED,
    OFFHAND,
    RESERVE,
    TWF_TABLE,
    TWO_WEAPON,
    UNARMED,
    UNARMED_STRIKE,
    SkillBasedOptions,
)
from d20combat.rulesets.skill_based.skills import OffHand, _feat_counts, _Hint, skill_rating, weapon_skill


class SkillBased(Ruleset):
    id = "skill-based"
    title = "Skill-based d20 variant"
    Options = SkillBasedOptions
    own_actions = (Reserve, Feint, CastSpell, TwoWeaponFighting, BonusAttack)
    defense_name = "Passive Defense"
    minimum_damage = -99
    """No floor before armor: the floor (0, or 1 with ``skl_min_damage_1``) comes after armor, in :meth:`mitigate`."""

    inherits: ClassVar[tuple[str, ...]] = (
        "P4 surprise: PFB's surprise round, one complex *or* basic action, no reserve for the surprised",
        "P6 movement: PFB's grid (5/10 diagonals, SKL-AOO-09); a basic action moves up to speed (SKL-ACT-04)",
        "P14 injury: PFB hit points and dying (skl_health, SKL-DMG-04)",
        "P7 charge, P17 cover, P18 concealment: absent unless skl_charge / skl_cover / skl_concealment",
        "5-foot step: absent unless skl_pf_actions (SKL-AOO-12); no withdraw, no full attack (SKL-AOO-26)",
    )

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        self._hints: dict[str, _Hint] = {}
        super().__init__(options)

    def configure(self, options: BaseModel) -> None:
        assert isinstance(options, SkillBasedOptions)
        self.opts = options
        self.max_free_actions = 999 if options.skl_max_free_actions is None else options.skl_max_free_actions
        self.dying_procedure = options.skl_health
        self.step_uses_free_action = True
        self.concealment_before_roll = True

    # ------------------------------------------------------------------------ stat blocks
    def check_stat_block(self, sheet: Any) -> list[str]:
        """What SKL needs on a sheet: a rating in each weapon's skill and in Defense (SKL-ATK-08, SKL-DEF-06)."""
        assert isinstance(sheet, StatBlock)
        catalog = default_catalog()
        skills = {k.lower() for k in sheet.skills}
        problems: list[str] = []
        for profile in sheet.attacks:
            try:
                weapon = catalog.weapon(profile.weapon)
            except KeyError:
                continue
            skill = weapon_skill(weapon)
            if skill != UNARMED and skill not in skills:
                problems.append(f"no {skill!r} skill rating for {weapon.name} (SKL-ATK-08: attack bonus = weapon "
                                f"skill + Str or Dex)")
        if "defense" not in skills:
            problems.append("no 'defense' skill rating (SKL-DEF-06: dodge = d20 + Defense + Dex)")
        if self.opts.skl_init_agility_score and "agility" not in {k.lower() for k in sheet.attributes}:
            problems.append("no attributes.agility score (SKL-INIT-02, variant skl_init_agility_score)")
        return list(dict.fromkeys(problems))

    def complete_sheet(self, sheet: Any) -> Any:
        """SKL-TWF-06 / SKL-AOO-02: every creature has an unarmed strike."""
        assert isinstance(sheet, StatBlock)
        catalog = default_catalog()
        for profile in sheet.attacks:
            try:
                if weapon_skill(catalog.weapon(profile.weapon)) == UNARMED:
                    return sheet
            except KeyError:
                return sheet
        unarmed = AttackProfile.model_validate({"weapon": UNARMED_STRIKE})
        return sheet.model_copy(update={"attacks": (*sheet.attacks, unarmed)})

    def armor_rating(self, creature: Creature) -> int:
        """SKL-DMG-03 (MISSING): the stat block's rating, else half the worn armor's bonus (rounded up); none → 0."""
        if creature.sheet.armor_rating is not None:
            return creature.sheet.armor_rating
        return (creature.armor_bonus + 1) // 2

    # ------------------------------------------------------------------------ P2 initiative
    def initiative_modifiers(self, creature: Creature) -> list[Modifier]:
        """SKL-INIT-03: d20 + Dex modifier; SKL-INIT-02 (variant): d20 + the Agility score."""
        if self.opts.skl_init_agility_score:
            score = {k.lower(): v for k, v in creature.sheet.attributes.items()}.get("agility", 0)
            return [Modifier(score, "Agility score")]
        return [Modifier(creature.dex_mod, "Dex")]

    # ------------------------------------------------------------------------ P5 budget and reserve
    def round_reactions(self, creature: Creature, state: CombatantState) -> dict[str, int]:
        """SKL-RES-04: every complex action of the round, bonus ones included, is held until the creature's
        turn; one attack of opportunity (SKL-AOO-24)."""
        grants = _feat_counts(creature)
        pools = {RESERVE: 1 + grants["complex:any"], "aoo": 1}
        for use in ("dodge", "block"):
            if grants[f"complex:{use}"]:
                pools[f"{RESERVE}_{use}"] = grants[f"complex:{use}"]
        if self.two_weapon_on(state) and self.off_hand(creature, state) is not None:
            pools[OFFHAND] = 1
        return pools

    def start_of_round(self, view: View, round_no: int) -> None:
        """SKL-RES-04: allowances refresh at the start of the round (surprised creatures hold nothing)."""
        s = view.state
        for cid, c in s.combatants.items():
            surprised = s.surprise_round and cid in s.surprised
            pools = {RESERVE: 0, "aoo": 0} if surprised else self.round_reactions(view.creature(cid), c)
            kept = {k: v for k, v in c.reactions.items() if k.startswith("blocks:")}
            view.emit(ev.ReactionsSet(cid, {**kept, **pools}))

    def turn_pools(self, creature: Creature, state: CombatantState, *, surprise_round: bool) -> dict[str, int]:
        """SKL-ACT-02/05/08: what is left of the round's complex actions, one basic action (more by talent),
        free actions; ``declare`` is the one reserve declaration (SKL-RES-02)."""
        allow = self.allowance(creature, state, surprise_round=surprise_round)
        grants = _feat_counts(creature)
        pools = {"complex": state.reactions.get(RESERVE, 0), "basic": 1 + grants["basic"], "free": allow.free,
                 "declare": 1, "twf_switch": 1}
        if state.reactions.get(OFFHAND, 0):
            pools[OFFHAND] = state.reactions[OFFHAND]
        if grants["complex:attack"]:
            pools["bonus_attack"] = grants["complex:attack"]
        return pools

    def start_of_turn(self, view: View, actor: str) -> None:
        """The held complex actions become the turn's own until the creature declares a reserve (SKL-RES-02)."""
        super().start_of_turn(view, actor)
        r = view.state.get(actor).reactions
        if r.get(RESERVE, 0) or r.get(OFFHAND, 0):
            view.emit(ev.ReactionsSet(actor, {**r, RESERVE: 0, OFFHAND: 0}))

    def pay(self, cost: str, turn: TurnState, allow: TurnAllowance, *, surprise_round: bool
            ) -> tuple[str, dict[str, int]]:
        """SKL-ACT: standard → complex, move → basic, full-round → both, free → free. No conversion between
        complex and basic (SKL-ACT-11) unless ``skl_complex_as_basic``."""
        pools = turn.pools
        complex_left, basic_left = pools.get("complex", 0), pools.get("basic", 0)
        if cost in ("standard", "move", "full-round") and allow.single_action and turn.actions_taken:
            raise BudgetError("only one complex or basic action this turn")
        if cost == "standard":
            if complex_left > 0:
                return "complex", {"complex": 1}
            raise BudgetError("no complex action left this round (SKL-ACT-02; held reserve serves only block, "
                              "dodge or counterspell, SKL-RES-05)")
        if cost == "move":
            if basic_left > 0:
                return "basic", {"basic": 1}
            if self.opts.skl_complex_as_basic and complex_left > 0 and not allow.single_action:
                return "complex-as-basic", {"complex": 1}
            raise BudgetError("no basic action left this round; a complex action cannot be spent as a basic one "
                              "(SKL-ACT-05/11)")
        if cost == "full-round":
            if allow.single_action:
                raise BudgetError("a complex and a basic action together are impossible when only one action "
                                  "is allowed")
            if complex_left <= 0 or basic_left <= 0:
                raise BudgetError("needs both the complex and the basic action of the round")
            return "complex + basic", {"complex": 1, "basic": 1}
        if cost == "free":
            if pools.get("free", 0) <= 0:
                raise BudgetError(f"no free action left this round (the GM's limit {allow.free}, SKL-ACT-08)")
            return "free", {"free": 1}
        if cost == "none":
            if surprise_round and turn.free_used >= allow.free:
                raise BudgetError("only one complex or basic action in the surprise round")
            return "none", {}
        raise BudgetError(f"unknown cost {cost!r}")

    def do_reserve(self, engine: Any, tx: View, actor: str, a: Reserve, dry: bool) -> None:
        """SKL-RES-01/02: hold ``count`` complex actions (and the off-hand bonus) for the rest of the round."""
        turn = tx.state.turn
        assert turn is not None
        if turn.pools.get("declare", 0) <= 0:
            raise RuleError("reserve: already declared this turn; the number held cannot be raised (SKL-RES-02)")
        left, off_left = turn.pools.get("complex", 0), turn.pools.get(OFFHAND, 0)
        if not 0 <= a.count <= left:
            raise RuleError(f"reserve: {a.count} complex action(s) asked, {left} left this round (SKL-RES-02)")
        if not 0 <= a.offhand <= off_left:
            raise RuleError(f"reserve: {a.offhand} off-hand bonus action(s) asked, {off_left} left (SKL-TWF-01)")
        if dry:
            return
        tx.emit(ev.BudgetSpent(actor, f"reserve {a.count}", "none", {"complex": a.count, OFFHAND: a.offhand,
                                                                      "declare": 1}))
        self._hold(tx, actor, a.count, a.offhand, "declares")

    def _hold(self, tx: View, actor: str, count: int, offhand: int, how: str) -> None:
        r = tx.state.get(actor).reactions
        tx.emit(ev.ReactionsSet(actor, {**r, RESERVE: count, OFFHAND: offhand}))
        extra = " and the off-hand bonus action" if offhand else ""
        tx.emit(ev.Note(f"{actor} {how} {count} complex action(s){extra} held in reserve for block, dodge or "
                        f"counterspell until the end of the round (SKL-RES-02/03)"))

    def end_of_turn(self, view: View, actor: str) -> None:
        """``skl_auto_reserve``: a turn ended without a declaration holds what it did not spend."""
        turn = view.state.turn
        if turn is None or turn.actor != actor or not self.opts.skl_auto_reserve or turn.pools.get("declare", 0) <= 0:
            return
        left, off_left = turn.pools.get("complex", 0), turn.pools.get(OFFHAND, 0)
        if left or off_left:
            self._hold(view, actor, left, off_left, "keeps")

    def end_of_round(self, view: View, round_no: int) -> None:
        """SKL-RES-06: unspent reserve lapses; SKL-FEINT-05: feint openings past their round lapse."""
        for cid, c in view.state.combatants.items():
            held = {k: v for k, v in c.reactions.items() if k.startswith(RESERVE) or k == OFFHAND}
            if any(held.values()):
                view.emit(ev.ReactionsSet(cid, {**c.reactions, **dict.fromkeys(held, 0)}))
                view.emit(ev.Note(f"{cid}'s unspent reserve ({sum(held.values())}) lapses (SKL-RES-06)"))
            for effect in c.effects:
                if effect.name.startswith(FEINTED) and effect.until_round <= round_no:
                    view.emit(ev.EffectEnded(cid, effect.name))
                    view.emit(ev.Note(f"the opening {cid} gave by being {effect.name} lapses unused (SKL-FEINT-05)"))

    # ------------------------------------------------------------------------ weapons in hand
    def _wielded(self, creature: Creature, state: CombatantState) -> AttackOption | None:
        if state.wielding is None or self._broken(state, state.wielding):
            return None
        try:
            return creature.attack(state.wielding)
        except KeyError:
            return None

    @staticmethod
    def _broken(state: CombatantState, name: str) -> bool:
        return f"broken {name}" in state.conditions

    def holds(self, creature: Creature, state: CombatantState, option: AttackOption) -> bool:
        """The weapon in hand, the off-hand weapon and the unarmed strike need no drawing."""
        if self._broken(state, option.name):
            return False
        return state.wielding == option.name or option.off_hand or weapon_skill(option.weapon) == UNARMED

    def _unarmed(self, creature: Creature) -> AttackOption | None:
        return next((o for o in creature.attacks if weapon_skill(o.weapon) == UNARMED), None)

    def off_hand(self, creature: Creature, state: CombatantState) -> OffHand | None:
        """SKL-TWF-01/09/20: an off-hand weapon, a shield in hand, or a double weapon's other end."""
        main = self._wielded(creature, state)
        if main is not None and main.weapon.double:
            return OffHand(f"the off-hand end of {main.name}", weapon_skill(main.weapon), True, False, main, True)
        if main is None or main.kind is WeaponKind.SPELL or main.two_handed:
            return None
        for o in creature.attacks:
            if o.off_hand and o.name != main.name and not self._broken(state, o.name):
                light = o.weapon.hands == "light" or weapon_skill(o.weapon) == UNARMED  # SKL-TWF-06
                return OffHand(o.name, weapon_skill(o.weapon), light, False, o)
        shield = self._shield_in_hand(creature, state)
        if shield is not None:
            return OffHand(shield.name, (shield.skill or weapon_skill(main.weapon)).lower(), shield.light, True, None)
        return None

    @staticmethod
    def _shield_in_hand(creature: Creature, state: CombatantState) -> Shield | None:
        if creature.sheet.shield is None or state.shield_state not in ("strapped", "held"):
            return None
        return default_catalog().shield_of(creature.sheet.shield)

    @staticmethod
    def two_weapon_on(state: CombatantState) -> bool:
        return TWO_WEAPON in state.conditions

    def twf_penalties(self, creature: Creature, off: OffHand) -> tuple[int, int, str]:
        """SKL-TWF-10: every table row the creature meets; per hand the smallest penalty. (primary, off, rows)."""
        facts = {t for t in ("dual_weapon_training", "dual_weapon_mastery", "shield_specialist")
                 if creature.has_feat(t)}
        if off.light:
            facts.add("light")
        if off.shield:
            facts.add("shield")
        rows = [row for row in TWF_TABLE if row[1] <= facts]
        return max(r[2] for r in rows), max(r[3] for r in rows), ", ".join(r[0] for r in rows)

    def hand_penalty(self, creature: Creature, state: CombatantState, hand: Literal["primary", "off"]
                     ) -> Modifier | None:
        """SKL-TWF-03/04/08: while the two-weapon mode is on, every attack and block roll of that hand."""
        if not self.two_weapon_on(state):
            return None
        off = self.off_hand(creature, state)
        if off is None:
            return None
        primary, off_pen, _ = self.twf_penalties(creature, off)
        value = primary if hand == "primary" else off_pen
        return Modifier(value, f"two-weapon {hand} hand") if value else None

    # ------------------------------------------------------------------------ P8 attack
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
        penalty = self.hand_penalty(view.creature(attack.attacker), view.state.get(attack.attacker),
                                    "off" if attack.option.off_hand else "primary")
        return [penalty] if penalty is not None else []

    def effective_face(self, face: int) -> int:
        """SKL-ATK-05/06: a natural 20 counts as 30, a natural 1 as −10 (attack rolls only, SKL-ATK-07)."""
        return 30 if face == 20 else -10 if face == 1 else face

    def natural(self, face: int) -> tuple[bool, bool]:
        """SKL-ATK-07: no automatic hit or miss."""
        return False, False

    def into_melee_penalty(self, creature: Creature) -> Modifier | None:
        return None

    def ranged_needs_clearance(self) -> bool:
        """Shooting next to an enemy is allowed; it provokes (SKL-AOO-14)."""
        return False

    def ranged_limits(self, distance_ft: int, option: AttackOption) -> attack_rules.RangeCheck:
        """No minimum range; the weapon's maximum range stands; −2 per increment only with ``skl_range_increments``."""
        rc = attack_rules.range_check(max(distance_ft, attack_rules.MIN_RANGED_DISTANCE_FT), option)
        return rc if self.opts.skl_range_increments or rc.problem else attack_rules.RangeCheck(0, None)

    # ------------------------------------------------------------------------ P9 Passive Defense
    def defense(self, creature: Creature, state: CombatantState, ctx: DefenseContext, extra: Any,
                view: View | None = None, attack: AttackInfo | None = None) -> Total:
        """SKL-DEF-01: Passive Defense = 10 + Dex; armor and shields do not add (they reduce damage)."""
        mods = [Modifier(creature.dex_mod, "Dex"), *extra]
        mods += [Modifier(e.ac, e.name) for e in state.effects if e.ac]
        return numbers.total(10, mods, stacking=self.stacking)

    def cover_modifier(self, fact: CoverFact) -> Modifier | None:
        return super().cover_modifier(fact) if self.opts.skl_cover else None

    def concealment(self, sources: Any) -> tuple[int, str]:
        if not self.opts.skl_concealment:
            return 0, ""
        listed: list[ConcealmentSource] = list(sources)
        return super().concealment(listed)

    # ------------------------------------------------------------------------ P10 block and dodge
    def _in_melee(self, view: View, cid: str) -> bool:
        """SKL-RNG-01 (reading) / SKL-FEINT-01: an enemy threatens the creature's square."""
        me = view.creature(cid)
        fp = Footprint(view.state.get(cid).position, me.space)
        for other, os in view.state.combatants.items():
            oc = view.creature(other)
            if oc.side == me.side or os.has("fled") or not self.can_act(oc, os):
                continue
            if self.threatened(oc, os, Footprint(os.position, oc.space), fp):
                return True
        return False

    def _ranged_in_melee(self, view: View, cid: str) -> Modifier | None:
        """SKL-RNG-01: −6 on block and dodge while holding a ranged weapon in melee."""
        option = self._wielded(view.creature(cid), view.state.get(cid))
        if option is None or not option.is_ranged or option.kind is WeaponKind.SPELL:
            return None
        return Modifier(-6, "ranged weapon in melee") if self._in_melee(view, cid) else None

    def defense_rolls(self, view: View, cid: str) -> dict[str, list[Modifier]]:
        """Every active defense the creature could make now and its modifiers, whatever it has left to pay."""
        creature, cs = view.creature(cid), view.state.get(cid)
        ranged = self._ranged_in_melee(view, cid)
        tail = [ranged] if ranged is not None else []
        out: dict[str, list[Modifier]] = {
            "dodge": [Modifier(skill_rating(creature, "defense"), "Defense skill"), Modifier(creature.dex_mod, "Dex"),
                      *tail]}  # SKL-DEF-06
        main = self._wielded(creature, cs)
        if main is not None and (main.kind is WeaponKind.SPELL or weapon_skill(main.weapon) == UNARMED):
            main = None  # an empty hand
        shield = self._shield_in_hand(creature, cs)
        if main is not None or shield is not None or not self.opts.skl_block_needs_item:  # SKL-DEF-03
            if main is not None:
                skill, label = weapon_skill(main.weapon), f"{weapon_skill(main.weapon)} skill"
            elif shield is not None:
                skill = (shield.skill or UNARMED).lower()
                label = f"{skill} skill ({shield.name})"
            else:
                skill, label = UNARMED, "unarmed skill"
            pen = self.hand_penalty(creature, cs, "primary")
            out["block"] = [Modifier(skill_rating(creature, skill), label),
                            Modifier(creature.str_mod, "Str"), *([pen] if pen else []), *tail]  # SKL-DEF-04
        off = self.off_hand(creature, cs)
        if off is not None and (not off.double_end or self.opts.skl_double_weapon_blocks):
            pen = self.hand_penalty(creature, cs, "off")
            out["block-off-hand"] = [Modifier(skill_rating(creature, off.skill), f"{off.skill} skill ({off.name})"),
                                     Modifier(creature.str_mod, "Str"), *([pen] if pen else []), *tail]
        return out

    @staticmethod
    def _pool_for(cs: CombatantState, choice: str) -> str | None:
        """Which held action pays: restricted ones first, the general reserve last (SKL-ACT-09, SKL-TWF-02)."""
        r = cs.reactions
        order = {"dodge": (f"{RESERVE}_dodge", RESERVE), "block": (f"{RESERVE}_block", RESERVE),
                 "block-off-hand": (OFFHAND, f"{RESERVE}_block", RESERVE)}[choice]
        return next((p for p in order if r.get(p, 0) > 0), None)

    def _available_defenses(self, view: View, attack: AttackInfo) -> dict[str, int]:
        target = attack.target
        cs = view.state.get(target)
        if not self.can_act(view.creature(target), cs) or self.feint_opening(cs, attack.attacker):
            return {}
        rolls = self.defense_rolls(view, target)
        return {c: sum(m.value for m in mods) for c, mods in rolls.items() if self._pool_for(cs, c) is not None}

    @staticmethod
    def feint_opening(cs: CombatantState, attacker: str) -> bool:
        return any(e.name == FEINTED + attacker for e in cs.effects)

    def active_defense_options(self, view: View, attack: AttackInfo, total: int) -> tuple[str, ...]:
        """SKL-DEF-02/08: after a hit, the defender may block or dodge, paying from reserve (best bonus first)."""
        if self.opts.skl_declare_before_roll:
            return ()
        bonuses = self._available_defenses(view, attack)
        self._hints[attack.target] = self._hint(view, attack, total, bonuses)
        return tuple(sorted(bonuses, key=lambda c: (-bonuses[c], c)))

    def before_attack_roll(self, view: View, attack: AttackInfo) -> str | None:
        """``skl_declare_before_roll`` (SKL-DEF-08): the defender commits, and pays, before the roll."""
        if not self.opts.skl_declare_before_roll:
            return None
        bonuses = self._available_defenses(view, attack)
        if not bonuses:
            return None
        expected = 11 + sum(m.value for m in getattr(attack, "modifiers", ()))
        self._hints[attack.target] = self._hint(view, attack, expected, bonuses)
        options = tuple(sorted(bonuses, key=lambda c: (-bonuses[c], c)))
        choice = view.ask(ReactionPrompt(
            attack.target, "active_defense",
            f"{attack.attacker} is about to attack {attack.target}: block or dodge now, before the roll "
            f"(skl_declare_before_roll)", (*options, "none"),
            detail=", ".join(f"{c} {bonuses[c]:+d}" for c in options)))
        if choice == "none":
            return None
        self._spend_defense(view, attack, choice)
        return "committed:" + choice

    def _hint(self, view: View, attack: AttackInfo, total: int, bonuses: dict[str, int]) -> _Hint:
        """What the AI weighs when it is asked (never read by the rules): the attack's total, the defenses, the
        damage the hit would do, and whether the held action would otherwise still buy the defender an attack."""
        s = view.state
        target, ts = view.creature(attack.target), s.get(attack.target)
        option = attack.option
        crit = -sum(m.value for m in getattr(attack, "modifiers", ()) if m.source == "critical attack")
        danger = (option.dice.mean + self.damage_strength(view.creature(attack.attacker), option)
                  + crit * self.opts.skl_crit_damage_table.get(option.name, 1) - self.armor_rating(target))
        acted = attack.target in s.order and s.turn is not None and s.order.index(attack.target) <= s.turn_index
        return _Hint(total, bonuses, max(danger, 0.0), ts.hp, acted)

    def _spend_defense(self, view: View, attack: AttackInfo, choice: str) -> None:
        pool = self._pool_for(view.state.get(attack.target), choice)
        if pool is None:
            raise RuleError(f"{attack.target} has no held complex action left for a {choice} (SKL-DEF-02)")
        view.emit(ev.ReactionSpent(attack.target, pool, f"{choice} against {attack.attacker}'s attack ({pool})"))

    def resolve_active_defense(self, view: View, attack: AttackInfo, choice: str, total: int) -> tuple[bool, str]:
        """SKL-DEF-04..07: the roll (a plain d20, SKL-ATK-07) matches or beats the attack total → negated."""
        committed = choice.startswith("committed:")
        choice = choice.removeprefix("committed:")
        target = attack.target
        mods = self.defense_rolls(view, target).get(choice)
        if mods is None:
            raise RuleError(f"{target} cannot {choice} now")
        if not committed:
            self._spend_defense(view, attack, choice)
        face = view.dice.d20(f"{choice} {target}")
        roll = numbers.total(face, mods, base_label="d20", stacking=self.stacking)
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
        option = self._wielded(view.creature(cid), cs)
        if option is None or not option.is_ranged or option.kind is WeaponKind.SPELL:
            return
        key = f"blocks:{option.name}"
        count = cs.reactions.get(key, 0) + 1
        view.emit(ev.ReactionsSet(cid, {**cs.reactions, key: count}))
        view.emit(ev.Note(f"{cid} has blocked with its {option.name} {count} time(s); ranged weapons misused so "
                          f"soon break (SKL-RNG-03)"))
        if self.opts.skl_ranged_block_breaks and not negated:
            cs = view.state.get(cid)
            view.emit(ev.EquipmentChanged(cid, None, cs.shield_state, sorted(cs.loaded),
                                          f"'s {option.name} breaks in the failed block (skl_ranged_block_breaks)"))
            view.emit(ev.ConditionSet(cid, f"broken {option.name}", True, "SKL-RNG-03"))

    def attack_rolled(self, view: View, attack: AttackInfo, total: int, hit: bool) -> None:
        """SKL-FEINT-05: the feinter's next attack roll against the target uses the opening up."""
        cs = view.state.get(attack.target)
        if self.feint_opening(cs, attack.attacker):
            view.emit(ev.EffectEnded(attack.target, FEINTED + attack.attacker))
            view.emit(ev.Note(f"{attack.target} could not block or dodge: {attack.attacker}'s feint (SKL-FEINT-05)"))

    def reaction_preference(self, state: EncounterState, prompt: ReactionPrompt) -> str:
        """The AI's answer: block or dodge with the better bonus if it has a fair chance; always counter a spell."""
        if prompt.kind == "counterspell":
            return "counterspell"
        if prompt.kind != "active_defense":
            return super().reaction_preference(state, prompt)
        choices = [o for o in prompt.options if o != "none"]
        hint = self._hints.get(prompt.reactor)
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

    # ------------------------------------------------------------------------ P11 criticals
    def threatens(self, face: int, option: AttackOption, hit: bool) -> bool:
        """SKL-ATK-07: no critical threats."""
        return False

    def crit_profile(self, option: AttackOption) -> tuple[int, int]:
        """No threat range and no multiplier (shown as 20/×1 where a profile is printed)."""
        return 20, 1

    def critical_attack(self, penalty: int, option: AttackOption) -> tuple[Modifier | None, int]:
        """SKL-CRIT-01..04: −1..−5 on the roll for penalty × the weapon's factor in damage (factor 1 by default)."""
        if penalty == 0:
            return None, 0
        if not -5 <= penalty <= -1:
            raise RuleError(f"a critical attack takes −1 to −5 on the attack roll, not {penalty} (SKL-CRIT-03)")
        factor = self.opts.skl_crit_damage_table.get(option.name, 1)
        return Modifier(penalty, "critical attack"), -penalty * factor

    # ------------------------------------------------------------------------ P12/P13 damage
    def damage_strength(self, creature: Creature, option: AttackOption) -> int:
        """SKL-DMG-02: Str on every weapon's damage, negative too; ``skl_ranged_no_str``: melee and thrown only."""
        if option.kind is WeaponKind.SPELL:
            return 0
        if self.opts.skl_ranged_no_str and option.kind not in (WeaponKind.MELEE, WeaponKind.THROWN):
            return 0
        return creature.str_mod

    def precision_dice(self, attacker: Creature, defender_helpless: bool) -> int:
        return 0

    def mitigate(self, creature: Creature, state: CombatantState, amount: int) -> tuple[int, str]:
        """SKL-DMG-03/04: minus the armor rating; floored at 0 (``skl_min_damage_1``: at 1)."""
        armor = self.armor_rating(creature)
        floor = 1 if self.opts.skl_min_damage_1 else 0
        result = max(amount - armor, floor)
        if not armor and result == amount:
            return amount, ""
        text = f"− armor rating {armor}" if armor else ""
        if result != amount - armor:
            text += f" (floored at {floor}, SKL-DMG-04)"
        return result, text.strip()

    # ------------------------------------------------------------------------ P19 attacks of opportunity
    def melee_option(self, creature: Creature, state: CombatantState) -> AttackOption | None:
        """The weapon a creature threatens with: the melee weapon in hand, an off-hand melee weapon, or (unless
        ``skl_unarmed_threatens`` is off) an unarmed strike (SKL-AOO-02)."""
        main = self._wielded(creature, state)
        if main is not None and not main.is_ranged:
            return main
        for o in creature.attacks:
            if o.off_hand and not o.is_ranged and not self._broken(state, o.name):
                return o
        return self._unarmed(creature) if self.opts.skl_unarmed_threatens else None

    def in_melee_reach(self, creature: Creature, option: AttackOption, attacker: Footprint, target: Footprint) -> bool:
        """SKL-AOO-03/05: the adjacent squares; SKL-AOO-08: a Small or Medium creature's reach weapon reaches
        every square 2 squares away, diagonals included (``skl_reach_inclusive``: and the adjacent ones);
        SKL-AOO-07/09: otherwise the creature's reach by the 5/10 rule."""
        if option.weapon.reach and creature.space == 1:
            gap = max(footprint_gap(attacker, target))
            return gap == 2 or (self.opts.skl_reach_inclusive and gap == 1)
        return within_reach(attacker, creature.reach_ft, target)

    def threat_reach(self, creature: Creature, state: CombatantState) -> int:
        option = self.melee_option(creature, state)
        if option is None:
            return 0
        return 10 if option.weapon.reach and creature.space == 1 else creature.reach_ft

    def threatened(self, creature: Creature, state: CombatantState, here: Footprint, square: Footprint) -> bool:
        """SKL-AOO-02: every square the creature could make a melee attack into, even off its turn (a creature
        that cannot act threatens nothing)."""
        if not self.can_act(creature, state):
            return False
        option = self.melee_option(creature, state)
        return option is not None and self.in_melee_reach(creature, option, here, square)

    def aoo_attack(self, creature: Creature, state: CombatantState) -> str | None:
        """SKL-AOO-23/27: a single melee attack at the normal bonus, with the weapon the creature threatens with."""
        option = self.melee_option(creature, state)
        return option.name if option is not None else state.wielding

    def aoo_choices(self, creature: Creature, option: AttackOption) -> tuple[str, ...]:
        """SKL-AOO-27 (reading): the normal attack, or one with a declared critical attack (SKL-CRIT-02)."""
        return ("attack", *(f"critical -{p}" for p in range(1, 6)))

    def aoo_declaration(self, choice: str, option: AttackOption) -> tuple[Modifier | None, int]:
        if not choice.startswith("critical -"):
            return None, 0
        return self.critical_attack(-int(choice.removeprefix("critical -")), option)

    def can_make_aoo(self, view: View, reactor: str, target: str) -> bool:
        """SKL-AOO-01/24: free and once per round (the ``aoo`` pool); nothing else stops it."""
        return True

    def movement_provokes(self, mode: str) -> bool:
        """SKL-AOO-10/11: moving out of a threatened square (the 5-foot step of ``skl_pf_actions`` does not)."""
        return mode in ("move", "charge")

    def provoking_act(self, view: View, actor: str, action: Any, option: AttackOption | None) -> str | None:
        """SKL-AOO-13..21: the distracting acts; SKL-AOO-22: a feat ``no_provoke:<act>`` is an exception."""
        key, reason = "", ""
        if action.kind in ("attack", "bonus_attack"):
            if option is None and action.kind == "bonus_attack":
                off = self.off_hand(view.creature(actor), view.state.get(actor))
                option = off.option if off is not None else None
            if option is not None and option.is_ranged and option.kind is not WeaponKind.SPELL:
                key, reason = "fire_ranged", "fires a ranged weapon (SKL-AOO-14)"
        elif action.kind == "cast_spell":
            key, reason = "cast_spell", "casts a spell (SKL-AOO-15)"
        elif action.kind == "stand_up":
            key, reason = "stand_up", "stands up from prone (SKL-AOO-16)"
        elif action.kind == "reload":
            key, reason = "reload", "loads a crossbow (SKL-AOO-17)"
        elif action.kind == "activity" and action.name in DISTRACTING_ACTIVITIES:
            key, reason = action.name, DISTRACTING_ACTIVITIES[action.name]
        if not key or view.creature(actor).has_feat(f"no_provoke:{key}"):
            return None
        return f"{reason.replace(' (', ' in a threatened square (', 1)}"

    def candidate_actions(self, enc: Any, actor: str) -> list[Any]:
        """The reserve declarations, the two-weapon switch, and a feint, a bonus attack or a spell at each foe."""
        turn = enc.state.turn
        if turn is None:
            return []
        creature = enc.creature(actor)
        out: list[Any] = [Reserve(n, m) for n in range(turn.pools.get("complex", 0) + 1)
                          for m in range(turn.pools.get(OFFHAND, 0) + 1)]
        out += [TwoWeaponFighting(on=True), TwoWeaponFighting(on=False)]
        for foe in enc.enemies(actor):
            square = enc.state.get(foe).position
            out += [Feint(foe), BonusAttack(foe, square=square)]
            out += [CastSpell(o.name, foe) for o in creature.attacks if o.kind is WeaponKind.SPELL]
        return out

    def action_forbidden(self, view: View, actor: str, action: Any) -> str | None:
        """Actions this text does not have (charge, 5-foot step) and spells cast outside :class:`CastSpell`."""
        kind = action.kind
        if kind == "charge" and not self.opts.skl_charge:
            return "charge: the skill-based rules have no charge (variant skl_charge)"
        if kind == "step" and not self.opts.skl_pf_actions:
            return ("5-foot step: named but never defined by the skill-based rules (SKL-AOO-12; variant "
                    "skl_pf_actions)")
        creature, cs = view.creature(actor), view.state.get(actor)
        if kind == "attack":
            name = action.attack or cs.wielding
            try:
                option = creature.attack(name) if name else None
            except KeyError:
                option = None
            if option is not None and option.kind is WeaponKind.SPELL:
                return (f"attack: cast {option.name} with cast_spell, so that enemies in reach may counter it "
                        f"(SKL-CSPL-02)")
        if kind == "activity" and action.name.startswith("cast-spell"):
            return "cast spells with the cast_spell action (SKL-CSPL-02)"
        if kind == "draw" and self._broken(cs, action.attack):
            return f"draw: {action.attack} is broken (SKL-RNG-03)"
        return None

    # ------------------------------------------------------------------------ own actions
    def do_two_weapon_fighting(self, engine: Any, tx: View, actor: str, a: TwoWeaponFighting, dry: bool) -> None:
        """SKL-TWF-08 (reading): a free switch at the start of the turn; on, it grants the bonus action now."""
        turn = tx.state.turn
        assert turn is not None
        cs, creature = tx.state.get(actor), tx.creature(actor)
        if turn.pools.get("twf_switch", 0) <= 0 or turn.actions_taken or turn.moved:
            raise RuleError("two-weapon fighting: switched only once, at the start of the turn (SKL-TWF-08)")
        if a.on == self.two_weapon_on(cs):
            raise RuleError(f"two-weapon fighting is already {'on' if a.on else 'off'}")
        off = self.off_hand(creature, cs)
        if a.on and off is None:
            raise RuleError("two-weapon fighting needs a one-handed weapon and a weapon or shield in the off hand "
                            "(SKL-TWF-01/09)")
        engine.pay(tx, actor, f"two-weapon fighting {'on' if a.on else 'off'}", "free", dry)
        if dry:
            return
        bonus = -1 if a.on else turn.pools.get(OFFHAND, 0)
        tx.emit(ev.BudgetSpent(actor, "two-weapon mode", "none", {"twf_switch": 1, OFFHAND: bonus}))
        text = ""
        if a.on and off is not None:
            p, o, rows = self.twf_penalties(creature, off)
            text = f"off hand {off.name}; penalties {p:+d} primary / {o:+d} off hand ({rows})"
        tx.emit(ev.ConditionSet(actor, TWO_WEAPON, a.on, text or "SKL-TWF-08"))

    def do_bonus_attack(self, engine: Any, tx: View, actor: str, a: BonusAttack, dry: bool) -> None:
        """SKL-TWF-01/02: the off-hand attack; SKL-ACT-09/10: a talent's attack-only action."""
        turn = tx.state.turn
        assert turn is not None
        creature, cs = tx.creature(actor), tx.state.get(actor)
        off = self.off_hand(creature, cs) if self.two_weapon_on(cs) else None
        use_off = (turn.pools.get(OFFHAND, 0) > 0 and off is not None and off.option is not None
                   and a.attack in (None, off.option.name))
        if use_off:
            assert off is not None and off.option is not None
            option, pool, label = off.option, OFFHAND, f"off-hand attack {a.target} ({off.name})"
        elif turn.pools.get("bonus_attack", 0) > 0:
            name = a.attack or cs.wielding
            try:
                option = creature.attack(name or "")
            except KeyError:
                raise RuleError(f"bonus attack: {actor} has no attack {name!r}") from None
            pool, label = "bonus_attack", f"bonus attack {a.target}"
        else:
            raise RuleError("bonus attack: no bonus complex action for an attack this round (SKL-TWF-01, "
                            "SKL-ACT-09)")
        declared, bonus = self.critical_attack(a.critical, option)
        extra = (declared,) if declared is not None else ()
        plan = engine.plan_attack(actor, a.target, option.name, square=a.square, state=tx.state, extra=extra)
        if use_off and off is not None and off.double_end:
            # SKL-TWF-21: the double weapon's other end attacks with the off-hand penalty.
            off_pen = self.hand_penalty(creature, cs, "off")
            mods = tuple(m for m in plan.modifiers if m.source != "two-weapon primary hand")
            plan = replace(plan, modifiers=(*mods, *([off_pen] if off_pen else [])))
        if dry:
            return
        tx.emit(ev.BudgetSpent(actor, label, "bonus complex", {pool: 1}))
        engine.roll_attack(tx, plan, damage_bonus=bonus)

    def do_feint(self, engine: Any, tx: View, actor: str, a: Feint, dry: bool) -> None:
        """SKL-FEINT-01..05."""
        s = tx.state
        if a.target not in s.combatants or a.target == actor:
            raise RuleError(f"feint: no target {a.target!r}")
        creature, cs = tx.creature(actor), s.get(actor)
        target, ts = tx.creature(a.target), s.get(a.target)
        if target.side == creature.side:
            raise RuleError(f"feint: {a.target} is not an enemy")
        option = self.melee_option(creature, cs)
        here, there = Footprint(cs.position, creature.space), Footprint(ts.position, target.space)
        if option is None or not self.in_melee_reach(creature, option, here, there):
            raise RuleError(f"feint: {actor} does not threaten {a.target}, so it is not engaged in melee with it "
                            f"(SKL-FEINT-01)")
        engine.pay(tx, actor, f"feint {a.target}", "standard", dry)  # SKL-FEINT-02
        if dry:
            return
        skill = weapon_skill(option.weapon)
        f1 = tx.dice.d20(f"feint {actor}")
        mine = numbers.total(f1, [Modifier(skill_rating(creature, skill), f"{skill} skill"),
                          Modifier(ability_mod(creature.sheet.abilities.int), "Int")], base_label="d20")
        f2 = tx.dice.d20(f"feint defense {a.target}")
        theirs = numbers.total(f2, [Modifier(skill_rating(target, "defense"), "Defense skill"),
                            Modifier(ability_mod(target.sheet.abilities.wis), "Wis")], base_label="d20")
        won = mine.value > theirs.value or (mine.value == theirs.value and self.opts.skl_feint_tie_succeeds)
        outcome = ("succeeds: it cannot block or dodge " + actor + "'s next attack (SKL-FEINT-05)" if won
                   else "fails" + (" (a tie goes to the defender, SKL-FEINT-04)" if mine.value == theirs.value
                                   else ""))
        tx.emit(ev.Note(f"{actor} feints {a.target}: {mine.explain()} vs {theirs.explain()} — {outcome}"))
        if won:
            name = FEINTED + actor
            if any(e.name == name for e in ts.effects):
                tx.emit(ev.EffectEnded(a.target, name))
            tx.emit(ev.EffectAdded(a.target, name, "", s.round + self.opts.skl_feint_opening_rounds))

    def do_cast_spell(self, engine: Any, tx: View, actor: str, a: CastSpell, dry: bool) -> None:
        """A spell is a complex action (SKL-ACT-01) that enemies may counter (SKL-CSPL-01..07)."""
        creature = tx.creature(actor)
        try:
            option: AttackOption | None = creature.attack(a.spell)
        except KeyError:
            option = None
        plan = None
        if option is not None:
            if option.kind is not WeaponKind.SPELL:
                raise RuleError(f"cast: {a.spell} is not a spell")
            skill = weapon_skill(option.weapon)
            if not a.target:
                raise RuleError(f"cast: {a.spell} needs a target")
            plan = engine.plan_attack(actor, a.target, option.name, state=tx.state)
        elif a.skill:
            skill = a.skill.lower()
        else:
            raise RuleError(f"cast: {actor} has no spell attack {a.spell!r}; name the magic skill of other spells")
        if skill_rating(creature, skill) < 1:
            raise RuleError(f"cast: {actor} is not trained in {skill}; magical skills need training (SKL-CSPL-06)")
        engine.pay(tx, actor, f"cast {a.spell}", "standard", dry)
        if dry:
            return
        if self._counterspell_window(engine, tx, actor, a.spell, skill):
            return  # SKL-CSPL-05: the caster's action is spent all the same
        if plan is not None:
            engine.roll_attack(tx, plan)
        else:
            tx.emit(ev.Note(f"{actor}'s {a.spell} ({skill}) takes effect"))

    def _counterspell_window(self, engine: Any, tx: View, caster: str, spell: str, skill: str) -> bool:
        """SKL-CSPL-01..07: enemies within 60 ft, trained in the caster's skill and holding reserve, may counter:
        contested d20 + rating; the counterspeller must win (a tie is the caster's unless the variant says)."""
        s = tx.state
        me = tx.creature(caster)
        caster_fp = Footprint(s.get(caster).position, me.space)
        for cid in engine.enemies(caster, s):
            cs, cr = tx.state.get(cid), tx.creature(cid)
            if cs.reactions.get(RESERVE, 0) <= 0 or not self.can_act(cr, cs):
                continue  # SKL-CSPL-01: a held complex action
            if skill_rating(cr, skill) < 1:
                continue  # SKL-CSPL-06/07: trained in that school
            dist = footprint_distance_ft(Footprint(cs.position, cr.space), caster_fp)
            if dist > 60:
                continue  # SKL-CSPL-03
            answer = tx.ask(ReactionPrompt(cid, "counterspell", f"{caster} casts {spell} ({skill}), {dist} ft away",
                                           ("counterspell", "decline")))
            if answer != "counterspell":
                continue
            tx.emit(ev.ReactionSpent(cid, RESERVE, f"counterspell against {caster}'s {spell}"))
            c_roll = numbers.total(tx.dice.d20(f"{skill} check {caster}"),
                           [Modifier(skill_rating(me, skill), f"{skill} skill")], base_label="d20")
            x_roll = numbers.total(tx.dice.d20(f"counterspell {cid}"),
                           [Modifier(skill_rating(cr, skill), f"{skill} skill")], base_label="d20")
            won = x_roll.value > c_roll.value or (x_roll.value == c_roll.value
                                                  and self.opts.skl_counterspell_tie_counters)
            verdict = (f"countered: {spell} fizzles out without effect (SKL-CSPL-05)" if won
                       else "the spell goes off" + (" (a tie is not a win, SKL-CSPL-05)"
                                                   if x_roll.value == c_roll.value else ""))
            tx.emit(ev.Note(f"{cid} counters with {skill} {x_roll.explain()} vs {caster}'s {c_roll.explain()}: "
                            f"{verdict}"))
            if won:
                return True
        return False

    # ------------------------------------------------------------------------ AI
    def ai_suggestion(self, enc: Any, actor: str) -> Any:
        """Tactics: cast spells through :class:`CastSpell`; hold the round's actions when wounded and engaged, or
        before walking out of a threatened square; feint a foe whose block or dodge would spoil our attack; pick
        the critical-attack penalty with the best expected damage (armor makes small hits worthless); use the
        off-hand bonus attack; never walk out of a threatened square with nothing left to strike or defend with."""
        s: EncounterState = enc.state
        turn = s.turn
        if turn is None:
            return None
        creature, cs = enc.creature(actor), s.get(actor)
        foes = sorted((f for f in enc.enemies(actor) if not self.out_of_fight(enc.creature(f), s.get(f))),
                      key=lambda f: (s.get(f).hp, f))
        if not foes:
            return None
        complex_left, offhand_left = turn.pools.get("complex", 0), turn.pools.get(OFFHAND, 0)
        main = self._wielded(creature, cs)
        if complex_left and main is not None and main.kind is WeaponKind.SPELL:
            for foe in foes:
                cast = CastSpell(main.name, foe)
                if enc.check(cast) is None:
                    return cast
        view = enc.view(s)
        engaged = self._in_melee(view, actor)
        off = self.off_hand(creature, cs) if self.two_weapon_on(cs) else None
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

    def _can_attack(self, enc: Any, actor: str, option: AttackOption | None, foe: str) -> bool:
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
                roll = self.effective_face(face) + bonus - p
                if roll >= pd:
                    stop = 0.0 if best_def is None else min(max(21 - (roll - best_def), 0), 20) / 20
                    value += (1 - stop) * max(mean + p * factor, 0) / 20
            out.append(value)
        return out

    def _strike_choices(self, enc: Any, view: View, actor: str, option: AttackOption, foe: str,
                        follow_up: bool, *, bonus: bool) -> list[tuple[float, Any]]:
        """(expected damage, action): the attack at its best penalty, and a feint when the foe's defenses would
        spoil more than the attack is worth (``follow_up``: an off-hand attack can use the opening at once)."""
        from d20combat.encounter.actions import Attack

        s = enc.state
        square = s.get(foe).position
        try:
            plan = enc.plan_attack(actor, foe, option.name, square=square)
        except ValueError:
            return []
        creature, target, ts = enc.creature(actor), enc.creature(foe), s.get(foe)
        hit_bonus = sum(m.value for m in plan.modifiers)
        pd, _ = enc.target_ac(plan, s)
        defenses = {} if self.feint_opening(ts, actor) else self._available_defenses(view, plan)
        best_def = max(defenses.values(), default=None)
        mean = option.dice.mean + self.damage_strength(creature, option) - self.armor_rating(target)
        factor = self.opts.skl_crit_damage_table.get(option.name, 1)
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
