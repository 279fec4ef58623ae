"""The combat cycle (WOA-CYCLE) and the special initiative actions (WOA-INIT): every round everyone declares, then
rolls initiative — d20 + the Reflex save's universal part —, then acts in that order, each carrying out what it
declared.

Built on the shared declaration phase (:class:`DeclareThenRoll`); what Worlds of Adventure adds:

- initiative = d20 + base Reflex + Dex (WOA-CYCLE-17/19), never a resistance bonus or a Reflex modifier against some
  attacks only (WOA-CYCLE-18: a sheet's ``attributes: {ref_resistance: N}`` names the resistance in its printed
  Reflex save); −20 while flat-footed (WOA-CYCLE-03/10, once); ties to the higher modifier, then at random
  (WOA-CYCLE-22/23); one roll for each side of monsters (WOA-CYCLE-20, option ``woa_monster_initiative``);
- the surprised are flat-footed until their first turn (WOA-CYCLE-08); the aware make their surprise attacks before
  round 1 (WOA-CYCLE-07, :mod:`.surprise_attack`);
- a declared attack whose foe is down or gone is ruled by ``woa_invalidated_action`` (WOA-CYCLE-25);
- delay after a named creature (WOA-INIT-02..05) and refocus: next round's die is a 20 (WOA-INIT-26/27).
"""

from __future__ import annotations

from typing import Any

from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState, EncounterState
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier, total
from d20combat.rules.initiative import order_by_initiative
from d20combat.rulesets.components.component import View
from d20combat.rulesets.components.declaration import UNDECLARED, DeclareThenRoll, combat_round
from d20combat.rulesets.worlds_of_adventure.awareness import Awareness, awareness_reading
from d20combat.rulesets.worlds_of_adventure.declare_ai import choose_declaration
from d20combat.rulesets.worlds_of_adventure.defense import capped_dex
from d20combat.rulesets.worlds_of_adventure.options import WoaOptions
from d20combat.rulesets.worlds_of_adventure.ready import TRIGGER_MISSED
from d20combat.rulesets.worlds_of_adventure.surprise_attack import (
    PHASE_NAME,
    open_surprise_attacks,
    surprise_attack_bar,
)

FLAT_FOOTED = "flat_footed"
"""Surprised at the start of the battle and not yet able to act (WOA-CYCLE-08)."""

REFOCUSED = "refocused"
"""Refocused this round: next round's initiative die is a 20 (WOA-INIT-26/27)."""

MOVE_KINDS = frozenset({"move", "draw", "sheathe", "reload", "stand_up", "shield", "climb_or_swim", "minimum_move",
                        "drop_prone",
                        "crawl",  # WOA-MOVE-46 (W2)
                        "get_up",  # WOA-MOVE-35..42 (R9): WOA's own getting up, beside the core's stand_up
                        })
"""What a declared move action may be spent on (WOA-CYCLE-15: the action's type is declared; a move action moves or
does something that takes as long, L274)."""
MOVE_KINDS = MOVE_KINDS | {"disengage", "evasive_move"}  # WOA-AOO-20/25: the defensive disengage, the evasive move

STUNNED = "stunned"
"""WOA-CYCLE-30: the creature loses a round of actions and makes no combat reactions meanwhile."""
TOTAL_DEFENSE = "total_defense"
"""WOA-DEF-03: set by total defense (:mod:`.total_defense`): only dodging and blocking."""

READY_KINDS = frozenset({"ready", "attack"})
"""A declared ``ready``: the ready action itself, or — once its trigger was missed — the readied attack taken on the
turn anyway (WOA-INIT-11; :meth:`WoaRoundCycle.undeclared` holds the attack to that case)."""


class WoaRoundCycle(DeclareThenRoll):
    """WOA-CYCLE-01..30 and WOA-INIT-01..05/26/27 (readying is the reactions' part, not yet built)."""

    surprise_phase_name = PHASE_NAME  # WOA-CYCLE-07: no surprise round, the surprise attacks before round 1
    surprised_idle = "caught by surprise: nothing to do before round 1 (WOA-CYCLE-07)"

    def __init__(self, options: WoaOptions) -> None:
        standard = [
            "attack", "move", "refocus",
            "ready",            # WOA-INIT-06/09 (W5): readying is a standard action whatever is readied
            "total_defense",    # WOA-DEF-01 (W5)
            "start_full_round",  # WOA-ACT-25 (W2)
        ]
        move = [
            "move",
            "feint",            # WOA-FEINT-01 (W5)
        ]
        full_round = [
            "charge",           # WOA-CHARGE-01 (W5)
            "two_weapon_attack",  # WOA-TWF-01/02 (W5): the two-weapon full attack
            "alternative_charge",  # WOA-CHARGE-15/16 (W5): a leap, a swing, a throw — as the GM sets it up
            "run",              # WOA-MOVE-17 (W2)
        ]
        targeted = [
            "attack", "charge",
            "ready",            # WOA-INIT-06 (W5): the target of a declared ready is its trigger creature
            "alternative_charge",  # WOA-CHARGE-15 (W5)
        ]
        covers = {
            "move": MOVE_KINDS,
            "ready": READY_KINDS,  # WOA-INIT-11: a missed trigger's readied attack is taken on the turn instead
        }
        undeclared = UNDECLARED | {
            "crouch", "drop_prone", "quick_stand", "swift_action", "immediate_action", "speak",  # W2
            "spend_ki",  # WOA-MOVE-13 (W2)
        }
        super().__init__(standard=standard, move=move, full_round=full_round, targeted=targeted, covers=covers,
                         undeclared=undeclared)
        self.full_round, self.targeted = (*self.full_round, "full_attack"), self.targeted | {"full_attack"}  # ATK-08
        self.o = options
        self.standard += ("cast_spell", "touch_spell", "spell_upkeep", "drink_potion", "use_item", "activate_device",
                          "draw_hidden")
        self.full_round += ("cast_spell", "touch_spell", "drink_potion", "use_item", "retrieve_item", "manipulate",
                            "activate_device")
        self.covers["move"] |= {"retrieve_item", "manipulate", "spell_upkeep", "activate_device", "draw_hidden"}
        self.covers["cast_spell"] = frozenset({"cast_spell", "touch_spell"})  # WOA-SPELL-18: touch in the round
        self.free |= {"quick_cast"}  # WOA-CYCLE-16: swift and free spells are not declared (WOA-SPELL-01)

    # --- the initiative check (WOA-CYCLE-17..23) ----------------------------------------------------------------
    def initiative_modifiers(self, creature: Creature) -> list[Modifier]:
        """WOA-CYCLE-17..19: the modifiers that apply to every Reflex save: the base save and Dex."""
        base = self.rules.saves.save_base(creature, "ref").value
        resistance = int(creature.sheet.attributes.get("ref_resistance", 0))
        mods = [Modifier(base - resistance, "Ref base"), capped_dex(creature)]  # WOA-STAT-64: armor caps Dex
        return [m for m in mods if m.value]

    def initiative_state_modifiers(self, creature: Creature, state: CombatantState) -> list[Modifier]:
        """WOA-CYCLE-03/10: −20 while flat-footed (surprised or not: the same penalty, once)."""
        return [Modifier(-20, "flat-footed")] if state.has(FLAT_FOOTED) else []

    def modifier(self, creature: Creature) -> int:
        return sum(m.value for m in self.initiative_modifiers(creature))

    # --- the round ----------------------------------------------------------------------------------------------
    def start_of_round(self, view: View, round_no: int) -> None:
        s = view.state
        if round_no == 1:
            for cid in s.combatants:  # WOA-CYCLE-08: flat-footed until it has had a chance to act
                if cid in s.surprised and not s.get(cid).has(FLAT_FOOTED):  # (the scenario's order: a stable log)
                    view.emit(ev.ConditionSet(cid, FLAT_FOOTED, True, "caught by surprise (WOA-CYCLE-08)"))
        if s.surprise_round:  # WOA-CYCLE-07: the surprise attacks, nothing declared, then round 1
            reading = self.rules.surprise.reading if isinstance(self.rules.surprise, Awareness) \
                else awareness_reading()
            open_surprise_attacks(view, reading, self.modifier, lambda cid: self._can_declare(view, cid))
            return
        super().start_of_round(view, round_no)

    def after_declarations(self, view: View, round_no: int) -> None:
        """WOA-CYCLE-02/05/17..23, WOA-INIT-02..05/27: everyone rolls; the order, then the delays."""
        s = view.state
        first_side = view.creature(next(iter(s.combatants))).side if s.combatants else ""
        side_faces: dict[str, int] = {}
        totals: list[tuple[str, int]] = []
        mods_of: dict[str, int] = {}
        for cid in s.combatants:
            c = s.get(cid)
            if "fled" in c.conditions or "removed" in c.conditions:
                continue
            creature = view.creature(cid)
            side = creature.side
            if c.has(REFOCUSED):
                face, how = 20, " (refocused: the die counts as 20, WOA-INIT-27)"
            elif self.o.woa_monster_initiative == "side" and side != first_side:
                if side not in side_faces:
                    side_faces[side] = view.dice.roll(20, f"initiative {side}")
                face, how = side_faces[side], f" (one roll for the {side}, WOA-CYCLE-20)"
            else:
                face, how = view.dice.roll(20, f"initiative {cid}"), ""
            penalties = self.initiative_state_modifiers(creature, c)
            if c.has(REFOCUSED) and self.o.woa_refocus_ignores_penalties:  # WOA-INIT-27's option
                penalties = [m for m in penalties if m.value >= 0]
            t = total(face, [*self.initiative_modifiers(creature), *penalties],
                      base_label="d20", stacking=self.rules.stacking)
            view.emit(ev.InitiativeRolled(cid, t.value, f"{t.explain()}{how} (round {combat_round(view, round_no)})"))
            totals.append((cid, t.value))
            mods_of[cid] = self.modifier(creature)
        order, notes = order_by_initiative(totals, view.dice, tiebreak=mods_of, tiebreak_rule="(WOA-CYCLE-22)")
        order = self._delays(view, order, dict(totals), notes)
        rest = [cid for cid in s.combatants if cid not in order]
        view.emit(ev.OrderSet([*order, *rest], notes))
        for cid, _ in totals:
            if view.state.get(cid).has(REFOCUSED):
                view.emit(ev.ConditionSet(cid, REFOCUSED, False, "its refocused initiative is used (WOA-INIT-27)"))
        for group in getattr(self.rules.actions, "groups", (self.rules.actions,)):
            hook = getattr(group, "after_declarations", None)  # WOA-INIT-12..17, WOA-DEF-05: declared, then rolled
            if hook is not None:
                hook(view, round_no)

    def _delays(self, view: View, order: list[str], rolled: dict[str, int], notes: list[str]) -> list[str]:
        """WOA-INIT-02..05: a delayer that beat the named creature acts right after it, as if it had rolled the same
        and lost the tie; one that rolled lower acts at its own count."""
        for cid, declared in view.state.declarations.items():
            after = declared.get("after")
            if not isinstance(after, str) or cid not in rolled or after not in order:
                continue
            if rolled[cid] > rolled.get(after, -1_000):
                order = [x for x in order if x != cid]
                order.insert(order.index(after) + 1, cid)
                notes.append(f"{cid} delays: acts right after {after} (WOA-INIT-02/04)")
            else:
                notes.append(f"{cid} delays after {after} but rolled lower: acts at its own count (WOA-INIT-05)")
        return order

    def check_declaration(self, view: View, actor: str, declaration: ax.Declare) -> str | None:
        after = declaration.after
        reason = super().check_declaration(view, actor, ax.Declare(
            standard=declaration.standard, move=declaration.move, full_round=declaration.full_round,
            target=declaration.target))
        if reason or after is None:
            return reason
        if after == actor:
            return "a creature delays after another one (WOA-INIT-02)"
        if after not in view.state.combatants:
            return f"no creature {after!r} in this fight"
        return None

    def undeclared(self, view: View, actor: str, action: ax.Action) -> str | None:
        """WOA-CYCLE-21 with WOA-INIT-11: a declared ready allows an attack only once its trigger was missed;
        WOA-CYCLE-30: a stunned creature does nothing but end its turn."""
        if view.state.surprise_round:
            return surprise_attack_bar(view, actor, action)  # WOA-CYCLE-07: one attack at the surprised, or pass
        if view.state.get(actor).has(STUNNED) and action.kind != "end_turn":
            return f"{actor} is stunned: it loses this round's actions (WOA-CYCLE-30)"
        if action.kind == "feint" and view.creature(actor).has_feat("improved_feint"):
            return None  # WOA-FEINT-04 (W8): a swift action, never declared (WOA-CYCLE-16)
        declared = view.state.declarations.get(actor) or {}
        if action.kind == "attack" and declared.get("standard") == "ready" \
                and not view.state.get(actor).has(TRIGGER_MISSED):
            return f"{actor} declared ready this round: it attacks when its trigger comes, or on its turn only once " \
                   "the trigger was missed (WOA-INIT-07/11)"
        if action.kind == "ready" and declared.get("standard") == "ready":
            trigger = getattr(action, "trigger", "")  # the declared target is the trigger; the readied attack may
            if trigger and trigger != declared.get("target"):  # aim at another creature (WOA-INIT-06)
                return f"{actor} declared its ready against {declared.get('target')} this round (WOA-CYCLE-21)"
            return None
        return super().undeclared(view, actor, action)

    def declaration_options(self, view: View, actor: str) -> list[ax.Declare]:
        return [o for o in super().declaration_options(view, actor) if o.standard != "refocus" or not o.move] + \
            [ax.Declare(standard="refocus", move="move")]

    def ai_declaration(self, enc: Any, actor: str) -> ax.Declare | None:
        """The AI's declaration (:mod:`.declare_ai`: attack the foe it reaches, move, refocus when late and losing)."""
        return choose_declaration(enc, actor)

    # --- the turn ------------------------------------------------------------------------------------------------
    def start_of_turn(self, view: View, actor: str) -> None:
        c = view.state.get(actor)
        if c.has(STUNNED):
            view.emit(ev.Note(f"{actor} is stunned: it loses this round's actions (WOA-CYCLE-30)"))
        if c.has(FLAT_FOOTED) and self.rules.injury.can_act(view.creature(actor), c) \
                and not view.state.surprise_round:  # WOA-CYCLE-07: its turn comes in round 1, after the attacks
            view.emit(ev.ConditionSet(actor, FLAT_FOOTED, False, "has a chance to act (WOA-CYCLE-08)"))
        self._rule_invalidated(view, actor)

    def _rule_invalidated(self, view: View, actor: str) -> None:
        """WOA-CYCLE-25: the declared foe is down or gone — a similar action (the foe nearest the declared one), a
        move action only, or nothing until the next round (``woa_invalidated_action``)."""
        s = view.state
        declared = s.declarations.get(actor)
        target = declared.get("target") if declared else None
        if not isinstance(target, str) or target in self._foes(view, actor):
            return
        reason = f"{target} is out of the fight"
        policy = self.o.woa_invalidated_action
        ruled = ax.Declare(move="move") if policy != "nothing" else ax.Declare()
        if policy == "similar":
            foes = self._foes(view, actor)
            if foes:
                where = Footprint(s.get(target).position, view.creature(target).space)
                near = min(foes, key=lambda f: (footprint_distance_ft(
                    where, Footprint(s.get(f).position, view.creature(f).space)), f))
                ruled = ax.Declare(**{**(declared or {}), "target": near})
        fields = {k: v for k, v in vars_of(ruled).items() if v not in ("", None)}
        text = ruled.text(lambda cid: view.creature(cid).name)
        view.emit(ev.DeclarationRuled(actor, fields, text, f"{reason}; {policy.replace('_', ' ')}, WOA-CYCLE-25"))


def vars_of(d: ax.Declare) -> dict[str, Any]:
    return {"standard": d.standard, "move": d.move, "full_round": d.full_round, "target": d.target, "after": d.after}


def rounds_of_actions(state: EncounterState, target: str, rounds: int) -> int:
    """WOA-CYCLE-29/30: an effect on ``target`` lasting ``rounds`` rounds affects that many rounds' worth of its
    actions: anchored to the target, it ends just before the target's turn in the round returned — this round's
    turn counts if it is still to come; if the target has acted (or is acting), its next ``rounds`` turns do."""
    order = list(state.order)
    acted = target in order and state.turn is not None and order.index(target) <= state.turn_index
    return state.round + rounds + (1 if acted else 0)


def stun(view: View, victim: str, by: str, rounds: int = 1) -> None:
    """WOA-CYCLE-30: ``victim`` loses ``rounds`` rounds of actions — this round's if ``by`` acted before it, else
    the next — and makes no combat reactions until then."""
    until = rounds_of_actions(view.state, victim, rounds)
    lost = "this round's" if until == view.state.round + rounds else "next round's"
    view.emit(ev.EffectAdded(victim, STUNNED, victim, until, condition=STUNNED))
    if not view.state.get(victim).has(STUNNED):
        view.emit(ev.ConditionSet(victim, STUNNED, True, f"stunned by {by}: loses {lost} actions and makes no combat "
                                                         "reactions meanwhile (WOA-CYCLE-29/30)"))
