"""Epic Path's action set: the core's actions plus the full attack, fighting defensively, total defense, impeded
movement, stances and splash weapons, and what impeded terrain forbids of the core's movement."""

from __future__ import annotations

from typing import Any

from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.rulesets.components import ActionSet, ActionSpec, View
from d20combat.rulesets.components.component import AttackInfo
from d20combat.rulesets.epic_path.feats import CLEAVING_FINISH, CleavingFinish, cleaving_finish
from d20combat.rulesets.epic_path.maneuvers import DefensiveAbilities, EscapeGrapple, Maneuver, Maneuvers
from d20combat.rulesets.epic_path.melee import FightDefensively, FullAttack, MeleeActions, TotalDefense
from d20combat.rulesets.epic_path.movement import (
    ImpededMove,
    ImpededMovement,
    charge,
    impeded_squares,
    refuse_in_impeded,
)
from d20combat.rulesets.epic_path.options import EpOptions
from d20combat.rulesets.epic_path.rewards import record_defeat
from d20combat.rulesets.epic_path.spells import CastSpell, cast_spell
from d20combat.rulesets.epic_path.splash import SplashWeapons, ThrowSplash
from d20combat.rulesets.epic_path.stances import DropStance, Stances, StartStance, active_stances, end_stances
from d20combat.rulesets.epic_path.stealth import (
    ActivePerception,
    active_perception,
    break_stealth,
    charging,
    in_stealth,
)
from d20combat.rulesets.epic_path.turn_actions import settle_full_round


def stand_up(engine: Any, tx: Any, actor: str, a: ax.StandUp, dry: bool) -> None:
    """EP-ACT-46, EP-COND-05: standing up from prone is a move action that counts as movement, so no 5-foot step
    this round (the creature "rises" in its square, 0 ft)."""
    from d20combat.encounter.equipment_actions import do_stand_up  # the encounter imports the rulesets

    do_stand_up(engine, tx, actor, a, dry)
    if not dry:
        turn = tx.state.turn
        tx.emit(ev.Moved(actor, [list(tx.state.get(actor).position)], 0, turn.diagonals if turn else 0, "rise"))


class EpActions(ActionSet):
    """EP-ACT-07..16 (full attack), EP-ACT-46 (standing up is movement), EP-DEF-01..18 (fighting defensively, total
    defense, the DC 15 + level check), EP-MOVE-05..09 (impeded movement), EP-MAN-01..06 (maneuvers),
    EP-SPLASH-01..20 (splash weapons), EP-MISC-15..21 (stances)."""

    def __init__(self, opts: EpOptions) -> None:
        melee = MeleeActions(opts)
        maneuvers = Maneuvers(opts)
        self.stances = Stances(opts.ep_stance_breaking_conditions, opts.ep_one_stance_for_every_creature)
        self.impeded_standing = opts.ep_impeded_ends_stances == "standing"
        """EP-MOVE-08 (AMBIGUOUS): standing in impeded terrain ends a stance too, at the start of the turn."""
        super().__init__(own=[
            ActionSpec(FullAttack, melee.full_attack),
            ActionSpec(FightDefensively, melee.fight_defensively),
            ActionSpec(TotalDefense, melee.total_defense),
            ActionSpec(ImpededMove, ImpededMovement(opts.ep_impeded_skill, opts.ep_impeded_skill_dc,
                                                    opts.ep_impeded_skill_ft).move),
            ActionSpec(StartStance, self.stances.start),
            ActionSpec(DropStance, self.stances.drop),
            ActionSpec(ax.StandUp, stand_up),
            ActionSpec(ThrowSplash, SplashWeapons(opts).throw),
            ActionSpec(Maneuver, maneuvers.attempt),
            ActionSpec(EscapeGrapple, maneuvers.escape),
            ActionSpec(ax.Activity, DefensiveAbilities(opts).activity),
            ActionSpec(CleavingFinish, cleaving_finish),
            ActionSpec(ActivePerception, active_perception),
            ActionSpec(CastSpell, cast_spell),
            ActionSpec(ax.Charge, charge),  # the surprise round's charge (EP-SURP-21)
        ])

    def forbidden(self, view: View, actor: str, action: Any) -> str | None:
        """Impeded terrain: no ordinary movement into, within or out of it, and no charge (EP-MOVE-05/07); a splash
        weapon is thrown (``throw_splash``: direct and splash damage, the scatter on a miss, EP-SPLASH-01..19), never
        swung or fired as an ordinary attack."""
        if isinstance(action, (ax.Attack, ax.Charge)):
            name = action.attack or view.state.get(actor).wielding
            option = next((o for o in view.creature(actor).attacks if o.name == name), None)
            if option is not None and option.weapon.splash is not None:
                return (f"{name} is a splash weapon: throw it with throw_splash (at a creature or a square; "
                        "EP-SPLASH-01/02), not as an ordinary attack")
        return refuse_in_impeded(view, actor, action)

    def candidates(self, enc: Any, actor: str) -> list[Any]:
        """A full attack on each foe, fighting defensively, total defense, and 5 ft through impeded terrain."""
        s = enc.state
        out: list[Any] = [FightDefensively(), TotalDefense()]
        creature = enc.creature(actor)
        splash = [o.name for o in creature.attacks if o.weapon.splash is not None]
        for foe in enc.enemies(actor):
            out += [FullAttack(foe, option.name) for option in creature.attacks if option.weapon.splash is None]
            out += [ThrowSplash(name, foe) for name in splash]
            out.append(Maneuver(foe, "trip"))
            if creature.has_feat(CLEAVING_FINISH):
                out.append(CleavingFinish(foe))
        c0, r0 = s.get(actor).position
        out += [ImpededMove((c0 + dc, r0 + dr)) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if dc or dr]
        return out

    # --- stances break at every turn's edge and after damage (EP-MISC-16/17) -----------------------------------
    def start_of_turn(self, view: View, actor: str) -> None:
        self.stances.check(view)
        if self.impeded_standing and active_stances(view.state.get(actor)) and impeded_squares(view, actor):
            end_stances(view, actor, "its turn begins in impeded terrain (EP-MOVE-08, option "
                                     "ep_impeded_ends_stances: standing)")

    def end_of_turn(self, view: View, actor: str) -> None:
        settle_full_round(view, actor)  # EP-ACT-04
        self.stances.check(view)

    def after_attack(self, view: View, attack: AttackInfo, hit: bool) -> None:
        """EP-SURP-14/21: an attack from stealth gives the attacker away; a charge broke it before the attack."""
        if in_stealth(view.state.get(attack.attacker)):
            break_stealth(view, attack.attacker, "a charge always breaks stealth (EP-SURP-21)"
                          if charging(view, attack.attacker) else "its attack from stealth gives it away (EP-SURP-14)")

    def after_damage(self, view: View, target: str, amount: int, hp_before: int) -> None:
        self.stances.check(view)
        record_defeat(view, target, hp_before)  # EP-TIME-12
