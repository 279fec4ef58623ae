"""The OffGuard policy class: each method is one policy of rules-diff §3 that CMV swaps."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import BaseModel

from d20combat.battlefield import movement as mv
from d20combat.battlefield.concealment import ConcealmentSource, Vision, concealment_sources
from d20combat.battlefield.cover import CoverDegree, CoverFact, cover
from d20combat.battlefield.distance import footprint_distance_ft, square_to_footprint_ft
from d20combat.battlefield.flanking import FlankFact, flanking_fact
from d20combat.battlefield.grid import Footprint, GameMap, Square
from d20combat.battlefield.lines import squares_crossed_scaled
from d20combat.battlefield.reach import within_reach
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState, TurnState
from d20combat.model.creature import AttackOption, Creature
from d20combat.model.statblock import WeaponKind, ability_mod
from d20combat.numbers import Modifier, Total, total
from d20combat.rules import damage as damage_rules
from d20combat.rules import health
from d20combat.rules.armor_class import DefenseContext, armor_class
from d20combat.rulesets.base import AttackInfo, BudgetError, RuleError, Ruleset, TurnAllowance, View

if TYPE_CHECKING:
    from d20combat.encounter.engine import AttackPlan, Encounter, Tx

# ---------------------------------------------------------------------------------------- options
from d20combat.rulesets.off_guard.actions import BlindMove, CastSpell, CoupDeGrace, Escape, GmAttack, Guide
from d20combat.rulesets.off_guard.conditions import (
    _CANNOT_ACT_TEXT,
    _NO_ACTION_ORDER,
    CONCEALMENT_CAP,
    CROSSBOWS,
    DERIVED,
    LOW_OBSTACLE_REACH_FT,
    PROJECTILES,
    CmvAllowance,
    CmvCover,
    ConditionRow,
    cmv_data,
    damage_taken,
    long_piercing,
    stored_conditions,
    wound_points,
)
from d20combat.rulesets.off_guard.options import OffGuardOptions


class OffGuard(Ruleset):
    id = "off-guard"
    title = "Combat Modifiers variant (off-guard)"
    Options = OffGuardOptions
    own_actions = (CoupDeGrace, Escape, Guide, BlindMove, CastSpell, GmAttack)

    inherits: ClassVar[tuple[str, ...]] = (
        "initiative order, surprise round and ties: PFB (CMV adds condition modifiers)",
        "action budget: PFB's standard/move/free; minor = move, major = standard, full-round = both",
        "movement, terrain, charge, standing up (move action), dropping prone (free): PFB",
        "attack roll, natural 1/20, range, the 10-ft ranged rule, criticals, damage: PFB",
        "reaction attacks: Epic Path's attacks of opportunity (variant cmv_reaction_attack_rules)",
    )

    def configure(self, options: BaseModel) -> None:
        assert isinstance(options, OffGuardOptions)
        self.opts = options
        self.max_free_actions = options.max_free_actions
        self.dying_procedure = "static"  # CMV's own death saves replace PFB's dying check
        self._cdg: tuple[str, list[int]] | None = None
        self._fumble: int = 0
        self._str_mods: dict[str, int] = {}

    # ================================================================= conditions (the table)
    def conditions(self, creature: Creature, state: CombatantState) -> frozenset[str]:
        """Every condition in force: the stored ones, those derived from damage taken (bloodied,
        staggered, wounded) and those a condition brings with it ("includes"), each once."""
        table = cmv_data().conditions
        names = {n for n in stored_conditions(state) if n not in DERIVED}
        hp, dmg = creature.sheet.hp, damage_taken(creature, state)
        if self.bloodied_by_damage(hp, dmg):
            names.add("bloodied")
        if dmg >= hp and not names & {"dying", "stable", "dead"}:
            names.add("staggered")
        if wound_points(state) > 0:
            names.add("bloodied" if self.opts.cmv_wound_points_bloodied else "wounded")
        todo = sorted(names)
        while todo:
            name = todo.pop()
            row = table.get(name)
            if row is None:
                continue
            for inc in row.includes:
                if name == "exhausted" and inc == "fatigued" and not self.opts.cmv_exhausted_includes_fatigued:
                    continue
                if inc not in names:
                    names.add(inc)
                    todo.append(inc)
        return frozenset(names)

    def rows(self, active: frozenset[str]) -> list[tuple[str, ConditionRow]]:
        table = cmv_data().conditions
        return [(n, table[n]) for n in sorted(active) if n in table]

    def bloodied_by_damage(self, hp: int, dmg: int) -> bool:
        """CMV-INJ-03: bloodied once damage taken reaches half of hp (rounded up by default)."""
        if dmg <= 0:
            return False
        if self.opts.cmv_bloodied_rounding == "up":
            return 2 * dmg >= hp
        return dmg >= hp // 2

    def ability_delta(self, creature: Creature, active: frozenset[str], ability: str) -> int:
        """CMV-COND-17/19: the change of an ability modifier when the scores drop."""
        change = sum(row.abilities for _, row in self.rows(active))
        if not change:
            return 0
        score = int(getattr(creature.sheet.abilities, ability))
        return ability_mod(max(score + change, 0)) - ability_mod(score)

    def adjusted(self, creature: Creature, active: frozenset[str]) -> Creature:
        """The creature with its ability modifiers recomputed under fatigue (CMV-COND-17/19)."""
        deltas = {a: self.ability_delta(creature, active, a) for a in ("str", "dex", "con")}
        if not any(deltas.values()):
            return creature
        return replace(creature, str_mod=creature.str_mod + deltas["str"], dex_mod=creature.dex_mod + deltas["dex"],
                       con_mod=creature.con_mod + deltas["con"])

    def is_off_guard(self, creature: Creature, state: CombatantState) -> bool:
        """CMV-COND-37..41: off-guard by the stored condition (surprise, the GM) or by blinded,
        stunned or cowering (CMV-COND-02/15/30). Dazed is not (CMV-COND-06)."""
        return "off-guard" in self.conditions(creature, state)

    def squeezing(self, game_map: GameMap, creature: Creature, state: CombatantState) -> bool:
        """CMV-SIT-10 (proposed): squeezing while any square of its space is a narrow square, or set by the GM."""
        if "squeezing" in stored_conditions(state):
            return True
        return any(sq in game_map.narrow for sq in Footprint(state.position, creature.space).squares())

    def check_modifiers(self, creature: Creature, state: CombatantState) -> list[Modifier]:
        """Modifiers on checks: bloodied −1, wounded −1 (CMV-INJ-02/04), shaken −2 (CMV-COND-24)."""
        return [Modifier(row.checks, name) for name, row in self.rows(self.conditions(creature, state)) if row.checks]

    def save_modifiers(self, creature: Creature, state: CombatantState,
                       kind: Literal["fortitude", "reflex", "will", "death"], *, base: int | None = None,
                       cover_fact: CoverFact | None = None) -> list[Modifier]:
        """A saving throw's modifiers. Stat blocks carry no save bonuses (MISSING in CMV), so the
        ability modifier stands in unless ``base`` is given. Off-guard (and helpless) lose a positive
        Dex on Reflex (CMV-COND-38, CMV-HELP-04); sickened −2 except death saves (CMV-COND-12);
        shaken −2, death saves too by default (CMV-COND-24); cover +2 on Reflex, improved +4, soft
        cover nothing (CMV-COV-09/12/18)."""
        active = self.conditions(creature, state)
        c = self.adjusted(creature, active)
        mods: list[Modifier] = []
        if kind == "death":
            if self.opts.cmv_death_save_bonus == "con":
                mods.append(Modifier(c.con_mod, "Con"))
        elif base is not None:
            mods.append(Modifier(base, f"{kind} save"))
            if kind == "reflex" and (("off-guard" in active) or self.is_helpless(creature, state)) and c.dex_mod > 0:
                mods.append(Modifier(-c.dex_mod, "no Dex bonus (off-guard)"))
        else:
            ability = {"fortitude": ("Con", c.con_mod), "reflex": ("Dex", c.dex_mod),
                       "will": ("Wis", ability_mod(creature.sheet.abilities.wis))}[kind]
            value = ability[1]
            if kind == "reflex" and (("off-guard" in active) or self.is_helpless(creature, state)):
                value = min(value, 0)
            mods.append(Modifier(value, ability[0]))
        for name, row in self.rows(active):
            if not row.saves:
                continue
            if kind == "death" and not row.death_saves:
                continue
            if kind == "death" and name == "shaken" and not self.opts.cmv_shaken_death_saves:
                continue
            mods.append(Modifier(row.saves, name))
        if kind == "reflex" and cover_fact is not None and cover_fact.degree is CoverDegree.COVER:
            if isinstance(cover_fact, CmvCover) and cover_fact.soft:
                pass
            elif isinstance(cover_fact, CmvCover) and cover_fact.improved:
                mods.append(Modifier(4, "improved cover"))
            else:
                mods.append(Modifier(2, "cover"))
        return [m for m in mods if m.value]

    def saving_throw(self, view: View, cid: str, kind: Literal["fortitude", "reflex", "will", "death"], dc: int,
                     why: str) -> bool:
        """Roll a save (a natural 1 fails, a natural 20 succeeds, as PFB's saves) and log it."""
        creature, cs = view.creature(cid), view.state.get(cid)
        face = view.dice.d20(f"{kind} save {cid}")
        t = total(face, self.save_modifiers(creature, cs, kind), base_label="d20", stacking=self.stacking)
        ok = face == 20 or (face != 1 and t.value >= dc)
        nat = " (natural 20)" if face == 20 else " (natural 1)" if face == 1 else ""
        name = "death save" if kind == "death" else f"{kind.capitalize()} save"
        view.emit(ev.Note(f"{cid} {name} ({why}): {t.explain()} vs DC {dc}{nat} — {'succeeds' if ok else 'fails'}"))
        return ok

    def stealth(self, creature: Creature, state: CombatantState, *, cover_fact: CoverFact | None = None,
                concealment: int = 0, near_total_darkness: bool = False) -> tuple[bool, list[Modifier]]:
        """Whether a Stealth check is allowed, and its modifiers (the Stealth rules are external):
        cover or concealment allows it (CMV-COV-10, CMV-CONC-11), soft cover does not (CMV-COV-13);
        improved cover +10 (CMV-COV-21); near-total darkness +10 (CMV-CONC-19)."""
        soft = isinstance(cover_fact, CmvCover) and cover_fact.soft
        has_cover = cover_fact is not None and cover_fact.degree is CoverDegree.COVER and not soft
        allowed = has_cover or concealment > 0
        mods = [Modifier(creature.sheet.skills.get("stealth", creature.dex_mod), "Stealth")]
        mods += self.check_modifiers(creature, state)
        if has_cover and isinstance(cover_fact, CmvCover) and cover_fact.improved:
            mods.append(Modifier(10, "improved cover"))
        if near_total_darkness and self.opts.cmv_hide_is_stealth:
            mods.append(Modifier(10, "near-total darkness"))
        return allowed, mods

    # ================================================================= P2 initiative
    def initiative_state_modifiers(self, creature: Creature, state: CombatantState) -> list[Modifier]:
        """CMV-COND-07 deafened −4; CMV-INJ-02/04 bloodied and wounded −1; CMV-COND-24 shaken −2;
        fatigue lowers Dex (CMV-COND-17)."""
        active = self.conditions(creature, state)
        mods = [Modifier(row.checks + row.initiative, name) for name, row in self.rows(active)
                if row.checks + row.initiative]
        dex = self.ability_delta(creature, active, "dex")
        if dex:
            mods.append(Modifier(dex, "Dex (fatigue)"))
        return mods

    # ================================================================= P5 action budget
    def allowance(self, creature: Creature, state: CombatantState, *, surprise_round: bool) -> TurnAllowance:
        base = super().allowance(creature, state, surprise_round=surprise_round)
        active = self.conditions(creature, state)
        kinds = {name: row.actions for name, row in self.rows(active) if row.actions}
        no_actions = ""
        for name in _NO_ACTION_ORDER:
            if kinds.get(name) == "none":
                no_actions = f"{name}: no actions, only reactions (CMV-COND-05)" if name == "dazed" else \
                    f"{name}: no actions"
                break
        minor_only = "debilitated: only a single minor (move) action each turn (CMV-COND-09)" \
            if "minor" in kinds.values() else ""
        guided = self._guided(state)
        single = base.single_action or bool(minor_only) or (
            "single" in kinds.values() and not (guided and self.opts.cmv_aid_lifts_action_limit))
        held = "escape" in kinds.values() and not self.opts.cmv_held_other_actions
        return CmvAllowance(free=0 if no_actions else base.free, single_action=single, no_actions=no_actions,
                            minor_only=minor_only, held=held)

    def turn_pools(self, creature: Creature, state: CombatantState, *, surprise_round: bool) -> dict[str, int]:
        allow = self.allowance(creature, state, surprise_round=surprise_round)
        if isinstance(allow, CmvAllowance) and allow.no_actions:
            return {"standard": 0, "move": 0, "free": 0}
        return super().turn_pools(creature, state, surprise_round=surprise_round)

    def pay(self, cost: str, turn: TurnState, allow: TurnAllowance, *, surprise_round: bool
            ) -> tuple[str, dict[str, int]]:
        return self._pay(cost, turn, allow, surprise_round=surprise_round, escaping=False)

    def _pay(self, cost: str, turn: TurnState, allow: TurnAllowance, *, surprise_round: bool, escaping: bool
             ) -> tuple[str, dict[str, int]]:
        if isinstance(allow, CmvAllowance):
            if allow.no_actions:
                raise BudgetError(allow.no_actions)
            if allow.minor_only and cost in ("standard", "full-round"):
                raise BudgetError(allow.minor_only)
            if allow.held and not escaping and cost in ("standard", "move", "full-round"):
                raise BudgetError("held: it can only struggle to escape (CMV-COND-36)")
        return super().pay(cost, turn, allow, surprise_round=surprise_round)

    def round_reactions(self, creature: Creature, state: CombatantState) -> dict[str, int]:
        """CMV-COV-08 (proposed): one reaction attack a round, as Epic Path's attacks of opportunity."""
        return {"aoo": 1} if self.opts.cmv_reaction_attack_rules == "ep" else {}

    # ================================================================= P6 movement
    def speed_ft(self, creature: Creature, state: CombatantState) -> int:
        return self._speed(creature, state, ignore_blind=False)

    def _speed(self, creature: Creature, state: CombatantState, *, ignore_blind: bool) -> int:
        """Fatigued −5 ft (CMV-COND-18, once even when exhausted); blinded and staggered move at half
        speed unless an ally guides them (CMV-COND-03, CMV-INJ-07)."""
        rows = self.rows(self.conditions(creature, state))
        speed = creature.land_speed_ft + sum(row.speed_ft for _, row in rows)
        halved = any(row.speed == "half" and not (ignore_blind and name == "blinded") for name, row in rows)
        if halved and not self._guided(state):
            speed = speed // 2 // 5 * 5
        return max(speed, 0)

    @staticmethod
    def _guided(state: CombatantState) -> bool:
        return any(e.name.startswith("guided by ") for e in state.effects)

    def action_forbidden(self, view: View, actor: str, action: Any) -> str | None:
        """Movement that a condition forbids: held (CMV-COND-36), exhausted charging (CMV-COND-20),
        a frightened or panicked creature moving nearer the source of its fear (CMV-COND-26/28)."""
        kind = getattr(action, "kind", "")
        moving = kind in ("move", "step", "charge", "minimum_move", "climb_or_swim", "blind_move")
        if not moving:
            return None
        creature, cs = view.creature(actor), view.state.get(actor)
        active = self.conditions(creature, cs)
        for name, row in self.rows(active):
            if row.speed == "stop":
                return f"{kind}: {actor} is {name} and cannot leave its square (CMV-COND-36)"
        if kind == "charge":
            for name, row in self.rows(active):
                if row.no_charge:
                    return f"charge: {actor} is {name} and can't run or charge (CMV-COND-20)"
        fear = self._fear(active)
        if fear is None:
            return None
        if kind == "charge":
            return f"charge: {actor} is {fear}: it fights only where it is cornered, it never charges (CMV-COND-26)"
        end = self._destination(action)
        source = self._fear_source(view, actor, fear)
        if end is None or source is None or self.cornered(view, actor, source):
            return None
        here = footprint_distance_ft(Footprint(cs.position, creature.space), source)
        there = footprint_distance_ft(Footprint(end, creature.space), source)
        if there < here:
            return (f"{kind}: {actor} is {fear} and may not move nearer to {self._fear_name(view, actor, fear)} "
                    f"({there} ft < {here} ft, CMV-COND-26)")
        return None

    @staticmethod
    def _destination(action: Any) -> Square | None:
        path = getattr(action, "path", None)
        if path:
            return (int(path[-1][0]), int(path[-1][1]))
        to = getattr(action, "to", None)
        if to is not None:
            return (int(to[0]), int(to[1]))
        return None

    # ================================================================= fear
    @staticmethod
    def _fear(active: frozenset[str]) -> str | None:
        for name in ("panicked", "frightened"):
            if name in active:
                return name
        return None

    def _fear_name(self, view: View, actor: str, fear: str) -> str:
        got = stored_conditions(view.state.get(actor)).get(fear)
        if got and got[1] and got[1][0] in view.state.combatants:
            return got[1][0]
        return "the source of its terror"

    def _fear_source(self, view: View, actor: str, fear: str) -> Footprint | None:
        """The source named by the condition (``frightened:<id>:<DC>``), else the nearest enemy."""
        s = view.state
        got = stored_conditions(s.get(actor)).get(fear)
        if got and got[1] and got[1][0] in s.combatants and not s.get(got[1][0]).has("fled"):
            src = got[1][0]
            return Footprint(s.get(src).position, view.creature(src).space)
        me = view.creature(actor)
        here = Footprint(s.get(actor).position, me.space)
        foes = sorted((footprint_distance_ft(here, Footprint(c.position, view.creature(o).space)), o)
                      for o, c in s.combatants.items()
                      if view.creature(o).side != me.side and not c.has("fled")
                      and not self.out_of_fight(view.creature(o), c))
        if not foes:
            return None
        src = foes[0][1]
        return Footprint(s.get(src).position, view.creature(src).space)

    def cornered(self, view: View, actor: str, source: Footprint) -> bool:
        """CMV-COND-26 (proposed): cornered = no square within its speed is farther from the source
        than the one it stands on."""
        creature, cs = view.creature(actor), view.state.get(actor)
        fp = Footprint(cs.position, creature.space)
        here = footprint_distance_ft(fp, source)
        reach = mv.reachable(view.game_map, fp, max(self.speed_ft(creature, cs), 5), self._occupancy(view, actor),
                             flying=creature.fly_speed_ft > 0,
                             difficult_diagonal_counts=self.difficult_diagonal_counts)
        return not any(footprint_distance_ft(Footprint(sq, creature.space), source) > here for sq in reach)

    def _occupancy(self, view: View, cid: str) -> dict[Square, mv.Occupant]:
        side = view.creature(cid).side
        occ: dict[Square, mv.Occupant] = {}
        rank = {mv.Occupant.HELPLESS: 0, mv.Occupant.ALLY: 1, mv.Occupant.ENEMY: 2}
        for other, c in view.state.combatants.items():
            if other == cid or c.has("fled"):
                continue
            oc = view.creature(other)
            kind = mv.Occupant.HELPLESS if self.is_helpless(oc, c) else (
                mv.Occupant.ALLY if oc.side == side else mv.Occupant.ENEMY)
            for sq in Footprint(c.position, oc.space).squares():
                if sq not in occ or rank[kind] > rank[occ[sq]]:
                    occ[sq] = kind
        return occ

    # ================================================================= P3 hooks
    def start_of_round(self, view: View, round_no: int) -> None:
        super().start_of_round(view, round_no)
        s = view.state
        if s.surprise_round:
            # CMV-COND-40 (a): the surprised are off-guard until they get a chance to act.
            for cid in sorted(s.surprised):
                if cid in s.combatants and "off-guard" not in stored_conditions(s.get(cid)):
                    view.emit(ev.ConditionSet(cid, "off-guard", True, "surprised (CMV-COND-40)"))
        for cid in list(s.combatants):
            self._sync(view, cid)
            self._drop_held_items(view, cid)

    def start_of_turn(self, view: View, actor: str) -> None:
        s = view.state
        cs = s.get(actor)
        stored = stored_conditions(cs)
        if "off-guard" in stored and not (s.surprise_round and actor in s.surprised):
            view.emit(ev.ConditionSet(actor, stored["off-guard"][0], False, "gets a chance to act (CMV-COND-41)"))
        if "dying" in stored and "stable" not in stored and "dead" not in stored:
            if self.opts.cmv_dying == "gm":
                view.emit(ev.Note(f"{actor} is dying; the GM decides whether it slips away (cmv_dying = gm)"))
            elif self.saving_throw(view, actor, "death", 10, "dying, at the start of its turn (CMV-INJ-11)"):
                view.emit(ev.ConditionSet(actor, "stable", True, "passed its dying death save (CMV-INJ-16)"))
                view.emit(ev.Stabilized(actor, f"{actor} is stable (CMV-INJ-16)"))
            else:
                self._die(view, actor, "failed its dying death save (CMV-INJ-11)")
        self._drop_held_items(view, actor)
        self._panic(view, actor)

    def end_of_turn(self, view: View, actor: str) -> None:
        """CMV-COND-23 (proposed): a Will save against each fear's DC at the end of the turn."""
        if self.opts.cmv_fear_save != "end-of-turn":
            return
        for name, (text, args) in stored_conditions(view.state.get(actor)).items():
            if name not in ("shaken", "frightened", "panicked") or len(args) < 2 or not args[1].isdigit():
                continue
            if self.saving_throw(view, actor, "will", int(args[1]), f"to overcome being {name} (CMV-COND-23)"):
                view.emit(ev.ConditionSet(actor, text, False, "overcomes its fear (CMV-COND-23)"))

    def _panic(self, view: View, actor: str) -> None:
        """CMV-COND-29: a panicked creature with nowhere to flee cowers; once it can flee, it stops."""
        creature, cs = view.creature(actor), view.state.get(actor)
        stored = stored_conditions(cs)
        active = self.conditions(creature, cs)
        cowering = stored.get("cowering")
        from_panic = cowering is not None and cowering[1][:1] == ("cornered",)
        if "panicked" not in active:
            if from_panic and cowering is not None:
                view.emit(ev.ConditionSet(actor, cowering[0], False, "no longer panicked"))
            return
        source = self._fear_source(view, actor, "panicked")
        trapped = source is not None and self.cornered(view, actor, source)
        if trapped and cowering is None:
            view.emit(ev.ConditionSet(actor, "cowering:cornered", True, "panicked and cornered (CMV-COND-29)"))
        elif not trapped and from_panic and cowering is not None:
            view.emit(ev.ConditionSet(actor, cowering[0], False, "no longer cornered"))

    def _drop_held_items(self, view: View, cid: str) -> None:
        """CMV-COND-13: a stunned creature drops anything it holds (weapon and shield)."""
        creature, cs = view.creature(cid), view.state.get(cid)
        if not any(row.drops_held for _, row in self.rows(self.conditions(creature, cs))):
            return
        if cs.wielding is None and cs.shield_state not in ("held", "strapped"):
            return
        shield = "dropped" if cs.shield_state in ("held", "strapped") else cs.shield_state
        held = [x for x in (cs.wielding, "its shield" if shield != cs.shield_state else None) if x]
        view.emit(ev.EquipmentChanged(cid, None, shield, sorted(cs.loaded),
                                      f"is stunned and drops {' and '.join(held)} (CMV-COND-13)"))

    # ================================================================= P14 injury model
    def health(self, creature: Creature, state: CombatantState) -> health.Health:
        """CMV-INJ: dead; dying or stable (both unconscious and helpless); otherwise up — however
        much damage it has taken, for damage alone never kills (CMV-INJ-12)."""
        stored = stored_conditions(state)
        if "dead" in stored:
            return health.Health.DEAD
        if "dying" in stored or "stable" in stored:
            return health.Health.DYING
        return health.Health.OK

    def is_helpless(self, creature: Creature, state: CombatantState) -> bool:
        """CMV-HELP-01: bound, asleep, paralyzed, unconscious (so dying and stable too, CMV-INJ-10/14)."""
        return any(row.helpless for _, row in self.rows(self.conditions(creature, state)))

    def _blocker(self, creature: Creature, state: CombatantState) -> str | None:
        """The condition that stops every action *and* reaction (stunned, cowering, unconscious…)."""
        rows = dict(self.rows(self.conditions(creature, state)))
        for name in _NO_ACTION_ORDER:
            row = rows.get(name)
            if row is not None and row.actions == "none" and not row.reactions:
                return name
        return None

    def can_act(self, creature: Creature, state: CombatantState) -> bool:
        """A dazed creature keeps its turn (with no actions) because it may still react (CMV-COND-05)."""
        if state.conditions & {"fled", "surrendered"}:
            return False
        return self._blocker(creature, state) is None

    def cannot_act_reason(self, creature: Creature, state: CombatantState) -> str:
        stored = stored_conditions(state)
        for name in ("dead", "dying", "stable"):
            if name in stored and not (name == "dying" and "stable" in stored):
                return _CANNOT_ACT_TEXT[name]
        blocker = self._blocker(creature, state)
        if blocker is None:
            return "cannot act"
        return _CANNOT_ACT_TEXT.get(blocker, f"{blocker}: helpless (CMV-HELP-01)")

    def out_of_fight(self, creature: Creature, state: CombatantState) -> bool:
        """Dead, helpless (dying, stable, unconscious…), fled or surrendered; a stunned, dazed or
        cowering creature is still in the fight."""
        if state.conditions & {"fled", "surrendered"}:
            return True
        return self.is_helpless(creature, state)

    def after_damage(self, view: View, target: str, amount: int, hp_before: int) -> None:
        """CMV-INJ-12: damage that leaves a conscious creature past its hp → a death save DC 10 +
        that damage: failure → dying; success → staggered with damage set to hp (CMV-INJ-13).
        CMV-INJ-15: damage to a dying or stable creature → a death save DC 10 + damage; failure → dead."""
        if self._cdg is not None and self._cdg[0] == target:
            self._cdg[1].append(amount)  # the coup de grace makes its own death save (CMV-CDG-06)
            return
        creature, cs = view.creature(target), view.state.get(target)
        stored = stored_conditions(cs)
        if "dead" in stored:
            return
        self._sync(view, target, only=("bloodied",))
        if "dying" in stored or "stable" in stored:
            state = "dying" if "dying" in stored and "stable" not in stored else "stable"
            if not self.saving_throw(view, target, "death", 10 + amount, f"{amount} damage while {state} "
                                     f"(CMV-INJ-15)"):
                self._die(view, target, "failed a death save while " + state + " (CMV-INJ-15)")
            elif state == "stable":
                view.emit(ev.Stabilized(target, f"{target} stays stable (CMV-INJ-15)"))
        elif damage_taken(creature, cs) > creature.sheet.hp:
            why = f"damage {damage_taken(creature, cs)} > hp {creature.sheet.hp} (CMV-INJ-12)"
            if self.saving_throw(view, target, "death", 10 + amount, why):
                self._survive(view, target, "CMV-INJ-13")
            else:
                view.emit(ev.ConditionSet(target, "dying", True,
                                          "damage past hp and a failed death save: unconscious and helpless "
                                          "(CMV-INJ-12)"))
        self._sync(view, target)

    def strenuous(self, view: View, actor: str, cost: str) -> None:
        """CMV-INJ-08 (proposed): a staggered creature's major action costs it 1 damage, which takes
        it past its hp: a death save DC 11."""
        creature, cs = view.creature(actor), view.state.get(actor)
        if not self.opts.cmv_staggered_strenuous_damage or cost not in ("standard", "full-round"):
            return
        if "staggered" not in self.conditions(creature, cs) or not self.can_act(creature, cs):
            return
        view.emit(ev.Damaged(actor, 1, "strenuous", f"{actor} strains while staggered: 1 damage (CMV-INJ-08)"))
        self.after_damage(view, actor, 1, cs.hp)

    def _set_damage(self, view: View, cid: str, damage: int, why: str) -> None:
        creature, cs = view.creature(cid), view.state.get(cid)
        now = damage_taken(creature, cs)
        if damage < now:
            view.emit(ev.Healed(cid, now - damage, why))
        elif damage > now:
            view.emit(ev.Damaged(cid, damage - now, why, f"{cid}'s damage is raised to {damage} ({why})"))

    def _survive(self, view: View, cid: str, rule: str) -> None:
        creature = view.creature(cid)
        if self.opts.cmv_death_save_pass == "stable":
            view.emit(ev.ConditionSet(cid, "stable", True, f"passed its death save (cmv_death_save_pass = stable, "
                                                           f"{rule})"))
            view.emit(ev.Stabilized(cid, f"{cid} is stable ({rule})"))
            return
        self._set_damage(view, cid, creature.sheet.hp, f"death save passed: damage set to hp ({rule})")
        view.emit(ev.Note(f"{cid} survives, staggered: damage {creature.sheet.hp} = hp ({rule})"))

    def _die(self, view: View, cid: str, why: str) -> None:
        stored = stored_conditions(view.state.get(cid))
        for name in ("dying", "stable"):
            if name in stored:
                view.emit(ev.ConditionSet(cid, stored[name][0], False, ""))
        view.emit(ev.ConditionSet(cid, "dead", True, why))
        self._sync(view, cid)

    def _sync(self, view: View, cid: str, only: tuple[str, ...] = ("bloodied", "staggered")) -> None:
        """Record the derived injury conditions as events (a mirror for the log; never read back)."""
        creature, cs = view.creature(cid), view.state.get(cid)
        stored = stored_conditions(cs)
        hp, dmg = creature.sheet.hp, damage_taken(creature, cs)
        out_cold = bool({"dying", "stable", "dead"} & set(stored))
        want = {"bloodied": self.bloodied_by_damage(hp, dmg), "staggered": dmg >= hp and not out_cold}
        reasons = {"bloodied": f"damage {dmg} ≥ half of hp {hp} (CMV-INJ-03)",
                   "staggered": f"damage {dmg} ≥ hp {hp}: one minor or major action, half speed (CMV-INJ-09)"}
        for name, on in want.items():
            if name not in only:
                continue
            if on and name not in stored:
                view.emit(ev.ConditionSet(cid, name, True, reasons[name]))
            elif not on and name in stored:
                view.emit(ev.ConditionSet(cid, stored[name][0], False, f"damage {dmg}"))

    # ================================================================= P19 reaction attacks
    def threat_reach(self, creature: Creature, state: CombatantState) -> int:
        """Only a melee weapon in hand threatens (EP-AOO-01/02, borrowed by CMV-COV-08)."""
        return self._melee_reach(creature, state) if self.opts.cmv_reaction_attack_rules == "ep" else 0

    @staticmethod
    def _melee_reach(creature: Creature, state: CombatantState) -> int:
        if state.wielding is None:
            return 0
        try:
            option = creature.attack(state.wielding)
        except KeyError:
            return 0
        return 0 if option.is_ranged else creature.reach_ft

    def can_react(self, creature: Creature, state: CombatantState) -> bool:
        """No reactions while off-guard (CMV-COND-39), helpless (CMV-HELP-04), stunned, cowering;
        a dazed creature may still react (CMV-COND-05)."""
        if not self.can_act(creature, state) or self.is_helpless(creature, state):
            return False
        return all(row.reactions for _, row in self.rows(self.conditions(creature, state)))

    def can_make_aoo(self, view: View, reactor: str, target: str) -> bool:
        """CMV-COV-08 and CMV-CONC-16: no reaction attack against an opponent with cover or total
        concealment relative to the reactor; CMV-COND-39: none by an off-guard creature."""
        rc, rstate = view.creature(reactor), view.state.get(reactor)
        if not self.can_react(rc, rstate):
            return False
        tc, tstate = view.creature(target), view.state.get(target)
        a_fp, t_fp = Footprint(rstate.position, rc.space), Footprint(tstate.position, tc.space)
        if self._totally_concealed(view, reactor, target):
            return False
        fact = self.find_cover(view.game_map, a_fp, t_fp, ranged=False, reach_attack=rc.reach_ft > 5,
                               adjacent=footprint_distance_ft(a_fp, t_fp) == 5,
                               creature_squares=self._creature_squares(view, (reactor, target)))
        return fact.degree is CoverDegree.NONE

    def movement_provokes(self, mode: str) -> bool:
        """EP-AOO-06/08: leaving a threatened square provokes; so does a charge's movement. A 5-foot step doesn't."""
        return self.opts.cmv_reaction_attack_rules == "ep" and mode in ("move", "charge")

    def _creature_squares(self, view: View, exclude: tuple[str, ...]) -> dict[Square, str]:
        out: dict[Square, str] = {}
        for cid, c in view.state.combatants.items():
            if cid in exclude or c.has("fled"):
                continue
            creature = view.creature(cid)
            for sq in Footprint(c.position, creature.space).squares():
                out[sq] = creature.name
        return out

    def _totally_concealed(self, view: View, observer: str, target: str) -> bool:
        oc, os_ = view.creature(observer), view.state.get(observer)
        tc, ts = view.creature(target), view.state.get(target)
        vision = Vision(low_light=oc.sheet.low_light_vision, darkvision_ft=oc.sheet.darkvision_ft,
                        blinded=os_.has("blinded"), sees_invisible=os_.has("sees_invisible"))
        sources = concealment_sources(view.game_map, Footprint(os_.position, oc.space), vision,
                                      Footprint(ts.position, tc.space), defender_invisible=ts.has("invisible"))
        return any(src.total for src in sources)

    # ================================================================= P8 attack
    def attack_problem(self, view: View, attack: AttackInfo) -> str | None:
        """CMV-COND-45: prone, no ranged attack except with a crossbow; CMV-COND-26/28: a frightened
        creature fights only if cornered, a panicked one never; CMV-COV-23: only long piercing weapons
        strike through a narrow opening."""
        s = view.state
        creature, cs = view.creature(attack.attacker), s.get(attack.attacker)
        active = self.conditions(creature, cs)
        option = attack.option
        if attack.ranged and option.kind not in CROSSBOWS:
            for name, row in self.rows(active):
                if row.ranged == "crossbow":
                    return f"{attack.attacker} is {name}: no ranged attacks except with a crossbow (CMV-COND-45)"
        fear = self._fear(active)
        if fear == "panicked":
            return f"{attack.attacker} is panicked: it flees and never attacks (CMV-COND-28)"
        if fear == "frightened":
            source = self._fear_source(view, attack.attacker, fear)
            if source is None or not self.cornered(view, attack.attacker, source):
                return f"{attack.attacker} is frightened: it fights only if cornered (CMV-COND-26)"
        gm = view.game_map
        if gm.narrow_openings and not long_piercing(option):
            tc, ts = view.creature(attack.target), s.get(attack.target)
            opening = self._opening_between(gm, Footprint(cs.position, creature.space),
                                            Footprint(ts.position, tc.space))
            if opening is not None:
                return (f"{option.name} cannot strike through the narrow opening at ({opening[0]},{opening[1]}); "
                        f"only long piercing weapons can (CMV-COV-23)")
        return None

    @staticmethod
    def _opening_between(gm: GameMap, a: Footprint, t: Footprint) -> Square | None:
        """A narrow opening the line between the two creatures' centres passes through."""
        for sa in a.squares():
            for st in t.squares():
                for sq in squares_crossed_scaled((2 * sa[0] + 1, 2 * sa[1] + 1), (2 * st[0] + 1, 2 * st[1] + 1), 2):
                    if sq in gm.narrow_openings:
                        return sq
        return None

    def situational_attack_modifiers(self, view: View, attack: AttackInfo) -> list[Modifier]:
        """CMV-SIT-01/04/06/08/10 and the conditions' attack modifiers (bloodied, wounded, shaken,
        disoriented, prone, fatigue)."""
        s = view.state
        creature, cs = view.creature(attack.attacker), s.get(attack.attacker)
        active = self.conditions(creature, cs)
        melee = not attack.ranged
        mods: list[Modifier] = []
        for name, row in self.rows(active):
            if name == "prone" and self.opts.cmv_prone_attacker_table:
                mods.append(Modifier(4, "prone (table, cmv_prone_attacker_table)"))
                continue
            value = row.attack + (row.melee_attack if melee else 0)
            if value and name != "flanking":
                mods.append(Modifier(value, name))
        delta = self.ability_delta(creature, active, "str" if melee else "dex")
        if delta:
            mods.append(Modifier(delta, f"{'Str' if melee else 'Dex'} (fatigue)"))
        gm = view.game_map
        if self.squeezing(gm, creature, cs):
            mods.append(Modifier(-4, "squeezing"))
        tc, ts = view.creature(attack.target), s.get(attack.target)
        a_fp, t_fp = Footprint(cs.position, creature.space), Footprint(ts.position, tc.space)
        if self.higher_ground(gm, a_fp, t_fp) and (melee or not self.opts.cmv_higher_ground_melee_only):
            mods.append(Modifier(1, "higher ground"))
        if melee:
            flank = self.flanking(view, attack.attacker, attack.target)
            if flank is not None:
                mods.append(Modifier(cmv_data().conditions["flanking"].melee_attack, f"flanking with {flank[0]}"))
        return mods

    @staticmethod
    def higher_ground(gm: GameMap, attacker: Footprint, target: Footprint) -> bool:
        """CMV-SIT-04 (proposed): the attacker stands higher than every square the defender occupies."""
        if not gm.elevation:
            return False
        low = min(gm.elevation.get(sq, 0) for sq in attacker.squares())
        return low > max(gm.elevation.get(sq, 0) for sq in target.squares())

    def threatens_target(self, view: View, ally: str, target: str) -> bool:
        """CMV-COND-34 (proposed): the ally could make a melee attack into the target's squares now —
        armed, able to act, not helpless nor unconscious."""
        ac, astate = view.creature(ally), view.state.get(ally)
        if astate.has("fled") or not self.can_act(ac, astate) or self.is_helpless(ac, astate):
            return False
        allow = self.allowance(ac, astate, surprise_round=False)
        if isinstance(allow, CmvAllowance) and allow.no_actions:
            return False
        reach = self._melee_reach(ac, astate)
        tc, ts = view.creature(target), view.state.get(target)
        return reach > 0 and within_reach(Footprint(astate.position, ac.space), reach, Footprint(ts.position, tc.space))

    def flanking(self, view: View, attacker: str, target: str) -> tuple[str, FlankFact] | None:
        """CMV-COND-33/34: an ally of the attacker threatens the target from its opposite side."""
        s = view.state
        me = view.creature(attacker)
        a_fp = Footprint(s.get(attacker).position, me.space)
        tc = view.creature(target)
        t_fp = Footprint(s.get(target).position, tc.space)
        for ally in sorted(s.combatants):
            if ally in (attacker, target) or view.creature(ally).side != me.side:
                continue
            if not self.threatens_target(view, ally, target):
                continue
            fact = flanking_fact(a_fp, Footprint(s.get(ally).position, view.creature(ally).space), t_fp)
            if fact is not None:
                return ally, fact
        return None

    def attack_rolled(self, view: View, attack: AttackInfo, total: int, hit: bool) -> None:
        """Note the attacker's Strength as fatigue leaves it, for the damage that follows (CMV-COND-17)."""
        creature = view.creature(attack.attacker)
        active = self.conditions(creature, view.state.get(attack.attacker))
        self._str_mods[attack.attacker] = creature.str_mod + self.ability_delta(creature, active, "str")

    def damage_strength(self, creature: Creature, option: AttackOption) -> int:
        return damage_rules.strength_damage(self._str_mods.get(creature.id, creature.str_mod), option)

    def before_attack_roll(self, view: View, attack: AttackInfo) -> str | None:
        """CMV-COND-08 (proposed): a deafened caster's spell attack fumbles on d% ≤ 20 — rolled before
        the attack roll; a fumbled spell fails even if the roll would hit."""
        if attack.option.kind is not WeaponKind.SPELL or not self.opts.cmv_deafened_spell_fumble:
            return None
        creature, cs = view.creature(attack.attacker), view.state.get(attack.attacker)
        chance = max((row.spell_fumble for _, row in self.rows(self.conditions(creature, cs))), default=0)
        if not chance:
            return None
        pct = view.dice.percentile(f"verbal component {attack.attacker}")
        if pct > chance:
            return None
        self._fumble = pct
        return "spell fumble"

    def resolve_active_defense(self, view: View, attack: AttackInfo, choice: str, total: int) -> tuple[bool, str]:
        if choice == "spell fumble":
            return True, (f"but the spell fails: deafened, its verbal component fumbles (d% {self._fumble} ≤ 20, "
                          f"CMV-COND-08)")
        return super().resolve_active_defense(view, attack, choice, total)

    # ================================================================= P9 defense
    def is_flat_footed(self, creature: Creature, state: CombatantState, *, surprised: bool) -> bool:
        """Off-guard replaces flat-footed (CMV-SIT-07, CMV-COND-37..41)."""
        return surprised or self.is_off_guard(creature, state)

    def defense(self, creature: Creature, state: CombatantState, ctx: DefenseContext, extra: Sequence[Modifier],
                view: View | None = None, attack: AttackInfo | None = None) -> Total:
        """PFB's AC with CMV's defender modifiers (CMV-SIT-02): off-guard −2 and no Dex bonus
        (CMV-COND-37/38); helpless Dex −5 and −4 against melee, without off-guard's −2 (CMV-HELP-02..04);
        prone −4 against melee and +4 against ranged (CMV-COND-42/43); disoriented −2 (CMV-COND-10);
        squeezing −4 (CMV-SIT-11); cover +4 or +8 comes in ``extra``."""
        active = self.conditions(creature, state)
        mods = list(extra)
        off_guard = ctx.flat_footed
        if not off_guard and attack is not None and view is not None and self.opts.cmv_surprise_unseen_attacker \
                and attack.attacker in view.state.combatants \
                and self._totally_concealed(view, attack.target, attack.attacker):
            off_guard = True
        cdg = self._cdg is not None and attack is not None and self._cdg[0] == attack.target
        helpless = ctx.helpless
        if helpless and cdg and self.opts.cmv_cdg_flat_minus_nine:
            helpless = False
            mods.append(Modifier(-9, "coup de grace (flat −9, cmv_cdg_flat_minus_nine)"))
        elif helpless:
            if self.opts.cmv_helpless_off_guard_penalty:
                mods.append(Modifier(-2, "off-guard (cmv_helpless_off_guard_penalty)"))
        elif off_guard:
            unseen = not ctx.flat_footed
            mods.append(Modifier(-2, "off-guard (unseen attacker, CMV-COND-40)" if unseen else "off-guard"))
        for name, row in self.rows(active):
            if name == "off-guard":
                continue
            value = row.ac + (row.melee_ac if ctx.vs_melee else row.ranged_ac)
            if value:
                mods.append(Modifier(value, name))
        if view is not None and self.squeezing(view.game_map, creature, state):
            mods.append(Modifier(-4, "squeezing"))
        fact = getattr(attack, "cover", None)
        if isinstance(fact, CmvCover) and fact.gm_ac:
            mods.append(Modifier(fact.gm_ac, "GM ruling"))
        c = self.adjusted(creature, active)
        ctx = replace(ctx, flat_footed=off_guard, helpless=helpless)
        return armor_class(c, state, ctx, extra=[m for m in mods if m.value], stacking=self.stacking)

    # ================================================================= P17 cover
    def creatures_give_cover(self, ranged: bool) -> bool:
        return True  # find_cover decides: soft cover for ranged and reach attacks only (CMV-COV-04/05/11)

    def find_cover(self, game_map: GameMap, attacker: Footprint, target: Footprint, *, ranged: bool,
                   reach_attack: bool, adjacent: bool, creature_squares: dict[Square, str]) -> CoverFact:
        """CMV-COV-01..07, 11, 14..18. Adjacent melee: any line from the attacker's square to the
        target's square through a wall or low wall, never a creature (CMV-COV-04); a big creature
        picks its square, and the attacker picks the big target's square (CMV-COV-14/15). Ranged and
        reach: the attacker's best corner of any of its squares (CMV-COV-01), creatures give soft
        cover (CMV-COV-02/05/11). Low obstacles count only within 30 ft of the target and are ignored
        by an attacker closer to them (CMV-COV-06/07); narrow openings cover whoever is nearer them."""
        gm = self._cover_map(game_map, attacker, target)
        walls_only = self._openings(game_map, attacker, target)
        if not ranged and adjacent:
            blockers = walls_only
            pairs = [(Footprint(a, 1), Footprint(t, 1)) for a in sorted(attacker.squares())
                     for t in sorted(target.squares()) if footprint_distance_ft(Footprint(a, 1), Footprint(t, 1)) == 5]
            facts = [cover(gm, a, t, mode="any_line", creature_squares=blockers) for a, t in pairs]
        else:
            soft = ranged or not self.opts.cmv_soft_cover_ranged_only
            blockers = {**(creature_squares if soft else {}), **walls_only}
            targets = [Footprint(t, 1) for t in sorted(target.squares())] if not ranged and target.size > 1 \
                else [target]
            facts = [cover(gm, Footprint(a, 1), t, mode="best_corner", creature_squares=blockers)
                     for a in sorted(attacker.squares()) for t in targets]
        fact = self._best_for_attacker(facts)
        if fact.degree is CoverDegree.TOTAL and not ranged and adjacent:
            fact = CoverFact(CoverDegree.COVER, fact.via, fact.reason, fact.blocked_lines, fact.lines)
        if fact.degree is not CoverDegree.COVER:
            return CmvCover(fact.degree, fact.via, fact.reason, fact.blocked_lines, fact.lines)
        soft_cover = False
        if not (not ranged and adjacent) and fact.via in creature_squares and fact.via not in walls_only:
            without = [cover(gm, Footprint(a, 1), t, mode="best_corner", creature_squares=walls_only)
                       for a in sorted(attacker.squares())
                       for t in ([Footprint(t, 1) for t in sorted(target.squares())]
                                 if not ranged and target.size > 1 else [target])]
            soft_cover = self._best_for_attacker(without).degree is CoverDegree.NONE
        improved = (fact.via in game_map.improved_cover
                    or any(sq in game_map.improved_cover for sq in target.squares())) and not soft_cover
        reason = fact.reason + (" — soft cover" if soft_cover else "") + (" — improved cover" if improved else "")
        return CmvCover(fact.degree, fact.via, reason, fact.blocked_lines, fact.lines, improved=improved,
                        soft=soft_cover)

    @staticmethod
    def _best_for_attacker(facts: list[CoverFact]) -> CoverFact:
        if not facts:
            return CoverFact(CoverDegree.NONE, None, "no line is blocked")
        for degree in (CoverDegree.NONE, CoverDegree.PARTIAL, CoverDegree.COVER):
            for f in facts:
                if f.degree is degree:
                    return f
        return facts[0]

    def _cover_map(self, game_map: GameMap, attacker: Footprint, target: Footprint) -> GameMap:
        """The map as a low obstacle sees it: only low walls within 30 ft of the target count
        (CMV-COV-06); on a tie of distances the cover stands unless the variant says otherwise
        (CMV-COV-07). Creature heights are not modelled: every map low wall is a low obstacle.
        The attacker strictly closer to a low wall ignores it (the core's line tracer)."""
        if not game_map.low_walls:
            return game_map
        keep = set()
        for w in game_map.low_walls:
            d_t = square_to_footprint_ft(w, target)
            if d_t > LOW_OBSTACLE_REACH_FT:
                continue
            if not self.opts.cmv_low_obstacle_tie_keeps_cover and square_to_footprint_ft(w, attacker) == d_t:
                continue
            keep.add(w)
        if keep == set(game_map.low_walls):
            return game_map
        return dataclasses.replace(game_map, low_walls=frozenset(keep))

    def _openings(self, game_map: GameMap, attacker: Footprint, target: Footprint) -> dict[Square, str]:
        """Narrow openings between them cover the one nearer the opening (as low obstacles do, CMV-COV-18)."""
        return {sq: "a narrow opening" for sq in sorted(game_map.narrow_openings)
                if square_to_footprint_ft(sq, target) <= square_to_footprint_ft(sq, attacker)}

    def cover_modifier(self, fact: CoverFact) -> Modifier | None:
        """CMV-COV-03/11: +4 AC (soft cover too); CMV-COV-18: improved cover +8."""
        if fact.degree is not CoverDegree.COVER:
            return None
        if isinstance(fact, CmvCover) and fact.improved:
            return Modifier(8, "improved cover", "cover")
        if isinstance(fact, CmvCover) and fact.soft:
            return Modifier(4, "soft cover", "cover")
        return Modifier(4, "cover", "cover")

    # ================================================================= P18 concealment
    concealment_before_roll = False
    """CMV-CONC-08/09: the defender's d% comes after a hit (both may be rolled together)."""

    def concealment_sources(self, game_map: GameMap, attacker: Footprint, vision: Vision, target: Footprint,
                            defender: CombatantState, *, adjacent_melee: bool) -> tuple[ConcealmentSource, ...]:
        """Each *condition* once (CMV-CONC-10: fog and blur are two): concealing terrain counts once
        at its strongest, by the ranged line test (CMV-CONC-03/05) or, in adjacent melee, only if the
        target's space lies entirely inside it (CMV-CONC-04); light, blindness and invisibility as the
        core finds them (CMV-CONC-12/17); magic on the defender against every attack (CMV-CONC-06)."""
        concealing = game_map.concealing
        if adjacent_melee:
            own = set(target.squares())
            concealing = {sq: p for sq, p in concealing.items() if sq in own}
        out: list[ConcealmentSource] = []
        if concealing:
            terrain_map = dataclasses.replace(game_map, concealing=concealing, light={}, lights=())
            terrain = concealment_sources(terrain_map, attacker, Vision(), target)
            if terrain:
                out.append(max(terrain, key=lambda s: s.percent))
        rest = dataclasses.replace(game_map, concealing={}) if game_map.concealing else game_map
        out.extend(concealment_sources(rest, attacker, vision, target, defender_invisible=defender.has("invisible")))
        for name, (_, args) in stored_conditions(defender).items():
            if name == "blur":
                out.append(ConcealmentSource(20, "blur (20%)", False))
            elif name == "concealed":
                pct = int(args[0]) if args and args[0].isdigit() else 20
                out.append(ConcealmentSource(pct, f"magical concealment ({pct}%)", False))
        return tuple(out)

    def concealment(self, sources: Sequence[ConcealmentSource]) -> tuple[int, str]:
        """CMV-CONC-07/10/15: the sources stack up to 50 % (added by default)."""
        if not sources:
            return 0, ""
        percents = [s.percent for s in sources]
        if self.opts.cmv_concealment_stack == "add":
            raw = sum(percents)
        else:
            keep = Fraction(1)
            for p in percents:
                keep *= Fraction(100 - p, 100)
            raw = int((1 - keep) * 100)
        pct = min(raw, CONCEALMENT_CAP)
        reason = " + ".join(f"{s.reason}" for s in sources)
        if len(sources) > 1:
            how = "added" if self.opts.cmv_concealment_stack == "add" else "combined"
            reason += f" — {how}: {raw}%" + (f", capped at {CONCEALMENT_CAP}%" if raw > CONCEALMENT_CAP else "")
        return pct, reason

    # ================================================================= the ruleset's own actions
    def _need_turn(self, tx: Tx) -> TurnState:
        turn = tx.state.turn
        if turn is None:
            raise RuleError("no turn is running")
        return turn

    def do_coup_de_grace(self, engine: Encounter, tx: Tx, actor: str, a: CoupDeGrace, dry: bool) -> None:
        """CMV-CDG-01..11."""
        s = tx.state
        if a.target not in s.combatants or a.target == actor:
            raise RuleError(f"coup de grace: no target {a.target!r}")
        tc, ts = engine.creature(a.target), s.get(a.target)
        if self.health(tc, ts) is health.Health.DEAD:
            raise RuleError(f"coup de grace: {a.target} is already dead")
        if not self.is_helpless(tc, ts):
            raise RuleError(f"coup de grace: {a.target} is not helpless (CMV-CDG-02)")
        if "cdg-immune" in stored_conditions(ts):
            raise RuleError(f"coup de grace: {a.target} cannot be slain so (massive or bizarre anatomy, CMV-CDG-10)")
        creature, cs = engine.creature(actor), s.get(actor)
        name = a.attack or cs.wielding
        if name is None:
            raise RuleError("coup de grace: draw a weapon first")
        try:
            option = creature.attack(name)
        except KeyError as exc:
            raise RuleError(str(exc.args[0])) from None
        if option.is_ranged:
            if option.kind not in PROJECTILES:
                raise RuleError(f"coup de grace: {option.name} is neither a melee nor a projectile weapon "
                                f"(CMV-CDG-02/03)")
            dist = footprint_distance_ft(Footprint(cs.position, creature.space), Footprint(ts.position, tc.space))
            if dist != 5:
                raise RuleError(f"coup de grace: with {option.name} only from an adjacent square ({dist} ft away, "
                                f"CMV-CDG-03)")
        found = self._found(cs, a.target)
        concealed = self._totally_concealed(tx, actor, a.target)
        if concealed and found is None:
            # CMV-CDG-11: the first of two consecutive full-round actions "finds" the creature.
            if a.square is None:
                raise RuleError(f"coup de grace: {a.target} has total concealment; name the square to search "
                                f"(CMV-CDG-11)")
            engine.pay(tx, actor, f"find {a.target}", "full-round", dry)
            if dry:
                return
            sq = (int(a.square[0]), int(a.square[1]))
            tx.emit(ev.EffectAdded(actor, f"found {a.target} at ({sq[0]},{sq[1]})", actor, s.round + 2))
            tx.emit(ev.Note(f"{actor} gropes about ({sq[0]},{sq[1]}) to find {a.target} for a coup de grace "
                            f"(a full-round action, CMV-CDG-11)"))
            return
        bonus = Modifier(4, "coup de grace")
        square = found[1] if found is not None else a.square
        if option.is_ranged:
            plan = self._adjacent_shot(engine, tx, actor, a.target, option, bonus, square)
        else:
            plan = engine.plan_attack(actor, a.target, option.name, square=square, state=s, extra=(bonus,))
        if found is not None and self.opts.cmv_cdg_find_removes_miss_chance:
            plan = replace(plan, concealment=0, concealment_reason="")
        engine.pay(tx, actor, f"coup de grace {a.target}", "full-round", dry)
        if dry:
            return
        if found is not None:
            tx.emit(ev.EffectEnded(actor, found[0]))
        if option.weapon.reload != "none":
            cs = tx.state.get(actor)
            tx.emit(ev.EquipmentChanged(actor, cs.wielding, cs.shield_state, sorted(cs.loaded - {option.name}),
                                        f"fires {option.name}"))
        self._cdg = (a.target, [])
        try:
            engine.roll_attack(tx, plan)
            dealt = sum(self._cdg[1])
            hit = bool(self._cdg[1])
        finally:
            self._cdg = None
        if hit:
            self._coup_de_grace_save(tx, a.target, dealt)

    def _found(self, cs: CombatantState, target: str) -> tuple[str, Square] | None:
        prefix = f"found {target} at ("
        for e in cs.effects:
            if e.name.startswith(prefix):
                c, r = e.name[len(prefix):-1].split(",")
                return e.name, (int(c), int(r))
        return None

    def _adjacent_shot(self, engine: Encounter, tx: Tx, actor: str, target: str, option: AttackOption,
                       bonus: Modifier, square: Square | None) -> AttackPlan:
        """CMV-CDG-03: a projectile coup de grace from an adjacent square — the 10-ft rules of an
        ordinary shot do not apply; the helpless target's AC has no −4 (that is against melee)."""
        from d20combat.encounter.engine import AttackPlan

        s = tx.state
        creature, cs = engine.creature(actor), s.get(actor)
        if option.weapon.reload != "none" and option.name not in cs.loaded:
            raise RuleError(f"coup de grace: {option.name} is not loaded")
        if cs.wielding != option.name:
            raise RuleError(f"coup de grace: {actor} must draw {option.name} first")
        tc = engine.creature(target)
        a_fp, t_fp = Footprint(cs.position, creature.space), Footprint(s.get(target).position, tc.space)
        info = AttackPlan(actor, target, option, True, 5, (), CoverFact(CoverDegree.NONE, None, ""), 0, "", False)
        problem = self.attack_problem(tx, info)
        if problem:
            raise RuleError(f"coup de grace: {problem}")
        mods = [*self.attack_modifiers(creature, option), *(Modifier(e.attack, e.name) for e in cs.effects
                                                             if e.attack), bonus,
                *self.situational_attack_modifiers(tx, info)]
        fact = self.find_cover(tx.game_map, a_fp, t_fp, ranged=True, reach_attack=False, adjacent=True,
                               creature_squares=engine.creature_squares((actor, target), s))
        if fact.degree is CoverDegree.TOTAL:
            raise RuleError(f"coup de grace: {target} has total cover")
        vision = Vision(low_light=creature.sheet.low_light_vision, darkvision_ft=creature.sheet.darkvision_ft,
                        blinded=cs.has("blinded"), sees_invisible=cs.has("sees_invisible"))
        sources = self.concealment_sources(tx.game_map, a_fp, vision, t_fp, s.get(target), adjacent_melee=False)
        pct, reason = self.concealment(sources)
        wrong = square is not None and tuple(square) not in set(t_fp.squares())
        return AttackPlan(actor, target, option, True, 5, tuple(mods), fact, pct, reason, wrong)

    def _coup_de_grace_save(self, view: View, target: str, dealt: int) -> None:
        """CMV-CDG-06..09: the target dies unless it passes a death save DC 10 + damage dealt; a
        survivor is staggered and its damage is set to its hp."""
        ts = view.state.get(target)
        stored = stored_conditions(ts)
        extra = 0
        if "cdg-dc" in stored and stored["cdg-dc"][1]:
            extra = int(stored["cdg-dc"][1][0])
        dc = 10 + dealt + extra
        why = f"coup de grace, DC 10 + {dealt} damage" + (f" {extra:+d} (CMV-CDG-10)" if extra else "") + \
            " (CMV-CDG-07)"
        if not self.saving_throw(view, target, "death", dc, why):
            self._die(view, target, "slain by a coup de grace (CMV-CDG-06)")
            return
        creature = view.creature(target)
        keeps = self.opts.cmv_cdg_survivor_keeps_state and bool({"dying", "stable"} & set(stored))
        if not keeps:
            for name in ("dying", "stable"):
                if name in stored:
                    view.emit(ev.ConditionSet(target, stored[name][0], False, "survives the coup de grace "
                                                                             "(CMV-CDG-09)"))
        self._set_damage(view, target, creature.sheet.hp, "survived a coup de grace: damage set to hp (CMV-CDG-09)")
        view.emit(ev.Note(f"{target} survives the coup de grace: staggered, damage {creature.sheet.hp} = hp "
                          f"(CMV-CDG-08/09)" + (" — still " + ("dying" if "dying" in stored else "stable") +
                                                " (cmv_cdg_survivor_keeps_state)" if keeps else "")))
        self._sync(view, target)

    def do_escape(self, engine: Encounter, tx: Tx, actor: str, a: Escape, dry: bool) -> None:
        """CMV-COND-36 (proposed): one escape attempt as a major action: d20 + the better of Str and
        Dex + check modifiers against the hold's DC (``held:<DC>``, else ``cmv_held_escape_dc``)."""
        creature, cs = engine.creature(actor), tx.state.get(actor)
        stored = stored_conditions(cs)
        if "held" not in stored:
            raise RuleError(f"escape: {actor} is not held")
        turn = self._need_turn(tx)
        try:
            label, spend = self._pay("standard", turn, engine.allowance(actor, tx.state),
                                     surprise_round=tx.state.surprise_round, escaping=True)
        except BudgetError as exc:
            raise RuleError(f"escape: {exc}") from None
        if dry:
            return
        tx.emit(ev.BudgetSpent(actor, "escape", label, spend))
        text, args = stored["held"]
        dc = int(args[0]) if args and args[0].isdigit() else self.opts.cmv_held_escape_dc
        active = self.conditions(creature, cs)
        c = self.adjusted(creature, active)
        best = ("Str", c.str_mod) if c.str_mod >= c.dex_mod else ("Dex", c.dex_mod)
        face = tx.dice.d20(f"escape {actor}")
        t = total(face, [Modifier(best[1], best[0]), *self.check_modifiers(creature, cs)], base_label="d20",
                  stacking=self.stacking)
        ok = t.value >= dc
        tx.emit(ev.Note(f"{actor} struggles to escape: {t.explain()} vs DC {dc} — "
                        f"{'breaks free' if ok else 'still held'} (CMV-COND-36)"))
        if ok:
            tx.emit(ev.ConditionSet(actor, text, False, "escaped"))
        self.strenuous(tx, actor, "standard")

    def do_guide(self, engine: Encounter, tx: Tx, actor: str, a: Guide, dry: bool) -> None:
        """CMV-COND-03 / CMV-INJ-07 (proposed "aided by others"): an adjacent ally's minor action."""
        s = tx.state
        if a.ally not in s.combatants or a.ally == actor or engine.creature(a.ally).side != engine.creature(actor).side:
            raise RuleError(f"guide: {a.ally!r} is not an ally")
        ac, astate = engine.creature(a.ally), s.get(a.ally)
        if footprint_distance_ft(engine.footprint(actor, s), engine.footprint(a.ally, s)) != 5:
            raise RuleError(f"guide: {a.ally} is not adjacent")
        if not {"blinded", "staggered"} & self.conditions(ac, astate):
            raise RuleError(f"guide: {a.ally} is neither blinded nor staggered")
        engine.pay(tx, actor, f"guide {a.ally}", "move", dry)
        if dry:
            return
        tx.emit(ev.EffectAdded(a.ally, f"guided by {actor}", actor, s.round + 1))
        tx.emit(ev.Note(f"{actor} guides {a.ally}: full speed until {actor}'s next turn (CMV-COND-03, CMV-INJ-07)"))

    def do_blind_move(self, engine: Encounter, tx: Tx, actor: str, a: BlindMove, dry: bool) -> None:
        """Variant ``cmv_blind_full_speed_check`` (CMV-COND-03)."""
        if not self.opts.cmv_blind_full_speed_check:
            raise RuleError("blind move: only with the variant cmv_blind_full_speed_check (CMV-COND-03)")
        creature, cs = engine.creature(actor), tx.state.get(actor)
        if not cs.has("blinded"):
            raise RuleError(f"blind move: {actor} is not blinded")
        if cs.has("prone"):
            raise RuleError(f"blind move: {actor} is prone; stand up first")
        turn = self._need_turn(tx)
        if turn.stepped:
            raise RuleError("blind move: after a 5-foot step no other movement this round (PFB-MOVE-03)")
        speed = self._speed(creature, cs, ignore_blind=True)
        reach = mv.reachable(tx.game_map, engine.footprint(actor, tx.state), max(speed, 5),
                             engine.occupancy(actor, tx.state), diagonals_so_far=turn.diagonals,
                             flying=creature.fly_speed_ft > 0, difficult_diagonal_counts=self.difficult_diagonal_counts)
        to = (int(a.to[0]), int(a.to[1]))
        info = reach.get(to)
        if info is None or not info.path:
            raise RuleError(f"blind move: no legal path to {to} within {speed} ft")
        engine.pay(tx, actor, "move at full speed, blinded", "move", dry)
        if dry:
            return
        face = tx.dice.d20(f"Dex check {actor}")
        c = self.adjusted(creature, self.conditions(creature, cs))
        t = total(face, [Modifier(c.dex_mod, "Dex"), *self.check_modifiers(creature, cs)], base_label="d20",
                  stacking=self.stacking)
        if t.value >= 10:
            tx.emit(ev.Note(f"{actor} moves blind at full speed: Dex check {t.explain()} vs DC 10 — keeps its "
                            f"footing (CMV-COND-03)"))
            engine._walk(tx, actor, list(info.path), info.cost_ft, info.diagonals, "move")
        else:
            tx.emit(ev.ConditionSet(actor, "prone", True, f"Dex check {t.explain()} vs DC 10 fails: falls prone "
                                                          f"where the move began (CMV-COND-03)"))

    def do_cast_spell(self, engine: Encounter, tx: Tx, actor: str, a: CastSpell, dry: bool) -> None:
        """A spell resolved by the GM; CMV-COND-08 (proposed): deafened → d% ≤ 20 fails, the action is spent."""
        if not a.spell:
            raise RuleError("cast spell: name the spell")
        cost: Literal["standard", "full-round"] = "full-round" if a.full_round else "standard"
        engine.pay(tx, actor, f"cast {a.spell}", cost, dry)
        if dry:
            return
        creature, cs = engine.creature(actor), tx.state.get(actor)
        chance = max((row.spell_fumble for _, row in self.rows(self.conditions(creature, cs))), default=0)
        if a.verbal and chance and self.opts.cmv_deafened_spell_fumble:
            pct = tx.dice.percentile(f"verbal component {actor}")
            if pct <= chance:
                tx.emit(ev.Note(f"{actor} casts {a.spell}, but deafened, fumbles the verbal component "
                                f"(d% {pct} ≤ {chance}): the spell fails (CMV-COND-08)"))
                self.strenuous(tx, actor, cost)
                return
            tx.emit(ev.Note(f"{actor}'s verbal component holds (d% {pct} > {chance}, CMV-COND-08)"))
        tx.emit(ev.Note(f"{actor} casts {a.spell} (its effect is the GM's to resolve)"))
        self.strenuous(tx, actor, cost)

    def do_gm_attack(self, engine: Encounter, tx: Tx, actor: str, a: GmAttack, dry: bool) -> None:
        """CMV-SIT-03 / CMV-COV-18 / CMV-COV-22 / CMV-CONC-18: one attack as the GM rules it."""
        if a.refuse:
            raise RuleError(f"the GM refuses this attack: {a.refuse} (CMV-COV-22)")
        extra = (Modifier(a.attack_modifier, a.reason),) if a.attack_modifier else ()
        plan = engine.plan_attack(actor, a.target, a.attack, square=a.square, state=tx.state, extra=extra)
        fact = plan.cover
        base = fact if isinstance(fact, CmvCover) else CmvCover(fact.degree, fact.via, fact.reason,
                                                                   fact.blocked_lines, fact.lines)
        if a.cover == "none":
            base = CmvCover(CoverDegree.NONE, None, f"{a.reason}: no cover")
        elif a.cover in ("cover", "improved"):
            base = CmvCover(CoverDegree.COVER, base.via, f"{a.reason}: {a.cover} cover", improved=a.cover == "improved")
        base = replace(base, gm_ac=a.ac_modifier)
        plan = replace(plan, cover=base)
        if a.miss_chance is not None:
            if not 0 <= a.miss_chance <= 100:
                raise RuleError("gm attack: miss_chance must be 0–100")
            plan = replace(plan, concealment=a.miss_chance, concealment_reason=f"{a.reason} ({a.miss_chance}%)")
        engine.pay(tx, actor, f"attack {a.target}", "standard", dry)
        if dry:
            return
        if plan.option.weapon.reload != "none":
            cs = tx.state.get(actor)
            tx.emit(ev.EquipmentChanged(actor, cs.wielding, cs.shield_state, sorted(cs.loaded - {plan.option.name}),
                                        f"fires {plan.option.name}"))
        engine.roll_attack(tx, plan)
        self.strenuous(tx, actor, "standard")

    # ================================================================= AI
    def ai_suggestion(self, enc: Any, actor: str) -> Any:
        """CMV tactics: pass when dazed; struggle when held; flee when afraid; finish a helpless foe
        with a coup de grace when no standing foe threatens you; shoot a crossbow while prone."""
        s = enc.state
        creature, cs = enc.creature(actor), s.get(actor)
        active = self.conditions(creature, cs)
        allow = enc.allowance(actor)
        if isinstance(allow, CmvAllowance) and allow.no_actions:
            return ax.EndTurn()
        if isinstance(allow, CmvAllowance) and allow.held:
            escape = Escape()
            return escape if enc.check(escape) is None else ax.EndTurn()
        fear = self._fear(active)
        view = enc.view()
        if fear is not None:
            source = self._fear_source(view, actor, fear)
            if source is not None and (fear == "panicked" or not self.cornered(view, actor, source)):
                return self._flee(enc, actor, source)
        foes = [f for f in enc.enemies(actor) if not self.out_of_fight(enc.creature(f), s.get(f))]
        here = enc.footprint(actor)
        threatened = any(self.threat_reach(enc.creature(f), s.get(f)) > 0 and
                         within_reach(enc.footprint(f), self.threat_reach(enc.creature(f), s.get(f)), here)
                         for f in foes)
        if not threatened and enc.can_afford("full-round"):
            for foe in sorted(enc.enemies(actor)):
                fc, fs = enc.creature(foe), s.get(foe)
                if self.is_helpless(fc, fs) and self.health(fc, fs) is not health.Health.DEAD:
                    cdg = CoupDeGrace(foe, square=fs.position)
                    if enc.check(cdg) is None:
                        return cdg
        if "prone" in active and cs.wielding is not None:
            option = creature.attack(cs.wielding)
            if option.kind in CROSSBOWS and option.name in cs.loaded and enc.can_afford("standard"):
                for foe in sorted(foes):
                    shot = ax.Attack(foe, option.name, square=s.get(foe).position)
                    if enc.check(shot) is None:
                        return shot
        return None

    def _flee(self, enc: Any, actor: str, source: Footprint) -> Any:
        """CMV-COND-28 (proposed flee policy): the reachable square farthest from the source."""
        if not enc.can_afford("move"):
            return ax.EndTurn()
        creature = enc.creature(actor)
        here = footprint_distance_ft(enc.footprint(actor), source)
        options = enc.move_options(actor)
        best = max(options.items(), default=None,
                   key=lambda kv: (footprint_distance_ft(Footprint(kv[0], creature.space), source), -kv[1].cost_ft,
                                   (-kv[0][0], -kv[0][1])))
        if best is None or footprint_distance_ft(Footprint(best[0], creature.space), source) <= here:
            return ax.EndTurn()
        move = ax.Move(to=best[0])
        return move if enc.check(move) is None else ax.EndTurn()
