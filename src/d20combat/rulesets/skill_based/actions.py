"""The skill-based ruleset's own actions — reserve, feint, casting (with its counterspell window), two-weapon
fighting, bonus attacks — and :class:`SkillActions`, the actions area that names their handlers, removes what the
text does not have, and runs the round procedure of what they leave behind."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from d20combat.battlefield.grid import Square
from d20combat.encounter.actions import Action

if TYPE_CHECKING:
    pass


@dataclass(frozen=True, slots=True)
class Reserve(Action):
    """SKL-RES-02: on its turn, declare how many complex actions stay held for block, dodge or counterspell
    (``offhand``: also keep the two-weapon bonus action for an off-hand block)."""

    kind: ClassVar[str] = "reserve"
    count: int = 1
    offhand: int = 0

    def label(self, name: Callable[[str], str] = str) -> str:
        held = f"Hold {self.count} complex action{'s' if self.count != 1 else ''} in reserve"
        return held + (" and the off-hand bonus action" if self.offhand else "") + " (block, dodge, counterspell)"


@dataclass(frozen=True, slots=True)
class Feint(Action):
    """SKL-FEINT-01..05: a complex action against a foe you threaten; contested; denies its next active defense."""

    kind: ClassVar[str] = "feint"
    target: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Feint against {name(self.target)}"


@dataclass(frozen=True, slots=True)
class CastSpell(Action):
    """A complex action (SKL-ACT-01). ``spell`` is a spell attack of the caster (ray-of-frost) or any named
    spell with its magic ``skill``; enemies holding reserve may counter it first (SKL-CSPL)."""

    kind: ClassVar[str] = "cast_spell"
    spell: str = ""
    target: str = ""
    skill: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Cast {self.spell}" + (f" at {name(self.target)}" if self.target else "")


@dataclass(frozen=True, slots=True)
class TwoWeaponFighting(Action):
    """SKL-TWF-08 (reading): switch the two-weapon mode on or off, a free action at the start of the turn."""

    kind: ClassVar[str] = "two_weapon_fighting"
    on: bool = True

    def label(self, name: Callable[[str], str] = str) -> str:
        return "Fight with two weapons" if self.on else "Stop fighting with two weapons"


@dataclass(frozen=True, slots=True)
class BonusAttack(Action):
    """An attack paid by a bonus complex action: the two-weapon bonus (an off-hand attack, SKL-TWF-01/02) or a
    talent's attack-only action (``extra_complex_action:attack``, SKL-ACT-09/10)."""

    kind: ClassVar[str] = "bonus_attack"
    target: str = ""
    attack: str | None = None
    critical: int = 0
    square: Square | None = None

    def label(self, name: Callable[[str], str] = str) -> str:
        crit = f" (critical attack {self.critical})" if self.critical else ""
        return f"Bonus attack on {name(self.target)}" + (f" with {self.attack}" if self.attack else "") + crit
