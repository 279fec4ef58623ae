"""P8 attack of the off-guard ruleset: the attacker's side of the situational modifiers (CMV-SIT-01) and what the
conditions and narrow openings forbid."""

from __future__ import annotations

from d20combat.battlefield.flanking import FlankFact, flanking_fact
from d20combat.battlefield.grid import Footprint, GameMap, Square
from d20combat.battlefield.lines import squares_crossed_scaled
from d20combat.battlefield.reach import within_reach
from d20combat.numbers import Modifier
from d20combat.rulesets.components import AttackInfo, D20Attack, View
from d20combat.rulesets.components.reactions import melee_weapon_in_hand
from d20combat.rulesets.off_guard.conditions import CROSSBOWS, CmvAllowance, ConditionTable, cmv_data, long_piercing
from d20combat.rulesets.off_guard.fear import Fear
from d20combat.rulesets.off_guard.options import OffGuardOptions


class SituationalModifiers(D20Attack):
    """PFB's attack roll (PFB-ATK-01) with the attacker's situational modifiers (CMV-SIT-01, CMV-SIT-03): higher
    ground +1 (CMV-SIT-04), flanking +2 in melee (CMV-SIT-06, CMV-COND-33, CMV-COND-34), squeezing −4
    (CMV-SIT-10), prone −4 on melee attacks (CMV-COND-44; the table's +4 is variant ``cmv_prone_attacker_table``,
    CMV-SIT-08) and the table's attack rows (bloodied, wounded, shaken, disoriented, fatigue). Forbidden: a prone
    creature's ranged attacks except with a crossbow (CMV-COND-45), a frightened creature's attacks unless
    cornered and a panicked one's always (CMV-COND-26, CMV-COND-28), and striking through a narrow opening without
    a long piercing weapon (CMV-COV-23)."""

    def __init__(self, table: ConditionTable, fear: Fear, opts: OffGuardOptions) -> None:
        super().__init__()
        self.table = table
        self.fear = fear
        self.opts = opts

    def attack_problem(self, view: View, attack: AttackInfo) -> str | None:
        """CMV-COND-45: prone, no ranged attack except with a crossbow; CMV-COND-26/28: a frightened
        creature fights only if cornered, a panicked one never; CMV-COV-23: only long piercing weapons
        strike through a narrow opening."""
        s = view.state
        creature, cs = view.creature(attack.attacker), s.get(attack.attacker)
        active = self.table.active(creature, cs)
        option = attack.option
        if attack.ranged and option.kind not in CROSSBOWS:
            for name, row in self.table.rows(active):
                if row.ranged == "crossbow":
                    return f"{attack.attacker} is {name}: no ranged attacks except with a crossbow (CMV-COND-45)"
        afraid = self.fear.forbidden_attack(view, attack.attacker, active)
        if afraid is not None:
            return afraid
        gm = view.game_map
        if gm.narrow_openings and not long_piercing(option):
            tc, ts = view.creature(attack.target), s.get(attack.target)
            opening = self.opening_between(gm, Footprint(cs.position, creature.space),
                                           Footprint(ts.position, tc.space))
            if opening is not None:
                return (f"{option.name} cannot strike through the narrow opening at ({opening[0]},{opening[1]}); "
                        f"only long piercing weapons can (CMV-COV-23)")
        return None

    @staticmethod
    def opening_between(gm: GameMap, a: Footprint, t: Footprint) -> Square | None:
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
        table = self.table
        creature, cs = view.creature(attack.attacker), s.get(attack.attacker)
        active = table.active(creature, cs)
        melee = not attack.ranged
        mods: list[Modifier] = []
        for name, row in table.rows(active):
            if name == "prone" and self.opts.cmv_prone_attacker_table:
                mods.append(Modifier(4, "prone (table, cmv_prone_attacker_table)"))
                continue
            value = row.attack + (row.melee_attack if melee else 0)
            if value and name != "flanking":
                mods.append(Modifier(value, name))
        delta = table.ability_delta(creature, active, "str" if melee else "dex")
        if delta:
            mods.append(Modifier(delta, f"{'Str' if melee else 'Dex'} (fatigue)"))
        gm = view.game_map
        if table.squeezing(gm, creature, cs):
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
        injury = self.rules.injury
        if astate.has("fled") or not injury.can_act(ac, astate) or injury.is_helpless(ac, astate):
            return False
        allow = self.rules.economy.allowance(ac, astate, surprise_round=False)
        if isinstance(allow, CmvAllowance) and allow.no_actions:
            return False
        reach = ac.reach_ft if melee_weapon_in_hand(ac, astate) is not None else 0
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
