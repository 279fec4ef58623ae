"""P2/P3 turn order with a declaration phase (rules-diff §4.1): every round, everyone declares, then rolls.

:class:`DeclareThenRoll` is the shared mechanism of a declare-then-roll round (WOA-CYCLE-02/05/14..16/21): at the
start of each round every creature able to act declares its standard, move and full-round actions — a decision of
its own (``Decision.phase == "declare"``) answered by a ``declare`` action —; when the last has declared,
everyone rolls initiative and the turns follow in that order, each creature held to what it declared
(:meth:`undeclared`). Which action kinds exist and which take a target is data (the constructor), so a ruleset
gives its own list; a ruleset whose initiative is not d20 + Dex overrides :meth:`initiative_modifiers`.

Not here (the ruleset's): special initiative actions (delay, ready, refocus), invalidated declarations and the GM's
ruling on them (WOA-CYCLE-25), surprise.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.numbers import total
from d20combat.rulesets.components.component import View
from d20combat.rulesets.components.turn_order import TurnOrder

UNDECLARED = frozenset({"end_turn", "draw", "sheathe", "drop_item", "activity", "step"})
"""Kinds taken without a declaration by default: free actions and the 5-foot step (WOA-CYCLE-16)."""


def combat_round(view: View, round_no: int) -> int:
    """The combat's round for the engine's ``round_no`` (after WOA's surprise attacks the engine's round 2 is the
    combat's round 1, :attr:`~d20combat.encounter.state.EncounterState.first_round`)."""
    return round_no - view.state.first_round + 1


class DeclareThenRoll(TurnOrder):
    """Everyone declares, then initiative is rolled, every round (WOA-CYCLE-02/05/14); turns carry out the
    declarations (WOA-CYCLE-21/28).

    - ``standard``, ``move``, ``full_round``: the action kinds a creature may declare for each; ``targeted``: the
      kinds aimed at one foe (the declaration names it, and the creature attacks no other with them).
    - ``undeclared``: kinds a creature takes without declaring them (free actions, WOA-CYCLE-16).
    - ``covers``: a declared kind → the action kinds it allows (a declared ``move`` action may be spent drawing a
      weapon or standing up); a kind not listed allows itself.
    """

    initiative_at_start = False

    def __init__(self, *, standard: Iterable[str] = ("attack", "move"), move: Iterable[str] = ("move",),
                 full_round: Iterable[str] = ("charge",), targeted: Iterable[str] = ("attack", "charge"),
                 undeclared: Iterable[str] = UNDECLARED, covers: Mapping[str, Iterable[str]] | None = None) -> None:
        self.covers = {k: frozenset(v) for k, v in (covers or {}).items()}
        self.standard = tuple(standard)
        self.move = tuple(move)
        self.full_round = tuple(full_round)
        self.targeted = frozenset(targeted)
        self.free = frozenset(undeclared)

    # --- the phase --------------------------------------------------------------------------------------------
    def start_of_round(self, view: View, round_no: int) -> None:
        s = view.state
        declarers = [cid for cid in s.combatants if self._can_declare(view, cid)]  # in the scenario's order
        if declarers:
            view.emit(ev.DeclarationsOpened(combat_round(view, round_no), declarers))
        else:
            self.after_declarations(view, round_no)

    def _can_declare(self, view: View, cid: str) -> bool:
        c = view.state.get(cid)
        if "fled" in c.conditions or "removed" in c.conditions:
            return False
        return self.rules.injury.can_act(view.creature(cid), c)

    def after_declarations(self, view: View, round_no: int) -> None:
        """WOA-CYCLE-02/05/17/21: everyone on the map rolls initiative again; the order is highest first."""
        s = view.state
        totals: list[tuple[str, int]] = []
        for cid in s.combatants:  # in the scenario's order, every round (the typed dice come in a stable order)
            c = s.get(cid)
            if "fled" in c.conditions or "removed" in c.conditions:
                continue
            creature = view.creature(cid)
            face = view.dice.roll(20, f"initiative {cid}")
            t = total(face, [*self.initiative_modifiers(creature), *self.initiative_state_modifiers(creature, c)],
                      base_label="d20", stacking=self.rules.stacking)
            view.emit(ev.InitiativeRolled(cid, t.value, f"{t.explain()} (round {combat_round(view, round_no)})"))
            totals.append((cid, t.value))
        order, notes = self.order(totals, {cid: view.creature(cid) for cid, _ in totals}, view.dice)
        rest = [cid for cid in s.combatants if cid not in order]  # fled or removed: after everyone
        view.emit(ev.OrderSet([*order, *rest], notes))

    # --- what may be declared ---------------------------------------------------------------------------------
    def declaration_options(self, view: View, actor: str) -> list[ax.Declare]:
        foes = self._foes(view, actor)
        out: list[ax.Declare] = []
        for foe in foes:
            for kind in self.full_round:
                if kind in self.targeted:
                    out.append(ax.Declare(full_round=kind, target=foe))
            for kind in self.standard:
                if kind in self.targeted:
                    out.append(ax.Declare(standard=kind, move=self.move[0] if self.move else "", target=foe))
        for kind in self.full_round:
            if kind not in self.targeted:
                out.append(ax.Declare(full_round=kind))
        for kind in self.standard:
            if kind not in self.targeted:
                out.append(ax.Declare(standard=kind, move=self.move[0] if self.move else ""))
        for kind in self.move:
            out.append(ax.Declare(move=kind))
        out.append(ax.Declare())
        return out

    def check_declaration(self, view: View, actor: str, declaration: ax.Declare) -> str | None:
        d = declaration
        if d.full_round and (d.standard or d.move):
            return "a full-round action takes the whole round: declare it alone, or a standard and a move action"
        for slot, kinds in (("standard", self.standard), ("move", self.move), ("full_round", self.full_round)):
            value = getattr(d, slot)
            if value and value not in kinds:
                return f"{value!r} is not a {slot.replace('_', '-')} action to declare (choose: {', '.join(kinds)})"
        aims = [k for k in (d.standard, d.full_round) if k in self.targeted]
        if d.target is not None:
            if not aims:
                return f"a target goes with an action aimed at a foe ({', '.join(sorted(self.targeted))})"
            if d.target not in view.state.combatants:
                return f"no creature {d.target!r} in this fight"
            if d.target not in self._foes(view, actor):
                return f"{d.target} is not a foe {actor} can fight"
        elif aims:
            return f"name the foe of the {aims[0]} (target)"
        if d.after is not None:
            return "delaying after another creature is not an action of this turn order"
        return None

    def _foes(self, view: View, actor: str) -> list[str]:
        s = view.state
        side = view.creature(actor).side
        return [cid for cid in (s.order or tuple(s.combatants))
                if view.creature(cid).side != side and cid in s.combatants
                and not self.rules.injury.out_of_fight(view.creature(cid), s.get(cid))
                and "fled" not in s.get(cid).conditions and "removed" not in s.get(cid).conditions]

    # --- holding a creature to its declaration (WOA-CYCLE-21/28) ----------------------------------------------
    def undeclared(self, view: View, actor: str, action: ax.Action) -> str | None:
        declared = view.state.declarations.get(actor)
        if declared is None or action.kind in self.free:
            return None
        kinds = [declared.get(slot, "") for slot in ("full_round", "standard", "move")]
        allowed = set().union(*(self.covers.get(k, {k}) for k in kinds if k))
        if action.kind not in allowed:
            said = ax.Declare(**declared).text(lambda cid: view.creature(cid).name)
            return f"{actor} declared {said} this round, not {action.kind.replace('_', ' ')} (WOA-CYCLE-21)"
        target = declared.get("target")
        aimed = getattr(action, "target", None)
        if target and action.kind in self.targeted and aimed is not None and aimed != target:
            return f"{actor} declared its {action.kind.replace('_', ' ')} at {view.creature(target).name} this " \
                   "round (WOA-CYCLE-21)"
        return None

    # --- the tactical AI --------------------------------------------------------------------------------------
    def declaration_for(self, view: View, actor: str, action: ax.Action) -> ax.Declare | None:
        """The AI's first choice, declared: an attack or charge at its foe, a move as a move toward the nearest foe
        and an attack on it, anything else under the slot that has its kind."""
        target = getattr(action, "target", None)
        if action.kind in self.full_round:
            return ax.Declare(full_round=action.kind, target=target if action.kind in self.targeted else None)
        if isinstance(action, ax.Move) and action.to is not None:
            foes = self._foes(view, actor)
            if not foes:
                return ax.Declare(move=action.kind)
            there = Footprint(action.to, view.creature(actor).space)
            near = min(foes, key=lambda f: (footprint_distance_ft(
                there, Footprint(view.state.get(f).position, view.creature(f).space)), f))
            attack = next((k for k in self.standard if k in self.targeted), "")
            return ax.Declare(standard=attack, move=action.kind, target=near if attack else None)
        if action.kind in self.standard:
            move = self.move[0] if self.move else ""
            return ax.Declare(standard=action.kind, move=move, target=target if action.kind in self.targeted else None)
        if action.kind in self.move:
            return ax.Declare(move=action.kind)
        return ax.Declare()

    def ai_focus(self, view: View, actor: str) -> str | None:
        declared = view.state.declarations.get(actor)
        target = declared.get("target") if declared else None
        return target if isinstance(target, str) else None

    def ai_declaration(self, enc: Any, actor: str) -> ax.Declare | None:
        return None
