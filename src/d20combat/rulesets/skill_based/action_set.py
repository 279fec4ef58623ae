"""skill-based's action set: its own actions with their handlers, the core actions it vetoes, the dynamic veto
and the actions offered to controllers (the action values themselves are in :mod:`.actions`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from d20combat.model.statblock import WeaponKind
from d20combat.rulesets.components import ActionSet, ActionSpec, View
from d20combat.rulesets.skill_based.actions import BonusAttack, CastSpell, Feint, Reserve, TwoWeaponFighting
from d20combat.rulesets.skill_based.options import OFFHAND

if TYPE_CHECKING:
    from d20combat.rulesets.base import Ruleset
    from d20combat.rulesets.skill_based.economy import ComplexBasicEconomy
    from d20combat.rulesets.skill_based.feint import Feinting
    from d20combat.rulesets.skill_based.spells import Counterspelling
    from d20combat.rulesets.skill_based.two_weapon import TwoWeapons


class SkillActions(ActionSet):
    """The text's own actions: :class:`Reserve` (SKL-RES-02), :class:`Feint` (SKL-FEINT), :class:`CastSpell`
    (SKL-CSPL: spells are cast only through it, SKL-CSPL-02), :class:`TwoWeaponFighting` and :class:`BonusAttack`
    (SKL-TWF-01/02/08, SKL-ACT-09/10). It has no charge (rules-diff P7, variant ``skl_charge``) and no 5-foot
    step (named, never defined: SKL-AOO-12, variant ``skl_pf_actions``); a broken weapon cannot be drawn
    (SKL-RNG-03).

    The round procedure of what these actions leave behind runs here, after the dying check of the injury area:
    at the start of its turn the creature's held reserve becomes the turn's own (SKL-RES-02/04); at the end of the
    round, creature by creature, unspent reserve lapses (SKL-RES-06) and so do unused feint openings
    (SKL-FEINT-05)."""

    def __init__(self, economy: ComplexBasicEconomy, hands: TwoWeapons, feinting: Feinting,
                 spells: Counterspelling, *, charge: bool = False, pf_actions: bool = False) -> None:
        super().__init__(own=(ActionSpec(Reserve, economy.declare_reserve), ActionSpec(Feint, feinting.feint),
                              ActionSpec(CastSpell, spells.cast), ActionSpec(TwoWeaponFighting, hands.switch),
                              ActionSpec(BonusAttack, hands.bonus_attack)))
        self.economy = economy
        self.hands = hands
        self.feinting = feinting
        self.spells = spells
        self.charge = charge
        """rules-diff P7 (variant ``skl_charge``): PFB's charge."""
        self.pf_actions = pf_actions
        """SKL-AOO-12 (variant ``skl_pf_actions``): PFB's 5-foot step."""

    def bind(self, rules: Ruleset) -> None:
        """The parts that resolve these actions reach the composed ruleset too."""
        super().bind(rules)
        for part in (self.hands, self.feinting, self.spells):
            part.bind(rules)

    def forbidden(self, view: View, actor: str, action: Any) -> str | None:
        """Actions this text does not have (charge, 5-foot step) and spells cast outside :class:`CastSpell`."""
        kind = action.kind
        if kind == "charge" and not self.charge:
            return "charge: the skill-based rules have no charge (variant skl_charge)"
        if kind == "step" and not self.pf_actions:
            return ("5-foot step: named but never defined by the skill-based rules (SKL-AOO-12; variant "
                    "skl_pf_actions)")
        creature, cs = view.creature(actor), view.state.get(actor)
        if kind == "attack":
            name = action.attack or cs.wielding
            try:
                option = creature.attack(name) if name else None
            except KeyError:
                option = None
            if option is not None and option.kind is WeaponKind.SPELL:
                return (f"attack: cast {option.name} with cast_spell, so that enemies in reach may counter it "
                        f"(SKL-CSPL-02)")
        if kind == "activity" and action.name.startswith("cast-spell"):
            return "cast spells with the cast_spell action (SKL-CSPL-02)"
        if kind == "draw" and self.hands.broken(cs, action.attack):
            return f"draw: {action.attack} is broken (SKL-RNG-03)"
        return None

    def candidates(self, enc: Any, actor: str) -> list[Any]:
        """The reserve declarations, the two-weapon switch, and a feint, a bonus attack or a spell at each foe."""
        turn = enc.state.turn
        if turn is None:
            return []
        creature = enc.creature(actor)
        out: list[Any] = [Reserve(n, m) for n in range(turn.pools.get("complex", 0) + 1)
                          for m in range(turn.pools.get(OFFHAND, 0) + 1)]
        out += [TwoWeaponFighting(on=True), TwoWeaponFighting(on=False)]
        for foe in enc.enemies(actor):
            square = enc.state.get(foe).position
            out += [Feint(foe), BonusAttack(foe, square=square)]
            out += [CastSpell(o.name, foe) for o in creature.attacks if o.kind is WeaponKind.SPELL]
        return out

    # ------------------------------------------------------------------------ P3 round procedure
    def start_of_turn(self, view: View, actor: str) -> None:
        """SKL-RES-02/04: the held complex actions become the turn's own until the creature declares a reserve."""
        self.economy.release(view, actor)

    def end_of_round(self, view: View, round_no: int) -> None:
        """SKL-RES-06: unspent reserve lapses; SKL-FEINT-05: feint openings past their round lapse."""
        for cid, c in view.state.combatants.items():
            self.economy.lapse(view, cid, c)
            self.feinting.lapse(view, cid, c, round_no)
