"""A tactical AI that plays any side through the same decision interface as a person would.

It moves by legal shortest paths, charges when it can, keeps ranged attackers out of melee (PFB
forbids shooting within 10 ft of an enemy) and focuses wounded enemies. Every action it returns is
checked by the engine like any other controller's.
"""

from __future__ import annotations

from d20combat.battlefield import movement as mv
from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint, Square
from d20combat.battlefield.reach import within_reach
from d20combat.encounter import actions as act
from d20combat.encounter.engine import Encounter, IllegalAction
from d20combat.encounter.prompts import ReactionPrompt
from d20combat.model.creature import AttackOption


class TacticalAI:
    """Chooses one action at a time for the creature whose turn it is."""

    def __init__(self, max_move_candidates: int = 24) -> None:
        self.max_move_candidates = max_move_candidates

    def choose(self, enc: Encounter) -> act.Action:
        s = enc.state
        if s.declaring:
            return self._declare(enc, s.declaring[0])
        assert s.turn is not None
        me = s.turn.actor
        cs = s.get(me)
        creature = enc.creature(me)
        foes = [e for e in enc.enemies(me) if not enc.ruleset.injury.out_of_fight(enc.creature(e), s.get(e))]
        if not foes:
            return act.EndTurn()
        focus = enc.ruleset.turn_order.ai_focus(enc.view(), me)  # the foe it declared to attack (WOA-CYCLE-21)
        if focus in foes:
            foes = [focus]
        suggestion = enc.ruleset.tactics.ai_suggestion(enc, me)
        if isinstance(suggestion, act.Action) and self._legal(enc, suggestion) is not None:
            return suggestion
        if cs.has("prone"):
            return self._legal(enc, act.StandUp()) or act.EndTurn()
        wielded = creature.attack(cs.wielding) if cs.wielding else None
        if wielded is None or (wielded.weapon.reload != "none" and wielded.name not in cs.loaded):
            fix = self._fix_weapon(enc, me, wielded)
            if fix is not None:
                return fix
            wielded = creature.attack(cs.wielding) if cs.wielding else None
        if wielded is None:
            return act.EndTurn()

        # 1. Attack now if the standard action is left and a target is in reach or range.
        if enc.can_afford("standard"):
            attack = self._best_attack(enc, me, wielded, foes)
            if attack is not None:
                return attack

        if not enc.can_afford("standard"):
            # The attack is spent: stay put while a foe is in reach (or, for archers, while none is close).
            here = enc.footprint(me)
            near = [f for f in foes if footprint_distance_ft(here, enc.footprint(f)) < 10]
            in_reach = [f for f in foes if within_reach(here, creature.reach_ft, enc.footprint(f))]
            if (wielded.is_ranged and not near) or (not wielded.is_ranged and in_reach):
                return act.EndTurn()
        if wielded.is_ranged:
            return self._archer(enc, me, wielded, foes)
        return self._melee(enc, me, wielded, foes)

    def react(self, enc: Encounter, prompt: ReactionPrompt) -> str:
        """Take every attack of opportunity offered; for other windows the ruleset knows the best answer."""
        if prompt.kind == "attack_of_opportunity":
            return "attack"
        return enc.ruleset.active_defense.reaction_preference(enc.state, prompt)

    def _declare(self, enc: Encounter, me: str) -> act.Action:
        """Declare the round (WOA-CYCLE-14): the ruleset's own choice, else what carries out the action this AI would
        take first if its turn were now, else the first legal declaration."""
        turn_order = enc.ruleset.turn_order
        chosen = turn_order.ai_declaration(enc, me)
        if chosen is None:
            first = self.choose(enc.planning_copy(me))
            chosen = turn_order.declaration_for(enc.view(), me, first)
        if chosen is not None and enc.check(chosen) is None:
            return chosen
        return next(iter(enc.legal_actions()), act.Declare())

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _legal(enc: Encounter, action: act.Action) -> act.Action | None:
        return action if enc.check(action) is None else None

    def _score(self, enc: Encounter, me: str, option: AttackOption, target: str) -> float | None:
        """Expected fraction of the target's remaining hp this attack removes (focus the wounded)."""
        try:
            plan = enc.plan_attack(me, target, option.name, square=enc.state.get(target).position)
        except IllegalAction:
            return None
        bonus = sum(m.value for m in plan.modifiers)
        ac, _ = enc.target_ac(plan, enc.state)
        p_hit = min(max((21 - (ac - bonus)) / 20, 0.05), 0.95) * (1 - plan.concealment / 100)
        hp_left = max(enc.state.get(target).hp, 1)
        mean = option.dice.mean + max(enc.creature(me).str_mod, 0)
        return p_hit * min(mean / hp_left, 1.5)

    def _best_attack(self, enc: Encounter, me: str, option: AttackOption, foes: list[str]) -> act.Action | None:
        best: tuple[float, str] | None = None
        here = enc.footprint(me)
        reach = enc.creature(me).reach_ft
        for foe in foes:
            # Cheap geometry first: a melee weapon cannot reach a foe farther than its reach.
            if not option.is_ranged and footprint_distance_ft(here, enc.footprint(foe)) > reach:
                continue
            score = self._score(enc, me, option, foe)
            if score is not None and (best is None or score > best[0]):
                best = (score, foe)
        if best is None:
            return None
        return self._legal(enc, act.Attack(best[1], option.name, square=enc.state.get(best[1]).position))

    def _fix_weapon(self, enc: Encounter, me: str, wielded: AttackOption | None) -> act.Action | None:
        if wielded is not None and wielded.weapon.reload != "none":
            reload = self._legal(enc, act.Reload(wielded.name))
            if reload is not None:
                return reload
        for option in enc.creature(me).attacks:
            if option is not wielded:
                draw = self._legal(enc, act.Draw(option.name))
                if draw is not None:
                    return draw
        return None

    def _nearest_foe(self, enc: Encounter, me: str, foes: list[str]) -> str:
        here = enc.footprint(me)
        return min(foes, key=lambda f: (footprint_distance_ft(here, enc.footprint(f)), enc.state.get(f).hp, f))

    def _reachable(self, enc: Encounter, me: str) -> dict[Square, mv.PathInfo]:
        turn = enc.state.turn
        assert turn is not None
        if turn.stepped or not enc.can_afford("move"):
            return {}
        return enc.move_options(me)

    # ------------------------------------------------------------------ melee
    def _melee(self, enc: Encounter, me: str, option: AttackOption, foes: list[str]) -> act.Action:
        s = enc.state
        turn = s.turn
        assert turn is not None
        creature = enc.creature(me)
        # Charge the most attractive foe when the whole turn is still free (PFB-CHG).
        if enc.can_afford("full-round") and not turn.moved:
            ranked = sorted(foes, key=lambda f: (s.get(f).hp, footprint_distance_ft(enc.footprint(me),
                                                                                      enc.footprint(f)), f))
            for foe in ranked:
                charge = self._legal(enc, act.Charge(foe, option.name))
                if charge is not None:
                    return charge
        reach = self._reachable(enc, me)
        if not reach:
            return act.EndTurn()
        # Paths that provoke attacks of opportunity come last (in rulesets that have them).
        risk = self._provocation_risk(enc, me, reach)
        # A square from which some foe can be attacked, cheapest first, wounded foes preferred.
        best: tuple[tuple[int, int, int, str], Square] | None = None
        for sq, info in reach.items():
            fp = Footprint(sq, creature.space)
            for foe in foes:
                if within_reach(fp, creature.reach_ft, enc.footprint(foe)):
                    key = (risk[sq], info.cost_ft, s.get(foe).hp, foe)
                    if best is None or key < best[0]:
                        best = (key, sq)
        if best is not None and enc.can_afford("move"):
            move = self._legal(enc, act.Move(to=best[1]))
            if move is not None:
                return move
        # Otherwise close the distance to the nearest foe (double move if need be).
        target = self._nearest_foe(enc, me, foes)
        t_fp = enc.footprint(target)
        here = footprint_distance_ft(enc.footprint(me), t_fp)
        closer = min(reach.items(), key=lambda kv: (risk[kv[0]],
                                                   footprint_distance_ft(Footprint(kv[0], creature.space), t_fp),
                                                   kv[1].cost_ft, kv[0]))
        if footprint_distance_ft(Footprint(closer[0], creature.space), t_fp) < here:
            move = self._legal(enc, act.Move(to=closer[0]))
            if move is not None:
                return move
        return act.EndTurn()

    # ------------------------------------------------------------------ ranged
    def _archer(self, enc: Encounter, me: str, option: AttackOption, foes: list[str]) -> act.Action:
        s = enc.state
        turn = s.turn
        assert turn is not None
        creature = enc.creature(me)
        here = enc.footprint(me)
        threatened = any(footprint_distance_ft(here, enc.footprint(f)) < 10 for f in foes)
        can_attack = enc.can_afford("standard")
        if can_attack and threatened and not turn.moved and not turn.stepped:
            # A 5-foot step out of the 10-ft band, then shoot (PFB-MOVE-01, PFB-ATK-09).
            for dc in (-1, 0, 1):
                for dr in (-1, 0, 1):
                    sq = (here.origin[0] + dc, here.origin[1] + dr)
                    fp = Footprint(sq, creature.space)
                    if (dc or dr) and all(footprint_distance_ft(fp, enc.footprint(f)) >= 10 for f in foes):
                        step = self._legal(enc, act.Step(sq))
                        if step is not None and any(self._shot_from(enc, me, option, f, sq) for f in foes):
                            return step
        reach = self._reachable(enc, me)
        if reach and enc.can_afford("move"):
            # The cheapest square ≥ 10 ft from every foe with a legal shot (keep the standard action if we can).
            risk = self._provocation_risk(enc, me, reach)
            ordered = sorted(reach.items(), key=lambda kv: (risk[kv[0]], kv[1].cost_ft, kv[0]))
            tried = 0
            for sq, _info in ordered:
                fp = Footprint(sq, creature.space)
                if any(footprint_distance_ft(fp, enc.footprint(f)) < 10 for f in foes):
                    continue
                tried += 1
                if tried > self.max_move_candidates:
                    break
                if any(self._shot_from(enc, me, option, f, sq) for f in foes):
                    move = self._legal(enc, act.Move(to=sq))
                    if move is not None:
                        return move
        if threatened and can_attack:
            # Cornered: fight in melee with a melee weapon if there is one.
            for other in enc.creature(me).attacks:
                if not other.is_ranged:
                    draw = self._legal(enc, act.Draw(other.name))
                    if draw is not None:
                        return draw
        if reach and not threatened:
            target = self._nearest_foe(enc, me, foes)
            t_fp = enc.footprint(target)
            now = footprint_distance_ft(here, t_fp)
            safe = {sq: footprint_distance_ft(Footprint(sq, creature.space), t_fp) for sq in reach
                    if all(footprint_distance_ft(Footprint(sq, creature.space), enc.footprint(f)) >= 10 for f in foes)}
            closer = [sq for sq, d in safe.items() if d < now]
            if closer:
                # As close as the 10-ft rule allows, to be in range next turn.
                sq = min(closer, key=lambda q: (safe[q], reach[q].cost_ft, q))
                move = self._legal(enc, act.Move(to=sq))
                if move is not None:
                    return move
        return act.EndTurn()

    @staticmethod
    def _provocation_risk(enc: Encounter, me: str, reach: dict[Square, mv.PathInfo]) -> dict[Square, int]:
        """How many attacks of opportunity the cheapest path to each square would offer (0 where the
        ruleset has none)."""
        squares = list(reach)
        found = enc.provocations(me, [reach[sq].path for sq in squares])
        return {sq: len(f) for sq, f in zip(squares, found, strict=True)}

    def _shot_from(self, enc: Encounter, me: str, option: AttackOption, foe: str, sq: Square) -> bool:
        try:
            enc.plan_attack(me, foe, option.name, square=enc.state.get(foe).position, from_square=sq)
        except IllegalAction:
            return False
        return True
