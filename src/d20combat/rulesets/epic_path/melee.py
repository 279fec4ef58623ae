"""Epic Path's melee actions: the severable full attack (EP-ACT-07..16), fighting defensively (EP-DEF-01..11) and
total defense (EP-DEF-12..18).

The full attack is taken one attack at a time (``full_attack`` with its target and weapon, EP-ACT-12): the first is
the standard-action portion at the highest bonus (EP-ACT-09) and needs the move action still unspent
(EP-ACT-08); the later ones (−5 each, from the base attack bonus, EP-ACT-07) spend the move action with the
second. Until that second attack the full attack may be severed: the move action stays, for anything
(EP-ACT-13) — but after a 5-foot step not for moving (EP-ACT-14). The one 5-foot step may come before, between or
after the attacks (EP-ACT-15). What is left of the full attack is the turn's ``full_attack`` pool."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier
from d20combat.rulesets.components import RuleError
from d20combat.rulesets.epic_path.reactions import TOTAL_DEFENSE

if TYPE_CHECKING:
    from d20combat.encounter.engine import Encounter, Tx
    from d20combat.rulesets.epic_path.options import EpOptions

FULL_ATTACK = "full_attack"
"""The turn's pool of attacks left in a full attack begun."""
ORDINALS = ("", "first", "second", "third", "fourth")
FIGHTING_DEFENSIVELY = "fighting defensively"
"""The name of fighting defensively's effect (EP-DEF-02/03)."""


def attacks_in_full_attack(creature: Creature) -> int:
    """EP-ACT-07, EP-ATK-04: one attack, and one more for every full 5 points of base attack bonus above +1
    (+6/+1, +11/+6/+1, +16/+11/+6/+1): the PF1 iterative attacks the text refers to ("higher level gives more")."""
    bab = creature.attack_bonus
    return 1 + max(0, min(3, (bab - 1) // 5))


def acrobatics_ranks(creature: Creature) -> int:
    """Ranks in Acrobatics (EP-DEF-04/14): the stat block's ``attributes.acrobatics_ranks``."""
    return next((int(v) for k, v in creature.sheet.attributes.items() if k.lower() == "acrobatics_ranks"), 0)


def has_effect(engine: Encounter, tx: Tx, cid: str, name: str) -> bool:
    return any(e.name == name for e in tx.state.get(cid).effects)


@dataclass(frozen=True, slots=True)
class FullAttack(ax.Action):
    """One attack of a full attack (EP-ACT-07..16): the first begins it (standard action, highest bonus); each
    later one names its own target (EP-ACT-12) and weapon (EP-ACT-10)."""

    kind: ClassVar[str] = "full_attack"
    target: str = ""
    attack: str | None = None

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Full attack: strike {name(self.target)}" + (f" with {self.attack}" if self.attack else "")


@dataclass(frozen=True, slots=True)
class FightDefensively(ax.Action):
    """Declare fighting defensively at the start of the turn (EP-DEF-01): −4 on all attacks, +2 dodge to AC (+3
    with 5 ranks of Acrobatics) until the start of the next turn."""

    kind: ClassVar[str] = "fight_defensively"

    def label(self, name: Callable[[str], str] = str) -> str:
        return "Fight defensively"


@dataclass(frozen=True, slots=True)
class TotalDefense(ax.Action):
    """Total defense (EP-DEF-12..18): a full-round action that ends the turn; +4 dodge to AC (+6 with 5 ranks of
    Acrobatics) at once, until the start of the next turn; no attacks, attacks of opportunity included."""

    kind: ClassVar[str] = "total_defense"

    def label(self, name: Callable[[str], str] = str) -> str:
        return "Total defense"


class MeleeActions:
    """The handlers of the full attack, fighting defensively and total defense, with Epic Path's options."""

    def __init__(self, opts: EpOptions) -> None:
        self.opts = opts

    # --- the full attack ------------------------------------------------------------------------------------
    def full_attack(self, engine: Encounter, tx: Tx, actor: str, a: FullAttack, dry: bool) -> None:
        turn = tx.state.turn
        assert turn is not None
        creature = engine.creature(actor)
        n = attacks_in_full_attack(creature)
        left = turn.pools.get(FULL_ATTACK)
        if has_effect(engine, tx, actor, TOTAL_DEFENSE):
            raise RuleError("full attack: no attacks while in total defense (EP-DEF-17)")
        if left is None:  # the first attack: the standard-action portion
            if engine.allowance(actor, tx.state).single_action:
                raise RuleError("full attack: needs the standard and the move action; only one action is allowed "
                                "this turn (EP-ACT-08)")
            if not (turn.standard and turn.move):
                raise RuleError("full attack: needs both the standard and the move action still unspent (EP-ACT-08)")
            number, penalty = 1, 0
        elif left <= 0:
            raise RuleError(f"full attack: all {n} attacks of the full attack are made (EP-ACT-07)")
        else:
            number = n - left + 1
            penalty = -5 * (number - 1)
            if number == 2 and not turn.move:
                raise RuleError("full attack: the move action went to something else — the full attack was severed "
                                "after its first attack (EP-ACT-13)")
        extra = (Modifier(penalty, f"{ORDINALS[number]} attack"),) if penalty else ()
        plan = engine.plan_attack(actor, a.target, a.attack, state=tx.state, extra=extra)
        if plan.option.weapon.reload != "none":
            raise RuleError(f"full attack: {plan.option.name} must be reloaded between shots; attack with it instead")
        if number == 1:
            engine.pay(tx, actor, f"full attack: attack 1 of {n} on {a.target}", "standard", dry)
        if dry:
            return
        if number == 1:
            pools = dict(tx.state.turn.pools) if tx.state.turn else {}
            pools[FULL_ATTACK] = n - 1
            tx.emit(ev.TurnPoolsSet(actor, pools, f"a full attack of {n} attacks begun at the highest bonus "
                                                  f"(EP-ACT-09); it may be severed after this attack (EP-ACT-13)"))
        elif number == 2:
            tx.emit(ev.BudgetSpent(actor, f"full attack: attack 2 of {n} on {a.target}", "move",
                                   {"move": 1, FULL_ATTACK: 1}))
        else:
            tx.emit(ev.BudgetSpent(actor, f"full attack: attack {number} of {n} on {a.target}", "none",
                                   {FULL_ATTACK: 1}))
        engine.roll_attack(tx, plan)

    # --- fighting defensively and total defense --------------------------------------------------------------
    def fight_defensively(self, engine: Encounter, tx: Tx, actor: str, a: FightDefensively, dry: bool) -> None:
        """EP-DEF-01..04, EP-DEF-11: declared before anything else this turn; −4 on all attacks (attacks of
        opportunity and readied attacks too, EP-DEF-02) and +2 dodge to AC, +3 with 5 ranks of Acrobatics
        (EP-DEF-03/04), until the start of its next turn."""
        turn = tx.state.turn
        assert turn is not None
        if has_effect(engine, tx, actor, FIGHTING_DEFENSIVELY):
            raise RuleError(f"fight defensively: {actor} is already fighting defensively")
        if turn.actions_taken or turn.moved or turn.stepped or FULL_ATTACK in turn.pools:
            raise RuleError("fight defensively: declared at the start of the turn, before any action (EP-DEF-01/11)")
        if dry:
            return
        creature = engine.creature(actor)
        ranks = acrobatics_ranks(creature)
        dodge = 3 if ranks >= 5 else 2
        why = f"+{dodge} dodge" + (f" ({ranks} ranks of Acrobatics, EP-DEF-04)" if dodge == 3 else " (EP-DEF-03)")
        tx.emit(ev.EffectAdded(actor, FIGHTING_DEFENSIVELY, actor, tx.state.round + 1, ac=dodge, attack=-4))
        tx.emit(ev.Note(f"{actor} fights defensively: −4 on all attacks (EP-DEF-02), {why} to AC, until the start "
                        f"of its next turn"))

    def total_defense(self, engine: Encounter, tx: Tx, actor: str, a: TotalDefense, dry: bool) -> None:
        """EP-DEF-12..18: a full-round action (EP-DEF-12; in a turn of one action, that action; a standard action
        with the option ``ep_total_defense_action: standard``); +4 dodge to AC,
        +6 with 5 ranks of Acrobatics (EP-DEF-13/14), from the start of the action (EP-DEF-15) until the start of
        the next turn; not with fighting defensively (EP-DEF-16); it ends the turn at once (EP-DEF-18)."""
        if has_effect(engine, tx, actor, FIGHTING_DEFENSIVELY):
            raise RuleError("total defense: cannot be combined with fighting defensively (EP-DEF-16)")
        single = engine.allowance(actor, tx.state).single_action or tx.state.surprise_round  # EP-SURP-22
        standard = single or self.opts.ep_total_defense_action == "standard"  # EP-DEF-12 option (the L147 list)
        engine.pay(tx, actor, "total defense", "standard" if standard else "full-round", dry)
        if dry:
            return
        creature = engine.creature(actor)
        ranks = acrobatics_ranks(creature)
        dodge = 6 if ranks >= 5 else 4
        tx.emit(ev.EffectAdded(actor, TOTAL_DEFENSE, actor, tx.state.round + 1, ac=dodge))
        tx.emit(ev.Note(f"{actor} takes total defense: +{dodge} dodge to AC"
                        + (f" ({ranks} ranks of Acrobatics, EP-DEF-14)" if dodge == 6 else " (EP-DEF-13)")
                        + ", no attacks of opportunity (EP-DEF-17); the turn ends (EP-DEF-18)"))
        engine.ruleset.end_of_turn(tx, actor)
        tx.emit(ev.TurnEnded(actor, "total defense ends the turn (EP-DEF-18)"))
        engine._advance(tx)
