"""Epic Path's creature states (EP-COND): flat-footed until the first turn, incorporeal, nebulous, phased,
ethereal, and faded (EP-CONC-38..44) — who may attack whom, and what the damage becomes.

A state is a stored condition: from the scenario (``conditions: [incorporeal]``), from a timed effect
(``effects: [{name: invisibility, rounds: 10, condition: invisible}]``) or from the GM. What harms a creature in
a state is read from the attack: the weapon's ``qualities`` (``magic``, ``force``, ``ghost_touch``,
``holy_water``, ``channel``, ``ethereal``), its enhancement, a spell, and the attacker's own states.
"""

from __future__ import annotations

from d20combat.battlefield.grid import Footprint, Light
from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState, EncounterState
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier, total
from d20combat.rulesets.components import NamedConditions
from d20combat.rulesets.components.component import AttackInfo, View
from d20combat.rulesets.epic_path.assist import assist_modifiers
from d20combat.rulesets.epic_path.incorporeal import creature_inside_object, moves_full_speed_unseeing
from d20combat.rulesets.epic_path.invisibility import notice_lights
from d20combat.rulesets.epic_path.options import EpOptions
from d20combat.rulesets.epic_path.seeing import condition_args, level_or_cr, qualities
from d20combat.rulesets.epic_path.senses import distance, has_state
from d20combat.rulesets.epic_path.stances import Stances

HALVING_STATES = ("incorporeal", "nebulous", "phased")


def remembers(state: EncounterState, observer: str, faded: str) -> bool:
    """``observer`` passed its Will save against ``faded`` this round (EP-CONC-39/44)."""
    return any(args == [faded, str(state.round)] for args in condition_args(state.get(observer), "remembering"))


def object_problem(view: View, attacker: str, target: str) -> str | None:
    """EP-COND-17/18/19: an incorporeal creature inside a solid object has total cover — except in its own turn,
    when it attacks out of the object and has only cover, so a readied attack strikes it (EP-ACT-57 fires readied
    attacks as its turn starts); from inside it senses only the squares next to it, and must emerge to attack
    anything farther."""
    if attacker == target:
        return None
    if creature_inside_object(view, target):
        turn = view.state.turn
        if turn is None or turn.actor != target:
            return (f"{target} is inside a solid object: total cover, no attack (EP-COND-19); only as it attacks "
                    f"out of it, in its turn, may a readied attack strike it")
    if creature_inside_object(view, attacker) and distance(view, attacker, target) > 5:
        return (f"{attacker} is inside a solid object: it senses only the squares next to it and must emerge to see "
                f"{target} and attack it (EP-COND-17/18)")
    return None


class EpStates(NamedConditions):
    """EP-COND: flat-footed until the first turn (EP-COND-01..03); incorporeal (EP-COND-07..13, EP-COND-15),
    nebulous (EP-COND-28..30), phased (EP-COND-32, EP-COND-33, EP-COND-36) and ethereal (EP-COND-37,
    EP-COND-40..43) — which attacks are possible, what damage they deal, the ethereal's speed; faded
    (EP-CONC-38..44) — a Will save every round to remember the creature at all; invisible Stealth (EP-CONC-17);
    the assists on a check (EP-MISC-07, EP-MISC-08, EP-MISC-11)."""

    def __init__(self, opts: EpOptions) -> None:
        self.opts = opts

    def active(self, creature: Creature, state: CombatantState) -> frozenset[str]:
        return state.conditions

    def skill_check_modifiers(self, creature: Creature, state: CombatantState, skill: str) -> list[Modifier]:
        """EP-MISC-07/08/11: the assists on this check, each +2 or −1 circumstance; EP-CONC-17: an invisible
        creature's Stealth +2 circumstance, +4 standing still (it did not move in its last turn)."""
        mods = assist_modifiers(state, skill, stack=self.opts.ep_circumstance_stacks)
        if skill.strip().lower() == "stealth" and state.has("invisible"):
            still = state.has("standing_still")
            mods.append(Modifier(4 if still else 2, "invisible, standing still (EP-CONC-17)" if still else
                                 "invisible (EP-CONC-17)", "circumstance"))
        return mods

    def end_of_turn(self, view: View, actor: str) -> None:
        """EP-CONC-17: whether an invisible creature stood still in its turn (for its +4 on Stealth)."""
        cs, turn = view.state.get(actor), view.state.turn
        if not cs.has("invisible") or turn is None or turn.actor != actor:
            return
        still = not (turn.moved or turn.stepped)
        if still != cs.has("standing_still"):
            view.emit(ev.ConditionSet(actor, "standing_still", still, "did not move this turn" if still else "moved"))

    def after_action(self, view: View, actor: str) -> None:
        """EP-MISC-16/17 (EP-COND-05): a creature knocked prone (a trip, the GM's write) or put under an
        action-reducing condition loses its stance at that moment, not at the next turn's edge — the stance
        rules' own test (:meth:`.stances.Stances.check`), asked after every action and GM write."""
        Stances(self.opts.ep_stance_breaking_conditions, self.opts.ep_one_stance_for_every_creature).check(view)

    def speed_ft(self, creature: Creature, state: CombatantState, speed: int) -> int:
        """EP-COND-37: an ethereal creature moves at half its normal speed (in whole squares, at least 5 ft);
        EP-COND-27 (option ``ep_blind_half_speed``): a blinded creature at half speed, unless incorporeal."""
        if state.has("ethereal"):
            return max(5, speed // 2 // 5 * 5)
        if self.opts.ep_blind_half_speed and state.has("blinded") and not moves_full_speed_unseeing(state):
            return max(5, speed // 2 // 5 * 5)  # EP-COND-27: only the incorporeal keep full speed unseeing
        return speed

    def touch_attack(self, view: View, attack: AttackInfo) -> bool:
        """EP-COND-15: an incorporeal creature's attacks target the touch AC of corporeal creatures."""
        return view.state.get(attack.attacker).has("incorporeal") and not view.state.get(attack.target).has(
            "incorporeal")

    def flat_footed(self, view: View, target: str) -> bool:
        """EP-COND-01/03: flat-footed until its first regular turn, unless it has uncanny dodge — the stored
        ``flat_footed`` condition the turn order sets at the start and lifts at that turn (``initiative``,
        EP-SURP-20), so that the log, the table and every area read the same fact."""
        return view.state.get(target).has("flat_footed")

    # --- who may attack whom ---------------------------------------------------------------------------------
    def attack_problem(self, view: View, attack: AttackInfo) -> str | None:
        a, t = attack.attacker, attack.target
        ts, as_ = view.state.get(t), view.state.get(a)
        q = qualities(view, attack.attacker, attack.option)
        if has_state(ts, "faded") and a != t and not remembers(view.state, a, t):
            return (f"{a} does not remember the faded {t} this round: it failed (or has not yet made) its Will "
                    f"save, so {t} is out of range for its attacks (EP-CONC-39/41/44)")
        if "gaze" in q and any(as_.has(x) for x in ("invisible", "faded", "ethereal")):
            return f"{a} is invisible and cannot use a gaze attack (EP-CONC-35)"
        if as_.has("ethereal") and not ts.has("ethereal"):
            return f"{a} is ethereal and cannot attack the material {t} (EP-COND-41)"
        if ts.has("ethereal") and not as_.has("ethereal") and not q & {"force", "ethereal"}:
            return (f"{t} is ethereal: only force effects and attacks that work on the Ethereal Plane reach it "
                    f"(EP-COND-40/42)")
        inside = object_problem(view, a, t)
        if inside:
            return inside
        if ts.has("phased") and not q & {"magic", "force", "ghost_touch", "incorporeal"}:
            return f"{t} is phased: mundane weapons cannot hit it at all (EP-COND-32)"
        if ts.has("incorporeal") and not q & {"magic", "force", "ghost_touch", "incorporeal", "holy_water",
                                                "channel"}:
            return (f"{t} is incorporeal: immune to non-magical attack forms; only magic weapons, spells, force, "
                    f"ghost touch and other incorporeal creatures harm it (EP-COND-07/08)")
        return None

    # --- damage ----------------------------------------------------------------------------------------------
    def _in_bright_light(self, view: View, cid: str) -> bool:
        cs, c = view.state.get(cid), view.creature(cid)
        return all(view.game_map.light_for(sq) is Light.BRIGHT for sq in Footprint(cs.position, c.space).squares())

    def _halving(self, view: View, attack: AttackInfo) -> list[str]:
        """Why the damage is halved (each state that halves it), or [] for full damage."""
        ts = view.state.get(attack.target)
        q = qualities(view, attack.attacker, attack.option)
        why: list[str] = []
        if ts.has("incorporeal"):
            if "nebulous" in q:
                why.append("a nebulous attacker deals half to an incorporeal creature (EP-COND-30)")
            elif "holy_water" in q and self.opts.ep_holy_water_vs_incorporeal == "half":
                why.append("holy water is a corporeal source: half (EP-COND-12)")
            elif not q & {"force", "ghost_touch", "incorporeal", "channel", "holy_water"}:
                why.append("incorporeal: half damage from a corporeal source (EP-COND-09)")
        nebulous_full = {"force", "ghost_touch", "incorporeal", "nebulous"}
        spell_spared = self.opts.ep_nebulous_halves == "attacks" and attack.option.kind.value == "spell"
        if ts.has("nebulous") and not self._in_bright_light(view, attack.target) and not q & nebulous_full \
                and not spell_spared:
            why.append("nebulous, not in bright light: half damage (EP-COND-28)")
        if ts.has("phased") and not q & {"force", "ghost_touch", "incorporeal"}:
            why.append("phased: half damage from all sources (EP-COND-33)")
        return why

    def damage_against(self, view: View, attack: AttackInfo, amount: int) -> tuple[int, str]:
        """EP-COND-09/10/11/12/13/28/29/30/33/36: incorporeal, nebulous (out of bright light) and phased creatures
        take half damage, except from the sources their rules name; one halving however many states apply."""
        why = self._halving(view, attack)
        if not why:
            return amount, ""
        half = amount // 2 if self.opts.ep_incorporeal_half_rounding == "down" else -(-amount // 2)
        return half, f"halved ({'; '.join(why)}): {amount} → {half}"

    # --- faded: a Will save each round ----------------------------------------------------------------------
    def start_of_turn(self, view: View, actor: str) -> None:
        """EP-CONC-39/42: at the start of its turn, each creature facing a faded enemy makes a Will save (DC 10 +
        the faded creature's level or CR) to remember it this round; the result is kept until the round ends.
        EP-CONC-34: it notices the light an invisible enemy carries (:func:`.invisibility.notice_lights`)."""
        notice_lights(view, actor)  # EP-CONC-34
        s = view.state
        me = view.creature(actor)
        for cid in sorted(s.combatants):
            cs = s.get(cid)
            if cid == actor or not has_state(cs, "faded") or view.creature(cid).side == me.side or cs.position is None:
                continue
            for args in condition_args(s.get(actor), "remembering"):
                if args and args[0] == cid:
                    view.emit(ev.ConditionSet(actor, ":".join(["remembering", *args]), False, "a new round's save"))
            whose = view.creature(cid) if self.opts.ep_faded_dc_level == "faded" else me
            wstate = cs if self.opts.ep_faded_dc_level == "faded" else view.state.get(actor)
            level = level_or_cr(whose, wstate, "faded") or 0
            dc = 10 + level
            face = view.dice.d20(f"will save {actor} remembers {cid}")
            mods = self.rules.saves.save_modifiers(me, view.state.get(actor), "will")
            t = total(face, mods, base_label="d20", stacking=self.rules.stacking)
            ok = self.rules.saves.succeeds("will", face, t.value, dc)
            outcome = "remembers it this round" if ok else f"forgets it: {cid} is out of range for its attacks " \
                                                            "this round"
            text = (f"{actor} Will save to remember the faded {cid}: {t.explain()} vs DC {dc} (10 + level/CR "
                    f"{level}) — {outcome} (EP-CONC-39/41)")
            view.emit(ev.Note(text))
            if ok:
                view.emit(ev.ConditionSet(actor, f"remembering:{cid}:{s.round}", True, f"Will save vs DC {dc}"))
