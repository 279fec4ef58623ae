"""Handling items in combat (WOA-ITEM-01..33): drawing and putting away, shields, retrieving and manipulating,
dropping and hurling, potions, wands, scrolls and command-word devices — each an action with its cost.

The costs are this module's :data:`ITEM_COSTS` (the Actions in Combat table is W2's ``data/woa_actions.yaml``,
not in this tree yet: keep the two in step when it lands). Drawing and the shield keep the core's actions
(``draw``, ``shield``) with WOA's costs; the rest are WOA's own actions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.rulesets.components import ActionSet, ActionSpec, RuleError, View
from d20combat.rulesets.worlds_of_adventure import spell_timing as st
from d20combat.rulesets.worlds_of_adventure.options import WoaOptions
from d20combat.rulesets.worlds_of_adventure.spell_components import hands_full
from d20combat.rulesets.worlds_of_adventure.spell_data import device_table, need, potion_table, spell, use_up
from d20combat.rulesets.worlds_of_adventure.spells import CastSpell, WoaSpells
from d20combat.rulesets.worlds_of_adventure.two_weapons import OFF_HAND_AWAY, draws_both, off_hand_option

if TYPE_CHECKING:
    from d20combat.encounter.resolution import Tx

Cost = Literal["standard", "move", "full-round", "free"]

ITEM_COSTS: dict[str, Cost] = {
    "draw": "move",                 # WOA-ITEM-01/02: a weapon, or a wand in a bandolier or holster
    "sheathe": "move",              # WOA-ITEM-01
    "retrieve:belt": "move",        # WOA-ITEM-16: a belt pouch or similar easy-reach container
    "retrieve:bandolier": "move",   # WOA-ITEM-02
    "retrieve:floor": "move",       # WOA-ITEM-13: picking up an item within reach
    "retrieve:pack": "full-round",  # WOA-ITEM-03/16: a backpack, or a weapon out of easy reach (at least)
    "manipulate:door": "move",      # WOA-ITEM-13: opening or closing a door not locked or stuck
    "manipulate:item": "move",      # WOA-ITEM-13: moving or manipulating an item briefly
    "manipulate:stuck_door": "full-round",  # WOA-ITEM-14
    "manipulate:heavy_object": "full-round",  # WOA-ITEM-14: moving a heavy table
    "manipulate:torch": "full-round",  # WOA-ITEM-14: lighting or extinguishing a torch
    "hurl": "move",                 # WOA-ITEM-19: hurling an item so that it lands farther away
    "drink": "standard",            # WOA-ITEM-21
    "administer": "full-round",     # WOA-ITEM-22
    "wand": "standard",             # WOA-ITEM-26
    "scroll": "full-round",         # WOA-ITEM-27: at least
}
"""WOA-ITEM: the action each item interaction takes (the text's defaults; the DM may rule otherwise)."""

def _equipment() -> Any:
    """The core's equipment handlers (imported when used: the encounter imports the rulesets)."""
    from d20combat.encounter import equipment_actions

    return equipment_actions


ON_THE_MOVE = "drew_on_the_move"
"""Drew a weapon or readied a shield for free during this turn's move (WOA-ITEM-05/11): once a move."""


@dataclass(frozen=True, slots=True)
class RetrieveItem(ax.Action):
    """Retrieve an item (WOA-ITEM-13/15/16): from a belt pouch, a bandolier, the floor within reach, or a pack. An
    item that is one of the creature's attacks ends in its hand."""

    kind: ClassVar[str] = "retrieve_item"
    item: str = ""
    where: Literal["belt", "bandolier", "floor", "pack", "stowed"] = "belt"

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Retrieve {self.item} from the {self.where}"


@dataclass(frozen=True, slots=True)
class Manipulate(ax.Action):
    """Manipulate an object (WOA-ITEM-13/14/19): ``door``, ``item``, ``stuck_door``, ``heavy_object``, ``torch``, or
    ``hurl`` the held item away."""

    kind: ClassVar[str] = "manipulate"
    task: str = "item"

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Manipulate: {self.task.replace('_', ' ')}"


@dataclass(frozen=True, slots=True)
class DrinkPotion(ax.Action):
    """Drink a potion (standard, WOA-ITEM-21), or pour it into an unconscious or immobilized ``target`` within reach
    (full-round, WOA-ITEM-22)."""

    kind: ClassVar[str] = "drink_potion"
    potion: str = ""
    target: str | None = None

    def label(self, name: Callable[[str], str] = str) -> str:
        who = f" to {name(self.target)}" if self.target else ""
        return f"{'Administer' if self.target else 'Drink'} a potion of {self.potion.replace('_', ' ')}{who}"


@dataclass(frozen=True, slots=True)
class UseItem(ax.Action):
    """Use a wand (standard, WOA-ITEM-26) or read a scroll (full-round at least, WOA-ITEM-27) of ``spell`` at
    ``target``."""

    kind: ClassVar[str] = "use_item"
    item: Literal["wand", "scroll"] = "wand"
    spell: str = ""
    target: str | None = None

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Use a {self.item} of {self.spell.replace('_', ' ')}" + (f" at {name(self.target)}"
                                                                         if self.target else "")


@dataclass(frozen=True, slots=True)
class ActivateDevice(ax.Action):
    """Activate a device (WOA-ITEM-30..33): its ``activation_action`` in ``data/woa_spells.yaml``."""

    kind: ClassVar[str] = "activate_device"
    device: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Activate {self.device.replace('_', ' ')}"


@dataclass(frozen=True, slots=True)
class DrawHidden(ax.Action):
    """Draw a hidden weapon with Sleight of Hand (WOA-ITEM-08): a standard action or less, by the check (MISSING:
    the thresholds — option ``woa_hidden_draw_action``). The first attack with it this round is a surprise attack
    (WOA-ITEM-09): the flag ``drew_hidden:<weapon>`` until the round ends, for the attack and defense components."""

    kind: ClassVar[str] = "draw_hidden"
    attack: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Draw the hidden {self.attack}"


HIDDEN_DRAW = "drew_hidden:"


class WoaItems(ActionSet):
    """WOA-ITEM-01..33: item handling with its costs, and the rounds it costs the combat reactions."""

    def __init__(self, options: WoaOptions, spells: WoaSpells) -> None:
        super().__init__([ActionSpec(ax.Draw, self.draw), ActionSpec(ax.ShieldAction, self.shield),
                          ActionSpec(RetrieveItem, self.retrieve), ActionSpec(Manipulate, self.manipulate),
                          ActionSpec(DrinkPotion, self.drink), ActionSpec(UseItem, self.use_item),
                          ActionSpec(ActivateDevice, self.activate), ActionSpec(DrawHidden, self.draw_hidden)])
        self.o = options
        self.spells = spells

    # --- drawing and shields ------------------------------------------------------------------------------------
    def _on_the_move(self, tx: View, actor: str) -> bool:
        """WOA-ITEM-05/11: BAB +1 or more, and this turn's move action spent moving, not yet used for this."""
        turn = tx.state.turn
        return (tx.creature(actor).attack_bonus >= 1 and turn is not None and turn.moved
                and not tx.state.get(actor).has(ON_THE_MOVE))

    def draw(self, engine: Any, tx: Tx, actor: str, a: ax.Draw, dry: bool) -> None:
        """WOA-ITEM-01/02: a move action; WOA-ITEM-04: free with Quick Draw; WOA-ITEM-05: free with BAB ≥ +1,
        combined with a move. WOA-ITEM-06: an off-hand weapon put away (``off_hand_sheathed``) is drawn into the off
        hand by a draw of its own — or together with the main weapon, with the Two-Weapon Fighting feat."""
        cs, creature = tx.state.get(actor), tx.creature(actor)
        off = off_hand_option(creature, cs.wielding) if cs.has(OFF_HAND_AWAY) else None
        to_off_hand = off is not None and a.attack == off.name
        if cs.wielding == a.attack:
            raise RuleError(f"draw: {actor} already holds {a.attack}")
        _equipment()._option(engine, actor, a.attack, tx.state)
        main = creature.attack(a.attack)
        both = off is not None and not to_off_hand and off.name != a.attack and draws_both(creature, main, off)
        quick = tx.creature(actor).has_feat("quick_draw")
        moving = not quick and self._on_the_move(tx, actor)
        cost: Cost = "free" if quick or moving else ITEM_COSTS["draw"]
        engine.pay(tx, actor, f"draw {a.attack}" + (f" and {off.name}" if both and off else ""), cost, dry)
        if not dry:
            why = "Quick Draw: a free action (WOA-ITEM-04)" if quick else \
                "drawn during its move: BAB +1 or more (WOA-ITEM-05)" if moving else "a move action (WOA-ITEM-01)"
            what = f"{a.attack} into its off hand" if to_off_hand else a.attack
            tx.emit(ev.Note(f"{actor} draws {what}: {why}"))
            if moving:
                tx.emit(ev.ConditionSet(actor, ON_THE_MOVE, True, "drew during its move (WOA-ITEM-05)"))
            if to_off_hand:
                tx.emit(ev.ConditionSet(actor, OFF_HAND_AWAY, False, f"draws {a.attack} into its off hand; the main "
                                                                     "hand is unchanged (WOA-ITEM-06)"))
            elif both and off is not None:
                tx.emit(ev.ConditionSet(actor, OFF_HAND_AWAY, False, f"Two-Weapon Fighting: draws {off.name} with "
                                                                     f"{a.attack}, two light or one-handed weapons "
                                                                     "in the time of one (WOA-ITEM-06)"))
        if not to_off_hand:
            _equipment()._change_wielding(engine, tx, actor, a.attack, dry)

    def draw_hidden(self, engine: Any, tx: Tx, actor: str, a: DrawHidden, dry: bool) -> None:
        """WOA-ITEM-08: a standard action or less (the MISSING Sleight of Hand thresholds: the option's cost)."""
        if tx.state.get(actor).wielding == a.attack:
            raise RuleError(f"draw_hidden: {actor} already holds {a.attack}")
        _equipment()._option(engine, actor, a.attack, tx.state)
        cost: Cost = self.o.woa_hidden_draw_action
        engine.pay(tx, actor, f"draw the hidden {a.attack}", cost, dry)
        if not dry:
            tx.emit(ev.ConditionSet(actor, f"{HIDDEN_DRAW}{a.attack}", True,
                                    f"draws the hidden {a.attack} with Sleight of Hand: a {cost} action (WOA-ITEM-08); "
                                    "its first attack this round is a surprise attack (WOA-ITEM-09)"))
        _equipment()._change_wielding(engine, tx, actor, a.attack, dry)

    def shield(self, engine: Any, tx: Tx, actor: str, a: ax.ShieldAction, dry: bool) -> None:
        """WOA-ITEM-10: readying or loosing a shield is a move action; WOA-ITEM-11: free with BAB ≥ +1, combined
        with a move; WOA-ITEM-12: dropping a carried (not worn) shield is free."""
        _equipment()._change_shield(engine, tx, actor, a.op, True)
        moving = a.op != "drop" and self._on_the_move(tx, actor)
        cost: Cost = "free" if a.op == "drop" or moving else "move"
        engine.pay(tx, actor, f"shield {a.op}", cost, dry)
        if not dry and moving:
            tx.emit(ev.ConditionSet(actor, ON_THE_MOVE, True, f"shield {a.op} during its move (WOA-ITEM-11)"))
        _equipment()._change_shield(engine, tx, actor, a.op, dry)

    # --- retrieving and manipulating ----------------------------------------------------------------------------
    def _manipulated(self, tx: View, actor: str, what: str) -> None:
        """WOA-ITEM-17: no combat reactions in a round in which you manipulate an item (the DM's default)."""
        if self.o.woa_item_costs_reactions and not tx.state.get(actor).has(st.MANIPULATING):
            tx.emit(ev.ConditionSet(actor, st.MANIPULATING, True, f"{what}: no combat reactions this round "
                                                                  "(WOA-ITEM-17)"))

    def retrieve(self, engine: Any, tx: Tx, actor: str, a: RetrieveItem, dry: bool) -> None:
        """WOA-ITEM-02/03/13/15/16: the cost by where the item is; a free hand needed."""
        if not a.item:
            raise RuleError("retrieve_item.item: name the item")
        if a.where == "stowed":
            raise RuleError("retrieve_item: a securely stowed or wrapped item takes longer than a round "
                            "(WOA-ITEM-16): the DM rules it")
        if hands_full(tx, actor):
            raise RuleError(f"retrieve_item: {actor} has no hand free (WOA-ITEM-15)")
        is_weapon = any(o.name == a.item for o in tx.creature(actor).attacks)
        if is_weapon and tx.state.get(actor).wielding is not None:
            raise RuleError(f"retrieve_item: {actor} holds {tx.state.get(actor).wielding}; put it away first "
                            "(WOA-ITEM-15: a free hand)")
        cost = ITEM_COSTS[f"retrieve:{a.where}"]
        engine.pay(tx, actor, f"retrieve {a.item}", cost, dry)
        if dry:
            return
        tx.emit(ev.Note(f"{actor} retrieves {a.item} from the {a.where}: a {cost} action (WOA-ITEM-13/16)"))
        self._manipulated(tx, actor, f"retrieves {a.item}")
        if is_weapon:
            _equipment()._change_wielding(engine, tx, actor, a.item, dry)

    def manipulate(self, engine: Any, tx: Tx, actor: str, a: Manipulate, dry: bool) -> None:
        """WOA-ITEM-13/14 (a move or a full-round action by the task), WOA-ITEM-19 (hurl: a move action)."""
        key = "hurl" if a.task == "hurl" else f"manipulate:{a.task}"
        if key not in ITEM_COSTS:
            tasks = sorted(k.partition(":")[2] for k in ITEM_COSTS if k.startswith("manipulate:"))
            raise RuleError(f"manipulate.task: unknown {a.task!r}; known: {', '.join([*tasks, 'hurl'])}")
        held = tx.state.get(actor).wielding
        if a.task == "hurl" and held is None:
            raise RuleError("manipulate: nothing in hand to hurl (WOA-ITEM-19)")
        engine.pay(tx, actor, a.task.replace("_", " "), ITEM_COSTS[key], dry)
        if dry:
            return
        if a.task == "hurl" and held is not None:
            cs = tx.state.get(actor)
            tx.emit(ev.EquipmentChanged(actor, None, cs.shield_state, sorted(cs.loaded),
                                        f"hurls {held} away: a move action (WOA-ITEM-19)"))
            return
        tx.emit(ev.Note(f"{actor}: {a.task.replace('_', ' ')} — a {ITEM_COSTS[key]} action (WOA-ITEM-13/14)"))
        self._manipulated(tx, actor, a.task.replace("_", " "))

    # --- potions, wands, scrolls, devices -----------------------------------------------------------------------
    def drink(self, engine: Any, tx: Tx, actor: str, a: DrinkPotion, dry: bool) -> None:
        """WOA-ITEM-21..25: drink (standard) or administer (full-round); ongoing potions at the end of the round,
        instantaneous ones at once; no reactions this round."""
        effect = potion_table().get(a.potion)
        if effect is None:
            raise RuleError(f"drink_potion.potion: no potion {a.potion!r} (data/woa_spells.yaml has: "
                            f"{', '.join(sorted(potion_table()))})")
        key = f"potion_{a.potion}"
        need(tx.creature(actor), tx.state.get(actor), key, "drink_potion")
        target = a.target or actor
        s = tx.state
        if target != actor:
            if target not in s.combatants or not engine.on_map(target, s):
                raise RuleError(f"drink_potion.target: no creature {target!r} on the map")
            down = engine.is_helpless(target, s) or s.get(target).has("immobilized") or \
                self.rules.injury.out_of_fight(tx.creature(target), s.get(target))
            if not down or engine.is_dead(target, s):
                raise RuleError(f"drink_potion: {target} is not unconscious or immobilized; a potion is only poured "
                                "into such a creature (WOA-ITEM-22)")
            if footprint_distance_ft(engine.footprint(actor, s), engine.footprint(target, s)) > \
                    tx.creature(actor).reach_ft:
                raise RuleError(f"drink_potion: {target} is beyond reach")
        cost = ITEM_COSTS["drink" if target == actor else "administer"]
        engine.pay(tx, actor, f"potion of {a.potion.replace('_', ' ')}", cost, dry)
        if dry:
            return
        use_up(tx, actor, key, f"potion of {a.potion.replace('_', ' ')}")
        if not tx.state.get(actor).has(st.DRINKING):
            tx.emit(ev.ConditionSet(actor, st.DRINKING, True, "drinks or administers a potion: no combat reactions "
                                                              "this round (WOA-ITEM-25)"))
        label = f"potion of {a.potion.replace('_', ' ')}"
        if effect.ongoing:
            tx.emit(ev.ConditionSet(actor, f"{st.PENDING}{a.potion}:{target}:end_of_round:potion", True,
                                    f"{label} takes effect at the end of the round (WOA-ITEM-23)"))
            return
        tx.emit(ev.Note(f"{label}: instantaneous, takes effect at once (WOA-ITEM-24)"))
        st.apply_effect(tx, self.rules, actor, a.potion, effect, target, 0, label)

    def use_item(self, engine: Any, tx: Tx, actor: str, a: UseItem, dry: bool) -> None:
        """WOA-ITEM-26 (a wand: standard), WOA-ITEM-27..29 (a scroll: full-round at least, concentration like
        casting, no reactions this round)."""
        sp = spell(a.spell, "use_item.spell")
        key = f"{a.item}_{sp.name}"
        need(tx.creature(actor), tx.state.get(actor), key, f"use a {a.item}")
        cost: Cost = ITEM_COSTS[a.item]
        self.spells.cast(engine, tx, actor, CastSpell(sp.name, a.target), dry, source=a.item, cost=cost)

    def activate(self, engine: Any, tx: Tx, actor: str, a: ActivateDevice, dry: bool) -> None:
        """WOA-ITEM-20 (worn items need no activation), WOA-ITEM-30/31 (a command word: a free action, on your own
        turn), WOA-ITEM-32/33 (a longer incantation or an apparatus: its own action)."""
        action = device_table().get(a.device)
        if action is None:
            raise RuleError(f"activate_device.device: no device {a.device!r} (data/woa_spells.yaml has: "
                            f"{', '.join(sorted(device_table()))})")
        need(tx.creature(actor), tx.state.get(actor), f"device_{a.device}", "activate_device")
        if action == "none":
            raise RuleError(f"{a.device.replace('_', ' ')} needs no activation: it works simply by being worn "
                            "(WOA-ITEM-20)")
        if action not in ("free", "move", "standard", "full-round"):
            raise RuleError(f"data/woa_spells.yaml: devices.{a.device}.activation_action {action!r} is not free, "
                            "move, standard or full-round")
        engine.pay(tx, actor, f"activate {a.device.replace('_', ' ')}", action, dry)
        if not dry:
            rule = "WOA-ITEM-30/31: a command word" if action == "free" else "WOA-ITEM-32/33: per the device"
            tx.emit(ev.Note(f"{actor} activates {a.device.replace('_', ' ')}: a {action} action ({rule})"))

    def end_of_turn(self, view: View, actor: str) -> None:
        if view.state.get(actor).has(ON_THE_MOVE):
            view.emit(ev.ConditionSet(actor, ON_THE_MOVE, False, "the turn ends"))

    def end_of_round(self, view: View, round_no: int) -> None:
        for cid, c in view.state.combatants.items():
            for cond in sorted(c.conditions):
                if cond.startswith(HIDDEN_DRAW):
                    view.emit(ev.ConditionSet(cid, cond, False, "the round ends"))


__all__ = ["HIDDEN_DRAW", "ITEM_COSTS", "ActivateDevice", "DrawHidden", "DrinkPotion", "Manipulate", "RetrieveItem",
           "UseItem", "WoaItems"]
