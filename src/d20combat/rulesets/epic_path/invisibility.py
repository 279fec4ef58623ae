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
from d20combat.battlefield.lines import squares_crossed_scaled
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.numbers import total
from d20combat.rules.armor_class import DefenseContext
from d20combat.rulesets.components import ActionSet, ActionSpec, RuleError, View
from d20combat.rulesets.epic_path.dc_ladder import ladder_dc
from d20combat.rulesets.epic_path.options import EpOptions
from d20combat.rulesets.epic_path.seeing import condition_args, level_or_cr, percent_arg, pinpoint, pinpointed_square
from d20combat.rulesets.epic_path.senses import beyond_ethereal_sight, has_state

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
        if footprint_distance_ft(here, engine.footprint(cid, s)) > SPOT_RANGE_FT and not light_noticed(
                tx.game_map, s, actor, cid):
            continue  # EP-CONC-20; EP-CONC-34: the light it carries is a clue from any distance in sight
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


# --- the limits of invisibility (EP-CONC-31, EP-CONC-32, EP-CONC-34, EP-CONC-36) -----------------------------

DEFAULT_LIGHT = (20, 20)
"""A torch: bright light 20 ft and dim light 20 ft further (PFB-CONC-16), the light a bare ``light`` gives."""


def carried_light(cs: Any) -> tuple[int, int] | None:
    """The light source the creature carries: the condition ``light`` (a torch, 20/20 ft) or ``light:B:D``
    (bright and further dim radius in feet), else None."""
    if cs.has("light"):
        return DEFAULT_LIGHT
    for args in condition_args(cs, "light"):
        if len(args) == 2 and all(a.isdigit() for a in args):
            return int(args[0]), int(args[1])
    return None


def in_sight_line(game_map: Any, a: Square, b: Square) -> bool:
    """No wall on the line between the two squares' centres."""
    crossed = squares_crossed_scaled((2 * a[0] + 1, 2 * a[1] + 1), (2 * b[0] + 1, 2 * b[1] + 1), 2)
    return not any(sq in game_map.walls for sq in crossed if sq not in (a, b))


def light_noticed(game_map: Any, state: Any, observer: str, carrier: str) -> bool:
    """EP-CONC-34: an invisible light source still gives off light, passively and automatically noticed by anyone
    with sight (not blinded) who has a line of sight to it — a clue, not the square (the light is diffuse)."""
    cs, os_ = state.get(carrier), state.get(observer)
    if carried_light(cs) is None or not any(has_state(cs, x) for x in ("invisible", "faded")) \
            or os_.has("blinded") or cs.position is None or os_.position is None:
        return False
    return in_sight_line(game_map, os_.position, cs.position)


def notice_lights(view: View, actor: str) -> None:
    """EP-CONC-34: at the start of its turn, a creature notices the light of every invisible enemy that carries
    one in its sight (``noticed_light:<carrier>``): it may now look for the source with a Spot check beyond
    the usual 30 ft, Perception against the carrier's Stealth or the Average DC of its CR."""
    me = view.creature(actor).side
    mine = view.state.get(actor)
    for cid in sorted(view.state.combatants):
        cs = view.state.get(cid)
        if view.creature(cid).side == me or cs.position is None or cs.hp <= 0:
            continue
        seen = light_noticed(view.game_map, view.state, actor, cid) and not beyond_ethereal_sight(view, actor, cid)
        mark = f"noticed_light:{cid}"
        if seen and not mine.has(mark):
            view.emit(ev.ConditionSet(actor, mark, True, "notices the light of an invisible creature carrying a "
                                                         "light source: it may look for it (Spot, EP-CONC-34)"))
        elif not seen and mine.has(mark):
            view.emit(ev.ConditionSet(actor, mark, False, "the light is out of sight"))


def carried_item_visible(carrier: Any, *, small: bool, hidden_on_person: bool, coated: bool = False) -> \
        tuple[bool, str]:
    """EP-CONC-31: whether an object an invisible creature picked up is seen: a visible object stays visible; a small
    one hidden on its person (a pocket, under a cloak) is effectively invisible — unless coated with flour or the
    like, which keeps its position tracked."""
    if not any(has_state(carrier, x) for x in ("invisible", "faded", "ethereal")):
        return True, "its carrier is visible"
    if coated:
        return True, "coated with flour: its position can be tracked (EP-CONC-31)"
    if small and hidden_on_person:
        return False, "a small item hidden on an invisible creature's person is effectively invisible (EP-CONC-31)"
    if hidden_on_person:
        return True, "too large to hide on the person: it stays visible (EP-CONC-31)"
    return True, "a visible object picked up by an invisible creature stays visible (EP-CONC-31)"


def leaves_tracks(cs: Any) -> tuple[bool, str]:
    """EP-CONC-32: invisible creatures leave tracks and can be tracked normally (footprints in sand or mud give
    clues to the square). Reading: an incorporeal or ethereal creature has no weight (EP-COND-24) and leaves
    none."""
    if cs.has("incorporeal") or cs.has("ethereal"):
        return False, "no weight, no footprints (EP-COND-24)"
    if any(has_state(cs, x) for x in ("invisible", "faded")):
        return True, "invisible creatures leave tracks and can be tracked normally (EP-CONC-32)"
    return True, "leaves tracks"


def divination_unhindered_by(cs: Any) -> list[str]:
    """EP-CONC-36: the creature's concealing states that do not thwart a divination spell aimed at it — every one:
    invisibility does not thwart divination (the list is what the GM page shows beside the spell)."""
    return [x for x in ("invisible", "faded", "ethereal", "blur", "concealed") if has_state(cs, x)]
