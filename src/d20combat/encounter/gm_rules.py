"""How the game master's writes resolve into events (issue 13). Functions over an :class:`EncounterCore` and a
working copy, like the creatures' action handlers; the engine's :meth:`~d20combat.encounter.engine.Encounter.gm`
runs one and commits it whole, or refuses it and changes nothing.

After every edit the fight's bookkeeping follows as after any action: a side with nobody left ends the combat, and
a creature whose turn it is that can no longer act (knocked out, removed) ends its turn.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from pydantic import ValidationError

from d20combat.encounter import events as ev
from d20combat.encounter import gm_actions as gm
from d20combat.encounter.actions import Declare
from d20combat.encounter.core import EncounterCore, end_effect
from d20combat.encounter.resolution import IllegalAction, Tx
from d20combat.limits import MAX_HP, MAX_MODIFIER, MAX_NAME_CHARS
from d20combat.model.catalog import default_catalog
from d20combat.model.creature import compile_creature
from d20combat.model.statblock import StatBlock
from d20combat.numbers import total

BY = "GM"
"""Who makes these writes (the log says so)."""

MAX_ROUNDS = 1000
"""The longest timed effect, in rounds."""


def resolve(enc: EncounterCore, tx: Tx, action: gm.GmAction) -> None:
    s = tx.state
    if not enc.log:
        raise IllegalAction("the encounter has not started: call start() first")
    if s.ended:
        raise IllegalAction("the encounter is over (undo its last write to go on)")
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction(f"{action.kind}: not a game master's write")
    handler(enc, tx, action)
    enc.ruleset.after_action(tx, "gm")
    _settle(enc, tx)


def _settle(enc: EncounterCore, tx: Tx) -> None:
    if enc._check_end(tx):
        return
    turn = tx.state.turn
    if turn is not None:
        reason = enc._cannot_act(tx.state, turn.actor)
        if reason is not None:
            tx.emit(ev.TurnEnded(turn.actor, reason))
            enc._advance(tx)


# ------------------------------------------------------------------------------------------ checks
def _target(enc: EncounterCore, tx: Tx, cid: str, what: str) -> str:
    if cid not in tx.state.combatants:
        raise IllegalAction(f"{what}: no combatant {cid!r}")
    if tx.state.get(cid).has("removed"):
        raise IllegalAction(f"{what}: {cid} has been removed from the battle")
    return cid


def _amount(value: int, what: str, top: int = MAX_HP) -> int:
    if not 1 <= value <= top:
        raise IllegalAction(f"{what}: {value} is not a whole number from 1 to {top:,}")
    return value


def _text(value: str, what: str) -> str:
    if len(value) > MAX_NAME_CHARS:
        raise IllegalAction(f"{what}: longer than {MAX_NAME_CHARS} characters")
    return value


# ------------------------------------------------------------------------------------------ hit points
def _damage(enc: EncounterCore, tx: Tx, a: gm.GmDamage) -> None:
    cid = _target(enc, tx, a.target, "gm_damage.target")
    amount = _amount(a.amount, "gm_damage.amount")
    why = _text(a.why, "gm_damage.why")
    _deal(enc, tx, cid, amount, why, f"{amount} damage to {cid}" + (f" ({why})" if why else ""))


def _deal(enc: EncounterCore, tx: Tx, cid: str, amount: int, why: str, text: str) -> None:
    before = tx.state.get(cid).hp
    tx.emit(ev.GmEdited(BY, text, cid))
    tx.emit(ev.Damaged(cid, amount, BY, f"{cid} takes {amount} damage ({why or 'by the GM'}) → "
                                        f"{cid} hp {before} → {before - amount}"))
    enc.ruleset.after_damage(tx, cid, amount, before)


def _heal(enc: EncounterCore, tx: Tx, a: gm.GmHeal) -> None:
    cid = _target(enc, tx, a.target, "gm_heal.target")
    amount = _amount(a.amount, "gm_heal.amount")
    why = _text(a.why, "gm_heal.why")
    _mend(enc, tx, cid, amount, why, f"heals {cid} {amount}" + (f" ({why})" if why else ""))


def _mend(enc: EncounterCore, tx: Tx, cid: str, amount: int, why: str, text: str) -> None:
    tx.emit(ev.GmEdited(BY, text, cid))
    enc.ruleset.injury.heal(tx, cid, amount, why or "by the GM")


def _set_hp(enc: EncounterCore, tx: Tx, a: gm.GmSetHp) -> None:
    cid = _target(enc, tx, a.target, "gm_set_hp.target")
    top = enc.creature(cid).sheet.hp
    if not -MAX_HP <= a.hp <= top:
        raise IllegalAction(f"gm_set_hp.hp: {a.hp} is not from {-MAX_HP:,} to {cid}'s maximum {top}")
    now = tx.state.get(cid).hp
    if a.hp == now:
        raise IllegalAction(f"gm_set_hp.hp: {cid} already has {now} hp")
    text = f"sets {cid}'s hp to {a.hp}"
    if a.hp < now:
        _deal(enc, tx, cid, now - a.hp, "hp set by the GM", text)
    else:
        _mend(enc, tx, cid, a.hp - now, "hp set by the GM", text)


# ------------------------------------------------------------------------------------------ conditions, effects
def _condition(enc: EncounterCore, tx: Tx, a: gm.GmCondition) -> None:
    cid = _target(enc, tx, a.target, "gm_condition.target")
    text = _text(a.condition.strip(), "gm_condition.condition")
    if not text or text == "removed":
        raise IllegalAction("gm_condition.condition: name a condition (prone, shaken, hidden, concealed:20…)")
    has = tx.state.get(cid).has(text)
    if a.present == has:
        raise IllegalAction(f"gm_condition: {cid} {'already has' if has else 'does not have'} {text!r}")
    verb = "adds" if a.present else "removes"
    tx.emit(ev.GmEdited(BY, f"{verb} {ev.condition_label(text)} {'to' if a.present else 'from'} {cid}", cid))
    tx.emit(ev.ConditionSet(cid, text, a.present, "by the GM"))


def _effect(enc: EncounterCore, tx: Tx, a: gm.GmEffect) -> None:
    s = tx.state
    cid = _target(enc, tx, a.target, "gm_effect.target")
    name = _text(a.name.strip(), "gm_effect.name")
    if not name:
        raise IllegalAction("gm_effect.name: an effect needs a name")
    if any(e.name == name for e in s.get(cid).effects):
        raise IllegalAction(f"gm_effect.name: {cid} already has an effect named {name!r} (end it first)")
    rounds = _amount(a.rounds, "gm_effect.rounds", MAX_ROUNDS)
    anchor = a.anchor if a.anchor is not None else (s.turn.actor if s.turn is not None else cid)
    if anchor not in s.order:
        raise IllegalAction(f"gm_effect.anchor: {anchor!r} has no turn in the initiative order")
    for field, value in (("ac", a.ac), ("attack", a.attack)):
        if not -MAX_MODIFIER <= value <= MAX_MODIFIER:
            raise IllegalAction(f"gm_effect.{field}: {value} is not from {-MAX_MODIFIER} to {MAX_MODIFIER}")
    condition = _text(a.condition.strip(), "gm_effect.condition")
    tx.emit(ev.GmEdited(BY, f"puts {name} on {cid} for {rounds} round{'s' if rounds != 1 else ''}", cid))
    tx.emit(ev.EffectAdded(cid, name, anchor, s.round + rounds, a.ac, a.attack, condition))
    if condition and not s.get(cid).has(condition):
        tx.emit(ev.ConditionSet(cid, condition, True, name))


def _end_effect(enc: EncounterCore, tx: Tx, a: gm.GmEndEffect) -> None:
    cid = _target(enc, tx, a.target, "gm_end_effect.target")
    effect = next((e for e in tx.state.get(cid).effects if e.name == a.name), None)
    if effect is None:
        known = ", ".join(e.name for e in tx.state.get(cid).effects) or "none"
        raise IllegalAction(f"gm_end_effect.name: {cid} has no effect {a.name!r} (its effects: {known})")
    tx.emit(ev.GmEdited(BY, f"ends {a.name} on {cid}", cid))
    end_effect(tx, cid, effect.name, effect.condition)


# ------------------------------------------------------------------------------------------ creatures
def _add(enc: EncounterCore, tx: Tx, a: gm.GmAddCreature) -> None:
    s = tx.state
    cid = _text(a.combatant.strip(), "gm_add_creature.combatant")
    if not cid or cid in s.combatants or cid in enc.battle.creatures:
        raise IllegalAction(f"gm_add_creature.combatant: {cid!r} is {'taken' if cid else 'empty'} "
                            "(every creature needs its own id)")
    side = _text(a.side.strip(), "gm_add_creature.side")
    if not side:
        raise IllegalAction("gm_add_creature.side: a creature needs a side")
    try:
        sheet = StatBlock.model_validate(a.sheet)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise IllegalAction(f"gm_add_creature.sheet.{where}: {first['msg']}") from None
    problems = enc.ruleset.sheets.check_stat_block(sheet)
    if problems:
        raise IllegalAction(f"gm_add_creature.sheet: {problems[0]} (needed by the {enc.ruleset.id} ruleset)")
    sheet = enc.ruleset.sheets.complete_sheet(sheet)
    name = _text((a.name or sheet.name or cid).strip(), "gm_add_creature.name")
    try:
        creature = compile_creature(cid, name, side, sheet, default_catalog(), a.sneaky)
    except (KeyError, ValueError) as exc:
        raise IllegalAction(f"gm_add_creature.sheet: unknown equipment {exc}") from None
    _check_place(enc, tx, cid, creature.space, a.position)
    hp = a.hp if a.hp is not None else sheet.hp
    if not 1 <= hp <= sheet.hp:
        raise IllegalAction(f"gm_add_creature.hp: {hp} is not from 1 to its maximum {sheet.hp}")
    names = [o.name for o in creature.attacks]
    wielding = a.wielding or sheet.wielding or (names[0] if names else None)
    if wielding is not None and wielding not in names:
        raise IllegalAction(f"gm_add_creature.wielding: {wielding!r} is not one of its attacks ({', '.join(names)})")
    if a.initiative is not None:
        if not -MAX_MODIFIER <= a.initiative <= MAX_MODIFIER:
            raise IllegalAction(f"gm_add_creature.initiative: {a.initiative} is out of range")
        init, explain = a.initiative, f"{a.initiative} (given)"
    else:
        face = tx.dice.roll(20, f"initiative {cid}")
        mods = enc.ruleset.turn_order.initiative_modifiers(creature)
        t = total(face, mods, base_label="d20", stacking=enc.ruleset.stacking)
        init, explain = t.value, t.explain()
    totals = [(c, s.get(c).initiative or 0) for c in s.order]
    order = _place(totals, cid, init)
    data = sheet.model_dump(mode="json", by_alias=True, exclude_defaults=True)
    tx.emit(ev.GmEdited(BY, f"adds {name} ({side})", cid))
    tx.emit(ev.CreatureAdded(cid, name, side, data, [a.position[0], a.position[1]], hp, wielding, init, order,
                             a.sneaky))
    tx.emit(ev.InitiativeRolled(cid, init, explain))
    pools = enc.ruleset.economy.round_reactions(creature, tx.state.get(cid))
    if pools:
        tx.emit(ev.ReactionsSet(cid, pools))


def _place(totals: list[tuple[str, int]], cid: str, init: int) -> list[str]:
    """The order with ``cid`` after every creature whose initiative is at least ``init`` (ties: it comes last)."""
    order = [c for c, _ in totals]
    at = next((i for i, (_, value) in enumerate(totals) if value < init), len(totals))
    return [*order[:at], cid, *order[at:]]


def _check_place(enc: EncounterCore, tx: Tx, cid: str, space: int, position: Any) -> None:
    gm_ = enc.battle.game_map
    taken = enc.creature_squares((), tx.state)
    for dc in range(space):
        for dr in range(space):
            sq = (position[0] + dc, position[1] + dr)
            if not gm_.in_bounds(sq):
                raise IllegalAction(f"gm_add_creature.position: square {sq} is outside the "
                                    f"{gm_.width}×{gm_.height} map")
            if sq in gm_.walls or sq in gm_.pits:
                raise IllegalAction(f"gm_add_creature.position: square {sq} is a wall or pit")
            if sq in taken:
                raise IllegalAction(f"gm_add_creature.position: square {sq} is occupied by {taken[sq]}")


def _remove(enc: EncounterCore, tx: Tx, a: gm.GmRemoveCreature) -> None:
    cid = _target(enc, tx, a.target, "gm_remove_creature.target")
    tx.emit(ev.GmEdited(BY, f"removes {cid} from the battle", cid))
    turn = tx.state.turn
    if turn is not None and turn.actor == cid:
        tx.emit(ev.TurnEnded(cid, "removed by the GM"))
        tx.emit(ev.CreatureRemoved(cid))
        if not enc._check_end(tx):
            enc._advance(tx)
        return
    tx.emit(ev.CreatureRemoved(cid))


# ------------------------------------------------------------------------------------------ declarations
def _rule_declaration(enc: EncounterCore, tx: Tx, a: gm.GmRuleDeclaration) -> None:
    """WOA-CYCLE-25: the GM rules what a creature that has declared carries out this round, before its turn is
    over (a declaration phase only; the turn order checks the ruling as it checks a declaration)."""
    cid = _target(enc, tx, a.target, "gm_rule_declaration.target")
    s = tx.state
    if cid in s.declaring:
        raise IllegalAction(f"gm_rule_declaration.target: {cid} has not declared yet this round — it declares first")
    if cid not in s.declarations:
        raise IllegalAction(f"gm_rule_declaration.target: {cid} declared nothing this round to rule on (only a "
                            "creature that declared in this round's declaration phase)")
    if cid in s.order and s.order.index(cid) < s.turn_index:
        raise IllegalAction(f"gm_rule_declaration.target: {cid}'s turn this round is over")
    declaration = Declare(standard=a.standard, move=a.move, full_round=a.full_round, target=a.foe, after=a.after)
    reason = enc.ruleset.turn_order.check_declaration(tx, cid, declaration)
    if reason:
        raise IllegalAction(f"gm_rule_declaration: {reason}")
    why = _text(a.why, "gm_rule_declaration.why")
    fields = {k: v for k, v in asdict(declaration).items() if v not in ("", None)}
    words = declaration.text(lambda c: enc.creature(c).name)
    tx.emit(ev.GmEdited(BY, f"rules {cid}'s declaration: {words}" + (f" ({why})" if why else ""), cid))
    tx.emit(ev.DeclarationRuled(cid, fields, words, "the GM's ruling, WOA-CYCLE-25" + (f": {why}" if why else "")))


# ------------------------------------------------------------------------------------------ saves and checks
def _save(enc: EncounterCore, tx: Tx, a: gm.GmSave) -> None:
    cid = _target(enc, tx, a.target, "gm_save.target")
    saves = enc.ruleset.saves
    creature, cs = enc.creature(cid), tx.state.get(cid)
    mods = saves.save_modifiers(creature, cs, a.save)
    name = {"fort": "Fortitude", "ref": "Reflex", "will": "Will"}[a.save] + " save"
    _roll(enc, tx, cid, a.save, name, mods, a.dc, a.why, "gm_save")


def _check(enc: EncounterCore, tx: Tx, a: gm.GmCheck) -> None:
    cid = _target(enc, tx, a.target, "gm_check.target")
    skill = _text(a.skill.strip(), "gm_check.skill")
    if not skill:
        raise IllegalAction("gm_check.skill: name a skill (perception, climb…) or an ability (str, dex…)")
    creature, cs = enc.creature(cid), tx.state.get(cid)
    mods = enc.ruleset.saves.check_modifiers(creature, cs, skill)
    _roll(enc, tx, cid, skill.lower(), f"{skill.capitalize()} check", mods, a.dc, a.why, "gm_check")


def _roll(enc: EncounterCore, tx: Tx, cid: str, kind: str, name: str, mods: list[Any], dc: int, why: str,
          what: str) -> None:
    """One d20 against ``dc``: the total with every modifier named, natural results as the ruleset's saves say
    (PFB-NAT-03..06, SKL-ATK-07)."""
    if not 0 <= dc <= MAX_MODIFIER:
        raise IllegalAction(f"{what}.dc: {dc} is not from 0 to {MAX_MODIFIER}")
    why = _text(why, f"{what}.why")
    face = tx.dice.roll(20, f"{name} {cid}")
    t = total(face, mods, base_label="d20", stacking=enc.ruleset.stacking)
    success = enc.ruleset.saves.creature_succeeds(enc.creature(cid), tx.state.get(cid), kind, face, t.value, dc)
    natural = " (natural 20)" if face == 20 else " (natural 1)" if face == 1 else ""
    verdict = "succeeds" if success else "fails"
    tx.emit(ev.GmEdited(BY, f"calls for a {name} DC {dc} from {cid}" + (f" ({why})" if why else ""), cid))
    tx.emit(ev.SaveRolled(cid, kind, dc, t.value, success,
                          f"{cid} {name}: {t.explain()} vs DC {dc}{natural} — {verdict}"))


_HANDLERS: dict[type[gm.GmAction], Callable[[EncounterCore, Tx, Any], None]] = {
    gm.GmSave: _save,
    gm.GmCheck: _check,
    gm.GmDamage: _damage,
    gm.GmHeal: _heal,
    gm.GmSetHp: _set_hp,
    gm.GmCondition: _condition,
    gm.GmEffect: _effect,
    gm.GmEndEffect: _end_effect,
    gm.GmAddCreature: _add,
    gm.GmRemoveCreature: _remove,
    gm.GmRuleDeclaration: _rule_declaration,
}

__all__ = ["BY", "resolve"]
