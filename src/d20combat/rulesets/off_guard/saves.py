"""Saving throws and checks of the off-guard ruleset: PFB's, with the condition table's numbers (CMV-COND, CMV-INJ),
off-guard's lost Dex bonus on Reflex, cover on Reflex (CMV-COV) and the death save (CMV-CDG-07)."""

from __future__ import annotations

from d20combat.battlefield.cover import CoverDegree, CoverFact
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier
from d20combat.rulesets.components import D20Saves
from d20combat.rulesets.components.saves import SaveKind
from d20combat.rulesets.off_guard.conditions import CmvCover, ConditionTable
from d20combat.rulesets.off_guard.options import OffGuardOptions


class TableSaves(D20Saves):
    """PFB's saves and checks (natural 20 and 1 on saves, none on checks: PFB-NAT-03..05, kept by CMV-CDG-07) with
    the table's numbers: on checks bloodied −1, wounded −1 (CMV-INJ-02/04), shaken −2 (CMV-COND-24); on saves
    sickened −2 except death saves (CMV-COND-12), shaken −2, death saves too by default (CMV-COND-24); bloodied is
    not a save penalty (CMV-INJ-02: saves are not checks). Off-guard and helpless lose a positive Dex on Reflex
    (CMV-COND-38, CMV-HELP-04); cover +2 on Reflex, improved cover +4, soft cover nothing (CMV-COV-09/12/18).
    Fatigue lowers every ability score (CMV-COND-17/19), so every save and check on it. The death save is d20 +
    Con (CMV-CDG-07, variant ``cmv_death_save_bonus``)."""

    kinds: tuple[SaveKind, ...] = ("fort", "ref", "will", "death")

    def __init__(self, table: ConditionTable, opts: OffGuardOptions) -> None:
        self.table = table
        self.opts = opts

    def save_modifiers(self, creature: Creature, state: CombatantState, kind: str, *,
                       cover_fact: CoverFact | None = None, printed: int | None = None) -> list[Modifier]:
        """CMV-COND-12/24/38, CMV-HELP-04, CMV-COV-09/12/18, CMV-CDG-07 (see the class)."""
        k = self._kind(kind)
        active = self.table.active(creature, state)
        mods: list[Modifier] = []
        if k == "death":
            if self.opts.cmv_death_save_bonus == "con":
                mods.append(self.save_ability(creature, state, k))
        else:
            mods += [self.save_base(creature, k, printed), ability := self.save_ability(creature, state, k)]
            if k == "ref" and ability.value > 0 and ("off-guard" in active
                                                     or self.rules.injury.is_helpless(creature, state)):
                mods.append(Modifier(-ability.value, "no Dex bonus (off-guard)"))
        for name, row in self.table.rows(active):
            if not row.saves or (k == "death" and not row.death_saves):
                continue
            if k == "death" and name == "shaken" and not self.opts.cmv_shaken_death_saves:
                continue
            mods.append(Modifier(row.saves, name))
        if k == "ref" and cover_fact is not None and cover_fact.degree is CoverDegree.COVER:
            if isinstance(cover_fact, CmvCover) and cover_fact.soft:
                pass
            elif isinstance(cover_fact, CmvCover) and cover_fact.improved:
                mods.append(Modifier(4, "improved cover"))
            else:
                mods.append(Modifier(2, "cover"))
        return [m for m in mods if m.value]

    def condition_check_modifiers(self, creature: Creature, state: CombatantState) -> list[Modifier]:
        """Modifiers on checks: bloodied −1, wounded −1 (CMV-INJ-02/04), shaken −2 (CMV-COND-24)."""
        return [Modifier(row.checks, name) for name, row in self.table.rows_of(creature, state) if row.checks]
