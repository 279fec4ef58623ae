"""Epic Path's concealment (EP-CONC): the core's sources (terrain by the corner lines, light, darkness,
invisibility) at the strongest only, the d% after a hit, and what each attacker meets — its senses, what it
knows of an invisible creature's square, the states that conceal (phased) and the GM's miss chance.

Per-observer knowledge is a condition on the observer: ``pinpointing:<creature>:<column>:<row>`` (it knows the
square the invisible creature stood in when it learned it; the knowledge is stale as soon as the creature is
elsewhere, EP-CONC-27).
"""

from __future__ import annotations

from d20combat.battlefield.concealment import (
    TOTAL_CONCEALMENT_PERCENT,
    ConcealmentSource,
    Vision,
    concealment_sources,
)
from d20combat.battlefield.grid import Footprint, GameMap, Square
from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import AttackOption, Creature
from d20combat.numbers import Modifier
from d20combat.rulesets.components import StrongestConcealment
from d20combat.rulesets.components.component import AttackInfo, View
from d20combat.rulesets.epic_path.incorporeal import creature_inside_object
from d20combat.rulesets.epic_path.options import EpOptions
from d20combat.rulesets.epic_path.senses import invisible_state, sees_invisible, targeting_sense, unseen_by

INVISIBLE_ATTACKER_BONUS = 2
"""EP-CONC-18: +2 circumstance to the attack roll of an invisible attacker."""


def condition_args(state: CombatantState, name: str) -> list[list[str]]:
    """The arguments of every stored ``name:arg:arg`` condition."""
    out = []
    for text in sorted(state.conditions):
        head, *args = text.split(":")
        if head == name:
            out.append(args)
    return out


def level_or_cr(creature: Creature, state: CombatantState, condition: str) -> int | None:
    """The creature's level or CR: the argument of its ``condition`` (``faded:7``), else its stat block's
    ``attributes.level`` or ``attributes.cr``."""
    for args in condition_args(state, condition):
        if args and args[0].isdigit():
            return int(args[0])
    attrs = {k.lower(): v for k, v in creature.sheet.attributes.items()}
    for key in ("level", "cr"):
        if key in attrs:
            return int(attrs[key])
    return None


def percent_arg(state: CombatantState, name: str) -> int | None:
    """The percentage of a stored ``name:N`` condition (``concealed:20``, ``miss_chance:35``), or None."""
    for args in condition_args(state, name):
        if args and args[0].isdigit():
            return min(int(args[0]), 100)
    return None


def pinpointed_square(view: View, observer: str, target: str) -> Square | None:
    """The square where ``observer`` knows the invisible ``target`` is (EP-CONC-23/28), if it still is there
    (EP-CONC-27: the knowledge goes when the creature moves)."""
    here = view.state.get(target).position
    known = {f"{target}:{here[0]}:{here[1]}"}
    for args in condition_args(view.state.get(observer), "pinpointing"):
        if ":".join(args) in known:
            return here
    return None


def pinpoint(view: View, observer: str, target: str, why: str) -> None:
    """``observer`` learns ``target``'s square now (its older knowledge of the creature is replaced)."""
    obs = view.state.get(observer)
    c, r = view.state.get(target).position
    known = f"pinpointing:{target}:{c}:{r}"
    if obs.has(known):
        return
    for args in condition_args(obs, "pinpointing"):
        if args and args[0] == target:
            view.emit(ev.ConditionSet(observer, ":".join(["pinpointing", *args]), False, "older knowledge replaced"))
    view.emit(ev.ConditionSet(observer, known, True, why))


def magic_weapon(option: AttackOption) -> bool:
    """A magic attack: an enhanced or magic-quality weapon, or a spell (EP-COND-07/31)."""
    q = {x.lower() for x in option.weapon.qualities}
    return option.weapon.enhancement > 0 or option.kind.value == "spell" or bool(q & {"magic", "force", "ghost_touch"})


def qualities(view: View, attacker: str, option: AttackOption) -> frozenset[str]:
    """What the attack is, for the states' rules: the weapon's qualities (``magic`` for an enhanced weapon or a
    spell) and ``incorporeal`` / ``nebulous`` / ``ethereal`` / ``magic`` from the attacker's states
    (``magic_attacks``: a creature that strikes as a magic weapon, EP-COND-07)."""
    q = {x.lower().replace("-", "_") for x in option.weapon.qualities}
    if magic_weapon(option):
        q.add("magic")
    who = view.state.get(attacker)
    q.update(s for s in ("incorporeal", "nebulous", "ethereal") if who.has(s))
    if who.has("magic_attacks"):
        q.add("magic")
    return frozenset(q)


PHASED_REASON = "phased: magic hits only 50% of the time (EP-COND-31)"


class EpConcealment(StrongestConcealment):
    """EP-CONC: concealment 20 %, total concealment 50 % (EP-CONC-05/09), rolled after a hit (EP-CONC-05);
    several sources never stack, the strongest counts (EP-CONC-06); magic that conceals against every attack
    (``blur``, ``concealed:N``, EP-CONC-04); a targeting sense in range ignores all of it (EP-CONC-12);
    invisibility gives +2 and the defender's flat-footed AC, no precision damage (EP-CONC-18/19); a creature
    struck by an invisible one knows its square until it moves (EP-CONC-28/27), and attacks it there at 50 %
    (EP-CONC-29); otherwise it guesses a square (EP-CONC-30); phased: 50 % (EP-COND-31)."""

    before_roll = False
    """EP-CONC-05: "the attack is rolled normally; if it hits", then the d%."""

    def __init__(self, opts: EpOptions) -> None:
        self.opts = opts

    def rolled_before(self, reason: str) -> bool:
        """EP-COND-31 (option ``ep_phased_roll: before_roll``): the phased 50 %, when it is the strongest miss chance,
        is rolled before the attack roll — a miss there, no attack roll; every other source after a hit
        (EP-CONC-05)."""
        return self.opts.ep_phased_roll == "before_roll" and reason.startswith(PHASED_REASON)

    def concealment_sources(self, game_map: GameMap, attacker: Footprint, vision: Vision, target: Footprint,
                            defender: CombatantState, *, adjacent_melee: bool) -> tuple[ConcealmentSource, ...]:
        """EP-CONC-01/02/03: the core's corner-line test for ranged attacks (and non-adjacent melee), entirely
        inside the effect for adjacent melee; light (EP-CONC-07); invisible, faded and ethereal creatures are
        invisible (EP-CONC-14/37/38); magic on the defender against every attack (EP-CONC-04)."""
        invisible = invisible_state(defender)
        magic = percent_arg(defender, "concealed") or (20 if defender.has("blur") else 0)
        return concealment_sources(game_map, attacker, vision, target, defender_invisible=invisible,
                                   magic_percent=magic)

    def observer_sources(self, view: View, attacker: str, target: str, option: AttackOption,
                         sources: tuple[ConcealmentSource, ...]) -> tuple[ConcealmentSource, ...]:
        ts = view.state.get(target)
        sense = targeting_sense(view, attacker, target, ethereal_list=self.opts.ep_senses_vs_ethereal)
        if sense is not None and sources:
            sources = ()  # EP-CONC-12: the sense ignores concealment and total concealment
        elif any(s.total for s in sources):
            where = pinpointed_square(view, attacker, target)
            what = "pinpointed"
            if where is None and any(sq in view.game_map.water for sq in Footprint(
                    ts.position, view.creature(target).space).squares()):
                where, what = ts.position, "displacing the water"  # EP-CONC-33: its square shows, 50 % stays
            if where is not None:
                # EP-CONC-23/29: a known square is attacked normally, still at total concealment's 50 %
                sources = (*[s for s in sources if not s.total], ConcealmentSource(
                    TOTAL_CONCEALMENT_PERCENT, f"invisible, {what} at ({where[0]},{where[1]}) (EP-CONC-29)",
                    False))
        if creature_inside_object(view, attacker) and not creature_inside_object(view, target):
            # EP-COND-17: from inside an object every enemy has total concealment, whatever the senses
            sources = (*[s for s in sources if not s.total], ConcealmentSource(
                TOTAL_CONCEALMENT_PERCENT, f"{attacker} is inside a solid object: total concealment (EP-COND-17)",
                False))  # it senses the squares next to it: it knows where the creature is
        q = qualities(view, attacker, option)
        exception = bool(q & {"force", "ghost_touch", "incorporeal"})
        if ts.has("phased") and (q & {"magic"} or exception) and not (
                exception and not self.opts.ep_phased_exceptions_roll):
            sources = (*sources, ConcealmentSource(50, PHASED_REASON,
                                                   False))
        override = percent_arg(ts, "miss_chance")
        if override is not None and sources:
            # EP-CONC-13/29: the GM's miss chance for this creature replaces the text's numbers
            sources = tuple(ConcealmentSource(override, f"{s.reason}; GM's miss chance {override}% (EP-CONC-13)",
                                              s.total) for s in sources)
        return sources

    def _unseen(self, view: View, attacker: str, target: str) -> bool:
        return unseen_by(view, attacker, target, ethereal_list=self.opts.ep_senses_vs_ethereal)

    def attack_modifiers(self, view: View, attack: AttackInfo) -> list[Modifier]:
        """EP-CONC-15/18: +2 circumstance for an invisible attacker against a creature that cannot see it."""
        if self._unseen(view, attack.attacker, attack.target):
            return [Modifier(INVISIBLE_ATTACKER_BONUS, "invisible attacker (EP-CONC-18)", "circumstance")]
        return []

    def flat_footed_against(self, view: View, attacker: str, target: str) -> bool:
        """EP-CONC-18: the attack of an unseen invisible creature targets flat-footed AC."""
        return self._unseen(view, attacker, target)

    def precision_allowed(self, view: View, attacker: str, target: str) -> bool:
        """EP-CONC-19: no precision damage on an invisible creature, unless the attacker targets it with a sense
        that pierces the invisibility and leaves no miss chance."""
        if not invisible_state(view.state.get(target)):
            return True
        return sees_invisible(view, attacker, target, ethereal_list=self.opts.ep_senses_vs_ethereal) is not None

    def after_attack(self, view: View, attack: AttackInfo, hit: bool) -> None:
        """EP-CONC-28: a creature struck by an invisible attacker knows where it is until it moves."""
        if hit and self._unseen(view, attack.attacker, attack.target):
            pinpoint(view, attack.target, attack.attacker,
                     f"struck by the invisible {attack.attacker}: knows its square until it moves (EP-CONC-28)")


def stealth_stance_problem(view: View, cid: str) -> str | None:
    """EP-CONC-11: total concealment lets a creature start a Stealth stance — None if every enemy on the map meets
    only total concealment from it (invisibility, darkness it cannot see in…, with its senses counted), else
    why not, naming the enemy that sees it. (Total cover, the usual other way, is the stance rules' test.)"""
    me = view.state.get(cid)
    mine = view.creature(cid)
    for other in sorted(view.state.combatants):
        os_ = view.state.get(other)
        oc = view.creature(other)
        if oc.side == mine.side or os_.position is None or os_.hp <= 0:
            continue
        vision = Vision(low_light=oc.sheet.low_light_vision, darkvision_ft=oc.sheet.darkvision_ft,
                        blinded=os_.has("blinded"), sees_invisible=os_.has("sees_invisible"))
        sources = concealment_sources(view.game_map, Footprint(os_.position, oc.space), vision,
                                      Footprint(me.position, mine.space), defender_invisible=invisible_state(me))
        if targeting_sense(view, other, cid) is not None or not any(s.total for s in sources):
            return (f"{other} perceives {cid} (no total concealment from it): a Stealth stance needs total "
                    f"concealment or total cover (EP-CONC-11)")
    return None
