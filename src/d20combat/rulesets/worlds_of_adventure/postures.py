"""Postures (WOA-MOVE-34..47): dropping prone or into a crouch, getting up, the quick get-up, crawling.

- WOA-MOVE-34: ``drop_prone`` and ``crouch`` are free actions (the posture's combat effects are part 2's).
- WOA-MOVE-35/36: rising one posture (crouch → standing, prone → crouch) counts as moving max(½ land speed, the
  short step); prone → standing, max(land speed, 2 × the short step). ``get_up`` (``to``: standing or
  crouching) is a move action — two when the distance is more than the speed — and the rest of that move action
  may move the creature on (``path``, WOA-MOVE-37); ``slowly`` spends twice the distance (WOA-MOVE-42). The core's
  ``stand_up`` (no fields) is getting up to standing at once, under the same rules.
- WOA-MOVE-38: getting up counts as movement: no short step that round (its Moved event, mode ``rise``).
- WOA-MOVE-39/40: each rise provokes (Table: Actions in Combat marks ``get_up``, ``stand_up`` and ``quick_stand``; the
  reactions component decides whether and from whom); prone → standing in one action is one rise, so one
  attack of opportunity.
- WOA-MOVE-43/44: ``quick_stand``: an Acrobatics check DC 30 stands up from prone as a free action; a failure leaves
  the creature prone and loses its next move action (this turn's if still unspent, else next turn's).
- WOA-MOVE-46/47: ``crawl`` (prone or crouching): a move action covering the short step's distance; a crouching
  crawler counts as prone until its next turn.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar, Literal

from d20combat.battlefield import movement as mv
from d20combat.battlefield.grid import Square
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.numbers import total
from d20combat.rulesets.components import RuleError
from d20combat.rulesets.worlds_of_adventure.economy import LOST_MOVE
from d20combat.rulesets.worlds_of_adventure.evasive import clear_evasive, mark_evasive, roll_evasive
from d20combat.rulesets.worlds_of_adventure.movement import WoaMovement
from d20combat.rulesets.worlds_of_adventure.opportunity import ROSE_TO_CROUCH
from d20combat.rulesets.worlds_of_adventure.options import WoaOptions

if TYPE_CHECKING:
    from d20combat.encounter.engine import Encounter, Tx

CROUCHING = "crouching"
PRONE = "prone"
QUICK_STAND_DC = 30
"""WOA-MOVE-43: the Acrobatics DC to get up from prone as a free action."""


@dataclass(frozen=True, slots=True)
class Crouch(ax.Action):
    """Drop into a crouch (free, WOA-MOVE-34)."""

    kind: ClassVar[str] = "crouch"

    def label(self, name: Callable[[str], str] = str) -> str:
        return "Crouch"


@dataclass(frozen=True, slots=True)
class GetUp(ax.Action):
    """Get up (WOA-MOVE-35..42): to ``standing`` or, from prone, to ``crouching``; ``slowly`` spends twice the
    distance; ``path``: squares to move on with what is left of the move action. WOA's own kind, ``get_up`` (the
    text's "get up"): the core's ``stand_up`` has none of these fields and means :class:`GetUp` ``()``."""

    kind: ClassVar[str] = "get_up"
    to: Literal["standing", "crouching"] = "standing"
    slowly: bool = False
    path: tuple[Square, ...] = ()
    evasive: bool = False
    """WOA-MOVE-41: get up evasively — the Acrobatics result (+10 ``slowly``) stands in for AC against the AoOs."""

    def label(self, name: Callable[[str], str] = str) -> str:
        return "Stand up" if self.to == "standing" else "Rise into a crouch"


@dataclass(frozen=True, slots=True)
class QuickStand(ax.Action):
    """Get up from prone as a free action with an Acrobatics check DC 30 (WOA-MOVE-43..45)."""

    kind: ClassVar[str] = "quick_stand"

    def label(self, name: Callable[[str], str] = str) -> str:
        return "Quick get-up (Acrobatics DC 30)"


@dataclass(frozen=True, slots=True)
class Crawl(ax.Action):
    """Crawl to ``to``, within the short step's distance (a move action, WOA-MOVE-46)."""

    kind: ClassVar[str] = "crawl"
    to: Square = (0, 0)

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Crawl to ({self.to[0]}, {self.to[1]})"


def posture(state: CombatantState) -> str:
    return PRONE if state.has(PRONE) else CROUCHING if state.has(CROUCHING) else "standing"


def _step_ft(enc: Encounter, creature: Creature, state: CombatantState) -> int:
    m = enc.ruleset.movement
    return m.short_step_ft(creature, state) if isinstance(m, WoaMovement) else 5


def rise_ft(speed: int, step: int, start: str, to: str) -> int:
    """WOA-MOVE-35/36: the distance getting up counts as: one posture max(½ speed, step), two max(speed, 2 × step)."""
    levels = {"prone": 0, "crouching": 1, "standing": 2}
    n = levels[to] - levels[start]
    return max(speed // 2, step) if n == 1 else max(speed, 2 * step)


def do_drop_prone(enc: Encounter, tx: Tx, actor: str, a: ax.DropProne, dry: bool) -> None:
    """WOA-MOVE-34: drop prone (free)."""
    cs = tx.state.get(actor)
    if cs.has(PRONE):
        raise RuleError("drop prone: already prone")
    enc.pay(tx, actor, "drop prone (WOA-MOVE-34)", "free", dry)
    if not dry:
        if cs.has(CROUCHING):
            tx.emit(ev.ConditionSet(actor, CROUCHING, False, "drops prone"))
        tx.emit(ev.ConditionSet(actor, PRONE, True, "drops prone (a free action, WOA-MOVE-34)"))


def do_crouch(enc: Encounter, tx: Tx, actor: str, a: Crouch, dry: bool) -> None:
    """WOA-MOVE-34: drop into a crouch (free); from prone, rising into a crouch is getting up (get_up)."""
    cs = tx.state.get(actor)
    if cs.has(CROUCHING):
        raise RuleError("crouch: already crouching")
    if cs.has(PRONE):
        raise RuleError("crouch: from prone, rising into a crouch is getting up (get_up to crouching, WOA-MOVE-35)")
    enc.pay(tx, actor, "crouch (WOA-MOVE-34)", "free", dry)
    if not dry:
        tx.emit(ev.ConditionSet(actor, CROUCHING, True, "drops into a crouch (a free action, WOA-MOVE-34)"))


def do_get_up(enc: Encounter, tx: Tx, actor: str, a: GetUp | ax.StandUp, dry: bool) -> None:
    """WOA-MOVE-35..42 (see the module). ``a`` may be the core's ``StandUp`` (to standing, at once, no path)."""
    s = tx.state
    turn = s.turn
    assert turn is not None
    cs = s.get(actor)
    creature = enc.creature(actor)
    to = getattr(a, "to", "standing")
    slowly = bool(getattr(a, "slowly", False))
    path = [(int(p[0]), int(p[1])) for p in getattr(a, "path", ())]
    start = posture(cs)
    if to not in ("standing", "crouching"):
        raise RuleError(f"get_up.to: {to!r} is not a posture to rise to (standing, crouching)")
    if start == "standing" or (start == CROUCHING and to == "crouching"):
        raise RuleError(f"stand up: {actor} is {start}, nothing to rise from")
    if turn.stepped:
        raise RuleError("stand up: getting up is movement, and a short step was taken this round (WOA-MOVE-38)")
    speed = enc.speed_ft(actor, s)
    if speed <= 0:
        raise RuleError(f"stand up: {actor} cannot move (speed 0)")
    step = _step_ft(enc, creature, cs)
    cost = rise_ft(creature.land_speed_ft, step, start, to) * (2 if slowly else 1)
    actions = -(-cost // speed)
    if actions > 2:
        raise RuleError(f"stand up: {cost} ft of movement is more than two move actions at speed {speed} ft")
    left = actions * speed - cost
    info = None
    if path:
        if to != "standing":
            raise RuleError("stand up: only a creature standing up may move on (get_up.path)")
        info = mv.check_path(enc.battle.game_map, enc.footprint(actor, s), tuple(path), left,
                             enc.occupancy(actor, s), diagonals_so_far=turn.diagonals,
                             difficult_diagonal_counts=enc.ruleset.movement.difficult_diagonal_counts)
        if not info.ok:
            raise RuleError(f"stand up: then move: {info.error} ({left} ft left of the move action after getting up "
                            f"{cost} ft, WOA-MOVE-37)")
    what = f"{'stand up' if to == 'standing' else 'rise into a crouch'} from {start}" + (" slowly" if slowly else "")
    for n in range(actions):
        enc.pay(tx, actor, what + (f" ({n + 1} of {actions})" if actions > 1 else ""), "move", dry)
    if dry:
        return
    if isinstance(a, GetUp) and a.evasive:  # WOA-MOVE-41/42: the check first, then the attacks the rise provokes
        reason = enc.ruleset.reactions.provoking_act(enc.view(s), actor, replace(a, evasive=False), None)
        if reason is not None:
            roll_evasive(enc, tx, actor, "gets up evasively" + (" and slowly (+10, WOA-MOVE-42)" if slowly else ""),
                         slowly=slowly)
            still = enc.provoke(tx, actor, f"{reason}, evasively (WOA-MOVE-41)")
            clear_evasive(tx, actor)
            if not still:
                return  # dropped by the attack: it does not get up
    if start == PRONE:
        tx.emit(ev.ConditionSet(actor, PRONE, False, f"gets up: {cost} ft of movement (WOA-MOVE-35/36"
                                + (", slowly: twice the distance, WOA-MOVE-42)" if slowly else ")")))
    if to == "crouching":
        tx.emit(ev.ConditionSet(actor, CROUCHING, True, "rises into a crouch"))
        tx.emit(ev.EffectAdded(actor, ROSE_TO_CROUCH, actor, s.round + 1))  # WOA-MOVE-40
    elif start == CROUCHING:
        tx.emit(ev.ConditionSet(actor, CROUCHING, False, f"stands up: {cost} ft of movement (WOA-MOVE-35"
                                + (", slowly, WOA-MOVE-42)" if slowly else ")")))
    here = s.get(actor).position
    tx.emit(ev.Moved(actor, [list(here)], cost, turn.diagonals, "rise"))  # WOA-MOVE-38: counts as movement
    if info is not None and path:
        enc.walk(tx, actor, list(path), info.cost_ft, info.diagonals, "move")


def do_quick_stand(enc: Encounter, tx: Tx, actor: str, a: QuickStand, dry: bool) -> None:
    """WOA-MOVE-43/44: Acrobatics DC 30 — up as a free action, or stay prone and lose the next move action."""
    s = tx.state
    turn = s.turn
    assert turn is not None
    cs = s.get(actor)
    if not cs.has(PRONE):
        raise RuleError("quick get-up: not prone (WOA-MOVE-43)")
    if turn.stepped:
        raise RuleError("quick get-up: getting up is movement, and a short step was taken this round (WOA-MOVE-38)")
    enc.pay(tx, actor, "quick get-up (Acrobatics DC 30, WOA-MOVE-43)", "free", dry)
    if dry:
        return
    creature = enc.creature(actor)
    face = tx.dice.d20(f"Acrobatics check {actor}")
    check = total(face, enc.ruleset.saves.check_modifiers(creature, cs, "acrobatics"), base_label="d20",
                  stacking=enc.ruleset.stacking)
    text = f"{actor} Acrobatics check {check.explain()} vs DC {QUICK_STAND_DC}"
    up = check.value >= QUICK_STAND_DC
    tx.emit(ev.Note(f"{text}: " + ("gets up as a free action (WOA-MOVE-43)" if up else "fails (WOA-MOVE-44)")))
    o = enc.ruleset.options
    if up or not isinstance(o, WoaOptions) or o.woa_failed_quick_stand_provokes:  # WOA-MOVE-45 (AMBIGUOUS)
        # WOA-MOVE-45: the attack of opportunity meets the better of its AC and the check result (rolled first)
        mark_evasive(tx, actor, check.value, f"the Acrobatics result {check.value} may stand in for its AC against "
                                             "the attack of opportunity (WOA-MOVE-45)")
        still = enc.provoke(tx, actor, "gets up quickly (WOA-MOVE-45" + ("" if up else ": the attempt provokes")
                            + ")")
        clear_evasive(tx, actor)
        if not still:
            return  # dropped by the attack: it does not get up
    if up:
        tx.emit(ev.ConditionSet(actor, PRONE, False, "gets up quickly (WOA-MOVE-43)"))
        tx.emit(ev.Moved(actor, [list(tx.state.get(actor).position)], 0, turn.diagonals, "rise"))
        return
    tx.emit(ev.Note(f"{actor} stays prone and loses its next move action (WOA-MOVE-44)"))
    now = tx.state.turn
    if now is not None and now.pools.get("move", 0) > 0:
        tx.emit(ev.BudgetSpent(actor, "the move action lost to a failed quick get-up (WOA-MOVE-44)", "move",
                               {"move": 1}))
    else:
        tx.emit(ev.EffectAdded(actor, LOST_MOVE, actor, s.round + 1))


def do_crawl(enc: Encounter, tx: Tx, actor: str, a: Crawl, dry: bool) -> None:
    """WOA-MOVE-46/47."""
    s = tx.state
    turn = s.turn
    assert turn is not None
    cs = s.get(actor)
    creature = enc.creature(actor)
    if not (cs.has(PRONE) or cs.has(CROUCHING)):
        raise RuleError("crawl: only while prone or crouching (WOA-MOVE-46)")
    if turn.stepped:
        raise RuleError("crawl: no other movement after a short step (WOA-MOVE-26)")
    if enc.speed_ft(actor, s) <= 0:
        raise RuleError(f"crawl: {actor} cannot move (speed 0)")
    step = _step_ft(enc, creature, cs)
    to = (int(a.to[0]), int(a.to[1]))
    options = mv.reachable(enc.battle.game_map, enc.footprint(actor, s), step, enc.occupancy(actor, s),
                           diagonals_so_far=turn.diagonals,
                           difficult_diagonal_counts=enc.ruleset.movement.difficult_diagonal_counts)
    info = options.get(to)
    if info is None:
        raise RuleError(f"crawl: {to} is not within the {step}-ft crawl (a short step's distance, WOA-MOVE-46)")
    enc.pay(tx, actor, "crawl (WOA-MOVE-46)", "move", dry)
    if dry:
        return
    if not cs.has(PRONE):
        tx.emit(ev.EffectAdded(actor, "crawled this round: counts as prone (WOA-MOVE-47)", actor, s.round + 1,
                               condition=PRONE))
        tx.emit(ev.ConditionSet(actor, PRONE, True, "crawls: counts as prone for the round (WOA-MOVE-47)"))
    enc.walk(tx, actor, list(info.path), info.cost_ft, info.diagonals, "crawl")
