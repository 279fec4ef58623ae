"""What the tactical AI casts, touches and drinks under worlds-of-adventure (WOA-SPELL, WOA-ITEM): one choice, the
same in the declaration phase (what to declare, :mod:`.declare_ai`) and on the turn (what to do, :mod:`.tactics`).
Simple and deterministic: no dice, ties broken by name.

In this order:

1. **Drink a healing potion** when at a third of its hit points or less and no foe threatens it (WOA-ITEM-21: a
   standard action; drinking costs the round's reactions, WOA-ITEM-25).
2. **Touch with a held charge** a foe within reach (WOA-SPELL-19/20: a miss keeps the charge) — once a turn.
3. Only spells it can cast now (prepared, not used up, no component barred: :func:`.spells.component_problem`);
   while a foe threatens it and casting would provoke (the reactions component's ``provoking_act``): a standard
   casting after a defensive disengage to a square no foe threatens (WOA-AOO-20), else nothing.
4. **An area damage spell** (a save spell with a radius, WOA-SPELL-14) centred on the foe whose burst catches the
   most foes — never the caster or an ally — when it catches at least two.
5. **A buff** (``battle_condition_altering`` with an AC or attack bonus, WOA-SPELL-16) on itself or the ally with
   the best attack, before melee (no foe threatens either), when that creature has no such effect or pending cast.
6. **A single-target damage spell** (or an area one that catches only foes) at the foe it most likely fells: the
   foe with the fewest hit points left, then the nearest.
7. **A touch damage spell** when a foe is within reach (cast, then touch in the same round, free, WOA-SPELL-18).
8. **Ready a counterspell** (WOA-INIT-22..24) when nothing above applies and no foe threatens it: against the foe
   caster holding the highest-level damage spell it could counter (a use of the same spell, else of dispel magic,
   its components not barred) — never against a foe that is itself readying (two readiers would wait forever).
   Having declared it, it readies the counterspell on its turn (and again each round it declares it).
"""

from __future__ import annotations

from typing import Any

from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.rulesets.worlds_of_adventure import spell_timing as st
from d20combat.rulesets.worlds_of_adventure.counterspell import counterable_by
from d20combat.rulesets.worlds_of_adventure.disengage import DefensiveDisengage
from d20combat.rulesets.worlds_of_adventure.items import DrinkPotion
from d20combat.rulesets.worlds_of_adventure.reactions import READYING
from d20combat.rulesets.worlds_of_adventure.ready import Ready
from d20combat.rulesets.worlds_of_adventure.spell_components import component_problem
from d20combat.rulesets.worlds_of_adventure.spell_data import Spell, left, potion_table, spell_table, spells_left
from d20combat.rulesets.worlds_of_adventure.spells import CastSpell, TouchSpell, holding

LOW_HP = 1 / 3
"""A creature at this share of its hit points or less drinks a healing potion when it can."""


def choose_spell_action(enc: Any, actor: str) -> ax.Action | None:
    """The spell, touch or potion ``actor`` would use now in ``enc`` (an Encounter), or None."""

    creature, cs = enc.creature(actor), enc.state.get(actor)
    foes = _foes(enc, actor)
    if not foes:
        return None
    declared = enc.state.declarations.get(actor) or {}
    if declared.get("standard") == "ready" and isinstance(declared.get("target"), str) and _can_act_now(enc, actor) \
            and spells_left(creature, cs):
        return Ready(trigger=declared["target"], counterspell=True)  # WOA-INIT-22: what it declared for
    threatened = _threatened(enc, actor, foes)
    potion = _healing_potion(enc, actor)
    if potion and not threatened and cs.hp <= creature.sheet.hp * LOW_HP:
        return DrinkPotion(potion)
    held = holding(cs.conditions)
    if held is not None:
        near = _within_reach(enc, actor, foes)
        if near and not _touched_this_turn(enc, actor):
            return TouchSpell(near[0])
        return None
    view = enc.view()
    known = [(name, sp) for name, sp in sorted(spell_table().items())
             if sp.casting_time in ("standard", "full_round") and not sp.counterspell_only
             and left(creature, cs, f"spell_{name}") > 0
             and component_problem(view, actor, sp) is None]
    pressed = threatened and any(_provokes(enc, actor, CastSpell(name)) for name, _ in known)
    if pressed:
        if escape(enc, actor, foes) is None:
            return None
        known = [(name, sp) for name, sp in known if sp.casting_time == "standard" and not sp.touch]
    for pick in (_area, _buff, _single, _touch):
        chosen = pick(enc, actor, foes, known)
        if chosen is not None:
            return chosen
    return None if threatened or not _can_act_now(enc, actor) else _counter(enc, actor, foes)


def first_escape(enc: Any, actor: str, action: ax.Action) -> ax.Action | None:
    """The defensive disengage (WOA-AOO-20) to take before casting ``action`` when a foe threatens ``actor`` and
    casting would provoke; None when casting now is safe (or the action is not a casting)."""
    if not isinstance(action, CastSpell):
        return None
    foes = _foes(enc, actor)
    if not _threatened(enc, actor, foes) or not _provokes(enc, actor, action):
        return None
    return escape(enc, actor, foes)


def escape(enc: Any, actor: str, foes: list[str]) -> ax.Action | None:
    """A defensive disengage (WOA-AOO-20: half speed, no attack of opportunity from the foes left) to the nearest
    square no foe threatens, if there is one and it is legal now (a move action left)."""
    from d20combat.battlefield.grid import Footprint

    turn = enc.state.turn
    if turn is None or turn.actor != actor or not enc.can_afford("move") or turn.stepped:
        return None
    half = enc.speed_ft(actor, enc.state) // 2
    reactions, space = enc.ruleset.reactions, enc.creature(actor).space
    safe = sorted((info.cost_ft, sq) for sq, info in enc.move_options(actor).items()
                  if info.cost_ft <= half and not any(
                      reactions.threatened(enc.creature(f), enc.state.get(f), enc.footprint(f), Footprint(sq, space))
                      for f in foes))
    for _, sq in safe[:4]:
        action = DefensiveDisengage(to=sq)
        if enc.check(action) is None:
            return action
    return None


def declaration_of(action: ax.Action, legal: list[ax.Declare]) -> ax.Declare | None:
    """The declaration that carries out ``action`` (WOA-CYCLE-14/15): a full-round casting alone, a standard one (a
    touch, a potion) with a move action, a readied counterspell as ``ready`` at its caster (WOA-INIT-06/22); None
    when the turn order lists no such declaration."""

    if isinstance(action, Ready):
        wanted = ax.Declare(standard="ready", move="move", target=action.trigger)
    elif isinstance(action, CastSpell) and spell_table()[action.spell].casting_time == "full_round":
        wanted = ax.Declare(full_round=action.kind)
    else:
        wanted = ax.Declare(standard=action.kind, move="move")
    return wanted if wanted in legal else None


def fits_declaration(action: ax.Action, declared: dict[str, Any]) -> bool:
    """Whether ``action`` is what ``declared`` (the state's record of this round's declaration) allows."""

    if isinstance(action, Ready):
        return declared.get("standard") == "ready" and declared.get("target") == action.trigger
    if isinstance(action, TouchSpell):
        return "touch_spell" in (declared.get("standard"), declared.get("full_round")) or \
            "cast_spell" in (declared.get("standard"), declared.get("full_round"))
    if isinstance(action, CastSpell):
        slot = "full_round" if spell_table()[action.spell].casting_time == "full_round" else "standard"
        return declared.get(slot) == action.kind
    return action.kind in (declared.get("standard"), declared.get("full_round"))


# --- the choices ---------------------------------------------------------------------------------------------------
def _area(enc: Any, actor: str, foes: list[str], known: list[tuple[str, Spell]]) -> ax.Action | None:
    best: tuple[int, int, str, str] | None = None
    for name, sp in known:
        if sp.effect.damage is None or not sp.effect.radius_ft or sp.touch:
            continue
        for center in foes:
            caught = caught_by(enc, actor, center, sp.effect.radius_ft)
            if caught is None or len(caught) < 2:
                continue
            key = (-len(caught), -sp.level, name, center)
            best = key if best is None or key < best else best
    return CastSpell(best[2], best[3]) if best else None


def caught_by(enc: Any, actor: str, center: str, radius_ft: int) -> list[str] | None:
    """The foes a burst of ``radius_ft`` on ``center`` catches, or None when it would catch the caster or an ally."""
    side = enc.creature(actor).side
    victims = st.in_area(enc.view(), center, radius_ft)
    if any(enc.creature(v).side == side for v in victims):
        return None
    return victims


def _buff(enc: Any, actor: str, foes: list[str], known: list[tuple[str, Spell]]) -> ax.Action | None:
    side = enc.creature(actor).side
    friends = sorted((c for c in enc.state.combatants if enc.creature(c).side == side and _fighting(enc, c)),
                     key=lambda c: (-enc.creature(c).attack_bonus, c != actor, c))
    for name, sp in known:
        eff = sp.effect
        if not sp.battle_condition_altering or not (eff.ac or eff.attack) or sp.touch:
            continue
        for friend in friends:
            if _threatened(enc, friend, foes) or _has_effect(enc, friend, sp):
                continue
            return CastSpell(name, None if friend == actor else friend)
    return None


def _single(enc: Any, actor: str, foes: list[str], known: list[tuple[str, Spell]]) -> ax.Action | None:
    here = enc.footprint(actor)
    order = sorted(foes, key=lambda f: (max(enc.state.get(f).hp, 0), footprint_distance_ft(here, enc.footprint(f)),
                                         f))
    for name, sp in sorted(known, key=lambda k: (-(k[1].effect.damage.mean if k[1].effect.damage else 0), k[0])):
        if sp.effect.damage is None or sp.touch:
            continue
        for foe in order:
            if not sp.effect.radius_ft or caught_by(enc, actor, foe, sp.effect.radius_ft) is not None:
                return CastSpell(name, foe)
    return None


def _touch(enc: Any, actor: str, foes: list[str], known: list[tuple[str, Spell]]) -> ax.Action | None:
    if not _within_reach(enc, actor, foes):
        return None
    return next((CastSpell(name) for name, sp in known if sp.touch and sp.effect.damage is not None), None)


def _counter(enc: Any, actor: str, foes: list[str]) -> ax.Action | None:
    """WOA-INIT-22..24: ready a counterspell against the foe caster with the highest-level damage spell this
    creature could counter (not one that is readying itself)."""

    creature, cs = enc.creature(actor), enc.state.get(actor)
    if not spells_left(creature, cs):
        return None
    view = enc.view()
    best: tuple[int, str] | None = None
    for foe in foes:
        theirs = enc.creature(foe), enc.state.get(foe)
        said = enc.state.declarations.get(foe) or {}
        if theirs[1].has(READYING) or said.get("standard") == "ready":
            continue
        for name, sp in spell_table().items():
            if sp.effect.damage is None or left(*theirs, f"spell_{name}") <= 0:
                continue
            counter = counterable_by(creature, cs, name)
            if counter is None or component_problem(view, actor, spell_table()[counter]) is not None:
                continue
            key = (-sp.level, foe)
            best = key if best is None or key < best else best
    return Ready(trigger=best[1], counterspell=True) if best else None


def _can_act_now(enc: Any, actor: str) -> bool:
    """On its own turn: its standard action is still unspent (a planning copy's fresh turn has it)."""
    turn = enc.state.turn
    return turn is None or turn.actor != actor or enc.can_afford("standard")


# --- what it knows of the battle ------------------------------------------------------------------------------------
def _fighting(enc: Any, cid: str) -> bool:
    s = enc.state
    c = s.get(cid)
    return not enc.ruleset.injury.out_of_fight(enc.creature(cid), c) and "fled" not in c.conditions \
        and "removed" not in c.conditions


def _foes(enc: Any, actor: str) -> list[str]:
    return [f for f in enc.enemies(actor) if _fighting(enc, f)]


def _threatened(enc: Any, cid: str, foes: list[str]) -> bool:
    """Whether a foe threatens ``cid``'s space (the reactions component's own test)."""
    reactions = enc.ruleset.reactions
    mine = enc.footprint(cid)
    return any(reactions.threatened(enc.creature(f), enc.state.get(f), enc.footprint(f), mine) for f in foes)


def _provokes(enc: Any, actor: str, action: ax.Action) -> bool:
    return enc.ruleset.reactions.provoking_act(enc.view(), actor, action, None) is not None


def _within_reach(enc: Any, actor: str, foes: list[str]) -> list[str]:
    here, reach = enc.footprint(actor), enc.creature(actor).reach_ft
    near = [f for f in foes if footprint_distance_ft(here, enc.footprint(f)) <= reach]
    return sorted(near, key=lambda f: (max(enc.state.get(f).hp, 0), f))


def _healing_potion(enc: Any, actor: str) -> str | None:
    creature, cs = enc.creature(actor), enc.state.get(actor)
    return next((name for name, eff in sorted(potion_table().items())
                 if eff.heal is not None and left(creature, cs, f"potion_{name}") > 0), None)


def _has_effect(enc: Any, cid: str, sp: Spell) -> bool:
    """``cid`` already has ``sp``'s effect, or a friend's casting of it on ``cid`` is pending."""
    if any(e.name == sp.label for e in enc.state.get(cid).effects):
        return True
    return any(name == sp.name and (target == cid or (target == "-" and owner == cid))
               for owner, c in enc.state.combatants.items() for _, name, target, _, _ in st.pending(c.conditions))


def _touched_this_turn(enc: Any, actor: str) -> bool:
    """A touch attack already made with the held charge this turn (the free touch comes once, WOA-SPELL-18)."""
    for event in reversed(enc.log):
        if isinstance(event, ev.TurnStarted):
            return False
        if isinstance(event, ev.Note) and event.text.startswith(f"{actor} touch attack with "):
            return True
    return False


__all__ = ["LOW_HP", "caught_by", "choose_spell_action", "declaration_of", "escape", "first_escape",
           "fits_declaration"]
