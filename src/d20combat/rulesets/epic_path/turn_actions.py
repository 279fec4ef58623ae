"""Epic Path's own actions of time and the turn: swift and immediate actions (EP-ACT-31..37), holding
(EP-ACT-47..53), readying (EP-ACT-54..61) and spending an action point (EP-MISC-22..25).

Each is a registered action (``actions.own``), so the API and the page reach it by its ``kind``. A readied action
is structured: an attack, fired when a named creature (or any creature) starts its turn.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, ClassVar

import yaml

from d20combat.encounter import events as ev
from d20combat.encounter.actions import Action, Activity, Draw, Sheathe
from d20combat.errors import D20CombatError
from d20combat.rulesets.components import ActionSpec, RuleError, View
from d20combat.rulesets.epic_path.economy import IMMEDIATE, PART_OF_MOVE, locked
from d20combat.rulesets.epic_path.initiative import (
    ACTION_POINTS,
    FLAT_FOOTED,
    HELD_TIE,
    PER_ENCOUNTER,
    combat_round,
)


@dataclass(frozen=True, slots=True)
class SwiftAction(Action):
    """EP-ACT-31..33: a swift action on your turn (enter a stance, Smite Enemy…), named for the log."""

    kind: ClassVar[str] = "swift_action"
    name: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Swift action: {self.name}"


@dataclass(frozen=True, slots=True)
class ImmediateAction(Action):
    """EP-ACT-34..37: an immediate action, at any time (``by``: a creature acting out of its turn, e.g. casting
    Feather Fall); one a round, never while Flat-Footed."""

    kind: ClassVar[str] = "immediate_action"
    name: str = ""
    by: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Immediate action: {self.name}" + (f" by {name(self.by)}" if self.by else "")


@dataclass(frozen=True, slots=True)
class Hold(Action):
    """EP-ACT-49..52: hold the action and act right after ``after`` (the initiative becomes its − 1); with no
    ``after`` the action stays held and is lost when the count comes round again."""

    kind: ClassVar[str] = "hold"
    after: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Hold the action until {name(self.after)} has acted" if self.after else "Hold the action"


@dataclass(frozen=True, slots=True)
class Ready(Action):
    """EP-ACT-54..61: a standard action to ready an attack, fired when ``trigger`` (a creature's id, or ``any``)
    starts its turn; ``target`` empty = the triggering creature."""

    kind: ClassVar[str] = "ready"
    trigger: str = ""
    target: str = ""
    attack: str | None = None

    def label(self, name: Callable[[str], str] = str) -> str:
        who = "any creature" if self.trigger == "any" else name(self.trigger)
        return f"Ready an attack on {name(self.target) if self.target else 'it'} when {who} starts its turn"


@dataclass(frozen=True, slots=True)
class SpendActionPoint(Action):
    """EP-MISC-22..25: spend an action point for this combat round's benefit (``data/ep_action_points.yaml``)."""

    kind: ClassVar[str] = "action_point"

    def label(self, name: Callable[[str], str] = str) -> str:
        return "Spend an action point"


# ----------------------------------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def action_point_table() -> dict[str, Any]:
    text = resources.files("d20combat.data").joinpath("ep_action_points.yaml").read_text(encoding="utf-8")
    data: dict[str, Any] = yaml.safe_load(text)
    return data


def action_point_benefit(round_no: int, *, after_charge: bool) -> tuple[dict[str, int], str]:
    """(the actions added, the text) of an action point spent in combat round ``round_no`` (EP-MISC-23); after a
    charge, a standard action only (EP-MISC-25)."""
    table = action_point_table()
    if after_charge:
        row = table["after_charge"]
        return dict(row["grants"]), str(row["text"])
    rows = [r for r in table["benefits"] if int(r["from_round"]) <= round_no]
    row = max(rows, key=lambda r: int(r["from_round"]))
    return dict(row["grants"]), str(row["text"])


def charged_this_turn(view: View, actor: str) -> bool:
    """The actor charged this turn: its charge's −2 AC effect began this round (PFB-CHG-12's "charging")."""
    s = view.state
    return any(e.name == "charging" and e.until_round == s.round + 1 for e in s.get(actor).effects)


def flat_footed(view: View, cid: str) -> bool:
    s = view.state
    return s.get(cid).has(FLAT_FOOTED) or (s.surprise_round and cid in s.surprised)


def _creature_id(enc: Any, s: Any, cid: str, what: str) -> None:
    if cid not in s.combatants or not enc.on_map(cid, s):
        raise RuleError(f"{what}: no creature {cid!r} in the fight")


# ----------------------------------------------------------------------------------------------------------------
def _use_per_encounter(tx: View, who: str, ability: str, dry: bool) -> None:
    """An ability the stat block gives a number of uses a combat spends one (EP-TIME-10)."""
    pool = PER_ENCOUNTER + ability
    uses = tx.state.get(who).reactions
    if pool not in uses:
        return
    if uses[pool] < 1:
        raise RuleError(f"{ability}: {who} has used it up in this combat (renewed when a new combat begins, "
                        "EP-TIME-10)")
    if not dry:
        tx.emit(ev.ReactionSpent(who, pool, f"{ability} ({uses[pool] - 1} use(s) left this combat)"))


def do_swift(enc: Any, tx: View, actor: str, a: SwiftAction, dry: bool) -> None:
    if not a.name:
        raise RuleError("swift_action: give a name (what the swift action does)")
    _use_per_encounter(tx, actor, a.name, True)
    enc.pay(tx, actor, f"swift action: {a.name}", "swift", dry)
    _use_per_encounter(tx, actor, a.name, dry)


def do_immediate(enc: Any, tx: View, actor: str, a: ImmediateAction, dry: bool) -> None:
    if not a.name:
        raise RuleError("immediate_action: give a name (what the immediate action does)")
    who = a.by or actor
    s = tx.state
    _creature_id(enc, s, who, "immediate_action.by")
    if flat_footed(tx, who):
        raise RuleError(f"{who} is flat-footed: no immediate action (EP-ACT-36)")
    if locked(s.get(who)):
        raise RuleError(f"{who} took a full-round action: no immediate action until its next turn (EP-ACT-05)")
    if s.get(who).reactions.get(IMMEDIATE, 0) < 1:
        raise RuleError(f"{who} already took its immediate action this round: one a round (EP-ACT-35)")
    if not enc.ruleset.injury.can_act(enc.creature(who), s.get(who)):
        raise RuleError(f"{who} cannot act")
    _use_per_encounter(tx, who, a.name, True)
    if not dry:
        tx.emit(ev.ReactionSpent(who, IMMEDIATE, f"immediate action: {a.name} (EP-ACT-34/35)"))
        _use_per_encounter(tx, who, a.name, dry)


HOLD_EFFECT = "holding its action (lost if held all the way around, EP-ACT-52)"


def do_hold(enc: Any, tx: View, actor: str, a: Hold, dry: bool) -> None:
    """EP-ACT-47..52: declared before acting; the holder's place moves to just after ``after``."""
    s = tx.state
    turn = s.turn
    assert turn is not None
    if turn.actions_taken or turn.moved or turn.stepped:
        raise RuleError("hold: a creature holds its action before it does anything on its turn (EP-ACT-49)")
    order = list(s.order)
    i = s.turn_index
    if a.after:
        if a.after == actor:
            raise RuleError("hold: a creature cannot hold until after itself")
        if a.after not in order:
            raise RuleError(f"hold.after: no creature {a.after!r} in the initiative order")
    if dry:
        return
    enc.ruleset.end_of_turn(tx, actor)
    if not a.after:
        tx.emit(ev.EffectAdded(actor, HOLD_EFFECT, actor, s.round + 1))
        tx.emit(ev.TurnEnded(actor, "holds its action (EP-ACT-49)"))
        enc._advance(tx)
        return
    j = order.index(a.after)
    rest = [c for c in order if c != actor]
    rest.insert(rest.index(a.after) + 1, actor)
    base = s.get(a.after).initiative
    new_init = (base if base is not None else 0) - 1
    tx.emit(ev.InitiativeRolled(actor, new_init, f"{new_init} = {a.after}'s {base} − 1: holds its action and acts "
                                                 f"right after {a.after}, for the rest of the combat (EP-ACT-51)"))
    tx.emit(ev.OrderSet(rest, [f"{actor} holds its action until {a.after} has acted (EP-ACT-50)"],
                        turn_index_shift=-1 if j > i else 0))
    if getattr(enc.ruleset.options, "ep_hold_tie_in_later_rounds", "") == "tie_break" and any(
            s.get(c).initiative == new_init for c in order if c != actor):
        tx.emit(ev.EffectAdded(actor, HELD_TIE, actor, s.round + 1))  # EP-ACT-51: placed at the next round's start
    tx.emit(ev.TurnEnded(actor, f"holds its action until {a.after} has acted (EP-ACT-49)"))
    enc._advance(tx)


READY_PREFIX = "readied: "
_READY = re.compile(r"^readied: attack (?P<target>\S*) with (?P<attack>\S+) when (?P<trigger>\S+) starts its turn$")


def do_ready(enc: Any, tx: View, actor: str, a: Ready, dry: bool) -> None:
    """EP-ACT-54..56: a standard action; the trigger is a creature (or ``any``), the action an attack."""
    s = tx.state
    if not a.trigger:
        raise RuleError("ready.trigger: name the creature whose turn starts the readied attack, or 'any' "
                            "(EP-ACT-56: a clear trigger)")
    if a.trigger != "any":
        _creature_id(enc, s, a.trigger, "ready.trigger")
    if a.target:
        _creature_id(enc, s, a.target, "ready.target")
        if a.target == actor:
            raise RuleError("ready.target: a creature cannot attack itself")
    attack = a.attack or s.get(actor).wielding
    if not attack:
        raise RuleError("ready.attack: the creature holds no weapon to ready an attack with")
    try:
        enc.creature(actor).attack(attack)
    except KeyError:
        raise RuleError(f"ready.attack: {actor} has no attack {attack!r}") from None
    if any(e.name.startswith(READY_PREFIX) for e in s.get(actor).effects):
        raise RuleError("ready: an action is already readied")
    enc.pay(tx, actor, "ready an action", "standard", dry)  # EP-ACT-54
    if not dry:
        name = f"{READY_PREFIX}attack {a.target} with {attack} when {a.trigger} starts its turn"
        tx.emit(ev.EffectAdded(actor, name, actor, s.round + 1))  # EP-ACT-59: lost when its turn comes again


def fire_readied(view: View, starting: str) -> None:
    """EP-ACT-57/58/61: ``starting``'s turn begins — every readied attack whose trigger it meets resolves now, as
    an interrupt, whether the trigger is friend or foe, in this round or the next."""
    enc = getattr(view, "engine", None)
    if enc is None:
        return
    for cid in list(view.state.order):
        c = view.state.get(cid)
        for effect in c.effects:
            found = _READY.match(effect.name)
            if cid == starting or found is None or found["trigger"] not in (starting, "any"):
                continue
            view.emit(ev.EffectEnded(cid, effect.name))
            if not enc.on_map(cid, view.state) or not enc.ruleset.injury.can_act(enc.creature(cid),
                                                                                  view.state.get(cid)):
                view.emit(ev.Note(f"{cid}'s readied attack is lost: it cannot act"))
                continue
            target = found["target"] or starting
            try:
                plan = enc.plan_attack(cid, target, found["attack"], state=view.state)
            except D20CombatError as exc:
                view.emit(ev.Note(f"{cid}'s readied attack on {target} cannot be made: {exc}"))
                continue
            view.emit(ev.Note(f"{starting} starts its turn: {cid}'s readied attack on {target} interrupts "
                              "(EP-ACT-57)"))
            enc.roll_attack(view, plan)


def do_action_point(enc: Any, tx: View, actor: str, a: SpendActionPoint, dry: bool) -> None:
    """EP-MISC-22..25, EP-ACT-53: the benefit of the current combat round, or a standard action after a charge."""
    s = tx.state
    turn = s.turn
    assert turn is not None
    if s.get(actor).reactions.get(ACTION_POINTS, 0) < 1:
        raise RuleError(f"{actor} has no action point left (one each combat, EP-MISC-22)")
    if dry:
        return
    after_charge = charged_this_turn(tx, actor)
    round_no = combat_round(s)
    grants, text = action_point_benefit(round_no, after_charge=after_charge)
    if after_charge:
        pools = dict(grants)  # EP-MISC-25: the unused move and swift actions stay lost
        why = f"action point after a charge: {text} (EP-MISC-25)"
    else:
        pools = dict(turn.pools)
        for pool, n in grants.items():
            pools[pool] = max(pools.get(pool, 0), 0) + n
        surprise = " (the surprise round counts as round 1, EP-SURP-23)" if s.surprise_round else ""
        why = f"action point in combat round {round_no}{surprise}: {text} (EP-MISC-23, data/ep_action_points.yaml)"
    spend_action_point(tx, actor, why)
    tx.emit(ev.TurnPoolsSet(actor, pools, why))


def spend_action_point(tx: View, actor: str, why: str) -> None:
    """Take one action point from ``actor``'s pool on its own turn, explained as spending, not as a reaction: the
    core's ``ReactionSpent`` reads "<x> reacts: …", so the pools are set (``ReactionsSet``, silent) and a note says
    "<x> spends an action point: <benefit> (<n> left)"."""
    reactions = dict(tx.state.get(actor).reactions)
    reactions[ACTION_POINTS] = reactions.get(ACTION_POINTS, 0) - 1
    tx.emit(ev.ReactionsSet(actor, reactions))
    tx.emit(ev.Note(f"{actor} spends an action point: {why}; {reactions[ACTION_POINTS]} left"))


PART_OF_MOVE_ACTIVITIES = frozenset({"draw-potion", "pick-up-item"})
"""EP-ACT-30: the named activities that are "part of a move action" besides drawing and sheathing a weapon."""


def _part_of_move(enc: Any, tx: View, actor: str, name: str, dry: bool) -> None:
    """EP-ACT-27..30: carried by a move action already taken this turn, or else paying a move action of its own
    (which then carries nothing more)."""
    turn = tx.state.turn
    assert turn is not None
    if turn.pools.get(PART_OF_MOVE, 0) > 0:
        if not dry:
            tx.emit(ev.BudgetSpent(actor, f"{name}, carried by the move action taken (EP-ACT-27)", "part-of-move",
                                   {PART_OF_MOVE: 1}))
        return
    enc.pay(tx, actor, name, "move", dry)
    if not dry and tx.state.turn is not None and tx.state.turn.pools.get(PART_OF_MOVE, 0) > 0:
        tx.emit(ev.BudgetSpent(actor, name, "none", {PART_OF_MOVE: 1}))


def do_draw(enc: Any, tx: Any, actor: str, a: Draw, dry: bool) -> None:
    from d20combat.encounter import equipment_actions as eq  # the encounter imports the rulesets

    if tx.state.get(actor).wielding == a.attack:
        raise RuleError(f"draw: {actor} already holds {a.attack}")
    eq._option(enc, actor, a.attack, tx.state)
    _part_of_move(enc, tx, actor, f"draw {a.attack}", dry)
    eq._change_wielding(enc, tx, actor, a.attack, dry)


def do_sheathe(enc: Any, tx: Any, actor: str, a: Sheathe, dry: bool) -> None:
    from d20combat.encounter import equipment_actions as eq

    if tx.state.get(actor).wielding is None:
        raise RuleError("sheathe: nothing in hand")
    _part_of_move(enc, tx, actor, "sheathe", dry)
    eq._change_wielding(enc, tx, actor, None, dry)


FULL_ROUND_PENDING = "full-round action under way: "
"""The prefix of the effect that carries a full-round activity until the end of the turn, when it takes effect
(EP-ACT-04)."""


def do_activity(enc: Any, tx: Any, actor: str, a: Activity, dry: bool) -> None:
    from d20combat.encounter import equipment_actions as eq
    from d20combat.encounter.resolution import action_catalogue

    if a.name in PART_OF_MOVE_ACTIVITIES:
        _part_of_move(enc, tx, actor, a.name, dry)
        return
    eq.do_activity(enc, tx, actor, a, dry)
    if not dry and action_catalogue().get(a.name, "standard") == "full-round":
        tx.emit(ev.EffectAdded(actor, FULL_ROUND_PENDING + a.name, actor, tx.state.round + 1))


def settle_full_round(view: View, actor: str) -> None:
    """EP-ACT-04: the effects of a full-round action occur at the end of the current turn — the activity taken as a
    full-round action takes effect now. (Total defense is the exception: its AC applies from the start, EP-DEF-15.)"""
    for effect in view.state.get(actor).effects:
        if effect.name.startswith(FULL_ROUND_PENDING):
            name = effect.name.removeprefix(FULL_ROUND_PENDING)
            view.emit(ev.EffectEnded(actor, effect.name))
            view.emit(ev.Note(f"{actor}'s {name} takes effect at the end of its turn, a full-round action "
                              "(EP-ACT-04)"))


TIME_AND_TURN_ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(Draw, do_draw),
    ActionSpec(Sheathe, do_sheathe),
    ActionSpec(SwiftAction, do_swift),
    ActionSpec(ImmediateAction, do_immediate),
    ActionSpec(Hold, do_hold),
    ActionSpec(Ready, do_ready),
    ActionSpec(SpendActionPoint, do_action_point),
)
"""The actions of time and the turn, registered by :class:`EpicPath`'s action set. (An ``activity`` is resolved by
:func:`do_activity` through the melee chapter's handler, which checks offensive abilities while fighting
defensively afterwards: ``maneuvers.DefensiveAbilities.activity``.)"""

__all__ = ["FULL_ROUND_PENDING", "TIME_AND_TURN_ACTIONS", "Hold", "ImmediateAction", "Ready", "SpendActionPoint",
           "SwiftAction", "action_point_benefit", "fire_readied", "settle_full_round", "spend_action_point"]
