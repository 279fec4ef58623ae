"""What the game master can do by hand (issue 13): plain values like the creatures' actions, resolved by
:mod:`d20combat.encounter.gm_rules` into events through :meth:`d20combat.encounter.engine.Encounter.gm`.

Each is a write of its own: evented (its first event, :class:`~d20combat.encounter.events.GmEdited`, says who did
it and what), undoable like any action, recorded with its dice so an export can be verified, and legal at any time
the encounter is running and no reaction is being asked for — on anyone's turn.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from d20combat.battlefield.grid import Square
from d20combat.encounter.actions import Action

SaveKind = Literal["fort", "ref", "will"]


@dataclass(frozen=True, slots=True)
class GmAction(Action):
    """A game master's write (not a creature's action: it spends no turn)."""

    kind: ClassVar[str] = "gm"


@dataclass(frozen=True, slots=True)
class GmDamage(GmAction):
    """Deal ``amount`` damage by hand (a trap, a spell the engine does not model); the ruleset's injury rules
    follow as for any damage (dying, death saves, bloodied…)."""

    kind: ClassVar[str] = "gm_damage"
    target: str
    amount: int
    why: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"{self.amount} damage to {name(self.target)}" + (f" ({self.why})" if self.why else "")


@dataclass(frozen=True, slots=True)
class GmHeal(GmAction):
    """Heal ``amount`` hit points by hand, up to the maximum (the ruleset's ``injury.heal``)."""

    kind: ClassVar[str] = "gm_heal"
    target: str
    amount: int
    why: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"heal {name(self.target)} {self.amount}" + (f" ({self.why})" if self.why else "")


@dataclass(frozen=True, slots=True)
class GmSetHp(GmAction):
    """Set current hit points: damage or healing by the difference."""

    kind: ClassVar[str] = "gm_set_hp"
    target: str
    hp: int

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"set {name(self.target)}'s hp to {self.hp}"


@dataclass(frozen=True, slots=True)
class GmCondition(GmAction):
    """Add (``present``) or remove a condition: ``prone``, ``shaken``, ``hidden``, ``concealed:20``…"""

    kind: ClassVar[str] = "gm_condition"
    target: str
    condition: str
    present: bool = True

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"{'add' if self.present else 'remove'} {self.condition} {'to' if self.present else 'from'} " \
               f"{name(self.target)}"


@dataclass(frozen=True, slots=True)
class GmEffect(GmAction):
    """A timed effect: it ends just before ``anchor``'s turn ``rounds`` rounds from now (PFB-TIME-03..05; the
    anchor defaults to the creature whose turn it is). ``ac``/``attack`` are flat modifiers while it lasts;
    ``condition`` is a condition it brings (``concealed:20`` for *blur*)."""

    kind: ClassVar[str] = "gm_effect"
    target: str
    name: str
    rounds: int
    anchor: str | None = None
    ac: int = 0
    attack: int = 0
    condition: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"{self.name} on {name(self.target)} for {self.rounds} round{'s' if self.rounds != 1 else ''}"


@dataclass(frozen=True, slots=True)
class GmEndEffect(GmAction):
    """End a timed effect now."""

    kind: ClassVar[str] = "gm_end_effect"
    target: str
    name: str

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"end {self.name} on {name(self.target)}"


@dataclass(frozen=True, slots=True)
class GmAddCreature(GmAction):
    """A creature joins the fight (reinforcements). ``sheet`` is a completed stat block (as
    :func:`d20combat.scenario.creature_to_add` makes from a scenario combatant entry: a bestiary name or an inline
    block); ``initiative`` is rolled (d20 + its modifiers) when not given."""

    kind: ClassVar[str] = "gm_add_creature"
    combatant: str
    side: str
    sheet: Any
    position: Square
    name: str | None = None
    hp: int | None = None
    initiative: int | None = None
    wielding: str | None = None
    sneaky: bool = False

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"add {self.name or self.combatant} ({self.side}) at ({self.position[0]}, {self.position[1]})"


@dataclass(frozen=True, slots=True)
class GmRemoveCreature(GmAction):
    """Take a creature off the table (undo puts it back)."""

    kind: ClassVar[str] = "gm_remove_creature"
    target: str

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"remove {name(self.target)}"


@dataclass(frozen=True, slots=True)
class GmSave(GmAction):
    """Call for a saving throw against ``dc``: d20 + the ruleset's save modifiers, natural 1/20 as the ruleset
    says. The dice come from the encounter's source (typed or rolled)."""

    kind: ClassVar[str] = "gm_save"
    target: str
    save: SaveKind
    dc: int
    why: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        what = {"fort": "Fortitude", "ref": "Reflex", "will": "Will"}[self.save]
        return f"{what} save DC {self.dc} for {name(self.target)}"


@dataclass(frozen=True, slots=True)
class GmCheck(GmAction):
    """Call for a skill check against ``dc`` (``perception``, ``climb``…; an ability check with an unknown skill
    as the ruleset's saves component says)."""

    kind: ClassVar[str] = "gm_check"
    target: str
    skill: str
    dc: int
    why: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"{self.skill.capitalize()} check DC {self.dc} for {name(self.target)}"


@dataclass(frozen=True, slots=True)
class GmRuleDeclaration(GmAction):
    """Rule what ``target`` carries out this round instead of what it declared (WOA-CYCLE-25: the GM's ruling on a
    declaration that can no longer be carried out, overriding the ruleset's default): a declaration's fields —
    ``standard``, ``move``, ``full_round``, the foe aimed at (``foe``), the creature delayed after (``after``);
    all empty: it does nothing this round. Only in a ruleset that declares (a declaration phase)."""

    kind: ClassVar[str] = "gm_rule_declaration"
    target: str
    standard: str = ""
    move: str = ""
    full_round: str = ""
    foe: str | None = None
    after: str | None = None
    why: str = ""

    def label(self, name: Callable[[str], str] = str) -> str:
        return f"rule {name(self.target)}'s declaration"


GM_ACTION_TYPES: tuple[type[GmAction], ...] = (GmDamage, GmHeal, GmSetHp, GmCondition, GmEffect, GmEndEffect,
                                               GmAddCreature, GmRemoveCreature, GmSave, GmCheck, GmRuleDeclaration)
"""Every game-master write, by class (:func:`d20combat.encounter.actions.action_from_dict` takes them as own types)."""
