"""The combat cycle (WOA-CYCLE) and the special initiative actions (WOA-INIT): every round everyone declares, then
rolls initiative — d20 + the Reflex save's universal part —, then acts in that order, each carrying out what it
declared.

Built on the shared declaration phase (:class:`DeclareThenRoll`); what Worlds of Adventure adds:

- initiative = d20 + base Reflex + Dex (WOA-CYCLE-17/19), never a resistance bonus or a Reflex modifier against some
  attacks only (WOA-CYCLE-18: a sheet's ``attributes: {ref_resistance: N}`` names the resistance in its printed
  Reflex save); −20 while flat-footed (WOA-CYCLE-03/10, once); ties to the higher modifier, then at random
  (WOA-CYCLE-22/23); one roll for each side of monsters (WOA-CYCLE-20, option ``woa_monster_initiative``);
- the surprised are flat-footed until their first turn (WOA-CYCLE-08);
- a declared attack whose foe is down or gone is ruled by ``woa_invalidated_action`` (WOA-CYCLE-25);
- delay after a named creature (WOA-INIT-02..05) and refocus: next round's die is a 20 (WOA-INIT-26/27).
"""

from __future__ import annotations

from typing import Any

from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier, total
from d20combat.rules.initiative import order_by_initiative
from d20combat.rulesets.components.component import View
from d20combat.rulesets.components.declaration import DeclareThenRoll
from d20combat.rulesets.worlds_of_adventure.defense import capped_dex
from d20combat.rulesets.worlds_of_adventure.options import WoaOptions

FLAT_FOOTED = "flat_footed"
"""Surprised at the start of the battle and not yet able to act (WOA-CYCLE-08)."""

REFOCUSED = "refocused"
"""Refocused this round: next round's initiative die is a 20 (WOA-INIT-26/27)."""

MOVE_KINDS = frozenset({"move", "draw", "sheathe", "reload", "stand_up", "shield", "climb_or_swim", "minimum_move",
                        "drop_prone"})
"""What a declared move action may be spent on (WOA-CYCLE-15: the action's type is declared; a move action moves or
does something that takes as long, L274)."""


class WoaRoundCycle(DeclareThenRoll):
    """WOA-CYCLE-01..30 and WOA-INIT-01..05/26/27 (readying is the reactions' part, not yet built)."""

    def __init__(self, options: WoaOptions) -> None:
        super().__init__(standard=("attack", "move", "refocus"), move=("move",), full_round=("charge",),
                         targeted=("attack", "charge"), covers={"move": MOVE_KINDS})
        self.full_round, self.targeted = (*self.full_round, "full_attack"), self.targeted | {"full_attack"}  # ATK-08
        self.o = options

    # --- the initiative check (WOA-CYCLE-17..23) ----------------------------------------------------------------
    def initiative_modifiers(self, creature: Creature) -> list[Modifier]:
        """WOA-CYCLE-17..19: the modifiers that apply to every Reflex save: the base save and Dex."""
        base = self.rules.saves.save_base(creature, "ref").value
        resistance = int(creature.sheet.attributes.get("ref_resistance", 0))
        mods = [Modifier(base - resistance, "Ref base"), capped_dex(creature)]  # WOA-STAT-64: armor caps Dex
        return [m for m in mods if m.value]

    def initiative_state_modifiers(self, creature: Creature, state: CombatantState) -> list[Modifier]:
        """WOA-CYCLE-03/10: −20 while flat-footed (surprised or not: the same penalty, once)."""
        return [Modifier(-20, "flat-footed")] if state.has(FLAT_FOOTED) else []

    def modifier(self, creature: Creature) -> int:
        return sum(m.value for m in self.initiative_modifiers(creature))

    # --- the round ----------------------------------------------------------------------------------------------
    def start_of_round(self, view: View, round_no: int) -> None:
        s = view.state
        if round_no == 1:
            for cid in s.surprised:  # WOA-CYCLE-08: flat-footed until it has had a chance to act
                if cid in s.combatants and not s.get(cid).has(FLAT_FOOTED):
                    view.emit(ev.ConditionSet(cid, FLAT_FOOTED, True, "caught by surprise (WOA-CYCLE-08)"))
        super().start_of_round(view, round_no)

    def after_declarations(self, view: View, round_no: int) -> None:
        """WOA-CYCLE-02/05/17..23, WOA-INIT-02..05/27: everyone rolls; the order, then the delays."""
        s = view.state
        first_side = view.creature(next(iter(s.combatants))).side if s.combatants else ""
        side_faces: dict[str, int] = {}
        totals: list[tuple[str, int]] = []
        mods_of: dict[str, int] = {}
        for cid in s.combatants:
            c = s.get(cid)
            if "fled" in c.conditions or "removed" in c.conditions:
                continue
            creature = view.creature(cid)
            side = creature.side
            if c.has(REFOCUSED):
                face, how = 20, " (refocused: the die counts as 20, WOA-INIT-27)"
            elif self.o.woa_monster_initiative == "side" and side != first_side:
                if side not in side_faces:
                    side_faces[side] = view.dice.roll(20, f"initiative {side}")
                face, how = side_faces[side], f" (one roll for the {side}, WOA-CYCLE-20)"
            else:
                face, how = view.dice.roll(20, f"initiative {cid}"), ""
            t = total(face, [*self.initiative_modifiers(creature), *self.initiative_state_modifiers(creature, c)],
                      base_label="d20", stacking=self.rules.stacking)
            view.emit(ev.InitiativeRolled(cid, t.value, f"{t.explain()}{how} (round {round_no})"))
            totals.append((cid, t.value))
            mods_of[cid] = self.modifier(creature)
        order, notes = order_by_initiative(totals, view.dice, tiebreak=mods_of, tiebreak_rule="(WOA-CYCLE-22)")
        order = self._delays(view, order, dict(totals), notes)
        rest = [cid for cid in s.combatants if cid not in order]
        view.emit(ev.OrderSet([*order, *rest], notes))
        for cid, _ in totals:
            if view.state.get(cid).has(REFOCUSED):
                view.emit(ev.ConditionSet(cid, REFOCUSED, False, "its refocused initiative is used (WOA-INIT-27)"))

    def _delays(self, view: View, order: list[str], rolled: dict[str, int], notes: list[str]) -> list[str]:
        """WOA-INIT-02..05: a delayer that beat the named creature acts right after it, as if it had rolled the same
        and lost the tie; one that rolled lower acts at its own count."""
        for cid, declared in view.state.declarations.items():
            after = declared.get("after")
            if not isinstance(after, str) or cid not in rolled or after not in order:
                continue
            if rolled[cid] > rolled.get(after, -1_000):
                order = [x for x in order if x != cid]
                order.insert(order.index(after) + 1, cid)
                notes.append(f"{cid} delays: acts right after {after} (WOA-INIT-02/04)")
            else:
                notes.append(f"{cid} delays after {after} but rolled lower: acts at its own count (WOA-INIT-05)")
        return order

    def check_declaration(self, view: View, actor: str, declaration: ax.Declare) -> str | None:
        after = declaration.after
        reason = super().check_declaration(view, actor, ax.Declare(
            standard=declaration.standard, move=declaration.move, full_round=declaration.full_round,
            target=declaration.target))
        if reason or after is None:
            return reason
        if after == actor:
            return "a creature delays after another one (WOA-INIT-02)"
        if after not in view.state.combatants:
            return f"no creature {after!r} in this fight"
        return None

    def declaration_options(self, view: View, actor: str) -> list[ax.Declare]:
        return [o for o in super().declaration_options(view, actor) if o.standard != "refocus" or not o.move] + \
            [ax.Declare(standard="refocus", move="move")]

    # --- the turn ------------------------------------------------------------------------------------------------
    def start_of_turn(self, view: View, actor: str) -> None:
        c = view.state.get(actor)
        if c.has(FLAT_FOOTED) and self.rules.injury.can_act(view.creature(actor), c):
            view.emit(ev.ConditionSet(actor, FLAT_FOOTED, False, "has a chance to act (WOA-CYCLE-08)"))
        self._rule_invalidated(view, actor)

    def _rule_invalidated(self, view: View, actor: str) -> None:
        """WOA-CYCLE-25: the declared foe is down or gone — a similar action (the foe nearest the declared one), a
        move action only, or nothing until the next round (``woa_invalidated_action``)."""
        s = view.state
        declared = s.declarations.get(actor)
        target = declared.get("target") if declared else None
        if not isinstance(target, str) or target in self._foes(view, actor):
            return
        reason = f"{target} is out of the fight"
        policy = self.o.woa_invalidated_action
        ruled = ax.Declare(move="move") if policy != "nothing" else ax.Declare()
        if policy == "similar":
            foes = self._foes(view, actor)
            if foes:
                where = Footprint(s.get(target).position, view.creature(target).space)
                near = min(foes, key=lambda f: (footprint_distance_ft(
                    where, Footprint(s.get(f).position, view.creature(f).space)), f))
                ruled = ax.Declare(**{**(declared or {}), "target": near})
        fields = {k: v for k, v in vars_of(ruled).items() if v not in ("", None)}
        text = ruled.text(lambda cid: view.creature(cid).name)
        view.emit(ev.DeclarationRuled(actor, fields, text, f"{reason}; {policy.replace('_', ' ')}, WOA-CYCLE-25"))


def vars_of(d: ax.Declare) -> dict[str, Any]:
    return {"standard": d.standard, "move": d.move, "full_round": d.full_round, "target": d.target, "after": d.after}
