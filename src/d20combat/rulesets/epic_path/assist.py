"""Epic Path's Assist on skill checks (EP-MISC-06..14): a standard action, the same skill check against the Easy
DC for the main check's CR; +2 circumstance to the ally on a success, −1 on a failure; no taking 10; at most 5
assistants; a rank to assist a trained-only skill, 21 ranks for an epic use; it provokes when the use does.

The result is a timed effect on the ally (until the start of the assister's next turn) that brings the condition
``assisted:<skill>:<±n>:<assister>``; the ally's checks of that skill count it (:func:`assist_modifiers`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from d20combat.battlefield.distance import footprint_distance_ft
from d20combat.encounter import actions as ax
from d20combat.encounter import events as ev
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.numbers import Modifier, core_stacking, total
from d20combat.rulesets.components import ActionSpec, RuleError
from d20combat.rulesets.epic_path.dc_ladder import ladder_dc

MAX_ASSISTANTS = 5
"""EP-MISC-10: "no more than 5 characters can ever assist with a skill check"."""
EPIC_RANKS = 21
"""EP-MISC-13: an epic skill use needs 21 ranks, and so does assisting it."""


def ep_stacking(mods: Sequence[Modifier]) -> tuple[tuple[Modifier, ...], tuple[Modifier, ...]]:
    """EP-MISC-11: circumstance bonuses stack with all other bonuses, other circumstance bonuses included; every
    other type as the core (the highest of a named type)."""
    circumstance = [m for m in mods if m.type == "circumstance"]
    kept, dropped = core_stacking([m for m in mods if m.type != "circumstance"])
    order = {id(m): i for i, m in enumerate(mods)}
    return tuple(sorted((*kept, *circumstance), key=lambda m: order[id(m)])), dropped


def ranks(creature: Creature, skill: str) -> int | None:
    """The creature's ranks in ``skill``: its stat block's ``attributes.<skill>_ranks``; else 1 if the sheet lists
    the skill at all (trained), 0 if not. (PFB-style sheets print totals, not ranks.)"""
    attrs = {k.lower(): v for k, v in creature.sheet.attributes.items()}
    key = f"{skill}_ranks"
    if key in attrs:
        return int(attrs[key])
    return 1 if skill in {k.lower() for k in creature.sheet.skills} else 0


def assist_modifiers(state: CombatantState, skill: str, *, stack: bool = True) -> list[Modifier]:
    """The assists on the creature's check of ``skill`` now (EP-MISC-07/08), one circumstance modifier each —
    or, when circumstance bonuses do not stack everywhere (``ep_circumstance_stacks`` false), their sum as one."""
    mods = []
    for text in sorted(state.conditions):
        parts = text.split(":")
        if len(parts) == 4 and parts[0] == "assisted" and parts[1] == skill.strip().lower():
            mods.append(Modifier(int(parts[2]), f"assist by {parts[3]}", "circumstance"))
    if not stack and len(mods) > 1:
        return [Modifier(sum(m.value for m in mods), "assists " + ", ".join(m.source[10:] for m in mods),
                         "circumstance")]
    return mods


@dataclass(frozen=True, slots=True)
class Assist(ax.Action):
    """Assist an adjacent ally's skill check (EP-MISC-06): a standard action. ``cr``: the CR of the main check
    (its Easy DC is the target); ``trained_only``, ``epic``, ``provokes``, ``max_assists``: the check's own
    rules (EP-MISC-10/12/13/14, the GM's per-check assist policy)."""

    kind: ClassVar[str] = "assist"
    ally: str = ""
    skill: str = ""
    cr: int = 0
    trained_only: bool = False
    epic: bool = False
    provokes: bool = False
    max_assists: int = MAX_ASSISTANTS
    take_10: bool = False

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Assist {name(self.ally)}'s {self.skill} check"


def assist_problem(engine: Any, state: Any, actor: str, a: Assist) -> str | None:
    """Why this assist is not allowed (EP-MISC-06/09/10/12/13), or None."""
    skill = a.skill.strip().lower()
    if not skill:
        return "name the skill of the check (e.g. stealth)"
    if a.ally not in state.combatants or a.ally == actor or engine.creature(a.ally).side != \
            engine.creature(actor).side:
        return f"{a.ally!r} is not an ally"
    if footprint_distance_ft(engine.footprint(actor, state), engine.footprint(a.ally, state)) != 5:
        return f"{a.ally} is not adjacent (EP-MISC-06)"
    if a.take_10:
        return "you can't take 10 on a skill check to assist (EP-MISC-09)"
    if not 0 <= a.max_assists <= MAX_ASSISTANTS:
        return f"max_assists {a.max_assists}: no more than {MAX_ASSISTANTS} can ever assist a check (EP-MISC-10)"
    helpers = [c for c in state.get(a.ally).conditions if c.startswith(f"assisted:{skill}:")]
    if len(helpers) >= a.max_assists:
        return f"{a.ally}'s {skill} check already has {len(helpers)} assistants, the most allowed (EP-MISC-10)"
    have = ranks(engine.creature(actor), skill) or 0
    if a.epic and have < EPIC_RANKS:
        return f"assisting an epic {skill} use needs {EPIC_RANKS} ranks; {actor} has {have} (EP-MISC-13)"
    if a.trained_only and have < 1:
        return f"{skill} is trained only: {actor} needs at least 1 rank to assist (EP-MISC-12)"
    return None


def do_assist(engine: Any, tx: Any, actor: str, a: Assist, dry: bool) -> None:
    """EP-MISC-06..14: check, pay the standard action, provoke if the use does, roll against the Easy DC and
    give the ally +2 or −1 until the start of the assister's next turn."""
    from d20combat.encounter.attack_actions import provoke
    from d20combat.encounter.core import end_effect

    s = tx.state
    problem = assist_problem(engine, s, actor, a)
    if problem:
        raise RuleError(f"assist: {problem}")
    try:
        dc = ladder_dc("easy", a.cr)
    except RuleError as exc:
        raise RuleError(f"assist.cr: {exc}") from None
    skill = a.skill.strip().lower()
    rules = engine.ruleset
    mods = rules.saves.check_modifiers(engine.creature(actor), s.get(actor), skill)
    engine.pay(tx, actor, f"assist {a.ally}", "standard", dry)
    if dry:
        return
    if a.provokes and not provoke(engine, tx, actor, "assists a skill use that provokes (EP-MISC-14)", set()):
        return
    face = tx.dice.d20(f"{skill} check {actor} assists {a.ally}")
    t = total(face, mods, base_label="d20", stacking=rules.stacking)
    ok = rules.saves.succeeds(skill, face, t.value, dc)
    n = 2 if ok else -1
    why = "+2 circumstance (EP-MISC-07)" if ok else "−1 circumstance: below the Easy DC (EP-MISC-08)"
    tx.emit(ev.Note(f"{actor} assists {a.ally}: {skill.capitalize()} {t.explain()} vs Easy DC {dc} (CR {a.cr}) — "
                    f"{a.ally} gets {why} on its {skill} check until {actor}'s next turn"))
    name, condition = f"assist ({skill}) by {actor}", f"assisted:{skill}:{n:+d}:{actor}"
    for old in [e for e in s.get(a.ally).effects if e.name == name]:  # a new assist replaces its own older one
        end_effect(tx, a.ally, old.name, old.condition)
    tx.emit(ev.EffectAdded(a.ally, name, actor, s.round + 1, condition=condition))
    tx.emit(ev.ConditionSet(a.ally, condition, True, name))


ASSIST = ActionSpec(Assist, do_assist)
