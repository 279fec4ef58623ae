"""The ruleset seam: a named bundle of policies the core asks whenever systems differ.

The base class holds the core defaults (rules-diff §3: PFB's rule where PFB states one). A ruleset
is a short subclass that overrides the policies its text changes, as python-chess variants do.
The core never asks which ruleset it runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Literal, Protocol

from pydantic import BaseModel, ConfigDict

from d20combat.battlefield.concealment import ConcealmentSource, Vision, concealment_sources
from d20combat.battlefield.cover import CoverDegree, CoverFact, cover
from d20combat.battlefield.grid import Footprint, GameMap, Square
from d20combat.battlefield.reach import within_reach
from d20combat.dice import DiceSource
from d20combat.encounter import events as ev
from d20combat.encounter.prompts import ReactionPrompt
from d20combat.encounter.state import CombatantState, EncounterState, TurnState
from d20combat.model.creature import AttackOption, Creature
from d20combat.numbers import Modifier, StackingPolicy, Total, core_stacking
from d20combat.rules import attack as attack_rules
from d20combat.rules import critical, health, initiative
from d20combat.rules import damage as damage_rules
from d20combat.rules.armor_class import DefenseContext, armor_class


class NoOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TurnAllowance(BaseModel):
    """What one turn may hold (P5 action_budget)."""

    model_config = ConfigDict(frozen=True)

    standard: bool = True
    move: bool = True
    free: int = 1
    single_action: bool = False
    """Exactly one standard *or* move action (surprise round, disabled)."""
    strenuous_costs_hp: bool = False
    """A standard action costs 1 hp afterwards (disabled, PF1 default)."""


class BudgetError(ValueError):
    """The turn cannot afford an action; the message names what is missing."""


class RuleError(ValueError):
    """The ruleset forbids something (a declared option it does not have, an illegal choice)."""


class View(Protocol):
    """What a ruleset hook may use while an action resolves: the working state, the dice, the
    compiled creatures, and the right to emit events and to ask a reaction."""

    @property
    def state(self) -> EncounterState: ...

    @property
    def dice(self) -> DiceSource: ...

    def creature(self, cid: str) -> Creature: ...

    @property
    def game_map(self) -> GameMap: ...

    def emit(self, event: ev.Event) -> None: ...

    def ask(self, prompt: ReactionPrompt) -> str: ...


class AttackInfo(Protocol):
    """The parts of a planned attack a ruleset may read."""

    @property
    def attacker(self) -> str: ...

    @property
    def target(self) -> str: ...

    @property
    def option(self) -> AttackOption: ...

    @property
    def ranged(self) -> bool: ...

    @property
    def distance_ft(self) -> int: ...


class Ruleset:
    id: ClassVar[str] = "core"
    title: ClassVar[str] = "core defaults"
    Options: ClassVar[type[BaseModel]] = NoOptions
    own_actions: ClassVar[tuple[type[Any], ...]] = ()
    """The ruleset's own action types (``@register_action`` dataclasses), for ``action_from_dict``."""

    # --- knobs the subclass sets from its named options -------------------------------------
    step_uses_free_action: bool = False
    difficult_diagonal_counts: bool = True
    move_draw_uses_free_action: bool = True
    surprise_free_actions: bool = False
    into_melee_ignores_helpless_allies: bool = False
    ranged_min_range_ignores_helpless: bool = False
    cover_any_line_everywhere: bool = False
    reach_ranged_cover_only_nonadjacent: bool = False
    partial_cover: bool = False
    flat_footed_loses_dodge: bool = False
    touch_keeps_natural_armor: bool = False
    dying_procedure: Literal["pf1", "static"] = "pf1"
    max_free_actions: int = 1

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        self.options = self.Options.model_validate(options or {})
        self.configure(self.options)

    def configure(self, options: BaseModel) -> None:
        """Map named variant options onto the knobs above."""

    # --- data the ruleset needs ------------------------------------------------------------------
    def check_stat_block(self, sheet: Any) -> list[str]:
        """Problems that make a stat block unusable under this ruleset (e.g. missing skill ratings).
        ``sheet`` is a :class:`d20combat.model.StatBlock`."""
        return []

    def complete_sheet(self, sheet: Any) -> Any:
        """The stat block as this ruleset plays it, with what its rules give every creature added (SKL's
        unarmed strike). Called once per combatant, after :meth:`check_stat_block`."""
        return sheet

    def candidate_actions(self, enc: Any, actor: str) -> list[Any]:
        """The ruleset's own actions worth offering now (the engine keeps the legal ones for ``legal_actions``)."""
        return []

    def action_forbidden(self, view: View, actor: str, action: Any) -> str | None:
        """Why this ruleset has no such action now (e.g. no charge), or None. Checked before anything else."""
        return None

    def ai_suggestion(self, enc: Any, actor: str) -> Any:
        """An action this ruleset's own tactics recommend now (reserve, coup de grace…), or None.
        ``enc`` is the :class:`d20combat.encounter.engine.Encounter`; the AI checks the action's legality."""
        return None

    # --- P1 bonus stacking -------------------------------------------------------------------
    stacking: StackingPolicy = staticmethod(core_stacking)

    # --- P2 turn order -----------------------------------------------------------------------
    def initiative_modifiers(self, creature: Creature) -> list[Modifier]:
        return initiative.initiative_modifiers(creature)

    def initiative_state_modifiers(self, creature: Creature, state: CombatantState) -> list[Modifier]:
        """Initiative modifiers from the creature's state when it rolls (conditions, wounds); none in PFB."""
        return []

    # --- P5 action budget --------------------------------------------------------------------
    def allowance(self, creature: Creature, state: CombatantState, *, surprise_round: bool) -> TurnAllowance:
        if surprise_round:
            # PFB-SURP-05: one standard or move action, and (literally) nothing else.
            return TurnAllowance(free=self.max_free_actions if self.surprise_free_actions else 0, single_action=True)
        if self.health(creature, state) is health.Health.DISABLED:
            # PFB-HP-01 (PF1 default): one move or standard action; a standard action costs 1 hp.
            return TurnAllowance(free=self.max_free_actions, single_action=True, strenuous_costs_hp=True)
        return TurnAllowance(free=self.max_free_actions)

    def turn_pools(self, creature: Creature, state: CombatantState, *, surprise_round: bool) -> dict[str, int]:
        """The pools a turn starts with (PFB-ACT-06): one standard, one move, the free actions allowed."""
        allow = self.allowance(creature, state, surprise_round=surprise_round)
        return {"standard": 1, "move": 1, "free": allow.free}

    def pay(self, cost: str, turn: TurnState, allow: TurnAllowance, *, surprise_round: bool
            ) -> tuple[str, dict[str, int]]:
        """How ``cost`` (standard, move, full-round, free, none) is paid from the turn's pools:
        (label for the log, pools spent). Raises :class:`BudgetError`.

        PFB-ACT-05/06/12/13: the standard action may stand in for a move, never the reverse; a
        full-round action takes both; free actions are limited. PFB-SURP-05 / PFB-HP-01: only one
        standard *or* move action when the allowance says so."""
        pools = turn.pools
        std, mov, free = pools.get("standard", 0) > 0, pools.get("move", 0) > 0, pools.get("free", 0)
        if cost in ("standard", "move", "full-round") and allow.single_action and turn.actions_taken:
            raise BudgetError("only one standard or move action this turn")
        if cost == "standard":
            if not std:
                raise BudgetError("the standard action is already used")
            return "standard", {"standard": 1}
        if cost == "move":
            if mov:
                return "move", {"move": 1}
            if std and not allow.single_action:
                return "standard-as-move", {"standard": 1}
            raise BudgetError("no move action left (the standard action can stand in only once)")
        if cost == "full-round":
            if allow.single_action:
                raise BudgetError("a full-round action is impossible when only one action is allowed")
            if not (std and mov):
                raise BudgetError("needs both the standard and the move action")
            return "full-round", {"standard": 1, "move": 1}
        if cost == "free":
            if free <= 0:
                raise BudgetError(f"no free action left this turn (limit {allow.free})")
            return "free", {"free": 1}
        if cost == "none":
            if surprise_round and turn.free_used >= allow.free:
                raise BudgetError("only one standard or move action in the surprise round (PFB-SURP-05)")
            return "none", {}
        raise BudgetError(f"unknown cost {cost!r}")

    def round_reactions(self, creature: Creature, state: CombatantState) -> dict[str, int]:
        """Off-turn resources refreshed at the start of each round (none in PFB: no reactions, PFB-RND-02)."""
        return {}

    # --- P3 round procedure: hooks the core calls at fixed points ------------------------------
    def start_of_round(self, view: View, round_no: int) -> None:
        """Refresh every creature's off-turn resources."""
        for cid, c in view.state.combatants.items():
            pools = self.round_reactions(view.creature(cid), c)
            if pools or c.reactions:
                view.emit(ev.ReactionsSet(cid, pools))

    def start_of_turn(self, view: View, actor: str) -> None:
        """PFB-HP-02 (PF1 default for the MISSING procedure): a dying creature makes a DC 10 Con check
        with a penalty equal to its negative hp; a natural 20 stabilizes; failure costs 1 hp."""
        creature = view.creature(actor)
        cs = view.state.get(actor)
        if self.dying_procedure != "pf1" or cs.stable or self.health(creature, cs) is not health.Health.DYING:
            return
        face = view.dice.roll(20, f"dying check {actor}")
        stable, result = health.dying_check(face, creature.con_mod, cs.hp)
        text = (f"{actor} dying check: {result} = d20 {face} + Con {creature.con_mod} − {-cs.hp} (hp) "
                f"vs DC {health.DYING_CHECK_DC}")
        if stable:
            view.emit(ev.Stabilized(actor, text + (" — natural 20" if face == 20 else "") + ": stable"))
        else:
            view.emit(ev.Damaged(actor, 1, "bleeding", text + ": fails, loses 1 hp"))
            self.after_damage(view, actor, 1, cs.hp)

    def end_of_turn(self, view: View, actor: str) -> None:
        """Nothing happens at the end of a turn in PFB."""

    def strenuous(self, view: View, actor: str, cost: str) -> None:
        """After a standard or full-round action: PFB-HP-01 (PF1 default), a disabled creature's
        standard action costs it 1 hp."""
        creature, cs = view.creature(actor), view.state.get(actor)
        if cost in ("standard", "full-round") and self.allowance(creature, cs, surprise_round=False).strenuous_costs_hp:
            view.emit(ev.Damaged(actor, 1, "strenuous", f"{actor} strains while disabled: 1 damage (PFB-HP-01)"))
            self.after_damage(view, actor, 1, cs.hp)

    def end_of_round(self, view: View, round_no: int) -> None:
        """Nothing happens at the end of a round in PFB."""

    def after_damage(self, view: View, target: str, amount: int, hp_before: int) -> None:
        """P14: announce a change of health state (PFB-HP-01..03)."""
        creature = view.creature(target)
        was = health.health(hp_before, creature.con_score)
        now = self.health(creature, view.state.get(target))
        if now is not was:
            texts = {
                health.Health.DISABLED: "is disabled at 0 hp (PFB-HP-01)",
                health.Health.DYING: "falls unconscious and is dying (PFB-HP-02)",
                health.Health.DEAD: f"is dead (hp ≤ −{creature.con_score}, PFB-HP-03)",
                health.Health.OK: "is back on its feet",
            }
            view.emit(ev.Note(f"{target} {texts[now]}"))

    # --- P19 reactions (attacks of opportunity) --------------------------------------------------
    aoo_pool: ClassVar[str] = "aoo"

    def threat_reach(self, creature: Creature, state: CombatantState) -> int:
        """How far this creature threatens (ft); 0 = it makes no attacks of opportunity (PFB-RND-02)."""
        return 0

    def can_make_aoo(self, view: View, reactor: str, target: str) -> bool:
        return False

    def movement_provokes(self, mode: str) -> bool:
        """Whether leaving a threatened square by this kind of movement provokes."""
        return False

    def threatened(self, creature: Creature, state: CombatantState, here: Footprint, square: Footprint) -> bool:
        """Does this creature, standing at ``here``, threaten ``square``? Default: within :meth:`threat_reach`."""
        reach = self.threat_reach(creature, state)
        return reach > 0 and within_reach(here, reach, square)

    def aoo_attack(self, creature: Creature, state: CombatantState) -> str | None:
        """The attack an attack of opportunity uses (None: the weapon in hand)."""
        return state.wielding

    def aoo_choices(self, creature: Creature, option: AttackOption) -> tuple[str, ...]:
        """How an attack of opportunity may be answered besides "decline" (SKL adds declared critical attacks)."""
        return ("attack",)

    def aoo_declaration(self, choice: str, option: AttackOption) -> tuple[Modifier | None, int]:
        """What an :meth:`aoo_choices` answer declares: (attack modifier, extra damage); none in PFB."""
        return None, 0

    def provoking_act(self, view: View, actor: str, action: Any, option: AttackOption | None) -> str | None:
        """A reason if ``action`` (an :class:`~d20combat.encounter.actions.Action`) provokes in a threatened
        square; by default :meth:`action_provokes` by the action's kind."""
        return self.action_provokes(action.kind, option)

    def action_provokes(self, action_kind: str, option: AttackOption | None) -> str | None:
        """A reason if taking this action in a threatened square provokes, else None."""
        return None

    # --- P8/P9/P10/P11/P13 attack pipeline -----------------------------------------------------
    def attack_problem(self, view: View, attack: AttackInfo) -> str | None:
        """Why the attacker's own state or the terrain forbids this attack (P8 legality), else None.
        PFB has no such rule beyond reach, range and cover."""
        return None

    def situational_attack_modifiers(self, view: View, attack: AttackInfo) -> list[Modifier]:
        """Position and condition modifiers on the attack roll (none in PFB)."""
        return []

    def creatures_give_cover(self, ranged: bool) -> bool:
        """PFB-COV-05: a creature on a line gives cover against melee and ranged attacks alike."""
        return True

    defense_name: ClassVar[str] = "AC"
    """What the target number is called in explanations ("AC", "Passive Defense")."""

    def effective_face(self, face: int) -> int:
        """What the die counts as in the total (PFB-NAT-02: only the number on the die)."""
        return face

    def defense(self, creature: Creature, state: CombatantState, ctx: DefenseContext, extra: Sequence[Modifier],
                view: View | None = None, attack: AttackInfo | None = None) -> Total:
        """P9: the target number with its breakdown (PFB-AC-01..06, PFB-HELP-02..04)."""
        return armor_class(creature, state, ctx, extra=extra, flat_footed_loses_dodge=self.flat_footed_loses_dodge,
                           touch_keeps_natural_armor=self.touch_keeps_natural_armor, stacking=self.stacking)

    def active_defense_options(self, view: View, attack: AttackInfo, total: int) -> tuple[str, ...]:
        """P10: responses the defender may choose after the attack roll (none in PFB)."""
        return ()

    def before_attack_roll(self, view: View, attack: AttackInfo) -> str | None:
        """P10 window before the roll: an active defense committed now, resolved by
        :meth:`resolve_active_defense` if the roll hits (none in PFB)."""
        return None

    def attack_rolled(self, view: View, attack: AttackInfo, total: int, hit: bool) -> None:
        """After the attack roll and its active-defense window, before damage (nothing in PFB)."""

    def resolve_active_defense(self, view: View, attack: AttackInfo, choice: str, total: int) -> tuple[bool, str]:
        """Roll the chosen response: (negates the attack, explanation)."""
        raise RuleError(f"no active defense {choice!r} in this ruleset")

    def reaction_preference(self, state: EncounterState, prompt: ReactionPrompt) -> str:
        """What a sensible defender answers to a window this ruleset opens (for the AI)."""
        return prompt.options[0]

    def threatens(self, face: int, option: AttackOption, hit: bool) -> bool:
        """P11: is this roll a critical threat (PFB-CRIT-01/06..08)."""
        threat_min, _ = self.crit_profile(option)
        return critical.is_threat(face, threat_min, hit)

    def critical_attack(self, penalty: int, option: AttackOption) -> tuple[Modifier | None, int]:
        """A declared critical attack: (attack modifier, extra damage). PFB has none."""
        if penalty:
            raise RuleError("this ruleset has no declared critical attacks")
        return None, 0

    def mitigate(self, creature: Creature, state: CombatantState, amount: int) -> tuple[int, str]:
        """P13: damage after resistances (none in PFB). Returns (damage, explanation or "")."""
        return amount, ""

    # --- P6 movement ---------------------------------------------------------------------------
    def speed_ft(self, creature: Creature, state: CombatantState) -> int:
        return creature.land_speed_ft

    # --- P8 attack -----------------------------------------------------------------------------
    def natural(self, face: int) -> tuple[bool, bool]:
        return attack_rules.natural_result(face)

    def attack_modifiers(self, creature: Creature, option: AttackOption) -> list[Modifier]:
        return attack_rules.attack_roll_modifiers(creature, option)

    def holds(self, creature: Creature, state: CombatantState, option: AttackOption) -> bool:
        """Can ``option`` attack without being drawn first (PFB-ITEM-01: only the weapon in hand)."""
        return state.wielding == option.name

    def in_melee_reach(self, creature: Creature, option: AttackOption, attacker: Footprint, target: Footprint) -> bool:
        """PFB-ATK-02 / PFB-GRID-07: the melee attack reaches the target."""
        return within_reach(attacker, creature.reach_ft, target)

    def ranged_limits(self, distance_ft: int, option: AttackOption) -> attack_rules.RangeCheck:
        """PFB-ATK-04..06/10/11: the range penalty, or why the target cannot be shot at."""
        return attack_rules.range_check(distance_ft, option)

    def into_melee_penalty(self, creature: Creature) -> Modifier | None:
        """PFB-ATK-07/08: −4 shooting at an enemy adjacent to an ally, unless Precise Shot."""
        if creature.has_feat("precise_shot"):
            return None
        return Modifier(-4, "into melee")

    def ranged_needs_clearance(self) -> bool:
        """PFB-ATK-09: no ranged weapon attack within 10 ft of any enemy."""
        return True

    # --- P9 defense ------------------------------------------------------------------------------
    def is_flat_footed(self, creature: Creature, state: CombatantState, *, surprised: bool) -> bool:
        """PFB-AC-03 / PFB-SURP-09: can't react — surprised, or paralyzed."""
        return surprised or state.has("paralyzed")

    def is_helpless(self, creature: Creature, state: CombatantState) -> bool:
        """PFB-HELP-01: bound, sleeping, paralyzed, unconscious (dying creatures are unconscious)."""
        if state.conditions & {"bound", "asleep", "paralyzed", "unconscious", "helpless"}:
            return True
        return self.health(creature, state) in (health.Health.DYING, health.Health.DEAD)

    # --- P11 criticals -----------------------------------------------------------------------------
    def crit_profile(self, option: AttackOption) -> tuple[int, int]:
        return critical.crit_profile(option)

    # --- P12 damage --------------------------------------------------------------------------------
    minimum_damage: int = 1

    def damage_strength(self, creature: Creature, option: AttackOption) -> int:
        """PFB-DMG-03..06: the Strength part of weapon damage."""
        return damage_rules.strength_damage(creature.str_mod, option)

    def precision_dice(self, attacker: Creature, defender_helpless: bool) -> int:
        """PFB-HELP-05: sneak attack against a helpless creature (the only trigger this text gives)."""
        return attacker.sheet.sneak_attack_dice if defender_helpless else 0

    # --- P14 injury model ----------------------------------------------------------------------------
    def health(self, creature: Creature, state: CombatantState) -> health.Health:
        return health.health(state.hp, creature.con_score)

    def can_act(self, creature: Creature, state: CombatantState) -> bool:
        if state.conditions & {"fled", "surrendered", "paralyzed", "bound", "asleep", "unconscious"}:
            return False
        return self.health(creature, state) in (health.Health.OK, health.Health.DISABLED)

    def cannot_act_reason(self, creature: Creature, state: CombatantState) -> str:
        """Why a creature that :meth:`can_act` refuses passes its turn (shown in the log)."""
        return str(self.health(creature, state).value)

    def out_of_fight(self, creature: Creature, state: CombatantState) -> bool:
        """PFB-RND-07 (proposed): dead, helpless, fled or surrendered."""
        return not self.can_act(creature, state) or self.is_helpless(creature, state)

    # --- P17 cover -----------------------------------------------------------------------------------
    def cover_mode(self, *, ranged: bool, reach_attack: bool, adjacent: bool) -> Literal["any_line", "best_corner"]:
        """PFB-COV-06/14: adjacent melee uses any line; ranged and reach attacks pick their best corner."""
        if self.cover_any_line_everywhere:
            return "any_line"
        if ranged:
            return "best_corner"
        if reach_attack and not (adjacent and self.reach_ranged_cover_only_nonadjacent):
            return "best_corner"
        return "any_line"

    def find_cover(self, game_map: GameMap, attacker: Footprint, target: Footprint, *, ranged: bool,
                   reach_attack: bool, adjacent: bool, creature_squares: dict[Square, str]) -> CoverFact:
        """P17: the cover fact for this attack (the lines are the core's, :meth:`cover_mode` picks them)."""
        mode = self.cover_mode(ranged=ranged, reach_attack=reach_attack, adjacent=adjacent)
        return cover(game_map, attacker, target, mode=mode, creature_squares=creature_squares,
                     partial_cover=self.partial_cover)

    def cover_modifier(self, fact: CoverFact) -> Modifier | None:
        """PFB-COV-04: +4 AC; partial cover +2 when that variant is on (PFB-COV-16)."""
        if fact.degree is CoverDegree.COVER:
            return Modifier(4, "cover", "cover")
        if fact.degree is CoverDegree.PARTIAL:
            return Modifier(2, "partial cover", "cover")
        return None

    # --- P18 concealment -------------------------------------------------------------------------------
    def concealment_sources(self, game_map: GameMap, attacker: Footprint, vision: Vision, target: Footprint,
                            defender: CombatantState, *, adjacent_melee: bool) -> tuple[ConcealmentSource, ...]:
        """P18: every concealment source the defender has against this attacker (PFB-CONC-02..17)."""
        return concealment_sources(game_map, attacker, vision, target, defender_invisible=defender.has("invisible"))

    def concealment(self, sources: Sequence[ConcealmentSource]) -> tuple[int, str]:
        """PFB-CONC-07: only the strongest source counts. Returns (miss chance %, reason)."""
        if not sources:
            return 0, ""
        best = max(sources, key=lambda s: s.percent)
        return best.percent, best.reason

    concealment_before_roll: bool = True
    """PFB-CONC-09: the d% is rolled before the attack roll; a miss means no attack roll at all."""
