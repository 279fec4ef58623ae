"""Readied counterspells (WOA-INIT-22..24): a readier answers a caster's spell with its own.

A creature declares ``ready`` with the caster as its target (the trigger) and takes ``ready {counterspell: true}``
on its turn (:mod:`.ready`: a standard action that carries over rounds and wins initiative against its trigger).
When the trigger **starts a spell** (``cast_spell`` or ``quick_cast`` of a prepared spell — :meth:`.spells.WoaSpells
.cast` calls :func:`at_casting` once the caster's action and the spell's use are spent) the readied counterspell is
spent, whatever comes of it:

- WOA-INIT-22: a Spellcraft check identifies the spell — d20 + the stat block's ``spellcraft`` skill (none: an Int
  check) against ``data/woa_counterspell.yaml``'s DC (MISSING in the text; the SRD's 15 + the spell's level, an
  ASSUMPTION). Not identified: nothing is done.
- WOA-INIT-23: identified, and the readier has a use of the same spell (``attributes: {spell_<name>: N}``, not used
  up, its components not barred): that use is spent and the enemy spell is ruined — automatically, whatever the
  classes.
- WOA-INIT-24: identified, without the same spell but with dispel magic: that use is spent and a dispel check
  decides — "it doesn't always work" (MISSING; the SRD's d20 + caster level, at most +10, against 11 + the enemy
  caster's level, an ASSUMPTION). A caster level is the stat block's ``attributes: {caster_level: N}``.
- Neither: nothing is done (the log says why).

A readier that cannot act then loses it. Scrolls and wands are not counterspelled (no prepared casting: an
ASSUMPTION); once a spell is ruined, the other readied counterspells against it stay readied.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import yaml

from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier, total
from d20combat.rulesets.components import View
from d20combat.rulesets.worlds_of_adventure.ready import Readied, readied_action
from d20combat.rulesets.worlds_of_adventure.spell_components import component_problem
from d20combat.rulesets.worlds_of_adventure.spell_data import Spell, left, spell_table, use_up

DATA = "data/woa_counterspell.yaml"


@dataclass(frozen=True, slots=True)
class CounterRules:
    """``data/woa_counterspell.yaml``: the readings of the MISSING rules (WOA-INIT-22/24)."""

    skill: str
    untrained: str
    identify_dc: int
    plus_spell_level: bool
    dispel_spell: str
    caster_level_cap: int
    dispel_dc: int
    default_caster_level: int

    def identify(self, sp: Spell) -> tuple[int, str]:
        """WOA-INIT-22: the Spellcraft DC to identify ``sp`` and how it is made."""
        if self.plus_spell_level:
            return self.identify_dc + sp.level, f"{self.identify_dc} + level {sp.level} (ASSUMPTION, {DATA})"
        return self.identify_dc, f"{self.identify_dc} (ASSUMPTION, {DATA})"


def _int(raw: dict[str, Any], key: str, where: str) -> int:
    value = raw.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{DATA}: {where}.{key} must be a whole number ≥ 0, not {value!r}")
    return value


@cache
def counter_rules() -> CounterRules:
    text = resources.files("d20combat.data").joinpath("woa_counterspell.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    if not isinstance(data, dict) or not isinstance(data.get("identify"), dict) or \
            not isinstance(data.get("dispel"), dict):
        raise ValueError(f"{DATA}: needs the mappings identify and dispel")
    ident, dispel = data["identify"], data["dispel"]
    name = str(dispel.get("spell", ""))
    if name not in spell_table():
        raise ValueError(f"{DATA}: dispel.spell {name!r} is not a spell of data/woa_spells.yaml")
    return CounterRules(str(ident.get("skill", "spellcraft")), str(ident.get("untrained", "int")),
                        _int(ident, "dc", "identify"), bool(ident.get("plus_spell_level", True)), name,
                        _int(dispel, "caster_level_cap", "dispel"), _int(dispel, "dc", "dispel"),
                        _int(dispel, "default_caster_level", "dispel"))


def caster_level(creature: Creature) -> tuple[int, str]:
    """The stat block's ``attributes: {caster_level: N}``, else the data file's default (an assumption)."""
    given = creature.sheet.attributes.get("caster_level")
    if given is not None:
        return int(given), f"caster level {int(given)}"
    n = counter_rules().default_caster_level
    return n, f"default caster level {n}"


def counterable_by(creature: Creature, state: CombatantState, name: str) -> str | None:
    """The spell ``creature`` would counter ``name`` with, were it identified: the same spell (WOA-INIT-23), else
    dispel magic (WOA-INIT-24), else None (its components are the casting's business)."""
    if left(creature, state, f"spell_{name}") > 0:
        return name
    dispel = counter_rules().dispel_spell
    return dispel if left(creature, state, f"spell_{dispel}") > 0 else None


def at_casting(view: View, rules: Any, caster: str, sp: Spell) -> bool:
    """``caster`` starts casting ``sp``: each creature holding a readied counterspell against it answers, in the
    order of play, until one ruins it. True: the spell is ruined."""

    s = view.state
    for cid in [c for c in (s.order or tuple(s.combatants)) if c != caster and c in s.combatants]:
        held = readied_action(view, cid)
        if held is None or not held.counterspell or held.trigger != caster:
            continue
        rule = _answer(view, rules, cid, held, caster, sp)
        if rule is not None:
            view.emit(ev.Note(f"{caster}'s {sp.label} is ruined by {cid}'s counterspell: no effect — its action and "
                              f"the spell are spent ({rule})"))
            return True
    return False


def _answer(view: View, rules: Any, cid: str, held: Readied, caster: str, sp: Spell) -> str | None:
    """The readied counterspell answers; the rule that ruined the spell, or None."""
    view.emit(ev.EffectEnded(cid, held.name))
    creature, c = view.creature(cid), view.state.get(cid)
    enc = getattr(view, "engine", None)
    if "fled" in c.conditions or "removed" in c.conditions or (enc is not None and not enc.on_map(cid, view.state)) \
            or not rules.injury.can_act(creature, c):
        view.emit(ev.Note(f"{cid}'s readied counterspell is lost: it cannot act"))
        return None
    view.emit(ev.Note(f"{caster} starts casting: {cid}'s readied counterspell answers (WOA-INIT-22)"))
    if not _identified(view, rules, cid, sp):
        view.emit(ev.Note(f"{cid} does not identify the spell: its readied counterspell is spent with nothing done "
                          "(WOA-INIT-22)"))
        return None
    with_spell = counterable_by(creature, c, sp.name)
    if with_spell is None:
        view.emit(ev.Note(f"{cid} identifies {sp.label} but has no {sp.label} left to cast (WOA-INIT-23) nor dispel "
                          "magic (WOA-INIT-24): its readied counterspell is spent with nothing done"))
        return None

    counter = spell_table()[with_spell]
    problem = component_problem(view, cid, counter)
    if problem:
        view.emit(ev.Note(f"{cid} identifies {sp.label} but cannot cast {counter.label}: {problem} — its readied "
                          "counterspell is spent with nothing done"))
        return None
    if with_spell == sp.name:
        use_up(view, cid, f"spell_{with_spell}", f"{cid} casts {sp.label} as a counterspell: the enemy spell is "
                                                 "ruined automatically, whatever the classes (WOA-INIT-23)")
        return "WOA-INIT-23"
    use_up(view, cid, f"spell_{with_spell}", f"{cid} casts {counter.label} as a counterspell (WOA-INIT-24)")
    return "WOA-INIT-24" if _dispelled(view, cid, caster, sp) else None


def _identified(view: View, rules: Any, cid: str, sp: Spell) -> bool:
    """WOA-INIT-22: d20 + Spellcraft (or the untrained ability) against the data file's DC."""
    r = counter_rules()
    creature, c = view.creature(cid), view.state.get(cid)
    listed = r.skill in {k.lower() for k in creature.sheet.skills}
    mods: list[Modifier] = rules.saves.check_modifiers(creature, c, r.skill if listed else r.untrained)
    face = view.dice.roll(20, f"spellcraft {cid}")
    t = total(face, mods, base_label="d20")
    dc, why = r.identify(sp)
    ok = t.value >= dc
    untrained = "" if listed else f" (no Spellcraft on its stat block: a {r.untrained.capitalize()} check)"
    view.emit(ev.SaveRolled(cid, "spellcraft", dc, t.value, ok,
                            f"{cid} Spellcraft to identify the spell: {t.explain()}{untrained} vs DC {dc} = {why} — "
                            f"{'identifies ' + sp.label if ok else 'fails'} (WOA-INIT-22)"))
    return ok


def _dispelled(view: View, cid: str, caster: str, sp: Spell) -> bool:
    """WOA-INIT-24 ("it doesn't always work"): d20 + caster level (capped) against DC + the enemy caster's level."""
    r = counter_rules()
    mine, mine_why = caster_level(view.creature(cid))
    theirs, theirs_why = caster_level(view.creature(caster))
    bonus = min(mine, r.caster_level_cap)
    face = view.dice.roll(20, f"dispel check {cid}")
    capped = f" (at most +{r.caster_level_cap})" if mine > bonus else ""
    t = total(face, [Modifier(bonus, mine_why + capped)] if bonus else [], base_label="d20")
    dc = r.dispel_dc + theirs
    ok = t.value >= dc
    view.emit(ev.SaveRolled(cid, "dispel", dc, t.value, ok,
                            f"{cid} dispel check against {caster}'s {sp.label}: {t.explain()} vs DC {dc} = "
                            f"{r.dispel_dc} + {caster}'s {theirs_why} (ASSUMPTION, {DATA}) — "
                            f"{'counters it' if ok else 'fails: the spell goes on'} (WOA-INIT-24)"))
    return ok


__all__ = ["CounterRules", "at_casting", "caster_level", "counter_rules", "counterable_by"]
