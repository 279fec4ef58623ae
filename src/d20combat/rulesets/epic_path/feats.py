"""Epic Path's free actions that ride on an attack (EP-ACT-40): "Some combat options are free actions meant to be
combined with an attack … Cleaving Finish gives you an extra melee attack, but only after you make an attack that
drops a foe." Each is a registered action with its own condition, checked against what the creature's attacks did
this turn; the feat is read from the stat block's ``feats`` (``cleaving_finish``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.rulesets.components import RuleError

if TYPE_CHECKING:
    from d20combat.encounter.engine import Encounter, Tx

CLEAVING_FINISH = "cleaving_finish"
"""The feat (stat block ``feats``) that grants the extra attack."""
CLEAVED = "cleaving finish used this turn (EP-ACT-40)"
"""The marker effect: one extra attack a turn."""


@dataclass(frozen=True, slots=True)
class CleavingFinish(ax.Action):
    """EP-ACT-40: a free action — an extra melee attack on ``target`` after an attack of this turn dropped a foe."""

    kind: ClassVar[str] = "cleaving_finish"
    target: str = ""
    attack: str | None = None

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Cleaving Finish: strike {name(self.target)}" + (f" with {self.attack}" if self.attack else "")


def dropped_this_turn(engine: Encounter, tx: Tx, actor: str) -> list[str]:
    """The foes ``actor``'s attacks hit this turn that are now down (at 0 hp or fewer, or unable to act)."""
    s = tx.state
    hit: list[str] = []
    for e in reversed([*engine.log, *tx.events]):
        if isinstance(e, ev.TurnStarted):
            break
        if isinstance(e, ev.AttackResolved) and e.attacker == actor and e.hit and e.target not in hit:
            hit.append(e.target)
    down = []
    for cid in hit:
        if cid not in s.combatants:
            continue
        cs = s.get(cid)
        if cs.hp <= 0 or not engine.ruleset.injury.can_act(engine.creature(cid), cs):
            down.append(cid)
    return down


def cleaving_finish(engine: Encounter, tx: Tx, actor: str, a: CleavingFinish, dry: bool) -> None:
    """EP-ACT-40: only with the feat, only after an attack this turn dropped a foe, once a turn, a melee attack on
    another foe; a free action (within the GM's limit on free actions, EP-ACT-38)."""
    s = tx.state
    if not engine.creature(actor).has_feat(CLEAVING_FINISH):
        raise RuleError(f"cleaving_finish: {actor} lacks the feat Cleaving Finish")
    if any(e.name == CLEAVED for e in s.get(actor).effects):
        raise RuleError("cleaving_finish: one extra attack a turn (EP-ACT-40)")
    dropped = dropped_this_turn(engine, tx, actor)
    if not dropped:
        raise RuleError("cleaving_finish: only after an attack of this turn drops a foe (EP-ACT-40)")
    if a.target in dropped:
        raise RuleError(f"cleaving_finish: {a.target} is already down; strike another foe")
    plan = engine.plan_attack(actor, a.target, a.attack, state=s)
    if plan.option.is_ranged:
        raise RuleError("cleaving_finish: the extra attack is a melee attack (EP-ACT-40)")
    engine.pay(tx, actor, f"Cleaving Finish on {a.target}", "free", dry)
    if dry:
        return
    tx.emit(ev.EffectAdded(actor, CLEAVED, actor, s.round + 1))
    tx.emit(ev.Note(f"{actor}'s attack dropped {', '.join(dropped)}: Cleaving Finish grants an extra melee attack "
                    f"on {a.target}, a free action (EP-ACT-40)"))
    engine.roll_attack(tx, plan)


__all__ = ["CLEAVING_FINISH", "CleavingFinish", "cleaving_finish", "dropped_this_turn"]
