"""P20 tactics of the off-guard ruleset: what CMV's conditions and coup de grace recommend to the tactical AI."""

from __future__ import annotations

from typing import Any

from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint
from d20combat.encounter import actions as ax
from d20combat.rules import health
from d20combat.rulesets.components import CoreTactics
from d20combat.rulesets.off_guard.actions import CoupDeGrace, Escape
from d20combat.rulesets.off_guard.conditions import CROSSBOWS, CmvAllowance, ConditionTable
from d20combat.rulesets.off_guard.fear import Fear


class CmvTactics(CoreTactics):
    """CMV tactics: pass when dazed (CMV-COND-05); struggle when held (CMV-COND-36); flee when afraid
    (CMV-COND-26, CMV-COND-28); finish a helpless foe with a coup de grace when no standing foe threatens you
    (CMV-CDG-01); shoot a crossbow while prone (CMV-COND-45)."""

    def __init__(self, table: ConditionTable, fear: Fear) -> None:
        self.table = table
        self.fear = fear

    def ai_suggestion(self, enc: Any, actor: str) -> Any:
        """CMV tactics: pass when dazed; struggle when held; flee when afraid; finish a helpless foe
        with a coup de grace when no standing foe threatens you; shoot a crossbow while prone."""
        s = enc.state
        creature, cs = enc.creature(actor), s.get(actor)
        active = self.table.active(creature, cs)
        allow = enc.allowance(actor)
        if isinstance(allow, CmvAllowance) and allow.no_actions:
            return ax.EndTurn()
        if isinstance(allow, CmvAllowance) and allow.held:
            escape = Escape()
            return escape if enc.check(escape) is None else ax.EndTurn()
        fear = self.fear.fear_of(active)
        view = enc.view()
        if fear is not None:
            source = self.fear.source(view, actor, fear)
            if source is not None and (fear == "panicked" or not self.fear.cornered(view, actor, source)):
                return self.flee(enc, actor, source)
        injury, reactions = self.rules.injury, self.rules.reactions
        foes = [f for f in enc.enemies(actor) if not injury.out_of_fight(enc.creature(f), s.get(f))]
        here = enc.footprint(actor)
        threatened = any(reactions.threatened(enc.creature(f), s.get(f), enc.footprint(f), here) for f in foes)
        if not threatened and enc.can_afford("full-round"):
            for foe in sorted(enc.enemies(actor)):
                fc, fs = enc.creature(foe), s.get(foe)
                if injury.is_helpless(fc, fs) and injury.health(fc, fs) is not health.Health.DEAD:
                    cdg = CoupDeGrace(foe, square=fs.position)
                    if enc.check(cdg) is None:
                        return cdg
        if "prone" in active and cs.wielding is not None:
            option = creature.attack(cs.wielding)
            if option.kind in CROSSBOWS and option.name in cs.loaded and enc.can_afford("standard"):
                for foe in sorted(foes):
                    shot = ax.Attack(foe, option.name, square=s.get(foe).position)
                    if enc.check(shot) is None:
                        return shot
        return None

    @staticmethod
    def flee(enc: Any, actor: str, source: Footprint) -> Any:
        """CMV-COND-28 (proposed flee policy): the reachable square farthest from the source."""
        if not enc.can_afford("move"):
            return ax.EndTurn()
        creature = enc.creature(actor)
        here = footprint_distance_ft(enc.footprint(actor), source)
        options = enc.move_options(actor)
        best = max(options.items(), default=None,
                   key=lambda kv: (footprint_distance_ft(Footprint(kv[0], creature.space), source), -kv[1].cost_ft,
                                   (-kv[0][0], -kv[0][1])))
        if best is None or footprint_distance_ft(Footprint(best[0], creature.space), source) <= here:
            return ax.EndTurn()
        move = ax.Move(to=best[0])
        return move if enc.check(move) is None else ax.EndTurn()
