"""When a spell takes effect, and what can make it fizzle (WOA-SPELL-08/11..16/26, WOA-ITEM-23/24/28).

- The pending-effect queue lives in the state, through events: a spell cast with a standard or full-round casting
  time is the caster's condition ``pending:<spell>:<target>:<timing>:<source>`` until it takes effect — at the end
  of the caster's turn (WOA-SPELL-14), or at the end of the round for buffs, debuffs and summons
  (``battle_condition_altering``, WOA-SPELL-16; ongoing potions, WOA-ITEM-23); move, swift and free casting times
  and instantaneous potions take effect at once (WOA-SPELL-15, WOA-ITEM-24).
- The disruption window (WOA-SPELL-11, AMBIGUOUS: from the start of the round until the spell takes effect; after
  the caster's turn only for a full-round casting time): damage forces a concentration check DC 10 + damage +
  2 × spell level, a successful combat maneuver one at DC = its roll + 2 × level (WOA-SPELL-12). Damage taken
  before the turn of a creature that declared a casting is kept as ``disrupted:<d1>,<d2>…`` and checked, one check
  each, when it casts. A failed check fizzles the spell: no effect, still cast (WOA-SPELL-08).
- Round flags (conditions, cleared at the end of the round): ``casting`` for a round in which a creature cast a
  standard or full-round spell (WOA-SPELL-09/10: the reactions component forbids every reaction, dodge and block
  included), ``concentrating`` (WOA-SPELL-27), ``drinking`` (WOA-ITEM-25), ``reading`` (WOA-ITEM-29),
  ``manipulating`` (WOA-ITEM-17).
"""

from __future__ import annotations

from typing import Any

from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.battlefield.grid import Footprint
from d20combat.encounter import events as ev
from d20combat.numbers import Modifier, total
from d20combat.rulesets.components import D20Saves, View
from d20combat.rulesets.worlds_of_adventure.saves import Degree, SaveAgainst, WoaSaves, half_damage_on_save
from d20combat.rulesets.worlds_of_adventure.spell_data import Effect, Spell, Timing, spell

CASTING = "casting"
"""Cast a standard or full-round spell this round: no combat reactions of any kind (WOA-SPELL-09/10)."""
CONCENTRATING = "concentrating"
"""Concentrated to maintain a spell this round: no combat reactions (WOA-SPELL-27)."""
DRINKING = "drinking"
"""Drank or administered a potion this round: no combat reactions (WOA-ITEM-25)."""
READING = "reading"
"""Read (activated) a scroll this round: no combat reactions (WOA-ITEM-29)."""
MANIPULATING = "manipulating"
"""Manipulated an item this round: no combat reactions (WOA-ITEM-17, option ``woa_item_costs_reactions``)."""
ROUND_FLAGS: tuple[str, ...] = (CASTING, CONCENTRATING, DRINKING, READING, MANIPULATING)
"""Every round flag bars every combat reaction (WOA-1.md: the reaction bars collected)."""

PENDING = "pending:"
DISRUPTED = "disrupted:"
HOLDING = "holding_charge:"
MAINTAINING = "maintaining:"
ACTIVE = "active:"


def pending(conditions: frozenset[str]) -> list[tuple[str, str, str, str, str]]:
    """(condition, spell, target, timing, source) of each pending effect."""
    out = []
    for c in sorted(conditions):
        if c.startswith(PENDING):
            _, name, target, timing, source = c.split(":")
            out.append((c, name, target, timing, source))
    return out


def queue(view: View, caster: str, sp: Spell, target: str, timing: Timing, source: str) -> None:
    """Put the effect in the caster's queue (WOA-SPELL-14/16)."""
    when = "at the end of its turn (WOA-SPELL-14)" if timing == "end_of_turn" else \
        "at the end of the round (WOA-SPELL-16: it alters the conditions of the battle)"
    view.emit(ev.ConditionSet(caster, f"{PENDING}{sp.name}:{target or '-'}:{timing}:{source}", True,
                              f"{sp.label} takes effect {when}"))


# --- concentration -----------------------------------------------------------------------------------------------
def concentration_modifiers(view: View, rules: Any, cid: str) -> list[Modifier]:
    """The concentration check's bonus: the sheet's Concentration skill, else a Constitution check."""
    creature, state = view.creature(cid), view.state.get(cid)
    saves: D20Saves = rules.saves
    if any(k.lower() == "concentration" for k in creature.sheet.skills):
        return saves.check_modifiers(creature, state, "concentration")
    return saves.check_modifiers(creature, state, "con")


def concentration_check(view: View, rules: Any, cid: str, dc: int, why: str) -> bool:
    """A concentration check against ``dc`` (``why`` explains the DC); True: concentration holds."""
    face = view.dice.roll(20, f"concentration {cid}")
    t = total(face, concentration_modifiers(view, rules, cid), base_label="d20")
    ok = t.value >= dc
    view.emit(ev.SaveRolled(cid, "concentration", dc, t.value, ok,
                            f"{cid} concentration: {t.explain()} vs DC {dc} = {why} — "
                            f"{'holds' if ok else 'fails'}"))
    return ok


def damage_dc(damage: int, level: int) -> tuple[int, str]:
    """WOA-SPELL-11: DC 10 + damage taken + 2 × the spell's level."""
    dc = 10 + damage + 2 * level
    return dc, f"10 + {damage} damage + 2 × level {level} (WOA-SPELL-11)"


def maneuver_dc(roll: int, level: int) -> tuple[int, str]:
    """WOA-SPELL-12: DC = the maneuver's attack roll result + 2 × the spell's level."""
    return roll + 2 * level, f"maneuver roll {roll} + 2 × level {level} (WOA-SPELL-12)"


def fizzle(view: View, caster: str, condition: str, name: str, source: str) -> None:
    """WOA-SPELL-08: the spell has no effect but still counts as cast; a scroll: a mishap may occur (WOA-ITEM-28,
    MISSING: the mishap rules)."""
    view.emit(ev.ConditionSet(caster, condition, False, f"{name.replace('_', ' ')} fizzles: no effect, but it still "
                                                        "counts as cast (WOA-SPELL-08)"))
    if source == "scroll":
        mishap(view, caster, name)


def mishap(view: View, caster: str, name: str) -> None:
    """WOA-ITEM-28: an interrupted scroll may cause a mishap (MISSING: the mishap rules — the GM's)."""
    view.emit(ev.Note(f"{caster}'s scroll of {name.replace('_', ' ')}: a mishap may occur (WOA-ITEM-28; the mishap "
                      "rules are MISSING from the text — the GM rules it)"))


def in_window(view: View, caster: str, sp: Spell, timing: str, source: str, *, after_turn: bool = True) -> bool:
    """WOA-SPELL-11 (AMBIGUOUS reading): a pending standard or full-round spell (or a scroll being read, WOA-ITEM-28)
    can be disrupted until it takes effect; once the caster's turn is over, only a full-round one (``after_turn``:
    option ``woa_full_round_window_after_turn``). A wand's spell cannot (no casting)."""
    if source == "wand" or not (sp.disruptable or source == "scroll"):
        return False
    turn = view.state.turn
    its_turn = turn is not None and turn.actor == caster
    long = sp.casting_time == "full_round" or source == "scroll"
    return its_turn or timing == "end_of_turn" or (after_turn and long)


def disrupt(view: View, rules: Any, caster: str, dc_of: Any, what: str, *, after_turn: bool = True,
            scrolls: bool = True, maintenance_level: bool = True) -> None:
    """Something threatens the caster's concentration now (``dc_of(level) -> (dc, why)``): a check for each pending
    spell in its window; a failure fizzles it. ``maintenance_level`` false: a maintained spell's DC leaves out the
    spell's level (option ``woa_maintenance_dc_level``, WOA-SPELL-26)."""
    for cond, name, _, timing, source in pending(view.state.get(caster).conditions):
        sp = spell(name, "pending spell")
        if (source == "scroll" and not scrolls) or not in_window(view, caster, sp, timing, source,
                                                                 after_turn=after_turn):
            continue
        dc, why = dc_of(sp.level)
        if not concentration_check(view, rules, caster, dc, f"{why}; {what} while casting {sp.label}"):
            fizzle(view, caster, cond, name, source)
    for cond in sorted(view.state.get(caster).conditions):
        if cond.startswith(MAINTAINING):
            sp = spell(cond[len(MAINTAINING):], "maintained spell")
            dc, why = dc_of(sp.level if maintenance_level else 0)
            if not concentration_check(view, rules, caster, dc, f"{why}; {what} while maintaining {sp.label} "
                                                           "(WOA-SPELL-26)"):
                view.emit(ev.ConditionSet(caster, cond, False, f"concentration breaks: {sp.label} ends "
                                                               "(WOA-SPELL-26)"))


def maneuver_disruption(view: View, rules: Any, caster: str, roll: int) -> None:
    """WOA-SPELL-12: ``caster`` was subject to a successful combat maneuver whose attack roll was ``roll``; the
    maneuvers component calls this."""
    disrupt(view, rules, caster, lambda level: maneuver_dc(roll, level), f"a successful maneuver (roll {roll})")


def declared_casting(view: View, cid: str) -> bool:
    declared = view.state.declarations.get(cid) or {}
    return any(declared.get(slot) in ("cast_spell", "use_item") for slot in ("standard", "full_round"))


def before_its_turn(view: View, cid: str) -> bool:
    s = view.state
    return cid in s.order and s.order.index(cid) > s.turn_index


def record_early_damage(view: View, cid: str, amount: int) -> None:
    """WOA-SPELL-11: damage taken before the turn of a creature that declared a casting this round."""
    c = view.state.get(cid)
    old = next((x for x in c.conditions if x.startswith(DISRUPTED)), None)
    hits = [*old[len(DISRUPTED):].split(","), str(amount)] if old else [str(amount)]
    if old:
        view.emit(ev.ConditionSet(cid, old, False, "more damage before its casting"))
    view.emit(ev.ConditionSet(cid, DISRUPTED + ",".join(hits), True, f"took {amount} damage before casting its "
                                                                      "declared spell (WOA-SPELL-11)"))


def early_disruption(view: View, rules: Any, cid: str, sp: Spell) -> bool:
    """The checks for the damage taken before the turn (WOA-SPELL-11); True: the spell survives them."""
    c = view.state.get(cid)
    old = next((x for x in c.conditions if x.startswith(DISRUPTED)), None)
    if old is None:
        return True
    view.emit(ev.ConditionSet(cid, old, False, "checked as it casts"))
    if not sp.disruptable:
        return True
    for hit in old[len(DISRUPTED):].split(","):
        dc, why = damage_dc(int(hit), sp.level)
        if not concentration_check(view, rules, cid, dc, f"{why}; damage taken before its turn"):
            return False
    return True


# --- the effects -------------------------------------------------------------------------------------------------
def save_dc(view: View, caster: str, level: int) -> tuple[int, str]:
    """The spell's save DC: 10 + level + the caster's best of Int, Wis and Cha (an assumption: the text gives no
    casting ability)."""
    creature = view.creature(caster)
    mods = {a: (getattr(creature.sheet.abilities, a) - 10) // 2 for a in ("int", "wis", "cha")}
    best = max(mods, key=lambda a: (mods[a], a))
    return 10 + level + mods[best], f"10 + level {level} + {best.capitalize()} {mods[best]}"


def in_area(view: View, center: str, radius_ft: int) -> list[str]:
    s = view.state
    there = Footprint(s.get(center).position, view.creature(center).space)
    return [cid for cid, c in s.combatants.items()
            if "fled" not in c.conditions and "removed" not in c.conditions
            and footprint_distance_ft(there, Footprint(c.position, view.creature(cid).space)) <= radius_ft]


def apply_effect(view: View, rules: Any, caster: str, name: str, eff: Effect, target: str, level: int,
                 label: str) -> None:
    """The effect lands: damage (a save for half, by degree, WOA-STAT-76/78), a timed buff, or healing."""
    s = view.state
    if target not in s.combatants:
        view.emit(ev.Note(f"{label} has no target left: no effect"))
        return
    if eff.damage is not None:
        faces = eff.damage.roll_faces(view.dice, f"{name} damage {caster}")
        full = max(0, sum(faces) + eff.damage.bonus)
        victims = in_area(view, target, eff.radius_ft) if eff.radius_ft else [target]
        for victim in victims:
            amount, how = full, f"{full} = {eff.damage} [{', '.join(map(str, faces))}]"
            if eff.save != "none":
                amount, how = _saved(view, rules, caster, victim, eff, level, full, how)
            before = view.state.get(victim).hp
            dealt, less = rules.damage.mitigate(view.creature(victim), view.state.get(victim), amount)
            view.emit(ev.Damaged(victim, dealt, caster, f"{label}: {how}{' ' + less if less else ''} → {victim} hp "
                                                         f"{before} → {before - dealt}"))
            rules.after_damage(view, victim, before - view.state.get(victim).hp, before)
        return
    if eff.heal is not None:
        faces = eff.heal.roll_faces(view.dice, f"{name} healing {caster}")
        amount = max(0, sum(faces) + eff.heal.bonus)
        view.emit(ev.Healed(target, amount, f"{label}: {eff.heal} [{', '.join(map(str, faces))}]"))
        return
    if eff.ongoing:
        until = s.round + eff.rounds
        view.emit(ev.EffectAdded(target, label, caster, until, eff.ac, eff.attack, eff.condition))
        if eff.condition and not view.state.get(target).has(eff.condition):
            view.emit(ev.ConditionSet(target, eff.condition, True, f"{label} (until round {until})"))
        return
    view.emit(ev.Note(f"{label} takes effect (its effect is the GM's to describe)"))


def _saved(view: View, rules: Any, caster: str, victim: str, eff: Effect, level: int, full: int, how: str
           ) -> tuple[int, str]:
    dc, dc_why = save_dc(view, caster, level)
    creature, state = view.creature(victim), view.state.get(victim)
    face = view.dice.roll(20, f"{eff.save} save {victim}")
    saves: D20Saves = rules.saves
    if isinstance(saves, WoaSaves):  # WOA-STAT-66..73: the shield and cover against an area; WOA-STAT-63: helpless
        mods = saves.against(creature, state, eff.save, SaveAgainst(area=eff.radius_ft > 0))
        t = total(face, mods, base_label="d20", stacking=rules.stacking)
        grade = saves.save_degree(creature, state, eff.save, face, t.value, dc)
    else:
        t = total(face, saves.save_modifiers(creature, state, eff.save), base_label="d20")
        grade = Degree.SUCCESS if saves.succeeds(eff.save, face, t.value, dc) else Degree.FAILURE
    view.emit(ev.SaveRolled(victim, eff.save, dc, t.value, grade in (Degree.SUCCESS, Degree.SUPERIOR),
                            f"{victim} {eff.save.capitalize()} save: {t.explain()} vs DC {dc} ({dc_why}) — {grade}"))
    if not eff.half:
        return (0, f"{how}, saved: none") if grade in (Degree.SUCCESS, Degree.SUPERIOR) else (full, how)
    amount, why = half_damage_on_save(grade, full, eff.damage.minimum if eff.damage else 0,
                                      eff.damage.maximum if eff.damage else 0,
                                      quarter_of=getattr(saves, "superior_quarter_of", "full"))
    return amount, f"{how}; {why}"


def resolve(view: View, rules: Any, caster: str, timing: str) -> None:
    """The caster's pending effects of ``timing`` take effect (WOA-SPELL-14/16, WOA-ITEM-23)."""
    for cond, name, target, when, source in pending(view.state.get(caster).conditions):
        if when != timing:
            continue
        view.emit(ev.ConditionSet(caster, cond, False, "takes effect"))
        if source == "potion":
            from d20combat.rulesets.worlds_of_adventure.spell_data import potion_table

            eff, level, label = potion_table()[name], 0, f"potion of {name.replace('_', ' ')}"
            apply_effect(view, rules, caster, name, eff, caster if target == "-" else target, level, label)
        else:
            land(view, rules, caster, spell(name, "pending spell"), target)


def land(view: View, rules: Any, caster: str, sp: Spell, target: str) -> None:
    """The spell takes effect; a spell kept up by concentration (WOA-SPELL-25) or one that may be dismissed or
    redirected (WOA-SPELL-29/30) stays on the caster's record: ``maintaining:<spell>``, ``active:<spell>:<on>``."""
    on = caster if target == "-" else target
    apply_effect(view, rules, caster, sp.name, sp.effect, on, sp.level, sp.label)
    if sp.concentration:
        view.emit(ev.ConditionSet(caster, f"{MAINTAINING}{sp.name}", True, f"{sp.label} lasts while {caster} "
                                                                           "concentrates (WOA-SPELL-25)"))
    elif sp.dismissible or sp.directable:
        view.emit(ev.ConditionSet(caster, f"{ACTIVE}{sp.name}:{on}", True, f"{sp.label} is active"))
