"""Epic Path's splash weapons (EP-SPLASH-01..20): alchemist's fire, acid flasks, holy water — thrown at a creature
(a ranged touch attack: direct-hit damage to it, splash damage to everyone within 5 ft, never to the target itself)
or at a square (a ranged attack against AC 5: splash only, where the square breaks the flask). A miss scatters
1 square by a d8 counted clockwise from "falls short" (toward the thrower); everyone there and adjacent takes splash
damage, nobody direct damage. Splash allows a Reflex save for half; direct damage none."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from d20combat.battlefield.distance import distance_ft, footprint_distance_ft
from d20combat.battlefield.grid import Footprint, GameMap, Square
from d20combat.dice.expression import parse_dice
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.model.creature import AttackOption
from d20combat.numbers import Modifier, total
from d20combat.rulesets.components import RuleError

if TYPE_CHECKING:
    from d20combat.encounter.engine import Encounter, Tx
    from d20combat.rulesets.epic_path.options import EpOptions

CLOCKWISE: tuple[Square, ...] = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
"""The 8 neighbours clockwise on the map (north up; rows grow south): N, NE, E, SE, S, SW, W, NW."""

SQUARE_AC = 5
"""EP-SPLASH-11: the AC of a square aimed at."""


@dataclass(frozen=True, slots=True)
class ThrowSplash(ax.Action):
    """Throw a splash weapon (EP-SPLASH): at a creature (``target``; for a Large one, ``square`` picks which of its
    squares, EP-SPLASH-09) or at a square (``square`` alone, EP-SPLASH-11). A standard action."""

    kind: ClassVar[str] = "throw_splash"
    attack: str = ""
    target: str = ""
    square: Square | None = None

    def label(self, name: Callable[[str], str] = str) -> str:
        at = name(self.target) if self.target else (f"({self.square[0]}, {self.square[1]})" if self.square else "?")
        return f"Throw {self.attack} at {at}"


def toward(origin: Square, thrower: Square) -> int:
    """EP-SPLASH-18 (AMBIGUOUS, the inventory's reading): the index in :data:`CLOCKWISE` of the neighbour of
    ``origin`` whose direction is closest to the line toward the thrower ("falls short")."""
    dx, dy = thrower[0] - origin[0], thrower[1] - origin[1]
    if (dx, dy) == (0, 0):
        return 4  # thrown into its own square: falls short southward (any fixed choice)
    angle = math.degrees(math.atan2(dx, -dy)) % 360  # 0 = north, growing clockwise
    return round(angle / 45) % 8


def toward_dominant_axis(origin: Square, thrower: Square) -> int:
    """EP-SPLASH-18, option ``ep_scatter_snap: dominant_axis``: the neighbour along the larger of |dx| and |dy| toward
    the thrower, the diagonal only when they are equal."""
    dx, dy = thrower[0] - origin[0], thrower[1] - origin[1]
    if (dx, dy) == (0, 0):
        return 4
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    step = (sx, 0) if abs(dx) > abs(dy) else (0, sy) if abs(dy) > abs(dx) else (sx, sy)
    return CLOCKWISE.index(step)


def scatter(origin: Square, thrower: Square, face: int, snap: str = "nearest") -> Square:
    """EP-SPLASH-17/18: the square a missed splash weapon lands on: 1 square from ``origin``, a d8 ``face`` of 1 = short
    (toward the thrower, snapped as ``snap`` — option ``ep_scatter_snap`` — says), 2–8 counted clockwise from
    there."""
    short = toward_dominant_axis(origin, thrower) if snap == "dominant_axis" else toward(origin, thrower)
    dc, dr = CLOCKWISE[(short + face - 1) % 8]
    return (origin[0] + dc, origin[1] + dr)


def breaks_on(game_map: GameMap, square: Square, difficult_breaks: bool) -> tuple[bool, str]:
    """EP-SPLASH-12..15: whether a flask aimed at ``square`` breaks there, and why. The ground, blocked and impeded
    squares break it; difficult terrain as the option says ("often"); a square the map marks ``splash_soft`` (webs,
    flesh, rubber: the GM's word, EP-SPLASH-13/14) never does."""
    if square in game_map.splash_soft:
        return False, "too soft to break it (the GM's ruling, EP-SPLASH-13)"
    if game_map.is_blocked(square):
        return True, "blocked terrain, as solid as the ground (EP-SPLASH-14)"
    if game_map.is_impeded(square):
        return True, "impeded terrain, solid enough (EP-SPLASH-15)"
    if game_map.is_difficult(square):
        return difficult_breaks, "difficult terrain " + ("breaks it" if difficult_breaks else "does not break it") \
            + " (EP-SPLASH-15, option ep_splash_breaks_difficult)"
    return True, "the ground (EP-SPLASH-12)"


class SplashWeapons:
    """The splash weapon's handler (EP-SPLASH-01..20)."""

    def __init__(self, opts: EpOptions) -> None:
        self.opts = opts

    def throw(self, engine: Encounter, tx: Tx, actor: str, a: ThrowSplash, dry: bool) -> None:
        s = tx.state
        creature = engine.creature(actor)
        try:
            option = creature.attack(a.attack or (s.get(actor).wielding or ""))
        except KeyError:
            raise RuleError(f"throw splash: {actor} has no attack {a.attack!r}") from None
        if option.weapon.splash is None:
            raise RuleError(f"throw splash: {option.name} is not a splash weapon (EP-SPLASH-01)")
        if s.get(actor).wielding != option.name:
            raise RuleError(f"throw splash: {actor} must draw {option.name} first (a move action)")
        here = s.get(actor).position
        if a.target:
            if a.target not in s.combatants or a.target == actor:
                raise RuleError(f"throw splash: no target {a.target!r}")
            plan = engine.plan_attack(actor, a.target, option.name, state=s)  # EP-SPLASH-02: a ranged touch attack
            t_fp = engine.footprint(a.target, s)
            aim = self._aim_square(t_fp, a.square, here)
            mods = list(plan.modifiers)
            ac, ac_text = engine.target_ac(plan, s, tx)
        else:
            if a.square is None:
                raise RuleError("throw splash: give a target creature or a square")
            aim = (int(a.square[0]), int(a.square[1]))
            if not tx.game_map.in_bounds(aim):
                raise RuleError(f"throw splash: {aim} is outside the map")
            dist = distance_ft(here, aim)
            penalty = self.range_penalty(engine, dist, option)
            mods = [*engine.ruleset.attack.attack_modifiers(creature, option),
                    *([Modifier(penalty, "range")] if penalty else []),
                    *[Modifier(e.attack, e.name) for e in s.get(actor).effects if e.attack]]
            ac, ac_text = SQUARE_AC, "a square (EP-SPLASH-11)"
        engine.pay(tx, actor, f"throw {option.name}", "standard", dry)
        if dry:
            return
        cs = s.get(actor)
        tx.emit(ev.EquipmentChanged(actor, None, cs.shield_state, sorted(cs.loaded),
                                    f"throws {option.name}"))
        face = tx.dice.d20(f"attack {actor}->{a.target or 'square'}")
        roll = total(face, mods, base_label="d20", stacking=engine.ruleset.stacking)
        auto_hit, auto_miss = engine.ruleset.attack.natural(face)
        hit = auto_hit or (not auto_miss and roll.value >= ac)
        what = a.target or f"the square {aim}"
        lines = [f"{actor} throws {option.name} at {what}",
                 f"  {'hits' if hit else 'misses'}: {roll.explain()} vs {'touch AC' if a.target else 'AC'} {ac} "
                 f"({ac_text})"]
        tx.emit(ev.AttackResolved(actor, a.target or actor, option.name, hit, False, lines) if a.target else
                ev.Note("\n".join(lines)))
        if hit and a.target:
            self._direct(engine, tx, actor, a.target, option)
            self._splash(engine, tx, actor, option, Footprint(aim, 1), exclude=a.target,
                         why=f"within 5 ft of {a.target}'s square {aim} (EP-SPLASH-05/06)")
            return
        if hit:
            broke, why = breaks_on(tx.game_map, aim, self.opts.ep_splash_breaks_difficult)
            if not broke:
                tx.emit(ev.Note(f"  the flask lands in {aim} unbroken: {why}"))
                return
            tx.emit(ev.Note(f"  it breaks in {aim} on {why}: splash damage only (EP-SPLASH-16)"))
            self._splash(engine, tx, actor, option, Footprint(aim, 1), exclude=None,
                         why=f"in or next to {aim} (EP-SPLASH-16)")
            return
        d8 = tx.dice.roll(8, f"scatter {option.name}")
        land = scatter(aim, here, d8, self.opts.ep_scatter_snap)
        direction = "short, toward the thrower" if d8 == 1 else f"{d8 - 1} clockwise from short"
        if not tx.game_map.in_bounds(land):
            tx.emit(ev.Note(f"  scatter d8 {d8} ({direction}): it lands off the map at {land} (EP-SPLASH-17/18)"))
            return
        tx.emit(ev.Note(f"  scatter d8 {d8} ({direction}): it lands in {land}, 1 square from {aim}; no direct-hit "
                        f"damage (EP-SPLASH-17/18/20)"))
        self._splash(engine, tx, actor, option, Footprint(land, 1), exclude=None,
                     why=f"in or next to {land}, where it landed (EP-SPLASH-19)")

    @staticmethod
    def range_penalty(engine: Encounter, dist: int, option: AttackOption) -> int:
        """The range modifier (≤ 0) for a throw at a square ``dist`` ft away (a square next to the thrower counts as
        the first increment), or :class:`RuleError` beyond the weapon's range."""
        check = engine.ruleset.attack.ranged_limits(max(dist, 10), option)
        if check.problem:
            raise RuleError(f"throw splash: {check.problem}")
        return check.penalty

    @staticmethod
    def _aim_square(t_fp: Footprint, chosen: Square | None, thrower: Square) -> Square:
        """EP-SPLASH-09: against a Large or larger target the thrower picks one of its squares (default: the one
        nearest the thrower)."""
        squares = list(t_fp.squares())
        if chosen is not None:
            sq = (int(chosen[0]), int(chosen[1]))
            if sq not in squares:
                raise RuleError(f"throw splash: {sq} is not one of the target's squares (EP-SPLASH-09)")
            return sq
        return min(squares, key=lambda q: (distance_ft(thrower, q), q))

    def _direct(self, engine: Encounter, tx: Tx, actor: str, target: str, option: AttackOption) -> None:
        """EP-SPLASH-04/07/10: the direct-hit damage, no save, no precision damage (unless ep_splash_precision)."""
        expr = option.dice
        faces = [tx.dice.roll(expr.sides, f"damage {option.name}") for _ in range(expr.count)]
        amount = max(sum(faces) + expr.bonus, 1)
        parts = f"{expr.count}d{expr.sides} {sum(faces)}" + (f" + {expr.bonus}" if expr.bonus else "")
        striker = engine.creature(actor)
        if self.opts.ep_splash_precision and striker.sheet.sneak_attack_dice:
            extra = [tx.dice.roll(6, "precision damage") for _ in range(striker.sheet.sneak_attack_dice)]
            amount += sum(extra)
            parts += f" + precision {sum(extra)} (GM fiat, EP-SPLASH-10)"
        self._hurt(engine, tx, target, actor, amount, f"  direct hit {amount} = {parts}, no save (EP-SPLASH-07)")

    def _splash(self, engine: Encounter, tx: Tx, actor: str, option: AttackOption, centre: Footprint,
                exclude: str | None, why: str) -> None:
        """EP-SPLASH-05/08/16/19: splash damage to every creature ``why``, each with a Reflex save for half."""
        weapon = option.weapon
        assert weapon.splash is not None
        expr = parse_dice(weapon.splash)
        for cid in sorted(tx.state.combatants):
            if cid == exclude or not engine.on_map(cid, tx.state) or engine.is_dead(cid, tx.state):
                continue
            if footprint_distance_ft(centre, engine.footprint(cid, tx.state)) > 5:
                continue
            faces = [tx.dice.roll(expr.sides, f"splash {option.name}") for _ in range(expr.count)]
            amount = max(sum(faces) + expr.bonus, 1)
            text = f"splash {amount}" + (f" = {expr.count}d{expr.sides} {sum(faces)}" if faces else "")
            if weapon.splash_dc is not None:
                amount, saved = self._reflex(engine, tx, cid, amount, weapon.splash_dc)
                text += f"; Reflex {saved}" if saved else ""
            self._hurt(engine, tx, cid, actor, amount, f"  {cid} is {why}: {text} → {amount}")

    @staticmethod
    def _reflex(engine: Encounter, tx: Tx, cid: str, amount: int, dc: int) -> tuple[int, str]:
        """EP-SPLASH-08: a Reflex save for half (rounded down)."""
        saves = engine.ruleset.saves
        creature, cs = engine.creature(cid), tx.state.get(cid)
        face = tx.dice.d20(f"Reflex save {cid}")
        t = total(face, saves.save_modifiers(creature, cs, "ref"), base_label="d20", stacking=engine.ruleset.stacking)
        ok = saves.succeeds("ref", face, t.value, dc)
        tx.emit(ev.SaveRolled(cid, "ref", dc, t.value, ok, f"{cid} Reflex save {t.explain()} vs DC {dc}: "
                                                             f"{'half damage' if ok else 'full damage'}"))
        return (amount // 2, f"{t.value} ≥ DC {dc}, half") if ok else (amount, f"{t.value} < DC {dc}, full")

    @staticmethod
    def _hurt(engine: Encounter, tx: Tx, cid: str, source: str, amount: int, text: str) -> None:
        hurt(engine, tx, cid, source, amount, text, text)


def hurt(engine: Encounter, tx: Tx, cid: str, source: str, amount: int, text: str, nothing: str) -> None:
    """Damage from a thrown flask or an effect (no attack roll): mitigated by the ruleset's damage, announced; when
    ``amount`` is 0 or less, the note ``nothing`` instead."""
    if amount <= 0:
        tx.emit(ev.Note(nothing))
        return
    before = tx.state.get(cid).hp
    mitigated, why_less = engine.ruleset.damage.mitigate(engine.creature(cid), tx.state.get(cid), amount)
    tx.emit(ev.Damaged(cid, mitigated, source, f"{text}{(' ' + why_less) if why_less else ''} → {cid} hp "
                                              f"{before} → {before - mitigated}"))
    engine.announce_health(tx, cid, before)
