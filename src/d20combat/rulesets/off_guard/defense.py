"""P9 defense of the off-guard ruleset: PFB's AC with off-guard in place of flat-footed, and the defender's side of
the situational modifiers (CMV-SIT-02)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier, Total
from d20combat.rules.armor_class import DefenseContext, armor_class
from d20combat.rulesets.components import ArmorClass, AttackInfo, View
from d20combat.rulesets.components.reactions import totally_concealed
from d20combat.rulesets.off_guard import strike
from d20combat.rulesets.off_guard.conditions import CmvCover, ConditionTable, stored_conditions
from d20combat.rulesets.off_guard.options import OffGuardOptions


class OffGuardDefense(ArmorClass):
    """Off-guard replaces flat-footed (CMV-SIT-07): −2 AC and no Dex bonus (CMV-COND-37, CMV-COND-38). The
    surprised are off-guard until they get a chance to act (CMV-COND-40, CMV-COND-41), and so is a defender
    against an attacker it cannot see (CMV-COND-40, proposed). A helpless defender's Dex counts −5 and it takes
    −4 against melee, without off-guard's −2 (CMV-HELP-02, CMV-HELP-03, CMV-HELP-04), or the coup de grace's
    flat −9 (CMV-CDG-05, variant). The table's AC rows: prone −4 against melee and +4 against ranged
    (CMV-SIT-09, CMV-COND-42, CMV-COND-43), disoriented −2 (CMV-COND-10); squeezing −4 (CMV-SIT-11); a GM's AC
    modifier for one attack (CMV-SIT-03). Cover's +4 or +8 comes from the cover area."""

    variants = (("off-guard", DefenseContext(flat_footed=True)), ("touch", DefenseContext(touch=True)))

    def __init__(self, table: ConditionTable, opts: OffGuardOptions) -> None:
        super().__init__()
        self.table = table
        self.opts = opts

    def is_flat_footed(self, creature: Creature, state: CombatantState, *, surprised: bool) -> bool:
        """Off-guard replaces flat-footed (CMV-SIT-07, CMV-COND-37..41)."""
        return surprised or self.table.is_off_guard(creature, state)

    def total(self, creature: Creature, state: CombatantState, ctx: DefenseContext, extra: Sequence[Modifier],
              view: View | None = None, attack: AttackInfo | None = None) -> Total:
        """PFB's AC with CMV's defender modifiers (CMV-SIT-02): off-guard −2 and no Dex bonus
        (CMV-COND-37/38); helpless Dex −5 and −4 against melee, without off-guard's −2 (CMV-HELP-02..04);
        prone −4 against melee and +4 against ranged (CMV-COND-42/43); disoriented −2 (CMV-COND-10);
        squeezing −4 (CMV-SIT-11); cover +4 or +8 comes in ``extra``."""
        table = self.table
        active = table.active(creature, state)
        mods = list(extra)
        off_guard = ctx.flat_footed
        if not off_guard and attack is not None and view is not None and self.opts.cmv_surprise_unseen_attacker \
                and attack.attacker in view.state.combatants \
                and totally_concealed(view, attack.target, attack.attacker):
            off_guard = True
        cdg = attack is not None and view is not None and strike.striking(view) == attack.target
        helpless = ctx.helpless
        if helpless and cdg and self.opts.cmv_cdg_flat_minus_nine:
            helpless = False
            mods.append(Modifier(-9, "coup de grace (flat −9, cmv_cdg_flat_minus_nine)"))
        elif helpless:
            if self.opts.cmv_helpless_off_guard_penalty:
                mods.append(Modifier(-2, "off-guard (cmv_helpless_off_guard_penalty)"))
        elif off_guard:
            unseen = not ctx.flat_footed
            mods.append(Modifier(-2, "off-guard (unseen attacker, CMV-COND-40)" if unseen else "off-guard"))
        for name, row in table.rows(active):
            if name == "off-guard":
                continue
            value = row.ac + (row.melee_ac if ctx.vs_melee else row.ranged_ac)
            if value:
                mods.append(Modifier(value, name))
        if view is not None and table.squeezing(view.game_map, creature, state):
            mods.append(Modifier(-4, "squeezing"))
        fact = getattr(attack, "cover", None)
        if isinstance(fact, CmvCover) and fact.gm_ac:
            mods.append(Modifier(fact.gm_ac, "GM ruling"))
        c = table.adjusted(creature, active)
        ctx = replace(ctx, flat_footed=off_guard, helpless=helpless)
        return armor_class(c, state, ctx, extra=[m for m in mods if m.value], stacking=self.rules.stacking)

    # --- the off-guard condition's lifetime (CMV-COND-40/41) -----------------------------------------------------
    def start_of_round(self, view: View, round_no: int) -> None:
        """CMV-COND-40 (a): the surprised are off-guard until they get a chance to act."""
        s = view.state
        if not s.surprise_round:
            return
        for cid in sorted(s.surprised):
            if cid in s.combatants and "off-guard" not in stored_conditions(s.get(cid)):
                view.emit(ev.ConditionSet(cid, "off-guard", True, "surprised (CMV-COND-40)"))

    def start_of_turn(self, view: View, actor: str) -> None:
        """CMV-COND-41: a creature is no longer off-guard once it gets a chance to act."""
        s = view.state
        stored = stored_conditions(s.get(actor))
        if "off-guard" in stored and not (s.surprise_round and actor in s.surprised):
            view.emit(ev.ConditionSet(actor, stored["off-guard"][0], False, "gets a chance to act (CMV-COND-41)"))
