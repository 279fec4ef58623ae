"""Readying (WOA-INIT-06..20): a declared standard action that fires on its trigger after the readier's slot.

The engine's trigger is a creature starting its turn (the declaration's target, or a creature named in the
``ready`` action); the readied action is an attack (a standard action, WOA-INIT-06) on the trigger or on another
creature.

- WOA-INIT-06/09: ``ready`` is declared as the round's standard action (the move action stays), its target the
  trigger; on its turn the readier takes :class:`Ready` (naming the attack), which spends the standard action.
- WOA-INIT-07/08: the readied attack fires when the trigger starts its turn after the readier's slot and before the
  round ends; it interrupts, and the trigger then takes its turn if still able.
- WOA-INIT-11..13: a trigger that came before the readier's slot is *missed*: on its turn the readier may (a) make
  the readied attack anyway (``attack``, no interrupt), (b) take ``ready`` again to keep it into the next round, or
  (c) end its turn: the standard action is spent, with no substitute.
- WOA-INIT-14..16: declared ``ready`` again the next round, the readied attack carries over and wins initiative
  against its trigger — it fires when the trigger starts its turn, before the readier's slot too; each round of
  readying spends the standard action (``ready`` again on the turn). Not declared again, it is abandoned.
- WOA-INIT-17: while readying (any round in which a readied action is held) the creature has the condition
  :data:`READYING`; the combat reactions read it (no reactions).
- WOA-INIT-18: readying distracts: −5 on Perception (:func:`~.reactions.readying_distraction`, the checks' hook).
- WOA-INIT-19: extended readying — the GM's ``ready_check:<DC>`` condition calls a concentration check at the next
  turn's start (:data:`READY_CHECK`).
- WOA-INIT-20: attacked while readying: a concentration check at DC 10 + damage taken (a miss: DC 10 + 0,
  ``woa_ready_check_on_miss``); failing it, the readied action is lost.
- WOA-INIT-22..24: ``ready {counterspell: true}`` readies a counterspell instead of an attack: it fires when the
  trigger starts a spell (not its turn) — :mod:`.counterspell` resolves it inside the casting.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from d20combat.battlefield.grid import Square
from d20combat.encounter import events as ev
from d20combat.encounter.actions import Action
from d20combat.errors import D20CombatError
from d20combat.numbers import Modifier, total
from d20combat.rulesets.components import ActionSet, ActionSpec, AttackInfo, RuleError, View
from d20combat.rulesets.worlds_of_adventure import spell_timing as st
from d20combat.rulesets.worlds_of_adventure.reactions import READYING
from d20combat.rulesets.worlds_of_adventure.spell_data import spells_left

TRIGGER_MISSED = "ready_trigger_missed"
"""WOA-INIT-11: set when the trigger came before the readier's slot (the round cycle, :mod:`.cycle`, reads it)."""
READIED_PREFIX = "readied: "
_READIED = re.compile(r"^readied: attack (?P<target>\S+) with (?P<attack>\S+) when (?P<trigger>\S+) starts its turn "
                      r"(?:stepping to (?P<c>\d+),(?P<r>\d+) )?\(since round (?P<since>\d+)\)$")
_COUNTER = re.compile(r"^readied: counterspell when (?P<trigger>\S+) starts a spell \(since round (?P<since>\d+)\)$")
READY_CHECK = "ready_check:"
"""WOA-INIT-19 (the DM's call, "Not mechanizable" → a GM prompt for an ad-hoc DC): the GM sets the condition
``ready_check:<DC>`` (``gm_condition``) on a readying creature; at the start of the next turn — before any trigger
fires — it makes a concentration check at that DC and, failing it, is no longer readied; the condition is lifted."""
MOVED = "moved_this_round"
"""WOA-INIT-10: a readier that moved on its turn may take no short step with its readied attack this round."""


@dataclass(frozen=True, slots=True)
class Ready(Action):
    """WOA-INIT-06: ready an attack (``attack``: the weapon, default the one in hand) on ``target`` (default the
    trigger) for when ``trigger`` (default the declared target) starts its turn."""

    kind: ClassVar[str] = "ready"
    trigger: str = ""
    target: str = ""
    attack: str | None = None
    step: Square | None = None
    """WOA-INIT-10: a short step (to an adjacent square) taken as part of the readied attack, before it."""
    counterspell: bool = False
    """WOA-INIT-22..24: ready a counterspell instead of an attack — it fires when ``trigger`` starts a spell (no
    ``target``, ``attack`` or ``step``)."""

    def label(self, name: Callable[[str], str] = str) -> str:
        if self.counterspell:
            return "Ready a counterspell" + (f" against {name(self.trigger)}" if self.trigger else "")
        on = name(self.target) if self.target else "it"
        return f"Ready an attack on {on}" + (f" when {name(self.trigger)} starts its turn" if self.trigger else "")


@dataclass(frozen=True, slots=True)
class Readied:
    """A readied attack (or counterspell, WOA-INIT-22) as the state holds it (an effect's name)."""

    target: str
    attack: str
    trigger: str
    since: int
    step: Square | None = None
    counterspell: bool = False

    @property
    def what(self) -> str:
        return "readied counterspell" if self.counterspell else "readied attack"

    @property
    def name(self) -> str:
        if self.counterspell:
            return f"{READIED_PREFIX}counterspell when {self.trigger} starts a spell (since round {self.since})"
        step = f"stepping to {self.step[0]},{self.step[1]} " if self.step is not None else ""
        return (f"{READIED_PREFIX}attack {self.target} with {self.attack} when {self.trigger} starts its turn "
                f"{step}(since round {self.since})")


def readied(view: View, cid: str) -> Readied | None:
    """The attack ``cid`` holds readied, or None (a readied counterspell: :func:`readied_action`)."""
    held = readied_action(view, cid)
    return held if held is not None and not held.counterspell else None


def readied_action(view: View, cid: str) -> Readied | None:
    """The attack or counterspell ``cid`` holds readied, or None."""
    for effect in view.state.get(cid).effects:
        found = _READIED.match(effect.name)
        if found:
            step = (int(found["c"]), int(found["r"])) if found["c"] is not None else None
            return Readied(found["target"], found["attack"], found["trigger"], int(found["since"]), step)
        counter = _COUNTER.match(effect.name)
        if counter:
            return Readied(counter["trigger"], "", counter["trigger"], int(counter["since"]), counterspell=True)
    return None


class WoaReady(ActionSet):
    """WOA-INIT-06..20 (the trigger: a creature starting its turn; the readied action: an attack)."""

    def __init__(self, *, check_on_miss: bool = True) -> None:
        super().__init__(own=[ActionSpec(Ready, self.take)])
        self.check_on_miss = check_on_miss

    # --- the action ---------------------------------------------------------------------------------------------
    def take(self, enc: Any, tx: View, actor: str, a: Ready, dry: bool) -> None:
        s = tx.state
        declared = s.declarations.get(actor) or {}
        trigger = a.trigger or str(declared.get("target") or "")
        if not trigger:
            raise RuleError("ready.trigger: name the creature whose turn starting sets the readied attack off "
                            "(WOA-INIT-06)")
        target = a.target or trigger
        for field, cid in (("trigger", trigger), ("target", target)):
            if cid not in s.combatants:
                raise RuleError(f"ready.{field}: no creature {cid!r} in this fight")
        if trigger == actor or target == actor:
            raise RuleError("ready: a creature readies against another creature, not itself")
        if a.counterspell:
            wanted = self._counterspell(tx, actor, a, trigger)
        else:
            wanted = self._attack(tx, actor, a, target, trigger)
        held = readied_action(tx, actor)
        if held is not None and (held.counterspell, held.target, held.attack, held.trigger, held.step) != \
                (wanted.counterspell, wanted.target, wanted.attack, wanted.trigger, wanted.step):
            raise RuleError(f"ready: {actor} already holds {held.name[len(READIED_PREFIX):]}; it keeps readying the "
                            "same action (WOA-INIT-12/14)")
        continuing = held is not None or s.get(actor).has(TRIGGER_MISSED)
        why = "keeps its action readied (WOA-INIT-12/14/16)" if continuing else \
            "readies an action (WOA-INIT-09; each round of readying spends the standard action, WOA-INIT-16)"
        enc.pay(tx, actor, why, "standard", dry)
        if dry:
            return
        if held is None:
            r = wanted
            # Held until just before the readier's next turn: carried over, it fires before that turn too
            # (WOA-INIT-15), and the readier renews it on that turn (WOA-INIT-16) or has abandoned it at the
            # declarations (WOA-INIT-13).
            tx.emit(ev.EffectAdded(actor, r.name, actor, s.round + 1))
        if s.get(actor).has(TRIGGER_MISSED):
            tx.emit(ev.ConditionSet(actor, TRIGGER_MISSED, False, "keeps readying into the next round (WOA-INIT-12)"))
        if not tx.state.get(actor).has(READYING):
            tx.emit(ev.ConditionSet(actor, READYING, True, "readying: no combat reactions (WOA-INIT-17)"))

    def _attack(self, tx: View, actor: str, a: Ready, target: str, trigger: str) -> Readied:
        """WOA-INIT-06/10: the readied attack ``a`` names (the weapon in hand by default), with its short step."""
        s = tx.state
        attack = a.attack or s.get(actor).wielding
        if not attack:
            raise RuleError("ready.attack: the creature holds no weapon to ready an attack with")
        try:
            option = tx.creature(actor).attack(attack)
        except KeyError:
            raise RuleError(f"ready.attack: {actor} has no attack {attack!r}") from None
        step = (int(a.step[0]), int(a.step[1])) if a.step is not None else None
        if step is not None:
            self._step_problem(tx, actor, step, raise_it=True)
        return Readied(target, option.name, trigger, s.round, step)

    @staticmethod
    def _counterspell(tx: View, actor: str, a: Ready, trigger: str) -> Readied:
        """WOA-INIT-22..24: a readied counterspell — against the trigger, with a spell it still has."""

        if a.target or a.attack or a.step is not None:
            raise RuleError("ready.counterspell: a readied counterspell answers the trigger's spell — it takes no "
                            "target, attack or step (WOA-INIT-22)")
        if not spells_left(tx.creature(actor), tx.state.get(actor)):
            raise RuleError(f"ready.counterspell: {actor} has no spell left to counter with (attributes: "
                            "spell_<name>: N; WOA-INIT-23/24)")
        return Readied(trigger, "", trigger, tx.state.round, counterspell=True)

    def candidates(self, enc: Any, actor: str) -> list[Any]:
        """A declared ready: the readied attack on the declared target, and a readied counterspell against it when
        the readier has a spell left (WOA-INIT-22)."""

        declared = enc.state.declarations.get(actor) or {}
        target = declared.get("target")
        if declared.get("standard") != "ready" or not isinstance(target, str):
            return []
        out: list[Any] = [Ready(trigger=target)]
        if spells_left(enc.creature(actor), enc.state.get(actor)):
            out.append(Ready(trigger=target, counterspell=True))
        return out

    # --- the round -----------------------------------------------------------------------------------------------
    def after_declarations(self, view: View, round_no: int) -> None:
        """WOA-INIT-12..17: who readies this round; a readied attack not declared again is abandoned."""
        s = view.state
        for cid in list(s.combatants):
            declared = s.declarations.get(cid) or {}
            held = readied_action(view, cid)
            again = declared.get("standard") == "ready"
            if held is not None and not again:
                view.emit(ev.EffectEnded(cid, held.name))
                view.emit(ev.Note(f"{cid} does not ready again: its {held.what} is abandoned (WOA-INIT-13)"))
            elif held is not None and held.trigger != declared.get("target"):
                view.emit(ev.EffectEnded(cid, held.name))
                view.emit(ev.Note(f"{cid} readies against another trigger: the {held.what} "
                                  f"{'against' if held.counterspell else 'on'} {held.trigger} is abandoned "
                                  "(WOA-INIT-12)"))
            elif held is not None:
                view.emit(ev.Note(f"{cid} keeps readying: it wins initiative against {held.trigger} for its "
                                  f"{held.what} (WOA-INIT-14/15)"))
            if again and not view.state.get(cid).has(READYING):
                view.emit(ev.ConditionSet(cid, READYING, True, "declared ready: no combat reactions while readying "
                                                               "(WOA-INIT-17)"))

    def start_of_turn(self, view: View, starting: str) -> None:
        """WOA-INIT-07/08/11/15: ``starting`` begins its turn — every readied attack it triggers interrupts now;
        a declared ready whose readier has not yet had its slot misses it."""
        s = view.state
        order = list(s.order)
        self._called_checks(view)
        for cid in order:
            if cid == starting:
                continue
            held = readied_action(view, cid)
            if held is not None and held.counterspell:
                continue  # WOA-INIT-22: it answers a spell, not the start of a turn (:mod:`.counterspell`)
            if held is not None and held.trigger == starting:
                self._fire(view, cid, held, starting)
                continue
            declared = s.declarations.get(cid) or {}
            if held is None and declared.get("standard") == "ready" and declared.get("target") == starting \
                    and starting in order and order.index(cid) > order.index(starting) \
                    and not view.state.get(cid).has(TRIGGER_MISSED):
                view.emit(ev.ConditionSet(cid, TRIGGER_MISSED, True,
                                          f"{starting} acts before {cid}'s slot: the trigger is missed — on its turn "
                                          f"{cid} may attack anyway without interrupting (WOA-INIT-11), keep "
                                          "readying into the next round (WOA-INIT-12), or do nothing: the standard "
                                          "action is spent (WOA-INIT-13)"))

    def _fire(self, view: View, cid: str, held: Readied, starting: str) -> None:
        enc = getattr(view, "engine", None)
        c = view.state.get(cid)
        if enc is None or not enc.on_map(cid, view.state) or not self.rules.injury.can_act(view.creature(cid), c):
            view.emit(ev.EffectEnded(cid, held.name))
            view.emit(ev.Note(f"{cid}'s readied attack is lost: it cannot act"))
            return
        if held.step is not None:
            problem = self._step_problem(view, cid, held.step)
            if problem:
                view.emit(ev.Note(f"{cid} takes no short step with its readied attack: {problem}"))
            else:
                view.emit(ev.Moved(cid, [list(held.step)], 5, 0, "step"))
                view.emit(ev.Note(f"{cid} takes a short step to {held.step} as part of its readied attack "
                                  "(WOA-INIT-10)"))
        try:
            plan = enc.plan_attack(cid, held.target, held.attack, state=view.state)
        except D20CombatError as exc:
            view.emit(ev.Note(f"{starting} starts its turn, but {cid}'s readied attack on {held.target} cannot be made "
                              f"now ({exc}): not taken, it stays readied and may be kept into the next round "
                              "(WOA-INIT-14)"))
            return
        view.emit(ev.EffectEnded(cid, held.name))
        won = " — it won initiative against its trigger, readied since round " \
              f"{held.since} (WOA-INIT-15)" if held.since < view.state.round else ""
        view.emit(ev.Note(f"{starting} starts its turn: {cid}'s readied attack on {held.target} interrupts "
                          f"(WOA-INIT-07/08){won}"))
        before = len(getattr(view, "events", ()))
        enc.roll_attack(view, plan)
        self._distract_caster(view, held.target, starting, list(getattr(view, "events", ()))[before:])

    @staticmethod
    def _distract_caster(view: View, target: str, starting: str, events: list[ev.Event]) -> None:
        """WOA-INIT-21: a readied attack "if she starts casting a spell" — the engine's trigger is the caster starting
        the turn in which she declared the casting — lands before she casts: its damage is damage taken before the
        casting, checked when she casts (WOA-SPELL-11's record, as for damage before her turn)."""

        if target != starting or target not in view.state.combatants or not st.declared_casting(view, target):
            return
        for e in events:
            if isinstance(e, ev.Damaged) and e.target == target and e.amount > 0:
                st.record_early_damage(view, target, e.amount)

    def end_of_turn(self, view: View, actor: str) -> None:
        """WOA-INIT-10: remember that a readier moved on its turn."""
        turn = view.state.turn
        if turn is not None and turn.moved and readied(view, actor) is not None \
                and not view.state.get(actor).has(MOVED):
            view.emit(ev.ConditionSet(actor, MOVED, True, "moved this round: no short step with its readied attack "
                                                          "(WOA-INIT-10)"))

    def _step_problem(self, view: View, cid: str, step: Square, *, raise_it: bool = False) -> str | None:
        """WOA-INIT-10: one square to a free, open, adjacent square, and no other movement this round."""
        s = view.state
        turn = s.turn
        here = s.get(cid).position
        problem = None
        if s.get(cid).has(MOVED) or (turn is not None and turn.actor == cid and turn.moved):
            problem = "it moves otherwise this round (WOA-INIT-10)"
        elif max(abs(step[0] - here[0]), abs(step[1] - here[1])) != 1:
            problem = f"{step} is not a square next to {here}"
        elif not view.game_map.in_bounds(step) or view.game_map.is_solid(step) or view.game_map.is_difficult(step):
            problem = f"{step} cannot be stepped into (a wall, the edge or difficult terrain)"
        elif any(c.position == step for o, c in s.combatants.items() if o != cid):
            problem = f"{step} is occupied"
        if problem and raise_it:
            raise RuleError(f"ready.step: {problem}")
        return problem

    def end_of_round(self, view: View, round_no: int) -> None:
        """WOA-INIT-11/17: a missed trigger's choice lapses; readying ends with the round unless still held."""
        for cid, c in view.state.combatants.items():
            if c.has(MOVED):
                view.emit(ev.ConditionSet(cid, MOVED, False, "the round ends (WOA-INIT-10)"))
            if c.has(TRIGGER_MISSED):
                view.emit(ev.ConditionSet(cid, TRIGGER_MISSED, False, "the round ends (WOA-INIT-13)"))
            if c.has(READYING) and readied_action(view, cid) is None:
                view.emit(ev.ConditionSet(cid, READYING, False, "holds no readied action (WOA-INIT-17)"))

    # --- distraction (WOA-INIT-20) ---------------------------------------------------------------------------------
    def after_damage(self, view: View, target: str, amount: int, hp_before: int) -> None:
        if amount > 0:
            self._concentrate(view, target, amount, f"{amount} damage taken")

    def after_attack(self, view: View, attack: AttackInfo, hit: bool) -> None:
        if not hit and self.check_on_miss:
            self._concentrate(view, attack.target, 0, f"attacked by {attack.attacker} (a miss, "
                                                      "woa_ready_check_on_miss)")

    def _called_checks(self, view: View) -> None:
        """WOA-INIT-19: the concentration checks the GM called for (``ready_check:<DC>``), made now."""
        for cid, c in list(view.state.combatants.items()):
            for cond in sorted(x for x in c.conditions if x.startswith(READY_CHECK)):
                view.emit(ev.ConditionSet(cid, cond, False, "the DM's concentration check is made (WOA-INIT-19)"))
                text = cond[len(READY_CHECK):]
                if not text.isdigit() or not 0 <= int(text) <= 99:
                    view.emit(ev.Note(f"{cid}: {cond!r} ignored — the DC must be a whole number from 0 to 99 "
                                      "(ready_check:<DC>, WOA-INIT-19)"))
                elif readied_action(view, cid) is None:
                    view.emit(ev.Note(f"{cid}: {cond!r} ignored — it holds no readied action (WOA-INIT-19)"))
                else:
                    self._concentrate(view, cid, 0, "extended readying: the DM calls for a check (WOA-INIT-19)",
                                      dc=int(text))

    def _concentrate(self, view: View, cid: str, damage: int, why: str, *, dc: int | None = None) -> None:
        held = readied_action(view, cid)
        if held is None or cid not in view.state.combatants:
            return
        creature, c = view.creature(cid), view.state.get(cid)
        skill = "concentration" if "concentration" in {k.lower() for k in creature.sheet.skills} else "con"
        mods: list[Modifier] = self.rules.saves.check_modifiers(creature, c, skill)
        face = view.dice.d20(f"concentration {cid} (readied)")
        t = total(face, mods, base_label="d20", stacking=self.rules.stacking)
        how = f"the DM's DC ({why})" if dc is not None else f"10 + {damage} ({why}, WOA-INIT-20)"
        dc = 10 + damage if dc is None else dc
        kept = t.value >= dc
        view.emit(ev.Note(f"{cid} keeps its {held.what}? concentration {t.explain()} vs DC {dc} = {how}: "
                          f"{'kept' if kept else 'no longer readied'}"))
        if not kept:
            view.emit(ev.EffectEnded(cid, held.name))
