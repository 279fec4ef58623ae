"""The Stealth check in a fight (EP-COV-09, EP-COV-11, EP-COV-19; EP-CONC-17, EP-CONC-20): the action ``hide``.

A creature may make a Stealth check only where it has cover from every enemy on the map, or concealment (or
invisibility) from it — "you can use cover to make a Stealth check; without cover, you usually need
concealment" (EP-COV-09); soft cover from creatures does not count (EP-COV-11). Improved cover from every enemy
adds +10 (EP-COV-19). The result is kept as the condition ``stealth:N`` (the older result replaced): what an
enemy's Spot check must beat (EP-CONC-20, EP-CONC-34).

Reading: the text gives the check no cost; it is a move action here (as the Spot check it opposes, EP-CONC-22).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from d20combat.battlefield.grid import Footprint
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.numbers import Modifier, total
from d20combat.rulesets.components import RuleError
from d20combat.rulesets.components.reactions import vision_of
from d20combat.rulesets.epic_path.cover import allows_stealth, stealth_bonus
from d20combat.rulesets.epic_path.seeing import condition_args
from d20combat.rulesets.epic_path.senses import beyond_ethereal_sight, invisible_state, targeting_sense

if TYPE_CHECKING:
    from d20combat.encounter.engine import Encounter, Tx


@dataclass(frozen=True, slots=True)
class Hide(ax.Action):
    """Make a Stealth check from cover or concealment (EP-COV-09): a move action."""

    kind: ClassVar[str] = "hide"

    def label(self, name: Callable[[str], str] = str) -> str:
        return "Hide: a Stealth check from cover or concealment"


def hiding_from(engine: Encounter, tx: Tx, actor: str) -> tuple[list[tuple[str, str]], list[Modifier | None]]:
    """For each enemy on the map: what hides ``actor`` from it (or '' when nothing does), and the improved cover
    bonus it gives (EP-COV-19) or None."""
    s = tx.state
    me = engine.creature(actor)
    my_fp = engine.footprint(actor, s)
    rules = engine.ruleset
    out: list[tuple[str, str]] = []
    bonuses: list[Modifier | None] = []
    for other in sorted(s.combatants):
        oc = engine.creature(other)
        if oc.side == me.side or not engine.on_map(other, s) or engine.is_dead(other, s):
            continue
        os_ = s.get(other)
        o_fp = Footprint(os_.position, oc.space)
        blockers = engine.creature_squares((other, actor), s)
        fact = rules.cover.find_cover(tx.game_map, o_fp, my_fp, ranged=True, reach_attack=False, adjacent=False,
                                      creature_squares=blockers)
        sources = rules.concealment.concealment_sources(tx.game_map, o_fp, vision_of(oc, os_), my_fp, s.get(actor),
                                                        adjacent_melee=False)
        pierced = targeting_sense(tx, other, actor) is not None
        if beyond_ethereal_sight(tx, other, actor):
            why = f"beyond the ethereal {other}'s 60-ft sight (EP-COND-39)"
        elif allows_stealth(fact):
            why = f"cover from {other}"
        elif invisible_state(s.get(actor)) and not pierced:
            why = f"invisible to {other}"
        elif sources and not pierced:
            why = f"concealment from {other}"
        else:
            why = ""
        out.append((other, why))
        bonuses.append(stealth_bonus(fact) if allows_stealth(fact) else None)
    return out, bonuses


def do_hide(engine: Encounter, tx: Tx, actor: str, a: Hide, dry: bool) -> None:
    s = tx.state
    facts, bonuses = hiding_from(engine, tx, actor)
    seen = [other for other, why in facts if not why]
    if seen:
        raise RuleError(f"hide: {seen[0]} sees {actor} plainly — a Stealth check needs cover (not the soft cover of "
                        f"creatures) or concealment from every enemy (EP-COV-09, EP-COV-11)")
    creature = engine.creature(actor)
    mods = engine.ruleset.saves.check_modifiers(creature, s.get(actor), "stealth")
    improved = [b for b in bonuses if b is not None]
    if facts and len(improved) == len(facts):
        mods = [*mods, Modifier(10, "improved cover (EP-COV-19)")]
    engine.pay(tx, actor, "hide", "move", dry)
    if dry:
        return
    face = tx.dice.d20(f"stealth check {actor}")
    t = total(face, mods, base_label="d20", stacking=engine.ruleset.stacking)
    for args in condition_args(s.get(actor), "stealth"):
        tx.emit(ev.ConditionSet(actor, ":".join(["stealth", *args]), False, "a new Stealth check"))
    hidden = "; ".join(why for _, why in facts) or "no enemy on the map"
    tx.emit(ev.ConditionSet(actor, f"stealth:{t.value}", True, f"Stealth {t.explain()} ({hidden}, EP-COV-09)"))
