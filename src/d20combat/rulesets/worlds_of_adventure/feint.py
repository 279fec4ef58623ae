"""The feint (WOA-FEINT-01..11): a move action that opens an opponent's guard to the feinter's next melee attack.

- WOA-FEINT-01: a move action (declared as such), against an opponent in melee (within the feinter's reach).
- WOA-FEINT-04: with Improved Feint the feint is a swift action instead: it spends a combat reaction (the economy's
  swift cost) and leaves the move action.
- WOA-FEINT-02/03: d20 + Acrobatics, Bluff or Intimidate (the feinter's choice; by default its best) against the
  opponent's d20 + the better of Insight and base attack bonus + Wis.
- WOA-FEINT-05: only a result that *exceeds* the opponent's succeeds; a tie fails.
- WOA-FEINT-06: on a success the opponent loses its Dex, dodge and shield bonuses to AC against the feinter's next
  melee attack on it this round (an effect taking exactly those bonuses away, ended by that attack, by the end of
  the feinter's turn — its turn is its only chance in the round, WOA-CYCLE-28 — or by the round's end), and carries
  :data:`FEINTED` meanwhile: it cannot dodge that attack (the reactions read it); blocking stays allowed (the
  literal reading).
- WOA-FEINT-07..09: −4 against a nonhumanoid (the sheet's ``attributes: {nonhumanoid: 1}``), −8 against animal
  Intelligence (1 or 2); a nonintelligent creature (Int 0, "—") cannot be feinted.
- WOA-FEINT-10/11: every opponent who sees the feint — the feinted one too — gets +2 on checks to resist this
  feinter's feints for the rest of the encounter; one who resisted it +4 instead (not cumulative: at most +4).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint
from d20combat.encounter import events as ev
from d20combat.encounter.actions import Action
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.model.statblock import ability_mod
from d20combat.numbers import Modifier, total
from d20combat.rules.armor_class import DefenseContext
from d20combat.rulesets.components import ActionSet, ActionSpec, AttackInfo, RuleError, View

FEINT_SKILLS = ("acrobatics", "bluff", "intimidate")
IMPROVED_FEINT = "improved_feint"
"""WOA-FEINT-04: with this feat a feint is a swift action — it uses a combat reaction (WOA-ACT-14), not the move
action, and like every swift action it is not declared (WOA-CYCLE-16)."""
FEINTED = "feinted"
"""WOA-FEINT-06: the creature's guard is open to a feint: it cannot dodge the feinter's next melee attack."""
OPENING = "feinted by "
"""The effect's name prefix (``feinted by hero``): −(Dex + dodge + shield) to AC."""
_WARY = re.compile(r"^wary of (?P<feinter>\S+)'s feints \+(?P<bonus>[24])$")


@dataclass(frozen=True, slots=True)
class Feint(Action):
    """WOA-FEINT-01/02: feint ``target`` with ``skill`` (acrobatics, bluff or intimidate; empty = the best)."""

    kind: ClassVar[str] = "feint"
    target: str = ""
    skill: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Feint {name(self.target)}" + (f" ({self.skill})" if self.skill else "")


def wary(state: CombatantState, feinter: str) -> int:
    """WOA-FEINT-10/11: the bonus this creature has on checks to resist ``feinter``'s feints (0, 2 or 4)."""
    found = [int(m["bonus"]) for c in state.conditions if (m := _WARY.match(c)) and m["feinter"] == feinter]
    return max(found, default=0)


class WoaFeint(ActionSet):
    """WOA-FEINT-01..03, 05..11."""

    def __init__(self) -> None:
        super().__init__(own=[ActionSpec(Feint, self.feint)])

    # --- the checks ---------------------------------------------------------------------------------------------
    def _skill(self, creature: Creature, state: CombatantState, skill: str) -> list[Modifier]:
        listed = {k.lower() for k in creature.sheet.skills}
        if skill in listed or skill in ("acrobatics", "intimidate"):
            return self.rules.saves.check_modifiers(creature, state, skill)
        return self.rules.saves.check_modifiers(creature, state, "cha")  # Bluff unlisted: a Charisma check

    def feinter_modifiers(self, creature: Creature, state: CombatantState, skill: str) -> tuple[str, list[Modifier]]:
        """WOA-FEINT-02: the chosen skill, or the best of the three."""
        if skill:
            return skill, self._skill(creature, state, skill)
        best = max(FEINT_SKILLS, key=lambda k: (sum(m.value for m in self._skill(creature, state, k)), -len(k)))
        return best, self._skill(creature, state, best)

    def resist_modifiers(self, creature: Creature, state: CombatantState) -> list[Modifier]:
        """WOA-FEINT-03: the better of Insight and BAB + Wis."""
        wis = ability_mod(creature.sheet.abilities.wis)
        insight = next((v for k, v in creature.sheet.skills.items() if k.lower() == "insight"), None)
        by_bab = [Modifier(creature.sheet.attack_bonus, "BAB"), Modifier(wis, "Wis")]
        own = [Modifier(insight, "Insight")] if insight is not None else [Modifier(wis, "Insight (Wis)")]
        return own if sum(m.value for m in own) >= sum(m.value for m in by_bab) else by_bab

    @staticmethod
    def target_penalty(target: Creature) -> Modifier | None:
        """WOA-FEINT-07..09: −4 nonhumanoid, −8 animal Intelligence; None + a RuleError for the nonintelligent."""
        intelligence = target.sheet.abilities.int
        if intelligence == 0:
            raise RuleError(f"feint: {target.name} is nonintelligent: it cannot be feinted (WOA-FEINT-09)")
        if intelligence <= 2:
            return Modifier(-8, "animal Intelligence (WOA-FEINT-08)")
        if int(target.sheet.attributes.get("nonhumanoid", 0)):
            return Modifier(-4, "nonhumanoid (WOA-FEINT-07)")
        return None

    # --- the action ---------------------------------------------------------------------------------------------
    def feint(self, enc: Any, tx: View, actor: str, a: Feint, dry: bool) -> None:
        s = tx.state
        if a.target not in s.combatants or a.target == actor:
            raise RuleError(f"feint.target: no opponent {a.target!r}")
        if a.skill and a.skill not in FEINT_SKILLS:
            raise RuleError(f"feint.skill: {a.skill!r} is not one of {', '.join(FEINT_SKILLS)} (WOA-FEINT-02)")
        creature, cs = tx.creature(actor), s.get(actor)
        target, ts = tx.creature(a.target), s.get(a.target)
        if target.side == creature.side:
            raise RuleError(f"feint: {a.target} is not an opponent")
        if footprint_distance_ft(Footprint(cs.position, creature.space),
                                 Footprint(ts.position, target.space)) > creature.reach_ft:
            raise RuleError(f"feint: {a.target} is not in melee with {actor} (WOA-FEINT-01)")
        penalty = self.target_penalty(target)
        swift = creature.has_feat(IMPROVED_FEINT)  # WOA-FEINT-04: a swift action, so it uses a combat reaction
        enc.pay(tx, actor, f"feint {a.target}" + (" (Improved Feint, WOA-FEINT-04)" if swift else ""),
                "swift" if swift else "move", dry)  # WOA-FEINT-01
        if dry:
            return
        skill, mods = self.feinter_modifiers(creature, cs, a.skill)
        mine = total(tx.dice.d20(f"feint {actor}"), [*mods, *([penalty] if penalty else [])], base_label="d20",
                     stacking=self.rules.stacking)
        resist = self.resist_modifiers(target, ts)
        bonus = wary(ts, actor)
        if bonus:
            resist.append(Modifier(bonus, f"wary of {actor}'s feints (WOA-FEINT-10/11)"))
        theirs = total(tx.dice.d20(f"resist feint {a.target}"), resist, base_label="d20",
                       stacking=self.rules.stacking)
        won = mine.value > theirs.value  # WOA-FEINT-05
        if won:
            lost = self._opening(target, ts)
            tx.emit(ev.Note(f"{actor} feints {a.target} ({skill}): {mine.explain()} vs {theirs.explain()} — succeeds: "
                            f"no Dex, dodge or shield against {actor}'s next melee attack this round "
                            f"(−{lost} AC), and no dodging it (WOA-FEINT-05/06)"))
            tx.emit(ev.EffectAdded(a.target, OPENING + actor, actor, s.round + 1, ac=-lost))
            if not tx.state.get(a.target).has(FEINTED):
                tx.emit(ev.ConditionSet(a.target, FEINTED, True, f"feinted by {actor} (WOA-FEINT-06)"))
        else:
            tie = " (a tie fails, WOA-FEINT-05)" if mine.value == theirs.value else ""
            tx.emit(ev.Note(f"{actor} feints {a.target} ({skill}): {mine.explain()} vs {theirs.explain()} — "
                            f"fails{tie}"))
        self._warn(enc, tx, actor, a.target, resisted=not won)

    def _opening(self, target: Creature, ts: CombatantState) -> int:
        """WOA-FEINT-06: what Dex, dodge and shield give the target's AC now."""
        ac = self.rules.defense.total(target, ts, DefenseContext(), [])
        return sum(m.value for m in ac.parts
                   if m.value > 0 and (m.source in ("Dex", "shield", "dodge") or m.type in ("dodge", "shield")
                                       or m.source == "total defense"))

    def _warn(self, enc: Any, tx: View, actor: str, target: str, *, resisted: bool) -> None:
        """WOA-FEINT-10/11: the onlookers (and the target) become wary of this feinter."""
        from d20combat.encounter.visibility import can_see

        side = tx.creature(actor).side
        for cid in list(tx.state.combatants):
            if cid == actor or tx.creature(cid).side == side:
                continue
            if cid != target and not can_see(enc, cid, actor, tx.state):
                continue
            want = 4 if cid == target and resisted else 2
            c = tx.state.get(cid)
            have = wary(c, actor)
            if want <= have:
                continue
            if have:
                tx.emit(ev.ConditionSet(cid, f"wary of {actor}'s feints +{have}", False, "replaced (WOA-FEINT-11)"))
            why = "resisted the feint (WOA-FEINT-11)" if want == 4 else "saw the feint (WOA-FEINT-10)"
            tx.emit(ev.ConditionSet(cid, f"wary of {actor}'s feints +{want}", True,
                                    f"{why}: +{want} to resist {actor}'s feints for the rest of the encounter"))

    # --- the opening closes (WOA-FEINT-06) ------------------------------------------------------------------------
    def _close(self, view: View, target: str, feinter: str, why: str) -> None:
        c = view.state.get(target)
        if any(e.name == OPENING + feinter for e in c.effects):
            view.emit(ev.EffectEnded(target, OPENING + feinter))
            if c.has(FEINTED) and not any(e.name.startswith(OPENING) for e in view.state.get(target).effects):
                view.emit(ev.ConditionSet(target, FEINTED, False, why))

    def after_attack(self, view: View, attack: AttackInfo, hit: bool) -> None:
        if not attack.ranged:
            self._close(view, attack.target, attack.attacker, f"{attack.attacker}'s next melee attack is made "
                                                              "(WOA-FEINT-06)")

    def end_of_turn(self, view: View, actor: str) -> None:
        for cid in list(view.state.combatants):
            self._close(view, cid, actor, f"{actor}'s turn ends: the opening is unused (WOA-FEINT-06)")
