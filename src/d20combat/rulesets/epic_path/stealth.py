"""Epic Path's stealth in the fight (EP-SURP-14, EP-SURP-21, EP-SURP-28, EP-SURP-31, EP-SURP-34).

A creature is *in stealth* when it has the core's ``hidden`` condition (the GM's, or the scenario's: others do not
see it) or keeps up a stance named ``stealth`` (EP-CONC-11). Then:

- its attack catches the target Flat-Footed against that attack (EP-SURP-14) — the attack component's
  ``flat_footed_against``; the attack gives it away, so its stealth ends after the attack;
- a charge always breaks stealth *before* its attack (EP-SURP-21): the charge attack gets no Flat-Footed from
  stealth (a surprised target that has not acted is Flat-Footed anyway);
- being aware of an ambush penetrates no stealth nor invisibility (EP-SURP-31): awareness changes nothing here;
- ambushers make Spot checks every round once the ambush is set (EP-SURP-28), so before the first round they may
  find stealthed or invisible prey: one roll for the group (the best Perception) or one each (option
  ``ambusher_spot_mode``);
- in the surprise round a creature may spend its standard action on an active Perception check against the
  ambushers' stealth or invisibility and pass what it learns to its allies (EP-SURP-34; the action
  ``active_perception``).

The DC to find a creature in stealth or invisible is its Stealth result when it made one (condition ``stealth:N``),
else the Average DC of its CR or level (as EP-CONC-21 for the invisible; ``data/ep_dc_ladder.yaml``). Finding a
creature in stealth ends its ``hidden`` (the finder's side sees it); finding an invisible one pinpoints its square
for the finder (and the allies it tells)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.numbers import Modifier, total
from d20combat.rulesets.components import RuleError, View
from d20combat.rulesets.epic_path.ambush import challenge_rating
from d20combat.rulesets.epic_path.dc_ladder import dc_ladder, ladder_dc
from d20combat.rulesets.epic_path.stances import PREFIX as STANCE_PREFIX

if TYPE_CHECKING:
    from d20combat.encounter.engine import Encounter, Tx
    from d20combat.encounter.state import CombatantState

HIDDEN = "hidden"
"""The core's condition of a creature the others do not see (``encounter/visibility.py``)."""
STEALTH_STANCE = "stealth"


def in_stealth(cs: CombatantState) -> bool:
    """EP-SURP-14: hidden, or keeping up a Stealth stance."""
    return cs.has(HIDDEN) or any(e.name.lower() == STANCE_PREFIX + STEALTH_STANCE for e in cs.effects)


def invisible(cs: CombatantState) -> bool:
    return any(c == "invisible" or c.startswith("invisible:") for c in cs.conditions)


def charging(view: View, cid: str) -> bool:
    """The creature charged this turn (its charge's −2 AC began this round)."""
    s = view.state
    return any(e.name == "charging" and e.until_round == s.round + 1 for e in s.get(cid).effects)


def attack_from_stealth(view: View, attacker: str) -> bool:
    """EP-SURP-14/21: the attacker is in stealth and not charging (a charge broke its stealth before the attack)."""
    return in_stealth(view.state.get(attacker)) and not charging(view, attacker)


def break_stealth(view: View, cid: str, why: str) -> None:
    """End ``cid``'s stealth: its ``hidden`` and its Stealth stance."""
    cs = view.state.get(cid)
    if cs.has(HIDDEN):
        view.emit(ev.ConditionSet(cid, HIDDEN, False, why))
    for e in cs.effects:
        if e.name.lower() == STANCE_PREFIX + STEALTH_STANCE:
            view.emit(ev.EffectEnded(cid, e.name))
    view.emit(ev.Note(f"{cid}'s stealth ends: {why}"))


def stealth_dc(view: View, cid: str) -> tuple[int, str]:
    """The Perception DC to find ``cid``: its Stealth result (``stealth:N``) or the Average DC of its CR."""
    cs = view.state.get(cid)
    for c in cs.conditions:
        name, _, arg = c.partition(":")
        if name == "stealth" and arg.isdigit():
            return int(arg), f"its Stealth {arg}"
    _, by_cr = dc_ladder()
    cr = min(max(challenge_rating(view.creature(cid)), min(by_cr)), max(by_cr))
    return ladder_dc("average", cr), f"Average DC for CR {cr}"


def unseen_foes(view: View, side: str, among: Iterable[str] | None = None) -> list[str]:
    """The creatures not of ``side`` (or of ``among``) that are in stealth or invisible."""
    s = view.state
    pool = sorted(among) if among is not None else sorted(s.combatants)
    return [cid for cid in pool if cid in s.combatants and view.creature(cid).side != side
            and s.get(cid).position is not None and (in_stealth(s.get(cid)) or invisible(s.get(cid)))]


def learn(view: View, finders: list[str], target: str, why: str) -> None:
    """``finders`` find ``target``: a creature in stealth is seen (its stealth ends); an invisible one's square is
    known to each finder (EP-CONC-23's pinpointing)."""
    from d20combat.rulesets.epic_path.seeing import pinpoint  # the seeing chapter's knowledge of squares

    if in_stealth(view.state.get(target)):
        break_stealth(view, target, why)
    if invisible(view.state.get(target)):
        for finder in finders:
            pinpoint(view, finder, target, why)


def perception_roll(view: View, cid: str, purpose: str) -> Any:
    mods = view.creature(cid).sheet.skills.get("perception", 0)
    face = view.dice.roll(20, purpose)
    return total(face, [Modifier(mods, "Perception")] if mods else [], base_label="d20")


def ambusher_spot_checks(view: View, ambushers: list[str], mode: str) -> None:
    """EP-SURP-28: before the encounter begins, the ambushers' Spot checks against every prey in stealth or
    invisible — one roll for the group with its best Perception ('group'), or one roll each ('individual')."""
    s = view.state
    ambushers = [cid for cid in ambushers if cid in s.combatants and s.get(cid).position is not None]
    if not ambushers:
        return
    side = view.creature(ambushers[0]).side
    targets = unseen_foes(view, side)
    if not targets:
        return
    if mode == "group":
        best = max(ambushers, key=lambda cid: (view.creature(cid).sheet.skills.get("perception", 0), cid))
        rolls = [(ambushers, perception_roll(view, best, f"ambushers' spot check ({best})"),
                  f"the ambushers' Spot check (one for the group, {best}'s Perception)")]
    else:
        rolls = [([cid], perception_roll(view, cid, f"ambusher's spot check {cid}"), f"{cid}'s Spot check")
                 for cid in ambushers]
    for finders, roll, who in rolls:
        for target in targets:
            dc, why = stealth_dc(view, target)
            ok = roll.value >= dc
            view.emit(ev.Note(f"{who} before the encounter: {roll.explain()} vs {target}'s DC {dc} ({why}) — "
                              + ("found (EP-SURP-28)" if ok else "not found (EP-SURP-28)")))
            if ok:
                learn(view, finders, target, "spotted by the ambushers before the encounter (EP-SURP-28)")


@dataclass(frozen=True, slots=True)
class ActivePerception(ax.Action):
    """EP-SURP-34: a standard action — an active Perception check against every foe in stealth or invisible;
    ``relay``: pass what it learns to its allies (they know the squares too)."""

    kind: ClassVar[str] = "active_perception"
    relay: bool = True

    def label(self, name: Callable[[str], str] = str) -> str:
        return "Active Perception check" + (", telling the allies" if self.relay else "")


def active_perception(engine: Encounter, tx: Tx, actor: str, a: ActivePerception, dry: bool) -> None:
    """EP-SURP-34: the standard action (in the surprise round, its single one) spent on an active Perception check
    to penetrate stealth or invisibility; what it finds its allies learn when it relays."""
    side = engine.creature(actor).side
    if not unseen_foes(tx, side):
        raise RuleError("active_perception: no foe is in stealth or invisible")
    engine.pay(tx, actor, "active Perception check", "standard", dry)
    if dry:
        return
    s = tx.state
    allies = [cid for cid in sorted(s.combatants) if cid != actor and engine.creature(cid).side == side
              and engine.on_map(cid, s)] if a.relay else []
    roll = perception_roll(tx, actor, f"active perception {actor}")
    for target in unseen_foes(tx, side):
        dc, why = stealth_dc(tx, target)
        ok = roll.value >= dc
        told = f", and tells {', '.join(allies)}" if ok and allies else ""
        tx.emit(ev.Note(f"{actor}'s active Perception {roll.explain()} vs {target}'s DC {dc} ({why}) — "
                        + (f"finds it{told} (EP-SURP-34)" if ok else "finds nothing (EP-SURP-34)")))
        if ok:
            learn(tx, [actor, *allies], target, f"found by {actor}'s active Perception (EP-SURP-34)")


__all__ = ["ActivePerception", "active_perception", "ambusher_spot_checks", "attack_from_stealth", "break_stealth",
           "in_stealth", "stealth_dc"]
