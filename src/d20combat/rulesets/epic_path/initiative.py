"""Epic Path's turn order (EP-INIT, EP-TIME): initiative with three tie-breakers, Flat-Footed until a creature's
first turn, and the encounter clock — "round 1" after a surprise round and the 10-round Maximum Encounter Length
that starts a new combat.

The clock lives in the state (:attr:`EncounterState.first_round`: the engine's round that is round 1 of the current
combat), so the round an action point is judged by (EP-MISC-23) is a pure function of the state:
:func:`combat_round`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from d20combat.dice import DiceSource
from d20combat.encounter import events as ev
from d20combat.encounter.state import EncounterState
from d20combat.model.creature import Creature
from d20combat.numbers import total
from d20combat.rules.health import Health
from d20combat.rulesets.components import TurnOrder, View
from d20combat.rulesets.epic_path.time_scale import ROUND_SECONDS, rounds

FLAT_FOOTED = "flat_footed"
"""The stored condition of a creature that has not acted yet in the encounter (EP-SURP-20, EP-COND-01)."""

ACTION_POINTS = "action_points"
"""The off-turn pool that holds a creature's unspent action points (EP-MISC-22)."""

PER_ENCOUNTER = "per_encounter:"
"""A stat block's ``attributes`` key ``per_encounter:<ability>: N`` gives an ability N uses a combat, kept in the
off-turn pool of that name and renewed when a new combat begins (EP-TIME-10)."""


def per_encounter_uses(creature: Creature) -> dict[str, int]:
    """The once-(or N times-)per-encounter abilities of a creature: pool name → uses a combat."""
    return {k: int(v) for k, v in creature.sheet.attributes.items() if k.startswith(PER_ENCOUNTER)}


ENCOUNTER_SUFFIX = "(encounter)"
"""Effects whose name ends so last "until the end of the encounter" and end at a reset (EP-TIME-09)."""


HELD_TIE = "initiative reset by a hold: the tie-breakers place it from the next round (EP-ACT-51)"
"""Under ``ep_hold_tie_in_later_rounds: tie_break``: a holder whose new initiative number another creature has."""


def combat_round(state: EncounterState) -> int:
    """The round of the current combat for action points (EP-MISC-23): 1 in the surprise round and in the round
    after it (EP-SURP-23, EP-MISC-24), 1 again in the first round after a reset (EP-TIME-13)."""
    return max(1, state.round - state.first_round + 1)


class EpInitiative(TurnOrder):
    """EP-INIT-01..11 and the encounter clock (EP-TIME-06..14).

    - Initiative is a Dexterity check, d20 + the initiative modifier (EP-INIT-01), counted down (EP-INIT-02),
      rolled once (EP-INIT-03). Ties: the higher initiative modifier first (EP-INIT-05), then the higher Dex
      modifier (EP-INIT-06), then a tie-breaking d20 each, re-rolled while equal (EP-INIT-07, ``tie_d20``: which
      roll goes first), which orders only the tied creatures (EP-INIT-08).
    - Every creature is Flat-Footed until its first turn in which it can act (EP-SURP-20, EP-SURP-29/35).
    - After a surprise round the next round is still round 1 (EP-SURP-23). When a combat has lasted
      ``max_rounds`` rounds (EP-TIME-06) a new one begins: the survivors re-roll initiative (EP-INIT-11,
      EP-TIME-07) and gain an action point (EP-TIME-08), "until the end of the encounter" effects end (EP-TIME-09),
      the dead stay dead (EP-TIME-11), and the next round is round 1 (EP-TIME-13). ``surprise_round_counts`` and
      ``flat_footed_after_reset`` are the readings of EP-TIME-06 and EP-TIME-14.
    - ``before_turn(view, actor)``: what interrupts before a creature acts — the readied actions that fire when it
      starts its turn (EP-ACT-57; the actions chapter's ``fire_readied``, given by the composition).
    """

    def __init__(self, *, tie_d20: str = "higher-first", max_rounds: int = rounds("1 minute"),
                 surprise_round_counts: bool = False, flat_footed_after_reset: bool = False,
                 action_points_per_combat: int = 1,
                 before_turn: Callable[[View, str], None] | None = None,
                 ambusher_spot_mode: str = "group", hold_tie_break: bool = False) -> None:
        self.before_turn = before_turn
        self.hold_tie_break = hold_tie_break
        """EP-ACT-51 (AMBIGUOUS, ``ep_hold_tie_in_later_rounds: tie_break``): a holder sharing its new number is
        placed by the tie-breakers from the next round on."""
        self.ambusher_spot_mode = ambusher_spot_mode
        self.tie_d20 = tie_d20
        self.max_rounds = max_rounds
        self.surprise_round_counts = surprise_round_counts
        self.flat_footed_after_reset = flat_footed_after_reset
        self.action_points_per_combat = action_points_per_combat

    # --- initiative -------------------------------------------------------------------------------------------
    def initiative_modifier(self, creature: Creature) -> int:
        """The "initiative modifier" of the first tie-breaker: Dex and everything else added to the roll."""
        return sum(m.value for m in self.initiative_modifiers(creature))

    def order(self, totals: Sequence[tuple[str, int]], creatures: Mapping[str, Creature], dice: DiceSource
              ) -> tuple[list[str], list[str]]:
        """Highest result first; ties by initiative modifier, then Dex modifier, then d20 roll-offs."""
        notes: list[str] = []
        keys = {cid: (value, self.initiative_modifier(creatures[cid]), creatures[cid].dex_mod)
                for cid, value in totals}
        ranked = sorted(keys, key=lambda cid: keys[cid], reverse=True)
        by_value: dict[int, list[str]] = {}
        for cid in ranked:
            by_value.setdefault(keys[cid][0], []).append(cid)
        for value, group in by_value.items():
            if len(group) > 1:
                parts = ", ".join(f"{cid} (initiative {keys[cid][1]:+d}, Dex {keys[cid][2]:+d})" for cid in group)
                notes.append(f"tie at {value}: {parts} (EP-INIT-05/06)")
        order: list[str] = []
        i = 0
        while i < len(ranked):
            j = i
            while j + 1 < len(ranked) and keys[ranked[j + 1]] == keys[ranked[i]]:
                j += 1
            order.extend(self._roll_off(ranked[i:j + 1], keys[ranked[i]][0], dice, notes))
            i = j + 1
        return order, notes

    def _roll_off(self, group: list[str], value: int, dice: DiceSource, notes: list[str]) -> list[str]:
        """EP-INIT-07/08: a tie-breaking d20 each; equal rolls roll again."""
        if len(group) == 1:
            return group
        rolls = {cid: dice.roll(20, f"initiative tie {cid}") for cid in group}
        first = "higher" if self.tie_d20 == "higher-first" else "lower"
        notes.append(f"still tied at {value}: " + ", ".join(f"{cid} rolls {r}" for cid, r in rolls.items())
                     + f", the {first} roll first (EP-INIT-07)")
        out: list[str] = []
        for face in sorted(set(rolls.values()), reverse=self.tie_d20 == "higher-first"):
            out.extend(self._roll_off([c for c in group if rolls[c] == face], value, dice, notes))
        return out

    # --- flat-footed and the clock ----------------------------------------------------------------------------
    def place_holders(self, view: View) -> None:
        """EP-ACT-51, option ``tie_break``: each creature that held its action to a number another creature has
        (marked :data:`HELD_TIE`) goes before the first creature with that number it beats on the tie-breakers —
        higher initiative modifier (EP-INIT-05), then Dex modifier (EP-INIT-06), then a d20 roll-off
        (EP-INIT-07) — and after those it loses to."""
        s = view.state
        for holder in [cid for cid in s.order if any(e.name == HELD_TIE for e in s.get(cid).effects)]:
            value = s.get(holder).initiative
            rest = [cid for cid in view.state.order if cid != holder]
            tied = [cid for cid in rest if view.state.get(cid).initiative == value]
            if value is None or not tied:
                continue
            place, notes = len(rest), list[str]()
            for other in tied:
                ranked, notes = self.order([(holder, value), (other, value)],
                                           {c: view.creature(c) for c in (holder, other)}, view.dice)
                if ranked[0] == holder:
                    place = rest.index(other)
                    break
            else:
                place = rest.index(tied[-1]) + 1
            new = [*rest[:place], holder, *rest[place:]]
            if new != list(view.state.order):
                why = (f"{holder}'s initiative {value} ties with {', '.join(tied)}: the tie-breakers place it "
                       f"(EP-ACT-51 option tie_break; EP-INIT-05..07)")
                view.emit(ev.OrderSet(new, [*notes, why]))
                view.emit(ev.Note(why))

    def start_of_round(self, view: View, round_no: int) -> None:
        if self.hold_tie_break:
            self.place_holders(view)
        s = view.state
        if round_no != 1:
            return
        for cid, c in s.combatants.items():  # EP-SURP-20: nobody has acted yet
            if not c.has(FLAT_FOOTED) and not view.creature(cid).has_feat("uncanny_dodge"):
                view.emit(ev.ConditionSet(cid, FLAT_FOOTED, True, "has not acted yet in the encounter (EP-SURP-20)"))
        battle = getattr(getattr(view, "engine", None), "battle", None)
        ambush = getattr(battle, "ambush", None)
        if ambush is not None and ambush.ambushers:  # EP-SURP-28: the ambushers' Spot checks before it begins
            from d20combat.rulesets.epic_path.stealth import ambusher_spot_checks

            ambusher_spot_checks(view, list(ambush.ambushers), self.ambusher_spot_mode)
        if s.surprise_round and not self.surprise_round_counts:
            view.emit(ev.EncounterClockSet(2, "the round after the surprise round is still round 1 for action "
                                              "points; the surprise round counts as round 1 too (EP-SURP-23)"))

    def start_of_turn(self, view: View, actor: str) -> None:
        if self.before_turn is not None:
            self.before_turn(view, actor)  # EP-ACT-57: readied attacks interrupt before the creature acts
        s = view.state
        c = s.get(actor)
        if not c.has(FLAT_FOOTED) or (s.surprise_round and actor in s.surprised):
            return  # EP-SURP-29: a surprised creature stays Flat-Footed until it is able to act
        if self.rules.injury.can_act(view.creature(actor), c):
            view.emit(ev.ConditionSet(actor, FLAT_FOOTED, False, "takes its first action (EP-SURP-20)"))

    def end_of_round(self, view: View, round_no: int) -> None:
        s = view.state
        if s.surprise_round and not self.surprise_round_counts:
            return
        if round_no - s.first_round + 1 >= self.max_rounds:
            self.renew_combat(view)

    def renew_combat(self, view: View) -> None:
        """EP-TIME-06..14: the combat has lasted its Maximum Encounter Length; a new one begins at once."""
        s = view.state
        view.emit(ev.EncounterClockSet(
            s.round + 1, f"the combat has lasted {self.max_rounds} rounds in a row "
                         f"({self.max_rounds * ROUND_SECONDS} seconds of the story; Maximum Encounter Length, "
                         "EP-TIME-06): it ends and a new combat begins; the next round is round 1 (EP-TIME-13)"))
        living: list[str] = []
        dead: list[str] = []
        for cid in s.order or list(s.combatants):
            creature = view.creature(cid)
            is_dead = self.rules.injury.health(creature, s.get(cid)) is Health.DEAD
            (dead if is_dead or cid not in s.combatants else living).append(cid)
        totals: list[tuple[str, int]] = []
        for cid in living:  # EP-INIT-11, EP-TIME-07: every survivor re-rolls
            creature = view.creature(cid)
            face = view.dice.roll(20, f"initiative {cid}")
            mods = [*self.initiative_modifiers(creature), *self.initiative_state_modifiers(creature, s.get(cid))]
            t = total(face, mods, base_label="d20", stacking=self.rules.stacking)
            view.emit(ev.InitiativeRolled(cid, t.value, f"{t.explain()} (re-rolled for the new combat, EP-TIME-07)"))
            totals.append((cid, t.value))
        order, notes = self.order(totals, {cid: view.creature(cid) for cid in living}, view.dice)
        if dead:
            notes.append("the slain stay dead: " + ", ".join(dead) + " (EP-TIME-11)")
        view.emit(ev.OrderSet([*order, *dead], notes))
        if dead:
            view.emit(ev.Note(notes[-1]))
        for cid in living:
            c = view.state.get(cid)
            pools = dict(c.reactions)
            pools[ACTION_POINTS] = pools.get(ACTION_POINTS, 0) + self.action_points_per_combat
            renewed = per_encounter_uses(view.creature(cid))
            pools.update(renewed)  # EP-TIME-10
            view.emit(ev.ReactionsSet(cid, pools))
            view.emit(ev.Note(f"{cid} gains a fresh action point: {pools[ACTION_POINTS]} (EP-TIME-08)"))
            if renewed:
                names = ", ".join(k.removeprefix(PER_ENCOUNTER) for k in renewed)
                view.emit(ev.Note(f"{cid}'s once-per-encounter abilities are renewed: {names} (EP-TIME-10)"))
            for effect in c.effects:
                if effect.name.endswith(ENCOUNTER_SUFFIX):  # EP-TIME-09
                    view.emit(ev.EffectEnded(cid, effect.name))
                    if effect.condition and view.state.get(cid).has(effect.condition):
                        view.emit(ev.ConditionSet(cid, effect.condition, False, f"{effect.name} ended (EP-TIME-09)"))
            if self.flat_footed_after_reset and not view.state.get(cid).has(FLAT_FOOTED):
                view.emit(ev.ConditionSet(cid, FLAT_FOOTED, True, "a new combat begins (EP-TIME-14 option)"))
