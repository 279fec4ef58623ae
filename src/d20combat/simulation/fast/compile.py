"""Compile a battle once for the fast path: stat blocks to integer tables, dice to (count, sides, bonus),
the map to arrays, and every pure ruleset policy the kernel needs to a lookup table.

The kernel (:mod:`.kernel`) replays the reference engine's turn procedure with the core policy components;
it cannot ask a Python policy object mid-battle. So the compiler asks the ruleset *here*, through its
components, for every number a static input decides (attack modifiers, threat ranges, natural results, range
penalties, Strength to damage, Armor Class in each defense context, cover modes and values, initiative
modifiers), and refuses — naming them — components the kernel does not implement (:data:`.components.KERNEL_COMPONENTS`:
a component of another class, or one that replaces a policy whose answer depends on the changing state of
the battle); each supported component writes its own flags into the knobs (``compile_components``). A
refused battle is simply played by the reference engine; no ruleset is named here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from d20combat.battlefield.cover import CoverDegree, CoverFact
from d20combat.battlefield.grid import Light
from d20combat.encounter.battle import Battle
from d20combat.encounter.engine import initial_state
from d20combat.encounter.state import CombatantState, Effect
from d20combat.model.creature import AttackOption, Creature
from d20combat.model.statblock import WeaponKind
from d20combat.numbers import Modifier, total
from d20combat.rules.armor_class import DefenseContext
from d20combat.rulesets.base import Ruleset
from d20combat.simulation.fast.layout import (
    AREA_PLANE,
    ATK_SUM,
    ATK_TOTAL,
    CON_MOD,
    CON_SCORE,
    COVER_BY_CREATURES,
    D_BONUS,
    D_COUNT,
    D_SIDES,
    DARKVISION,
    E_BONUS,
    E_COUNT,
    E_SIDES,
    ID_RANK,
    INTO_MELEE,
    INTO_MELEE_FLAG,
    K_CHARGE_EARLY,
    K_CLEARANCE,
    K_CONC_BEFORE,
    K_COVER_VALUE,
    K_DIAG_COUNTS,
    K_DYING_PF1,
    K_MAX_CANDIDATES,
    K_MAX_FREE,
    K_MAX_ROUNDS,
    K_MELEE_IGNORES_HELPLESS,
    K_MIN_DAMAGE,
    K_MINRANGE_IGNORES_HELPLESS,
    K_N_SIDES,
    K_PARTIAL,
    K_PARTIAL_VALUE,
    K_STEP_FREE,
    K_SURPRISE_FREE,
    LAND_SPEED,
    LOW_LIGHT,
    MOVE_SLOT,
    MULT,
    N_ATTACKS,
    N_CS,
    N_KN,
    N_OPT,
    N_PLANES,
    PROJECTILE,
    RANGED,
    REACH,
    RELOAD,
    RELOAD_FULL,
    RELOAD_MOVE,
    RELOAD_NONE,
    SHEET_HP,
    SIDE,
    SIZE,
    SNEAK_HELPLESS,
    SNEAK_VS_ANY,
    SPEED,
    SPELL,
    STATIC,
    TOUCH,
)
from d20combat.simulation.fast.layout import NotCompilable as NotCompilable  # the refusal, re-exported
from d20combat.simulation.fast.starting import check_starting, fear, magic_concealment
from d20combat.simulation.fast.steps import move_table

I64 = npt.NDArray[np.int64]
PROJECTILE_KINDS = (WeaponKind.BOW, WeaponKind.CROSSBOW_LIGHT, WeaponKind.CROSSBOW_HEAVY, WeaponKind.SLING)
"""Weapons that shoot projectiles (what a coup de grace from an adjacent square may use, CMV-CDG-03)."""
F64 = npt.NDArray[np.float64]
U8 = npt.NDArray[np.uint8]
I16 = npt.NDArray[np.int16]


def unsupported_components(ruleset: Ruleset) -> list[str]:
    """The components of this ruleset the kernel does not implement, each as ``area=Class (what it replaces)``
    (empty: the fast path replays it exactly). The table is :data:`.components.KERNEL_COMPONENTS`."""
    from d20combat.simulation.fast.components import unsupported_components as unsupported

    return unsupported(ruleset)


# Cover mode table index: [ranged, reach attack, adjacent] -> 1 = any line, 0 = best corner.

MAX_CANDIDATES = 24
"""TacticalAI's ``max_move_candidates`` default: how many safe squares an archer tries."""


@dataclass(frozen=True)
class CompiledBattle:
    """Everything the kernel reads, as numpy arrays, plus the names to turn its trace back into words."""

    battle: Battle
    ids: tuple[str, ...]
    option_names: tuple[tuple[str, ...], ...]
    sides: tuple[str, ...]
    cs: I64
    opt: I64
    meanp: F64
    ac: I64
    """[creature, touch, flat-footed, helpless, vs melee] → Armor Class without cover or effects."""
    threat: I64
    """[creature, option, face, hit] → the roll threatens a critical."""
    rng: I64
    """[creature, option, distance // 5, 0 = allowed / 1 = penalty]."""
    natural: I64
    """[face, 0 = automatic hit / 1 = automatic miss]."""
    face_counts: I64
    """[face] → what the die counts as in the total."""
    cover_mode: I64
    """[ranged, reach attack, adjacent] → 1 = any line, 0 = best corner."""
    kn: I64
    passable: U8
    walls: U8
    low_walls: U8
    difficult: U8
    concealing: I16
    light: I64
    """[low-light vision, c, r] → 0 bright, 1 dim, 2 dark, as that viewer sees the square; plane
    ``AREA_PLANE`` → the square's area of concealing terrain (written by the concealment component)."""
    charge_ground: U8
    """1 where a charge may pass as far as the terrain goes (``charge_path_problem`` stops at pits only;
    walls are checked on their own)."""
    move_tables: I64
    """[slot, c, r, direction, (cost even, cost odd, diagonal increment)]: terrain-legal steps per creature
    size (``movement._move_table``), slot in column ``MOVE_SLOT``."""
    hp0: I64
    pos0: I64
    wield0: I64
    loaded0: I64
    init_mod: I64
    init_fixed: I64
    """-1000 = rolled, else the scenario's fixed initiative result."""


def _stacked(mods: list[Modifier], ruleset: Ruleset) -> int:
    return total(0, mods, stacking=ruleset.stacking).value


def _check_battle(battle: Battle) -> None:
    from d20combat.simulation.fast.components_skill import starting_conditions

    rs = battle.ruleset
    missing = unsupported_components(rs)
    if missing:
        raise NotCompilable(f"this battle uses policy components the kernel does not implement: {'; '.join(missing)}")
    check_starting(battle, starting_conditions(battle))  # blur, concealed:N, skill's two-weapon mode played
    for cid, creature in battle.creatures.items():
        placement = battle.placements[cid]
        if creature.fly_speed_ft:
            raise NotCompilable(f"{cid} flies")
        if placement.hp < 0:
            raise NotCompilable(f"{cid} starts below 0 hp")
        if placement.wielding is not None and all(o.name != placement.wielding for o in creature.attacks):
            raise NotCompilable(f"{cid} wields {placement.wielding}, which is not among its attacks")
    if len(battle.sides) < 2:
        raise NotCompilable("a battle needs two sides")
    if getattr(rs.cover, "adjacent_melee_ignores_creatures", False):
        raise NotCompilable("the cover policy gives no creature cover against adjacent melee (variant "
                            "pfb_adjacent_melee_ignores_creatures, PFB-COV-05); the kernel replays creature cover "
                            "per ranged/melee only")
    # The kernel adds cover and effects to a tabled AC, and range / into-melee / charge modifiers to a
    # tabled attack total: check the ruleset's stacking really adds such untyped modifiers.
    probe = [Modifier(3, "a"), Modifier(-2, "range"), Modifier(-4, "into melee"), Modifier(2, "charge"),
             Modifier(-2, "charging"), Modifier(4, "cover", "cover")]
    if _stacked(probe, rs) != sum(m.value for m in probe):
        raise NotCompilable(f"ruleset {rs.id} does not add situational modifiers")


def _option_row(rs: Ruleset, creature: Creature, option: AttackOption) -> list[int]:
    mods = rs.attack.attack_modifiers(creature, option)
    _, mult = rs.criticals.crit_profile(option)
    reload = {"none": RELOAD_NONE, "move": RELOAD_MOVE}.get(option.weapon.reload, RELOAD_FULL)
    energy = option.energy
    static = option.dice.bonus + rs.damage.damage_strength(creature, option) + option.weapon.enhancement
    row = [0] * N_OPT
    row[RANGED] = int(option.is_ranged)
    row[SPELL] = int(option.kind.value == "spell")
    row[RELOAD] = reload
    row[TOUCH] = int(option.weapon.touch)
    row[ATK_TOTAL] = _stacked(list(mods), rs)
    row[ATK_SUM] = sum(m.value for m in mods)
    row[D_COUNT], row[D_SIDES], row[D_BONUS] = option.dice.count, option.dice.sides, option.dice.bonus
    row[STATIC] = static
    if energy is not None:
        row[E_COUNT], row[E_SIDES], row[E_BONUS] = energy.count, energy.sides, energy.bonus
    row[MULT] = mult
    row[COVER_BY_CREATURES] = int(rs.cover.creatures_give_cover(option.is_ranged))
    row[PROJECTILE] = int(option.kind in PROJECTILE_KINDS)
    return row


def _light_table(battle: Battle) -> I64:
    gm = battle.game_map
    out = np.zeros((N_PLANES, gm.width, gm.height), dtype=np.int64)
    out[AREA_PLANE] = -1
    code = {Light.BRIGHT: 0, Light.DIM: 1, Light.DARK: 2}
    for low in (0, 1):
        for c in range(gm.width):
            for r in range(gm.height):
                out[low, c, r] = code[gm.light_for((c, r), bool(low))]
    return out


def compile_battle(battle: Battle) -> CompiledBattle:
    """Tables for the kernel, or :class:`NotCompilable` naming what the fast path cannot replay."""
    _check_battle(battle)
    rs = battle.ruleset
    gm = battle.game_map
    ids = tuple(battle.creatures)
    sides = battle.sides
    creatures = [battle.creatures[c] for c in ids]
    n = len(ids)
    max_o = max(1, max(len(c.attacks) for c in creatures))
    state0 = initial_state(battle)
    rank = {cid: i for i, cid in enumerate(sorted(ids))}

    cs = np.zeros((n, N_CS), dtype=np.int64)
    opt = np.zeros((n, max_o, N_OPT), dtype=np.int64)
    meanp = np.zeros((n, max_o), dtype=np.float64)
    threat = np.zeros((n, max_o, 21, 2), dtype=np.int64)
    max_d = gm.width + gm.height + 2
    rng = np.zeros((n, max_o, max_d, 2), dtype=np.int64)
    ac = np.zeros((n, 2, 2, 2, 2), dtype=np.int64)
    hp0 = np.zeros(n, dtype=np.int64)
    pos0 = np.zeros((n, 2), dtype=np.int64)
    wield0 = np.full(n, -1, dtype=np.int64)
    loaded0 = np.zeros((n, max_o), dtype=np.int64)
    init_mod = np.zeros(n, dtype=np.int64)
    init_fixed = np.full(n, -1000, dtype=np.int64)
    for i, (cid, creature) in enumerate(zip(ids, creatures, strict=True)):
        st: CombatantState = state0.get(cid)
        row = cs[i]
        row[SIDE] = sides.index(creature.side)
        row[SIZE] = creature.space
        row[REACH] = creature.reach_ft
        row[SPEED] = rs.movement.speed_ft(creature, st)
        row[CON_MOD], row[CON_SCORE] = creature.con_mod, creature.con_score
        row[LOW_LIGHT] = int(creature.sheet.low_light_vision)
        row[DARKVISION] = creature.sheet.darkvision_ft
        row[SNEAK_HELPLESS] = rs.damage.precision_dice(creature, True)
        row[SNEAK_VS_ANY] = rs.damage.precision_dice(creature, False)
        penalty = rs.attack.into_melee_penalty(creature)
        row[INTO_MELEE_FLAG] = int(penalty is not None)
        row[INTO_MELEE] = penalty.value if penalty is not None else 0
        row[ID_RANK] = rank[cid]
        row[SHEET_HP] = creature.sheet.hp
        row[LAND_SPEED] = creature.land_speed_ft
        row[N_ATTACKS] = len(creature.attacks)
        for o, option in enumerate(creature.attacks):
            opt[i, o] = _option_row(rs, creature, option)
            meanp[i, o] = option.dice.mean + max(creature.str_mod, 0)
            for face in range(1, 21):
                for hit in (0, 1):
                    threat[i, o, face, hit] = int(rs.criticals.threatens(face, option, bool(hit)))
            if option.is_ranged:
                for d in range(max_d):
                    check = rs.attack.ranged_limits(5 * d, option)
                    rng[i, o, d, 0] = int(check.problem is None)
                    rng[i, o, d, 1] = check.penalty
            if option.name in st.loaded:
                loaded0[i, o] = 1
            if option.name == st.wielding:
                wield0[i] = o
        for touch in (0, 1):
            for ff in (0, 1):
                for helpless in (0, 1):
                    for melee in (0, 1):
                        ctx = DefenseContext(touch=bool(touch), vs_melee=bool(melee), flat_footed=bool(ff),
                                             helpless=bool(helpless))
                        ac[i, touch, ff, helpless, melee] = rs.defense.total(creature, st, ctx, []).value
        # The kernel adds the charging effect to the tabled AC; make sure that is what the policy does.
        charging = Effect("charging", cid, 2, ac=-2)
        with_effect = rs.defense.total(creature, replace(st, effects=(charging,)), DefenseContext(), []).value
        if with_effect != ac[i, 0, 0, 0, 1] - 2:
            raise NotCompilable(f"the defense policy does not simply add the charging effect for {cid}")
        hp0[i] = st.hp
        pos0[i] = st.position
        fixed = battle.initiative.get(cid)
        if fixed is not None:
            init_fixed[i] = fixed
        order = rs.turn_order
        init_mod[i] = _stacked([*order.initiative_modifiers(creature), *order.initiative_state_modifiers(creature, st)],
                               rs)

    natural = np.zeros((21, 2), dtype=np.int64)
    face_counts = np.zeros(21, dtype=np.int64)
    for face in range(1, 21):
        auto_hit, auto_miss = rs.attack.natural(face)
        natural[face] = (int(auto_hit), int(auto_miss))
        face_counts[face] = rs.attack.effective_face(face)
    cover_mode = np.zeros((2, 2, 2), dtype=np.int64)
    for ranged in (0, 1):
        for reach in (0, 1):
            for adjacent in (0, 1):
                mode = rs.cover.cover_mode(ranged=bool(ranged), reach_attack=bool(reach), adjacent=bool(adjacent))
                cover_mode[ranged, reach, adjacent] = int(mode == "any_line")

    cover_value = rs.cover.cover_modifier(CoverFact(CoverDegree.COVER, None, ""))
    partial_value = rs.cover.cover_modifier(CoverFact(CoverDegree.PARTIAL, None, ""))
    kn = np.zeros(N_KN, dtype=np.int64)
    kn[K_MAX_ROUNDS] = battle.max_rounds
    kn[K_DIAG_COUNTS] = int(rs.movement.difficult_diagonal_counts)
    kn[K_STEP_FREE] = int(rs.movement.step_uses_free_action)
    kn[K_CHARGE_EARLY] = int(rs.movement.charge_ac_from_start)
    kn[K_PARTIAL] = int(rs.cover.partial_cover)
    kn[K_DYING_PF1] = int(rs.injury.dying_procedure == "pf1")
    kn[K_MAX_FREE] = rs.economy.max_free_actions
    kn[K_MIN_DAMAGE] = rs.damage.minimum_damage
    kn[K_CONC_BEFORE] = int(rs.concealment.before_roll)
    kn[K_MELEE_IGNORES_HELPLESS] = int(rs.attack.into_melee_ignores_helpless_allies)
    kn[K_MINRANGE_IGNORES_HELPLESS] = int(rs.attack.ranged_min_range_ignores_helpless)
    kn[K_SURPRISE_FREE] = int(rs.economy.surprise_free_actions)
    kn[K_COVER_VALUE] = cover_value.value if cover_value is not None else 0
    kn[K_PARTIAL_VALUE] = partial_value.value if partial_value is not None else 0
    kn[K_CLEARANCE] = int(rs.attack.ranged_needs_clearance())
    kn[K_MAX_CANDIDATES] = MAX_CANDIDATES
    kn[K_N_SIDES] = len(sides)

    w, h = gm.width, gm.height
    charge_ground = np.zeros((w, h), dtype=np.uint8)
    passable = np.zeros((w, h), dtype=np.uint8)
    walls = np.zeros((w, h), dtype=np.uint8)
    low_walls = np.zeros((w, h), dtype=np.uint8)
    difficult = np.zeros((w, h), dtype=np.uint8)
    concealing = np.full((w, h), -1, dtype=np.int16)
    for c in range(w):
        for r in range(h):
            sq = (c, r)
            passable[c, r] = gm.is_passable(sq)
            walls[c, r] = sq in gm.walls
            low_walls[c, r] = sq in gm.low_walls
            difficult[c, r] = gm.is_difficult(sq)
            charge_ground[c, r] = sq not in gm.pits
            if sq in gm.concealing:
                concealing[c, r] = gm.concealing[sq]
    light = _light_table(battle)
    from d20combat.simulation.fast.components import compile_components

    compile_components(battle, kn, light)
    magic_concealment(battle, ids, cs)
    fear(battle, ids, state0, cs, kn)  # a starting panic (kernel_fear)
    sizes = sorted({int(x) for x in cs[:, SIZE]})
    cs[:, MOVE_SLOT] = [sizes.index(int(x)) for x in cs[:, SIZE]]
    move_tables = np.stack([move_table(passable, walls, difficult, size, False, rs.movement.difficult_diagonal_counts)
                            for size in sizes])
    return CompiledBattle(
        battle=battle, ids=ids, option_names=tuple(tuple(o.name for o in c.attacks) for c in creatures),
        sides=sides, cs=cs, opt=opt, meanp=meanp, ac=ac, threat=threat, rng=rng, natural=natural,
        face_counts=face_counts, cover_mode=cover_mode, kn=kn, passable=passable, walls=walls,
        low_walls=low_walls, difficult=difficult, concealing=concealing, light=light,
        charge_ground=charge_ground, move_tables=move_tables, hp0=hp0,
        pos0=pos0, wield0=wield0, loaded0=loaded0, init_mod=init_mod, init_fixed=init_fixed,
    )
