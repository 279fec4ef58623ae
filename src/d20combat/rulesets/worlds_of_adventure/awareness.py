"""Awareness and surprise (WOA-CYCLE-01/03/06..08): no surprise round; the surprise attack comes before round 1.

The DM says who is aware of whom (WOA-CYCLE-01): the scenario's ``surprise: {surprised: [...]}``. When it gives
none, the reading of the missing Determining Awareness sidebar (WOA-CYCLE-06) in ``data/woa_awareness.yaml`` decides:
sneaky creatures roll Stealth, the others Perception against each of them; an observer that notices none is
surprised. Whoever is surprised takes −20 on initiative in the first round and is flat-footed until it has had a
chance to act (WOA-CYCLE-03/08), which the round cycle applies. There is no surprise round (WOA-CYCLE-07): the aware
make their surprise attacks first (:mod:`.surprise_attack`), then round 1 begins.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import yaml

from d20combat.dice import DiceSource
from d20combat.model.creature import Creature
from d20combat.rules.surprise import determine_surprise
from d20combat.rulesets.components.surprise import Settled, StealthSurprise


@dataclass(frozen=True, slots=True)
class AwarenessReading:
    """``data/woa_awareness.yaml``: the reading of the missing Determining Awareness sidebar (WOA-CYCLE-06)."""

    hider_skill: str = "stealth"
    observer_skill: str = "perception"
    aware_when: str = "any"
    """``any``: an observer that notices one hider is aware; ``all``: it must notice every one."""
    surprise_attack: bool = True
    """Each aware creature makes one attack before round 1 (WOA-CYCLE-07); False: none."""
    surprise_order: str = "initiative_modifier"
    """The order of the surprise attacks: ``initiative_modifier`` (highest first) or ``scenario``."""


@cache
def awareness_reading() -> AwarenessReading:
    """The data file, checked: a wrong value names the field."""
    raw = yaml.safe_load(resources.files("d20combat.data").joinpath("woa_awareness.yaml").read_text("utf-8"))
    attack = raw.get("surprise_attack") or {}
    reading = AwarenessReading(str(raw["hider_skill"]), str(raw["observer_skill"]), str(raw["aware_when"]),
                               attack.get("attack", True), str(attack.get("order", "initiative_modifier")))
    if reading.aware_when not in ("any", "all"):
        raise ValueError(f"woa_awareness.yaml: aware_when must be 'any' or 'all', not {reading.aware_when!r}")
    if reading.surprise_order not in ("initiative_modifier", "scenario"):
        raise ValueError("woa_awareness.yaml: surprise_attack.order must be 'initiative_modifier' or 'scenario', "
                         f"not {reading.surprise_order!r}")
    if not isinstance(reading.surprise_attack, bool):
        raise ValueError(f"woa_awareness.yaml: surprise_attack.attack must be true or false, not "
                         f"{reading.surprise_attack!r}")
    return reading


class Awareness(StealthSurprise):
    """WOA-CYCLE-01/06/07: who is surprised, and the surprise attacks before round 1 instead of a surprise round."""

    def __init__(self, reading: AwarenessReading | None = None) -> None:
        self.reading = reading or awareness_reading()

    def determine(self, creatures: Mapping[str, Creature], given: tuple[str, ...] | None, dice: DiceSource
                  ) -> tuple[list[str], list[str]]:
        """WOA-CYCLE-01: the DM's word (the scenario); else WOA-CYCLE-06's reading of the missing sidebar."""
        if given is not None:
            return list(given), ["(set by the scenario: the DM says who is aware, WOA-CYCLE-01)"]
        r = self.reading
        sneakers = [c for c in creatures.values() if c.sneaky]
        sneaky_sides = {c.side for c in sneakers}
        observers = [c for c in creatures.values() if c.side not in sneaky_sides]
        return determine_surprise(sneakers, observers, dice, hider_skill=r.hider_skill,
                                  observer_skill=r.observer_skill, aware_when=r.aware_when)

    def settle(self, battle: Any, dice: DiceSource) -> Settled:
        """The surprised; the "round" flag opens the surprise attacks before round 1 (:mod:`.surprise_attack`) when
        an aware creature has a surprised foe."""
        surprised, notes = self.determine(battle.creatures, battle.surprised, dice)
        attackers = surprise_attackers(battle.creatures, surprised) if self.reading.surprise_attack else []
        if surprised:
            first = "the surprise attacks come first, then round 1 begins" if attackers else "round 1 begins"
            notes = [*notes, f"no surprise round: {first}; the surprised take −20 on initiative in round 1 and are "
                             "flat-footed until they act (WOA-CYCLE-03/07/08)"]
        return Settled(surprised, notes, bool(attackers))


def surprise_attackers(creatures: Mapping[str, Creature], surprised: list[str] | frozenset[str]) -> list[str]:
    """The aware creatures with a surprised foe (in the scenario's order)."""
    unaware_sides = {creatures[cid].side for cid in surprised if cid in creatures}
    return [cid for cid, c in creatures.items()
            if cid not in surprised and any(side != c.side for side in unaware_sides)]
