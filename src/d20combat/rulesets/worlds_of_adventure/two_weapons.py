"""Fighting with two weapons (WOA-TWF-01..11): a full attack with one extra attack from the off hand, at a penalty on
every attack roll of the round.

The two-weapon full attack is the declared full-round action ``two_weapon_attack``, taken one attack at a time
(:class:`TwoWeaponAttack`, ``hand: main | off``): the main hand's attacks (one; two with base attack bonus +6,
WOA-ATK-08's literal reading) and one with the off-hand weapon (the stat block's attack marked ``off_hand: true``).

- WOA-TWF-01/02: one extra attack a round with the off-hand weapon, only within this full attack.
- WOA-TWF-03: −8 on *all* the round's attack rolls, both hands (and any other attack that round: an effect until
  the round's end).
- WOA-TWF-04/05: −2 less with a light off-hand weapon; an unarmed strike is always light.
- WOA-TWF-06/07: the Two-Weapon Fighting feat, 4 less (−2 with a light off-hand weapon).
- WOA-TWF-08/09: the same when throwing a weapon from each hand — darts and shuriken are light, javelins and slings
  one-handed (the weapon table's ``hands``).
- WOA-TWF-10/11: a shield bash as the off-hand attack (an attack whose weapon is named ``shield…`` or has the
  quality ``shield_bash``) takes the same penalties; Improved Shield Bash reduces them by 4, not stacking with the
  Two-Weapon Fighting feat (``woa_shield_bash_feats_stack`` reads it the other way: −8 + 4 + 4 = 0).
- WOA-ITEM-06 (drawing, :mod:`.items`): the off-hand weapon is at hand unless the condition :data:`OFF_HAND_AWAY`
  says it is put away; then it must be drawn (a draw of the off-hand attack) before a two-weapon attack — with the
  Two-Weapon Fighting feat, drawing the main weapon draws it too when both are light or one-handed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Literal

from d20combat.encounter import events as ev
from d20combat.encounter.actions import Action
from d20combat.model.creature import AttackOption, Creature
from d20combat.numbers import Modifier
from d20combat.rulesets.components import ActionSet, ActionSpec, RuleError, View

TWF_EFFECT = "two weapons ("
"""The round's penalty on every attack roll (WOA-TWF-03..07, 10/11): the effect's name begins so."""
MAIN, OFF = "twf_main", "twf_off"
"""The turn's pools of attacks left in a two-weapon full attack."""
OFF_HAND_AWAY = "off_hand_sheathed"
"""WOA-ITEM-06: the off-hand weapon (the stat block's attack marked ``off_hand``) is put away — set by the GM
(``gm_condition``) or a scenario's starting ``conditions``; without it the off-hand weapon is at hand. Drawing it
(:mod:`.items`) lifts it."""


@dataclass(frozen=True, slots=True)
class TwoWeaponAttack(Action):
    """One attack of a two-weapon full attack (WOA-TWF-01/02): ``hand`` main or off, each at its own target."""

    kind: ClassVar[str] = "two_weapon_attack"
    target: str = ""
    hand: Literal["main", "off"] = "main"

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Two-weapon attack on {name(self.target)} ({self.hand} hand)"


def off_hand_option(creature: Creature, wielding: str | None) -> AttackOption | None:
    """The weapon in the off hand: the stat block's attack marked ``off_hand``, other than the one in hand."""
    return next((o for o in creature.attacks if o.off_hand and o.name != wielding), None)


def draws_both(creature: Creature, main: AttackOption, off: AttackOption) -> bool:
    """WOA-ITEM-06: the Two-Weapon Fighting feat draws two light or one-handed weapons in the time of one."""
    return creature.has_feat("two_weapon_fighting") and all(
        o.weapon.hands in ("light", "one") and not o.two_handed for o in (main, off))


def is_shield_bash(option: AttackOption) -> bool:
    return option.weapon.name.lower().startswith("shield") or "shield_bash" in option.weapon.qualities


def is_light(option: AttackOption) -> bool:
    """WOA-TWF-04/05/09: light by the weapon table; an unarmed strike always."""
    return option.weapon.hands == "light" or option.weapon.skill == "unarmed"


def two_weapon_penalty(creature: Creature, off: AttackOption, *, shield_feats_stack: bool = False) -> Modifier:
    """WOA-TWF-03..07, 10/11: −8; +2 light off hand; +4 Two-Weapon Fighting; +4 Improved Shield Bash with a shield
    bash (the better of the two feats, or both with ``shield_feats_stack``)."""
    value, parts = -8, ["−8 (WOA-TWF-03)"]
    if is_light(off):
        value += 2
        parts.append(f"+2 light off hand {off.name} (WOA-TWF-04/05)")
    twf = 4 if creature.has_feat("two_weapon_fighting") else 0
    isb = 4 if is_shield_bash(off) and creature.has_feat("improved_shield_bash") else 0
    cut = twf + isb if shield_feats_stack else max(twf, isb)
    if cut:
        value += cut
        names = [n for n, v in (("Two-Weapon Fighting", twf), ("Improved Shield Bash", isb)) if v]
        how = " + ".join(names) if shield_feats_stack or len(names) == 1 else f"the better of {' and '.join(names)}"
        parts.append(f"+{cut} {how} (WOA-TWF-06/07/10)")
    return Modifier(value, f"two weapons ({', '.join(parts)})")


class WoaTwoWeapons(ActionSet):
    """WOA-TWF-01..11."""

    def __init__(self, *, shield_feats_stack: bool = False, main_attacks: Callable[[Creature], int] | None = None
                 ) -> None:
        super().__init__(own=[ActionSpec(TwoWeaponAttack, self.attack)])
        self.shield_feats_stack = shield_feats_stack
        self.main_attacks = main_attacks or (lambda c: 2 if c.sheet.attack_bonus >= 6 else 1)
        """The main hand's attacks in a full attack (WOA-ATK-08, literal reading: two from BAB +6)."""

    def attack(self, enc: Any, tx: Any, actor: str, a: TwoWeaponAttack, dry: bool) -> None:
        s = tx.state
        turn = s.turn
        assert turn is not None
        creature, cs = tx.creature(actor), s.get(actor)
        off = off_hand_option(creature, cs.wielding)
        if off is None or cs.wielding is None:
            raise RuleError(f"two-weapon attack: {actor} needs a weapon in hand and one marked off_hand in the other "
                            "(WOA-TWF-01)")
        if cs.has(OFF_HAND_AWAY):
            raise RuleError(f"two-weapon attack: {actor}'s off-hand {off.name} is put away ({OFF_HAND_AWAY}): draw "
                            "it first (WOA-ITEM-01/06)")
        started = MAIN in turn.pools
        left = turn.pools.get(MAIN if a.hand == "main" else OFF, 0) if started else \
            (self.main_attacks(creature) if a.hand == "main" else 1)
        if left <= 0:
            raise RuleError(f"two-weapon attack: no {a.hand}-hand attack left in this full attack (WOA-TWF-01, "
                            "WOA-ATK-08)")
        option = creature.attack(cs.wielding) if a.hand == "main" else off
        penalty = two_weapon_penalty(creature, off, shield_feats_stack=self.shield_feats_stack)
        as_held = s if a.hand == "main" else s.with_combatant(replace(cs, wielding=off.name))
        extra = () if started else (penalty,)  # later attacks: the round's effect carries it
        plan = enc.plan_attack(actor, a.target, option.name, state=as_held, extra=extra)
        if not started:
            enc.pay(tx, actor, f"two-weapon full attack on {a.target}", "full-round", dry)  # WOA-TWF-02
        if dry:
            return
        if not started:
            pools = dict(tx.state.turn.pools)
            pools.update({MAIN: self.main_attacks(creature), OFF: 1})
            tx.emit(ev.TurnPoolsSet(actor, pools, f"a two-weapon full attack: {pools[MAIN]} main-hand and 1 "
                                                  f"off-hand attack with {off.name} (WOA-TWF-01/02)"))
            tx.emit(ev.EffectAdded(actor, penalty.source, actor, s.round + 1, attack=penalty.value))
            tx.emit(ev.Note(f"{actor} fights with two weapons: {penalty.value:+d} on all its attack rolls this round: "
                            f"{penalty.source[len('two weapons ('):-1]}"))
        tx.emit(ev.BudgetSpent(actor, f"{a.hand}-hand attack on {a.target}", "none",
                               {MAIN if a.hand == "main" else OFF: 1}))
        enc.roll_attack(tx, plan)

    def end_of_round(self, view: View, round_no: int) -> None:
        """WOA-TWF-03: the penalty is the round's."""
        for cid, c in view.state.combatants.items():
            for e in c.effects:
                if e.name.startswith(TWF_EFFECT):
                    view.emit(ev.EffectEnded(cid, e.name))
