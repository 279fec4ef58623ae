"""P17 cover of Epic Path (EP-COV) and cover on Reflex saves: off-guard's corner cover (the CMV text cites EP's
cover section), with Epic Path's partial cover and save numbers."""

from __future__ import annotations

from dataclasses import replace

from d20combat.battlefield.cover import CoverDegree, CoverFact
from d20combat.battlefield.grid import Footprint, GameMap, Square
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier
from d20combat.rulesets.components import D20Saves
from d20combat.rulesets.components.saves import SaveKind
from d20combat.rulesets.epic_path.incorporeal import solid_squares
from d20combat.rulesets.off_guard.conditions import CmvCover
from d20combat.rulesets.off_guard.cover import SoftAndImprovedCover
from d20combat.rulesets.off_guard.options import OffGuardOptions


class EpCover(SoftAndImprovedCover):
    """EP-COV-01..07, EP-COV-10..17 — the same mechanism as off-guard's cover, written once: ranged and reach attacks
    from the attacker's best corner, blocked by walls, low walls and creatures on any line (EP-COV-01/03/10);
    adjacent melee by any line through a wall or low wall (EP-COV-02); a big creature picks its square, and is
    attacked at the square the attacker picks (EP-COV-12/13); low obstacles only within 30 ft, ignored by an attacker
    closer to them (EP-COV-04/05); total cover forbids the attack (EP-COV-15/16); improved cover +8 on GM-graded
    squares (EP-COV-17); partial cover +2 when the GM allows it (EP-COV-14, option ``ep_partial_cover``)."""

    def __init__(self, *, partial_cover: bool = False, soft_cover_vs_reach: bool = True) -> None:
        super().__init__(OffGuardOptions.model_validate({"cmv_soft_cover_ranged_only": not soft_cover_vs_reach}))
        self.partial_cover = partial_cover
        """EP-COV-14: fewer than half of the chosen corner's lines blocked → partial cover (GM's discretion)."""

    def find_cover(self, game_map: GameMap, attacker: Footprint, target: Footprint, *, ranged: bool,
                   reach_attack: bool, adjacent: bool, creature_squares: dict[Square, str]) -> CoverFact:
        solid = solid_squares(game_map)
        if any(sq in solid for sq in target.squares()):
            # EP-COND-19: an incorporeal creature attacking out of an object has only cover (the states refuse
            # every other attack on it: total cover)
            return CmvCover(CoverDegree.COVER, next(sq for sq in target.squares() if sq in solid),
                            "inside a solid object, attacking out of it: cover (EP-COND-19)", 1, 1)
        if any(sq in solid for sq in attacker.squares()):
            # an incorporeal attacker inside an object: lines start at its space, which is not what blocks them
            game_map = replace(game_map, walls=frozenset(game_map.walls) - set(attacker.squares()),
                               blocked=frozenset(game_map.blocked) - set(attacker.squares()))
        fact = super().find_cover(game_map, attacker, target, ranged=ranged, reach_attack=reach_attack,
                                  adjacent=adjacent, creature_squares=creature_squares)
        if (self.partial_cover and fact.degree is CoverDegree.COVER and fact.lines
                and 2 * fact.blocked_lines < fact.lines
                and not (isinstance(fact, CmvCover) and fact.improved)):
            return CmvCover(CoverDegree.PARTIAL, fact.via,
                            f"{fact.reason} — partial cover: {fact.blocked_lines} of {fact.lines} lines blocked "
                            f"(EP-COV-14)", fact.blocked_lines, fact.lines,
                            soft=isinstance(fact, CmvCover) and fact.soft)
        return fact

    def cover_modifier(self, fact: CoverFact) -> Modifier | None:
        """EP-COV-01/10: +4 AC (soft cover too); EP-COV-14: partial +2; EP-COV-17: improved +8."""
        if fact.degree is CoverDegree.PARTIAL:
            return Modifier(2, "partial cover", "cover")
        return super().cover_modifier(fact)


class EpSaves(D20Saves):
    """EP-SAVE-01..03: d20 + the save's modifiers against the effect's DC, a success when ≥ the DC; Fortitude,
    Reflex and Will (EP-SAVE-02). Whether a natural 1 or 20 decides a save is not stated (EP-SAVE-03, option
    ``ep_save_naturals``: by default it does not). Cover between the creature and the origin: +2 Reflex, partial
    +1, improved +4, soft cover nothing (EP-COV-07/11/14/17)."""

    def __init__(self, *, natural_saves: bool = False) -> None:
        self.natural_saves = natural_saves

    def save_modifiers(self, creature: Creature, state: CombatantState, kind: str, *,
                       cover_fact: CoverFact | None = None, printed: int | None = None) -> list[Modifier]:
        k: SaveKind = self._kind(kind)
        mods = super().save_modifiers(creature, state, k, printed=printed)
        bonus = reflex_cover_bonus(cover_fact) if k == "ref" else None
        return [*mods, bonus] if bonus is not None else mods


def reflex_cover_bonus(fact: CoverFact | None, *, spread_around: bool = False) -> Modifier | None:
    """EP-COV-07/11/14/17: what cover adds to a Reflex save against an effect from beyond it; EP-COV-08: nothing
    when the effect is a spread that reaches around the cover (``spread_around``)."""
    if fact is None or spread_around:
        return None
    if isinstance(fact, CmvCover) and fact.soft:
        return None  # EP-COV-11: soft cover gives nothing on Reflex
    if fact.degree is CoverDegree.PARTIAL:
        return Modifier(1, "partial cover")
    if fact.degree is CoverDegree.COVER:
        if isinstance(fact, CmvCover) and fact.improved:
            return Modifier(4, "improved cover")
        return Modifier(2, "cover")
    return None


def is_soft(fact: CoverFact) -> bool:
    return isinstance(fact, CmvCover) and fact.soft


def is_improved(fact: CoverFact) -> bool:
    return isinstance(fact, CmvCover) and fact.improved and fact.degree is CoverDegree.COVER


def allows_stealth(fact: CoverFact) -> bool:
    """EP-COV-09/11: cover (partial, normal or improved) allows a Stealth check; soft cover does not."""
    return fact.degree in (CoverDegree.PARTIAL, CoverDegree.COVER, CoverDegree.TOTAL) and not is_soft(fact)


def stealth_bonus(fact: CoverFact) -> Modifier | None:
    """EP-COV-19: improved cover gives +10 on Stealth checks."""
    return Modifier(10, "improved cover") if is_improved(fact) else None


def improved_evasion(fact: CoverFact) -> bool:
    """EP-COV-18: improved cover gives improved evasion against the attacks its Reflex bonus applies to."""
    return is_improved(fact)
