"""P12/P13 damage of Epic Path (EP-DMG, EP-CRIT-04..07/17/18): dice tagged base, quality and precision; a critical
multiplies only the base dice and the static adders; averaging chosen per die and rounded down once; brutal dice;
the lance's and the braced weapon's double damage; resistance."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import floor
from typing import Literal

from d20combat.encounter.state import CombatantState
from d20combat.model.creature import Creature
from d20combat.rules.damage import DamageDistribution, DamageRoll
from d20combat.rulesets.components import HitPointDamage
from d20combat.rulesets.components.component import AttackInfo, View

BRUTAL = "brutal"
LANCE = "lance"
BRACE = "brace"
BRUTALITY_FEATS = ("improved_brutality", "greater_brutality")
"""EP-DMG-12/13: each adds another +0.5 to the average of a brutal die."""
EPIC_BRUTALITY = "epic_brutality"
"""EP-DMG-14: every brutal die is maximized."""
RESISTANCE = "resistance"
"""The stat block attribute holding a creature's damage resistance (EP-DMG-02/03: its arithmetic is external; the
engine subtracts it from every hit)."""
MOUNTED = "mounted"
CHARGING = "charging"


@dataclass(frozen=True, slots=True)
class DieSpec:
    """One damage die of a hit: its size, what kind it is, brutal steps (0 = not brutal), and whether the attacker
    takes its average."""

    sides: int
    tag: Literal["base", "quality", "precision"]
    brutal: int = 0
    maximized: bool = False
    averaged: bool = False

    def average(self) -> Fraction:
        """EP-DMG-08/11..14: (N+1)/2, +0.5 a brutal step; a maximized die counts its maximum."""
        if self.maximized:
            return Fraction(self.sides)
        return Fraction(self.sides + 1, 2) + Fraction(self.brutal, 2)

    def outcomes(self, roll_add: int) -> tuple[int, ...]:
        """The equally likely results of rolling it: +``roll_add`` a face when brutal, never above the maximum."""
        if self.maximized:
            return (self.sides,)
        add = roll_add if self.brutal else 0
        return tuple(min(f + add, self.sides) for f in range(1, self.sides + 1))


@dataclass(frozen=True, slots=True)
class DamageBuild:
    """A hit's damage before any die: its dice, the static adders (already multiplied) and the multiplier."""

    dice: tuple[DieSpec, ...]
    static: int
    times: int
    why_times: str

    @property
    def averaged(self) -> tuple[DieSpec, ...]:
        return tuple(d for d in self.dice if d.averaged)

    def averaged_total(self) -> int:
        """EP-DMG-08: the averaged dice summed, then rounded down once."""
        return floor(sum((d.average() for d in self.averaged), Fraction(0)))


class EpDamage(HitPointDamage):
    """EP-DMG-01..16: damage = dice + bonuses − penalties (EP-DMG-01), less resistance (EP-DMG-02/03); a critical
    rolls the base dice and adds the static adders ``multiplier`` times, precision (sneak attack) and quality dice
    (flaming) once (EP-CRIT-04/06/07). A controller may take the average of any number of its dice — base,
    quality and precision alike, never a d20 (EP-DMG-05..08): the averages are summed and rounded down once.
    Brutal base dice add +1 (capped) when rolled and +0.5 a step when averaged; Improved and Greater Brutality add
    a step each, Epic Brutality maximizes them (EP-DMG-11..14). A lance on a mounted charge and a braced weapon
    against a charger deal double damage, base dice and adders, and a critical then counts one step higher
    (EP-DMG-15/16, EP-CRIT-17/18)."""

    def __init__(self, *, average: Mapping[str, int | str] | None = None,
                 brutal_roll: Literal["plus_steps_capped", "plus_one_capped"] = "plus_steps_capped") -> None:
        self.average: Mapping[str, int | str] = dict(average or {})
        """EP-DMG-05/10: combatant id or side → 'all' or how many dice of each damage roll it averages."""
        self.brutal_roll = brutal_roll
        """EP-DMG-11 (AMBIGUOUS): what a rolled brutal die adds."""

    # --- the build ----------------------------------------------------------------------------------------------
    def averaged_dice(self, creature: Creature) -> int | None:
        """How many dice of each damage roll ``creature``'s controller averages (None: all), by id, else by side."""
        choice = self.average.get(creature.id, self.average.get(creature.side, 0))
        return None if choice == "all" else int(choice)

    def brutal_steps(self, creature: Creature, attack: AttackInfo) -> tuple[int, bool]:
        """(brutal steps, maximized) of the attack's base dice: brutal 1, +1 a brutality feat; Epic maximizes."""
        if BRUTAL not in attack.option.weapon.qualities:
            return 0, False
        steps = 1 + sum(creature.has_feat(f) for f in BRUTALITY_FEATS)
        return steps, creature.has_feat(EPIC_BRUTALITY)

    def doubled(self, view: View, attack: AttackInfo) -> str:
        """Why this hit deals double damage (EP-DMG-15/16), or "": a lance used by a mounted charger, or a braced
        weapon used (readied, so off its own turn) against a creature that is charging."""
        qualities = attack.option.weapon.qualities
        a_state, t_state = view.state.get(attack.attacker), view.state.get(attack.target)
        if LANCE in qualities and a_state.has(MOUNTED) and _charging(a_state):
            return "lance on a mounted charge (EP-DMG-15)"
        if BRACE in qualities and _charging(t_state) and view.state.actor != attack.attacker:
            return f"braced {attack.option.name} against a charge (EP-DMG-16)"
        return ""

    def build(self, view: View, attack: AttackInfo, creature: Creature, *, critical: bool, multiplier: int,
              precision_d6: int, strength: int) -> DamageBuild:
        option = attack.option
        why = self.doubled(view, attack)
        times = multiplier if critical else 1
        text = f"×{multiplier} critical" if critical else ""
        if why:
            times += 1  # EP-CRIT-12/17/18: doubling adds a step: ×2 on a hit, one step higher on a critical
            text = (f"×{times} = critical ×{multiplier} one step higher" if critical else "×2") + f", {why}"
        steps, maximized = self.brutal_steps(creature, attack)
        dice: list[DieSpec] = [DieSpec(option.dice.sides, "base", steps, maximized)
                               for _ in range(option.dice.count * times)]
        if option.energy is not None:
            dice += [DieSpec(option.energy.sides, "quality") for _ in range(option.energy.count)]
        dice += [DieSpec(6, "precision") for _ in range(precision_d6)]
        n = self.averaged_dice(creature)
        n = len(dice) if n is None else min(n, len(dice))
        dice = [DieSpec(d.sides, d.tag, d.brutal, d.maximized, i < n) for i, d in enumerate(dice)]
        static = (option.dice.bonus + strength + option.weapon.enhancement) * times
        if option.energy is not None:
            static += option.energy.bonus
        return DamageBuild(tuple(dice), static, times, text)

    def roll_add(self, spec: DieSpec) -> int:
        return spec.brutal if self.brutal_roll == "plus_steps_capped" else 1

    # --- the hooks the engine and the odds ask ------------------------------------------------------------------
    def roll(self, view: View, attack: AttackInfo, creature: Creature, *, critical: bool, multiplier: int,
             precision_d6: int, minimum: int, strength: int) -> DamageRoll:
        b = self.build(view, attack, creature, critical=critical, multiplier=multiplier, precision_d6=precision_d6,
                       strength=strength)
        parts: list[str] = []
        total = b.static
        for tag, label in (("base", "weapon"), ("quality", "quality"), ("precision", "precision")):
            rolled = [d for d in b.dice if d.tag == tag and not d.averaged]
            if not rolled:
                continue
            shown = []
            for d in rolled:
                if d.maximized:
                    shown.append(f"{d.sides} (Epic Brutality)")
                    total += d.sides
                    continue
                face = view.dice.roll(d.sides, f"damage {attack.option.name} ({label})")
                got = min(face + self.roll_add(d), d.sides) if d.brutal else face
                shown.append(f"{face}" if got == face else f"{face}→{got} brutal")
                total += got
            parts.append(f"{len(rolled)}d{rolled[0].sides} {label} [{', '.join(shown)}]")
        avg = b.averaged
        if avg:
            exact = sum((d.average() for d in avg), Fraction(0))
            total += b.averaged_total()
            parts.append(f"{len(avg)} dice averaged {b.averaged_total()} ({_fraction(exact)} rounded down once, "
                         f"EP-DMG-08)")
        if b.static:
            parts.append(f"{'+' if b.static > 0 else '−'} bonus {abs(b.static)}")
        value = max(total, minimum)
        text = f"{value} = " + " + ".join(p for p in parts if not p.startswith(("+", "−")))
        text += "".join(f" {p}" for p in parts if p.startswith(("+", "−")))
        if b.why_times:
            text += f" ({b.why_times})"
        if value != total:
            text += f" (raised from {total} to the minimum {minimum})"
        return DamageRoll(value, total, text)

    def distribution(self, view: View, attack: AttackInfo, creature: Creature, *, critical: bool, multiplier: int,
                     precision_d6: int, strength: int) -> DamageDistribution:
        """The same build as :meth:`roll`, as a constant and independent dice for the exact odds."""
        b = self.build(view, attack, creature, critical=critical, multiplier=multiplier, precision_d6=precision_d6,
                       strength=strength)
        rolled = tuple(d.outcomes(self.roll_add(d)) for d in b.dice if not d.averaged)
        return DamageDistribution(b.static + b.averaged_total(), rolled)

    def mitigate(self, creature: Creature, state: CombatantState, amount: int) -> tuple[int, str]:
        """EP-DMG-02/03: the hit's damage less the creature's resistance (attribute ``resistance``), at least 0."""
        resistance = creature.sheet.attributes.get(RESISTANCE, 0)
        if resistance <= 0:
            return amount, ""
        left = max(amount - resistance, 0)
        return left, f"− resistance {amount - left} (EP-DMG-03)"


def _charging(state: CombatantState) -> bool:
    return any(e.name == CHARGING for e in state.effects)


def _fraction(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"
