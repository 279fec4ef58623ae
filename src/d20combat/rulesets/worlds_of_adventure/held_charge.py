"""WOA-SPELL-24's option: the unarmed or natural attack made while holding a touch spell's charge (AMBIGUOUS, option
``woa_held_charge_touch_ac``) — against normal AC by default (the reading; the core's named conditions rule), or
against touch AC like the touch attack it replaces."""

from __future__ import annotations

from d20combat.rulesets.components.component import AttackInfo, View
from d20combat.rulesets.components.conditions import NamedConditions
from d20combat.rulesets.worlds_of_adventure.spell_timing import HOLDING


class WoaConditions(NamedConditions):
    """The core's named conditions, plus WOA-SPELL-24's option: an unarmed or natural attack while holding a charge
    targets touch AC when ``held_charge_touch_ac`` is set."""

    def __init__(self, *, held_charge_touch_ac: bool = False) -> None:
        self.held_charge_touch_ac = held_charge_touch_ac

    def touch_attack(self, view: View, attack: AttackInfo) -> bool:
        if not self.held_charge_touch_ac or attack.attacker not in view.state.combatants:
            return super().touch_attack(view, attack)
        weapon = attack.option.weapon
        natural = weapon.name.lower().startswith("unarmed") or "natural" in weapon.qualities
        holds = any(c.startswith(HOLDING) for c in view.state.get(attack.attacker).conditions)
        return (natural and holds) or super().touch_attack(view, attack)
