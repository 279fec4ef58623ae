"""What Epic Path's own rules recommend to the tactical AI: spend an action point when it buys a standard action
usable at once, throw splash weapons into groups, fight defensively when outmatched, take the full attack when it
has more than one attack, and wade out of impeded terrain (ordinary movement already avoids it: impeded squares
are never on a move's path)."""

from __future__ import annotations

from typing import Any

from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint
from d20combat.battlefield.reach import within_reach
from d20combat.encounter import actions as ax
from d20combat.rulesets.components import CoreTactics
from d20combat.rulesets.epic_path.action_point_ai import action_point_worth_spending
from d20combat.rulesets.epic_path.melee import FULL_ATTACK, FightDefensively, FullAttack, attacks_in_full_attack
from d20combat.rulesets.epic_path.movement import ImpededMove
from d20combat.rulesets.epic_path.seeking_ai import aid_when_hopeless, seek
from d20combat.rulesets.epic_path.splash import ThrowSplash


class EpTactics(CoreTactics):
    """The AI's Epic Path habits, in order: an action point is spent when it buys a standard action usable at once
    (``action_point_ai``); when every foe is one it neither perceives nor has pinpointed, it spots, or gropes where
    one was last known (``seeking_ai``); a full attack under way goes on; a splash weapon in hand is thrown where
    it hits the most foes and no friend (one is drawn when foes bunch up out of reach); a creature outmatched in
    melee (two or more foes on it, or at half its hit points or less) fights defensively; a foe it hits only on a
    natural 20 while an ally in reach hits it more often: it aids that ally (``seeking_ai``); with several attacks it
    full-attacks; in impeded terrain with no foe in reach it wades toward the nearest foe."""

    def ai_suggestion(self, enc: Any, actor: str) -> Any:
        s = enc.state
        turn = s.turn
        if turn is None:
            return None
        spend = action_point_worth_spending(enc, actor)
        if spend is not None:
            return spend
        creature, cs = enc.creature(actor), s.get(actor)
        foes = [f for f in enc.enemies(actor) if not enc.ruleset.injury.out_of_fight(enc.creature(f), s.get(f))]
        if not foes:
            return None
        sought = seek(enc, actor, foes)
        if sought is not None:
            return sought
        here = enc.footprint(actor)
        in_reach = [f for f in foes if within_reach(here, creature.reach_ft, enc.footprint(f))]
        wielded = creature.attack(cs.wielding) if cs.wielding else None
        if turn.pools.get(FULL_ATTACK, 0) > 0 and in_reach:
            action = self._legal(enc, FullAttack(self._weakest(enc, in_reach)))
            if action is not None:
                return action
        splash = self._splash(enc, actor, foes, in_reach, wielded)
        if splash is not None:
            return splash
        if in_reach and not turn.actions_taken and not turn.moved and self._outmatched(enc, actor, foes):
            action = self._legal(enc, FightDefensively())
            if action is not None:
                return action
        if in_reach and turn.pools.get("standard", 0) > 0:
            aid = aid_when_hopeless(enc, actor, in_reach)
            if aid is not None:
                return aid
        if in_reach and wielded is not None and not wielded.is_ranged and turn.standard and turn.move \
                and attacks_in_full_attack(creature) > 1:
            action = self._legal(enc, FullAttack(self._weakest(enc, in_reach)))
            if action is not None:
                return action
        if not in_reach and enc.battle.game_map.impeded and any(
                enc.battle.game_map.is_impeded(sq) for sq in here.squares()):
            return self._wade(enc, actor, foes)
        return None

    @staticmethod
    def _legal(enc: Any, action: ax.Action) -> ax.Action | None:
        return action if enc.check(action) is None else None

    @staticmethod
    def _weakest(enc: Any, foes: list[str]) -> str:
        return min(foes, key=lambda f: (enc.state.get(f).hp, f))

    @staticmethod
    def _outmatched(enc: Any, actor: str, foes: list[str]) -> bool:
        """The foes that threaten it are expected to take a third of its hit points a round or more, or it is at
        half its hit points or less with a foe on it."""
        s = enc.state
        here = enc.footprint(actor)
        hp = max(s.get(actor).hp, 1)
        expected = 0.0
        on_me = 0
        for foe in foes:
            fc, fs = enc.creature(foe), s.get(foe)
            if not within_reach(enc.footprint(foe), fc.reach_ft, here) or fs.wielding is None:
                continue
            try:
                plan = enc.plan_attack(foe, actor, fs.wielding)
            except Exception:
                continue
            on_me += 1
            ac, _ = enc.target_ac(plan, s)
            p_hit = min(max((21 - (ac - sum(m.value for m in plan.modifiers))) / 20, 0.05), 0.95)
            expected += p_hit * (plan.option.dice.mean + max(fc.str_mod, 0))
        return on_me > 0 and (expected * 3 >= hp or hp * 2 <= enc.creature(actor).sheet.hp)

    def _splash(self, enc: Any, actor: str, foes: list[str], in_reach: list[str], wielded: Any) -> Any:
        creature = enc.creature(actor)
        flasks = [o for o in creature.attacks if o.weapon.splash is not None]
        if not flasks:
            return None
        friends = [a for a in enc.allies(actor) if a != actor]
        scored: list[tuple[int, str]] = []
        for target in foes:
            t_fp = enc.footprint(target)
            near_foes = sum(1 for f in foes if f != target and footprint_distance_ft(t_fp, enc.footprint(f)) <= 5)
            near_friends = sum(1 for a in [*friends, actor] if footprint_distance_ft(t_fp, enc.footprint(a)) <= 5)
            if near_friends == 0:
                scored.append((near_foes, target))
        scored.sort(key=lambda k: (-k[0], enc.state.get(k[1]).hp, k[1]))
        if wielded is not None and wielded.weapon.splash is not None:
            for _, target in scored:
                action = self._legal(enc, ThrowSplash(wielded.name, target))
                if action is not None:
                    return action
            return self._draw_other(enc, actor)
        if scored and scored[0][0] >= 1 and not in_reach:
            return self._legal(enc, ax.Draw(flasks[0].name))
        if wielded is None:
            return self._draw_other(enc, actor)
        return None

    def _draw_other(self, enc: Any, actor: str) -> Any:
        """No foe to throw the flask at without splashing a friend: draw a weapon that is not a splash weapon (a flask
        is never swung or thrown as an ordinary weapon), or None when it has none."""
        for option in enc.creature(actor).attacks:
            if option.weapon.splash is None:
                return self._legal(enc, ax.Draw(option.name))
        return None

    def _wade(self, enc: Any, actor: str, foes: list[str]) -> Any:
        """The 5-ft impeded move that brings it nearest the nearest foe (EP-MOVE-05)."""
        c0, r0 = enc.state.get(actor).position
        space = enc.creature(actor).space
        target = min(foes, key=lambda f: (footprint_distance_ft(enc.footprint(actor), enc.footprint(f)), f))
        t_fp = enc.footprint(target)
        tc, tr = t_fp.origin
        options = sorted((footprint_distance_ft(Footprint((c0 + dc, r0 + dr), space), t_fp),
                          (c0 + dc - tc) ** 2 + (r0 + dr - tr) ** 2, (c0 + dc, r0 + dr))
                         for dc in (-1, 0, 1) for dr in (-1, 0, 1) if dc or dr)
        for _, _, sq in options:
            action = self._legal(enc, ImpededMove(sq))
            if action is not None:
                return action
        return None
