"""The block reaction (WOA-REACT-17..26): damage reduction against one attack of ½, ⅓ or ¼ the warrior level by
what blocks it, plus the shield's AC bonus when a shield blocks it; a blocked missile that overcomes the shield's
hardness lodges in it (WOA-REACT-26, noted only)."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from d20combat.model.creature import Creature
from d20combat.model.statblock import WeaponKind
from d20combat.rulesets.components.component import AttackInfo, RuleError, View
from d20combat.rulesets.components.reactions import melee_weapon_in_hand, totally_concealed
from d20combat.rulesets.worlds_of_adventure.dodge import class_level
from d20combat.rulesets.worlds_of_adventure.opportunity import is_unarmed

SHIELD_BLOCK_BONUS = "shield_block_bonus"
WEAPON_BLOCK_BONUS = "weapon_block_bonus"
"""WOA-REACT-27 (MISSING: the feat details): the stat block's ``attributes`` ``shield_block_bonus`` (Shield Focus,
Shield Specialization) and ``weapon_block_bonus`` (Two-Weapon Defense) — the amounts the feats give, filled in by
the GM or the designer — add to a block made with a shield or with a weapon."""


def _feat_bonus(creature: Creature, key: str) -> tuple[int, str]:
    value = int(creature.sheet.attributes.get(key, 0))
    if value < 0:
        raise RuleError(f"attributes.{key}: {value} is negative; a feat's block bonus is 0 or more (WOA-REACT-27)")
    feats = "Shield Focus/Specialization" if key == SHIELD_BLOCK_BONUS else "Two-Weapon Defense"
    return value, (f" + {value} {feats} (WOA-REACT-27)" if value else "")


def _part(level: int, by: int, round_up: bool) -> int:
    """The warrior level's ½, ⅓ or ¼: floor, or ceiling with the option ``woa_block_rounding`` "up"."""
    return -(-level // by) if round_up else level // by


def block_value(view: View, defender: str, ranged: bool, *, round_up: bool = False) -> tuple[int, str] | None:
    """WOA-REACT-18/20/22/23: the best block ``defender`` can make now — (DR, why) — or None when it holds no melee
    weapon and wears no ready shield (or, against a ranged attack, has no shield). Floor rounding (AMBIGUOUS,
    WOA-REACT-22's proposed reading; ``round_up``: the option ``woa_block_rounding`` "up")."""
    creature, state = view.creature(defender), view.state.get(defender)
    level = class_level(creature, "warrior")
    choices: list[tuple[int, str]] = []
    if creature.shield_bonus and state.shield_state in ("strapped", "held"):
        bonus, why = _feat_bonus(creature, SHIELD_BLOCK_BONUS)
        choices.append((_part(level, 2, round_up) + creature.shield_bonus + bonus,
                        f"½ warrior level {level} with a shield + its AC bonus {creature.shield_bonus}{why}"))
    weapon = melee_weapon_in_hand(creature, state)
    if weapon is not None and not ranged and not is_unarmed(weapon):
        bonus, why = _feat_bonus(creature, WEAPON_BLOCK_BONUS)
        if weapon.two_handed:
            choices.append((_part(level, 2, round_up) + bonus,
                            f"½ warrior level {level} with a two-handed weapon{why}"))
        elif weapon.weapon.hands == "light":
            choices.append((_part(level, 4, round_up) + bonus, f"¼ warrior level {level} with a light weapon{why}"))
        else:
            choices.append((_part(level, 3, round_up) + bonus,
                            f"⅓ warrior level {level} with a one-handed weapon{why}"))
    return max(choices, key=lambda c: c[0]) if choices else None


def block_problem(view: View, attack: AttackInfo, defender: str, *, round_up: bool = False) -> str | None:
    """Why ``defender`` cannot block this attack (the budget and the general bars aside), or None."""
    creature: Creature = view.creature(defender)
    if class_level(creature, "warrior") <= 0:
        return "blocking is for warriors (WOA-REACT-17)"
    if totally_concealed(view, defender, attack.attacker):
        return "it is not aware of the attack (WOA-REACT-19)"
    value = block_value(view, defender, attack.ranged, round_up=round_up)
    if value is None:
        return ("a ranged attack is blocked only with a shield (WOA-REACT-20)" if attack.ranged
                else "it holds no melee weapon and wears no shield (WOA-REACT-18)")
    if value[0] <= 0:
        return f"a block value of 0 ({value[1]}, WOA-REACT-22)"
    return None


def other_reduction(creature: Creature) -> int:
    """The highest damage reduction the creature has besides a block: the stat block's ``attributes``
    ``damage_reduction`` (read as DR/—, a barbarian's), 0 when absent."""
    return max(int(creature.sheet.attributes.get("damage_reduction", 0)), 0)


def block_text(block: tuple[int, str], creature: Creature) -> str:
    """WOA-REACT-24: the block's DR, which stacks with the highest other DR (the block read as DR/—, AMBIGUOUS)."""
    value, why = block
    other = other_reduction(creature)
    return f"block DR {value} ({why})" + (f", stacking with DR {other}/— (WOA-REACT-24)" if other else "")


def mitigate_other(creature: Creature, amount: int) -> tuple[int, str]:
    """The highest other DR off the damage of every attack (WOA-REACT-24's "highest other applicable DR")."""
    other = other_reduction(creature)
    if not other or amount <= 0:
        return amount, ""
    return max(amount - other, 0), f"− DR {other}/—"


@lru_cache(maxsize=1)
def _hardness_table() -> tuple[dict[str, int], int]:
    data: Any = yaml.safe_load(resources.files("d20combat.data").joinpath("woa_armor.yaml").read_text("utf-8"))
    return {str(k): int(v) for k, v in data["shield_hardness"].items()}, int(data["default_shield_hardness"])


def shield_hardness(creature: Creature) -> tuple[int, str]:
    """WOA-REACT-26 (MISSING: the seed gives no hardness): the hardness of the creature's shield — its entry in
    ``data/woa_armor.yaml`` ``shield_hardness``, else ``default_shield_hardness`` (wood's) — and where it comes
    from. The assumption is named in docs/worlds-of-adventure/reactions.md."""
    ref = creature.sheet.shield
    name = ref if isinstance(ref, str) or ref is None else ref.name
    table, default = _hardness_table()
    if name is not None and name in table:
        return table[name], f"{name}'s hardness"
    return default, "the default shield hardness"


def lodged_missile(view: View, attack: AttackInfo, damage: int, block: tuple[int, str] | None) -> str | None:
    """WOA-REACT-26: the note that the missile of a ranged weapon attack blocked with a shield lodges in it — the
    attack hit (this is asked of a hit's damage) and its ``damage``, before the block's DR, is more than the
    shield's hardness — or None. Only noted: the text leaves the effect on the shield unquantified, so none is
    applied (an assumption). A ranged attack is blocked only with a shield (WOA-REACT-20)."""
    if block is None or not attack.ranged or attack.option.weapon.kind is WeaponKind.SPELL:
        return None
    creature = view.creature(attack.target)
    hardness, source = shield_hardness(creature)
    if damage <= hardness:
        return None
    ref = creature.sheet.shield
    shield = "shield" if ref is None else ref if isinstance(ref, str) else ref.name
    return (f"{attack.option.name} lodges in {attack.target}'s {shield}: its {damage} damage overcomes {source}, "
            f"{hardness} (WOA-REACT-26; the effect on the shield is unquantified in the text, so none is applied)")
