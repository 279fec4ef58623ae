"""P10 active defense of the off-guard ruleset: nobody defends actively; the one thing that can undo a spell's hit
in the window before the roll is the deafened caster's fumbled verbal component."""

from __future__ import annotations

from d20combat.model.statblock import WeaponKind
from d20combat.rulesets.components import AttackInfo, NoActiveDefense, View
from d20combat.rulesets.off_guard.conditions import ConditionTable
from d20combat.rulesets.off_guard.options import OffGuardOptions

FUMBLE = "off-guard: verbal component d%"
"""``view.scratch`` key: the d% of a fumbled verbal component, for the explanation of the failed spell."""


class VerbalComponentFumble(NoActiveDefense):
    """CMV-COND-08 (proposed): a deafened caster's spell attack fumbles its verbal component on d% ≤ 20 — rolled
    before the attack roll; a fumbled spell fails even if the roll would hit."""

    def __init__(self, table: ConditionTable, opts: OffGuardOptions) -> None:
        self.table = table
        self.opts = opts

    def before_attack_roll(self, view: View, attack: AttackInfo) -> str | None:
        """CMV-COND-08 (proposed): a deafened caster's spell attack fumbles on d% ≤ 20 — rolled before
        the attack roll; a fumbled spell fails even if the roll would hit."""
        if attack.option.kind is not WeaponKind.SPELL or not self.opts.cmv_deafened_spell_fumble:
            return None
        creature, cs = view.creature(attack.attacker), view.state.get(attack.attacker)
        chance = max((row.spell_fumble for _, row in self.table.rows_of(creature, cs)), default=0)
        if not chance:
            return None
        pct = view.dice.percentile(f"verbal component {attack.attacker}")
        if pct > chance:
            return None
        view.scratch[FUMBLE] = pct
        return "spell fumble"

    def resolve_active_defense(self, view: View, attack: AttackInfo, choice: str, total: int) -> tuple[bool, str]:
        if choice == "spell fumble":
            return True, (f"but the spell fails: deafened, its verbal component fumbles (d% {view.scratch[FUMBLE]} "
                          f"≤ 20, CMV-COND-08)")
        return super().resolve_active_defense(view, attack, choice, total)
