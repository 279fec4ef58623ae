"""Attack rolls (WOA-STAT-01..19) and attacks (WOA-ATK-01..10).

- d20 + attack bonus against AC; a tie hits; a natural 1 always misses, a natural 20 always hits (WOA-STAT-01..04);
- melee: BAB + Str; ranged: BAB + Dex + the *relative* size modifier (+2 per category the target is larger, −2 per
  category smaller, WOA-STAT-12) + the range penalty (WOA-STAT-09/10); superior weapons add their enhancement, and
  the stat block's bonuses (Weapon Focus…) add (WOA-STAT-18/19);
- range: no penalty inside the first increment, −2 per *full* increment, at most 5 increments thrown and 10 fired,
  the last one included (WOA-STAT-13..16); no minimum distance and no "10 ft from every enemy" rule: a target
  within the maximum range and in sight may be shot (WOA-ATK-06);
- multiple attacks: at BAB +6 a full attack (a full-round action) gives two attacks (WOA-ATK-08,
  :func:`attacks_by_bab`, the literal reading: no third attack, no penalty on the second — ``woa_iterative_penalty``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, ClassVar

import yaml

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.model.creature import AttackOption, Creature
from d20combat.model.statblock import Size
from d20combat.numbers import Modifier
from d20combat.rules.attack import RangeCheck
from d20combat.rulesets.components import ActionSpec, D20Attack
from d20combat.rulesets.components.component import AttackInfo, RuleError, View
from d20combat.rulesets.worlds_of_adventure.reactions import RANGED_ROUND
from d20combat.rulesets.worlds_of_adventure.surprise_attack import is_surprise_attack

SIZE_ORDER = {Size.SMALL: 0, Size.MEDIUM: 1, Size.LARGE: 2, Size.LARGE_LONG: 2}
"""The size categories the stat blocks have, in order (WOA-STAT-12 counts the categories between two sizes)."""

SHOT_THIS_ROUND = RANGED_ROUND
"""WOA-ATK-07: the creature made a ranged attack on its turn this round — it cannot dodge until the round ends."""

HIDDEN_DRAW = "drew_hidden:"
"""WOA-ITEM-09: the flag ``drew_hidden:<weapon>`` the hidden draw (:mod:`.items`) sets until the round ends: the
first attack with that weapon this round is a surprise attack (:meth:`WoaAttack.flat_footed_against`)."""

FULL_ATTACK_BAB = 6
"""WOA-ATK-08: the base attack bonus that gives a second attack in a full attack."""


def relative_size_modifier(attacker: Size, target: Size) -> Modifier | None:
    """WOA-STAT-12: +2 per size category the target is larger than the attacker, −2 per category smaller."""
    steps = SIZE_ORDER[target] - SIZE_ORDER[attacker]
    if not steps:
        return None
    return Modifier(2 * steps, f"size ({target.value} target, {attacker.value} attacker)", "size")


def woa_range_check(distance_ft: int, option: AttackOption, *, last_increment: bool = True) -> RangeCheck:
    """WOA-STAT-13..16: −2 per full range increment; thrown weapons reach 5 increments, projectiles 10 (that far
    and no farther; ``last_increment`` False: short of it, the other reading of WOA-STAT-15)."""
    weapon = option.weapon
    increment = weapon.range_increment_ft
    limit = weapon.kind.max_increments
    if weapon.kind.value == "spell":
        if distance_ft > increment:
            return RangeCheck(0, f"the target is {distance_ft} ft away, beyond the spell's {increment} ft")
        return RangeCheck(0, None)
    if distance_ft > limit * increment or (not last_increment and distance_ft >= limit * increment):
        kind = "thrown weapon" if limit == 5 else "projectile weapon"
        return RangeCheck(0, f"the target is {distance_ft} ft away, beyond the {kind}'s {limit} × {increment} ft "
                             f"(WOA-STAT-15/16)")
    return RangeCheck(-2 * (distance_ft // increment), None)


@lru_cache(maxsize=1)
def missed_ranged_attack_rule() -> dict[str, Any]:
    """WOA-STAT-07 (MISSING sidebar): the reading of Missing With Ranged Attacks (``data/woa_range_misses.yaml``):
    a miss hits no one else."""
    data: dict[str, Any] = yaml.safe_load(
        resources.files("d20combat.data").joinpath("woa_range_misses.yaml").read_text("utf-8"))
    return data


def take_10_on_attack(*, in_combat: bool, threatened: bool) -> int:
    """WOA-STAT-08: taking 10 on an attack — only out of combat and neither distracted, rushed nor threatened; a
    full-round action resolved as if the d20 showed 10. The engine's encounters are combat, so its attack actions
    never take 10; this is the rule for a scene outside one."""
    if in_combat:
        raise RuleError("no taking 10 on an attack in combat (WOA-STAT-08)")
    if threatened:
        raise RuleError("no taking 10 on an attack while threatened, distracted or rushed (WOA-STAT-08)")
    return 10


def indirect_fire() -> None:
    """WOA-STAT-17: shooting or throwing in an arc at a spot uses the siege indirect-fire rules, which the seed
    does not contain: refused, naming them (range increments apply to direct attacks only)."""
    raise RuleError("an arc at a spot uses the indirect-fire rules for siege weapons, which are not in the "
                    "rules text (WOA-STAT-17); attack a creature directly")


def attacks_by_bab(bab: int, *, iterative_penalty: int = 0) -> tuple[int, ...]:
    """WOA-ATK-08: the attack penalties of a full attack — one attack below BAB +6, two from +6 on (never a
    third: higher BAB buys combat reactions instead); the second at ``iterative_penalty`` (0, the literal reading;
    −5 is 3.5's)."""
    if iterative_penalty > 0:
        raise RuleError(f"the iterative attack's penalty must be 0 or negative, got {iterative_penalty}")
    return (0, iterative_penalty) if bab >= FULL_ATTACK_BAB else (0,)


class WoaAttack(D20Attack):
    """WOA-STAT-01..19, WOA-ATK-04..06: the core's roll (BAB + Str/Dex + enhancement + the sheet's bonus, natural
    1 and 20) with WOA's ranged size modifier and range increments, and no clearance rule for ranged attacks."""

    def __init__(self, *, iterative_penalty: int = 0, last_increment: bool = True) -> None:
        super().__init__()
        self.iterative_penalty = iterative_penalty
        """WOA-ATK-08 (AMBIGUOUS): the second attack's penalty in a full attack."""
        self.last_increment = last_increment
        """WOA-STAT-15 (AMBIGUOUS): exactly 5 (10) increments is still in range."""

    def situational_attack_modifiers(self, view: View, attack: AttackInfo) -> list[Modifier]:
        if not attack.ranged:  # WOA-STAT-09/12: the melee formula has no size term
            return []
        size = relative_size_modifier(view.creature(attack.attacker).sheet.size,
                                      view.creature(attack.target).sheet.size)
        return [size] if size is not None else []

    def ranged_limits(self, distance_ft: int, option: AttackOption) -> RangeCheck:
        return woa_range_check(distance_ft, option, last_increment=self.last_increment)

    def into_melee_penalty(self, creature: Creature) -> Modifier | None:
        """WOA-STAT-10: the ranged formula has no "shooting into melee" term."""
        return None

    def ranged_needs_clearance(self) -> bool:
        """WOA-ATK-06: anything within the maximum range and in sight may be shot."""
        return False

    def flat_footed_against(self, view: View, attack: AttackInfo) -> bool:
        """WOA-CYCLE-07: an attack before round 1 at a creature caught by surprise, and WOA-ITEM-09: the first attack
        this round with a just-drawn hidden weapon, are surprise attacks — the target
        does not expect it: no Dex, shield or dodge bonus to AC (WOA-CYCLE-11) and no dodge or block (WOA-CYCLE-12,
        :func:`~.active_defense.unexpected`)."""
        if is_surprise_attack(view, attack.target):  # WOA-CYCLE-07/11/12: the surprise attack before round 1
            return True
        return view.state.get(attack.attacker).has(HIDDEN_DRAW + attack.option.name)

    def after_attack(self, view: View, attack: AttackInfo, hit: bool) -> None:
        """WOA-ATK-07: a ranged attack made with the creature's own standard or full-round action marks the round:
        no dodging until it ends (the dodge reaction reads the mark). WOA-ITEM-09: the hidden weapon's first
        attack is made — the next one is expected."""
        drawn = HIDDEN_DRAW + attack.option.name
        if view.state.get(attack.attacker).has(drawn):
            view.emit(ev.ConditionSet(attack.attacker, drawn, False, f"the first attack with the hidden "
                                      f"{attack.option.name} is made: the next is no surprise (WOA-ITEM-09)"))
        if attack.ranged and view.state.actor == attack.attacker:
            state = view.state.get(attack.attacker)
            if not state.has(SHOT_THIS_ROUND):
                view.emit(ev.ConditionSet(attack.attacker, SHOT_THIS_ROUND, True,
                                          "a round of ranged attacks: no dodging this round (WOA-ATK-07)"))

    def start_of_round(self, view: View, round_no: int) -> None:
        for cid, state in view.state.combatants.items():
            if state.has(SHOT_THIS_ROUND):
                view.emit(ev.ConditionSet(cid, SHOT_THIS_ROUND, False, "a new round (WOA-ATK-07)"))

    def full_attack(self, bab: int) -> tuple[int, ...]:
        """WOA-ATK-08: the penalties of the attacks of a full attack at ``bab``."""
        return attacks_by_bab(bab, iterative_penalty=self.iterative_penalty)


FULL_ATTACK_POOL = "woa_full_attack"
"""The attacks left of a full attack begun this turn (a turn pool)."""


@dataclass(frozen=True, slots=True)
class FullAttack(ax.Action):
    """One attack of a full attack (WOA-ATK-02/08): a full-round action; the first attack spends it, the second
    (from BAB +6) follows at ``woa_iterative_penalty``, each naming its target."""

    kind: ClassVar[str] = "full_attack"
    target: str = ""
    attack: str | None = None

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Full attack: strike {name(self.target)}" + (f" with {self.attack}" if self.attack else "")


def full_attack(engine: Any, tx: Any, actor: str, a: FullAttack, dry: bool) -> None:
    """WOA-ATK-01/02/08: a single attack is a standard action (``attack``); more than one needs the full-round
    full attack — two attacks from BAB +6 (no third), the second at the iterative penalty (0 by default)."""
    turn = tx.state.turn
    assert turn is not None
    component: WoaAttack = engine.ruleset.attack
    penalties = component.full_attack(engine.creature(actor).attack_bonus)
    left = turn.pools.get(FULL_ATTACK_POOL)
    if left is None:
        number = 1
    elif left <= 0:
        raise RuleError(f"full attack: all {len(penalties)} attacks of the full attack are made (WOA-ATK-08: "
                        f"{'two from BAB +6' if len(penalties) > 1 else 'one below BAB +6'})")
    else:
        number = len(penalties) - left + 1
    penalty = penalties[number - 1]
    extra = (Modifier(penalty, "second attack"),) if penalty else ()
    plan = engine.plan_attack(actor, a.target, a.attack, state=tx.state, extra=extra)
    if plan.option.weapon.reload != "none":
        raise RuleError(f"full attack: {plan.option.name} must be reloaded between shots; attack with it instead")
    if number == 1:
        engine.pay(tx, actor, f"full attack: attack 1 of {len(penalties)} on {a.target}", "full-round", dry)
    if dry:
        return
    pools = dict(tx.state.turn.pools)
    pools[FULL_ATTACK_POOL] = len(penalties) - number
    tx.emit(ev.TurnPoolsSet(actor, pools, f"full attack: attack {number} of {len(penalties)} (BAB "
                                          f"{engine.creature(actor).attack_bonus:+d}, WOA-ATK-08)"))
    engine.roll_attack(tx, plan)


FULL_ATTACK = ActionSpec(FullAttack, full_attack)
"""WOA-ATK-02/08: the full attack, for the ruleset's action set."""
