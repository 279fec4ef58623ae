"""P8 attack of Epic Path (EP-ATK): reach and range with no minimum distance, the maximum range of a weapon, weapon
qualities next to blocked terrain, non-proficiency, and what an attack that includes movement may target."""

from __future__ import annotations

from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint, GameMap, Square
from d20combat.battlefield.reach import within_reach
from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import AttackOption, Creature
from d20combat.model.statblock import Size
from d20combat.numbers import Modifier
from d20combat.rules import attack as attack_rules
from d20combat.rulesets.components import D20Attack
from d20combat.rulesets.components.component import AttackInfo, View
from d20combat.rulesets.epic_path.aid import aid_modifiers, spend_aid

SIZE_MODIFIER: dict[Size, int] = {Size.SMALL: 1, Size.MEDIUM: 0, Size.LARGE: -1, Size.LARGE_LONG: -1}
"""EP-ATK-10/11, EP-AC-03 name a 'size modifier' without a table: Pathfinder's (Small +1, Medium 0, Large −1), to
attack rolls and AC alike (an assumption, docs/epic-path/attack-and-damage.md)."""
UNWIELDY = "unwieldy"
"""EP-ATK-25: cannot be used while its wielder is adjacent to blocked terrain (e.g. a long whip)."""
CUMBERSOME = "cumbersome"
"""EP-ATK-26: −4 on attack rolls while its wielder is adjacent to blocked terrain (e.g. a great whip)."""


INCLUSIVE_REACH = "inclusive-reach"
"""EP-ATK-02: a reach weapon that also hits adjacent targets."""


def iterative_bonuses(*bab_sources: int) -> tuple[int, ...]:
    """EP-ATK-12/13: the attack bonuses of a full attack from the BAB of every source (they stack): a second
    attack at −5 from BAB +6, a third at −10 from +11, a fourth at −15 from +16."""
    bab = sum(bab_sources)
    if bab < 0 or not bab_sources:
        raise ValueError(f"a base attack bonus (BAB) of at least 0 is needed, got {bab_sources}")
    return tuple(bab - 5 * i for i in range(4) if i == 0 or bab >= 1 + 5 * i)


def has_quality(option: AttackOption, quality: str) -> bool:
    return quality in option.weapon.qualities


def is_blocked_terrain(game_map: GameMap, square: Square) -> bool:
    """EP-MOVE-11 blocked terrain, as the map tells it: the map's own test where it has one (``is_blocked``),
    else a wall or a pit (impassable squares)."""
    test = getattr(game_map, "is_blocked", None)
    if callable(test):
        return bool(test(square))
    return square in game_map.walls or square in game_map.pits


def blocked_neighbour(game_map: GameMap, origin: Square, size: int) -> Square | None:
    """The first blocked-terrain square touching a creature of ``size`` squares at ``origin`` (edge or corner), or
    None. Off the map is not terrain."""
    c0, r0 = origin
    for c in range(c0 - 1, c0 + size + 1):
        for r in range(r0 - 1, r0 + size + 1):
            if c0 <= c < c0 + size and r0 <= r < r0 + size:
                continue
            if game_map.in_bounds((c, r)) and is_blocked_terrain(game_map, (c, r)):
                return (c, r)
    return None


class EpAttack(D20Attack):
    """EP-ATK-01..23, EP-ATK-25..27: d20 + BAB + Str (melee) or Dex (ranged) + size, hits on ≥ AC (EP-ATK-07/10/11),
    natural 1 misses and natural 20 hits (EP-ATK-08/09); a ranged attack reaches anything within its maximum range —
    5 increments thrown, 10 projectile, or the weapon's own shorter maximum (EP-ATK-14..16) — at −2 per full or
    partial increment beyond the first (EP-ATK-17), with no minimum distance and no rule against shooting next to an
    enemy (Epic Path has neither). Unwieldy weapons cannot be used and cumbersome ones take −4 next to blocked
    terrain (EP-ATK-25/26); a weapon one is not proficient with takes −4 (EP-ATK-27)."""

    def flat_footed_against(self, view: View, attack: AttackInfo) -> bool:
        """EP-SURP-14: attacking from stealth catches the target Flat-Footed against that attack — not after a
        charge, which always breaks stealth before its attack (EP-SURP-21)."""
        from d20combat.rulesets.epic_path.stealth import attack_from_stealth

        return attack_from_stealth(view, attack.attacker)

    def holds(self, creature: Creature, state: CombatantState, option: AttackOption) -> bool:
        """EP-ACT-10: with two weapons (the second one ``off_hand: true`` on the stat block, held in the other hand)
        either may strike, the first strike of a full attack included; otherwise only the weapon in hand."""
        return state.wielding == option.name or option.off_hand

    def attack_modifiers(self, creature: Creature, option: AttackOption) -> list[Modifier]:
        """EP-ATK-10/11: BAB + Str (melee) or Dex (ranged) + size modifier (+ the attack's own bonuses)."""
        mods = super().attack_modifiers(creature, option)
        size = SIZE_MODIFIER.get(creature.sheet.size, 0)
        if size:
            mods.append(Modifier(size, "size", "size"))
        return mods

    def in_melee_reach(self, creature: Creature, option: AttackOption, attacker: Footprint, target: Footprint) -> bool:
        """EP-ATK-01/02: a melee weapon reaches the adjacent squares (the creature's natural reach); a reach weapon
        reaches twice the natural reach but not within it, unless its reach is inclusive."""
        if not option.weapon.reach:
            return within_reach(attacker, creature.reach_ft, target)
        d = footprint_distance_ft(attacker, target)
        if d <= creature.reach_ft and not has_quality(option, INCLUSIVE_REACH):
            return False
        return 0 < d <= 2 * creature.reach_ft

    def into_melee_penalty(self, creature: Creature) -> Modifier | None:
        """Epic Path has no penalty for shooting into melee."""
        return None

    def ranged_needs_clearance(self) -> bool:
        """EP-ATK-14: 'any target that is within the weapon's maximum range' — no 10-ft rule."""
        return False

    def ranged_limits(self, distance_ft: int, option: AttackOption) -> attack_rules.RangeCheck:
        """EP-ATK-15..17: −2 per full or partial increment after the first; at most 5 increments (thrown) or 10
        (projectile), or the weapon's stated shorter maximum."""
        weapon = option.weapon
        increment = weapon.range_increment_ft
        increments = -(-distance_ft // increment)
        limit = weapon.kind.max_increments
        maximum = limit * increment
        if weapon.max_range_ft is not None and weapon.max_range_ft < maximum:
            maximum = weapon.max_range_ft
        if distance_ft > maximum:
            how = (f"{option.name}'s maximum range {maximum} ft (EP-ATK-16)" if maximum != limit * increment
                   else f"{limit} × {increment} ft ({'EP-ATK-15' if limit == 5 else 'EP-ATK-16'})")
            return attack_rules.RangeCheck(0, f"the target is {distance_ft} ft away, beyond {how}")
        return attack_rules.RangeCheck(-2 * max(increments - 1, 0), None)

    def attack_problem(self, view: View, attack: AttackInfo) -> str | None:
        """EP-ATK-25: an unwieldy weapon cannot be used next to blocked terrain; EP-CRIT-14: a spell without
        attack roll is cast (``cast_spell``), never rolled as an attack."""
        from d20combat.rulesets.epic_path.spells import has_no_attack_roll

        if has_no_attack_roll(attack.option):
            return (f"{attack.option.name} requires no attack roll: cast it with cast_spell; it can never score a "
                    "critical hit (EP-CRIT-14)")
        if has_quality(attack.option, UNWIELDY):
            where = self._blocked_next_to(view, attack.attacker)
            if where is not None:
                return (f"{attack.attacker}'s {attack.option.name} is unwieldy and cannot be used next to blocked "
                        f"terrain at ({where[0]},{where[1]}) (EP-ATK-25)")
        return None

    def situational_attack_modifiers(self, view: View, attack: AttackInfo) -> list[Modifier]:
        """EP-ATK-26: cumbersome −4 next to blocked terrain; EP-ATK-27: −4 not proficient."""
        mods: list[Modifier] = []
        if has_quality(attack.option, CUMBERSOME) and self._blocked_next_to(view, attack.attacker) is not None:
            mods.append(Modifier(-4, "cumbersome next to blocked terrain"))
        if not attack.option.proficient:
            mods.append(Modifier(-4, "not proficient"))
        mods += aid_modifiers(view.state.get(attack.attacker), "attack", attack.target)  # EP-MISC-03/05
        return mods

    def after_attack(self, view: View, attack: AttackInfo, hit: bool) -> None:
        """EP-MISC-03: an aid-another bonus is for the next attack roll only: this one spends it. EP-CRIT-15: a spell
        that hits deals its ability damage or drain, doubled on a critical hit."""
        spend_aid(view, attack.attacker, attack.target)
        from d20combat.rulesets.epic_path.spells import ability_effects, apply_ability_damage

        if hit and ability_effects(attack.option):
            resolved = [e for e in getattr(view, "events", []) if isinstance(e, ev.AttackResolved)]
            critical = bool(resolved) and resolved[-1].attacker == attack.attacker and resolved[-1].critical
            apply_ability_damage(view, attack.attacker, attack.target, attack.option, critical=critical)

    @staticmethod
    def _blocked_next_to(view: View, who: str) -> Square | None:
        cs = view.state.get(who)
        return blocked_neighbour(view.game_map, cs.position, view.creature(who).space)
