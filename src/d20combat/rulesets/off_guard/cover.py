"""P17 cover of the off-guard ruleset: the attacker's best corner of any of its squares, soft cover from creatures,
low obstacles only near their creature, improved cover on GM-graded squares, narrow openings."""

from __future__ import annotations

import dataclasses

from d20combat.battlefield.cover import CoverDegree, CoverFact, cover, low_obstacle, obstacle_distance_ft
from d20combat.battlefield.distance import footprint_distance_ft, square_to_footprint_ft
from d20combat.battlefield.grid import Footprint, GameMap, Square
from d20combat.numbers import Modifier
from d20combat.rulesets.components import CornerCover
from d20combat.rulesets.off_guard.conditions import LOW_OBSTACLE_REACH_FT, CmvCover
from d20combat.rulesets.off_guard.options import OffGuardOptions


class SoftAndImprovedCover(CornerCover):
    """CMV-COV: +4 AC (CMV-COV-03). Ranged and reach attacks: the attacker chooses its best corner of any of its
    squares (CMV-COV-01, CMV-COV-05), creatures on the lines give soft cover, +4 AC but nothing on Reflex or
    Stealth (CMV-COV-02, CMV-COV-11, CMV-COV-12, CMV-COV-13). Adjacent melee: any line through a wall or low wall,
    never a creature (CMV-COV-04); a big creature picks its square and is attacked at its best square
    (CMV-COV-14, CMV-COV-15). Low obstacles cover only within 30 ft, and not against a nearer attacker
    (CMV-COV-06, CMV-COV-07). Total cover forbids the attack (CMV-COV-16, CMV-COV-17). Improved cover on GM-graded
    squares: +8 AC (CMV-COV-18); narrow openings cover whoever is nearer them (CMV-COV-23)."""

    def __init__(self, opts: OffGuardOptions) -> None:
        super().__init__()
        self.opts = opts

    def creatures_give_cover(self, ranged: bool) -> bool:
        return True  # find_cover decides: soft cover for ranged and reach attacks only (CMV-COV-04/05/11)

    def find_cover(self, game_map: GameMap, attacker: Footprint, target: Footprint, *, ranged: bool,
                   reach_attack: bool, adjacent: bool, creature_squares: dict[Square, str]) -> CoverFact:
        """CMV-COV-01..07, 11, 14..18. Adjacent melee: any line from the attacker's square to the
        target's square through a wall or low wall, never a creature (CMV-COV-04); a big creature
        picks its square, and the attacker picks the big target's square (CMV-COV-14/15). Ranged and
        reach: the attacker's best corner of any of its squares (CMV-COV-01), creatures give soft
        cover (CMV-COV-02/05/11). Low obstacles count only within 30 ft of the target and are ignored
        by an attacker closer to them (CMV-COV-06/07); narrow openings cover whoever is nearer them."""
        gm = self._cover_map(game_map, attacker, target)
        walls_only = self._openings(game_map, attacker, target)
        if not ranged and adjacent:
            blockers = walls_only
            pairs = [(Footprint(a, 1), Footprint(t, 1)) for a in sorted(attacker.squares())
                     for t in sorted(target.squares()) if footprint_distance_ft(Footprint(a, 1), Footprint(t, 1)) == 5]
            facts = [cover(gm, a, t, mode="any_line", creature_squares=blockers) for a, t in pairs]
        else:
            soft = ranged or not self.opts.cmv_soft_cover_ranged_only
            blockers = {**(creature_squares if soft else {}), **walls_only}
            targets = [Footprint(t, 1) for t in sorted(target.squares())] if not ranged and target.size > 1 \
                else [target]
            facts = [cover(gm, Footprint(a, 1), t, mode="best_corner", creature_squares=blockers)
                     for a in sorted(attacker.squares()) for t in targets]
        fact = self._best_for_attacker(facts)
        if fact.degree is CoverDegree.TOTAL and not ranged and adjacent:
            fact = CoverFact(CoverDegree.COVER, fact.via, fact.reason, fact.blocked_lines, fact.lines)
        if fact.degree is not CoverDegree.COVER:
            return CmvCover(fact.degree, fact.via, fact.reason, fact.blocked_lines, fact.lines)
        soft_cover = False
        if not (not ranged and adjacent) and fact.via in creature_squares and fact.via not in walls_only:
            without = [cover(gm, Footprint(a, 1), t, mode="best_corner", creature_squares=walls_only)
                       for a in sorted(attacker.squares())
                       for t in ([Footprint(t, 1) for t in sorted(target.squares())]
                                 if not ranged and target.size > 1 else [target])]
            soft_cover = self._best_for_attacker(without).degree is CoverDegree.NONE
        improved = (fact.via in game_map.improved_cover
                    or any(sq in game_map.improved_cover for sq in target.squares())) and not soft_cover
        reason = fact.reason + (" — soft cover" if soft_cover else "") + (" — improved cover" if improved else "")
        return CmvCover(fact.degree, fact.via, reason, fact.blocked_lines, fact.lines, improved=improved,
                        soft=soft_cover)

    @staticmethod
    def _best_for_attacker(facts: list[CoverFact]) -> CoverFact:
        if not facts:
            return CoverFact(CoverDegree.NONE, None, "no line is blocked")
        for degree in (CoverDegree.NONE, CoverDegree.PARTIAL, CoverDegree.COVER):
            for f in facts:
                if f.degree is degree:
                    return f
        return facts[0]

    def _cover_map(self, game_map: GameMap, attacker: Footprint, target: Footprint) -> GameMap:
        """The map as a low obstacle sees it: only obstacles (connected runs of low-wall squares, the
        core's :func:`low_obstacle`) whose nearest square is within 30 ft of the target count
        (CMV-COV-06); on a tie of distances the cover stands unless the variant says otherwise
        (CMV-COV-07). Creature heights are not modelled: every map low wall is a low obstacle.
        The attacker strictly closer to an obstacle ignores it (the core's line tracer)."""
        if not game_map.low_walls:
            return game_map
        keep: set[Square] = set()
        seen: set[Square] = set()
        for w in sorted(game_map.low_walls):
            if w in seen:
                continue
            run = low_obstacle(game_map.low_walls, w)
            seen |= run
            d_t = obstacle_distance_ft(run, target)
            if d_t > LOW_OBSTACLE_REACH_FT:
                continue
            if not self.opts.cmv_low_obstacle_tie_keeps_cover and obstacle_distance_ft(run, attacker) == d_t:
                continue
            keep |= run
        if keep == set(game_map.low_walls):
            return game_map
        return dataclasses.replace(game_map, low_walls=frozenset(keep))

    @staticmethod
    def _openings(game_map: GameMap, attacker: Footprint, target: Footprint) -> dict[Square, str]:
        """Narrow openings between them cover the one nearer the opening (as low obstacles do, CMV-COV-18)."""
        return {sq: "a narrow opening" for sq in sorted(game_map.narrow_openings)
                if square_to_footprint_ft(sq, target) <= square_to_footprint_ft(sq, attacker)}

    def cover_modifier(self, fact: CoverFact) -> Modifier | None:
        """CMV-COV-03/11: +4 AC (soft cover too); CMV-COV-18: improved cover +8."""
        if fact.degree is not CoverDegree.COVER:
            return None
        if isinstance(fact, CmvCover) and fact.improved:
            return Modifier(8, "improved cover", "cover")
        if isinstance(fact, CmvCover) and fact.soft:
            return Modifier(4, "soft cover", "cover")
        return Modifier(4, "cover", "cover")
