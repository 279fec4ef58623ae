"""The compile steps of the skill-based components the kernel implements (issue 14), registered in
:data:`.components.KERNEL_COMPONENTS` after the core's and off-guard's. Each writes its knobs (the block from
``K_SKL_*`` = 100 in :mod:`.layout`); the kernel code they switch on is in ``kernel_skill_*.py``.

:class:`WeaponSkillAttack` needs no knob (skill + Str/Dex, a natural 20 counting as 30 and a 1 as −10 with no
automatic results, no −4 into melee, no minimum range: static answers the compile step tables); its step only
refuses what the kernel does not model. No compile step at all: :class:`DeclaredCriticalAttack` (no threats and
no multiplier are static answers too; a critical attack is declared only by skill-based's tactics and attacks
of opportunity, which the kernel refuses, so its AI never declares one) and :class:`PassiveDefense` (10 + Dex per
defense context, tabled like any Armor Class).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from d20combat.encounter.battle import Battle
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.model.statblock import WeaponKind, ability_mod
from d20combat.rulesets.components import D20Attack, HitPoints
from d20combat.rulesets.components.reactions import ThreatenedSquareAoO
from d20combat.rulesets.skill_based.action_set import SkillActions
from d20combat.rulesets.skill_based.active_defense import BlockAndDodge
from d20combat.rulesets.skill_based.attack import WeaponSkillAttack
from d20combat.rulesets.skill_based.concealment import NoConcealment
from d20combat.rulesets.skill_based.damage import ArmorRatingDamage
from d20combat.rulesets.skill_based.economy import ComplexBasicEconomy
from d20combat.rulesets.skill_based.feint import Feinting
from d20combat.rulesets.skill_based.options import TWO_WEAPON, UNARMED
from d20combat.rulesets.skill_based.reactions import DISTRACTING_ACTS, SkillAttacksOfOpportunity
from d20combat.rulesets.skill_based.skills import action_grants, skill_rating, weapon_skill
from d20combat.rulesets.skill_based.spells import Counterspelling
from d20combat.rulesets.skill_based.tactics import SkillTactics
from d20combat.rulesets.skill_based.two_weapon import TwoWeapons
from d20combat.simulation.fast.layout import (
    CONC_STRONGEST,
    K_AOO,
    K_AOO_NOT_COVER,
    K_CONC_STACK,
    K_SKL_ACTIONS,
    K_SKL_ACTIVE,
    K_SKL_AOO,
    K_SKL_AOO_PER_ROUND,
    K_SKL_ARMOR,
    K_SKL_AS_BASIC,
    K_SKL_AUTO_RESERVE,
    K_SKL_CALM,
    K_SKL_COUNTER_TIE,
    K_SKL_DANGER,
    K_SKL_DEF,
    K_SKL_ECON,
    K_SKL_FACTOR,
    K_SKL_FEINT,
    K_SKL_FEINT_TIE,
    K_SKL_HELD,
    K_SKL_IS_OFF,
    K_SKL_MAGIC,
    K_SKL_MIN_AFTER,
    K_SKL_MITIGATE,
    K_SKL_NO_CHARGE,
    K_SKL_NO_CONC,
    K_SKL_NO_STEP,
    K_SKL_OPEN_ROUNDS,
    K_SKL_RESIST,
    K_SKL_ROUND_SURPRISE,
    K_SKL_SPELL_SKILL,
    K_SKL_TACTICS,
    K_SKL_THREAT,
    K_SKL_TWF,
    MAX_SKL_CREATURES,
    MAX_SKL_MAGIC,
    MAX_SKL_OPEN,
    MAX_SKL_OPTIONS,
    SKL_ACT_CAST,
    SKL_ACT_FIRE,
    SKL_ACT_RELOAD,
    SKL_BLOCK,
    SKL_BLOCK_OFF,
    SKL_DODGE,
    SKL_NO_DEFENSE,
    SKL_RANGED_MAIN,
    SKL_THREATENS,
    TWF_HAS,
    TWF_OFF,
    TWF_OPTION,
    TWF_PRIMARY,
    NotCompilable,
)

I64 = npt.NDArray[np.int64]


def armor_rating(component: ArmorRatingDamage, battle: Battle, kn: I64, planes: I64) -> None:
    """SKL-DMG-03/04: each creature's armor rating (as the component reads it from the stat block) into
    ``kn[K_SKL_ARMOR + i]``, in the order of the battle's creatures, and the floor after armor
    (``skl_min_damage_1``)."""
    creatures = list(battle.creatures.values())
    if len(creatures) > MAX_SKL_CREATURES:
        raise NotCompilable(f"{len(creatures)} creatures: the kernel's armor-rating damage holds the ratings of at "
                            f"most {MAX_SKL_CREATURES}")
    kn[K_SKL_MITIGATE] = 1
    kn[K_SKL_MIN_AFTER] = 1 if component.min_damage_1 else 0
    for i, creature in enumerate(creatures):
        kn[K_SKL_ARMOR + i] = component.armor_rating(creature)


def no_concealment(component: NoConcealment, battle: Battle, kn: I64, planes: I64) -> None:
    """Rules-diff P18: the sources found as PFB's strongest concealment finds them (total concealment still means
    a guessed square), their miss chance 0."""
    kn[K_CONC_STACK] = CONC_STRONGEST
    kn[K_SKL_NO_CONC] = 1


def complex_basic(component: ComplexBasicEconomy, battle: Battle, kn: I64, planes: I64) -> None:
    """SKL-ACT-01..11, SKL-RES-01..06 and its variants (``skl_complex_as_basic``, ``skl_auto_reserve``,
    ``skl_surprise_limit``; ``skl_max_free_actions`` is the core's free-action limit). Refused: a creature with
    action grants (SKL-ACT-03/06/09/10: extra complex or basic actions, held for one use or not), whose pools
    the kernel does not count, and a reactions component whose round pool is not ``aoo``."""
    creatures = list(battle.creatures.items())
    if len(creatures) > MAX_SKL_CREATURES:
        raise NotCompilable(f"{len(creatures)} creatures: the kernel's reserve holds the complex actions of at most "
                            f"{MAX_SKL_CREATURES}")
    for cid, creature in creatures:
        grants = sorted(action_grants(creature))
        if grants:
            raise NotCompilable(f"{cid} has the action grant {grants[0]} (SKL-ACT-03/06/09/10), which the kernel's "
                                f"economy does not count")
    ruled = battle.ruleset.reactions
    if isinstance(ruled, ThreatenedSquareAoO) and ruled is not component.reactions:
        raise NotCompilable("the economy refreshes the attacks of opportunity (SKL-AOO-24) of another component "
                            "than the ruleset's reactions")
    if component.reactions.pool != "aoo":
        raise NotCompilable(f"the economy's attacks of opportunity are counted in pool {component.reactions.pool!r}; "
                            f"the kernel names it 'aoo'")
    kn[K_SKL_ECON] = 1
    kn[K_SKL_AS_BASIC] = int(component.complex_as_basic)
    kn[K_SKL_AUTO_RESERVE] = int(component.auto_reserve)
    kn[K_SKL_ROUND_SURPRISE] = int(component.per_round_surprise())
    kn[K_SKL_AOO_PER_ROUND] = component.reactions.per_round


def weapon_skill_attack(component: WeaponSkillAttack, battle: Battle, kn: I64, planes: I64) -> None:
    """SKL-ATK-01..09 as tabled by the compile step. Refused: a Small or Medium creature with a reach weapon (its
    ring 2 squares away, SKL-AOO-05..09, is not the kernel's reach). Which options are at hand undrawn and which
    are off-hand attacks; the two-weapon mode's table for a creature that starts in it (:func:`_two_weapons`,
    SKL-TWF-03/04: its hands' penalties on every attack)."""
    for cid, creature in battle.creatures.items():
        if creature.space == 1 and any(o.weapon.reach for o in creature.attacks):
            raise NotCompilable(f"{cid} has a reach weapon: its ring 2 squares away (SKL-AOO-08) is not in the "
                                f"kernel's reach")
    for i, (cid, creature) in enumerate(_tabled(battle, "weapon-skill attack")):
        for o, option in enumerate(creature.attacks):  # WeaponSkillAttack.holds beyond the weapon in hand
            at_hand = option.off_hand or weapon_skill(option.weapon) == UNARMED
            kn[K_SKL_HELD + i * (MAX_SKL_OPTIONS + 1) + o] = int(at_hand)
            kn[K_SKL_IS_OFF + i * (MAX_SKL_OPTIONS + 1) + o] = int(option.off_hand)
        if TWO_WEAPON in battle.placements[cid].conditions:
            _two_weapons(component.hands, battle, cid, i, kn)


def _two_weapons(hands: TwoWeapons, battle: Battle, cid: str, i: int, kn: I64) -> None:
    """SKL-TWF-01..19 for a creature that starts in the two-weapon mode: per weapon in hand its off hand (a weapon or
    a shield, SKL-TWF-01/09), the off-hand attack and the table's penalties of each hand (SKL-TWF-03/04/10).
    Refused: a double weapon (its other end attacks with the off-hand penalty, SKL-TWF-20/21)."""
    creature, placed = battle.creatures[cid], battle.placements[cid]
    for w, option in enumerate([None, *creature.attacks]):
        state = CombatantState(cid, placed.position, creature.sheet.hp, option.name if option else None,
                               placed.shield_state, conditions=placed.conditions)
        off = hands.off_hand(creature, state)
        row = K_SKL_TWF + (i * (MAX_SKL_OPTIONS + 1) + w) * 4
        if off is None:
            continue
        if off.double_end:
            raise NotCompilable(f"{cid}'s double weapon in the two-weapon mode (SKL-TWF-20/21) is not in the kernel")
        primary, off_pen, _rows = hands.twf_penalties(creature, off)
        kn[row + TWF_HAS] = 1
        kn[row + TWF_OPTION] = creature.attacks.index(off.option) if off.option is not None else -1
        kn[row + TWF_PRIMARY] = primary
        kn[row + TWF_OFF] = off_pen


def starting_conditions(battle: Battle) -> frozenset[str]:
    """The starting conditions the kernel plays: skill-based's two-weapon mode (SKL-TWF-08), when its hands are
    shared by the attack, economy, active defense, reactions, actions and tactics the kernel replays (the mode is
    never switched: no action of the kernel's AI does)."""
    rs = battle.ruleset
    attack = rs.attack
    if not isinstance(attack, WeaponSkillAttack):
        return frozenset()
    hands = attack.hands
    parts = (rs.economy, rs.active_defense, rs.reactions, rs.actions, rs.tactics)
    kinds = (ComplexBasicEconomy, BlockAndDodge, SkillAttacksOfOpportunity, SkillActions, SkillTactics)
    if all(isinstance(p, k) and getattr(p, "hands", None) is hands for p, k in zip(parts, kinds, strict=True)):
        return frozenset({TWO_WEAPON})
    return frozenset()


def _tabled(battle: Battle, what: str) -> list[tuple[str, Creature]]:
    """The battle's creatures in order, refused when the kernel's per-creature, per-option tables cannot hold them."""
    creatures = list(battle.creatures.items())
    if len(creatures) > MAX_SKL_CREATURES:
        raise NotCompilable(f"{len(creatures)} creatures: the kernel's {what} tables hold at most {MAX_SKL_CREATURES}")
    for cid, creature in creatures:
        if len(creature.attacks) > MAX_SKL_OPTIONS:
            raise NotCompilable(f"{cid} has {len(creature.attacks)} attacks: the kernel's {what} tables hold at most "
                                f"{MAX_SKL_OPTIONS}")
    return creatures


def skill_aoo(component: SkillAttacksOfOpportunity, battle: Battle, kn: I64, planes: I64) -> None:
    """SKL-AOO-01..27 on the threatened squares of :class:`ThreatenedSquareAoO` (``kn[K_AOO]``): per creature and
    weapon in hand the threatening attack (SKL-AOO-02: melee in hand, off hand, unarmed), the feats that make a
    distracting act no provocation (SKL-AOO-22). Refused: an economy that refreshes another component's attacks
    of opportunity, another table of distracting acts, and an attack area whose melee reach is its own (the
    reach weapon's ring, SKL-AOO-08, is refused by :class:`WeaponSkillAttack`'s step)."""
    rs = battle.ruleset
    economy = rs.economy
    if isinstance(economy, ComplexBasicEconomy) and economy.reactions is not component:
        raise NotCompilable("the economy refreshes the attacks of opportunity (SKL-AOO-24) of another component "
                            "than the ruleset's reactions")
    if dict(component.provoking_acts) != DISTRACTING_ACTS or component.provoking_moves != frozenset({"move", "charge"}):
        raise NotCompilable("skill-based's attacks of opportunity provoked by other moves or acts than SKL-AOO's")
    reach = type(rs.attack).in_melee_reach
    if reach is not D20Attack.in_melee_reach and reach is not WeaponSkillAttack.in_melee_reach:
        raise NotCompilable(f"attacks of opportunity with the attack {type(rs.attack).__name__}: who threatens is "
                            f"judged by its own melee reach")
    kn[K_AOO] = 1
    kn[K_AOO_NOT_COVER] = int(component.not_against_cover)
    kn[K_SKL_AOO] = 1
    for i, (cid, creature) in enumerate(_tabled(battle, "attack-of-opportunity")):
        placed = battle.placements[cid]
        for w, option in enumerate([None, *creature.attacks]):
            state = CombatantState(cid, placed.position, creature.sheet.hp, option.name if option else None,
                                   placed.shield_state)
            threat = component.threat_option(creature, state)
            o = creature.attacks.index(threat) if threat is not None and component.threat_reach(creature, state) else -1
            kn[K_SKL_THREAT + i * (MAX_SKL_OPTIONS + 1) + w] = o
        kn[K_SKL_CALM + i] = (SKL_ACT_FIRE * creature.has_feat("no_provoke:fire_ranged")
                              + SKL_ACT_RELOAD * creature.has_feat("no_provoke:reload")
                              + SKL_ACT_CAST * creature.has_feat("no_provoke:cast_spell"))


def skill_actions(component: SkillActions, battle: Battle, kn: I64, planes: I64) -> None:
    """SKL-RES-02/04/06: the reserve released at the start of each turn and lapsing at the end of the round;
    rules-diff P7 / SKL-AOO-12: no charge unless ``skl_charge``, no 5-foot step unless ``skl_pf_actions``. Its own
    actions (reserve, feint, cast spell) are chosen only by skill-based's tactics (``kernel_skill_tactics``; the
    two-weapon mode and bonus attack never: the mode is on only by a starting condition); the counterspell
    window's tables (:func:`_counterspelling`). Refused: a creature with a spell attack under other tactics
    (SKL-CSPL-02: cast only through ``cast_spell``, which only skill-based's tactics choose)."""
    casting = isinstance(battle.ruleset.tactics, SkillTactics)
    magic: list[str] = []
    for cid, creature in battle.creatures.items():
        spell = next((o for o in creature.attacks if o.kind is WeaponKind.SPELL), None)
        if spell is not None and not casting:
            raise NotCompilable(f"{cid}'s {spell.name}: skill-based casts spells only with cast_spell (SKL-CSPL-02), "
                                f"which only skill-based's tactics choose")
        magic += [weapon_skill(o.weapon) for o in creature.attacks if o.kind is WeaponKind.SPELL]
    if magic:
        _counterspelling(component, battle, kn, sorted(set(magic)))
    kn[K_SKL_ACTIONS] = 1
    kn[K_SKL_NO_CHARGE] = int(not component.charge)
    kn[K_SKL_NO_STEP] = int(not component.pf_actions)


def _counterspelling(component: SkillActions, battle: Battle, kn: I64, magic: list[str]) -> None:
    """SKL-CSPL-01..07 (``Counterspelling``): per creature its rating in each magic skill of the battle's spells, per
    spell attack its skill; ``skl_counterspell_tie_counters``. Refused: another counterspelling component, more
    than ``MAX_SKL_MAGIC`` magic skills."""
    if type(component.spells) is not Counterspelling:
        raise NotCompilable(f"the spells component {type(component.spells).__name__} is not the kernel's "
                            f"(Counterspelling)")
    if len(magic) > MAX_SKL_MAGIC:
        raise NotCompilable(f"{len(magic)} magic skills: the kernel's counterspell tables hold at most {MAX_SKL_MAGIC}")
    kn[K_SKL_COUNTER_TIE] = int(component.spells.tie_counters)
    for i, (_cid, creature) in enumerate(_tabled(battle, "counterspell")):
        for k, skill in enumerate(magic):
            kn[K_SKL_MAGIC + i * MAX_SKL_MAGIC + k] = skill_rating(creature, skill)
        for o, option in enumerate(creature.attacks):
            index = magic.index(weapon_skill(option.weapon)) if option.kind is WeaponKind.SPELL else -1
            kn[K_SKL_SPELL_SKILL + i * (MAX_SKL_OPTIONS + 1) + o] = index


def block_and_dodge(component: BlockAndDodge, battle: Battle, kn: I64, planes: I64) -> None:
    """SKL-DEF-02..07, SKL-RNG-01/02 and the AI's answer: per creature and weapon in hand (none, or each attack
    option) its dodge, block and off-hand block bonuses, whether the main hand holds a ranged weapon and whether
    it threatens; per attack option twice its mean damage before armor; each creature's armor rating. Refused:
    ``skl_declare_before_roll`` (SKL-DEF-08) and ``skl_ranged_block_breaks`` (SKL-RNG-03), an injury other than
    hit points (who can act) and an attack whose melee reach is not the creature's (who threatens)."""
    rs = battle.ruleset
    if component.declare_before_roll:
        raise NotCompilable("skl_declare_before_roll (SKL-DEF-08): a defense committed before the roll is not in "
                            "the kernel")
    if component.ranged_block_breaks:
        raise NotCompilable("skl_ranged_block_breaks (SKL-RNG-03): a ranged weapon broken in a block is not in the "
                            "kernel")
    if type(rs.injury) is not HitPoints:
        raise NotCompilable(f"block and dodge with the injury {type(rs.injury).__name__}: the kernel's defender "
                            f"can act as hit points say")
    if not isinstance(rs.attack, WeaponSkillAttack) and type(rs.attack).in_melee_reach is not D20Attack.in_melee_reach:
        raise NotCompilable(f"block and dodge with the attack {type(rs.attack).__name__}: who threatens is judged "
                            f"by its own melee reach")
    creatures = list(battle.creatures.items())
    if len(creatures) > MAX_SKL_CREATURES:
        raise NotCompilable(f"{len(creatures)} creatures: the kernel's block and dodge table at most "
                            f"{MAX_SKL_CREATURES}")
    kn[K_SKL_ACTIVE] = 1
    for i, (cid, creature) in enumerate(creatures):
        if len(creature.attacks) > MAX_SKL_OPTIONS:
            raise NotCompilable(f"{cid} has {len(creature.attacks)} attacks: the kernel's block and dodge table at "
                                f"most {MAX_SKL_OPTIONS}")
        kn[K_SKL_ARMOR + i] = component.damage.armor_rating(creature)
        placed = battle.placements[cid]
        for w, option in enumerate([None, *creature.attacks]):
            state = CombatantState(cid, placed.position, creature.sheet.hp, option.name if option else None,
                                   placed.shield_state, conditions=placed.conditions)  # the two-weapon mode
            row = K_SKL_DEF + (i * (MAX_SKL_OPTIONS + 1) + w) * 5
            for k, value in enumerate(_defenses(component, creature, state)):
                kn[row + k] = value
        for o, option in enumerate(creature.attacks):
            twice = 2 * (option.dice.mean + rs.damage.damage_strength(creature, option))
            if twice != int(twice):
                raise NotCompilable(f"{cid}'s {option.name}: a mean damage of {twice / 2} is not in halves")
            kn[K_SKL_DANGER + i * (MAX_SKL_OPTIONS + 1) + o] = int(twice)


def _defenses(component: BlockAndDodge, creature: Creature, state: CombatantState) -> list[int]:
    """``BlockAndDodge.defense_rolls`` without the −6 in melee, in the order of the ``SKL_*`` columns."""
    hands, reactions = component.hands, component.reactions
    out = [SKL_NO_DEFENSE] * 5
    out[SKL_DODGE] = skill_rating(creature, "defense") + creature.dex_mod
    wielded = hands.wielded(creature, state)
    out[SKL_RANGED_MAIN] = int(wielded is not None and wielded.is_ranged and wielded.kind is not WeaponKind.SPELL)
    main = wielded
    if main is not None and (main.kind is WeaponKind.SPELL or weapon_skill(main.weapon) == UNARMED):
        main = None
    shield = hands.shield_in_hand(creature, state)
    if main is not None or shield is not None or not component.block_needs_item:
        if main is not None:
            skill = weapon_skill(main.weapon)
        elif shield is not None:
            skill = (shield.skill or UNARMED).lower()
        else:
            skill = UNARMED
        pen = hands.hand_penalty(creature, state, "primary")
        out[SKL_BLOCK] = skill_rating(creature, skill) + creature.str_mod + (pen.value if pen else 0)
    off = hands.off_hand(creature, state)
    if off is not None and (not off.double_end or component.double_weapon_blocks):
        pen = hands.hand_penalty(creature, state, "off")
        out[SKL_BLOCK_OFF] = skill_rating(creature, off.skill) + creature.str_mod + (pen.value if pen else 0)
    threat = reactions.threat_option(creature, state)
    out[SKL_THREATENS] = int(threat is not None and reactions.threat_reach(creature, state) > 0)
    return out


def skill_tactics(component: SkillTactics, battle: Battle, kn: I64, planes: I64) -> None:
    """SKL-RES-02, SKL-FEINT-01..05, SKL-CRIT-01..04 as :class:`SkillTactics` weighs them (``kernel_skill_tactics``):
    per creature and attack option the critical-attack damage factor and the feint bonus (weapon skill + Int), per
    creature its resistance to a feint (Defense + Wis); the feint's variants (``skl_feint_tie_succeeds``,
    ``skl_feint_opening_rounds``). Refused: tactics weighing other components than the ruleset's own (its reactions,
    active defense, damage, criticals, the feint of its actions), a feint of another class, and more than
    ``MAX_SKL_OPEN`` creatures (the openings are kept per target and feinter). Spells are refused by the actions'
    step; the two-weapon bonus attack is never among the choices (the mode is on only by a starting condition)."""
    rs = battle.ruleset
    for area, part in (("reactions", component.reactions), ("active_defense", component.active_defense),
                       ("damage", component.damage), ("criticals", component.criticals)):
        if getattr(rs, area) is not part:
            raise NotCompilable(f"skill-based's tactics weigh their own {area} component, not the ruleset's "
                                f"{type(getattr(rs, area)).__name__}")
    actions = rs.actions
    if not isinstance(actions, SkillActions) or actions.feinting.reactions is not component.reactions:
        raise NotCompilable("skill-based's tactics feint through skill-based's actions with the same reactions")
    feinting = actions.feinting
    if type(feinting) is not Feinting:
        raise NotCompilable(f"the feint of class {type(feinting).__name__} is not the kernel's (Feinting)")
    creatures = _tabled(battle, "tactics")
    if len(creatures) > MAX_SKL_OPEN:
        raise NotCompilable(f"{len(creatures)} creatures: the kernel keeps the feint openings of at most "
                            f"{MAX_SKL_OPEN}")
    kn[K_SKL_TACTICS] = 1
    kn[K_SKL_OPEN_ROUNDS] = feinting.opening_rounds
    kn[K_SKL_FEINT_TIE] = int(feinting.tie_succeeds)
    for i, (_cid, creature) in enumerate(creatures):
        kn[K_SKL_RESIST + i] = skill_rating(creature, "defense") + ability_mod(creature.sheet.abilities.wis)
        for o, option in enumerate(creature.attacks):
            k = i * (MAX_SKL_OPTIONS + 1) + o
            kn[K_SKL_FACTOR + k] = component.criticals.damage_factor(option)
            kn[K_SKL_FEINT + k] = (skill_rating(creature, weapon_skill(option.weapon))
                                   + ability_mod(creature.sheet.abilities.int))
