"""P18 concealment of the off-guard ruleset: every concealing condition counts, they stack to 50 %, and the
defender rolls after a hit."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from fractions import Fraction

from d20combat.battlefield.concealment import ConcealmentSource, Vision, concealment_sources
from d20combat.battlefield.grid import Footprint, GameMap, Square
from d20combat.encounter.state import CombatantState
from d20combat.rulesets.components import StrongestConcealment
from d20combat.rulesets.off_guard.conditions import CONCEALMENT_CAP, stored_conditions
from d20combat.rulesets.off_guard.options import OffGuardOptions


def concealing_areas(concealing: Mapping[Square, int]) -> list[dict[Square, int]]:
    """The separate areas of concealing terrain: connected runs of concealing squares (edges or corners
    touching), in the order of their first square (variant ``cmv_terrain_areas_stack``, CMV-CONC-10)."""
    out: list[dict[Square, int]] = []
    seen: set[Square] = set()
    for start in sorted(concealing):
        if start in seen:
            continue
        area: dict[Square, int] = {}
        todo = [start]
        seen.add(start)
        while todo:
            c, r = todo.pop()
            area[(c, r)] = concealing[(c, r)]
            for n in ((c + dc, r + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1)):
                if n in concealing and n not in seen:
                    seen.add(n)
                    todo.append(n)
        out.append(area)
    return out


class StackingConcealment(StrongestConcealment):
    """CMV-CONC: a 20 % miss chance (CMV-CONC-07) rolled by the defender after a hit (CMV-CONC-08, CMV-CONC-09);
    several concealing conditions stack, up to 50 % (CMV-CONC-10, CMV-CONC-15; added by default, variant
    ``cmv_concealment_stack``). Terrain conceals by the ranged line test (CMV-CONC-03, CMV-CONC-05) or, in adjacent
    melee, only a target entirely inside it (CMV-CONC-04); magic on the defender against every attack
    (CMV-CONC-06); light, blindness and invisibility as the core finds them (CMV-CONC-12, CMV-CONC-17)."""

    before_roll = False
    """CMV-CONC-08/09: the defender's d% comes after a hit (both may be rolled together)."""

    def __init__(self, opts: OffGuardOptions) -> None:
        self.opts = opts

    def concealment_sources(self, game_map: GameMap, attacker: Footprint, vision: Vision, target: Footprint,
                            defender: CombatantState, *, adjacent_melee: bool) -> tuple[ConcealmentSource, ...]:
        """Each *condition* once (CMV-CONC-10: fog and blur are two): concealing terrain counts once
        at its strongest, by the ranged line test (CMV-CONC-03/05), the target's own squares included, or,
        in adjacent melee, only if the target's space lies entirely inside it (CMV-CONC-04); under
        ``cmv_terrain_areas_stack`` each separate area of terrain counts once. Light, blindness and
        invisibility as the core finds them (CMV-CONC-12/17), dim light in adjacent melee only on a target
        with no brightly lit square (CMV-CONC-04); magic on the defender against every attack (CMV-CONC-06)."""
        concealing = game_map.concealing
        if adjacent_melee:
            own = set(target.squares())
            concealing = {sq: p for sq, p in concealing.items() if sq in own}
        out: list[ConcealmentSource] = []
        areas = concealing_areas(concealing) if self.opts.cmv_terrain_areas_stack else [concealing] if concealing \
            else []
        for area in areas:
            terrain_map = dataclasses.replace(game_map, concealing=area, light={}, lights=())
            terrain = concealment_sources(terrain_map, attacker, Vision(), target, through_defender=not adjacent_melee)
            if terrain:
                out.append(max(terrain, key=lambda s: s.percent))
        rest = dataclasses.replace(game_map, concealing={}) if game_map.concealing else game_map
        out.extend(concealment_sources(rest, attacker, vision, target, defender_invisible=defender.has("invisible"),
                                       dim_whole_space=adjacent_melee))
        for name, (_, args) in stored_conditions(defender).items():
            if name == "blur":
                out.append(ConcealmentSource(20, "blur (20%)", False))
            elif name == "concealed":
                pct = int(args[0]) if args and args[0].isdigit() else 20
                out.append(ConcealmentSource(pct, f"magical concealment ({pct}%)", False))
        return tuple(out)

    def combine(self, sources: Sequence[ConcealmentSource]) -> tuple[int, str]:
        """CMV-CONC-07/10/15: the sources stack up to 50 % (added by default)."""
        if not sources:
            return 0, ""
        percents = [s.percent for s in sources]
        if self.opts.cmv_concealment_stack == "add":
            raw = sum(percents)
        else:
            keep = Fraction(1)
            for p in percents:
                keep *= Fraction(100 - p, 100)
            raw = int((1 - keep) * 100)
        pct = min(raw, CONCEALMENT_CAP)
        reason = " + ".join(f"{s.reason}" for s in sources)
        if len(sources) > 1:
            how = "added" if self.opts.cmv_concealment_stack == "add" else "combined"
            reason += f" — {how}: {raw}%" + (f", capped at {CONCEALMENT_CAP}%" if raw > CONCEALMENT_CAP else "")
        return pct, reason
