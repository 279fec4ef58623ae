"""The Fear conditions' procedures (CMV-COND-22..31): the source of the terror, being cornered, the moves and
attacks fear forbids, cowering when cornered, and the save that overcomes it. The numbers (shaken's −2, cowering's
lost turn) are rows of the condition table; this is what a row cannot say."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from d20combat.battlefield import movement as mv
from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint, Square
from d20combat.encounter import events as ev
from d20combat.rulesets.components import View
from d20combat.rulesets.off_guard.conditions import ConditionTable, stored_conditions
from d20combat.rulesets.off_guard.options import OffGuardOptions

if TYPE_CHECKING:
    from d20combat.rulesets.base import Ruleset

MOVING_KINDS = ("move", "step", "charge", "minimum_move", "climb_or_swim", "blind_move")
"""The actions that move a creature (what held and fear restrict)."""


class Fear:
    """CMV-COND-23..31: a frightened creature retreats from the source of its terror and fights only if cornered
    (CMV-COND-26); a panicked one flees and never attacks (CMV-COND-28), and cowers when cornered (CMV-COND-29);
    a Will save at the end of each turn overcomes a fear with a DC (CMV-COND-23, proposed). It reads the condition
    table and asks the sibling areas of the table's ruleset (movement, injury)."""

    def __init__(self, table: ConditionTable, opts: OffGuardOptions) -> None:
        self.table = table
        self.opts = opts

    @property
    def rules(self) -> Ruleset:
        return self.table.rules

    # --- who is afraid of what -----------------------------------------------------------------------------------
    @staticmethod
    def fear_of(active: frozenset[str]) -> str | None:
        """The strongest fear in force: panicked, then frightened."""
        for name in ("panicked", "frightened"):
            if name in active:
                return name
        return None

    @staticmethod
    def source_name(view: View, actor: str, fear: str) -> str:
        got = stored_conditions(view.state.get(actor)).get(fear)
        if got and got[1] and got[1][0] in view.state.combatants:
            return got[1][0]
        return "the source of its terror"

    def source(self, view: View, actor: str, fear: str) -> Footprint | None:
        """The source named by the condition (``frightened:<id>:<DC>``), else the nearest enemy."""
        s = view.state
        got = stored_conditions(s.get(actor)).get(fear)
        if got and got[1] and got[1][0] in s.combatants and not s.get(got[1][0]).has("fled"):
            src = got[1][0]
            return Footprint(s.get(src).position, view.creature(src).space)
        me = view.creature(actor)
        here = Footprint(s.get(actor).position, me.space)
        injury = self.rules.injury
        foes = sorted((footprint_distance_ft(here, Footprint(c.position, view.creature(o).space)), o)
                      for o, c in s.combatants.items()
                      if view.creature(o).side != me.side and not c.has("fled")
                      and not injury.out_of_fight(view.creature(o), c))
        if not foes:
            return None
        src = foes[0][1]
        return Footprint(s.get(src).position, view.creature(src).space)

    def cornered(self, view: View, actor: str, source: Footprint) -> bool:
        """CMV-COND-26 (proposed): cornered = no square within its speed is farther from the source
        than the one it stands on."""
        creature, cs = view.creature(actor), view.state.get(actor)
        fp = Footprint(cs.position, creature.space)
        here = footprint_distance_ft(fp, source)
        movement = self.rules.movement
        reach = mv.reachable(view.game_map, fp, max(movement.speed_ft(creature, cs), 5), self._occupancy(view, actor),
                             flying=creature.fly_speed_ft > 0,
                             difficult_diagonal_counts=movement.difficult_diagonal_counts)
        return not any(footprint_distance_ft(Footprint(sq, creature.space), source) > here for sq in reach)

    def _occupancy(self, view: View, cid: str) -> dict[Square, mv.Occupant]:
        side = view.creature(cid).side
        occ: dict[Square, mv.Occupant] = {}
        rank = {mv.Occupant.HELPLESS: 0, mv.Occupant.ALLY: 1, mv.Occupant.ENEMY: 2}
        for other, c in view.state.combatants.items():
            if other == cid or c.has("fled"):
                continue
            oc = view.creature(other)
            kind = mv.Occupant.HELPLESS if self.rules.injury.is_helpless(oc, c) else (
                mv.Occupant.ALLY if oc.side == side else mv.Occupant.ENEMY)
            for sq in Footprint(c.position, oc.space).squares():
                if sq not in occ or rank[kind] > rank[occ[sq]]:
                    occ[sq] = kind
        return occ

    # --- what fear forbids ---------------------------------------------------------------------------------------
    def forbidden_move(self, view: View, actor: str, action: Any, active: frozenset[str]) -> str | None:
        """CMV-COND-26/28: a frightened or panicked creature never charges, and moves no nearer the source of its
        fear unless cornered."""
        fear = self.fear_of(active)
        if fear is None:
            return None
        kind = action.kind
        if kind == "charge":
            return f"charge: {actor} is {fear}: it fights only where it is cornered, it never charges (CMV-COND-26)"
        end = self._destination(action)
        source = self.source(view, actor, fear)
        if end is None or source is None or self.cornered(view, actor, source):
            return None
        creature, cs = view.creature(actor), view.state.get(actor)
        here = footprint_distance_ft(Footprint(cs.position, creature.space), source)
        there = footprint_distance_ft(Footprint(end, creature.space), source)
        if there < here:
            return (f"{kind}: {actor} is {fear} and may not move nearer to {self.source_name(view, actor, fear)} "
                    f"({there} ft < {here} ft, CMV-COND-26)")
        return None

    @staticmethod
    def _destination(action: Any) -> Square | None:
        path = getattr(action, "path", None)
        if path:
            return (int(path[-1][0]), int(path[-1][1]))
        to = getattr(action, "to", None)
        if to is not None:
            return (int(to[0]), int(to[1]))
        return None

    def forbidden_attack(self, view: View, attacker: str, active: frozenset[str]) -> str | None:
        """CMV-COND-26/28: a frightened creature fights only if cornered, a panicked one never."""
        fear = self.fear_of(active)
        if fear == "panicked":
            return f"{attacker} is panicked: it flees and never attacks (CMV-COND-28)"
        if fear == "frightened":
            source = self.source(view, attacker, fear)
            if source is None or not self.cornered(view, attacker, source):
                return f"{attacker} is frightened: it fights only if cornered (CMV-COND-26)"
        return None

    # --- the turn's procedures -----------------------------------------------------------------------------------
    def panic(self, view: View, actor: str) -> None:
        """CMV-COND-29: a panicked creature with nowhere to flee cowers; once it can flee, it stops."""
        creature, cs = view.creature(actor), view.state.get(actor)
        stored = stored_conditions(cs)
        active = self.table.active(creature, cs)
        cowering = stored.get("cowering")
        from_panic = cowering is not None and cowering[1][:1] == ("cornered",)
        if "panicked" not in active:
            if from_panic and cowering is not None:
                view.emit(ev.ConditionSet(actor, cowering[0], False, "no longer panicked"))
            return
        source = self.source(view, actor, "panicked")
        trapped = source is not None and self.cornered(view, actor, source)
        if trapped and cowering is None:
            view.emit(ev.ConditionSet(actor, "cowering:cornered", True, "panicked and cornered (CMV-COND-29)"))
        elif not trapped and from_panic and cowering is not None:
            view.emit(ev.ConditionSet(actor, cowering[0], False, "no longer cornered"))

    def overcome(self, view: View, actor: str) -> None:
        """CMV-COND-23 (proposed): a Will save against each fear's DC at the end of the turn."""
        if self.opts.cmv_fear_save != "end-of-turn":
            return
        for name, (text, args) in stored_conditions(view.state.get(actor)).items():
            if name not in ("shaken", "frightened", "panicked") or len(args) < 2 or not args[1].isdigit():
                continue
            if self.table.saving_throw(view, actor, "will", int(args[1]), f"to overcome being {name} (CMV-COND-23)"):
                view.emit(ev.ConditionSet(actor, text, False, "overcomes its fear (CMV-COND-23)"))
