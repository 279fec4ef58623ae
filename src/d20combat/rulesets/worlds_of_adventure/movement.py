"""Worlds of Adventure's movement (WOA-MOVE-01..33): feet on PFB's 5-ft grid (5/10 diagonals, no corner cutting,
rules-diff §2.4), a move action up to speed, the double move, and the short step.

- WOA-MOVE-01/14/16: a move action moves up to the creature's speed; both actions spent moving, up to twice it (the
  core's move, the standard action standing in for the second move action).
- WOA-MOVE-02/26..33: the short step (``step``): a special free action in a round with no other movement, at most
  one a round, as far as the creature's melee reach (5 ft for a Medium humanoid, 10 ft for a creature with 10-ft
  reach), never into, through or out of difficult terrain or darkness, never for a creature whose speed is lower
  than its step, never on a movement form without a listed speed (a flyer steps on the ground); it never provokes
  (WOA-MOVE-28: its Moved event is never a walk through threatened squares).
- WOA-MOVE-15/38: moving (with a move action, a run, a charge, getting up or crawling) rules out the short step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from d20combat.battlefield import movement as mv
from d20combat.battlefield.grid import Footprint, Light, Square
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState, EncounterState, TurnState
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier, Total, total
from d20combat.rulesets.components import GridMovement, RuleError
from d20combat.rulesets.worlds_of_adventure.encumbrance import UNLOADED, heavy_load, loaded_speed, slowed_by_load

if TYPE_CHECKING:
    from d20combat.encounter.engine import Encounter, Tx


SPEED_BONUS = "speed_bonus_"
"""The prefix of a sheet attribute naming a typed bonus to speed (WOA-MOVE-09)."""


class WoaMovement(GridMovement):
    """PFB's grid geometry with WOA's costs (WOA-MOVE-01/14/16): the short step is a special free action (no free
    action spent, WOA-MOVE-02) as far as the reach (WOA-MOVE-27); the rest of the movement knobs are the core's."""

    def __init__(self) -> None:
        super().__init__(step_uses_free_action=False)

    def speed_modifiers(self, creature: Creature, state: CombatantState) -> list[Modifier]:
        """WOA-MOVE-03/04/06/07/08/09: what changes the race's base land speed (the sheet's ``speed_ft`` or the
        race's, counted from :func:`unloaded_speed_ft`).

        - WOA-MOVE-06: ``attributes: {barbarian_level: N}`` (N ≥ 1) gives +10 ft unless in heavy armor or under a
          heavy load;
        - WOA-MOVE-07: ``attributes: {monk_speed_bonus: N}`` (the amount is the monk table's, outside part 1) unless
          in armor of any sort;
        - WOA-MOVE-09: ``attributes: {speed_bonus_<type>: N}`` (``speed_bonus_enhancement: 10``): bonuses of the same
          type do not stack, only the highest counts;
        - WOA-MOVE-04/08: last, a heavy load (``attributes: {encumbered: 1}``, the placeholder reading of the missing
          Carrying & Encumbrance, :mod:`.encumbrance`) slows the speed those give by the load table
          (``data/woa_encumbrance.yaml``: 30 → 20, 20 → 15 …)."""
        attrs = {k.lower(): v for k, v in creature.sheet.attributes.items()}
        mods: list[Modifier] = []
        if attrs.get("barbarian_level", 0) >= 1 and creature.armor_category != "heavy" \
                and not heavy_load(creature.sheet):
            mods.append(Modifier(10, "barbarian", "barbarian"))
        if attrs.get("monk_speed_bonus", 0) and creature.armor_category is None:
            mods.append(Modifier(attrs["monk_speed_bonus"], "monk", "monk"))
        for key, value in sorted(attrs.items()):
            if key.startswith(SPEED_BONUS) and value:
                kind = key[len(SPEED_BONUS):]
                mods.append(Modifier(value, kind, kind))
        if slowed_by_load(creature.sheet):  # WOA-MOVE-08: after every other modifier
            before = total(unloaded_speed_ft(creature), mods, stacking=self.rules.stacking).value
            mods.append(Modifier(loaded_speed(before) - before, "heavy load (WOA-MOVE-04/08)"))
        return mods

    def speed_total(self, creature: Creature, state: CombatantState) -> Total:
        return total(unloaded_speed_ft(creature), self.speed_modifiers(creature, state), base_label="base",
                     stacking=self.rules.stacking)

    def speed_ft(self, creature: Creature, state: CombatantState) -> int:
        return self.speed_total(creature, state).value

    def describe_speed(self, creature: Creature, state: CombatantState) -> str:
        t = self.speed_total(creature, state)
        return f"speed {t.value} ft" if t.value == creature.land_speed_ft else f"speed {t.explain()} ft"

    def short_step_ft(self, creature: Creature, state: CombatantState) -> int:
        """WOA-MOVE-27: the short step covers the creature's normal melee reach."""
        return creature.reach_ft


def unloaded_speed_ft(creature: Creature) -> int:
    """The base land speed before a heavy load (WOA-MOVE-08): the race's unloaded speed where the sheets component
    gave a loaded creature its race's encumbered one (``speed_unloaded_ft``), else the sheet's."""
    unloaded = creature.sheet.attributes.get(UNLOADED)
    return int(unloaded) if unloaded is not None and slowed_by_load(creature.sheet) else creature.land_speed_ft


def hampered(enc: Encounter, creature: Creature, squares: list[tuple[int, int]]) -> str | None:
    """WOA-MOVE-31: why movement over ``squares`` is hampered — difficult terrain or darkness the creature cannot see
    in — or None."""
    gm = enc.battle.game_map
    for sq in squares:
        if gm.is_difficult(sq):
            return f"difficult terrain at ({sq[0]}, {sq[1]})"
        if creature.sheet.darkvision_ft <= 0 and gm.light_for(sq, creature.sheet.low_light_vision) is Light.DARK:
            return f"darkness at ({sq[0]}, {sq[1]})"
    return None


@dataclass(frozen=True, slots=True)
class GroundMoveRules:
    """What one kind of movement on the ground (the short step, the run) says, citing its own rules, when one of
    the preconditions they share fails (:func:`ground_move_start`)."""

    action: str
    """The action's name, first in every message ("short step")."""
    when_prone: str
    """What a prone creature must do instead ("crawl or get up first (WOA-MOVE-46)")."""
    after_short_step: str
    """Why not after a short step this round ("at most one short step a round (WOA-MOVE-29)")."""
    no_land_speed: str
    """Why not without a listed land speed ("no listed land speed (WOA-MOVE-33)")."""
    after_movement: str | None = None
    """Why not after other movement this round, when the action forbids it (the short step, WOA-MOVE-15/26/38)."""


@dataclass(frozen=True, slots=True)
class GroundMoveStart:
    """What the shared preconditions established: the mover, its land speed now and where it goes."""

    turn: TurnState
    state: CombatantState
    creature: Creature
    speed_ft: int
    start: Footprint
    to: Square


def land_speed_now(enc: Encounter, actor: str, s: EncounterState) -> int:
    """The land speed the creature moves with on the ground now — a flyer's too (WOA-MOVE-24/33: a movement form
    without a listed speed is not used): the movement component's speed, then the conditions'."""
    creature, cs = enc.creature(actor), s.get(actor)
    return enc.ruleset.conditions.speed_ft(creature, cs, enc.ruleset.movement.speed_ft(creature, cs))


def ground_move_start(enc: Encounter, tx: Tx, actor: str, to: Sequence[int], rules: GroundMoveRules) \
        -> GroundMoveStart:
    """The preconditions the short step and the run share, each refused with ``rules``' words: not prone, no short
    step this round (nor other movement, where ``rules.after_movement`` says so), a listed land speed and some speed
    left to move with, a destination on the map."""
    s = tx.state
    turn = s.turn
    assert turn is not None
    cs = s.get(actor)
    creature = enc.creature(actor)
    what = rules.action
    if cs.has("prone"):
        raise RuleError(f"{what}: {actor} is prone; {rules.when_prone}")
    if turn.stepped:
        raise RuleError(f"{what}: {rules.after_short_step}")
    if rules.after_movement is not None and turn.moved:
        raise RuleError(f"{what}: {rules.after_movement}")
    if creature.land_speed_ft <= 0:
        raise RuleError(f"{what}: {rules.no_land_speed}")
    speed = land_speed_now(enc, actor, s)
    if speed <= 0:
        raise RuleError(f"{what}: {actor} cannot move (speed 0)")
    square = (int(to[0]), int(to[1]))
    if not enc.battle.game_map.in_bounds(square):
        raise RuleError(f"{what}: {square} is off the map")
    return GroundMoveStart(turn, cs, creature, speed, enc.footprint(actor, s), square)


SHORT_STEP = GroundMoveRules("short step", when_prone="crawl or get up first (WOA-MOVE-46)",
                             after_short_step="at most one short step a round (WOA-MOVE-29)",
                             no_land_speed="no listed land speed (WOA-MOVE-33)",
                             after_movement="only in a round with no other movement (WOA-MOVE-15/26/38)")


def do_short_step(enc: Encounter, tx: Tx, actor: str, a: ax.Step, dry: bool) -> None:
    """WOA-MOVE-02/26..33 (see the module)."""
    go = ground_move_start(enc, tx, actor, a.to, SHORT_STEP)
    creature, start, to, turn = go.creature, go.start, go.to, go.turn
    step_ft = enc.ruleset.movement.short_step_ft(creature, go.state) \
        if isinstance(enc.ruleset.movement, WoaMovement) else 5
    if go.speed_ft < step_ft:
        raise RuleError(f"short step: speed {go.speed_ft} ft is lower than the {step_ft}-ft step (WOA-MOVE-32)")
    gm = enc.battle.game_map
    here = hampered(enc, creature, list(start.squares()))
    if here:
        raise RuleError(f"short step: movement hampered by {here} (WOA-MOVE-31)")
    there = hampered(enc, creature, list(start.moved_to(to).squares()))
    if there:
        raise RuleError(f"short step: movement hampered by {there} (WOA-MOVE-31)")
    options = mv.reachable(gm, start, step_ft, enc.occupancy(actor, tx.state), diagonals_so_far=turn.diagonals,
                           flying=False, difficult_diagonal_counts=enc.ruleset.movement.difficult_diagonal_counts)
    info = options.get(to)
    if info is None:
        raise RuleError(f"short step: {to} is not within the {step_ft}-ft step of {actor} (its reach, WOA-MOVE-27), "
                        "or a wall, a corner or a creature is in the way")
    crossed = [sq for origin in info.path for sq in start.moved_to(origin).squares()]
    there = hampered(enc, creature, crossed)
    if there:
        raise RuleError(f"short step: movement hampered by {there} (WOA-MOVE-31)")
    enc.pay(tx, actor, "short step", "none", dry)
    if dry:
        return
    tx.emit(ev.Moved(actor, [list(p) for p in info.path], info.cost_ft, info.diagonals, "step"))
