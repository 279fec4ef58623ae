"""Epic Path's surprise (EP-SURP): one ambush check for the ambushing party in place of individual Stealth checks,
awareness checks of the prey against the ambushers' Challenging DC, and accidental encounters.

The scenario gives the facts of the scene (``surprise.ambush``: who ambushes, minutes of preparation, hiding places,
invisibility, who was spot-checking or distracted); the rules are here. The CR-indexed DC ladder is a data file
(``data/ep_dc_ladder.yaml``), an assumption: the seed does not contain it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from d20combat.dice import DiceSource
from d20combat.model.creature import Creature
from d20combat.rulesets.components import StealthSurprise
from d20combat.rulesets.components.surprise import Settled
from d20combat.rulesets.epic_path.dc_ladder import dc_ladder, ladder_dc
from d20combat.rulesets.epic_path.time_scale import ROUNDS_PER_MINUTE

AMBUSH_TARGET = 10
"""EP-SURP-03: an ambush check of 10 or more gives a surprise round."""


def challenge_rating(creature: Creature) -> int:
    """A creature's CR or level: the stat block's ``attributes`` ``cr`` (or ``level``); 1 if it gives neither."""
    attrs = creature.sheet.attributes
    return int(attrs.get("cr", attrs.get("level", 1)))


@dataclass(frozen=True)
class AmbushCheck:
    """EP-SURP-03..10: d20 + min(minutes − 1, 4) + skilled + good hiding places + all invisible, against 10."""

    face: int | None
    preparation: int
    skilled: int
    hiding_places: int
    invisible: int
    given: int | None = None

    @property
    def total(self) -> int:
        if self.given is not None:
            return self.given
        assert self.face is not None
        return self.face + self.preparation + self.skilled + self.hiding_places + self.invisible

    @property
    def success(self) -> bool:
        return self.total >= AMBUSH_TARGET

    def explain(self) -> str:
        if self.given is not None:
            parts = f"{self.given} (given by the GM)"
        else:
            terms = [f"d20 {self.face}"] + [f"{label} {value}" for label, value in (
                ("preparation", self.preparation), ("skilled ambusher", self.skilled),
                ("hiding places", self.hiding_places), ("all invisible", self.invisible)) if value]
            parts = f"{self.total} = " + " + ".join(terms)
        verdict = "≥ 10: a surprise round (EP-SURP-03)" if self.success else \
            "≤ 9: no surprise round, the prey see through the ambush (EP-SURP-04)"
        return f"ambush check {parts} {verdict}"


def preparation_bonus(minutes: int) -> int:
    """EP-SURP-05: +1 for each full minute beyond the first, at most +4."""
    return max(0, min(minutes - 1, 4))


def ambush_check(dice: DiceSource, *, minutes: int, skilled: int, hiding_places: bool, invisible: bool,
                 given: int | None = None) -> AmbushCheck:
    """One member of the ambushing party rolls (EP-SURP-03); abilities that shorten the set-up or raise the DC
    do not change this number (EP-SURP-07)."""
    face = None if given is not None else dice.roll(20, "ambush check")
    return AmbushCheck(face, preparation_bonus(minutes), skilled, int(hiding_places), int(invisible), given)


def awareness_dc(cr: int, dc_step: int, spotting: bool) -> tuple[int, str]:
    """EP-SURP-24..26: the Challenging DC of the ambushers' CR, Hard or Impossible when their ability says so,
    one step easier for a creature that was making Spot checks. A CR beyond the table reads its last row."""
    steps, by_cr = dc_ladder()
    index = steps.index("challenging") + dc_step - (1 if spotting else 0)
    step = steps[max(0, min(index, len(steps) - 1))]
    return ladder_dc(step, min(max(cr, min(by_cr)), max(by_cr))), step


class AmbushSurprise(StealthSurprise):
    """EP-SURP-01..35 as the scenario's ``surprise.ambush`` describes the scene.

    - No ambush set up: a group whose every member is distracted is surprised by any encounter (EP-SURP-15);
      one watcher is enough to avoid it (EP-SURP-16). Sneaky creatures' Stealth decides nothing (EP-SURP-11).
    - An ambush: ruined (EP-SURP-12), set up in under a minute (EP-SURP-02) or against prey on guard
      (EP-SURP-13) gives no surprise round; else the ambush check decides (EP-SURP-03..10).
    - After a successful check each prey rolls Perception against the ambushers' DC (EP-SURP-24..26, the
      highest CR among them); distracted prey make none and are surprised; the ambushers are aware
      (EP-SURP-27). Those who fail are surprised (EP-SURP-29); there is a surprise round however many noticed
      (EP-SURP-17).
    - ``spot_step``: "creature" (the reading of EP-SURP-26) or "group" (one spotter eases the DC for all).
    - The GM's ``surprise.surprised`` overrides everything (no checks).
    """

    def __init__(self, *, spot_step: str = "creature") -> None:
        self.spot_step = spot_step

    def settle(self, battle: Any, dice: DiceSource) -> Settled:
        if battle.surprised is not None:
            return Settled(list(battle.surprised), ["(set by the GM)"], bool(battle.surprised))
        creatures: Mapping[str, Creature] = battle.creatures
        ambush = battle.ambush
        public: list[str] = []  # the reasons that name no hidden creature: the verdict everyone sees
        if any(c.sneaky for c in creatures.values()):
            public.append("Sneaky creatures' Stealth decides nothing: the ambush check does (EP-SURP-11).")
        distracted = set(ambush.distracted) if ambush is not None else set()
        surprised = self._accidental(creatures, distracted, public)
        notes: list[str] = []

        def done(surprise_round: bool) -> Settled:
            return Settled(surprised, [*public, *notes], surprise_round or bool(surprised), " ".join(public))

        if ambush is None or not ambush.ambushers:
            return done(False)
        ambushers = list(ambush.ambushers)
        side = creatures[ambushers[0]].side
        if ambush.ruined:
            public.append("The ambush was ruined (an ambusher spoke or moved): it needs another minute of "
                          "preparation, no surprise round from it (EP-SURP-12).")
            return done(False)
        if ambush.on_guard:
            public.append("The prey are on guard after a foe ducked out of sight: no surprise round (EP-SURP-13).")
            return done(False)
        if ambush.minutes < 1 and ambush.check is None:
            public.append(f"An ambush needs at least 1 minute ({ROUNDS_PER_MINUTE} rounds) of preparation "
                          "(EP-SURP-02): no surprise round.")
            return done(False)
        check = ambush_check(dice, minutes=ambush.minutes, skilled=ambush.skilled,
                             hiding_places=ambush.hiding_places, invisible=ambush.invisible, given=ambush.check)
        public.append(check.explain() + ".")
        if not check.success:
            return done(False)
        cr = max(challenge_rating(creatures[cid]) for cid in ambushers)
        prey = [cid for cid, c in creatures.items() if c.side != side]
        notes.append(f"the ambushers ({', '.join(ambushers)}) are aware (EP-SURP-27)")
        group_spotting = self.spot_step == "group" and any(cid in ambush.spotting for cid in prey)
        for cid in prey:
            if cid in surprised:
                continue
            if cid in distracted:
                notes.append(f"{cid} is distracted: no Perception check, surprised (EP-SURP-15)")
                surprised.append(cid)
                continue
            if not self._notices(creatures[cid], cr, ambush.dc_step, cid in ambush.spotting or group_spotting,
                                 dice, notes):
                surprised.append(cid)
        return done(True)

    @staticmethod
    def _accidental(creatures: Mapping[str, Creature], distracted: set[str], notes: list[str]) -> list[str]:
        out: list[str] = []
        by_side: dict[str, list[str]] = {}
        for cid, c in creatures.items():
            by_side.setdefault(c.side, []).append(cid)
        for side, members in by_side.items():
            if all(cid in distracted for cid in members):
                notes.append(f"Every one of {side} is distracted: an accidental encounter, they are surprised "
                             "(EP-SURP-15).")
                out.extend(members)
            elif any(cid in distracted for cid in members):
                notes.append(f"{side} kept a watch: only a prepared ambush can surprise them (EP-SURP-16).")
        return out

    @staticmethod
    def _notices(creature: Creature, cr: int, dc_step: int, spotting: bool, dice: DiceSource,
                 notes: list[str]) -> bool:
        """EP-SURP-24/29/30: Perception (a free action) against the awareness DC."""
        dc, step = awareness_dc(cr, dc_step, spotting)
        mod = creature.sheet.skills.get("perception", 0)
        face = dice.roll(20, f"awareness {creature.id}")
        result = face + mod
        why = f"{step} DC {dc} of CR {cr}" + (" (one step easier: it was spot-checking, EP-SURP-26)"
                                                if spotting else "")
        ok = result >= dc
        notes.append(f"{creature.id} Perception {result} = d20 {face} {mod:+d} vs {why}: "
                     + ("aware (EP-SURP-30)" if ok else "surprised (EP-SURP-29)"))
        return ok

