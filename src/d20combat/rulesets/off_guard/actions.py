"""The off-guard ruleset's own actions: coup de grace, escape, guide, blind move, casting (the deafened fumble) and
the GM's one-attack ruling, with their handlers (the coup de grace's is in :mod:`.coup_de_grace`), and the moves
the conditions forbid."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

from d20combat.battlefield.grid import Square
from d20combat.encounter import actions as ax

if TYPE_CHECKING:
    pass


@dataclass(frozen=True, slots=True)
class CoupDeGrace(ax.Action):
    """Coup de grace (CMV-CDG): a full-round attack at +4 on a helpless creature in melee reach (or
    adjacent, with a projectile weapon); a hit forces a death save DC 10 + damage. Against total
    concealment the first use "finds" the creature in ``square``, the next turn's use strikes."""

    kind: ClassVar[str] = "coup_de_grace"
    target: str = ""
    attack: str | None = None
    square: Square | None = None

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Coup de grâce on {name(self.target)}" + (f" with {self.attack}" if self.attack else "")


@dataclass(frozen=True, slots=True)
class Escape(ax.Action):
    """Struggle against what holds you (CMV-COND-36): a major action, a check against the escape DC."""

    kind: ClassVar[str] = "escape"

    def label(self, name: Callable[[str], str] = str) -> str:
        return "Try to escape the hold"


@dataclass(frozen=True, slots=True)
class Guide(ax.Action):
    """Aid an adjacent blinded or staggered ally (CMV-COND-03, CMV-INJ-07): a minor action that lets
    it move at full speed until your next turn."""

    kind: ClassVar[str] = "guide"
    ally: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Guide {name(self.ally)}"


@dataclass(frozen=True, slots=True)
class BlindMove(ax.Action):
    """Variant ``cmv_blind_full_speed_check`` (CMV-COND-03): a blinded creature moves at full speed
    after a DC 10 Dexterity check; on a failure it falls prone where the move began."""

    kind: ClassVar[str] = "blind_move"
    to: Square = (0, 0)

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"Move blind to ({self.to[0]}, {self.to[1]})"


@dataclass(frozen=True, slots=True)
class CastSpell(ax.Action):
    """Cast a spell whose effect the GM resolves (spells are external to CMV); a deafened caster's
    verbal component fumbles on d% ≤ 20 (CMV-COND-08) and the action is spent."""

    kind: ClassVar[str] = "cast_spell"
    spell: str = ""
    verbal: bool = True
    full_round: bool = False

    def label(self, name: Callable[[str], str] = str) -> str:
        how = (" (full round)" if self.full_round else "") + ("" if self.verbal else " (silent)")
        return f"Cast {self.spell}{how}"


@dataclass(frozen=True, slots=True)
class GmAttack(ax.Action):
    """An attack with the GM's ruling for this one attack (CMV-SIT-03, CMV-COV-18/22, CMV-CONC-18):
    an extra attack modifier, an AC modifier, a cover grade, a miss chance, or a refusal."""

    kind: ClassVar[str] = "gm_attack"
    target: str = ""
    attack: str | None = None
    square: Square | None = None
    attack_modifier: int = 0
    ac_modifier: int = 0
    cover: Literal["none", "cover", "improved"] | None = None
    miss_chance: int | None = None
    refuse: str = ""
    reason: str = "GM ruling"

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"GM-ruled attack on {name(self.target)}" + (f" with {self.attack}" if self.attack else "")



# ------------------------------------------------------------------------------------------ the component
