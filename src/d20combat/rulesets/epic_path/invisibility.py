"""Finding an invisible creature (EP-CONC-16..26): a Spot check (an active Perception check, a move action) against
each invisible creature within 30 ft, and groping (a touch attack into two adjacent squares). Either one pinpoints
the creature's square for the searcher (``pinpointing:…``, :mod:`.seeing`), which still leaves it total concealment
(EP-CONC-23/26). Passive Perception never finds an invisible creature (EP-CONC-16/22): there is no other way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint, Square
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.numbers import total
from d20combat.rules.armor_class import DefenseContext
from d20combat.rulesets.components import ActionSet, ActionSpec, RuleError, View
from d20combat.rulesets.epic_path.dc_ladder import ladder_dc
from d20combat.rulesets.epic_path.options import EpOptions
from d20combat.rulesets.epic_path.seeing import condition_args, percent_arg, pinpoint, pinpointed_square
from d20combat.rulesets.epic_path.senses import has_state

SPOT_RANGE_FT = 30
"""EP-CONC-20/21: an invisible creature is looked for within 30 feet."""


def _signed_arg(cs: Any, name: str) -> int:
    for args in condition_args(cs, name):
        if args and args[0].lstrip("+-").isdigit():
            return int(args[0])
    return 0


def spot_dc(engine: Any, state: Any, cid: str) -> tuple[int, str]:
    """The DC to find the invisible ``cid`` (EP-CONC-20/21/24): its Stealth result if it made one (``stealth:N``),
    else the Average DC for its CR or level; plus the GM's modifier for moving or noise (``spot_modifier:±N``)."""
    from d20combat.rulesets.epic_path.states import level_or_cr

    cs = state.get(cid)
    stealth = percent_arg(cs, "stealth")
    if stealth is not None:
        dc, why = stealth, f"its Stealth {stealth} (EP-CONC-20)"
    else:
        cr = level_or_cr(engine.creature(cid), cs, "invisible") or 0
        dc, why = ladder_dc("average", cr), f"Average DC for CR {cr} (EP-CONC-21)"
    mod = _signed_arg(cs, "spot_modifier")
    if mod:
        dc += mod
        why += f" {mod:+d} GM's modifier (EP-CONC-24)"
    return dc, why


@dataclass(frozen=True, slots=True)
class Spot(ax.Action):
    """Look for invisible creatures (EP-CONC-21/22): a move action; one Perception check against each invisible
    enemy within 30 ft; a success reveals its square (EP-CONC-23)."""

    kind: ClassVar[str] = "spot"

    def label(self, name: Callable[[str], str] = str) -> str:
        return "Spot: look for invisible creatures"


@dataclass(frozen=True, slots=True)
class Grope(ax.Action):
    """Grope (EP-CONC-25/26): a standard action, a touch attack into two adjacent squares within reach."""

    kind: ClassVar[str] = "grope"
    squares: tuple[Square, ...] = field(default=())

    def label(self, name: Callable[[str], str] = str) -> str:
        return "Grope " + " and ".join(f"({c},{r})" for c, r in self.squares)


def _invisible_enemies(engine: Any, state: Any, actor: str) -> list[str]:
    me = engine.creature(actor).side
    return [cid for cid in sorted(state.combatants) if engine.creature(cid).side != me and engine.on_map(cid, state)
            and any(has_state(state.get(cid), x) for x in ("invisible", "faded")) and not engine.is_dead(cid, state)]


def do_spot(engine: Any, tx: Any, actor: str, a: Spot, dry: bool) -> None:
    s = tx.state
    rules = engine.ruleset
    mods = rules.saves.check_modifiers(engine.creature(actor), s.get(actor), "perception")
    engine.pay(tx, actor, "spot", "move", dry)
    if dry:
        return
    face = tx.dice.d20(f"perception check {actor} spot")
    t = total(face, mods, base_label="d20", stacking=rules.stacking)
    here = engine.footprint(actor, s)
    found = []
    for cid in _invisible_enemies(engine, s, actor):
        if footprint_distance_ft(here, engine.footprint(cid, s)) > SPOT_RANGE_FT:
            continue
        dc, why = spot_dc(engine, s, cid)
        if t.value >= dc:
            found.append(cid)
            pinpoint(tx, actor, cid, f"Spot check {t.value} ≥ {dc} ({why}): the square is known, the creature still "
                                     f"has total concealment (EP-CONC-23)")
    c = len(found)
    tx.emit(ev.Note(f"{actor} looks for invisible creatures: Perception {t.explain()} — "
                    + (f"finds {c} square{'s' if c != 1 else ''}" if c else "finds nothing")))


def do_grope(engine: Any, tx: Any, actor: str, a: Grope, dry: bool) -> None:
    s = tx.state
    squares = [(int(sq[0]), int(sq[1])) for sq in a.squares]
    if len(squares) != 2 or squares[0] == squares[1] or max(abs(squares[0][0] - squares[1][0]),
                                                             abs(squares[0][1] - squares[1][1])) != 1:
        raise RuleError("grope.squares: name two adjacent squares (EP-CONC-25)")
    creature = engine.creature(actor)
    here = engine.footprint(actor, s)
    for sq in squares:
        if not tx.game_map.in_bounds(sq) or footprint_distance_ft(here, Footprint(sq, 1)) > creature.reach_ft:
            raise RuleError(f"grope.squares: ({sq[0]},{sq[1]}) is not within {actor}'s reach (EP-CONC-25)")
    melee = [o for o in creature.attacks if not o.is_ranged]
    mods = list(engine.ruleset.attack.attack_modifiers(creature, melee[0])) if melee else []
    engine.pay(tx, actor, "grope", "standard", dry)
    if dry:
        return
    lines = [f"{actor} gropes ({squares[0][0]},{squares[0][1]}) and ({squares[1][0]},{squares[1][1]}) (EP-CONC-25)"]
    for cid in _invisible_enemies(engine, s, actor):
        if not set(engine.footprint(cid, s).squares()) & set(squares) or pinpointed_square(tx, actor, cid):
            continue
        face = tx.dice.d20(f"grope {actor}->{cid}")
        t = total(face, mods, base_label="d20", stacking=engine.ruleset.stacking)
        ac = engine.ruleset.defense.total(engine.creature(cid), s.get(cid), DefenseContext(touch=True), [], tx, None)
        if t.value < ac.value:
            continue
        pct = tx.dice.percentile(f"concealment {actor}->{cid}")
        if pct <= 50:
            continue
        pinpoint(tx, actor, cid, f"groped: touch {t.value} ≥ touch AC {ac.value}, d% {pct} > 50 — no damage, the "
                                 f"square is known (EP-CONC-26)")
        lines.append(f"  finds something at ({s.get(cid).position[0]},{s.get(cid).position[1]})")
    if len(lines) == 1:
        lines.append("  finds nothing")
    tx.emit(ev.Note("\n".join(lines)))


SPOT = ActionSpec(Spot, do_spot)
GROPE = ActionSpec(Grope, do_grope)


STANDARD_KINDS = frozenset({"attack", "charge", "assist", "grope"})
"""Actions that take a standard action or more (a charge is a full-round action)."""
MOVE_KINDS = frozenset({"move", "minimum_move", "climb_or_swim", "draw", "sheathe", "stand_up", "reload", "spot",
                        "shield"})
"""Actions that take a move action."""


def rattled_problem(action: Any, loses: str) -> str | None:
    """EP-COND-06: rattled prevents the standard and the move action (``loses`` "both", the default reading), or
    only the standard one ("one": the creature keeps its move action)."""
    kind = getattr(action, "kind", "")
    if kind == "activity":
        from d20combat.encounter.resolution import action_catalogue

        cost = action_catalogue().get(getattr(action, "name", ""), "standard")
        kind = "attack" if cost != "move" and cost != "free" else "move" if cost == "move" else "free"
    if kind in STANDARD_KINDS or (loses == "both" and kind in MOVE_KINDS):
        which = "a standard or a move action" if loses == "both" else "a standard action"
        return f"{kind}: rattled, the creature cannot use {which} (EP-COND-06)"
    return None


class EpActions(ActionSet):
    """The core's actions plus Epic Path's own (assist, spot, grope), and what a state forbids (rattled)."""

    def __init__(self, opts: EpOptions, own: Iterable[ActionSpec] = ()) -> None:
        super().__init__(own)
        self.opts = opts

    def forbidden(self, view: View, actor: str, action: Any) -> str | None:
        if view.state.get(actor).has("rattled"):
            return rattled_problem(action, self.opts.ep_rattled_loses)
        return None
