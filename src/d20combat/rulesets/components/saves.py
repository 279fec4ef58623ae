"""Saving throws and checks: the modifiers of a Fortitude, Reflex or Will save and of a skill or ability check,
whether a roll succeeds (natural 1 and 20), and the explained bonus ("Will +3 = base 2 + Wis 1").

The three methods a caller (a GM's "call for a save", a spell, a trap) uses are :meth:`D20Saves.save_modifiers`,
:meth:`D20Saves.check_modifiers` and :meth:`D20Saves.succeeds`; :meth:`D20Saves.describe_save` and
:meth:`D20Saves.describe_ability` explain the numbers for the table.

A stat block's ``saves:`` are the totals a stat block prints (the save's ability modifier included). They are split
into a base (the printed total minus the sheet's ability modifier) and the ability modifier *now*, so a condition
that lowers an ability score (off-guard's fatigue) lowers the save; without ``saves:`` the base is 0 and the save
is the ability modifier alone (the engine's rule before stat blocks carried saves).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from d20combat.battlefield.cover import CoverFact
from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.model.statblock import ability_mod
from d20combat.numbers import Modifier, Total, total
from d20combat.rulesets.components.component import Component, RuleError

SaveKind = Literal["fort", "ref", "will", "death"]
ABILITIES: tuple[str, ...] = ("str", "dex", "con", "int", "wis", "cha")
ABILITY_LABEL = {"str": "Str", "dex": "Dex", "con": "Con", "int": "Int", "wis": "Wis", "cha": "Cha"}
_ABILITY_NAMES = {"strength": "str", "dexterity": "dex", "constitution": "con", "intelligence": "int",
                  "wisdom": "wis", "charisma": "cha", **{a: a for a in ABILITIES}}
SAVE_ABILITY: dict[str, str] = {"fort": "con", "ref": "dex", "will": "wis", "death": "con"}
SAVE_NAME = {"fort": "Fort", "ref": "Ref", "will": "Will", "death": "death save"}
_SAVE_ALIASES = {"fortitude": "fort", "reflex": "ref", "fort": "fort", "ref": "ref", "will": "will", "death": "death"}
KEY_ABILITY: dict[str, str] = {
    "acrobatics": "dex", "climb": "str", "escape artist": "dex", "heal": "wis", "intimidate": "cha",
    "perception": "wis", "sense motive": "wis", "stealth": "dex", "swim": "str",
}
"""The ability a skill falls back to when a sheet does not list it (and that fatigue lowers): PF1's key abilities
of the skills the seed texts name (Stealth, Perception PFB-SURP-02; Climb, Swim PFB-MOVE-07; Heal PFB-HP-02;
Acrobatics, Escape Artist, Intimidate, Sense Motive the usual combat skills). Not from the texts: the PFB text
names skills but gives no skill rules."""


def save_kind(kind: str) -> SaveKind:
    """``"fortitude"``/``"fort"`` → ``"fort"`` …; anything else is an error naming the known kinds."""
    got = _SAVE_ALIASES.get(kind.strip().lower())
    if got is None:
        raise RuleError(f"unknown saving throw {kind!r}; known: fort, ref, will (and death where the ruleset has it)")
    return got  # type: ignore[return-value]


def ability_key(name: str) -> str | None:
    """``"Strength"``/``"str"`` → ``"str"``; None if ``name`` is not an ability."""
    return _ABILITY_NAMES.get(name.strip().lower())


def bonus_text(name: str, t: Total) -> str:
    """``"Will +3 = base 2 + Wis 1"``; ``"Ref −1 = Dex −1"``; ``"Fort −1 = Con 1 − shaken 2"``; a bonus with no
    parts reads ``"Fort +0"``."""
    parts = [m for m in t.parts if m.value]
    text = f"{name} {_signed(t.value)}"
    if not parts:
        return text
    first, rest = parts[0], parts[1:]
    body = f"{first.source} {first.value}" if first.value > 0 else f"{first.source} −{abs(first.value)}"
    body += "".join(f" {'+' if m.value > 0 else '−'} {m.source} {abs(m.value)}" for m in rest)
    return f"{text} = {body}"


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{abs(value)}"


@dataclass(frozen=True, slots=True)
class Explained:
    """A number and the words that explain it (``value`` is ``total.value``)."""

    value: int
    explain: str
    total: Total


@dataclass(frozen=True, slots=True)
class AbilityNow:
    """An ability under the conditions in force: the sheet's score, the changes, the modifier they leave."""

    ability: str
    score: int
    changes: tuple[Modifier, ...]
    modifier: int
    sheet_modifier: int

    def explain(self) -> str:
        """``"Str +1 (14, fatigued −2)"`` or ``"Dex +2 (15)"``."""
        changes = "".join(f", {m.source} {_signed(m.value)}" for m in self.changes if m.value)
        return f"{ABILITY_LABEL[self.ability]} {_signed(self.modifier)} ({self.score}{changes})"


class D20Saves(Component):
    """PFB-NAT-03/04: a natural 20 on a saving throw succeeds and a natural 1 fails; PFB-NAT-05/06: skill and ability
    checks have no automatic results. The PFB text gives no save bonuses or DCs (PFB-NAT-03: "they come from
    data"): a save is the stat block's printed total (split into base + ability, see the module) or the ability
    modifier alone — Fort Con, Ref Dex, Will Wis. A check is the sheet's skill bonus as printed (a total, as the
    sheet's Stealth and Perception are for surprise, PFB-SURP-02), or, for a skill the sheet does not list, a plain
    check of its key ability (:data:`KEY_ABILITY`); an ability's name is an ability check."""

    kinds: tuple[SaveKind, ...] = ("fort", "ref", "will")
    """The saving throws this ruleset has."""
    natural_saves: bool = True
    """PFB-NAT-03/04: natural 20 and 1 decide a saving throw."""

    # --- abilities ---------------------------------------------------------------------------------------------
    def ability(self, creature: Creature, state: CombatantState, ability: str) -> AbilityNow:
        """An ability's score and modifier under the conditions in force (the conditions area's score changes)."""
        key = ability_key(ability)
        if key is None:
            raise RuleError(f"unknown ability {ability!r}; known: {', '.join(ABILITIES)}")
        score = int(getattr(creature.sheet.abilities, key))
        changes = tuple(self.rules.conditions.ability_score_changes(creature, state))
        changed = max(score + sum(m.value for m in changes), 0)
        return AbilityNow(key, score, changes, ability_mod(changed), ability_mod(score))

    def describe_ability(self, creature: Creature, state: CombatantState, ability: str) -> Explained:
        """``"Str +1 (14, fatigued −2)"``: the modifier now, from the sheet's score and the conditions' changes."""
        now = self.ability(creature, state, ability)
        t = total(0, [Modifier(now.modifier, ABILITY_LABEL[now.ability])], stacking=self.rules.stacking)
        return Explained(now.modifier, now.explain(), t)

    # --- saving throws -----------------------------------------------------------------------------------------
    def save_base(self, creature: Creature, kind: SaveKind, printed: int | None = None) -> Modifier:
        """The save's own bonus without its ability: the printed total (``printed``, else the stat block's) minus
        the sheet's ability modifier."""
        if printed is None and creature.sheet.saves is not None:
            printed = creature.sheet.saves.get(kind)
        if printed is None:
            return Modifier(0, "base")
        ability = SAVE_ABILITY[kind]
        return Modifier(printed - ability_mod(int(getattr(creature.sheet.abilities, ability))), "base")

    def save_ability(self, creature: Creature, state: CombatantState, kind: SaveKind) -> Modifier:
        """The save's ability modifier now."""
        now = self.ability(creature, state, SAVE_ABILITY[kind])
        return Modifier(now.modifier, ABILITY_LABEL[now.ability])

    def save_modifiers(self, creature: Creature, state: CombatantState, kind: str, *,
                       cover_fact: CoverFact | None = None, printed: int | None = None) -> list[Modifier]:
        """The modifiers of a saving throw of ``kind`` (fort, ref, will; "fortitude" and "reflex" are accepted).
        ``cover_fact``: cover between the creature and the effect's origin (nothing in PFB: cover is an AC rule);
        ``printed``: a total save bonus to use instead of the stat block's."""
        k = self._kind(kind)
        mods = [self.save_base(creature, k, printed), self.save_ability(creature, state, k)]
        return [m for m in mods if m.value]

    def _kind(self, kind: str) -> SaveKind:
        k = save_kind(kind)
        if k not in self.kinds:
            raise RuleError(f"no {k!r} saving throw under this ruleset; known: {', '.join(self.kinds)}")
        return k

    def describe_save(self, creature: Creature, state: CombatantState, kind: str) -> Explained:
        """``"Will +3 = base 2 + Wis 1"`` under the conditions in force."""
        k = self._kind(kind)
        t = total(0, self.save_modifiers(creature, state, k), stacking=self.rules.stacking)
        return Explained(t.value, bonus_text(SAVE_NAME[k], t), t)

    # --- checks -----------------------------------------------------------------------------------------------
    def check_modifiers(self, creature: Creature, state: CombatantState, skill: str) -> list[Modifier]:
        """A skill check: the sheet's bonus (a printed total; a fatigued creature's lowered key ability counts
        on top); a skill it does not list: a plain check of the skill's key ability; an ability name: an ability
        check. Plus the conditions' modifiers on checks."""
        return [m for m in [*self.skill_modifiers(creature, state, skill), *self.condition_check_modifiers(
            creature, state), *self.rules.conditions.skill_check_modifiers(creature, state, skill)] if m.value]

    def skill_modifiers(self, creature: Creature, state: CombatantState, skill: str) -> list[Modifier]:
        name = skill.strip().lower()
        ability = ability_key(name)
        if ability is not None:
            return [self._ability_modifier(creature, state, ability)]
        listed = {k.lower(): v for k, v in creature.sheet.skills.items()}
        key = KEY_ABILITY.get(name)
        if name in listed:
            mods = [Modifier(listed[name], name.capitalize())]
            if key is not None:
                now = self.ability(creature, state, key)
                if now.modifier != now.sheet_modifier:
                    mods.append(Modifier(now.modifier - now.sheet_modifier,
                                         f"{ABILITY_LABEL[key]} ({', '.join(m.source for m in now.changes)})"))
            return mods
        if key is None:
            raise RuleError(f"{creature.name} has no {skill!r} skill and it has no key ability to fall back to; "
                            f"its skills: {', '.join(sorted(listed)) or 'none'}; or an ability: {', '.join(ABILITIES)}")
        return [self._ability_modifier(creature, state, key)]

    def _ability_modifier(self, creature: Creature, state: CombatantState, ability: str) -> Modifier:
        now = self.ability(creature, state, ability)
        return Modifier(now.modifier, ABILITY_LABEL[now.ability])

    def condition_check_modifiers(self, creature: Creature, state: CombatantState) -> list[Modifier]:
        """The conditions' modifiers on every check (none in PFB: its named conditions carry no check numbers)."""
        return []

    def describe_check(self, creature: Creature, state: CombatantState, skill: str) -> Explained:
        t = total(0, self.check_modifiers(creature, state, skill), stacking=self.rules.stacking)
        return Explained(t.value, bonus_text(skill.strip().capitalize(), t), t)

    # --- the roll ---------------------------------------------------------------------------------------------
    def creature_succeeds(self, creature: Creature, state: CombatantState, kind: str, face: int, total: int,
                          dc: int) -> bool:
        """:meth:`succeeds` for this creature as it now is (a ruleset may read its state: WOA-STAT-63, a helpless
        creature fails its Reflex saves); the core's ignores the creature."""
        return self.succeeds(kind, face, total, dc)

    def succeeds(self, kind: str, face: int, total: int, dc: int) -> bool:
        """Whether a roll of ``face`` on the d20 with ``total`` meets ``dc``. ``kind``: a save (fort, ref, will,
        death) — a natural 20 succeeds and a natural 1 fails when :attr:`natural_saves` (PFB-NAT-03/04) — or
        anything else (a skill or ability name, "check"): a check, with no automatic result (PFB-NAT-05/06)."""
        if self.natural_saves and kind.strip().lower() in _SAVE_ALIASES:
            if face == 20:
                return True
            if face == 1:
                return False
        return total >= dc
